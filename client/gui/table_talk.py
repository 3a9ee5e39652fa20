"""What the table says to the player: the log, the announcements of the moment, the notice line (pure).

A part of the table's state (``TableState.talk``); it draws nothing and owns
no clock (the announcements' end times come from the one passed in).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from typing import Literal, NamedTuple

from . import wording

#: How a line is said: the parts pick its colour.
Tone = Literal["plain", "warn", "bad", "good"]
LOG_LINES = 200  # the log keeps this many lines
TOAST_SECONDS = 6.0  # how long an announcement shows in the panel
TOASTS_SHOWN = 3  # the newest announcements shown at once


class Toast(NamedTuple):
    """An announcement in the panel (a penalty, a new deal, a clock move): it covers nothing."""

    text: str
    tone: Tone
    until: float


class Talk:
    """The log (every line said at this table), the announcements still showing, and the one notice line."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.toasts: list[Toast] = []
        self.notice = ""  # one line under the buttons: the last refusal or hint
        self.notice_tone: Tone = "plain"

    def announce(self, text: str, tone: Tone = "plain", seconds: float = TOAST_SECONDS) -> None:
        """Show an announcement in the panel for ``seconds`` (it covers nothing)."""
        self.toasts = [*self.toasts[-(TOASTS_SHOWN - 1):], Toast(text, tone, self.clock() + seconds)]

    def tell(self, text: str, tone: Tone = "plain") -> None:
        """Show one line under the buttons (a refusal, a hint)."""
        self.notice, self.notice_tone = text, tone

    def toasts_now(self, connected: bool) -> list[Toast]:
        """The announcements to show now, newest last; a lost link first, for as long as it lasts."""
        now = self.clock()
        live = [t for t in self.toasts if t.until > now][-TOASTS_SHOWN:]
        if not connected:
            live.insert(0, Toast(wording.RECONNECTING, "bad", now + 1))
        return live

    def changes_at(self, now: float) -> float:
        """When the announcements shown change by time alone (the next one's end after ``now``; inf: never)."""
        return min((t.until for t in self.toasts if t.until > now), default=math.inf)

    def reword(self, old: str, new: str) -> None:
        """Say ``new`` wherever ``old`` was logged or is announced (in place: the panel holds the log)."""
        for i in [i for i, entry in enumerate(self.log) if entry == old]:
            self.log[i] = new
        self.toasts = [t._replace(text=new) if t.text == old else t for t in self.toasts]
