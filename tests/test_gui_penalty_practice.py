"""Penalty practice as a person does it (issue 19): real X input, 1.5 s from the key to confirming, all five offences.

A real server runs in a thread on 127.0.0.1 with its bots at a person's pace;
the real window runs on Xvfb, and every key and click is real X input sent by
xdotool (XTEST) to the window, which reads it as it reads a keyboard. Between
the key that makes an offence and the Enter that confirms its warning, the
window runs on for 1.5 s while the bots think and move, as a person would take.

The server's person pace is 2 s here (3 s in `board99 play`): still longer than
the 1.5 s reaction, and it keeps the test near 50 s, since the person must draw
five times on their own turn (a round of three bots each) before the illegal
draw can be made.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest

from board99 import PENALTY_RULES
from board99.layout import POSITION
from tests.gui_harness import run_until, step, window

pytestmark = pytest.mark.timeout(150)

REACTION = 1.5  # seconds from the key (or click) that makes the offence to the Enter that confirms it
PERSON_PACE = 2.0  # the server's person pace in this test (Settings.person_pace; 3 s by default)


def _xdotool() -> str:
    exe = shutil.which("xdotool")
    if exe is None:
        if os.environ.get("CI", "").lower() == "true":
            raise RuntimeError("CI=true: xdotool is missing; `make gui-deps` installs it (Debian package xdotool)")
        pytest.skip("no xdotool: run `make gui-deps` (or apt-get install xdotool) for the real-input test")
    return exe


class Person:
    """Real X input to the window (xdotool, XTEST), and the window running on between inputs."""

    def __init__(self, win) -> None:
        self.win, self.exe = win, _xdotool()
        self.wid = str(win._window)  # pyglet's X window id
        self.x(["windowfocus", "--sync", self.wid])

    def x(self, args: list[str]) -> None:
        subprocess.run([self.exe, *args], check=True, timeout=10, env=os.environ.copy())

    def key(self, name: str) -> None:
        """Press and release one key on the keyboard (as X names it: d, x, 1, Return)."""
        self.x(["key", "--clearmodifiers", name])
        step(self.win, 2)  # the window reads it

    def click(self, x: float, y: float) -> None:
        """Move the pointer to window pixel (x, y) (arcade counts y from the bottom) and click."""
        self.x(["mousemove", "--window", self.wid, str(int(x)), str(int(self.win.height - y)), "click", "1"])
        step(self.win, 2)

    def wait(self, seconds: float) -> None:
        """Let the window run (the bots move, the screen follows) for ``seconds``."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.win.step()
            time.sleep(0.01)


@pytest.fixture
def practice(tmp_path):
    from board99.client.gui.app import App
    from board99.server.loop import run_in_thread

    server = run_in_thread(port=0, data_dir=tmp_path, bot_delay=0.0, person_pace=PERSON_PACE)
    win = window()
    app = App(win, name="Tester", discover=None)
    app.connect(server.endpoint)
    # Random bots: they rarely make a line in the few rounds this takes, so the game lasts.
    tv = app.practice(players=4, mode="penalty", bot="random", bot_pace="person")
    try:
        yield win, tv
    finally:
        app.shutdown()
        server.stop()
        step(win, 1)


def my_penalties(tv) -> list[str]:
    return [line for line in tv.state.log if line.startswith("Penalty: You")]


def turns_owed(tv) -> int:
    """Turns our penalties have cost: still to lose (``skips``), and lost already (a slow machine lets the turn come round)."""
    lost = sum(1 for line in tv.state.log if line == "You lose this turn (penalty)")
    return tv.state.view.skips[tv.state.view.seat] + lost


def commit(person: Person, tv, offence: str, make) -> object:
    """Make the offence (``make()``: its key or click), take REACTION seconds, confirm; the penalty follows.

    Returns the view the person confirmed on.
    """
    before = len(my_penalties(tv))
    make()
    assert tv.state.warning is not None, f"{offence}: no warning ({tv.state.notice!r})"
    assert tv.overlays.warn_back.visible and PENALTY_RULES[offence] in tv.overlays.t_warn.text
    person.wait(REACTION)
    assert tv.state.warning is not None and tv.state.warning.offence == offence, (
        f"{offence}: the warning closed before the person confirmed it ({tv.state.notice!r})")
    confirmed_on = tv.state.view
    person.key("Return")
    run_until(person.win, lambda: len(my_penalties(tv)) > before, 10, f"the penalty for {offence}")
    line = my_penalties(tv)[-1]
    assert PENALTY_RULES[offence] in line, line
    return confirmed_on


@pytest.mark.slow
def test_a_person_taking_1_5_s_commits_each_of_the_five_offences_at_a_table_of_bots(practice):
    win, tv = practice
    run_until(win, lambda: tv.state.view is not None and tv.state.table is not None
              and tv.state.table.state == "playing", 15, "the practice table to start")
    assert tv.state.table.bot_pace == "person" and tv.state.table.mode == "penalty"
    person = Person(win)
    me = tv.state.view.seat
    started = time.monotonic()

    def mine() -> bool:
        v = tv.state.view
        return v.turn == me and v.winner is None

    # Five proper draws on our own turns: a full hand, for the illegal draw.
    while len(tv.state.view.hand) < 5:
        run_until(win, mine, 20, "our turn")
        held = len(tv.state.view.hand)
        person.key("d")
        assert tv.state.warning is None  # our turn, room in the hand: a proper draw, no warning
        run_until(win, lambda h=held: len(tv.state.view.hand) > h, 10, "our draw")

    # 1. Illegal draw: our turn, five cards held.
    run_until(win, mine, 20, "our turn with five cards")
    ply = tv.state.view.ply
    commit(person, tv, "illegal-draw", lambda: person.key("d"))
    run_until(win, lambda: tv.state.view.ply > ply, 5, "the view after the penalty")
    v = tv.state.view
    assert len(v.hand) == 5 and v.turn != me  # nothing gained, the turn ended

    # 2. Illegal play: our turn, a card on a free square below it.
    run_until(win, mine, 20, "our next turn")
    v = tv.state.view
    index, card = max(enumerate(v.hand), key=lambda ic: ic[1])
    square = next(sq for sq in range(card) if v.board[sq] is None)

    def illegal_play() -> None:
        person.key(str(index + 1))
        assert tv.state.picked_card == card
        person.click(*tv.geo.square_centre(*POSITION[square]))

    commit(person, tv, "illegal-play", illegal_play)
    run_until(win, lambda: tv.state.view.turn != me, 5, "the turn to end")
    v = tv.state.view
    assert v.board[square] is None and v.discards[me][-1] == card and card not in v.hand

    # 3. Play out of turn, while a bot thinks.
    v = tv.state.view
    card = v.hand[0]
    square = next(sq for sq in range(card, 100) if v.board[sq] is None)

    def play_out_of_turn() -> None:
        person.key("1")
        person.click(*tv.geo.square_centre(*POSITION[square]))

    commit(person, tv, "play-out-of-turn", play_out_of_turn)
    run_until(win, lambda: tv.state.view.discards[me][-1:] == (card,), 5, "the view after the penalty")
    v = tv.state.view
    assert v.board[square] is None and card not in v.hand and turns_owed(tv) == 1

    # 4. Discard out of turn.
    card = v.hand[0]

    def discard_out_of_turn() -> None:
        person.key("1")
        person.key("x")

    commit(person, tv, "discard-out-of-turn", discard_out_of_turn)
    run_until(win, lambda: tv.state.view.discards[me][-1:] == (card,), 5, "the view after the penalty")
    assert card not in tv.state.view.hand and turns_owed(tv) == 2

    # 5. Draw out of turn, the key pressed a second into a bot's thinking: the bot moves while the
    # warning is open, and the warning holds (it is still a draw out of turn), so Enter still does it.
    person.wait(1.0)
    at_key = tv.state.view
    assert at_key.turn != me
    confirmed_on = commit(person, tv, "draw-out-of-turn", lambda: person.key("d"))
    assert confirmed_on.ply > at_key.ply  # a bot moved while the warning was open (its pace is 2 s)
    assert tv.state.view.hand == at_key.hand  # nothing gained: the card was shown and cut back
    run_until(win, lambda: turns_owed(tv) == 3, 5, "the third turn owed")
    assert len(my_penalties(tv)) == 5
    assert time.monotonic() - started < 90
