"""The coach (board99/coach.py): the rulebook's hints, named, for one seat's own view."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from board99 import Discard, Draw, Game, Play, SeatView
from board99.bots import RulebookBot, make_bot
from board99.coach import KINDS, LOW, RULEBOOK, TITLES, Advice, advise, cards_text


def seat_view(hand: tuple[int, ...], pegs: dict[int, tuple[int, ...]], *, players: int = 2, seat: int = 0,
              deck: int = 40, turn: int | None = None) -> SeatView:
    """Seat ``seat``'s view of a deal under way: ``pegs`` by side, ``hand`` its cards, the others 3 cards each."""
    board: list[int | None] = [None] * 100
    for side, squares in pegs.items():
        for sq in squares:
            board[sq] = side
    base = SeatView.before_deal(players, "guarded", seat)
    sizes = tuple(len(hand) if s == seat else 3 for s in range(players))
    return base._replace(deal=1, ply=12, turn=seat if turn is None else turn, board=tuple(board), hand=hand,
                         hand_sizes=sizes, deck_size=deck)


RULEBOOK_FOUR = (72, 58, 20, 14)


# -- the rulebook's own example -------------------------------------------------------------------------


def test_the_rulebooks_own_example_names_square_4_and_the_cards_0_to_4() -> None:
    # "If you occupy squares numbered 72, 58, 20, and 14, your opponent will have to play 0, 1, 2, 3, or 4
    # card to block you on square number 4." Seen by that opponent, holding a 3:
    advice = advise(seat_view((3, 40, 77), {1: RULEBOOK_FOUR}))
    hint = advice.hints[0]
    assert advice.applies == "block-threat" and hint.kind == "block-threat"
    assert hint.squares == (4,) and set(hint.line) == set(RULEBOOK_FOUR)
    assert hint.cards == (0, 1, 2, 3, 4) and hint.held((3, 40, 77)) == (3,)
    assert hint.action == Play(3, 4)
    assert "only square 4 blocks it" in hint.words and "a card 0\u20134" in hint.words
    assert "72, 58, 20 and 14" in hint.words
    assert hint.rule == RULEBOOK["block-threat"] and "square number 4" in hint.rule


def test_without_a_low_card_the_defender_is_told_to_keep_one_for_square_4() -> None:
    advice = advise(seat_view((30, 40, 77), {1: RULEBOOK_FOUR}))
    block = next(h for h in advice.hints if h.kind == "block-threat")
    assert block.action is None and block.squares == (4,) and block.cards == (0, 1, 2, 3, 4)
    assert "keep any card 0\u20134 you draw" in block.words
    assert advice.applies != "block-threat"  # nothing blocks it: the coach plays on as the rulebook bot does


def test_the_attacker_is_told_the_opponent_must_waste_a_card_0_to_4() -> None:
    # The other side of the example: the player holds the four and no card that fits square 4.
    advice = advise(seat_view((30, 40, 77), {0: RULEBOOK_FOUR}))
    waste = next(h for h in advice.hints if h.kind == "make-opponent-waste")
    assert waste.squares == (4,) and waste.cards == (0, 1, 2, 3, 4) and set(waste.line) == set(RULEBOOK_FOUR)
    assert "only a card 0\u20134 fits it" in waste.words and "low cards" in waste.words


def test_a_play_that_leaves_only_a_low_square_to_block_is_the_make_them_waste_hint() -> None:
    # 72, 58 and 14 pegged: pegging 20 leaves square 4 as the only one to complete (and so to block).
    advice = advise(seat_view((18, 19, 20, 90), {0: (72, 58, 14)}))
    waste = next(h for h in advice.hints if h.kind == "make-opponent-waste")
    assert waste.action == Play(20, 20) and waste.squares == (20, 4) and waste.cards == (20,)
    assert "only square 4 completes the line" in waste.words


# -- the other hints ------------------------------------------------------------------------------------


def test_win_now_is_the_only_hint_when_a_card_completes_five() -> None:
    advice = advise(seat_view((2, 40, 90), {0: RULEBOOK_FOUR, 1: (21, 22, 23, 36)}))
    assert advice.kinds() == ("win-now",)
    assert advice.action == Play(2, 4) and advice.hints[0].squares == (4,)
    assert "wins at once" in advice.hints[0].words


def test_block_the_only_square_of_a_four_with_the_highest_card_that_fits() -> None:
    # 70 71 72 73 along the top edge: 74 is the only square that completes them (70 is the corner).
    advice = advise(seat_view((5, 60, 79), {1: (70, 71, 72, 73)}))
    hint = advice.hints[0]
    assert hint.kind == "block-threat" and hint.squares == (74,) and hint.action == Play(60, 74)
    assert hint.cards == tuple(range(75)) and "your 5 stays for lower squares" in hint.words


def test_an_open_four_names_both_squares_and_blocks_the_higher() -> None:
    # 71 72 73 74 along the top edge: 70 and 75 both complete a five; one block cannot stop both.
    advice = advise(seat_view((5, 60, 79), {1: (71, 72, 73, 74)}))
    hint = advice.hints[0]
    assert hint.kind == "block-threat" and hint.action == Play(60, 75)
    assert set(hint.squares) == {70, 75} and hint.squares[0] == 75
    assert "one block a turn cannot stop every threat" in hint.words


def test_a_full_hand_of_dead_cards_discards_the_highest() -> None:
    taken = tuple(range(90, 100))
    advice = advise(seat_view((91, 93, 95, 97, 99), {0: taken[::2], 1: taken[1::2]}))
    hint = advice.hints[0]
    assert advice.applies == "dead-card-discard" and hint.action == Discard(99)
    assert hint.cards == (91, 93, 95, 97, 99) and "full" in hint.words


def test_a_dead_card_with_room_in_hand_is_kept_until_the_hand_is_full() -> None:
    advice = advise(seat_view((10, 40, 60, 99), {0: (99,)}))
    dead = next(h for h in advice.hints if h.kind == "dead-card-discard")
    assert dead.cards == (99,) and dead.action is None
    assert "square 99 is taken" in dead.words and "drawing is the better turn" in dead.words


def test_a_square_on_two_of_your_lines_is_the_two_way_build() -> None:
    # Row 64 51 34 9 8 7 6 ... and column 75 60 21 14 1 2 7 30 ... cross at 7:
    # 9 and 8 in the row, 2 and 30 in the column.
    advice = advise(seat_view((5, 66, 80), {0: (9, 8, 2, 30), 1: (70, 88, 97, 79)}))
    build = next(h for h in advice.hints if h.kind == "two-way-build")
    assert build.squares == (7,) and {9, 8, 2, 30} <= set(build.line) and build.action == Play(5, 7)
    assert "two fours at once" not in build.words
    assert "more than one way" in build.words


def test_two_threes_crossing_make_two_fours_at_once() -> None:
    advice = advise(seat_view((5, 66, 80), {0: (34, 9, 8, 2, 30, 45), 1: (70, 88, 97, 79, 71, 90)}))
    build = next(h for h in advice.hints if h.kind == "two-way-build")
    assert build.squares == (7,) and "two fours at once: one block cannot stop both" in build.words


def test_with_two_cards_the_coach_says_draw_rather_than_run_out() -> None:
    advice = advise(seat_view((20, 50), {0: (70,), 1: (99,)}))
    assert advice.applies == "dont-run-out" and advice.action == Draw()
    assert "Keep two cards" in advice.hints[0].words


def test_the_low_card_worth_keeping_is_named_with_the_centre_squares_it_alone_reaches() -> None:
    advice = advise(seat_view((3, 44, 61, 73), {0: (70, 71, 72), 1: (99,)}))
    keep = next(h for h in advice.hints if h.kind == "keep-low-card")
    assert keep.cards == (3,) and keep.squares == tuple(range(3, LOW + 1))
    assert advice.action != Play(3, advice.action.square if isinstance(advice.action, Play) else 0)


# -- what the coach is built on ---------------------------------------------------------------------------


def played_views(seed: int, players: int, limit: int = 400) -> list[SeatView]:
    """Every view a seat had on its turn in a rulebook bots' game."""
    game = Game(players, seed=seed)
    bots = [make_bot("rulebook") for _ in range(players)]
    views = []
    while game.winner is None and game.ply < limit:
        view = game.view(game.turn)
        views.append(view)
        game.apply(game.turn, bots[game.turn].choose(view))
    return views


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_applied_hint_is_the_rulebook_bots_own_choice_and_every_suggestion_is_legal(players: int) -> None:
    bot = RulebookBot()
    seen = set()
    for view in played_views(players * 7, players):
        advice = advise(view)
        assert advice.action == bot.choose(view)
        assert advice.applies == advice.hints[0].kind
        assert len(set(advice.kinds())) == len(advice.hints) <= 4
        for hint in advice.hints:
            seen.add(hint.kind)
            assert hint.kind in KINDS and hint.rule == RULEBOOK[hint.kind] and hint.words
            if hint.action is not None:
                assert view.ruling(hint.action).legal, (hint, view.hand)
            assert Advice.from_data(advice.to_data()) == advice
    assert {"dont-run-out", "high-card-high-square"} <= seen


def test_views_that_differ_only_in_the_other_hands_get_the_same_advice() -> None:
    # Two deals with the same cards for S0 and different ones for S1 (set decks, top first): S0's
    # view is the same in both, and so is everything the coach says.
    own = [3, 44, 61]
    first = [c for c in range(100) if c not in own]
    second = list(reversed(first))
    games = []
    for others in (first, second):
        deck = [own[0], others[0], own[1], others[1], own[2], others[2]] + others[3:]
        game = Game(2, seed=5, deck=deck, first=0)
        for _ in range(6):
            game.apply(game.turn, Draw())
        games.append(game)
    assert games[0].hand(1) != games[1].hand(1)
    views = [g.view(0) for g in games]
    assert views[0] == views[1]
    assert advise(views[0]) == advise(views[1])
    assert advise(views[0]).action == Play(3, 3) and advise(views[0]).kinds() == ("high-card-high-square",)


def test_the_coach_advises_a_seat_not_a_spectator_and_nothing_before_the_deal() -> None:
    game = Game(2, seed=3, first=0)
    with pytest.raises(ValueError, match="spectator"):
        advise(game.view(None))
    empty = advise(SeatView.before_deal(2, "guarded", 0))
    assert empty.hints == () and empty.action is None and empty.applies is None
    assert advise(game.view(0)).action == Draw()  # an empty hand: draw


def test_advice_read_from_data_names_the_bad_field() -> None:
    data = advise(seat_view((3, 40, 77), {1: RULEBOOK_FOUR})).to_data()
    for broken, field in (({**data, "hints": "x"}, "advice.hints"),
                          ({**data, "hints": [{**data["hints"][0], "kind": "cheat"}]}, "advice.hints[0].kind"),
                          ({**data, "hints": [{**data["hints"][0], "squares": [100]}]}, "advice.hints[0].squares"),
                          ({**data, "hints": [{**data["hints"][0], "action": {"type": "fly"}}]},
                           "advice.hints[0].action"),
                          ({**data, "ply": -1}, "advice.deal, advice.ply")):
        with pytest.raises(ValueError, match=re.escape(field)):
            Advice.from_data(broken)


def test_every_kind_has_a_title_and_the_rulebooks_words() -> None:
    assert set(TITLES) == set(RULEBOOK) == set(KINDS)
    assert cards_text(0) == "card 0" and cards_text(4) == "a card 0\u20134"


#: The rulebook's text kept with the tests (tests/test_lessons.py checks it against the source document).
RULEBOOK_TEXT = Path(__file__).resolve().parent / "data" / "rulebook-1963.txt"


def test_the_coach_quotes_the_1963_rulebook_word_for_word() -> None:
    text = " ".join(RULEBOOK_TEXT.read_text(encoding="utf-8").split())
    for kind, quote in RULEBOOK.items():
        for part in quote.split(" [...] "):
            assert part.strip() in text, (kind, part)


# -- hints in the game record ------------------------------------------------------------------------------


def finished_game(seed: int = 4) -> Game:
    game = Game(2, seed=seed)
    bots = [make_bot("rulebook") for _ in range(2)]
    while game.winner is None:
        game.apply(game.turn, bots[game.turn].choose(game.view(game.turn)))
    return game


def test_a_record_names_the_hints_asked_for_in_one_header_line_and_replays() -> None:
    from board99.record import Record

    game = finished_game()
    text = Record.of(game, hints=((1, 0), (0, 12), (1, 12))).dumps()
    lines = text.splitlines()
    assert lines[6] == "hints: S1 at ply 0, S0 at ply 12, S1 at ply 12" and lines[7] == ""
    again = Record.loads(text)
    assert again.hints == ((1, 0), (0, 12), (1, 12)) and again.dumps() == text
    assert again.replay().view(None) == game.view(None)
    steps = list(again.steps())
    assert steps[0][0] == 9 and lines[steps[0][0] - 1] == steps[0][1]  # line numbers still name the file's lines


def test_records_without_hints_read_and_write_as_before() -> None:
    from board99.record import Record

    text = Record.of(finished_game()).dumps()
    assert "hints:" not in text and text.splitlines()[6] == ""
    assert Record.loads(text).hints == () and Record.loads(text).dumps() == text


def test_a_bad_hints_line_is_named() -> None:
    from board99.record import Record, RecordError

    lines = Record.of(finished_game(), hints=((0, 3),)).dumps().split("\n")
    for bad in ("hints: S2 at ply 3", "hints: S0 at 3", "hints: "):
        with pytest.raises(RecordError, match="line 7: .*hints: expected 'S<seat> at ply <n>'"):
            Record.loads("\n".join([*lines[:6], bad, *lines[7:]]))
