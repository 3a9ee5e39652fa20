"""The web seat (web/seat.py) against a real server core, in-process: guests play from the scenes alone.

Each page sees only what its seat sends (scenes, notices, what to keep) and
answers only with what a browser may send (hello, presses of the scene's
controls, keys): whole games, penalties in words, spectators without hands,
a dropped page coming back to its seat, and hostile frames answered with
notices naming the field (docs/web.md, *Scenes*).
"""

from __future__ import annotations

import json

import pytest

from board99.handbook import SECTIONS, penalty_table
from board99.web.seat import WebSeat
from tests.web_seat_kit import Page, Room

MOVES_MAX = 800  # a whole game of two players takes far fewer presses


def new_table(page: Page, **fields: str) -> str:
    """The page creates a table from the lobby's form; its id (from the new card)."""
    before = {c["id"] for c in page.part("tables")["items"]}
    page.press("create", **fields)
    cards = [c for c in page.part("tables")["items"] if c["id"] not in before]
    assert len(cards) == 1, page.heard()
    return str(cards[0]["id"]).removeprefix("t-")


def seated_pair(room: Room, mode: str = "guarded") -> tuple[Page, Page, str]:
    """Ann creates a 2-player table and sits; Bo sits: the game is on."""
    ann, bo = room.page("ann"), room.page("bo")
    ann.hello("Ann")
    bo.hello("Bo")
    table = new_table(ann, name="Den", players="2", mode=mode)
    ann.press(f"sit-{table}-0")
    bo.press("refresh")
    bo.press(f"sit-{table}-1")
    assert ann.scene["screen"] == bo.scene["screen"] == "table"
    return ann, bo, table


def play_turn(page: Page) -> None:
    """One move chosen from the scene alone: a card with a lit square goes there; else draw; else discard."""
    hand = page.part("hand")["items"]
    for card in hand:
        page.press(card["id"])  # pick it: the squares it may go to light up
        lit = [cell for cell in page.part("board")["cells"] if cell["lit"]]
        if lit:
            page.press(lit[0]["id"])
            return
        page.press(card["id"])  # put it back
    if page.buttons()["draw"]["enabled"]:
        page.press("draw")
        return
    page.press(hand[0]["id"])
    page.press("discard")


def over(page: Page) -> bool:
    return page.part("game-over") is not None or "rematch" in page.buttons()


def play_out(ann: Page, bo: Page) -> None:
    """Both play from their scenes until the game is over for both."""
    for _ in range(MOVES_MAX):
        if over(ann) and over(bo):
            return
        play_turn(ann if ann.scene["turn"] else bo)
    raise AssertionError("the game did not end")


def test_two_guests_play_a_whole_game_to_a_win_from_the_scenes_then_a_rematch(room: Room) -> None:
    ann, bo, _ = seated_pair(room)
    first = ann if ann.scene["turn"] else bo
    assert first.scene["title"] == "Your turn · board99" and first.scene["headline"]["text"] == "Your turn"
    assert ann.scene["turn"] != bo.scene["turn"]
    moves = 0
    while not (over(ann) and over(bo)):
        assert moves < MOVES_MAX, "the game did not end"
        mover = ann if ann.scene["turn"] else bo
        assert mover.scene["turn"], (ann.scene["headline"], bo.scene["headline"])
        play_turn(mover)
        moves += 1
        other = bo if mover is ann else ann
        if not over(other):  # what the mover did is listed for the other, and their last move is gone
            assert other.part("since")["items"], other.part("log")["items"][-2:]
    titles = {ann.part("game-over")["title"], bo.part("game-over")["title"]}
    assert titles == {"You won", "You lost"}
    winner = ann if ann.part("game-over")["title"] == "You won" else bo
    assert winner.scene["headline"] == {"text": "You won", "tone": "good"}
    line = [c for c in winner.part("board")["cells"] if c["last"] and "the winning line" in c["name"]]
    assert len(line) >= 5  # the winning line (five or more in a row) is marked on the board
    # Rematch: both ask (the box's button), and game 2 starts for both.
    ann.press("rematch")
    assert ann.part("notice")["text"] == "Rematch asked for"  # the status line, read out by a screen reader
    bo.press("rematch")
    assert any(text.startswith("Game 2 starts") for text in ann.heard())
    assert ann.part("game-over") is None and ann.scene["turn"] != bo.scene["turn"]


def test_an_out_of_turn_draw_earns_the_rulebooks_penalty_in_words_at_a_penalty_table(room: Room) -> None:
    ann, bo, _ = seated_pair(room, mode="penalty")
    idle, mover = (bo, ann) if ann.scene["turn"] else (ann, bo)
    assert idle.buttons()["draw"]["enabled"]  # penalty mode: offences are allowed, warned about first
    idle.press("draw")
    question = idle.part("question")
    assert question is not None and question["title"] == "This is an offence"
    rule = next(r for r in penalty_table() if r.code == "draw-out-of-turn")
    assert f"If you go on: {rule.offence}: {rule.penalty}" in question["text"]
    idle.press("confirm")
    said = [n for n in idle.notices if n["text"].startswith("Penalty: You drew out of turn")]
    assert said and said[-1]["tone"] == "bad" and rule.penalty in said[-1]["text"]
    seen = [n for n in mover.notices if "drew out of turn" in n["text"]]
    assert seen and seen[-1]["tone"] == "bad" and rule.penalty in seen[-1]["text"]
    assert any("misses 1 turn" in s["detail"] for s in idle.part("seats")["items"] if s["you"])


def test_guarded_tables_say_why_a_button_is_disabled_and_a_press_on_it_hears_why(room: Room) -> None:
    ann, bo, _ = seated_pair(room)
    idle = bo if ann.scene["turn"] else ann
    draw = idle.buttons()["draw"]
    assert not draw["enabled"] and draw["why"].startswith("it is ") and draw["why"].endswith("'s turn")
    idle.press("draw")
    assert idle.notices[-1] == {"text": draw["why"], "tone": "warn"}
    idle.key("d")
    assert idle.notices[-1]["text"] == f"Not possible now: {draw['why']}"


def test_a_spectators_scenes_hold_no_card_of_any_hand(room: Room) -> None:
    ann, bo, table = seated_pair(room)
    cy = room.page("cy")
    cy.hello("Cy")
    cy.press(f"watch-{table}")
    assert cy.scene["screen"] == "table"
    for _ in range(6):
        (ann if ann.scene["turn"] else bo).press("draw")  # cards pile up in both hands
    held = {c["label"] for p in (ann, bo) for c in p.part("hand")["items"]}
    assert held, "the players hold cards by now"
    table_scenes = [s for s in cy.drawn if s["screen"] == "table"]
    assert len(table_scenes) > 5
    for scene in table_scenes:
        hands = [p for p in scene["parts"] if p["type"] == "cards"]
        assert all(p["items"] == [] for p in hands)
        assert '"card-' not in json.dumps(scene)
        assert not scene["turn"]
    assert all(not c["enabled"] and c["why"] == "you are watching" for c in cy.part("board")["cells"])
    assert cy.part("hand")["label"] == "You are watching"


def test_a_dropped_page_comes_back_to_its_seat_with_its_token(room: Room) -> None:
    ann, bo, table = seated_pair(room)
    kept = dict(ann.kept)
    assert kept["seat"]["table"] == table and kept["seat"]["seat"] == 0 and len(kept["seat"]["token"]) == 32
    hand = [c["label"] for c in ann.part("hand")["items"]]
    ann.seat.closed(room.now)
    del room.pages[ann.ident]
    room.advance(1.0)
    back = room.page("ann again")
    back.hello("Ann", key=kept["key"], seat=kept["seat"])
    assert back.scene["screen"] == "table"
    assert any(text.startswith("Welcome back") for text in back.heard()), back.heard()
    assert [c["label"] for c in back.part("hand")["items"]] == hand
    assert [s["name"] for s in back.part("seats")["items"] if s["you"]][0].startswith("Ann")
    assert back.kept["seat"] == kept["seat"]
    # ... and plays on from there.
    while not back.scene["turn"]:
        play_turn(bo)
    play_turn(back)
    assert not back.scene["turn"]


def test_a_stale_token_is_refused_in_words_and_the_guest_lands_in_the_lobby(room: Room) -> None:
    ann, _, table = seated_pair(room)
    page = room.page("mallory")
    page.hello("Mallory", seat={"table": table, "seat": 0, "token": "0" * 32})
    assert page.scene["screen"] == "lobby"
    assert page.heard()[-1].startswith("Your seat could not be taken back: ")
    assert page.kept.get("seat", "absent") is None


def test_leaving_during_a_game_keeps_the_seat_to_take_back_from_the_lobby(room: Room) -> None:
    ann, bo, table = seated_pair(room)
    ann.press("leave")
    assert ann.part("question")["title"].startswith("Leave this game?")
    ann.press("confirm")
    assert ann.scene["screen"] == "lobby" and ann.kept["seat"] is None
    assert f"back-{table}" in ann.buttons()
    ann.press(f"back-{table}")
    assert ann.scene["screen"] == "table"
    assert [s["name"] for s in ann.part("seats")["items"] if s["you"]][0].startswith("Ann")


def test_bots_fill_a_table_from_the_lobby_and_the_rules_page_opens_and_closes(room: Room) -> None:
    ann = room.page("ann")
    ann.hello("Ann")
    table = new_table(ann, name="Bots", players="3", mode="guarded")
    ann.press(f"bot-{table}-1")
    assert "The bot sits down" in ann.part("status")["text"]
    ann.press(f"sit-{table}-0")
    assert ann.scene["headline"]["text"] == "Waiting for players"
    ann.press("bots")  # the table's own "fill the empty seats"
    assert ann.scene["headline"]["text"] != "Waiting for players"
    ann.press("rules")
    assert ann.scene["screen"] == "rules"
    headings = [p["text"] for p in ann.parts("text") if p["role"] == "heading"]
    assert [s.title for s in SECTIONS] == headings[:len(SECTIONS)]
    ann.key("escape")
    assert ann.scene["screen"] == "table"
    ann.key("f1")
    ann.press("back")
    assert ann.scene["screen"] == "table"


def test_the_lobby_form_offers_every_installed_game_and_says_what_it_refuses(room: Room) -> None:
    from board99 import kinds

    ann = room.page("ann")
    ann.hello("Ann")
    form = ann.part("new-table")
    players = next(f for f in form["fields"] if f["id"] == "players")
    assert [c["value"] for c in players["choices"]] == [str(n) for n in kinds.get(kinds.DEFAULT).player_counts]
    for name in kinds.names():
        assert f"game-{name}" in ann.buttons()
    ann.press("game-ninety-nine")
    form = ann.part("new-table")
    fields = {f["id"]: f for f in form["fields"]}
    assert "option-rules" in fields  # the kind's rule set, offered from the kind
    assert [c["value"] for c in fields["players"]["choices"]] == [
        str(n) for n in kinds.get("ninety-nine").player_counts]
    ann.press("create", players="9")
    assert ann.notices[-1]["text"].startswith("fields.players: '9' is not one of the choices")


HOSTILE = [
    ("not json", "frame: not JSON"),
    ("[1, 2]", "frame: a JSON object is expected"),
    ('{"shout": 1}', "frame: expected 'hello', 'press' or 'key', got 'shout'"),
    ('{"press": "refresh", "extra": 1}', "frame: unknown field 'extra'"),
    ('{"press": 12}', "press: text is expected, not a number"),
    ('{"press": "' + "x" * 100 + '"}', "press: 100 characters, at most 64"),
    ('{"press": "sq-3"}', "press: 'sq-3' is not a control on this screen"),
    ('{"press": "refresh", "fields": []}', "fields: an object of field id to text is expected, not a list"),
    ('{"press": "refresh", "fields": {"a": "b"}}', "fields: 'refresh' is not a form's button"),
    ('{"press": "create", "fields": {"name": "' + "n" * 150 + '"}}', "fields.name: 150 characters, at most 40"),
    ('{"press": "create", "fields": {"players": 2}}', "fields.players: text is expected, not a number"),
    ('{"press": "create", "fields": {"colour": "red"}}', "fields: 'colour' is not a field of the form"),
    ('{"key": "q"}', "key: 'q' is not a key of this screen"),
    ('{"key": null}', "key: text is expected, not null"),
    ('{"hello": {"name": "Eve"}}', "hello: this page said hello already"),
    ("[" * 5000 + "]" * 5000, "frame: not JSON"),
    ('{"press": "' + "y" * 20000 + '"}', "frame: 20013 characters, more than 16384"),
]


@pytest.mark.parametrize(("text", "said"), HOSTILE, ids=[said.split(":")[0] + f"-{n}" for n, (_, said) in
                                                          enumerate(HOSTILE)])
def test_hostile_frames_are_answered_with_a_notice_naming_the_field(room: Room, text: str, said: str) -> None:
    page = room.page("eve")
    page.hello("Eve")
    scenes = page.scenes
    page.send(text)
    assert page.notices and page.notices[-1]["text"].startswith(said), page.notices[-1:]
    assert page.notices[-1]["tone"] == "bad"
    assert page.scenes == scenes  # nothing changed
    page.press("refresh")  # and the seat works on
    assert page.scene["screen"] == "lobby"


@pytest.mark.parametrize("hello", [
    {"hello": {"name": "Eve", "key": "not-a-key", "seat": None}},
    {"hello": {"name": "Eve", "key": "A" * 64, "seat": None}},
    {"hello": {"name": 5, "key": None, "seat": None}},
    {"hello": {"name": "E" * 41, "key": None, "seat": None}},
    {"hello": {"name": "Eve", "key": None, "seat": {"table": "t", "seat": True, "token": "x"}}},
    {"hello": {"name": "Eve", "key": None, "seat": {"table": "t", "seat": 0, "token": "x", "more": 1}}},
    {"hello": {"name": "Eve", "key": None, "seat": "t/0"}},
    {"hello": {"name": "Eve", "pass": "x"}},
    {"hello": "Eve"},
])
def test_a_bad_hello_is_refused_by_field_and_a_good_one_still_works(room: Room, hello: dict) -> None:
    page = room.page("eve")
    page.send(hello)
    assert page.notices[-1]["tone"] == "bad" and page.notices[-1]["text"].startswith("hello")
    assert page.scene["screen"] == "welcome"


def test_a_page_without_a_name_gets_the_welcome_form_then_the_lobby(room: Room) -> None:
    page = room.page("new")
    page.hello("")
    assert page.scene["screen"] == "welcome"
    page.press("enter", name="  ")
    assert page.notices[-1]["text"] == "Type a name first" and page.scene["screen"] == "welcome"
    page.press("enter", name="Dee")
    assert page.scene["screen"] == "lobby" and page.kept["name"] == "Dee"
    other = room.page("other")
    other.hello("rulebook")  # a bot's name: no person may take it
    assert other.scene["screen"] == "welcome"
    assert other.notices[-1]["text"].startswith("The server refused the name: ")
    other.press("enter", name="Eli")  # another name, with the same page's key
    assert other.scene["screen"] == "lobby" and other.kept["name"] == "Eli"


def test_presses_are_bounded_while_answers_are_on_their_way(room: Room) -> None:
    page = room.page("eve")
    page.hello("Eve")
    table = new_table(page, name="Busy")
    for _ in range(40):
        page.seat.from_page(json.dumps({"press": f"watch-{table}"}), room.now)  # no pump: no answer comes
    assert len(page.seat.to_core()) == 16  # PENDING_MAX requests on their way, the rest refused
    page.read()
    assert "Too many requests on their way: wait for the answers" in page.heard()


def test_heartbeats_keep_a_quiet_web_guest_at_the_table(room: Room) -> None:
    ann, bo, table = seated_pair(room)
    del room.pages[bo.ident]  # Bo's seat is no longer ticked: no heartbeat goes out for it
    room.advance(30.0)
    assert room.desk.core.knows(ann.ident)  # the web seat's own pings kept it
    assert not room.desk.core.knows(bo.ident)  # a silent connection is dropped


def test_a_table_of_a_game_without_a_web_screen_is_refused_in_words_and_the_guest_stays_in_the_lobby(
        room: Room) -> None:
    from board99 import kinds
    from board99.web.screens import NoScreen, screen_for
    from board99.web.screens.peg import PegScreen
    from tests.aces_kind import ACES

    assert screen_for("peg-board") is PegScreen
    with pytest.raises(NoScreen, match="cannot show tables of 'nosuch'"):
        screen_for("nosuch")
    kinds.register(ACES)
    try:
        ann = room.page("ann")
        ann.hello("Ann")
        ann.press(f"game-{ACES.name}")
        table = new_table(ann, name="Aces", players="2")
        ann.press(f"sit-{table}-0")
        assert ann.scene["screen"] == "lobby"
        assert ann.notices[-1]["text"].startswith(f"the web page cannot show tables of {ACES.name!r} yet")
        card = next(c for c in ann.part("tables")["items"] if c["id"] == f"t-{table}")
        assert f"sit-{table}-0" in [b["id"] for b in card["buttons"]]  # the seat was given back
    finally:
        kinds.unregister(ACES.name)


def test_a_ninety_nine_tables_card_names_its_game_and_rule_set(room: Room) -> None:
    ann = room.page("ann")
    ann.hello("Ann")
    ann.press("game-ninety-nine")
    table = new_table(ann, name="Cards", players="3", **{"option-rules": "tokens"})
    card = next(c for c in ann.part("tables")["items"] if c["id"] == f"t-{table}")
    assert card["title"] == "Cards · Ninety-Nine"
    assert "Tokens" in card["lines"]
    assert f"bot-{table}-1" in [b["id"] for b in card["buttons"]]
    assert "+ sound bot" in [b["label"] for b in card["buttons"]]  # the game's own stand-in bot


def test_the_turn_clock_counts_and_its_move_is_said(room: Room) -> None:
    ann, bo = room.page("ann"), room.page("bo")
    ann.hello("Ann")
    bo.hello("Bo")
    table = new_table(ann, name="Quick", players="2", clock="15")
    ann.press(f"sit-{table}-0")
    bo.press("refresh")
    bo.press(f"sit-{table}-1")
    mover, idle = (ann, bo) if ann.scene["turn"] else (bo, ann)
    clock = mover.part("clock")
    assert clock["label"] == "Turn clock" and 14 <= clock["seconds"] <= 15
    room.advance(16.0)
    assert not mover.scene["turn"] and idle.scene["turn"]  # the clock moved for the mover
    said = [n for n in mover.notices if n["tone"] == "warn" and n["text"].startswith("Time ran out: your turn")]
    assert said, mover.heard()[-3:]
    assert idle.part("since")["items"], "the clock's move is listed since the other's turn"


def test_a_rated_table_seats_guests_with_keys_and_refuses_one_without_in_the_windows_words(room: Room) -> None:
    from board99.client.gui.lobby_model import REFUSAL_WORDS

    ann, bo = room.page("ann"), room.page("bo")
    ann.hello("Ann")
    table = new_table(ann, name="Rated", players="2", rated="yes")
    ann.press(f"sit-{table}-0")
    assert ann.scene["screen"] == "table"
    bo.send({"hello": {"name": "Bo", "key": None, "seat": None}})  # a guest without a player key
    bo.press(f"sit-{table}-1")
    assert bo.scene["screen"] == "lobby"
    assert bo.notices[-1] == {"text": f"The server refused taking the seat: {REFUSAL_WORDS['rated-table']}",
                              "tone": "bad"}


def test_a_match_ends_with_its_box_in_the_windows_words_and_offers_a_new_match(room: Room) -> None:
    ann, bo = room.page("ann"), room.page("bo")
    ann.hello("Ann")
    bo.hello("Bo")
    table = new_table(ann, name="Match", players="2", match="games-3")
    ann.press(f"sit-{table}-0")
    bo.press("refresh")
    bo.press(f"sit-{table}-1")
    assert ann.part("match")["text"].startswith("3 games · game 1: ")
    for game in (1, 2, 3):
        play_out(ann, bo)
        if game < 3:
            assert ann.buttons()["rematch"]["label"] == "Next game"
            ann.press("rematch")
            bo.press("rematch")
    box = ann.part("match-over")
    assert box is not None and box["title"] in ("You won the match", "You lost the match")
    assert box["text"].startswith("3 games: ") and "\n" not in box["text"] and "Game 3: " in box["text"]
    assert [b["label"] for b in box["buttons"]][0] == "New match"
    other = bo.part("match-over")["title"]
    assert {box["title"], other} == {"You won the match", "You lost the match"}


def _sit_labels(page: Page, table: str) -> dict[str, str]:
    card = next(c for c in page.part("tables")["items"] if c["id"] == f"t-{table}")
    return {b["id"]: b["label"] for b in card["buttons"] if b["id"].startswith("sit-")}


def test_each_free_seats_button_names_its_own_colour_and_the_guest_gets_that_colour(room: Room) -> None:
    ann, bo = room.page("ann"), room.page("bo")
    ann.hello("Ann")
    bo.hello("Bo")
    table = new_table(ann, name="Den", players="2")
    assert _sit_labels(ann, table) == {f"sit-{table}-0": "Sit here (red)", f"sit-{table}-1": "Sit here (blue)"}
    bo.press("refresh")
    bo.press(f"sit-{table}-1")  # the blue seat, chosen first: Bo plays blue
    mine = next(s for s in bo.part("seats")["items"] if s["you"])
    assert mine["colour"] == "blue", bo.part("seats")
    ann.press("refresh")
    assert _sit_labels(ann, table) == {f"sit-{table}-0": "Sit here (red)"}
    ann.press(f"sit-{table}-0")
    mine = next(s for s in ann.part("seats")["items"] if s["you"])
    assert mine["colour"] == "red"


def test_a_four_player_card_offers_four_different_colours(room: Room) -> None:
    ann = room.page("ann")
    ann.hello("Ann")
    ann.press("game-ninety-nine")
    table = new_table(ann, name="Cards", players="4")
    labels = list(_sit_labels(ann, table).values())
    assert labels == ["Sit here (red)", "Sit here (blue)", "Sit here (green)", "Sit here (yellow)"]
    ann.press("game-peg-board")
    pairs = new_table(ann, name="Pairs", players="4")
    labels = _sit_labels(ann, pairs)  # partners share their side's colour
    assert labels[f"sit-{pairs}-0"] == labels[f"sit-{pairs}-2"] == "Sit here (red)"
    assert labels[f"sit-{pairs}-1"] == labels[f"sit-{pairs}-3"] == "Sit here (blue)"


def test_no_card_line_and_no_list_line_is_blank() -> None:
    from board99.web.screens import parts

    card = parts.table_card("t-1", "Den", ["Open · 2 seats free", "", "  ", "Side 1: (free)"], [])
    assert card["lines"] == ["Open · 2 seats free", "Side 1: (free)"]
    assert parts.listing("log", "Log", ["a", "", "b"])["items"] == ["a", "b"]


def test_the_lobbys_cards_hold_no_blank_line(room: Room) -> None:
    ann = room.page("ann")
    ann.hello("Ann")
    new_table(ann, name="Den", players="2")
    ann.press("game-ninety-nine")
    new_table(ann, name="Cards", players="3", **{"option-rules": "tokens"})
    for card in ann.part("tables")["items"]:
        assert all(line.strip() for line in card["lines"]), card["lines"]


def test_a_patch_sends_the_clock_whole_even_when_the_screen_gives_the_same_part() -> None:
    # The page counts the clock down from the seconds it was sent last: naming the part by id would
    # have it count again from an older figure.
    seat = WebSeat(b"w" + bytes(8), "127.0.0.1", 0.0)
    clock = {"type": "clock", "id": "clock", "seconds": 30, "label": "Turn clock"}
    head = {"screen": "table", "title": "t", "turn": False, "headline": {}, "keys": [], "colours": {}}
    assert json.loads(seat._scene_text({**head, "parts": [clock, {"type": "text", "id": "a", "text": "1"}]}))["scene"]
    patch = json.loads(seat._scene_text({**head, "parts": [clock, {"type": "text", "id": "a", "text": "2"}]}))
    assert patch["patch"]["parts"] == [clock, {"type": "text", "id": "a", "text": "2"}]
    assert seat._scene_text({**head, "parts": [clock, {"type": "text", "id": "a", "text": "2"}]}) is None
