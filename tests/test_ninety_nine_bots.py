"""Ninety-Nine's search bot, its memory of the deal, and the arena: real games, views only, fixed seeds."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from board99 import kinds
from board99.commands import main
from board99.kinds import SettingsError
from board99.ninety_nine import search
from board99.ninety_nine.actions import Draw, Play
from board99.ninety_nine.arena import run_arena, search_options, seat_bots
from board99.ninety_nine.bots import SoundBot, plays_or_draw
from board99.ninety_nine.cards import rank_of
from board99.ninety_nine.events import LostToken, Out, RoundOver, SatOut, Won
from board99.ninety_nine.game import Game
from board99.ninety_nine.kind import NINETY_NINE
from board99.ninety_nine.memory import PlayMemory, Seen
from board99.ninety_nine.playout import RANK_NO, Round
from board99.ninety_nine.rules import HOUSE_OPTIONS, RULE_SETS, Table
from board99.ninety_nine.search import ARENA_SAMPLES, MIN_SAMPLES, SearchBot, refused_ranks, sound_play
from board99.ninety_nine.view import NinetyView, view_of
from board99.server.ratings import bot_ratings


def wire_view(game: Game, seat: int) -> NinetyView:
    """The seat's view as a bot at the server gets it: plain data, read back; nothing else of the game."""
    return NinetyView.from_data(view_of(game, seat).to_data())


@pytest.mark.parametrize("mode", ["guarded", "penalty"])
@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_the_search_bot_plays_only_legal_actions_to_the_end_of_a_game(rules: str, mode: str) -> None:
    game = Game(3, mode, Table.build(3, {"rules": rules}), seed=21)
    bots = [SearchBot(seed=s, samples=3, budget=None) for s in range(3)]
    while not game.over:
        assert game.ply < 2000
        seat = game.pending[0] if game.pending else game.turn
        assert seat is not None
        action = bots[seat].choose(wire_view(game, seat))
        assert action in game.legal_actions(seat), (rules, mode, action)
        for event in game.apply(seat, action):
            assert type(event).__name__ not in ("Busted", "Corrected", "Forgot")  # no offence, ever
    assert game.winner is not None


def test_the_search_bot_chooses_the_same_whatever_the_hidden_cards_are() -> None:
    """Two games that differ only in what seat 0 cannot see (the other hands and the stock) look the same to it,
    and it plays the same in both: it reads nothing but its view."""
    game = Game(3, "guarded", Table.build(3, {"rules": "convention"}), seed=8)
    other = game.copy()
    hidden = other._hands[1] + other._hands[2] + other._stock
    hidden.reverse()
    other._hands[1], other._hands[2] = hidden[:7], hidden[7:14]
    other._stock = hidden[14:]
    assert other.hand(1) != game.hand(1)
    seat = game.turn
    assert seat is not None
    for g in (game, other):
        g._turn = 0
    assert view_of(game, 0) == view_of(other, 0)
    picks = {SearchBot(seed=4, budget=None).choose(wire_view(g, 0)) for g in (game, other)}
    assert len(picks) == 1


def test_the_memory_holds_only_cards_its_seat_saw() -> None:
    """Every card the memory places in the pile was a top card one of the seat's views showed, or its own play;
    the plays it read are the others'."""
    game = Game(3, "guarded", Table.build(3, {"rules": "tokens"}), seed=3)
    bots = [SearchBot(seed=s, samples=2, budget=None) for s in range(3)]
    shown: set[str] = set()
    while not game.over and game.ply < 300:
        seat = game.turn
        assert seat is not None
        view = wire_view(game, seat)
        action = bots[seat].choose(view)
        if seat == 0:
            if view.top is not None:
                shown.add(view.top)
            assert isinstance(action, Play)
            shown.add(action.card)
            assert set(bots[0].memory.pile) <= shown
            assert all(m.seat != 0 for m in bots[0].memory.seen)
        game.apply(seat, action)


def test_the_memory_reads_the_other_players_card_and_the_total_it_was_played_on_at_two_players() -> None:
    game = Game(2, "guarded", Table.build(2, {"rules": "convention"}), seed=12)
    memory = PlayMemory()
    bots = [SoundBot(), SoundBot()]
    while True:
        seat = game.turn
        assert seat is not None
        view = view_of(game, seat)
        action = bots[seat].choose(view)
        if seat == 0:
            memory.observe(view)
            memory.acted(view, action)
            if memory.seen:
                break
        game.apply(seat, action)
    _, theirs, _ = [entry for entry in game.log if entry[0] == 1][-1]
    _, _, mine = [entry for entry in game.log if entry[0] == 0][-1]
    last = memory.seen[-1]
    assert (last.seat, last.card) == (1, theirs.card)
    assert last.before == mine[0].total  # seat 1 played on the total seat 0 left
    assert last.drawn_since == 1


def test_a_low_card_played_on_a_low_total_says_no_higher_plain_card_was_held() -> None:
    """At 50 a sound player plays its highest plain card that fits: a 2 played says it held no 3-8, no court card
    and (a plain card first) none of the specials; a 9 making 99 at 95 says it held nothing else that fits."""
    table = Table.build(3, {"rules": "convention"})
    assert refused_ranks(table, Seen(1, "2H", None, 50, 1)) == {"3", "5", "6", "7", "8", "J", "Q"}
    assert refused_ranks(table, Seen(1, "9H", None, 95, 1)) == {"A", "2", "3", "4", "K"}


def test_seat_bots_fills_the_rest_with_the_last_bot_and_names_a_bad_one() -> None:
    assert seat_bots(["search", "sound"], 4) == ["search", "sound", "sound", "sound"]
    with pytest.raises(ValueError, match="'nosuch' is not a Ninety-Nine bot; choose from random, search, sound"):
        seat_bots(["nosuch"], 3)


def test_the_kind_offers_the_search_bot_and_thinks_it_in_the_bot_worker() -> None:
    assert {"random", "sound", "search"} <= set(NINETY_NINE.bots)
    assert "search" in NINETY_NINE.slow_bots and NINETY_NINE.bots["search"](seed=1).budget > 0


def test_the_arena_counts_every_game_and_rotates_the_seats() -> None:
    result = run_arena(["sound", "random"], players=4, games=40, seed=2, options={"rules": "glengariff"})
    assert result.games == 40 and sum(result.wins) == 40
    assert result.bots == ["sound", "random", "random", "random"]
    assert result.wins[0] > 10  # a fair share would be 10: sound play beats random play
    lo, hi = result.interval(0)
    assert lo < result.rate(0) < hi


def test_arena_command_plays_ninety_nine_and_prints_rates_with_intervals(capsys) -> None:
    assert main(["arena", "--game", "ninety-nine", "--rules", "three-card", "--players", "5",
                 "--bots", "sound,random", "--games", "10", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "10 games of Ninety-Nine, three-card rules, 5 players" in out
    assert out.count("95% interval") == 5 and "seat 0 sound" in out and "seat 4 random" in out


def test_arena_command_refuses_rules_the_table_does_not_allow(capsys) -> None:
    assert main(["arena", "--game", "ninety-nine", "--rules", "three-card", "--players", "2",
                 "--bots", "sound", "--games", "1"]) == 2
    assert "the Three-card rules (004) are for 3 to 6 players, not 2" in capsys.readouterr().err
    assert main(["arena", "--rules", "tokens", "--games", "1"]) == 2
    assert "--rules" in capsys.readouterr().err


def test_the_search_bot_beats_the_sound_bot_head_to_head_at_tokens() -> None:
    """A fixed-seed match (Tokens rules, 2 players, the seats alternating, each bot seeing its own view only; the
    first 40 games of docs/benchmarks.md's 200, where search won 72.5%): its whole 95% interval is above half.
    (The grid at 2-6 players and every rule set is bench/ninety_arena.py's, in docs/benchmarks.md.)"""
    result = run_arena(["search", "sound"], players=2, games=40, seed=1, options={"rules": "tokens"},
                       bot_options={"budget": None})
    assert result.games == 40
    assert result.interval(0)[0] > 0.5, result.wins


# -- every bot, every rule set and count; the fast playout; the seam's bot parts --------------------------------

HOUSE = st.lists(st.sampled_from([o for o in HOUSE_OPTIONS[1:] if o.name != "wrong_total"]).flatmap(
    lambda o: st.tuples(st.just(o.name), st.sampled_from(o.choices))), max_size=4).map(dict)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(sorted(RULE_SETS)), players=st.integers(2, 6), mode=st.sampled_from(["guarded", "penalty"]),
       seed=st.integers(0, 1 << 30), house=HOUSE, bot=st.sampled_from(["random", "sound", "search"]))
def test_every_bot_plays_only_proper_actions_at_every_rule_set_count_and_house_option(
        rules: str, players: int, mode: str, seed: int, house: dict[str, object], bot: str) -> None:
    """Each seat a bot of one kind (the search bot with few guesses), each from its own view as the wire gives it:
    every action it takes is one ``legal_actions`` offers (no offence, ever), to the end of the game."""
    try:
        table = Table.build(players, {"rules": rules, **house})
    except SettingsError:
        assume(False)
    game = Game(players, mode, table, seed=seed)
    options = {"samples": 2, "budget": None} if bot == "search" else {}
    bots = [NINETY_NINE.bots[bot](seed=seed + s, **options) for s in range(players)]
    while not game.over:
        assert game.ply < 5000
        seat = game.pending[0] if game.pending else game.turn
        assert seat is not None
        action = bots[seat].choose(wire_view(game, seat))
        assert action in game.legal_actions(seat), (action, game.legal_actions(seat))
        for event in game.apply(seat, action):
            assert type(event).__name__ not in ("Busted", "Corrected", "Forgot")


@pytest.mark.parametrize("options", [{"rules": "glengariff"}, {"rules": "convention"}, {"rules": "tokens"},
                                     {"rules": "three-card"}, {"rules": "glengariff", "tokens": 2},
                                     {"rules": "tokens", "round_end": "last-left", "below_zero": True}])
def test_the_playout_round_plays_in_step_with_the_game(options: dict[str, object]) -> None:
    """``playout.Round`` (the search's lean copy of a round) and ``Game`` fed the same sound plays agree on every
    total, turn, direction, queen owed, hand, stock, pile, token and seat out, and on who failed, until the round
    is over or the game won; and the sound play ``Round`` picks is the sound bot's."""
    steps = 0
    for players, seed in itertools.product(range(2, 7), range(6)):
        try:
            table = Table.build(players, options)
        except SettingsError:
            continue
        game = Game(players, "guarded", table, seed=seed)
        fast = Round.of(game)
        while True:
            seat = game.turn
            assert seat is not None
            plays = [a for a in game.legal_actions(seat) if isinstance(a, Play)]
            action = sound_play(plays, game.total, table)
            move = fast.sound(seat)
            assert move == (RANK_NO[action.card], action.value)
            events = game.apply(seat, action)
            fast.play(seat, *move)
            steps += 1
            over = [i for i, e in enumerate(events) if isinstance(e, (RoundOver, Won))]
            failed = [e.seat for e in events[:over[0] if over else None] if isinstance(e, (LostToken, SatOut, Out))]
            assert list(dict.fromkeys(failed)) == fast.failed
            fast.failed.clear()
            assert fast.ended == bool(over)
            if over:
                break
            assert (fast.total, fast.direction, fast.turn, fast.chain, fast.owed) == (
                game.total, game.direction, game.turn, game.chain, game.owed)
            assert fast.hands == [[RANK_NO[c] for c in game.hand(s)] for s in range(players)]
            assert fast.stock == [RANK_NO[c] for c in game._stock] and fast.pile == [RANK_NO[c] for c in game.pile]
            assert (fast.tokens, fast.out, fast.sat_out) == (game.tokens, game.out, list(game.sat_out))
    assert steps > 300


def test_every_bot_draws_first_when_it_owes_a_draw_and_refuses_a_view_with_nothing_to_do() -> None:
    """The one prologue every bot's ``choose`` starts with (``bots.plays_or_draw``)."""
    game = Game(2, "penalty", Table.build(2, {"rules": "convention"}), seed=4)
    seat = game.turn
    assert seat is not None
    first = game.legal_actions(seat)[0]
    assert isinstance(first, Play)
    game.apply(seat, first._replace(draw=False))  # played without drawing: the draw is still owed
    owing = view_of(game, seat)
    assert plays_or_draw(owing) == Draw()
    idle = view_of(game, None)._replace(seat=1 - seat, hand=game.hand(1 - seat), pending=(), turn=seat)
    for name, factory in NINETY_NINE.bots.items():
        assert factory(seed=1).choose(owing) == Draw(), name
        with pytest.raises(ValueError, match="nothing to do"):
            factory(seed=1).choose(idle)


def test_every_kinds_slow_bots_are_thinking_bots_with_a_budget() -> None:
    """A slow bot thinks in the server's bot worker, which sets its ``budget`` each move (kinds.ThinkingBot)."""
    for name in kinds.names():
        kind = kinds.get(name)
        for bot in kind.slow_bots:
            made = kind.bots[bot](seed=1)
            assert isinstance(made, kinds.ThinkingBot), (name, bot)
            assert made.budget is None or made.budget > 0
        for bot in set(kind.bots) - kind.slow_bots:
            assert isinstance(kind.bots[bot](seed=1), kinds.Bot)


def test_the_search_bot_thinks_within_its_budget_and_takes_its_samples_without_one(monkeypatch) -> None:
    """Without a clock the bot deals exactly ``samples`` guesses a choice; with a budget it stops dealing once the
    clock (here a fake one, a second a reading) passes it, after ``MIN_SAMPLES`` guesses at least."""
    game = Game(2, "guarded", Table.build(2, {"rules": "convention"}), seed=12)
    while True:  # a position with a real choice
        seat = game.turn
        assert seat is not None
        plays = [a for a in game.legal_actions(seat) if isinstance(a, Play)]
        table = game.table
        if len({(table.effect(rank_of(a.card)), a.value) for a in plays}) > 2:
            break
        game.apply(seat, sound_play(plays, game.total, table))
    dealt: list[int] = []

    class Counting(SearchBot):
        def _world(self, view: NinetyView, base: Game) -> Game:
            dealt.append(1)
            return super()._world(view, base)

    Counting(seed=1, samples=7, budget=None).choose(view_of(game, seat))
    assert len(dealt) == 7
    dealt.clear()
    clock = iter(range(1000))
    monkeypatch.setattr(search.time, "perf_counter", lambda: float(next(clock)))
    Counting(seed=1, samples=500, budget=2.5).choose(view_of(game, seat))
    assert MIN_SAMPLES <= len(dealt) <= 4


def test_the_bots_strengths_and_ratings_are_per_rule_set_where_they_differ() -> None:
    """Ninety-Nine rates its bots per rule set (``NinetyNine.bot_strengths_for``); a kind without per-table
    figures, and a leaderboard of the whole game, get the kind's one figure (``kinds.bot_strengths_for``)."""
    per_rules = {rules: kinds.bot_strengths_for(NINETY_NINE, NINETY_NINE.check_settings(3, "guarded", {"rules": rules}))
                 for rules in RULE_SETS}
    for rules, strengths in per_rules.items():
        assert strengths == NINETY_NINE.strengths_by_rules[rules]
        assert strengths["sound"] == 0.5 and set(strengths) == set(NINETY_NINE.bots)
        assert strengths["random"] < 0.5
    assert len({s["search"] for s in per_rules.values()}) > 1 and max(s["search"] for s in per_rules.values()) > 0.5
    assert kinds.bot_strengths_for(NINETY_NINE) == NINETY_NINE.bot_strengths
    peg = kinds.get("peg-board")
    assert kinds.bot_strengths_for(peg, peg.check_settings(2, "guarded")) == peg.bot_strengths
    convention = NINETY_NINE.check_settings(2, "guarded", {"rules": "convention"})
    tokens = NINETY_NINE.check_settings(2, "guarded", {"rules": "tokens"})
    assert bot_ratings(NINETY_NINE, convention)["sound"].shown == bot_ratings(NINETY_NINE)["sound"].shown == 1500
    assert bot_ratings(NINETY_NINE, convention)["search"] != bot_ratings(NINETY_NINE, tokens)["search"]


def test_the_search_bot_takes_the_win_at_once_that_sound_play_passes_over() -> None:
    """Every card is plain here but the one joker, which makes 99 and is in seat 0's hand: at 90, the joker puts
    the other player out at once whatever it holds (nothing else fits at 99), while the sound play, the 5 (plain
    cards first), lets it play on. With a horizon of two actions only a win at once counts, and the search takes it."""
    options: dict[str, object] = {"rules": "convention", "hand_size": 3, "jokers": 1,
                                  **{f"rank_{rank}": "face" for rank in ("4", "9", "10", "K")}}
    game = Game(2, "guarded", Table.build(2, options), seed=5, dealer=1)
    hidden = [c for c in game._stock + game._hands[0] + game._hands[1] if c not in ("joker", "2S", "5S")]
    game._hands = [["joker", "2S", "5S"], hidden[:3]]
    game._stock, game._pile, game._total, game._turn = hidden[4:], [hidden[3]], 90, 0
    view = wire_view(game, 0)
    plays = [a for a in view.legal_actions() if isinstance(a, Play)]
    assert sound_play(plays, 90, game.table).card == "5S"
    choice = SearchBot(seed=2, samples=12, horizon=2, budget=None).choose(view)
    assert choice.card == "joker"
    events = game.apply(0, choice)
    assert any(isinstance(e, Won) and e.seat == 0 for e in events)


def test_the_arena_runs_the_search_bot_without_a_clock_at_its_arena_guesses_unless_told() -> None:
    assert search_options(None) == {"budget": None, "samples": ARENA_SAMPLES}
    assert search_options({"budget": None, "samples": 5}) == {"budget": None, "samples": 5}
    assert search_options({"budget": 0.5}) == {"budget": 0.5}


def test_the_searching_seat_keeps_a_ten_that_may_subtract_in_its_own_playouts() -> None:
    """At Three-card a ten adds or subtracts 10: the sound order plays it up as +10 at 20 (the plain card adding
    most), while the searching seat's own order (``Round.keeper``) plays the 5 and keeps the ten for a high total;
    the other seats still play the sound order."""
    game = Game(3, "guarded", Table.build(3, {"rules": "three-card"}), seed=1)
    game._hands[0], game._total, game._turn = ["10H", "5S", "2C"], 20, 0
    fast = Round.of(game)
    ten, five = RANK_NO["10H"], RANK_NO["5S"]
    assert fast.sound(0) == (ten, 10)
    fast.keeper = 0
    assert fast.sound(0) == (five, None)
    fast.hands[1] = [ten, five]
    assert fast.sound(1) == (ten, 10)
    fast.hands[0], fast.total = [ten, five], 95
    assert fast.sound(0) == (ten, -10)  # nothing else fits: the kept ten comes down


def test_a_bot_seated_at_a_table_shows_its_rating_at_that_tables_rule_set() -> None:
    """The server seats a bot with its fixed rating at the table's settings (server/seating.py): the search bot
    is rated higher at Tokens, where it beats sound play most, than at Convention, where it is sound play's equal."""
    from board99.server.tables import Lobby

    shown = {}
    for rules in ("convention", "tokens"):
        settings = NINETY_NINE.check_settings(2, "guarded", {"rules": rules})
        table = Lobby().create("t", 2, "guarded", None, None, kind=NINETY_NINE, settings=settings)
        table.add_bot(1, "search")
        shown[rules] = table.seat(1).rating
        assert shown[rules] == bot_ratings(NINETY_NINE, settings)["search"].shown
    assert shown["convention"] == 1500 < shown["tokens"]
