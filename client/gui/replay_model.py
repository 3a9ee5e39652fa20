"""The replay viewer's frames, pure (no arcade): one frame per action, plus each game's opening deal.

A record is replayed with ``Record.steps()`` (which checks every line against
the rules), and after each action the game is copied into a ``Frame``: the
public board, every hand (the game is over, so all are shown), the piles, the
deck, whose turn, and what the action caused in plain words (``wording``).
Going back is showing an earlier frame, never undoing. A spectator's look
back at a live game builds frames the same way from the server's public
history (``frames_from_history``): there no hand is known, only hand sizes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Generic, NamedTuple, Protocol, TypeVar

from board99 import Discard, Draw, Play, SeatView, parse_action, sides_for
from board99.events import Event, Penalty, Won
from board99.match import GameResult, MatchRecord, is_match_record, score
from board99.peg_kind import PEG_BOARD
from board99.record import Record
from board99.record_lines import EVENT_INDENT
from board99.wire.table_info import SeatInfo, TableInfo

from . import wording
from .table_state import side_colours


class Frame(NamedTuple):
    """One moment of a replay: the game after one action (or after a game's deal)."""

    game: int  # 1-based, within the file
    games: int  # how many games the file holds
    done: int  # actions carried out so far in the whole file
    actions: int  # actions in the whole file
    actor: int | None  # the seat that acted (None: the deal)
    line: str  # the record's own line ("S1 play 12 on 57"), or the deal line
    title: str  # the action in plain words ("Ann plays card 12 on square 57")
    words: tuple[str, ...]  # what it caused, in plain words (penalties with their rule)
    penalty: bool  # a penalty happened
    view: SeatView  # the public view after it
    hands: tuple[tuple[int, ...], ...] | None  # every seat's cards (None: not known, a live game's history)
    result: str | None  # at a game's last frame: who won with which line

    @property
    def deal_start(self) -> bool:
        """True for a frame that opens a deal (a game's first deal, or a deal replayed after a tie)."""
        return self.actor is None or any(w.startswith("Deal ") for w in self.words)

    def position(self) -> str:
        """'Action 37 of 212 · game 2 of 4' (a single game leaves out the game)."""
        text = f"Action {self.done} of {self.actions}"
        return text if self.games == 1 else f"{text} · game {self.game} of {self.games}"


class Replay(NamedTuple):
    """A whole record as frames, with the names and the table description the words use."""

    frames: tuple[Frame, ...]
    table: TableInfo  # names per seat (from a match record's header, else "S0".."S5")
    heading: str  # "4 players · guarded mode · first to 3"


def names_table(players: int, mode: str, names: tuple[str, ...] | None = None) -> TableInfo:
    """A table description that only names the seats (the words name people, not seats)."""
    settings = PEG_BOARD.check_settings(players, mode)
    seat_names = names or tuple(f"S{seat}" for seat in range(players))
    seats = tuple(SeatInfo(seat, PEG_BOARD.side_of(settings, seat), None, "human", seat_names[seat], True, False)
                  for seat in range(players))
    return TableInfo("replay", "Replay", players, mode, None, 0.0, "over", 1, (), None, 0, seats)


def action_words(seat: int, line_action: str, table: TableInfo | None) -> str:
    """An action from a record in plain words: 'Ann plays card 12 on square 57'."""
    name = wording.seat_name(seat, table)
    action = parse_action(line_action)
    if type(action) is Play:
        return f"{name} plays card {action.card} on square {action.square}"
    if type(action) is Discard:
        return f"{name} discards card {action.card}"
    assert type(action) is Draw
    return f"{name} draws a card"


def _words(events: Sequence[Event], table: TableInfo, colours: list[str]) -> tuple[tuple[str, ...], bool, str | None]:
    words = tuple(wording.event_line(e, table, None, colours) for e in events)
    won = next((e for e in events if isinstance(e, Won)), None)
    result = None if won is None else wording.event_line(won, table, None, colours)
    return words, any(isinstance(e, Penalty) for e in events), result


def load(text: str, names: tuple[str, ...] | None = None) -> Replay:
    """Every frame of a game or match record; RecordError names the first line that breaks the rules.

    ``names`` (per seat) name the players of a single game's record, which has none of its own.
    """
    match: MatchRecord | None = None
    results: Sequence[GameResult] = ()
    if is_match_record(text):
        match, results = MatchRecord.loads(text)
        records, names = match.games, match.names
        heading = f"{match.players} players · {match.mode} mode · {match.format.text()}"
    else:
        record = Record.loads(text)
        records = [record]
        heading = f"{record.players} players · {record.mode} mode"
    first = records[0]
    table = names_table(first.players, first.mode, names)
    colours = side_colours(None, sides_for(first.players))
    total = sum(1 for r in records for line in r.lines if not line.startswith(EVENT_INDENT))
    frames: list[Frame] = []
    done = 0
    for number, record in enumerate(records, start=1):
        opened = False
        for _, line, game in record.steps():
            if line.startswith(EVENT_INDENT):
                if opened:
                    continue  # an action's events: its frame was made from the game's own log
                opened = True
                words, _, _ = _words(game.opening, table, colours)
                frames.append(Frame(number, len(records), done, total, None, line.strip(),
                                    f"Game {number}: the cards are dealt", words, False, game.view(None),
                                    tuple(game.hand(s) for s in range(game.players)), None))
                continue
            done += 1
            seat, _, action_text = line.partition(" ")
            actor = int(seat[1:])
            # The game's log holds exactly what the record's following lines say (steps() checks them):
            # a replay shows every card, so its events are the game's own, nothing hidden.
            words, penalty, result = _words(game.log[-1][2], table, colours)
            frames.append(Frame(number, len(records), done, total, actor, line,
                                action_words(actor, action_text, table), words, penalty, game.view(None),
                                tuple(game.hand(s) for s in range(game.players)), result))
        if match is not None and frames[-1].result is not None:
            after = _score_after(match, results[:number], colours)
            frames[-1] = frames[-1]._replace(result=f"{frames[-1].result}\n{after}")
    return Replay(tuple(frames), table, heading)


def _score_after(match: MatchRecord, results: Sequence[GameResult], colours: list[str]) -> str:
    """'Red 2 – Blue 1', or 'Red won the match 3–2' once the match is decided."""
    won = score(sides_for(match.players), results)
    winner = match.format.winner(won)
    if winner is not None:
        return f"{wording.colour_word(colours[winner])} won the match {'–'.join(map(str, won))}"
    return " – ".join(f"{wording.colour_word(colours[side])} {n}" for side, n in enumerate(won))


# -- a live game's public history (the spectator's look back) ------------------------------------------

_EVENT_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"deal (?P<deal>\d+) cut (?P<cut>none|[\d ]+) first S(?P<first>\d+)"), "dealt"),
    (re.compile(r"S(?P<seat>\d+) drew (?P<card>\d+|a card)"), "drew"),
    (re.compile(r"S(?P<seat>\d+) pegged (?P<square>\d+) with (?P<card>\d+)"), "played"),
    (re.compile(r"S(?P<seat>\d+) discarded (?P<card>\d+)"), "discarded"),
    (re.compile(r"penalty S(?P<seat>\d+) (?P<offence>[a-z-]+) card (?P<card>\d+)(?: on (?P<square>\d+))?: "
                r"(?P<rule>.*)"), "penalty"),
    (re.compile(r"S(?P<seat>\d+) loses the turn \(penalty\)"), "skipped"),
    (re.compile(r"S(?P<seat>\d+) passes \(empty hand, empty deck\)"), "passed"),
    (re.compile(r"side (?P<side>\d+) wins by S(?P<seat>\d+) line (?P<line>[\d ]+)"), "won"),
    (re.compile(r"tie in deal (?P<deal>\d+): .*"), "tied"),
)


_ACTION = re.compile(r"S\d+ \S.*")


def event_data(text: str) -> dict | None:
    """An event line of a record (``board99.events`` ``text()``) read back as the event's plain data (as the wire
    carries it, for the kind to read: ``history_event``); None if unknown."""
    for pattern, kind in _EVENT_FORMS:
        m = pattern.fullmatch(text.strip())
        if m is None:
            continue
        data: dict = {"kind": kind}
        for key, value in m.groupdict().items():
            if key in ("cut", "line"):
                data[key] = None if value == "none" else [int(x) for x in value.split()]
            elif key in ("offence", "rule"):
                data[key] = value
            elif key == "card" and value == "a card":
                data[key] = None
            elif key == "square":
                data[key] = -1 if value is None else int(value)
            else:
                data[key] = int(value)
        return data
    return None


def history_event(text: str) -> Event | None:
    """An event line of a live game's public record as the event, read by the kind like any event; None if unknown
    (a line this client cannot read is left out of the words, as it always was)."""
    data = event_data(text)
    try:
        return None if data is None else PEG_BOARD.event_from_data(data)
    except ValueError:
        return None


def frames_from_history(lines: list[str], views: list[SeatView], table: TableInfo | None) -> tuple[Frame, ...]:
    """Frames from a live game's public record lines and the public view after each action (the first: the deal)."""
    groups: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in lines:
        if line.startswith(EVENT_INDENT):
            groups[-1][1].append(line)
        elif _ACTION.fullmatch(line):
            groups.append((line, []))
    players = views[0].players if views else (table.players if table is not None else 2)
    colours = side_colours(table, sides_for(players))
    total = len(groups) - 1
    frames: list[Frame] = []
    for done, ((action_line, event_lines), view) in enumerate(zip(groups, views)):
        events = [e for e in (history_event(x) for x in event_lines) if e is not None]
        words, penalty, result = _words(events, table or names_table(players, view.mode), colours)
        if action_line is None:
            actor, shown = None, event_lines[0].strip() if event_lines else ""
            title = "The cards are dealt"
        else:
            seat, _, action_text = action_line.partition(" ")
            actor, shown = int(seat[1:]), action_line
            try:
                title = action_words(actor, action_text, table)
            except ValueError:  # a line this client cannot read: show it as the server wrote it
                title = action_line
        frames.append(Frame(1, 1, done, total, actor, shown, title, words, penalty, view, None, result))
    return tuple(frames)



class Moment(Protocol):
    """What the cursor reads of a frame, whichever game's replay it belongs to."""

    @property
    def game(self) -> int:
        """The game of the file it belongs to (1-based)."""

    @property
    def deal_start(self) -> bool:
        """True when it opens a deal."""


F = TypeVar("F", bound=Moment)


class Cursor(Generic[F]):
    """Where the viewer stands in the frames, and how the keys and the slider move it (pure; any game's frames)."""

    def __init__(self, frames: tuple[F, ...], index: int = 0) -> None:
        self.frames = frames
        self.index = max(0, min(index, len(frames) - 1))

    @property
    def frame(self) -> F:
        """The frame shown."""
        return self.frames[self.index]

    @property
    def at_end(self) -> bool:
        """True on the last frame."""
        return self.index == len(self.frames) - 1

    def go(self, index: int) -> bool:
        """Show frame ``index`` (kept within the frames); True if that changed what is shown."""
        index = max(0, min(index, len(self.frames) - 1))
        moved, self.index = index != self.index, index
        return moved

    def step(self, by: int) -> bool:
        """One action forward (1) or back (-1)."""
        return self.go(self.index + by)

    def _starts(self, game: bool) -> list[int]:
        return [i for i, f in enumerate(self.frames)
                if i == 0 or (f.game != self.frames[i - 1].game if game else f.deal_start)]

    def jump(self, by: int, game: bool = False) -> bool:
        """To the start of the next (1) or this/the previous (-1) deal, or game with ``game``.

        Back from inside a deal goes to its start first, as a music player's "previous" does.
        """
        starts = self._starts(game)
        if by > 0:
            return self.go(next((i for i in starts if i > self.index), len(self.frames) - 1))
        return self.go(next((i for i in reversed(starts) if i < self.index), 0))

    def by_key(self, key: str) -> bool | None:
        """The replay keys both games' screens share, by name (pyglet's ``symbol_string``): RIGHT and LEFT one
        action, DOWN and UP one deal, PAGEDOWN and PAGEUP one game, HOME and END the ends; whether that moved
        the cursor, or None for another key."""
        match key:
            case "RIGHT" | "LEFT":
                return self.step(1 if key == "RIGHT" else -1)
            case "DOWN" | "UP":
                return self.jump(1 if key == "DOWN" else -1)
            case "PAGEDOWN" | "PAGEUP":
                return self.jump(1 if key == "PAGEDOWN" else -1, game=True)
            case "HOME" | "END":
                return self.go(0 if key == "HOME" else len(self.frames) - 1)
        return None

    def seek(self, share: float) -> bool:
        """To the frame at ``share`` (0..1) of the way along the slider."""
        return self.go(round(max(0.0, min(1.0, share)) * (len(self.frames) - 1)))

    def share(self) -> float:
        """How far along the frames the cursor stands (0..1), for the slider's knob."""
        return self.index / (len(self.frames) - 1) if len(self.frames) > 1 else 1.0

    def game_marks(self) -> list[float]:
        """Where each game after the first starts along the slider (0..1)."""
        last = max(1, len(self.frames) - 1)
        return [i / last for i in self._starts(True)[1:]]
