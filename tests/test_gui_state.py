"""The table screen's state without a window: what input means, what it changes, what the session's news changes.

No display: ``TableState`` draws nothing and reads the time from the clock
it is given, so these tests feed it real engine views, real events and a
fake clock.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from board99 import PENALTY_RULES, Discard, Draw, Game, Play, SeatView
from board99.client.gui.messages import Events, Failed, Pushed, Replied, StateChanged
from board99.client.gui.table_intents import (
    BUTTONS,
    KEYS,
    AddBot,
    AskRematch,
    Attempt,
    Cancel,
    Confirm,
    Dismiss,
    FillSeats,
    Hint,
    Leave,
    OnButton,
    OnCard,
    OnDeck,
    OnSquare,
    Pick,
    Rematch,
    Send,
    SetSound,
    ToggleSound,
    ToLobby,
)
from board99.client.gui.table_state import Received, TableState, side_colours
from board99.client.pushes import Restarted, SeatLost
from board99.events import Dealt, Penalty, Played, Won, shown_to
from tests.gui_harness import HandClock, table_info


def view(mode: str = "penalty", **changes) -> SeatView:
    """Seat 0's view of a fresh 2-player game in which seat 0 plays first (empty board, empty hands)."""
    return Game(2, mode, seed=1, first=0).view(0)._replace(**changes)


def playing(players: int = 2, **fields) -> object:
    seats = [{"occupant": "human", "name": n, "connected": True} for n in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")]
    return table_info(seats[:players], players=players, state="playing", **fields)


def table_state(v: SeatView | None = None, table=None, *, online: bool = True) -> tuple[TableState, HandClock]:
    clock = HandClock(1000.0)
    state = TableState(clock=clock)
    state.online = online
    state.receive(StateChanged(v, table if table is not None else playing(), True))
    return state, clock


# -- what input means ------------------------------------------------------------------------------


def test_keys_mean_picking_drawing_discarding_cancelling_and_muting():
    state, _ = table_state(view(hand=(40, 7)))
    assert state.key("2") == Pick(1)
    assert state.key("d") == Attempt(Draw())
    assert state.key("x") == Hint("Pick a card to discard first (keys 1-5)")
    assert state.key("escape") == Cancel() and state.key("m") == ToggleSound()
    state.perform(Pick(0))
    assert state.key("x") == Attempt(Discard(40))
    assert state.key("q") is None


def test_a_click_on_a_square_plays_the_picked_card_there():
    state, _ = table_state(view(hand=(40, 7)))
    assert state.click(OnSquare(55)) == Hint("Square 55: pick a card first (click it or press 1-5)")
    state.perform(state.click(OnCard(0)))
    assert state.click(OnSquare(55)) == Attempt(Play(40, 55))
    assert state.click(OnDeck()) == Attempt(Draw())
    assert state.click(OnButton("rematch", enabled=False)) is None  # a disabled button swallows the click
    assert state.click(None) is None


def test_every_key_and_button_means_something():
    state, _ = table_state(view(hand=(40, 7)))
    assert all(state.key(name) is not None for name in KEYS if name != "enter")
    assert all(state.click(OnButton(name)) is not None for name in BUTTONS if name not in ("confirm", "back"))
    state.perform(Attempt(Draw()))  # nothing open: enter, confirm and back mean nothing yet
    assert state.key("enter") is None


def test_picking_the_same_card_again_puts_it_back_and_a_pick_past_the_hand_says_why():
    state, _ = table_state(view(hand=(40, 7)))
    state.perform(Pick(1))
    assert (state.picked_card, state.notice) == (7, "Card 7 picked: it allows squares 7 to 99. Click a square.")
    assert state.lit_squares() == tuple(range(7, 100))
    state.perform(Pick(1))
    assert state.picked_card is None and state.lit_squares() == ()
    state.perform(Pick(4))
    assert state.notice == "You hold 2 cards; there is no card 5" and state.notice_tone == "warn"


# -- penalty mode: warned first, then sent --------------------------------------------------------------


def test_penalty_mode_warns_before_an_offence_and_sends_it_only_when_confirmed():
    state, _ = table_state(view(turn=1, hand=(40,)))
    state.perform(Pick(0))
    assert state.perform(state.click(OnSquare(55))) == ()
    assert state.warning is not None and state.warning.action == Play(40, 55)
    assert PENALTY_RULES["play-out-of-turn"] in state.warning.text
    assert state.click(OnSquare(60)) is None and state.key("d") is None  # the warning is modal
    assert state.click(OnButton("confirm")) == Confirm() and state.key("enter") == Confirm()
    assert state.perform(Confirm()) == (Send(Play(40, 55)),)
    assert state.warning is None and state.picked is None and state.notice == "Pegging square 55 with card 40…"


def test_a_warning_cancelled_sends_nothing():
    state, _ = table_state(view(hand=(40, 1, 2, 3, 4)))
    state.perform(Attempt(Draw()))  # our turn, five cards: an illegal draw
    assert PENALTY_RULES["illegal-draw"] in state.warning.text
    assert state.key("escape") == Cancel()
    assert state.perform(Cancel()) == ()
    assert state.warning is None and state.notice == "Cancelled: nothing was done"


def test_a_proper_action_goes_straight_to_the_server():
    state, _ = table_state(view(hand=(40,)))
    assert state.perform(Attempt(Play(40, 55))) == (Send(Play(40, 55)),)
    assert state.warning is None


def test_without_a_server_nothing_is_sent_and_the_notice_says_so():
    state, _ = table_state(view(hand=(40,)), online=False)
    assert state.perform(Attempt(Play(40, 55))) == ()
    assert (state.notice, state.notice_tone) == ("Not connected to a server", "bad")


# -- guarded mode: what cannot be done is explained, not sent -------------------------------------------


def test_guarded_mode_holds_back_a_draw_out_of_turn_with_the_reason():
    state, _ = table_state(view("guarded", turn=1), playing(mode="guarded"))
    assert state.perform(Attempt(Draw())) == ()
    assert state.notice == "Not possible now: it is Bo's turn"
    assert state.disabled_buttons() >= {"draw", "discard", "rematch"}
    assert state.reasons() == dict.fromkeys(("Draw", "Play", "Discard"), "it is Bo's turn")
    assert state.hand_dimmed


def test_guarded_mode_sends_a_play_on_our_turn_so_the_server_names_what_is_wrong_with_the_square():
    state, _ = table_state(view("guarded", hand=(40,)), playing(mode="guarded"))
    assert state.perform(Attempt(Play(40, 12))) == (Send(Play(40, 12)),)


def test_guarded_mode_names_a_full_hand_a_dead_card_and_a_card_to_pick():
    board = (None,) * 95 + (0,) * 5
    state, _ = table_state(view("guarded", hand=(95, 1, 2, 3, 4), board=board), playing(mode="guarded"))
    assert state.reasons()["Draw"] == "your hand is full (5 cards): play or discard"
    assert state.reasons()["Discard"] == "pick a card first (keys 1-5)"
    state.perform(Pick(0))
    assert state.reasons()["Play"].startswith("card 95 is dead")
    assert state.disabled_buttons() == {"draw", "rematch"}


def test_nothing_is_possible_while_the_table_waits_for_players():
    waiting = table_info([{"occupant": "human", "name": "Ann"}, {}], state="waiting", mode="guarded")
    state, _ = table_state(SeatView.before_deal(2, "guarded", seat=0), waiting)
    assert state.waiting and state.fill_seats_shown
    assert set(state.reasons().values()) == {"waiting for the game to start"}
    assert state.perform(Attempt(Draw())) == ()
    assert state.notice == "Not possible now: waiting for the game to start"
    assert state.perform(FillSeats()) == (AddBot("t", 1),)


def test_a_spectator_cannot_act():
    state, _ = table_state(Game(2, "penalty", seed=1, first=0).view(None))
    assert state.perform(Attempt(Draw())) == ()
    assert state.notice == "Not possible now: you are watching"
    assert "draw" in state.disabled_buttons()


# -- what the session's news changes ---------------------------------------------------------------------


def test_the_picked_card_stays_picked_while_the_hand_changes_around_it():
    state, _ = table_state(view(hand=(40, 7)))
    state.perform(Pick(1))
    assert state.receive(StateChanged(view(hand=(3, 7, 60)), None, True)) == Received()
    assert state.picked_card == 7
    state.receive(StateChanged(view(hand=(3, 60)), None, True))
    assert state.picked is None


def test_a_new_seating_asks_for_a_new_layout():
    state, _ = table_state(view())
    four = Game(4, "penalty", seed=1, first=0).view(2)
    assert state.receive(StateChanged(four, playing(4), True)).relayout
    assert state.players == 4 and state.side_of(3) == 1 and state.side_of(2) == 0


def test_events_are_logged_sounded_and_a_penalty_is_announced_with_its_rule():
    state, clock = table_state(view())
    events = (shown_to(Played(1, 40, 55), 0), shown_to(Penalty(1, "illegal-play", 60, 12), 0))
    assert state.receive(Events(events)) == Received(sounds=("peg", "penalty"))
    assert state.recent.recent_events == events and state.recent.events_seen == 2
    assert state.log[-2] == "Bo pegged square 55 with card 40"
    assert state.log[-1] == ("Penalty: Bo played a card below the square (card 60 on square 12). "
                             f"Rule: {PENALTY_RULES['illegal-play']}")
    assert state.toasts_now()[-1][:2] == (state.log[-1], "bad")  # in the panel: it covers nothing
    clock.now += 6.1  # an announcement lasts six seconds
    assert state.toasts_now() == []


def test_a_win_is_said_as_the_players_result_until_dismissed_and_rematch_stays_reachable():
    state, clock = table_state(view(hand=(40,)))
    state.receive(Events((shown_to(Won(0, 0, (72, 58, 20, 14, 4)), 0),)))
    assert state.log[-1] == "Red wins! Ann completed 72–58–20–14–4"
    clock.now += 3600
    assert state.result is not None and state.result_open
    assert (state.result.title, state.result.tone) == ("You won", "good")
    assert state.result.line == "You completed 72–58–20–14–4 (Red: Ann)"
    state.receive(StateChanged(view(winner=0, turn=None, line=(72, 58, 20, 14, 4)), None, True))
    assert state.key("escape") == Dismiss() and state.click(OnSquare(3)) == Dismiss()
    assert state.click(OnButton("rematch")) == Rematch()  # the box does not stand in front of the buttons
    assert "rematch" not in state.disabled_buttons()
    assert state.perform(Rematch()) == (AskRematch(),)
    assert not state.result_open and state.result is not None and state.notice == "Rematch asked for"


def test_a_game_start_is_logged_once_and_a_rematch_is_announced():
    state, _ = table_state(view())
    assert state.log[-1] == "Game 1 starts"  # this game's opener was set, not cut for
    state.receive(StateChanged(view(), playing(), True))
    assert len(state.log) == 1
    state.receive(StateChanged(view(cut=(40, 7)), playing(game=2), True))
    assert state.log[-1] == "Game 2 starts. Deal 1: Bo drew the lowest card and starts"
    assert state.toasts_now()[-1][:2] == (state.log[-1], "good")
    # The `started`/`rematch` change carries the first deal's `dealt` event: the start line says it already.
    before = len(state.log)
    state.receive(Events((Dealt(1, (40, 7), 1),)))
    assert len(state.log) == before


def test_the_turn_clock_counts_from_the_turn_change_or_from_the_servers_count():
    state, clock = table_state(view(), playing(clock=30.0))
    clock.now += 12.2
    assert state.clock_left() == pytest.approx(30.0 - 12.2)
    state.receive(StateChanged(view(), playing(clock=30.0, turn_left=9.6), True))
    clock.now += 1.0
    assert state.clock_left() == pytest.approx(8.6)
    state.receive(StateChanged(view(winner=0), None, True))
    assert state.clock_left() is None  # no clock once the game is won


def test_refusals_and_the_servers_news_become_the_notice():
    state, _ = table_state(view())
    state.receive(Failed("act", "stale", "the table moved on"))
    assert (state.notice, state.notice_tone) == ("Not done: the table moved on", "bad")
    state.receive(Pushed(Restarted("x")))
    assert (state.notice, state.notice_tone) == ("The server restarted; taking the seat back…", "warn")
    state.receive(Pushed(SeatLost("bad-token", "no")))
    assert state.notice == "Your seat could not be taken back: no"
    assert state.receive(Replied("act", [])) == Received()


def test_a_lost_link_shows_reconnecting():
    state, _ = table_state(view())
    state.receive(StateChanged(view(), None, False))
    assert state.toasts_now()[0][:2] == ("Reconnecting…", "bad")


# -- commands for the window ---------------------------------------------------------------------------------


def test_sound_and_the_lobby_are_commands_for_the_window():
    state, _ = table_state(view())
    assert state.perform(ToggleSound()) == (SetSound(True),) and state.muted
    assert state.perform(ToggleSound()) == (SetSound(False),)
    state.receive(StateChanged(view(winner=0, turn=None), None, True))
    assert state.perform(ToLobby()) == (Leave(),)  # no game on: nothing to ask


def test_partners_share_their_sides_colour_and_unpicked_sides_get_a_free_one():
    table = table_info([{"colour": "blue"}, {}, {"colour": "blue"}, {}], players=4)
    assert side_colours(table, 2) == ["blue", "red"]
    assert side_colours(None, 3) == ["red", "blue", "green"]


def test_the_table_state_needs_no_window():
    code = "import sys, board99.client.gui.table_state; print('arcade' in sys.modules, 'pyglet' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["False", "False"], out.stderr
