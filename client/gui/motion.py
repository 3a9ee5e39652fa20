"""Motion on the table as data: tweens with a start, a length and two places, read against a clock.

Motions are decoration over the true state, never a queue in front of it: the
board always shows the latest view, a new batch of events replaces whatever
still runs (``Motions.start``), and a click or key ends them all at once
(``Motions.finish``). Nothing here draws; ``table_motion.MotionPart`` turns
places into window positions and draws the running motions. Pure: no arcade,
and the clock is passed in, so tests move time by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Literal

from board99.events import Discarded, Drew, Event, Penalty, Played, Won

#: Where a motion starts or ends: the deck, a seat's hand or discard pile, a board square.
PlaceKind = Literal["deck", "hand", "pile", "square"]
Place = tuple[PlaceKind, int]
#: What moves: a card (face ``card``, or its back), a peg dropping in, a peg lifted off, a shown card
#: turned and slid back into the deck, the winning line drawn through, the winner's celebration.
Kind = Literal["card", "drop", "lift", "shown", "line", "celebrate"]

# The lengths at factor 1.0, in seconds: quick, so a move never feels slow.
CARD_SECONDS = 0.3
DROP_SECONDS = 0.25
LIFT_SECONDS = 0.55
SHOWN_SECONDS = 0.8
LINE_SECONDS = 0.4
CELEBRATE_SECONDS = 1.8


def ease_out(t: float) -> float:
    """Fast start, gentle arrival (cubic)."""
    return 1 - (1 - t) ** 3


@dataclass(frozen=True)
class Motion:
    """One tween: ``kind`` moves from ``origin`` to ``target`` over ``duration`` s, ``delay`` s after ``start``."""

    kind: Kind
    origin: Place
    target: Place
    duration: float
    delay: float = 0.0
    start: float = 0.0
    card: int | None = None  # the face a moving card shows (None: its back)
    side: int | None = None  # the side whose peg moves, or whose line is drawn
    squares: tuple[int, ...] = ()  # the winning line's squares

    @property
    def end(self) -> float:
        """When the motion is over."""
        return self.start + self.delay + self.duration

    def progress(self, now: float) -> float:
        """0 before it begins, 1 once over, eased in between."""
        if self.duration <= 0:
            return 1.0
        t = (now - self.start - self.delay) / self.duration
        return ease_out(min(1.0, max(0.0, t)))

    def begun(self, now: float) -> bool:
        """True once its delay has passed."""
        return now >= self.start + self.delay


def plan(events: Iterable[Event], me: int | None, side_of: Callable[[int], int | None] = lambda seat: None,
         ) -> list[Motion]:
    """The motions a batch of server events asks for (lengths at factor 1.0, start 0); ``side_of`` a seat's side."""
    out: list[Motion] = []
    at = 0.0  # a batch's motions follow one another a little, so cause comes before effect
    for event in events:
        match event:
            case Drew(seat, card):
                out.append(Motion("card", ("deck", 0), ("hand", seat), CARD_SECONDS, at,
                                  card=card if seat == me else None))
            case Played(seat, card, square):
                out.append(Motion("card", ("hand", seat), ("square", square), CARD_SECONDS, at, card=card))
                out.append(Motion("drop", ("square", square), ("square", square), DROP_SECONDS,
                                  at + CARD_SECONDS * 0.7, side=side_of(seat)))
                at += CARD_SECONDS * 0.5
            case Discarded(seat, card):
                out.append(Motion("card", ("hand", seat), ("pile", seat), CARD_SECONDS, at, card=card))
            case Penalty(seat, offence, card, square):
                if square >= 0:  # a peg put where it may not go: shown, then lifted off
                    out.append(Motion("lift", ("square", square), ("square", square), LIFT_SECONDS, at,
                                      side=side_of(seat)))
                    out.append(Motion("card", ("square", square), ("pile", seat), CARD_SECONDS,
                                      at + LIFT_SECONDS * 0.6, card=card))
                elif offence in ("draw-out-of-turn", "illegal-draw"):  # shown to all, back into the deck
                    out.append(Motion("shown", ("deck", 0), ("deck", 0), SHOWN_SECONDS, at, card=card))
                else:  # a discard out of turn: the card goes to the pile all the same
                    out.append(Motion("card", ("hand", seat), ("pile", seat), CARD_SECONDS, at, card=card))
            case Won(side, _, line):
                out.append(Motion("line", ("square", line[0] if line else 0), ("square", line[-1] if line else 0),
                                  LINE_SECONDS, at + CARD_SECONDS, side=side, squares=line))
                out.append(Motion("celebrate", ("square", 0), ("square", 0), CELEBRATE_SECONDS,
                                  at + CARD_SECONDS + LINE_SECONDS * 0.5, side=side, squares=line))
    return out


class Motions:
    """The motions running now; a new batch replaces the old one (the true state never waits)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.items: list[Motion] = []

    def start(self, motions: Iterable[Motion], factor: float = 1.0) -> None:
        """Run ``motions`` from now, their lengths times ``factor`` (0: no motion at all)."""
        self.items = []
        if factor <= 0:
            return
        now = self.clock()
        self.items = [replace(m, start=now, duration=m.duration * factor, delay=m.delay * factor) for m in motions]

    def finish(self) -> bool:
        """End every running motion at once (a click or key); True if any was running."""
        running = bool(self.running())
        self.items = []
        return running

    def running(self) -> list[Motion]:
        """The motions not yet over (drops those that are)."""
        now = self.clock()
        if self.items and any(m.end <= now for m in self.items):
            self.items = [m for m in self.items if m.end > now]
        return self.items

    @property
    def until(self) -> float:
        """When the last running motion ends (the window stays awake until then)."""
        return max((m.end for m in self.items), default=0.0)

    def moving_squares(self, kind: Kind) -> set[int]:
        """The squares a running motion of ``kind`` is over (the board hides a dropping peg's real one)."""
        now = self.clock()
        return {m.target[1] for m in self.running() if m.kind == kind and m.target[0] == "square" and m.end > now}
