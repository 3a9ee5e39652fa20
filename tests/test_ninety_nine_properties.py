"""Ninety-Nine property tests: random play (proper and not) always ends, the cards are all accounted for, views and
events never leak a hidden card, actions, views and records round-trip, and hostile data is refused by name."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from board99.kinds import SettingsError
from board99.ninety_nine.actions import Draw, Play, from_data, parse_action, to_data
from board99.ninety_nine.cards import CARDS, deck
from board99.ninety_nine.errors import Refused
from board99.ninety_nine.events import seen_by
from board99.ninety_nine.game import Game
from board99.ninety_nine.record import NinetyRecord
from board99.ninety_nine.rules import HOUSE_OPTIONS, RULE_SETS, Table
from board99.ninety_nine.view import NinetyView, view_of
from board99.record import RecordError

#: No game in these tests takes more actions than this: of 1,520 random games (every rule set, player count and
#: mode, a fifth of the penalty draws forgotten) the longest took 294.
MOST_ACTIONS = 5000
ANY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

games = st.tuples(st.sampled_from(sorted(RULE_SETS)), st.integers(2, 6), st.sampled_from(["guarded", "penalty"]),
                  st.integers(0, 1 << 30))


house = st.lists(st.sampled_from(HOUSE_OPTIONS[1:]).flatmap(
    lambda o: st.tuples(st.just(o.name), st.sampled_from(o.choices))), max_size=6).map(dict)


def new_game(rules: str, players: int, mode: str, seed: int, options: dict[str, Any] | None = None) -> Game:
    """A new game; Three-card needs three players, so two become three there."""
    players = max(players, RULE_SETS[rules].players[0])
    return Game(players, mode, Table.build(players, {"rules": rules, **(options or {})}), seed=seed)


def some_action(data: st.DataObject, game: Game) -> tuple[int, Any]:
    """Mostly a proper action; at a penalty table often a forgotten draw, a wrong total or a card over 99;
    sometimes anything at all from any seat."""
    kind = data.draw(st.sampled_from(["proper"] * 6 + ["slip", "wild"]))
    seats = game.in_game()
    if kind == "wild":
        seat = data.draw(st.integers(0, game.players - 1))
        card = data.draw(st.sampled_from(sorted(CARDS)))
        return seat, data.draw(st.sampled_from([Draw(), Play(card), Play(card, 11, 50), Play(card, say=0)]))
    options = [(s, a) for s in seats for a in game.legal_actions(s)]
    seat, action = data.draw(st.sampled_from(options))
    if kind == "slip" and game.mode == "penalty" and type(action) is Play:
        slip = data.draw(st.sampled_from(["forget", "wrong", "over"]))
        if slip == "forget":
            return seat, action._replace(draw=False)
        if slip == "wrong":
            return seat, action._replace(say=(action.say or 0) + 1)
        over = [Play(c, v, 999) for c in game.hand(seat) for v in (game.effect(c).values or (None,))
                if not game.effect(c).to99 and game.total + (v or 0) > 99 and (v is None or game.effect(c).choice)]
        if over:
            return seat, data.draw(st.sampled_from(over))
    return seat, action


def accounted(game: Game) -> None:
    """Every card of the table's deck is in the stock, the pile, a hand or out of play: each exactly once."""
    held = [c for s in range(game.players) for c in game.hand(s)]
    assert Counter(game._stock + list(game.pile) + held + list(game.gone)) == Counter(
        deck(game.table.decks, game.table.jokers))
    assert game.fits(game.total) or game.over
    assert sum(game.out) == len(game.places)


def strings(value: object) -> list[str]:
    """Every string inside plain data."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings(v)]
    return []


def no_leak(game: Game, events: tuple[Any, ...], actor: int) -> None:
    """No seat's view or event data names a card it may not see: its own hand, the pile, the cards played."""
    public = set(game.pile) | {getattr(e, "card", None) for e in events if e.kind in ("played", "busted",
                                                                                     "turned-up")}
    for seat in [None, *range(game.players)]:
        own = set(game.hand(seat)) if seat is not None else set()
        seen = {s for s in strings(view_of(game, seat).to_data()) if s in CARDS}
        assert seen <= own | public, (seat, seen - own - public)
        for event in events:
            for card in (s for s in strings(seen_by(event, seat)) if s in CARDS):
                assert card in public or (event.kind == "drew" and event.seat == seat), (seat, event)


@pytest.mark.slow
@given(games, st.data())
@ANY
def test_random_play_always_ends_with_every_card_accounted_for(setup: tuple[str, int, str, int],
                                                               data: st.DataObject) -> None:
    game = new_game(*setup)
    accounted(game)
    for _ in range(MOST_ACTIONS):
        if game.over:
            break
        seat, action = some_action(data, game)
        try:
            events = game.apply(seat, action)
        except Refused:
            continue
        accounted(game)
        no_leak(game, events, seat)
    assert game.over
    assert sorted(game.places + [game.winner]) == list(range(game.players))


@pytest.mark.slow
@given(games, st.data())
@ANY
def test_a_refusal_changes_nothing(setup: tuple[str, int, str, int], data: st.DataObject) -> None:
    game = new_game(*setup)
    for _ in range(60):
        if game.over:
            break
        seat, action = some_action(data, game)
        before = (view_of(game, None), [game.hand(s) for s in range(game.players)], list(game._stock), game.ply)
        try:
            game.apply(seat, action)
        except Refused as exc:
            assert exc.message and exc.code
            assert before == (view_of(game, None), [game.hand(s) for s in range(game.players)],
                              list(game._stock), game.ply)


@pytest.mark.slow
@given(games, house, st.data())
@ANY
def test_records_round_trip_and_replay_line_by_line(setup: tuple[str, int, str, int], options: dict[str, Any],
                                                    data: st.DataObject) -> None:
    try:
        game = new_game(*setup, options=options)
    except SettingsError:
        assume(False)
        raise
    for _ in range(data.draw(st.integers(0, 150))):
        if game.over:
            break
        seat, action = some_action(data, game)
        try:
            game.apply(seat, action)
        except Refused:
            pass
    text = NinetyRecord.of(game).dumps()
    assert text.splitlines()[0] == "# NINETY-NINE record, board99 format 1"
    record = NinetyRecord.loads(text)
    assert record.dumps() == text
    replayed = record.replay()
    for seat in [None, *range(game.players)]:
        assert view_of(replayed, seat) == view_of(game, seat)
    hidden = NinetyRecord.of(game, reveal=False).dumps()
    assert "seed: hidden" in hidden and " draws " not in hidden.replace("draws a card", "")
    with pytest.raises(RecordError, match="seed is not revealed"):
        NinetyRecord.loads(hidden).replay()


def test_a_record_that_breaks_the_rules_is_refused_at_its_line() -> None:
    game = new_game("convention", 3, "guarded", 7)
    seat = game.turn
    assert seat is not None
    game.apply(seat, game.legal_actions(seat)[0])
    lines = NinetyRecord.of(game).dumps().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("S") and " play " in line)
    changed = lines[:at] + [lines[at].replace("play", "play", 1) + " says 1000"] + lines[at + 1:]
    with pytest.raises(RecordError, match=f"line {at + 1}: .*not an action"):
        NinetyRecord.loads("\n".join(changed) + "\n").replay()
    changed = lines[:at + 1] + ["  S0 plays KS: total 99"] + lines[at + 2:]
    with pytest.raises(RecordError, match=f"line {at + 2}: .*the rules give"):
        NinetyRecord.loads("\n".join(changed) + "\n").replay()


@settings(max_examples=40)
@given(st.sampled_from(sorted(CARDS)), st.one_of(st.none(), st.integers(-999, 999)),
       st.one_of(st.none(), st.integers(-999, 999)), st.booleans())
def test_actions_round_trip_as_data_and_as_text(card: str, value: int | None, say: int | None, draw: bool) -> None:
    action = Play(card, value, say, draw)
    assert from_data(to_data(action)) == action
    assert parse_action(action.text()) == action
    assert from_data(to_data(Draw())) == Draw() == parse_action("draw")


@settings(max_examples=40)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                 max_size=4), max_leaves=12))
def test_hostile_action_data_is_refused_by_name(data: object) -> None:
    try:
        from_data(data)
    except ValueError as exc:
        assert str(exc).startswith("action")


@given(games, st.data())
@settings(max_examples=30, deadline=None)
def test_views_round_trip_and_hostile_views_are_refused_by_name(setup: tuple[str, int, str, int],
                                                                data: st.DataObject) -> None:
    game = new_game(*setup)
    seat = data.draw(st.one_of(st.none(), st.integers(0, game.players - 1)))
    view = view_of(game, seat)
    plain = view.to_data()
    assert NinetyView.from_data(plain) == view
    field = data.draw(st.sampled_from(sorted(plain)))
    bad = dict(plain)
    bad[field] = data.draw(st.sampled_from([None, -1, "x", [1] * 200, True, {"a": 1}, 1 << 70]))
    try:
        NinetyView.from_data(bad)
    except ValueError as exc:
        assert str(exc).startswith("view"), exc


def test_a_record_keeps_house_options_whose_values_look_like_numbers() -> None:
    game = new_game("tokens", 3, "guarded", 5, {"rank_10": "-10", "rank_K": "+10", "tokens": 2, "below_zero": True})
    text = NinetyRecord.of(game).dumps()
    assert "options: rules=tokens, tokens=2, below_zero=True, rank_10=-10, rank_K=+10" in text
    assert NinetyRecord.loads(text).replay().table == game.table
