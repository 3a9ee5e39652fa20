"""Penalty practice a person can do (issue 19): warnings that hold while their offence does, a game picked up again.

Real engine views, a fake clock, no window (the window test with real X input is
tests/test_gui_penalty_practice.py).
"""

from __future__ import annotations

from board99 import Draw, Game
from board99.client.gui import wording
from board99.client.gui.lobby_cards import setup_words
from board99.client.gui.messages import Failed, Replied, Resumed, StateChanged
from board99.client.gui.table_intents import Confirm, OnSquare, Pick, Send
from board99.client.gui.table_state import RESEND_MAX, TableState
from tests.gui_harness import HandClock, table_info


def playing(players: int = 4, **fields) -> object:
    names = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
    seats = [{"occupant": "human", "name": n, "connected": True} for n in names[:players]]
    return table_info(seats, players=players, state="playing", mode="penalty", **fields)


def at_bo_s_turn(players: int = 4, hand: tuple[int, ...] = (40, 50)) -> tuple[TableState, object]:
    """Seat 0's state with Bo (seat 1) to move, ``hand`` held."""
    game = Game(players, "penalty", seed=4, first=0)
    view = game.view(0)._replace(turn=1, hand=hand, ply=7, deal=1)
    state = TableState(clock=HandClock(500.0))
    state.online = True
    state.receive(StateChanged(view, playing(players), True))
    return state, view


def test_an_out_of_turn_draw_stays_warned_while_the_bots_move_on_and_enter_sends_it():
    state, view = at_bo_s_turn()
    state.perform(state.key("d"))
    assert state.warning is not None and "Bo's turn" in state.warning.text
    state.receive(StateChanged(view._replace(turn=2, ply=8), None, True))  # Bo moved: Cy's turn
    assert state.warning is not None and "Cy's turn" in state.warning.text  # the same offence, said anew
    assert state.dialog()[0] == wording.warning_box(state.warning.text)
    state.receive(StateChanged(view._replace(turn=3, ply=9), None, True))  # and Cy
    assert state.perform(state.key("enter")) == (Send(Draw()),)


def test_an_out_of_turn_play_stays_warned_until_its_square_is_taken():
    state, view = at_bo_s_turn()
    state.perform(Pick(0))
    state.perform(state.click(OnSquare(60)))
    assert state.warning is not None and state.warning.offence == "play-out-of-turn"
    state.receive(StateChanged(view._replace(turn=2, ply=8), None, True))
    assert state.warning is not None
    board = list(view.board)
    board[60] = 1
    state.receive(StateChanged(view._replace(turn=2, ply=9, board=tuple(board)), None, True))  # Cy took square 60
    assert state.warning is None and state.notice == wording.WARNING_WITHDRAWN
    assert state.perform(Confirm()) == ()


def test_an_out_of_turn_warning_closes_when_the_turn_comes_round_and_says_why():
    state, view = at_bo_s_turn()
    state.perform(Pick(1))
    state.perform(state.key("x"))
    assert state.warning is not None and state.warning.offence == "discard-out-of-turn"
    state.receive(StateChanged(view._replace(turn=0, ply=10), None, True))
    assert state.warning is None and state.notice == wording.WARNING_NO_OFFENCE


def test_a_confirmed_offence_the_server_found_stale_goes_again_while_it_is_the_same_offence():
    state, view = at_bo_s_turn()
    state.perform(state.key("d"))
    assert state.perform(Confirm()) == (Send(Draw()),)
    # The bot moved between the view confirmed on and the server: the session shows the new view,
    # then the refusal; the draw is still a draw out of turn, so it goes again.
    state.receive(StateChanged(view._replace(turn=2, ply=8), None, True))
    got = state.receive(Failed("act", "stale", "ply: the game is at action 8, not 7; the table moved on"))
    assert got.commands == (Send(Draw()),)
    # … but never endlessly.
    for _ in range(RESEND_MAX - 1):
        assert state.receive(Failed("act", "stale", "moved on")).commands == (Send(Draw()),)
    assert state.receive(Failed("act", "stale", "moved on")).commands == ()
    assert state.notice_tone == "bad"


def test_a_confirmed_offence_found_stale_is_dropped_when_it_is_no_offence_now():
    state, view = at_bo_s_turn()
    state.perform(state.key("d"))
    state.perform(Confirm())
    state.receive(StateChanged(view._replace(turn=0, ply=10), None, True))  # the turn came round meanwhile
    got = state.receive(Failed("act", "stale", "moved on"))
    assert got.commands == () and state.notice == wording.WARNING_NO_OFFENCE


def test_a_stale_answer_to_a_proper_action_still_just_says_not_done():
    game = Game(2, "penalty", seed=4, first=0)
    state = TableState(clock=HandClock(500.0))
    state.online = True
    state.receive(StateChanged(game.view(0), playing(2), True))
    assert state.perform(state.key("d")) == (Send(Draw()),)  # our turn: no warning
    assert state.receive(Failed("act", "stale", "the table moved on")).commands == ()
    assert state.notice == "Not done: the table moved on"


def test_a_resumed_practice_game_welcomes_the_player_back_instead_of_announcing_a_game():
    game = Game(4, "penalty", seed=4, first=0)
    game.apply(0, Draw())
    game.apply(1, Draw())
    table = playing(4)
    state = TableState(clock=HandClock(500.0))
    state.receive(Replied("practice", Resumed(table)))
    state.receive(StateChanged(game.view(0), table, True))
    assert state.log[-1] == "Welcome back: your unfinished game goes on (game 1, deal 1)"
    # The word that the game was resumed may come after its first view: the start line is put right.
    late = TableState(clock=HandClock(500.0))
    late.receive(StateChanged(game.view(0), table, True))
    late.receive(StateChanged(None, None, True))  # the session's first state (no table yet) comes after it
    late.receive(Replied("practice", Resumed(table)))
    late.receive(StateChanged(game.view(0), table, True))
    assert list(late.log) == ["Welcome back: your unfinished game goes on (game 1, deal 1)"]
    assert late.toasts[-1].text == late.log[0]
    # A window that joins someone's game under way (no resume of its own) says what it always said.
    other = TableState(clock=HandClock(500.0))
    other.receive(StateChanged(game.view(0), table, True))
    assert other.log[-1] == "Game 1 is under way"


def test_a_tables_card_says_how_fast_its_bots_move():
    assert setup_words(playing(2)).endswith("penalty · no clock")  # quick, as every table was: not said
    assert setup_words(playing(2, bot_pace="person")).endswith("penalty · no clock · person-paced bots")
    assert "bots" not in setup_words(playing(2, bot_pace="person", rated=True))  # a rated table seats no bots
