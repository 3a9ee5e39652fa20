"""SeatView: typed, immutable, round-trips as plain data, and answers "what would this be?" as the engine does."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from board99 import Discard, Draw, Game, Play, Refused, SeatView
from board99.events import Penalty
from board99.record import Record, RecordError
from tests.test_properties import game_args, play_random, random_action


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(args=game_args, data=st.data())
def test_a_views_ruling_is_what_the_engine_then_does(args, data):
    """Every action a seat might try: the view's ruling names the engine's refusal, offence or a proper move."""
    players, mode, seed = args
    game = play_random(Game(players, mode, seed=seed), data, data.draw(st.integers(0, 150)))
    for _ in range(20):
        seat, action = random_action(data, game)
        if not 0 <= seat < players:
            continue
        ruling = game.view(seat).ruling(action)
        trial = game.copy()
        try:
            events = trial.apply(seat, action)
        except Refused as exc:
            assert ruling.refused == exc.code and ruling.message == exc.message
            if mode == "penalty":
                assert ruling.offence is None  # penalty mode refuses only what cannot happen
            continue
        assert ruling.refused is None
        offences = [e.offence for e in events if type(e) is Penalty]
        assert [ruling.offence] == (offences or [None])
        assert ruling.legal == (not offences) and ruling.penalty == (events[0].rule if offences else None)
        assert (action in game.view(seat).legal_actions()) == ruling.legal


def test_a_spectator_and_a_waiting_table_may_not_act():
    assert Game(2, seed=1).view(None).ruling(Draw()).refused == "not-seated"
    waiting = SeatView.before_deal(4, "penalty", 2)
    assert (waiting.deal, waiting.turn, waiting.cut, waiting.hand, waiting.side) == (0, None, None, (), 0)
    assert waiting.ruling(Draw()).refused == "not-started" and waiting.legal_actions() == []
    assert SeatView.before_deal(2, "guarded").hand is None


def test_guarded_mode_names_the_offence_it_refuses():
    game = Game(2, mode="guarded", seed=1, first=0)
    ruling = game.view(1).ruling(Draw())
    assert (ruling.refused, ruling.offence, ruling.penalty) == ("out-of-turn", "draw-out-of-turn", None)
    assert ruling.message == "it is S0's turn, not S1's"


def test_the_view_round_trips_as_plain_data_and_rejects_what_is_not_a_view():
    game = Game(4, mode="penalty", seed=9, first=0)
    for _ in range(2):
        game.apply(game.turn, Draw())
    for seat in (None, 0, 3):
        view = game.view(seat)
        assert SeatView.from_data(view.to_data()) == view
        data = view.to_data()
        as_lists = {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}  # as msgpack gives it
        assert SeatView.from_data(as_lists) == view
    good = game.view(0).to_data()
    for field, bad in [("board", [None] * 100), ("board", bytes([255]) * 99), ("hand", [1, 2, 3, 4, 5, 6]), ("turn", 4), ("players", 5),
                       ("mode", "strict"), ("deck_size", True), ("side", 1), ("discards", [[1]] * 3),
                       # whole lists are checked at once: each kind of bad item is still caught
                       ("board", bytes([2]) + bytes([255]) * 99), ("hand", [100]),
                       ("hand", [None]), ("hand", [1.0]), ("skips", [0, 0, -1, 0]),
                       ("discards", [[], [], [], [5, True]]), ("shown", ["7"])]:
        with pytest.raises(ValueError, match=f"view.{field}"):
            SeatView.from_data({**good, field: bad})
    with pytest.raises(ValueError, match="view.shown: missing"):
        SeatView.from_data({k: v for k, v in good.items() if k != "shown"})


def test_the_board_travels_as_100_bytes_and_comes_back_as_the_same_tuple():
    """docs/protocol.md, View: one byte a square in square order, the side's number or 255 for a free square."""
    import msgpack

    game = Game(3, mode="penalty", seed=5, first=0)
    while sum(side is not None for side in game.view().board) < 3:  # pegs of more than one side
        view = game.view(game.turn)
        game.apply(game.turn, next((a for a in view.legal_actions() if isinstance(a, Play)), Draw()))
    view = game.view(1)
    data = msgpack.unpackb(msgpack.packb(view.to_data(), use_bin_type=True), raw=False)
    assert data["board"] == bytes(255 if side is None else side for side in view.board)
    again = SeatView.from_data(data)
    assert again == view and again.board == view.board and type(again.board) is not bytes
    assert all(type(side) is int for side in again.board if side is not None)
    # A view made by hand (a plain tuple for its board) goes as the same bytes as the engine's.
    plain = view._replace(board=tuple(view.board))
    assert plain.to_data()["board"] == data["board"]
    assert SeatView.before_deal(2, "guarded", 0).to_data()["board"] == bytes([255]) * 100


@pytest.mark.parametrize("board, words", [
    (bytes([255]) * 99, "view.board: expected 100 bytes"),
    (bytes([255]) * 101, "view.board: expected 100 bytes"),
    ([None] * 100, "view.board: expected 100 bytes .*got list"),
    (bytes([255]) * 40 + bytes([3]) + bytes([255]) * 59, "view.board: square 40 holds 3, which is neither a side 0-2"),
    (bytes([254]) + bytes([255]) * 99, "view.board: square 0 holds 254"),
])
def test_a_board_that_is_not_one_is_refused_with_words_naming_the_field(board, words):
    good = Game(3, mode="penalty", seed=5, first=0).view(0).to_data()
    with pytest.raises(ValueError, match=words):
        SeatView.from_data({**good, "board": board})


def test_a_view_cannot_be_changed_in_place():
    view = Game(2, seed=1).view(0)
    with pytest.raises(AttributeError):
        view.turn = 1  # type: ignore[misc]
    assert isinstance(view.board, tuple) and isinstance(view.discards[0], tuple)


def test_apply_returns_the_events_it_logs_and_no_caller_can_change_the_record():
    game = Game(2, seed=5, first=0)
    events = game.apply(0, Draw())
    assert events is game.log[-1][2] and isinstance(events, tuple)
    with pytest.raises(AttributeError):
        events.append(events[0])  # type: ignore[attr-defined]
    before = Record.of(game).dumps()
    list(events).clear()
    assert Record.of(game).dumps() == before


def test_a_hidden_record_hides_a_set_deck_order_until_the_game_is_over():
    game = Game(2, seed=3, deck=list(range(99, -1, -1)), first=0)
    game.apply(0, Draw())
    hidden = Record.of(game, reveal=False).dumps()
    assert "deck: hidden" in hidden and "99 98 97" not in hidden and "seed: hidden" in hidden
    assert "S0 drew a card" in hidden
    loaded = Record.loads(hidden)
    assert loaded.deck_hidden and loaded.dumps() == hidden
    with pytest.raises(RecordError, match="not revealed"):
        loaded.replay()
    assert "deck: 99 98 97" in Record.of(game, reveal=True).dumps()


def test_the_views_questions_read_the_rules():
    game = Game(2, mode="penalty", seed=2, first=0, deck=[95, 3, 96, 4, *range(5, 95), 0, 1, 2, 97, 98, 99])
    for _ in range(4):
        game.apply(game.turn, Draw())
    view = game.view(0)
    assert view.hand == (95, 96) and view.my_turn and view.can_draw
    assert view.free_squares(96) == (96, 97, 98, 99) and not view.dead(96)
    assert view.ruling(Play(96, 40)).offence == "illegal-play"
    assert view.ruling(Play(3, 40)).refused == "not-in-hand"
    assert view.ruling(Discard(95)).legal
    assert game.view(1).ruling(Discard(3)).offence == "discard-out-of-turn"
    assert view.partner(0) is None and Game(6, seed=1).view(0).partner(0) == 3


def test_a_four_with_its_fifth_square_free_is_a_threat_to_the_other_sides():
    # The rulebook's example: 72, 58, 20 and 14 held, only square 4 blocks.
    from tests.scenario import position

    game = position(players=2, pegs={1: (72, 58, 20, 14)}, hands={0: (3, 50)})
    view = game.view(0)
    assert view.threats() == {1: (4,)}
    assert view.threats_against() == (4,) and game.view(1).threats_against() == ()
