"""When the web seat builds a scene (web/seat.py ``to_page``): only when something it reads changed, or time did.

A seat builds no scene while nothing it reads changed since the last (a heartbeat's pong, a tick with nothing
due) and the table's screen says its scene does not change by time alone before now (``changes_at``: an
announcement's end). These tests hold that skipping never leaves the page stale: after every frame the scene
the page draws is the one a fresh, whole build gives (docs/web.md, *Scenes*).
"""

from __future__ import annotations

import pytest

from board99.client.gui.table_talk import TOAST_SECONDS
from tests.test_web_seat import over, play_turn, seated_pair
from tests.web_seat_kit import Page, Room

TURNS_MAX = 400  # a whole game of two players takes far fewer turns


def fresh(page: Page) -> dict:
    """The scene the seat would build now, whole (a clock's count left out: the page counts it down itself)."""
    return without_count(page.seat.scene())


def without_count(scene: dict) -> dict:
    return {**scene, "parts": [{**p, "seconds": None} if p.get("type") == "clock" else p for p in scene["parts"]]}


def builds(page: Page, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The times the page's seat builds a scene from now on."""
    seat, made = page.seat, []
    scene = seat.scene

    def counted(now: float | None = None) -> dict:
        made.append(page.room.now)
        return scene(now)

    monkeypatch.setattr(seat, "scene", counted)
    return made


def test_a_whole_game_leaves_each_page_drawing_what_a_fresh_scene_shows(room: Room,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    ann, bo, _ = seated_pair(room)
    made = builds(ann, monkeypatch)
    for _ in range(TURNS_MAX):
        if over(ann) and over(bo):
            break
        play_turn(ann if ann.scene["turn"] else bo)
        for page in (ann, bo):
            assert without_count(page.scene) == fresh(page)
    assert over(ann) and over(bo)
    room.advance(TOAST_SECONDS)  # the end's announcement ends
    assert without_count(ann.scene) == fresh(ann)
    drawn_before = len(ann.drawn)
    made.clear()
    room.advance(30.0)  # heartbeats and their pongs only: nothing the scenes read changes
    assert made == [] and len(ann.drawn) == drawn_before
    assert without_count(ann.scene) == fresh(ann)


def test_an_announcement_ends_on_a_clock_table_with_nothing_else_said(room: Room,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_web_seat import new_table

    ann, bo = room.page("ann"), room.page("bo")
    ann.hello("Ann")
    bo.hello("Bo")
    table = new_table(ann, name="Quick", players="2", clock="60")
    ann.press(f"sit-{table}-0")
    bo.press("refresh")
    bo.press(f"sit-{table}-1")
    assert ann.part("clock") is not None
    news = ann.part("news")
    assert news is not None, "the start is announced"
    ends = ann.seat.table.changes_at(room.now)  # type: ignore[union-attr]
    assert room.now < ends <= room.now + TOAST_SECONDS
    # The gateway ticks (and so flushes) a seat at its next_tick only: the announcement's end is one, not the
    # next heartbeat after it (up to a second late).
    assert ann.seat.next_tick() <= ends
    made = builds(ann, monkeypatch)
    room.advance(ends - room.now - 0.5, step=0.1)
    assert made == [], "no scene is built while nothing changes it"
    assert ann.part("news") == news
    room.advance(1.0, step=0.1)
    assert ann.part("news") is None, "the announcement's end alone changes the scene"
    assert len(made) == 1 and made[0] >= ends
    assert without_count(ann.scene) == fresh(ann)
    assert ann.seat.table.changes_at(room.now) == float("inf")  # type: ignore[union-attr]


def test_the_gateway_hears_of_an_announcements_end_on_time(room: Room) -> None:
    from tests.test_web_seat import new_table

    ann, bo = room.page("ann"), room.page("bo")
    ann.hello("Ann")
    bo.hello("Bo")
    table = new_table(ann, name="Quick", players="2")
    ann.press(f"sit-{table}-0")
    bo.press("refresh")
    bo.press(f"sit-{table}-1")
    assert ann.part("news") is not None, "the start is announced"
    ends = ann.seat.table.changes_at(room.now)  # type: ignore[union-attr]
    gone_at = None
    while gone_at is None and room.now < ends + 2.0:
        # As web/gateway.py does: a seat is ticked, and its page sent what changed, only at its next_tick.
        room.desk.now = room.now + 0.02
        if ann.seat.next_tick() <= room.now:
            ann.seat.tick(room.now)
            room.pump()
            if ann.part("news") is None:
                gone_at = room.now
        if room.now >= room.desk.core.deadline():
            room.deliver(room.desk.core.tick(room.now))
    assert gone_at is not None and ends <= gone_at <= ends + 0.05


def test_a_ninety_nine_game_with_bots_leaves_the_page_drawing_what_a_fresh_scene_shows(room: Room) -> None:
    import random

    from tests.test_web_ninety import page_move, seated_among_bots

    ann = seated_among_bots(room)
    rng = random.Random(4)
    for _ in range(TURNS_MAX):
        if ann.part("result") is not None:
            break
        if not page_move(ann, rng):
            room.advance(0.5)  # the bots' turns
        assert without_count(ann.scene) == fresh(ann)
    assert ann.part("result") is not None
