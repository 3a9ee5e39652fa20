"""What the table says: warnings before offences, reasons for disabled actions, log lines (no window)."""

from __future__ import annotations

from board99 import PENALTY_RULES, Discard, Draw, Game, Play, SeatView
from board99.client.gui import wording
from board99.client.gui.geometry import TableGeometry
from board99.events import Dealt, Drew, Penalty, Won, shown_to
from tests.gui_harness import table_info


def view(**changes) -> SeatView:
    return Game(2, "penalty", seed=1, first=0).view(0)._replace(**changes)


def test_penalty_mode_warns_before_each_offence_with_its_rule():
    out_of_turn = view(turn=1, hand=(5,))
    assert PENALTY_RULES["play-out-of-turn"] in wording.offence_warning(out_of_turn, Play(5, 50))
    assert PENALTY_RULES["draw-out-of-turn"] in wording.offence_warning(out_of_turn, Draw())
    assert PENALTY_RULES["discard-out-of-turn"] in wording.offence_warning(out_of_turn, Discard(5))
    own_turn = view(hand=(40, 1, 2, 3, 4))
    assert PENALTY_RULES["illegal-play"] in wording.offence_warning(own_turn, Play(40, 12))
    assert PENALTY_RULES["illegal-draw"] in wording.offence_warning(own_turn, Draw())
    assert wording.offence_warning(own_turn, Play(40, 40)) is None
    assert wording.offence_warning(own_turn, Discard(40)) is None


def test_guarded_mode_reasons_name_what_stops_the_action():
    assert wording.draw_disabled(view(turn=1)) == "it is Seat 2's turn"
    assert wording.draw_disabled(view(hand=(1, 2, 3, 4, 5))) == "your hand is full (5 cards): play or discard"
    assert wording.draw_disabled(view(deck_size=0)) == "the deck is empty"
    board = (None,) * 95 + (0,) * 5
    assert wording.play_disabled(view(hand=(95,), board=board), 95).startswith("card 95 is dead")
    assert wording.discard_disabled(view(hand=(3,)), None) == "pick a card first (keys 1-5)"
    assert wording.draw_disabled(view(seat=None, hand=None)) == "you are watching"


def test_log_lines_hide_others_drawn_cards_and_name_the_penalty_rule():
    from board99.events import Drew

    table = table_info([{"name": "Ann"}, {"name": "Cy"}])
    assert wording.event_line(shown_to(Drew(1, 42), 0), table, me=0) == "Cy drew a card"
    assert wording.event_line(shown_to(Drew(0, 42), 0), table, me=0) == "You drew card 42"
    line = wording.event_line(shown_to(Penalty(1, "illegal-play", 60, 12), 0), table)
    assert line == ("Penalty: Cy played a card below the square (card 60 on square 12). "
                    f"Rule: {PENALTY_RULES['illegal-play']}")


def test_seats_go_clockwise_from_the_bottom_and_partners_sit_opposite():
    g = TableGeometry(1280, 800, 4, me=1)
    assert [g.place(s) for s in (1, 2, 3, 0)] == [270, 180, 90, 0]  # me, left, across, right
    six = TableGeometry(1280, 800, 6, me=0)
    assert six.place(3) == 90  # the partner of seat 0 sits straight across


def test_status_names_whose_turn_the_skips_the_shown_cards_and_the_clock():
    table = table_info([{"name": "Ann", "occupant": "human"}, {"name": "Bo", "occupant": "bot"}],
                       name="T", players=2, mode="penalty", clock=30.0, state="playing")
    v = view(turn=1, skips=(1, 0), shown=(42,))
    assert wording.status_lines(v, table, True, 7.2, ["red", "blue"]) == ["2 players · penalty mode", "Red: Ann", "Blue: Bo"]
    assert wording.deck_lines(v, table, 7.2) == [
        f"Deck: {v.deck_size}", "Turn clock: 8 s of 30", "Skipped turns: You miss 1", "Shown by penalties: 42"]
    assert wording.turn_headline(v, table, False) == "Bo's turn"
    assert wording.deck_lines(v._replace(skips=(0, 2)), table, None)[1] == "Skipped turns: Bo misses 2"
    assert wording.status_lines(v, table, False, None)[1] == "Reconnecting… (the server is not answering)"
    waiting = table._replace(state="waiting", seats=(table.seats[0], table.seats[1]._replace(occupant=None, name=None)))
    assert wording.status_lines(v, waiting, True, None)[-1] == "1 empty seat"


def test_a_seat_label_names_the_seat_its_colour_and_mark_and_its_hand():
    table = table_info([{"name": "Ann", "occupant": "human"}, {"occupant": None}])
    v = view(hand_sizes=(1, 3), skips=(0, 2))
    assert wording.seat_label(0, 0, v, table, "red") == "Ann (you)\nRed · 1 card"
    assert wording.seat_label(1, 1, v, table, "blue") == "Seat 2 (empty)\nBlue · 3 cards · misses 2 turns"


def test_people_are_named_sides_go_by_colour_and_partners_are_labelled():
    six = Game(6, "guarded", seed=1, first=0).view(0)
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
    table = table_info([{"name": n, "occupant": "human"} for n in names], players=6)
    colours = ["red", "blue", "green"]
    assert wording.side_name(0, colours, six, table) == "Red: Ann & Di"
    assert wording.seat_label(3, 0, six, table, "red").startswith("Di · your partner\nRed")
    assert wording.seat_name(4, None) == "Seat 5"
    bots = table_info([{"name": "Ann"}, {"name": "rulebook"}, {"name": "Cy"}, {"name": "rulebook"}])
    assert [wording.seat_name(s, bots) for s in range(4)] == ["Ann", "rulebook", "Cy", "rulebook 2"]


def test_no_codes_reach_the_player():
    table = table_info([{"name": "Ann"}, {"name": "Cy"}])
    texts = [
        wording.refused("occupied", "square 97 already holds a peg of side 0", Play(40, 97)),
        wording.refused("out-of-turn", "it is S1's turn"),
        wording.deal_line(2, [40, 7], 1, table, 0),
        wording.event_line(Dealt(2, (14, 94), 0), table, me=1),
        wording.event_line(shown_to(Won(1, 1, (92, 88, 84, 80, 76)), 0), table, 0, ["red", "blue"]),
        wording.clock_line(shown_to(Drew(1, 5), 0), table, 0),
        wording.offence_warning(view(turn=1, hand=(5,)), Draw(), table),
    ]
    assert texts[0] == "Square 97 is taken"
    assert texts[2] == "Deal 2: Cy drew the lowest card and starts"
    assert texts[3] == "Deal 2: Ann drew the lowest card and starts"
    assert texts[4] == "Blue wins! Cy completed 92–88–84–80–76"
    assert texts[5] == "Time ran out: Cy's turn was played for them (a card was drawn)"
    assert texts[6].startswith("It is Cy's turn, not yours.")
    for text in texts:
        for code in ("S0", "S1", "side 0", "(X)", "(O)", "cut 14", "occupied", "out-of-turn"):
            assert code not in text, (code, text)


def test_results_say_who_won_from_the_players_seat():
    two = Game(2, "guarded", seed=1, first=0)
    four = Game(4, "guarded", seed=1, first=0)
    assert wording.result_title(two.view(0), 0) == "You won"
    assert wording.result_title(two.view(0), 1) == "You lost"
    assert wording.result_title(four.view(2), 0) == "Your side won"
    assert wording.result_title(four.view(None), 0) == "Game over"
    table = table_info([{"name": n} for n in ("Ann", "Bo", "Cy", "Di")], players=4)
    event = shown_to(Won(0, 2, (92, 88, 84, 80, 76)), 0)
    assert wording.result_line(four.view(0), table, ["red", "blue"], event) == "Cy completed 92–88–84–80–76 (Red: Ann & Cy)"
    assert wording.window_title(True, "GAME OF 99") == "Your turn — GAME OF 99"


def test_an_empty_hand_is_named_on_the_disabled_line_not_pick_a_card() -> None:
    # Issue 19's leftover: the line under the buttons said "pick a card first (keys 1-5)" with nothing to pick.
    empty = view(hand=())
    assert wording.play_disabled(empty, None) == wording.discard_disabled(empty, None) == wording.EMPTY_HAND
    assert wording.discard_disabled(view(hand=(3,)), None) == "pick a card first (keys 1-5)"
