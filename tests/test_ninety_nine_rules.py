"""Every rule of docs/ninety-nine.md, one test named after each, with the document's own example where it has one.

The rule sets: Glengariff (000), Convention (002), Tokens (003), Three-card (004).
"""

from __future__ import annotations

import pytest

from board99.kinds import SettingsError
from board99.ninety_nine.actions import Draw, Play
from board99.ninety_nine.cards import rank_of
from board99.ninety_nine.errors import Refused
from board99.ninety_nine.events import Forgot, LostToken, Out, Rebuilt, RoundOver
from board99.ninety_nine.game import Game
from board99.ninety_nine.rules import RULE_SETS
from tests.ninety_kit import rigged, table, texts

# -- the deck, the players, the deal ---------------------------------------------------------------------


@pytest.mark.parametrize("rules, players, decks, jokers", [
    ("glengariff", 2, 1, 2), ("glengariff", 6, 1, 2),
    ("convention", 5, 1, 0), ("convention", 6, 2, 0),
    ("tokens", 6, 1, 0),
    ("three-card", 4, 1, 0), ("three-card", 5, 2, 0),
])
def test_decks_and_jokers_at_each_player_count(rules: str, players: int, decks: int, jokers: int) -> None:
    t = table(rules, players)
    assert (t.decks, t.jokers) == (decks, jokers)
    g = Game(players, "guarded", t, seed=3)
    cards = g.stock_size + len(g.pile) + sum(len(g.hand(s)) for s in range(players))
    assert cards == decks * (52 + jokers)


@pytest.mark.parametrize("rules, lo, hi", [("glengariff", 2, 6), ("convention", 2, 6), ("tokens", 2, 6),
                                           ("three-card", 3, 6)])
def test_player_counts_each_rule_set_allows(rules: str, lo: int, hi: int) -> None:
    for players in range(lo, hi + 1):
        table(rules, players)
    if lo > 2:
        with pytest.raises(SettingsError, match="players: the Three-card rules \\(004\\) are for 3 to 6"):
            table(rules, lo - 1)


@pytest.mark.parametrize("rules, size", [("glengariff", 4), ("convention", 7), ("tokens", 4), ("three-card", 3)])
def test_hand_size_per_rule_set(rules: str, size: int) -> None:
    g = Game(4, "guarded", table(rules, 4), seed=8)
    assert [len(g.hand(s)) for s in range(4)] == [size] * 4


def test_first_player_is_left_of_the_dealer() -> None:
    for seed in range(10):
        g = Game(4, "guarded", table("three-card", 4), seed=seed)
        assert g.turn == (g.dealer + 1) % 4


def test_total_starts_at_zero() -> None:
    assert Game(3, "guarded", table("three-card"), seed=1).total == 0


# -- the running total and the cards ---------------------------------------------------------------------


def test_convention_bob_jane_pete_count() -> None:
    """002: Bob plays a Jack, "Ten!"; Jane a 7, "Seventeen!"; Pete a 5, "Twenty-two!"; each draws."""
    g = rigged("convention", 3, "penalty", hands=[["JS", "2C"], ["7H", "2D"], ["5C", "2H"]],
               stock=["3S", "3H", "3D", "3C"])
    bob, jane, pete = 0, 1, 2
    assert texts(g.apply(bob, Play("JS", say=10))) == ["S0 plays JS: total 10", "S0 draws 3S"]
    assert texts(g.apply(jane, Play("7H", say=17))) == ["S1 plays 7H: total 17", "S1 draws 3H"]
    assert texts(g.apply(pete, Play("5C", say=22))) == ["S2 plays 5C: total 22", "S2 draws 3D"]
    assert g.total == 22 and g.turn == bob


@pytest.mark.parametrize("rules, rank, total, value, after", [
    ("glengariff", "2", 10, None, 12), ("glengariff", "8", 10, None, 18), ("glengariff", "J", 10, None, 21),
    ("glengariff", "K", 10, None, 10),
    ("convention", "A", 10, None, 11), ("convention", "J", 10, None, 20), ("convention", "Q", 10, None, 20),
    ("convention", "8", 10, None, 18),
    ("tokens", "J", 10, None, 20), ("tokens", "Q", 10, None, 20), ("tokens", "K", 10, None, 10),
    ("tokens", "6", 10, None, 16),
    ("three-card", "J", 10, None, 20), ("three-card", "Q", 10, None, 20), ("three-card", "7", 10, None, 17),
])
def test_number_and_court_cards_add_their_value(rules: str, rank: str, total: int, value: int | None,
                                                after: int) -> None:
    card = rank + "S"
    g = rigged(rules, 3, hands=[[card, "2C"], ["2D"], ["2H"]], stock=["3S"], total=total)
    g.apply(0, Play(card, value))
    assert g.total == after


@pytest.mark.parametrize("rules, values", [("glengariff", (1, 14)), ("tokens", (1, 11)), ("three-card", (1, 11)),
                                           ("convention", (1,))])
def test_ace_value_at_players_option(rules: str, values: tuple[int, ...]) -> None:
    for value in values:
        g = rigged(rules, 3, hands=[["AS", "2C"], ["2D"], ["2H"]], stock=["3S"], total=20)
        g.apply(0, Play("AS", value if len(values) > 1 else None))
        assert g.total == 20 + value
    if len(values) > 1:
        g = rigged(rules, 3, hands=[["AS", "2C"], ["2D"], ["2H"]], stock=["3S"], total=20)
        with pytest.raises(Refused, match="choose 1 or") as err:
            g.apply(0, Play("AS"))
        assert err.value.code == "bad-value"


def test_ace_value_that_passes_99_is_refused_while_the_other_fits() -> None:
    g = rigged("tokens", 3, hands=[["AS", "KC"], ["2D"], ["2H"]], stock=["3S"], total=95)
    with pytest.raises(Refused, match="over 99") as err:
        g.apply(0, Play("AS", 11))
    assert err.value.code == "over-99"
    g.apply(0, Play("AS", 1))
    assert g.total == 96


@pytest.mark.parametrize("rules", ["glengariff", "tokens", "three-card"])
def test_ten_adds_or_subtracts_ten(rules: str) -> None:
    for value, after in ((10, 60), (-10, 40)):
        g = rigged(rules, 3, hands=[["10S", "2C"], ["2D"], ["2H"]], stock=["3S"], total=50)
        g.apply(0, Play("10S", value))
        assert g.total == after


def test_convention_minus_ten_subtracts_and_may_go_below_zero() -> None:
    """002: at 99 you say "Eighty-Nine!"; 70 becomes 60; "if the pile was worth 0 (zero), it's now worth -10"."""
    for total, after in ((99, 89), (70, 60), (0, -10)):
        g = rigged("convention", 3, "penalty", hands=[["10S", "2C"], ["2D"], ["2H"]], stock=["3S"], total=total)
        assert texts(g.apply(0, Play("10S", say=after)))[0] == f"S0 plays 10S: total {after}"


def test_ten_may_not_take_the_total_below_zero_where_the_document_is_silent() -> None:
    g = rigged("tokens", 3, hands=[["10S", "2C"], ["2D"], ["2H"]], stock=["3S"], total=5)
    with pytest.raises(Refused, match="below zero") as err:
        g.apply(0, Play("10S", -10))
    assert err.value.code == "below-zero"
    # the house option lets it
    g = rigged("tokens", 3, hands=[["10S", "2C"], ["2D"], ["2H"]], stock=["3S"], total=5, below_zero=True)
    g.apply(0, Play("10S", -10))
    assert g.total == -5


def test_convention_minus_ten_stays_at_zero_or_more_when_the_house_says_so() -> None:
    g = rigged("convention", 3, hands=[["10S", "2C"], ["2D"], ["2H"]], stock=["3S"], total=4, below_zero=False)
    with pytest.raises(Refused, match=r"may not go below zero at this table \(4 -10 is -6\)") as err:
        g.apply(0, Play("10S"))
    assert err.value.code == "below-zero"


@pytest.mark.parametrize("rules", ["glengariff", "convention", "tokens"])
def test_nine_makes_the_total_99(rules: str) -> None:
    for total in (0, 40, 99):  # 002: "even if it was already 99", and "as the very first card"
        g = rigged(rules, 3, hands=[["9S", "2C"], ["KD"], ["KH"]], stock=["3S", "3H"], total=total)
        g.apply(0, Play("9S"))
        assert g.total == 99


def test_convention_nine_as_the_very_first_card() -> None:
    """002: "You can even play a Ninety-Nine as the very first card"."""
    g = Game(3, "guarded", table("convention"), seed=4)
    g._hands[g.turn] = ["9H", *g.hand(g.turn)[1:]]  # type: ignore[index]
    assert g.ply == 0 and g.total == 0
    g.apply(g.turn, Play("9H"))  # type: ignore[arg-type]
    assert g.total == 99


def test_three_card_nine_passes() -> None:
    """004: "the value of the discard pile remains the same ... play passes to the next player"."""
    g = rigged("three-card", 3, hands=[["9S", "2C"], ["2D"], ["2H"]], stock=["3S"], total=57)
    g.apply(0, Play("9S"))
    assert (g.total, g.turn) == (57, 1)


def test_three_card_king_makes_the_total_99() -> None:
    g = rigged("three-card", 3, hands=[["KS", "2C"], ["9D"], ["9H"]], stock=["3S", "3H"], total=12)
    g.apply(0, Play("KS"))
    assert g.total == 99


@pytest.mark.parametrize("rules", ["glengariff", "convention", "tokens"])
def test_king_adds_nothing(rules: str) -> None:
    """002's "Pass Me By": "you add nothing to the discard pile ... and the next player goes"."""
    g = rigged(rules, 3, hands=[["KS", "2C"], ["2D"], ["2H"]], stock=["3S"], total=64)
    g.apply(0, Play("KS"))
    assert (g.total, g.turn) == (64, 1)


def test_joker_makes_the_total_99() -> None:
    g = rigged("glengariff", 3, hands=[["joker", "2C"], ["2D"], ["2H"]], stock=["3S"], total=30)
    g.apply(0, Play("joker"))
    assert g.total == 99


@pytest.mark.parametrize("rules", ["glengariff", "convention", "tokens", "three-card"])
def test_four_reverses_the_direction_of_play(rules: str) -> None:
    """002's "Back To You": "the player who played before you is now the next player to play"."""
    g = rigged(rules, 4, hands=[["2C", "6C"], ["4S", "2D"], ["2H", "6H"], ["2S", "6S"]],
               stock=["5S", "5H", "5D", "5C"], total=30)
    g.apply(0, Play("2C"))
    assert texts(g.apply(1, Play("4S")))[:2] == ["S1 plays 4S: total 32", "play reverses: now counter-clockwise"]
    assert (g.turn, g.direction, g.total) == (0, -1, 32)
    g.apply(0, Play("6C"))
    assert g.turn == 3


def test_reverse_at_two_players_changes_nothing() -> None:
    """003: "Order of play is reversed in games with more than two players"."""
    g = rigged("tokens", 2, hands=[["4S", "2C"], ["2D", "3D"]], stock=["5S", "5H"], total=30)
    assert [e.kind for e in g.apply(0, Play("4S"))] == ["played", "drew"]
    assert (g.turn, g.direction) == (1, 1)


@pytest.mark.parametrize("rules, card, added", [("glengariff", "5S", 5), ("tokens", "3S", 3)])
def test_skip_card_skips_the_next_player(rules: str, card: str, added: int) -> None:
    g = rigged(rules, 3, hands=[[card, "2C"], ["2D"], ["2H"]], stock=["5H"], total=20)
    assert "S1 is skipped" in texts(g.apply(0, Play(card)))
    assert (g.turn, g.total) == (2, 20 + added)


def test_skip_at_two_players_plays_again() -> None:
    g = rigged("tokens", 2, hands=[["3S", "2C"], ["2D"]], stock=["5H"], total=20)
    g.apply(0, Play("3S"))
    assert g.turn == 0


def test_glengariff_seven_adds_seven_and_reverses() -> None:
    g = rigged("glengariff", 4, hands=[["7S", "2C"], ["2D"], ["2H"], ["2S"]], stock=["5H"], total=20)
    g.apply(0, Play("7S"))
    assert (g.total, g.direction, g.turn) == (27, -1, 3)


def test_glengariff_jack_adds_eleven() -> None:
    g = rigged("glengariff", 3, hands=[["JS", "2C"], ["2D"], ["2H"]], stock=["5H"], total=20)
    g.apply(0, Play("JS"))
    assert g.total == 31


# -- Glengariff's queens ---------------------------------------------------------------------------------


def test_glengariff_queen_stops_the_next_players_draw() -> None:
    g = rigged("glengariff", 3, hands=[["QS", "2C"], ["5D", "2D"], ["2H"]], stock=["6S", "6H"], total=20)
    assert texts(g.apply(0, Play("QS")))[-1] == "S1 must answer a queen: with a queen, or with 1 card(s) drawing for none"
    assert g.total == 20
    events = g.apply(1, Play("5D"))
    assert [e.kind for e in events] == ["played", "skipped"]  # no draw for S1; its 5 skips S2
    assert g.hand(1) == ("2D",) and g.turn == 0


def test_glengariff_queens_in_a_row_add_up() -> None:
    """000: "That player must play a number of cards (all of which count) equal to the number of consecutive
    queens which have been played, and may not pick up replacement cards for any of them"."""
    g = rigged("glengariff", 3, hands=[["QS", "2C"], ["QH", "2D"], ["6H", "8H", "3C", "2H"]],
               stock=["6S", "6D", "6C"], total=20)
    g.apply(0, Play("QS"))
    assert texts(g.apply(1, Play("QH")))[-1].startswith("S2 must answer 2 queens")
    assert g.hand(1) == ("2D",)  # the answering queen draws no card either
    g.apply(2, Play("6H"))
    assert g.turn == 2 and g.owed == 1  # one more card to play
    g.apply(2, Play("8H"))
    assert g.total == 34 and g.turn == 0 and g.hand(2) == ("3C", "2H")


def test_glengariff_player_who_cannot_pay_the_queens_is_out() -> None:
    g = rigged("glengariff", 3, hands=[["QS", "KD"], ["QH", "2D"], ["8H", "KC"]],
               stock=["6S", "6D", "6C"], total=90)
    g.apply(0, Play("QS"))
    g.apply(1, Play("QH"))
    g.apply(2, Play("8H"))  # 98; the second owed card (a king, 0) still fits
    assert g.turn == 2
    g.apply(2, Play("KC"))
    assert g.turn == 0 and not g.out[2]
    g2 = rigged("glengariff", 3, hands=[["QS", "2C"], ["QH", "2D"], ["8H"]], stock=["6S"], total=90)
    g2.apply(0, Play("QS"))
    g2.apply(1, Play("QH"))
    events = g2.apply(2, Play("8H"))  # an empty hand cannot pay the second card
    assert any(type(e) is Out and e.seat == 2 and e.reason == "cannot-play" for e in events)
    g3 = rigged("glengariff", 3, hands=[["QS", "KD"], ["QH", "2D"], ["8H", "JH"]], stock=["6S", "6D"], total=90)
    g3.apply(0, Play("QS"))
    g3.apply(1, Play("QH"))
    events = g3.apply(2, Play("8H"))  # 98: the jack (+11) cannot be the second card
    assert any(type(e) is Out and e.seat == 2 for e in events) and g3.total == 98 and g3.turn == 0


# -- Glengariff's turned-up card -------------------------------------------------------------------------


def _turned_up(card: str, players: int = 4) -> Game:
    """A Glengariff game whose turn-up card has ``card``'s rank (found by seed)."""
    for seed in range(5000):
        g = Game(players, "guarded", table("glengariff", players), seed=seed)
        if rank_of(g.pile[0]) == rank_of(card):
            return g
    raise AssertionError(f"no seed turns up {card}")


def test_glengariff_turn_up_card_counts_as_the_dealers_play() -> None:
    g = _turned_up("8S")
    assert g.total == 8 and g.turn == (g.dealer + 1) % 4
    assert texts(g.opening)[1] == f"S{g.dealer} turns up {g.pile[0]}: total 8"


def test_glengariff_turned_up_reverse_changes_who_starts() -> None:
    g = _turned_up("4S")
    assert g.total == 0 and g.direction == -1 and g.turn == (g.dealer - 1) % 4


def test_glengariff_turned_up_skip_skips_the_first_player() -> None:
    g = _turned_up("5S")
    assert g.total == 5 and g.turn == (g.dealer + 2) % 4


def test_glengariff_turned_up_queen_stops_the_first_players_draw() -> None:
    g = _turned_up("QS")
    assert g.chain == 1 and g.owed == 1


def test_glengariff_turned_up_ace_and_ten_take_their_first_value() -> None:
    assert _turned_up("AS").total == 1
    assert _turned_up("10S").total == 10


# -- out of the game, tokens, rounds ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["glengariff", "convention"])
def test_player_who_cannot_play_is_out(rules: str) -> None:
    g = rigged(rules, 3, hands=[["2C", "3C"], ["8D", "JD"], ["2H", "3H"]], stock=["5S", "5H"], total=90)
    events = g.apply(0, Play("3C"))  # 93: S1 holds an 8 and a jack, neither fits
    assert "S1 is out of the game (cannot-play): place 3" in texts(events)
    assert g.out[1] and g.hand(1) == () and g.turn == 2


def test_last_player_left_wins() -> None:
    """002: "be the last player left!" -- the last player need not be able to play."""
    g = rigged("convention", 2, hands=[["2C", "3C"], ["8D", "JD"]], stock=["5S", "5H"], total=90)
    events = g.apply(0, Play("3C"))
    assert texts(events)[-1] == "S0 wins: the last player left"
    assert g.over and g.winner == 0 and g.turn is None


def test_cannot_play_costs_a_token_and_a_new_hand_is_dealt() -> None:
    """003: "the player forfeits one token and a new hand is dealt"."""
    g = rigged("tokens", 3, hands=[["2C", "3C", "4C", "5C"], ["8D", "JD", "QD", "8C"], ["2H"]],
               stock=["5S", "5H"], total=90)
    events = g.apply(0, Play("2C"))
    kinds = [e.kind for e in events]
    assert kinds[:3] == ["played", "drew", "lost-token"] and "round-over" in kinds and "dealt" in kinds
    assert g.tokens == [3, 2, 3] and g.deal == 2 and g.total == 0
    assert [len(g.hand(s)) for s in range(3)] == [4, 4, 4]


def test_no_tokens_left_is_out_of_the_game() -> None:
    g = rigged("tokens", 3, hands=[["2C", "3C"], ["8D", "JD"], ["2H"]], stock=["5S", "5H"], total=90)
    g.tokens = [3, 1, 3]
    events = g.apply(0, Play("2C"))
    assert any(type(e) is Out and e.seat == 1 for e in events)
    assert g.out[1] and g.deal == 2 and len(g.hand(1)) == 0


@pytest.mark.parametrize("rules", ["glengariff", "convention"])
def test_with_tokens_a_player_who_cannot_play_sits_out_the_round_until_one_is_left(rules: str) -> None:
    """000 and 002 put a player who cannot play out while play goes on; with tokens (a house option) that is out
    of the round: a token lost, the cards face down, back in at the next deal."""
    g = rigged(rules, 4, hands=[["2C", "3C"], ["8D", "JD"], ["KH", "8H"], ["8S", "JS"]], stock=["5S", "6S", "7S"],
               total=90, tokens=2)
    events = g.apply(0, Play("2C"))  # 92: S1 cannot play
    assert texts(events)[2:4] == ["S1 loses a token (cannot-play): 1 left", "S1 is out of this round (cannot-play)"]
    assert g.sat_out == (False, True, False, False) and g.hand(1) == () and g.turn == 2 and g.deal == 1
    g.apply(2, Play("KH"))  # 92 still: S3 cannot play either and sits out too
    assert g.sat_out == (False, True, False, True) and g.turn == 0
    g.apply(0, Play("3C"))  # 95: S2 holds an 8 and a 6, so it sits out, and S0 is the last one left in the round
    assert g.tokens == [2, 1, 1, 1] and g.deal == 2 and g.sat_out == (False,) * 4 and g.total >= 0
    assert all(len(g.hand(s)) == g.table.hand_size for s in range(4)) and not any(g.out)


def test_three_card_over_99_loses_a_token_and_ends_the_round() -> None:
    """004: "A round is concluded immediately a player plays a card that takes the total ... over 99"."""
    g = rigged("three-card", 3, "penalty", hands=[["JC", "2C"], ["2D"], ["2H"]], stock=["5S"], total=95)
    assert g.check(0, Play("JC", say=105)) == "over-99"
    events = g.apply(0, Play("JC", say=105))
    assert texts(events)[:2] == ["S0 plays JC: 105 is over 99", "S0 loses a token (over-99): 2 left"]
    assert any(type(e) is RoundOver for e in events) and g.deal == 2


def test_guarded_refuses_a_card_over_99_while_another_fits() -> None:
    g = rigged("three-card", 3, hands=[["JC", "2C"], ["2D"], ["2H"]], stock=["5S"], total=95)
    with pytest.raises(Refused, match="over 99") as err:
        g.apply(0, Play("JC"))
    assert err.value.code == "over-99"


@pytest.mark.parametrize("rules", ["glengariff", "convention"])
def test_over_99_at_a_penalty_table_puts_the_player_out(rules: str) -> None:
    g = rigged(rules, 3, "penalty", hands=[["8C", "2C"], ["2D"], ["2H"]], stock=["5S"], total=95)
    events = g.apply(0, Play("8C", say=103))
    assert any(type(e) is Out and e.seat == 0 and e.reason == "over-99" for e in events)
    assert g.total == 95 and g.turn == 1


def test_total_may_stay_at_99() -> None:
    """003: "it is perfectly fine for the count to equal 99, even for an extended period of time"."""
    g = rigged("tokens", 3, hands=[["KS", "KH"], ["KD", "4D"], ["9H", "KC"]], stock=["KS", "KH", "KD", "KC"],
               total=99)
    for seat, card in ((0, "KS"), (1, "KD"), (2, "9H")):
        g.apply(seat, Play(card))
        assert g.total == 99 and not any(g.out)


def test_empty_hand_cannot_play() -> None:
    g = rigged("convention", 3, "penalty", hands=[["2C"], [], ["2H", "3H"]], stock=["5S"], total=10)
    events = g.apply(0, Play("2C", say=12))
    assert any(type(e) is Out and e.seat == 1 and e.reason == "cannot-play" for e in events)


def test_deal_passes_left_to_the_next_player_still_in() -> None:
    """004: "The player to the left of the dealer who is still in the game becomes the new dealer"."""
    g = rigged("three-card", 4, hands=[["2C", "3C"], ["8D", "JD"], ["2H"], ["2S"]], stock=["5S", "5H"], total=90)
    g.dealer = 0
    g.out[1] = True
    g._hands[1] = []
    g._hands[2] = ["8H", "JH"]
    g.apply(0, Play("3C"))  # S2 (next, S1 being out) cannot play: a new round, dealt by S2
    assert g.deal == 2 and g.dealer == 2 and g.turn == 3


# -- drawing and forgetting to draw ----------------------------------------------------------------------


def test_guarded_table_draws_with_the_card() -> None:
    g = rigged("convention", 3, hands=[["2C", "3C"], ["2D"], ["2H"]], stock=["5S"], total=10)
    g.apply(0, Play("2C", draw=False))
    assert g.hand(0) == ("3C", "5S") and g.pending == ()
    with pytest.raises(Refused) as err:
        g.apply(0, Draw())
    assert err.value.code == "draw-automatic"


def _forgetters(rules: str = "convention", players: int = 4) -> Game:
    hands = [[f"{r}{s}" for r in ("2", "3", "5")] for s in "CDHS"][:players]
    return rigged(rules, players, "penalty", hands=hands, stock=["6S", "6H", "6D", "6C", "7S", "7H"], total=10)


def test_forgot_draw_is_lost_when_the_next_player_plays_and_draws() -> None:
    """002: forget "before the next player successfully plays a card ... and draws ..., YOU DON'T GET TO DRAW"."""
    g = _forgetters()
    g.apply(0, Play("2C", say=12, draw=False))
    assert g.pending == (0,)
    events = g.apply(1, Play("2D", say=14))  # S1 plays and draws: S0's draw is lost
    assert texts(events) == ["S1 plays 2D: total 14", "S0 forgot to draw: that draw is lost", "S1 draws 6S"]
    with pytest.raises(Refused) as err:
        g.apply(0, Draw())
    assert err.value.code == "no-draw-owed"
    assert len(g.hand(0)) == 2  # a card short


def test_forgot_draw_may_be_made_before_the_next_player_draws() -> None:
    g = _forgetters()
    g.apply(0, Play("2C", say=12, draw=False))
    g.apply(1, Play("2D", say=14, draw=False))  # S1 played but has not drawn: S0 still may
    assert texts(g.apply(0, Draw())) == ["S0 draws 6S"]
    assert g.pending == (1,)


def test_forgetters_chain_two_in_a_row_have_until_the_third_player_draws() -> None:
    """002: "If two players in a row forget to draw, they have until the third player draws to remember"."""
    g = _forgetters()
    g.apply(0, Play("2C", say=12, draw=False))
    g.apply(1, Play("2D", say=14, draw=False))
    g.apply(2, Play("2H", say=16, draw=False))
    assert g.pending == (0, 1, 2)
    g2 = g.copy()
    assert texts(g2.apply(1, Draw())) == ["S0 forgot to draw: that draw is lost", "S1 draws 6S"]
    events = g.apply(2, Draw())  # the third player draws: both earlier forgetters lose their draws
    assert [type(e) for e in events[:2]] == [Forgot, Forgot] and g.pending == ()


def test_forgetters_chain_second_draws_before_first() -> None:
    """002: "if the second player draws before the first player, the first player doesn't get to draw"."""
    g = _forgetters()
    g.apply(0, Play("2C", say=12, draw=False))
    g.apply(1, Play("2D", say=14, draw=False))
    assert texts(g.apply(1, Draw())) == ["S0 forgot to draw: that draw is lost", "S1 draws 6S"]
    assert g.pending == ()


def test_forgetters_chain_three_or_more_until_the_next_player_draws() -> None:
    """002: "If three or more players in a row forget to draw, they have until the next player draws"."""
    g = _forgetters()
    for seat, card, total in ((0, "2C", 12), (1, "2D", 14), (2, "2H", 16)):
        g.apply(seat, Play(card, say=total, draw=False))
    events = g.apply(3, Play("2S", say=18))
    assert [e.text() for e in events if type(e) is Forgot] == [f"S{s} forgot to draw: that draw is lost"
                                                                for s in (0, 1, 2)]


def test_tokens_forgot_draw_is_lost_at_the_next_players_turn() -> None:
    """003: "Should a player forget to draw before the next player's turn, they are not entitled to draw later"."""
    g = _forgetters("tokens")
    g.apply(0, Play("2C", say=12, draw=False))
    events = g.apply(1, Play("2D", say=14, draw=False))
    assert texts(events)[0] == "S0 forgot to draw: that draw is lost"
    assert g.pending == (1,)


def test_forgot_draw_is_lost_when_the_forgetter_plays_again() -> None:
    g = _forgetters("convention", 2)
    g.apply(0, Play("2C", say=12, draw=False))
    g.apply(1, Play("2D", say=14, draw=False))
    events = g.apply(0, Play("3C", say=17, draw=False))
    assert texts(events)[0] == "S0 forgot to draw: that draw is lost" and g.pending == (1, 0)


def test_stock_rebuilt_in_glengariff_is_turned_over_unshuffled() -> None:
    """000: "the top card of the played cards is retained ... The pack is not shuffled in doing so"."""
    g = rigged("glengariff", 3, hands=[["2C", "3C"], ["2D"], ["2H"]], stock=["5S"], total=10,
               pile=["6C", "7C", "8C", "KH"])
    events = g.apply(0, Play("2C"))
    assert texts(events)[-1] == "stock rebuilt from the played pile: 4 cards, turned over unshuffled"
    assert g.pile == ("2C",) and g.total == 12
    assert g._stock[::-1] == ["6C", "7C", "8C", "KH"]  # the oldest card played is drawn first


@pytest.mark.parametrize("rules", ["convention", "tokens", "three-card"])
def test_rebuilt_stock_keeps_the_top_card_and_the_total_and_is_shuffled(rules: str) -> None:
    """002: "leaves the top card on the table in the new discard pile and reshuffles the rest"; 004: "the value
    of the discard pile is maintained"."""
    g = rigged(rules, 3, hands=[["2C", "3C"], ["2D"], ["2H"]], stock=["5S"], total=10,
               pile=[f"{r}C" for r in ("4", "5", "6", "7", "8", "J", "Q", "K")])
    events = g.apply(0, Play("2C"))
    assert type(events[-1]) is Rebuilt and events[-1].shuffled and events[-1].cards == 8
    assert g.pile == ("2C",) and g.total == 12 and sorted(g._stock) == sorted(
        f"{r}C" for r in ("4", "5", "6", "7", "8", "J", "Q", "K"))


# -- announcing the total ----------------------------------------------------------------------------------


def test_penalty_table_has_the_total_said_with_the_card() -> None:
    g = rigged("convention", 3, "penalty", hands=[["2C", "3C"], ["2D"], ["2H"]], stock=["5S"], total=10)
    with pytest.raises(Refused, match="say the new total") as err:
        g.apply(0, Play("2C"))
    assert err.value.code == "say-total"


def test_wrong_total_is_corrected_for_everyone_to_see() -> None:
    g = rigged("convention", 3, "penalty", hands=[["2C", "3C"], ["2D"], ["2H"]], stock=["5S"], total=10)
    assert g.check(0, Play("2C", say=13)) == "wrong-total"
    events = g.apply(0, Play("2C", say=13))
    assert texts(events)[:2] == ["S0 plays 2C: total 12", "S0 said 13: corrected, the total is 12"]
    assert g.total == 12 and g.turn == 1


def test_wrong_total_costs_a_token_as_a_house_rule() -> None:
    g = rigged("tokens", 3, "penalty", hands=[["2C", "3C"], ["2D"], ["2H"]], stock=["5S"], total=10,
               wrong_total="token")
    events = g.apply(0, Play("2C", say=13))
    assert any(type(e) is LostToken and e.reason == "wrong-total" for e in events)
    assert g.tokens == [2, 3, 3] and g.deal == 1 and g.turn == 1  # the round goes on


def test_guarded_table_refuses_a_wrong_total() -> None:
    g = rigged("convention", 3, hands=[["2C", "3C"], ["2D"], ["2H"]], stock=["5S"], total=10)
    with pytest.raises(Refused, match="the total would be 12, not 13") as err:
        g.apply(0, Play("2C", say=13))
    assert err.value.code == "wrong-total"


# -- turns and refusals --------------------------------------------------------------------------------------


def test_only_the_player_to_play_may_play() -> None:
    g = rigged("convention", 3, hands=[["2C", "3C"], ["2D"], ["2H"]], stock=["5S"], total=10)
    with pytest.raises(Refused, match="S0's turn") as err:
        g.apply(1, Play("2D"))
    assert err.value.code == "out-of-turn"
    with pytest.raises(Refused) as err:
        g.apply(0, Play("KS"))
    assert err.value.code == "not-in-hand"


def test_nonsense_from_python_is_refused_by_name() -> None:
    g = rigged("convention", 3, "penalty", hands=[["2C", "3C"], ["2D"], ["2H"]], stock=["5S"], total=10)
    for action, code in ((Play("ZZ", say=12), "not-in-hand"), (Play("2C", say="12"), "bad-value"),  # type: ignore[arg-type]
                         (Play("2C", value=2.0, say=12), "bad-value"), ("draw", "bad-action")):  # type: ignore[arg-type]
        with pytest.raises(Refused) as err:
            g.apply(0, action)  # type: ignore[arg-type]
        assert err.value.code == code


# -- house options -------------------------------------------------------------------------------------------


def test_house_options_change_a_rule_for_one_table() -> None:
    t = table("convention", 4, hand_size=5, tokens=2, jokers=1, decks=2, rank_K="99")
    assert (t.hand_size, t.tokens, t.jokers, t.decks, t.effect("K").to99) == (5, 2, 1, 2, True)
    g = rigged("convention", 3, hands=[["KS", "2C"], ["2D"], ["2H"]], stock=["5S"], total=10, rank_K="99")
    g.apply(0, Play("KS"))
    assert g.total == 99


@pytest.mark.parametrize("options, field, words", [
    ({"hand_size": 9}, "hand_size", "not one of"),
    ({"tokens": True}, "tokens", "not one of"),
    ({"rank_Q": "explode"}, "rank_Q", "not one of"),
    ({"colour": "red"}, "colour", "no option 'colour'"),
    ({"rules": "poker"}, "rules", "not one of"),
    ({"wrong_total": "token"}, "wrong_total", "only cost a token at a table with tokens"),
    # Every rank adding nothing (or making 99): nobody could ever pass 99, and the game would never end.
    ({f"rank_{r}": ("99" if r == "9" else "+0") for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                                          "Q", "K")}, "options", "would never end"),
])
def test_house_options_validated_with_clear_refusals(options: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(SettingsError, match=words) as err:
        table(str(options.pop("rules", "convention")), 3, **options)
    assert err.value.field == field


def test_each_rule_set_names_its_source_document() -> None:
    assert {rs.name: rs.source for rs in RULE_SETS.values()} == {
        "glengariff": "000", "convention": "002", "tokens": "003", "three-card": "004"}


def test_each_card_says_what_it_does_in_words() -> None:
    glengariff, convention = table("glengariff"), table("convention")
    assert glengariff.effect("A").words() == "adds 1 or 14"
    assert glengariff.effect("10").words() == "adds or subtracts 10"
    assert glengariff.effect("7").words() == "adds 7, reverses the play"
    assert glengariff.effect("Q").words() == "adds 0, the next player may not draw (queens in a row add up)"
    assert convention.effect("10").words() == "subtracts 10"
    assert convention.effect("9").words() == "makes the total 99"


def test_a_tables_rules_read_in_words_from_the_rules_themselves() -> None:
    lines = table("tokens", 4, wrong_total="token", rank_K="99").describe()
    assert lines[:2] == ["Tokens rules (003)", "1 deck, no jokers; 4 cards each; 3 tokens each"]
    assert "3: adds 3, skips the next player" in lines and "K: makes the total 99" in lines
    assert "house rule: a wrong total costs a token" in lines and not any(x.startswith("joker") for x in lines)
    assert "the top card of the stock is turned up as the dealer's play" in table("glengariff").describe()


def test_every_rule_test_is_named_on_the_rules_page_and_every_name_there_is_a_test() -> None:
    """docs/ninety-nine.md names the test of each rule; both ways, so the page and the tests cannot drift."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "ninety-nine.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", page))
    tests = {p: set(re.findall(r"^def (test_[a-z0-9_]+)", p.read_text(encoding="utf-8"), re.M))
             for p in root.glob("tests/test_ninety_nine*.py")}
    defined = set().union(*tests.values())
    assert named <= defined, sorted(named - defined)
    rules = tests[root / "tests" / "test_ninety_nine_rules.py"] - {
        "test_every_rule_test_is_named_on_the_rules_page_and_every_name_there_is_a_test"}
    assert rules <= named, sorted(rules - named)
