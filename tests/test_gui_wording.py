"""What the table says: warnings before offences, reasons for disabled actions, log lines (no window)."""

from __future__ import annotations

from board99 import PENALTY_RULES, Discard, Draw, Game, Play, SeatView, seen_by
from board99.client.gui import wording
from board99.client.gui.geometry import TableGeometry
from board99.events import Penalty
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
    assert wording.draw_disabled(view(turn=1)) == "not your turn: S1 plays"
    assert wording.draw_disabled(view(hand=(1, 2, 3, 4, 5))) == "hand full (5 cards): play or discard"
    assert wording.draw_disabled(view(deck_size=0)) == "the deck is empty"
    board = (None,) * 95 + (0,) * 5
    assert wording.play_disabled(view(hand=(95,), board=board), 95).startswith("card 95 is dead")
    assert wording.discard_disabled(view(hand=(3,)), None) == "pick a card first (keys 1-5)"
    assert wording.draw_disabled(view(seat=None, hand=None)) == "you are watching (spectator)"


def test_log_lines_hide_others_drawn_cards_and_name_the_penalty_rule():
    from board99.events import Drew

    assert wording.event_line(seen_by(Drew(1, 42), 0)) == "S1 drew a card"
    assert wording.event_line(seen_by(Drew(0, 42), 0)) == "S0 drew card 42"
    line = wording.event_line(seen_by(Penalty(1, "illegal-play", 60, 12), 0))
    assert line == f"PENALTY S1, card 60 on square 12. Rule: {PENALTY_RULES['illegal-play']}"


def test_seats_go_clockwise_from_the_bottom_and_partners_sit_opposite():
    g = TableGeometry(1280, 800, 4, me=1)
    assert [g.place(s) for s in (1, 2, 3, 0)] == [270, 180, 90, 0]  # me, left, across, right
    six = TableGeometry(1280, 800, 6, me=0)
    assert six.place(3) == 90  # the partner of seat 0 sits straight across


def test_status_names_whose_turn_the_skips_the_shown_cards_and_the_clock():
    table = table_info([{"name": "Ann", "occupant": "human"}, {"name": "Bo", "occupant": "bot"}],
                       name="T", players=2, mode="penalty", clock=30.0, state="playing")
    v = view(turn=1, skips=(1, 0), shown=(42,))
    assert wording.status_lines(v, table, True, 7.2) == [
        "2 players · penalty mode", "Deal 1 · S1 Bo to play", "Skips pending: S0: 1",
        "Cards shown by penalties: 42", "Turn clock: 8 s of 30"]
    assert wording.status_lines(v, table, False, None)[1] == "reconnecting… (the server is not answering)"
    waiting = table._replace(state="waiting", seats=(table.seats[0], table.seats[1]._replace(occupant=None, name=None)))
    assert wording.status_lines(v, waiting, True, None)[-1] == "Waiting for players: seats 1 empty"


def test_a_seat_label_names_the_seat_its_colour_and_mark_and_its_hand():
    table = table_info([{"name": "Ann", "occupant": "human"}, {"occupant": None}])
    v = view(hand_sizes=(1, 3), skips=(0, 2))
    assert wording.seat_label(0, 0, v, table, "red") == "S0 Ann (you)\nred cross\n1 card"
    assert wording.seat_label(1, 1, v, table, "blue") == "S1 (empty)\nblue ring\n3 cards · skips 2"
