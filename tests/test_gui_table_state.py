"""The table's new behaviours without a window: what just happened, whose turn, questions that stay true.

Real engine views and events, a fake clock; nothing here opens a window.
"""

from __future__ import annotations

from board99 import Draw, Game, Play
from board99.client.gui.messages import Events, StateChanged
from board99.client.gui.table_intents import (
    Cancel,
    Confirm,
    HintsOff,
    Leave,
    OnButton,
    Open,
    OpenScreen,
    Pick,
    SaveHints,
    Send,
    ToLobby,
)
from board99.client.gui.table_state import TableState
from board99.events import Drew, Played, shown_to
from tests.gui_harness import HandClock, table_info
from tests.scenario import position


def playing(players: int = 2, **fields) -> object:
    names = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
    seats = [{"occupant": "human", "name": n, "connected": True} for n in names[:players]]
    return table_info(seats, players=players, state="playing", **fields)


def fresh(players: int = 2, mode: str = "penalty", **table_fields) -> tuple[TableState, HandClock, Game]:
    game = Game(players, mode, seed=4, first=0)
    clock = HandClock(500.0)
    state = TableState(clock=clock)
    state.online = True
    state.receive(StateChanged(game.view(0), playing(players, mode=mode, **table_fields), True))
    return state, clock, game


def test_a_warning_closes_itself_when_a_new_view_changes_what_it_says_and_enter_then_does_nothing():
    state, _, game = fresh()
    other = game.view(0)._replace(turn=1, hand=(40, 50))
    state.receive(StateChanged(other, None, True))
    state.perform(Pick(0))
    state.perform(state.key("d"))  # draw out of turn: warned
    assert state.warning is not None and "Bo's turn" in state.warning.text
    # The turn comes round to the player behind the warning: a draw is no longer an offence.
    state.receive(StateChanged(other._replace(turn=0), None, True))
    assert state.warning is None and state.dialog() is None
    assert state.notice.startswith("It is your turn now, so that is no offence any more")
    assert state.key("enter") is None  # Enter means nothing now: no action the closed text described
    assert state.perform(Confirm()) == ()


def test_a_warning_that_still_holds_after_a_new_view_stays_and_still_sends_what_it_says():
    state, _, game = fresh()
    other = game.view(0)._replace(turn=1, hand=(40,))
    state.receive(StateChanged(other, None, True))
    state.perform(state.key("d"))
    text = state.warning.text
    state.receive(StateChanged(other._replace(deck_size=other.deck_size - 1), None, True))  # Bo drew
    assert state.warning is not None and state.warning.text == text
    assert state.perform(state.key("enter")) == (Send(Draw()),)


def test_leaving_a_live_game_asks_first_and_stay_keeps_the_seat():
    state, _, _ = fresh()
    assert state.perform(ToLobby()) == ()
    text, yes, no = state.dialog()
    assert text.startswith("Leave this game?") and "A bot will play your seat" in text
    assert (yes, no) == ("Leave (Enter)", "Stay (Esc)")
    assert state.click(OnButton("draw")) is None  # the question is modal
    assert state.perform(state.key("escape")) == () and state.dialog() is None
    state.perform(ToLobby())
    assert state.perform(state.key("enter")) == (Leave(),)


def test_the_since_your_turn_list_holds_others_moves_and_starts_again_at_the_players_own():
    state, _, _ = fresh(4)
    state.receive(Events((shown_to(Played(1, 40, 55), 0), shown_to(Drew(2, 9), 0), shown_to(Played(3, 7, 71), 0))))
    assert [(s.text, s.square) for s in state.since] == [("Bo: square 55", 55), ("Cy: drew", None),
                                                          ("Di: square 71", 71)]
    state.receive(Events((shown_to(Drew(0, 12), 0),)))
    assert list(state.since) == []


def test_each_seats_latest_peg_is_marked_and_fades_over_the_next_round():
    state, _, game = fresh(2)
    board = list(game.view(0).board)
    board[55] = 1
    state.receive(StateChanged(game.view(0)._replace(board=tuple(board)), None, True))
    state.receive(Events((shown_to(Played(1, 40, 55), 0),)))
    ((square, side, strength),) = state.recent_pegs()
    assert (square, side, strength) == (55, 1, 1.0)
    state.receive(Events((shown_to(Drew(0, 3), 0),)))
    assert 0 < state.recent_pegs()[0][2] < 1.0
    state.receive(Events((shown_to(Drew(1, 4), 0), shown_to(Drew(0, 5), 0))))
    assert state.recent_pegs() == []  # faded out after a round


def test_threats_are_marked_for_the_sides_that_could_win_at_guarded_tables_by_default():
    game = position(players=2, mode="penalty", pegs={1: (72, 58, 20, 14)}, hands={0: (3, 50)})
    state = TableState(clock=HandClock(500.0))
    state.receive(StateChanged(game.view(0), playing(mode="penalty"), True))
    assert state.threats() == {}  # not shown at a penalty table by default…
    state.receive(StateChanged(game.view(0)._replace(mode="guarded"), None, True))
    assert state.threats() == {1: (4,)}  # …shown at a guarded one
    state.threats_pref = "never"
    assert state.threats() == {}
    state.threats_pref = "always"
    state.receive(StateChanged(game.view(1), None, True))
    assert state.threats() == {}  # a side's own four is not a threat to itself


def test_a_move_the_turn_clock_made_is_said_as_such():
    state, _, _ = fresh(2, clock=10.0)
    state.receive(Events((shown_to(Drew(1, 9), 0),), clock=True))
    assert state.log[-1] == "Time ran out: Bo's turn was played for them (a card was drawn)"
    assert state.toasts_now()[-1][:2] == (state.log[-1], "warn")
    state.receive(Events((shown_to(Drew(0, 9), 0),), clock=True))
    assert state.log[-1] == "Time ran out: your turn was played for you (a card was drawn)"


def test_the_players_turn_plays_a_sound_once_and_the_clock_ticks_in_its_last_seconds():
    game = Game(2, "penalty", seed=4, first=1)
    clock = HandClock(500.0)
    state = TableState(clock=clock)
    state.receive(StateChanged(game.view(0), playing(clock=10.0), True))
    assert not state.my_turn and state.headline() == "Bo's turn"
    got = state.receive(StateChanged(game.view(0)._replace(turn=0), None, True))
    assert got.sounds == ("turn",) and state.my_turn and state.headline() == "Your turn"
    assert state.receive(StateChanged(game.view(0)._replace(turn=0, deck_size=40), None, True)).sounds == ()
    assert not state.clock_tick()  # 10 s left
    clock.now += 5.5
    assert state.clock_tick() and not state.clock_tick()  # 4.5 s left: one tick for this second
    clock.now += 1.0
    assert state.clock_tick()


def test_the_first_game_hint_turns_itself_off_and_asks_to_save_that():
    state, _, _ = fresh()
    assert state.hint_shown
    assert state.click(OnButton("hint-off")) == HintsOff()
    assert state.perform(HintsOff()) == (SaveHints(False),) and not state.hint_shown


def test_rules_settings_and_quit_buttons_ask_the_window_to_open_them():
    state, _, _ = fresh()
    for name in ("rules", "settings", "quit"):
        assert state.click(OnButton(name)) == Open(name)
        assert state.perform(Open(name)) == (OpenScreen(name),)


def test_events_start_motions_that_a_new_batch_replaces_and_a_zero_factor_skips():
    state, clock, _ = fresh(2)
    state.receive(Events((shown_to(Played(1, 40, 55), 0),)))
    kinds = [m.kind for m in state.motions.running()]
    assert kinds == ["card", "drop"]
    state.receive(Events((shown_to(Drew(0, 7), 0),)))  # a new view mid-motion wins: the old ones go
    assert [m.kind for m in state.motions.running()] == ["card"]
    clock.now += 5
    assert state.motions.running() == []
    state.animation_factor = 0.0
    state.receive(Events((shown_to(Played(1, 41, 56), 0),)))
    assert state.motions.running() == []


def test_a_refused_play_on_a_taken_square_is_said_in_words():
    from board99.client.gui.messages import Failed

    state, _, game = fresh(2)
    state.receive(StateChanged(game.view(0)._replace(hand=(40,)), None, True))
    state.perform(state.click(OnButton("cancel")))
    state.perform(Pick(0))
    from board99.client.gui.table_intents import Attempt

    state.perform(Attempt(Play(40, 97)))
    state.receive(Failed("act", "occupied", "square 97 already holds a peg of side 0"))
    assert state.notice == "Square 97 is taken"
    assert state.perform(Cancel()) == ()


def test_the_sending_notice_goes_once_the_server_has_taken_the_action():
    from board99.client.gui.messages import Replied

    state, _, _ = fresh()
    assert state.perform(state.key("d")) == (Send(Draw()),)
    assert state.notice == "Drawing a card…"
    state.receive(Replied("act", []))
    assert state.notice == ""


def test_the_sides_colours_follow_each_new_table_description_and_a_caller_cannot_change_them():
    state, _, game = fresh()
    first = state.colours()
    assert len(first) == 2 and first[0] != first[1]
    first[0] = "not a colour"  # a caller's copy: the state's own stays
    assert state.colours()[0] != "not a colour"
    seats = [{"occupant": "human", "name": n, "connected": True, "colour": c} for n, c in (("Ann", "blue"),
                                                                                          ("Bo", "red"))]
    state.receive(StateChanged(game.view(0), table_info(seats, players=2, state="playing"), True))
    assert state.colours() == ["blue", "red"]
    seats[0]["colour"] = "green"
    state.receive(StateChanged(game.view(0), table_info(seats, players=2, state="playing"), True))
    assert state.colours() == ["green", "red"]
