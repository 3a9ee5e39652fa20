"""Property-based tests: random sequences of legal and illegal actions, every mode and player count."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from board99 import HAND_LIMIT, Discard, Draw, Game, Play, Refused
from board99.record import Record
from tests.scenario import reshuffled_unseen

STEPS = 250


def state(game: Game) -> tuple:
    """Everything about a game, hidden parts included, for before/after comparisons."""
    return (game.view(None), [game.hand(s) for s in range(game.players)], list(game._deck), game.deal)


def check_invariants(game: Game) -> None:
    """What must hold after every step."""
    hands = [c for s in range(game.players) for c in game.hand(s)]
    discards = [c for s in range(game.players) for c in game.discards(s)]
    # All 100 cards accounted for: deck, hands and discard piles, each card once.
    assert sorted(hands + discards + list(game._deck)) == list(range(100))
    assert all(len(game.hand(s)) <= HAND_LIMIT for s in range(game.players))
    # Pegs on the board match the sides' bitboards one for one (no square pegged twice).
    board = game.view(None).board
    for side in range(game.sides):
        assert game.pegs(side).bit_count() == board.count(side)
    assert sum(board.count(side) for side in range(game.sides)) <= len(discards)


def random_action(data, game: Game) -> tuple[int, object]:
    """Mostly the player on turn acting legally; often an offence or a plainly bad action."""
    kind = data.draw(st.sampled_from(["legal"] * 5 + ["any-seat", "wild"]))
    seat = game.turn
    if kind == "legal" and seat is not None:
        actions = game.legal_actions(seat)
        return seat, actions[data.draw(st.integers(0, len(actions) - 1))]
    seat = data.draw(st.integers(0, game.players - 1)) if kind == "any-seat" else data.draw(st.integers(-1, 7))
    hand = game.hand(seat) if 0 <= seat < game.players else ()
    card = (
        data.draw(st.sampled_from(hand)) if hand and kind == "any-seat" else data.draw(st.integers(-2, 101))
    )
    square = data.draw(st.integers(-2, 101))
    return seat, data.draw(st.sampled_from([Play(card, square), Draw(), Discard(card)]))


def play_random(game: Game, data, steps: int) -> Game:
    """Up to ``steps`` random actions, legal or not (refusals change nothing), or until a win."""
    for _ in range(steps):
        if game.winner is not None:
            break
        seat, action = random_action(data, game)
        try:
            game.apply(seat, action)
        except Refused:
            pass
    return game


game_args = st.tuples(st.sampled_from([2, 3, 4, 6]), st.sampled_from(["guarded", "penalty"]), st.integers(0, 2**32))


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(args=game_args, data=st.data())
def test_random_actions_keep_every_invariant(args, data):
    players, mode, seed = args
    game = Game(players, mode, seed=seed)
    for _ in range(STEPS):
        if game.winner is not None:
            break
        seat, action = random_action(data, game)
        before = state(game)
        try:
            events = game.apply(seat, action)
        except Refused as exc:
            assert exc.message and exc.code
            assert state(game) == before, "a refusal changed the game"
            continue
        assert events
        check_invariants(game)
    check_invariants(game)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(args=game_args, data=st.data(), salt=st.integers(0, 1000))
def test_no_view_holds_another_seats_hand_or_the_deck_order(args, data, salt):
    players, mode, seed = args
    game = play_random(Game(players, mode, seed=seed), data, data.draw(st.integers(0, 120)))
    # A view that does not change when everything it must not show is dealt anew shows none of it.
    for seat in [None, *range(players)]:
        assert reshuffled_unseen(game, seat, salt).view(seat) == game.view(seat)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(args=game_args, data=st.data())
def test_replaying_the_record_gives_the_same_state(args, data):
    players, mode, seed = args
    game = play_random(Game(players, mode, seed=seed), data, STEPS)
    text = Record.of(game).dumps()
    record = Record.loads(text)
    assert record.dumps() == text
    assert state(record.replay()) == state(game)
