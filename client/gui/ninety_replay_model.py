"""The Ninety-Nine replay's frames, pure (no arcade): the deal, then one frame per action, every hand shown.

A record is replayed by the engine (``NinetyRecord.steps``, which checks every
line against the rules) and after each action the game is copied into a
``NinetyFrame``: the public view (total, direction, pile, stock, tokens, who is
out, whose turn), every seat's hand (the game is over, so all are shown), the
record's own line, the action and what it caused in words. The words are the
table's own (``NinetyState``, fed the events as a spectator's table is), so the
replay says what the table said. Going back is showing an earlier frame, never
undoing. The cursor over the frames is the peg-board viewer's (``replay_model.Cursor``).

>>> from board99.ninety_nine import kind
>>> settings = kind.NINETY_NINE.check_settings(2, "guarded", {"rules": "tokens"})
>>> game = kind.NINETY_NINE.new_game(settings, seed=9)
>>> _ = game.apply(game.turn, kind.NINETY_NINE.clock_action(game))
>>> replay = load(kind.NINETY_NINE.record_text(game))
>>> [f.position() for f in replay.frames], replay.frames[0].title, len(replay.frames[1].hands[0])
(['The deal', 'Action 1 of 1'], 'Game 1: the cards are dealt', 4)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from board99.ninety_nine.actions import Action, Play, parse_action
from board99.ninety_nine.cards import Card, words
from board99.ninety_nine.events import Event, Won
from board99.ninety_nine.game import Game
from board99.ninety_nine.kind import NINETY_NINE
from board99.ninety_nine.record import replay_file, split_match
from board99.ninety_nine.view import NinetyView, view_of
from board99.record_lines import EVENT_INDENT, RecordError
from board99.wire.table_info import SeatInfo, TableInfo

from .messages import Events, StateChanged
from .ninety_state import NinetyState


class NinetyFrame(NamedTuple):
    """One moment of a Ninety-Nine replay: the game after one action (or after a game's first deal)."""

    game: int  # 1-based, within the file
    games: int  # how many games the file holds
    done: int  # actions carried out so far in the whole file
    actions: int  # actions in the whole file
    actor: int | None  # the seat that acted (None: the deal)
    line: str  # the record's own line ("S1 play 10H as -10 says 89"), or the deal's line
    title: str  # the action in plain words ("Bo plays the 10 of hearts as -10, saying 89")
    words: tuple[str, ...]  # what it caused, in the table's words, one line an event
    last: str  # the play and what it did, as the table shows it under the total
    log: tuple[str, ...]  # what happened so far, oldest first (the table's log: its last LOG_LINES lines)
    sounds: tuple[str, ...]  # what the table would play for it ("draw", "penalty", "win")
    view: NinetyView  # the spectator's view after it
    hands: tuple[tuple[Card, ...], ...]  # every seat's cards
    result: str | None  # at a game's last frame: who won, in words

    @property
    def deal_start(self) -> bool:
        """True for a frame that opens a deal (a game's first, or one dealt after a round ended)."""
        return self.actor is None or any(w.startswith("Deal ") for w in self.words)

    @property
    def card(self) -> Card | None:
        """The card this frame's action played (None: a draw, or the deal)."""
        if self.actor is None:
            return None
        action = parse_action(self.line.partition(" ")[2])
        return action.card if isinstance(action, Play) else None

    def position(self) -> str:
        """'Action 37 of 212 · game 2 of 4' ('The deal' before the first action; a single game leaves out the game)."""
        text = "The deal" if self.done == 0 else f"Action {self.done} of {self.actions}"
        return text if self.games == 1 else f"{text} · game {self.game} of {self.games}"


class NinetyReplay(NamedTuple):
    """A whole record as frames, with the seats' names and the table described in one line."""

    frames: tuple[NinetyFrame, ...]
    table: TableInfo  # names per seat (from a match record's header, else "S0".."S5"), the options
    heading: str  # "4 players · guarded table · Convention rules (002)"


def names_table(game: Game, names: tuple[str, ...] | None = None) -> TableInfo:
    """A table description that names the seats (the table's words name people) and carries the options."""
    seat_names = names or tuple(f"S{seat}" for seat in range(game.players))
    seats = tuple(SeatInfo(seat, seat, None, "human", seat_names[seat], True, False) for seat in range(game.players))
    return TableInfo("replay", "Replay", game.players, game.mode, None, 0.0, "over", 1, (), None, 0, seats,
                     kind=NINETY_NINE.name, options=game.table.options)


def action_words(action: Action, name: str) -> str:
    """An action in plain words: 'Bo plays the 10 of hearts as -10, saying 89', 'Bo draws'."""
    if not isinstance(action, Play):
        return f"{name} draws a card"
    text = f"{name} plays the {words(action.card)}"
    if action.value is not None:
        text += f" as {action.value:+d}"
    if action.say is not None:
        text += f", saying {action.say}"
    if not action.draw:
        text += ", without drawing"
    return text


def _shown(events: Iterable[Event]) -> tuple[Event, ...]:
    # A replay shows every card: the game's own events, each drawn card as its drawer saw it.
    return tuple(events)


def _hands(game: Game) -> tuple[tuple[Card, ...], ...]:
    return tuple(game.hand(seat) for seat in range(game.players))


def load(text: str, names: tuple[str, ...] | None = None) -> NinetyReplay:
    """Every frame of a Ninety-Nine game or match record; RecordError names the first line that breaks the rules.

    ``names`` (per seat) name the players of a single game's record, which has none of its own.
    """
    match = split_match(text)
    games = len(match.games)
    frames: list[NinetyFrame] = []
    table: TableInfo | None = None
    heading = ""
    state = NinetyState()
    current: Game | None = None
    done = number = 0
    for _, line, game in replay_file(text):  # every line checked by the rules, numbered as in the file
        if game is not current:  # a match's next game
            current, number = game, number + 1
            if table is None:
                table = names_table(game, match.names or names)
                rs = game.table.rule_set
                heading = f"{game.players} players · {game.mode} table · {rs.title} rules ({rs.source})" + (
                    f" · a match, {match.length}" if match.length else "")
            state = NinetyState(clock=lambda: 0.0)  # the table's own words for what happened
            state.receive(StateChanged(view_of(game, None), table, True))  # type: ignore[arg-type]
            events = _shown(game.opening)
            state.receive(Events(events))
            said = tuple(w for w in map(state.event_words, events) if w)
            frames.append(NinetyFrame(number, games, done, 0, None, line.strip(), f"Game {number}: the cards are dealt",
                                      said, state.last, tuple(state.log), (), view_of(game, None), _hands(game), None))
        if line.startswith(EVENT_INDENT):
            continue  # an event: its action's frame was made from the game's own log
        done += 1
        seat, _, action_text = line.partition(" ")
        actor = int(seat[1:])
        events = _shown(game.log[-1][2])
        received = state.receive(Events(events))
        said = tuple(w for w in map(state.event_words, events) if w)
        view = view_of(game, None)
        state.receive(StateChanged(view, table, True))  # type: ignore[arg-type]
        result = next((w for e, w in zip(events, map(state.event_words, events)) if isinstance(e, Won)), None)
        frames.append(NinetyFrame(number, games, done, 0, actor, line,
                                  action_words(parse_action(action_text), state.name(actor)), said, state.last,
                                  tuple(state.log), received.sounds, view, _hands(game), result))
    if table is None:
        raise RecordError(1, text.split("\n", 1)[0], "the record holds no game")
    return NinetyReplay(tuple(f._replace(actions=done) for f in frames), table, heading)
