"""The parts TableState is made of, each on its own: what the table says, what just happened, the turn clock,
the end-of-game boxes. No window, no TableState: plain calls and a hand-moved clock."""

from __future__ import annotations

from board99 import Game
from board99.client.gui.table_clock import TICK_FROM, TurnClock
from board99.client.gui.table_endings import Endings
from board99.client.gui.table_recent import SINCE_SHOWN, Recent
from board99.client.gui.table_talk import TOASTS_SHOWN, Talk
from board99.client.gui.wording import RECONNECTING
from board99.events import Drew, Played, Won
from board99.wire.table_info import MatchInfo
from tests.gui_harness import HandClock, table_info


def test_talk_keeps_the_newest_announcements_for_their_time_and_rewords_in_place():
    clock = HandClock(10.0)
    talk = Talk(clock)
    for n in range(TOASTS_SHOWN + 1):
        talk.announce(f"line {n}", "good")
        talk.log.append(f"line {n}")
    assert [t.text for t in talk.toasts_now(True)] == [f"line {n}" for n in range(1, TOASTS_SHOWN + 1)]
    assert talk.toasts_now(False)[0].text == RECONNECTING  # a lost link first
    log = talk.log
    talk.reword("line 2", "welcome back")
    assert talk.log is log and list(log)[2] == "welcome back" and talk.toasts[1].text == "welcome back"
    clock.now += 7
    assert talk.toasts_now(True) == []
    talk.tell("no", "bad")
    assert (talk.notice, talk.notice_tone) == ("no", "bad")


def test_recent_fades_each_seats_latest_peg_and_lists_others_moves_since_mine():
    game = Game(2, "guarded", seed=4, first=0)
    recent = Recent()
    table = table_info([{"name": "Ann"}, {"name": "Bo"}], players=2, state="playing")
    board = list(game.view(0).board)
    board[55] = 1
    view = game.view(0)._replace(board=tuple(board))
    recent.note_move(Played(1, 40, 55), 0, table, lambda s: s)
    assert recent.pegs(view, 2) == [(55, 1, 1.0)] and [s.square for s in recent.since] == [55]
    for _ in range(SINCE_SHOWN + 2):
        recent.note_move(Drew(1, None), 0, table, lambda s: s)
    assert len(recent.since) == SINCE_SHOWN and recent.pegs(view, 2) == []  # faded after a round
    recent.note_move(Drew(0, None), 0, table, lambda s: s)
    assert not recent.since  # the player's own move starts the list again


def test_the_turn_clock_counts_from_the_turns_change_and_ticks_once_a_second():
    clock = HandClock(100.0)
    turn = TurnClock(clock)
    game = Game(2, "guarded", seed=4, first=0)
    table = table_info([{"name": "Ann"}, {"name": "Bo"}], players=2, state="playing", clock=10.0)
    view = game.view(0)
    assert not turn.viewed(view)
    clock.now += 10 - TICK_FROM + 0.5
    left = turn.left(view, table, False)
    assert left == TICK_FROM - 0.5 and turn.tick(left, True) and not turn.tick(left, True)
    assert not turn.tick(left, False)  # not the player's turn: no tick
    assert turn.viewed(view._replace(deal=2)) and turn.left(view, table, False) == 10.0  # a new deal
    assert turn.left(view, table, True) is None  # the table waits: no clock


def test_the_result_box_gives_way_and_a_decided_match_opens_its_box_once():
    game = Game(2, "guarded", seed=4, first=0)
    view = game.view(0)
    endings = Endings()
    endings.won(view, None, ["red", "blue"], Won(0, 0, (1, 2, 3, 4, 5)))
    assert endings.result is not None and endings.result.title == "You won" and endings.any_open
    endings.give_way(keep_match=True)
    assert not endings.result_open and endings.result is not None
    endings.viewed(view, None)  # a game under way: the last result is history
    assert endings.result is None
    over = view._replace(winner=0)
    assert over.over
    match = MatchInfo("first-to", 1, 1, ())
    table = table_info([{"name": "Ann"}, {"name": "Bo"}], players=2, state="over", match=match)
    endings.viewed(over, table)
    assert not endings.match_open  # 0-0: not decided
    from board99.kinds import Result

    decided = table._replace(match=match._replace(results=(Result(1, (0, 1), "side 0 won"),)))
    endings.viewed(over, decided)
    assert endings.match_open
    endings.give_way(keep_match=False)
    endings.viewed(over, decided)
    assert not endings.match_open  # the same decided match does not open it again
