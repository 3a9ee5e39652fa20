"""The act path's shortcuts (docs/benchmarks.md, seventh session) give exactly what the long way gives.

The server builds a view's data straight from the game (``Game.view_data``), an event's data in one
call (``events.seen_by``), and the engine judges an action it has just checked only once: each is
compared here with the way it replaces, on every seat of many positions of random games in both modes.
"""

from __future__ import annotations

import random

import msgpack
import pytest

from board99 import Discard, Draw, Game, Play, Refused, kinds
from board99 import game as game_module
from board99.events import seen_by, shown_to, to_data
from board99.peg_kind import PEG_BOARD


def _positions(players: int, mode: str, seed: int):
    """Every position of one game played by random actions (offences too in penalty mode), with its events."""
    rng = random.Random(seed)
    game = Game(players, mode, seed=seed)
    yield game, game.opening
    for _ in range(400):
        if game.over:
            return
        seat = game.turn if rng.random() < 0.8 or mode == "guarded" else rng.randrange(players)
        assert seat is not None
        hand = game.hand(seat)
        choices = [Draw()] + [Discard(c) for c in hand] + [Play(c, rng.randrange(100)) for c in hand]
        action = rng.choice(choices)
        try:
            events = game.apply(seat, action)
        except Refused:
            continue
        yield game, events


CASES = [(players, mode, seed) for players in (2, 3, 4, 6) for mode in ("guarded", "penalty") for seed in (1, 2)]


@pytest.mark.parametrize(("players", "mode", "seed"), CASES)
def test_a_views_data_straight_from_the_game_is_the_views_own(players, mode, seed) -> None:
    """``Game.view_data(seat)`` is ``view(seat).to_data()``: the same map, the same types, the same bytes."""
    for game, _ in _positions(players, mode, seed):
        for seat in [None, *range(players)]:
            if seat is not None and seat % 3 == 1:
                game.view(seat)  # sometimes the board's view is made first (the bot's move), sometimes not
            direct, long_way = game.view_data(seat), game.view(seat).to_data()
            assert direct == long_way
            assert list(direct) == list(long_way)
            assert [type(v) for v in direct.values()] == [type(v) for v in long_way.values()]
            assert msgpack.packb(direct, use_bin_type=True) == msgpack.packb(long_way, use_bin_type=True)
            assert PEG_BOARD.view_data(game, PEG_BOARD.check_settings(players, mode), seat) == long_way


def test_a_views_data_before_the_deal_and_for_a_kind_without_the_shortcut() -> None:
    """A waiting table's view (no game), and ``kinds.view_data`` for a kind that has no ``view_data`` of its own."""
    settings = PEG_BOARD.check_settings(4, "penalty")
    for seat in (None, 0, 3):
        assert kinds.view_data(PEG_BOARD, None, settings, seat) == PEG_BOARD.view_to_data(
            PEG_BOARD.view(None, settings, seat))
    ninety = kinds.get("ninety-nine")
    assert getattr(ninety, "view_data", None) is None
    settings = ninety.check_settings(3, ninety.modes[0])
    game = ninety.new_game(settings, seed=5)
    for seat in (None, 0, 2):
        assert kinds.view_data(ninety, game, settings, seat) == ninety.view_to_data(ninety.view(game, settings, seat))


@pytest.mark.parametrize(("players", "mode", "seed"), CASES)
def test_an_events_data_in_one_call_is_what_shown_to_then_to_data_gives(players, mode, seed) -> None:
    """``seen_by`` is ``to_data(shown_to(event, seat))`` for every event and every seat, spectators too."""
    kinds_seen = set()
    for _, events in _positions(players, mode, seed):
        for event in events:
            kinds_seen.add(event.kind)
            for seat in [None, *range(players)]:
                quick, long_way = seen_by(event, seat), to_data(shown_to(event, seat))
                assert quick == long_way and list(quick) == list(long_way)
                assert [type(v) for v in quick.values()] == [type(v) for v in long_way.values()]
    assert {"dealt", "drew", "played"} <= kinds_seen
    if mode == "penalty":
        assert "penalty" in kinds_seen


def test_the_engine_judges_an_action_it_has_just_checked_once(monkeypatch) -> None:
    """``check`` then ``apply`` of the same action on the same position classifies it once, not twice."""
    judged = []
    classify = game_module.classify

    def counting(*args):
        judged.append(args[-1])
        return classify(*args)

    monkeypatch.setattr(game_module, "classify", counting)
    game = Game(2, "penalty", seed=3, first=0)
    action = Draw()
    assert game.check(0, action) is None
    game.apply(0, action)
    assert judged == [action]
    # Another action object (equal or not), another seat or a position moved on: judged afresh.
    judged.clear()
    game.check(1, Draw())
    game.apply(1, Draw())
    assert len(judged) == 2
    judged.clear()
    first = Draw()
    game.check(0, first)
    game.apply(1, Discard(game.hand(1)[0])) if game.turn == 1 else game.apply(0, Draw())
    game.apply(0, first)
    assert len(judged) == 3


def test_an_offence_found_by_check_is_the_one_apply_carries_out() -> None:
    """Penalty mode: the offence ``check`` names is the penalty ``apply`` then makes, as before the shortcut."""
    game = Game(2, "penalty", seed=3, first=0)
    action = Draw()
    assert game.check(1, action) == "draw-out-of-turn"
    events = game.apply(1, action)
    assert [e.kind for e in events] == ["penalty"] and events[0].offence == "draw-out-of-turn"
    assert game.skips(1) == 1
