"""The table's layout measured in a real window: nothing overlaps, nothing leaves the window, the board never shrinks for text.

Every seat's label, turn line and pile count, every pile, the hand's cards,
the first-game tip and its button, and the board are measured as drawn
(texts by their laid-out size) at 960x640, 1280x800 and 2560x1440, with
the settings' text size at 100% and 150%, for 2, 4 and 6 players.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from board99 import Game
from board99.bots import make_bot
from board99.client.gui.geometry import Rect
from board99.client.gui.messages import Events, Replied, StateChanged
from board99.coach import advise
from board99.events import shown_to
from tests.gui_harness import midgame_4p, step, table_info, window

pytestmark = pytest.mark.timeout(300)

SIZES = [(960, 640), (1280, 800), (2560, 1440)]
TEXT = [1.0, 1.5]
SLACK = 1.0  # pixels two boxes may share (anti-aliased edges)


def game_at_my_turn(players: int, seed: int) -> tuple:
    """A guarded game of ``players`` random bots, played on until it is seat 0's turn again after some moves."""
    game = Game(players, "guarded", seed=seed, first=0)
    bots = [make_bot("random", seed=s) for s in range(players)]
    events = list(game.opening)
    while game.ply < 6 * players or game.turn != 0:
        seat = game.turn
        events += game.apply(seat, bots[seat].choose(game.view(seat)))
    names = ["Annabel Lee", "Bartholomew (bot)", "Cy", "Di (bot)", "Ed", "Flo (bot)"]
    sides = 3 if players == 6 else 2
    # Ratings, and hints asked, make the labels as long as they get (the player's own runs to four lines).
    table = table_info([{"colour": ("red", "blue", "green")[s % sides], "occupant": "human", "name": names[s],
                         "connected": True, "rating": 1500 + s, "hints": 2 if s == 0 else 0}
                        for s in range(players)],
                       name="Layout", players=players, mode="guarded", clock=30.0, state="playing", coach=True)
    return game.view(0), table, [shown_to(e, 0) for e in events]


SCENES = {"2p": lambda: game_at_my_turn(2, 3), "4p": midgame_4p, "6p": lambda: game_at_my_turn(6, 8)}


def text_box(text) -> Rect:
    """A top-anchored, left-aligned text's box as laid out."""
    return Rect(text.x, text.y - text.content_height, text.content_width, text.content_height)


def sprite_box(sprite) -> Rect:
    return Rect(sprite.left, sprite.bottom, sprite.width, sprite.height)


def overlap(a: Rect, b: Rect) -> bool:
    return (min(a.right, b.right) - max(a.left, b.left) > SLACK
            and min(a.top, b.top) - max(a.bottom, b.bottom) > SLACK)


def play_area_boxes(tv) -> dict[str, Rect]:
    """Everything drawn outside the panel, by name (each seat's label, turn line, count, pile; cards, tip …)."""
    boxes: dict[str, Rect] = {"board": tv.geo.board}
    seats = tv.seats
    for seat in range(tv.state.players):
        boxes[f"label {seat}"] = text_box(seats.t_seats[seat])
        boxes[f"peg {seat}"] = sprite_box(seats.seat_pegs[seat])
        boxes[f"pile {seat}"] = sprite_box(seats.piles[seat])
        boxes[f"count {seat}"] = text_box(seats.t_piles[seat])
        if seats.t_turns[seat].text:
            boxes[f"turn {seat}"] = text_box(seats.t_turns[seat])
        if seats.clock_back.visible and seat == seats._turn_seat:
            boxes[f"clock {seat}"] = sprite_box(seats.clock_back)
    hand = tv.hand
    for i, card in enumerate(hand.cards):
        if card.visible:
            boxes[f"card {i}"] = sprite_box(card)
    if hand.t_hint.text:
        boxes["tip"] = text_box(hand.t_hint)
    if hand.b_hint_off.visible:
        boxes["don't show again"] = hand.b_hint_off.rect
    if hand.t_hand.text:
        boxes["hand caption"] = text_box(hand.t_hand)
    return boxes


def problems(tv) -> list[str]:
    """Every overlap and every box out of its place, in words (empty: the layout is sound)."""
    g, found = tv.geo, []
    boxes = play_area_boxes(tv)
    for name, box in boxes.items():
        if box.left < -SLACK or box.bottom < -SLACK or box.top > g.height + SLACK:
            found.append(f"{name} leaves the window: {box}")
        if box.right > g.panel.left + SLACK:
            found.append(f"{name} runs into the panel: {box} (panel from x={g.panel.left})")
    for (a, ra), (b, rb) in itertools.combinations(boxes.items(), 2):
        if overlap(ra, rb):
            found.append(f"{a} overlaps {b}: {ra} / {rb}")
    panel = tv.panel
    for button in panel.buttons:
        if button.visible and button.label.content_width > button.rect.width:
            found.append(f"button {button.text!r} is wider than its button")
        if button.visible and (button.rect.left < g.panel.left or button.rect.right > g.width + SLACK):
            found.append(f"button {button.text!r} leaves the panel")
    inside: dict[str, Rect] = {"deck": sprite_box(panel.deck)} if panel.deck.visible else {}
    for i, text in enumerate(panel.texts):
        if text.text:
            box = text_box(text)
            inside[f"panel text {i} {text.text[:24]!r}"] = box
            if box.right > g.width + SLACK or box.bottom < -SLACK or box.left < g.panel.left:
                found.append(f"panel text {text.text[:30]!r} leaves the panel: {box}")
    for button in panel.buttons:
        if button.visible:
            inside[f"button {button.text!r}"] = button.rect
    if tv.coach.shown:
        inside["coach's box"] = sprite_box(tv.coach.back)
        for text in tv.coach.texts:
            if text.text and text_box(text).bottom < -SLACK:
                found.append(f"the coach's {text.text[:24]!r} leaves the window")
    for (a, ra), (b, rb) in itertools.combinations(inside.items(), 2):
        if overlap(ra, rb) and not (a == "coach's box" and b.startswith("panel text")) \
                and not (b == "coach's box" and a.startswith("panel text")):  # the box covers the lists by design
            found.append(f"{a} overlaps {b}: {ra} / {rb}")
    return found


@pytest.fixture
def shown():
    """Show a scene at a size and text scale; the window's size and settings are put back after."""
    from board99.client.gui.table_view import TableView

    win = window()
    prefs = win.prefs

    def show(scene: str, size: tuple[int, int], text: float):
        if (win.width, win.height) != size:
            win.set_size(*size)
            step(win)
        win.prefs = dataclasses.replace(prefs, ui_scale=text, hints=True)
        view, table, events = SCENES[scene]()
        tv = TableView(sounds=win.sounds)
        win.show_view(tv)
        tv.handle(StateChanged(view, table, True))
        tv.handle(Events(tuple(events)))
        tv.state.motions.finish()
        tv.refresh()  # texts are laid out when set: their sizes are known without drawing a frame
        assert (tv.geo.width, tv.geo.height) == size and tv.state.my_turn and tv.state.hint_shown
        return tv

    yield show
    win.prefs = prefs
    win.set_size(1280, 800)
    step(win, 2)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", list(SCENES))
def test_nothing_overlaps_and_the_board_keeps_its_size_at_any_text_size(shown, scene, size):
    boards = []
    for text in TEXT:
        tv = shown(scene, size, text)
        found = problems(tv)
        assert not found, f"{scene} at {size}, text {text:.0%}:\n" + "\n".join(found)
        boards.append(tv.geo.board)
        assert tv.seats.t_turns[0].text == "▶ your turn"
        if tv.state.table.coach:  # the coach's hint on screen: its box under the buttons, its card picked
            tv.handle(Replied("hint", advise(tv.state.view)))
            found = problems(tv)
            assert tv.coach.shown and not found, f"{scene} at {size}, text {text:.0%}, hint shown:\n" + "\n".join(found)
    assert boards[0] == boards[1], f"the board changed with the text size: {boards}"


def test_the_board_is_as_large_as_the_window_allows_whatever_the_text_size():
    from board99.client.gui.geometry import TableGeometry
    from board99.client.gui.scale import ui_scale

    for w, h in SIZES:
        base = ui_scale(w, h)
        sides = {TableGeometry(w, h, 4, 0, ui_scale(w, h, text), base=base).board.width for text in (0.8, 1.0, 1.5)}
        assert len(sides) == 1
    assert TableGeometry(960, 640, 4, 0, ui_scale(960, 640, 1.5), base=ui_scale(960, 640)).board.width > 400
