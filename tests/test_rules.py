"""One test per rule of docs/rules.md, named after it (its section numbers in the names)."""

from __future__ import annotations

import pytest

from board99 import LAYOUT, LINES, Discard, Draw, Game, Play, Refused
from board99.layout import POSITION
from tests.scenario import position, reshuffled_unseen, stacked

# -- 1. Board -------------------------------------------------------------


def test_1_board_has_each_number_0_to_99_once_on_10_by_10():
    assert len(LAYOUT) == 10 and all(len(row) == 10 for row in LAYOUT)
    assert sorted(sq for row in LAYOUT for sq in row) == list(range(100))


@pytest.mark.parametrize(
    "ring, numbers",
    [(0, range(0, 4)), (1, range(4, 16)), (2, range(16, 36)), (3, range(36, 64)), (4, range(64, 100))],
)
def test_1_low_numbers_in_the_centre_in_concentric_rings(ring, numbers):
    def ring_of(sq):
        r, c = POSITION[sq]
        return 4 - min(r, c, 9 - r, 9 - c)

    assert {ring_of(sq) for sq in numbers} == {ring}


def test_1_numbers_run_clockwise_round_each_ring():
    # Consecutive numbers in a ring are neighbours, going clockwise (right, down, left, up).
    for start, end in ((0, 3), (4, 15), (16, 35), (36, 63), (64, 99)):
        for sq in range(start, end):
            (r1, c1), (r2, c2) = POSITION[sq], POSITION[sq + 1]
            assert abs(r1 - r2) + abs(c1 - c2) == 1


def test_1_rulebook_example_72_58_20_14_4_is_a_line_of_five():
    assert (72, 58, 20, 14, 4) in LINES


def test_1_there_are_192_lines_of_five():
    assert len(LINES) == 192 == len(set(LINES))


# -- 2. Cards -------------------------------------------------------------


def test_2_card_n_fits_every_free_square_numbered_n_or_more():
    g = position(hands={0: [40]})
    plays = {a.square for a in g.legal_actions(0) if type(a) is Play}
    assert plays == set(range(40, 100))


def test_2_card_0_fits_every_square_and_card_99_only_square_99():
    g = position(hands={0: [0, 99]})
    plays = g.legal_actions(0)
    assert {a.square for a in plays if type(a) is Play and a.card == 0} == set(range(100))
    assert {a.square for a in plays if type(a) is Play and a.card == 99} == {99}


def test_2_a_dead_card_can_only_be_discarded():
    g = position(pegs={1: [98, 99]}, hands={0: [98]})
    assert g.legal_actions(0) == [Draw(), Discard(98)]


def test_2_the_deck_holds_100_cards():
    g = Game(2, seed=5, first=0)
    assert g.deck_size == 100


# -- 3. Players, sides and seats ------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 5, 7, 8])
def test_3_only_2_3_4_or_6_players(players):
    with pytest.raises(ValueError, match="2, 3, 4 or 6"):
        Game(players)


@pytest.mark.parametrize("players, sides", [(2, 2), (3, 3), (4, 2), (6, 3)])
def test_3_two_or_three_alone_four_or_six_as_partnerships(players, sides):
    g = Game(players, seed=1)
    assert g.sides == sides
    assert len({g.side_of(s) for s in range(players)}) == sides


@pytest.mark.parametrize("players", [4, 6])
def test_3_partners_sit_opposite_and_turns_alternate_sides(players):
    g = Game(players, seed=1, first=0)
    half = players // 2
    for seat in range(half):
        assert g.side_of(seat) == g.side_of(seat + half)
    order = []
    for _ in range(players):
        order.append(g.side_of(g.turn))
        g.apply(g.turn, Draw())
    assert all(order[i] != order[i + 1] for i in range(players - 1))


def test_3_play_passes_to_the_left():
    g = Game(3, seed=1, first=1)
    seats = []
    for _ in range(6):
        seats.append(g.turn)
        g.apply(g.turn, Draw())
    assert seats == [1, 2, 0, 1, 2, 0]


# -- 4. Start -------------------------------------------------------------


def test_4_hands_start_empty_and_the_lowest_cut_card_opens():
    for seed in range(50):
        g = Game(4, seed=seed)
        assert all(g.hand(s) == () for s in range(4))
        assert len(g.cut) == 4 and len(set(g.cut)) == 4
        assert g.turn == g.cut.index(min(g.cut))
        assert g.deck_size == 100  # the cut cards went back


def test_4_the_record_keeps_the_cut():
    from board99.record import Record

    g = Game(3, seed=9)
    assert Record.of(g).lines[0] == f"  deal 1 cut {' '.join(map(str, g.cut))} first S{g.turn}"


def test_4_with_an_empty_hand_the_only_action_is_to_draw():
    g = Game(4, seed=3)
    assert g.legal_actions(g.turn) == [Draw()]


# -- 5. A turn --------------------------------------------------------------


def test_5_play_pegs_the_square_and_puts_the_card_face_up_in_the_discard_pile():
    g = position(hands={0: [30]})
    events = g.apply(0, Play(30, 45))
    assert [e.kind for e in events] == ["played"]
    assert g.occupant(45) == 0 and g.discards(0) == (30,) and g.hand(0) == ()


def test_5_draw_takes_the_top_card():
    g = Game(2, deck=stacked([17, 3]), first=0, seed=1)
    g.apply(0, Draw())
    g.apply(1, Draw())
    assert g.hand(0) == (17,) and g.hand(1) == (3,) and g.deck_size == 98


def test_5_a_hand_never_holds_more_than_5_cards():
    g = position(hands={0: [10, 20, 30, 40, 50]})
    assert Draw() not in g.legal_actions(0)
    with pytest.raises(Refused) as exc:
        g.apply(0, Draw())
    assert exc.value.code == "hand-full"


def test_5_discard_puts_the_card_face_up_and_ends_the_turn():
    g = position(hands={0: [10]})
    assert [e.kind for e in g.apply(0, Discard(10))] == ["discarded"]
    assert g.discards(0) == (10,) and g.turn == 1


def test_5_a_player_who_can_do_nothing_is_passed_automatically():
    # Deck empty; S1 has no cards: after S0 acts, S1 is passed and S0 plays again.
    g = position(hands={0: [10, 11]}, deck_top=())
    g._deck.clear()  # an empty deck: every other card is out of play for this test
    events = g.apply(0, Play(10, 50))
    assert [e.kind for e in events] == ["played", "passed"]
    assert events[1].seat == 1 and g.turn == 0


def test_5_there_is_no_voluntary_pass():
    g = Game(2, seed=1, first=0)
    with pytest.raises(Refused) as exc:
        g.apply(0, "pass")
    assert exc.value.code == "bad-action"


# -- 6. End of a deal --------------------------------------------------------


def test_6_five_in_a_row_wins_at_once():
    g = position(pegs={0: [70, 71, 72, 73]}, hands={0: [74]})
    events = g.apply(0, Play(74, 74))
    assert events[-1].kind == "won" and g.winner == 0
    assert g.winning_line == (70, 71, 72, 73, 74) and g.turn is None


@pytest.mark.parametrize("line", [(70, 69, 68, 67, 66), (70, 56, 18, 12, 0), (79, 63, 23, 15, 1)])
def test_6_columns_and_both_diagonals_win(line):
    g = position(pegs={0: line[:4]}, hands={0: [0]})
    g.apply(0, Play(0, line[4]))
    assert g.winner == 0


def test_6_partners_pegs_count_together():
    # 4 players: S0 and S2 are side 0. Side 0 holds four; S2 completes the line.
    g = position(players=4, pegs={0: [70, 71, 72, 73]}, hands={2: [74]}, turn=2)
    g.apply(2, Play(74, 74))
    assert g.winner == 0


def test_6_six_in_a_line_also_wins():
    g = position(pegs={0: [64, 65, 66, 68, 69]}, hands={0: [67]})
    g.apply(0, Play(67, 67))
    assert g.winner == 0 and g.winning_line == (69, 68, 67, 66, 65, 64)


def test_6_four_in_a_line_does_not_win():
    g = position(pegs={0: [70, 71, 72]}, hands={0: [73]})
    g.apply(0, Play(73, 73))
    assert g.winner is None


def test_6_tie_replays_the_deal_with_a_new_cut_and_same_seats():
    g = position(hands={0: [50]})
    g._deck.clear()
    g.apply(0, Play(50, 60))  # hands and deck now empty, nobody has five
    assert g.deal == 2
    assert g.occupant(60) is None and g.deck_size == 100
    assert g.discards(0) == () and g.cut is not None and g.turn == g.cut.index(min(g.cut))
    kinds = [e.kind for e in g.log[-1][2]]
    assert kinds == ["played", "tied", "dealt"]


def test_6_discards_are_never_reshuffled_into_the_deck():
    g = Game(2, seed=2, first=0)
    before = g.deck_size
    g.apply(0, Draw())
    card = g.hand(0)[0]
    g.apply(1, Draw())
    g.apply(0, Discard(card))
    assert g.deck_size == before - 2 and card in g.discards(0)


# -- 7. Offences and penalties --------------------------------------------------


def test_7_guarded_mode_refuses_an_offence_and_nothing_changes():
    g = position(hands={0: [10], 1: [20]})
    before = g.view(None), g.hand(1)
    for action, code in ((Play(20, 50), "out-of-turn"), (Discard(20), "out-of-turn"), (Draw(), "out-of-turn")):
        with pytest.raises(Refused) as exc:
            g.apply(1, action)
        assert exc.value.code == code and "S0's turn" in exc.value.message
    with pytest.raises(Refused) as exc:
        g.apply(0, Play(10, 5))
    assert exc.value.code == "below-card" and "10 to 99" in exc.value.message
    assert (g.view(None), g.hand(1)) == before


def test_7_play_out_of_turn_peg_removed_card_discarded_next_turn_skipped():
    g = position(mode="penalty", hands={0: [10], 1: [20]})
    events = g.apply(1, Play(20, 50))
    assert [(e.kind, e.offence) for e in events] == [("penalty", "play-out-of-turn")]
    assert "next turn is skipped" in events[0].rule
    assert g.occupant(50) is None and g.discards(1) == (20,) and g.skips(1) == 1 and g.turn == 0
    events = g.apply(0, Discard(10))
    assert [e.kind for e in events] == ["discarded", "skipped"] and g.turn == 0 and g.skips(1) == 0


def test_7_discard_out_of_turn_card_stays_discarded_next_turn_skipped():
    g = position(mode="penalty", hands={0: [10], 1: [20]})
    events = g.apply(1, Discard(20))
    assert events[0].offence == "discard-out-of-turn"
    assert g.discards(1) == (20,) and g.skips(1) == 1 and g.hand(1) == ()


def test_7_draw_out_of_turn_card_shown_and_cut_back_next_turn_skipped():
    g = position(mode="penalty", hands={0: [10]}, deck_top=[77])
    size = g.deck_size
    events = g.apply(1, Draw())
    assert events[0].offence == "draw-out-of-turn" and events[0].card == 77
    assert g.view(0).shown == (77,)
    assert g.deck_size == size and g.hand(1) == () and g.skips(1) == 1


def test_10_a_shown_card_stays_in_view_until_the_turn_passes():
    g = position(mode="penalty", hands={0: [10, 20]}, deck_top=[77, 78])
    g.apply(1, Draw())  # shown: 77
    g.apply(1, Draw())  # the card cut back at random may be 77 again; whichever it is is shown too
    assert len(g.view(0).shown) == 2 and g.view(0).shown[0] == 77
    g.apply(0, Discard(10))  # seat 0's turn ends: seat 1 loses its turn to a skip, seat 0 plays again
    assert g.view(1).shown == ()


SHOWN_OFFENCES = {  # offence -> (seat, action) in the position below (S0 to act with a full hand)
    "play-out-of-turn": (1, Play(60, 99)),
    "discard-out-of-turn": (1, Discard(60)),
    "draw-out-of-turn": (1, Draw()),
    "illegal-play": (0, Play(40, 3)),
    "illegal-draw": (0, Draw()),
}


@pytest.mark.parametrize("offence", sorted(SHOWN_OFFENCES))
def test_10_shown_after_each_offence_and_after_the_turns_that_follow(offence):
    g = position(players=3, mode="penalty", hands={0: [10, 20, 30, 40, 50], 1: [60, 61], 2: [70, 71]},
                 deck_top=[77, 78, 79])
    earlier = g.apply(2, Draw())[0].card  # a card shown before the offence, during S0's turn
    seat, action = SHOWN_OFFENCES[offence]
    events = g.apply(seat, action)
    assert events[0].offence == offence
    card = events[0].card if type(action) is Draw else None  # only a draw penalty shows a card
    passed = offence.startswith("illegal")  # the illegal offences end the turn; out of turn ones do not
    expected = ((card,) if passed and card is not None else () if passed else
                (earlier,) if card is None else (earlier, card))
    assert {g.view(s).shown for s in (None, 0, 1, 2)} == {expected}
    if not passed:  # S0's turn ends: everything shown during it goes
        g.apply(0, Discard(10))
        assert g.view(None).shown == ()
    else:  # the next player's turn ends: the illegal draw's card, shown a whole turn, goes too
        assert g.turn is not None and g.turn != 0
        g.apply(g.turn, Discard(g.hand(g.turn)[0]))
        assert g.view(None).shown == ()


def test_10_the_pages_say_how_long_a_shown_card_stays_as_the_engine_does():
    from pathlib import Path

    docs = Path(__file__).resolve().parents[1] / "docs"
    protocol = " ".join((docs / "protocol.md").read_text(encoding="utf-8").split())
    rules = " ".join((docs / "rules.md").read_text(encoding="utf-8").split())
    assert "cleared when the turn passes" not in protocol
    for page in (protocol, rules):
        assert "keeps only the card shown by the action that passed it" in page
        assert "stays through the next player's turn" in page


def test_7_draw_out_of_turn_cuts_the_card_back_at_a_uniformly_random_place():
    places = []
    for seed in range(300):
        g = position(mode="penalty", hands={0: [10]}, deck_top=[77], seed=seed)
        g.apply(1, Draw())
        places.append(list(reversed(g._deck)).index(77))  # 0 = back on top
    assert min(places) < 10 and max(places) > 80  # spread over the whole deck
    assert len(set(places)) > 60


def test_7_illegal_play_peg_removed_card_discarded_turn_ends():
    g = position(mode="penalty", hands={0: [40, 2]})
    events = g.apply(0, Play(40, 3))
    assert events[0].offence == "illegal-play" and "turn ends" in events[0].rule
    assert g.occupant(3) is None and g.discards(0) == (40,) and g.turn == 1 and g.skips(0) == 0


def test_7_illegal_draw_card_shown_and_cut_back_turn_ends():
    g = position(mode="penalty", hands={0: [10, 20, 30, 40, 50]}, deck_top=[66])
    events = g.apply(0, Draw())
    assert events[0].offence == "illegal-draw" and events[0].card == 66
    assert len(g.hand(0)) == 5 and g.turn == 1 and g.view(1).shown == (66,)


def test_7_skips_add_up():
    g = position(mode="penalty", hands={0: [10, 11, 12], 1: [20, 21]})
    g.apply(1, Discard(20))
    g.apply(1, Discard(21))
    assert g.skips(1) == 2
    assert [e.kind for e in g.apply(0, Discard(10))] == ["discarded", "skipped"]
    assert [e.kind for e in g.apply(0, Discard(11))] == ["discarded", "skipped"]
    assert g.skips(1) == 0 and g.turn == 0
    g.apply(0, Discard(12))
    assert g.turn == 1


def test_7_out_of_turn_play_below_the_card_is_one_offence():
    g = position(mode="penalty", hands={0: [10], 1: [60]})
    events = g.apply(1, Play(60, 5))
    assert [e.offence for e in events] == ["play-out-of-turn"] and g.skips(1) == 1


@pytest.mark.parametrize("mode", ["guarded", "penalty"])
def test_7_refused_in_both_modes_what_cannot_happen_at_a_real_table(mode):
    g = position(mode=mode, pegs={1: [55]}, hands={0: [10]})
    cases = [
        (0, Play(11, 50), "not-in-hand"),
        (0, Discard(11), "not-in-hand"),
        (0, Play(10, 55), "occupied"),
        (0, Play(10, 100), "no-such-square"),
        (0, Play(10, -1), "no-such-square"),
        (0, Play(100, 100), "no-such-card"),
        (0, Play(True, 50), "no-such-card"),
        (7, Draw(), "no-such-seat"),
    ]
    for seat, action, code in cases:
        with pytest.raises(Refused) as exc:
            g.apply(seat, action)
        assert exc.value.code == code, (action, exc.value)
    g._deck.clear()
    with pytest.raises(Refused) as exc:
        g.apply(0, Draw())
    assert exc.value.code == "deck-empty"


@pytest.mark.parametrize("mode", ["guarded", "penalty"])
def test_7_no_action_after_the_deal_ends(mode):
    g = position(mode=mode, pegs={0: [70, 71, 72, 73]}, hands={0: [74], 1: [5]})
    g.apply(0, Play(74, 74))
    with pytest.raises(Refused) as exc:
        g.apply(1, Discard(5))
    assert exc.value.code == "deal-over"


# -- 8. Hidden information ------------------------------------------------------


def test_8_each_player_sees_only_their_own_hand_and_partners_no_more():
    g = Game(4, seed=4, first=0)
    for _ in range(8):
        g.apply(g.turn, Draw())
    for seat in range(4):
        view = g.view(seat)
        assert view.hand == g.hand(seat)
        # Deal the cards this seat cannot see differently: its view must not change.
        assert reshuffled_unseen(g, seat, salt=seat).view(seat) == view
    assert g.view(None).hand is None


def test_8_everyone_sees_board_hand_sizes_discards_deck_size_turn_skips_shown():
    g = Game(2, mode="penalty", seed=4, first=0)
    view = g.view(None)
    for key in ("board", "hand_sizes", "discards", "deck_size", "turn", "skips", "shown"):
        assert key in view._fields
    assert "deck" not in view._fields and "seed" not in view._fields


# -- 9. Randomness and records ------------------------------------------------


def test_9_a_deal_replays_exactly_from_its_seed_and_actions():
    a, b = Game(3, mode="penalty", seed=42), Game(3, mode="penalty", seed=42)
    assert a.cut == b.cut and a._deck == b._deck
    a.apply(a.turn, Draw())
    other = (a.turn + 1) % 3
    b.apply(b.turn, Draw())
    for g in (a, b):
        g.apply(other, Draw())  # draw out of turn: a random place in the deck
    assert a._deck == b._deck and a.view(None) == b.view(None)


def test_9_without_a_seed_the_game_draws_one_from_a_secure_source():
    assert Game(2).seed != Game(2).seed


# -- The rulebook's example -------------------------------------------------------


def test_rulebook_example_72_58_20_14_held_only_square_4_with_card_0_to_4_blocks():
    """'If you occupy squares numbered 72, 58, 20, and 14, your opponent will have to
    play 0, 1, 2, 3, or 4 card to block you on square number 4.'"""
    g = position(pegs={0: [72, 58, 20, 14]}, hands={1: [0, 1, 2, 3, 4]}, turn=1)
    open_lines = [line for line in LINES if {72, 58, 20, 14} <= set(line)]
    assert open_lines == [(72, 58, 20, 14, 4)]
    for card in range(0, 5):
        assert Play(card, 4) in g.legal_actions(1)
    blocker = position(pegs={0: [72, 58, 20, 14]}, hands={1: [5]}, turn=1)
    assert not any(type(a) is Play and a.square == 4 for a in blocker.legal_actions(1))
    g.apply(1, Play(4, 4))
    assert g.occupant(4) == 1
