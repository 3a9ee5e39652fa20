"""Game kinds: the one interface through which the house (server, wire, journal, ratings, records, client library)
plays a game, and the registry of the kinds installed.

board99 hosts games, not one game. Everything the house needs of a game's rules
goes through a ``GameKind``: its settings and their check, a new game from a
seed, the check and the carrying out of an action, what each seat and a
spectator may see, the codecs of actions, views and events, its text records,
a finished game's result as a ranking of sides (``Result``), the move a turn
clock makes, its bots (and their fixed ratings), its refusal codes, and its
coach where it has one (``advise`` gives None where it has none). The house never names a game's own types (python-chess keeps
``chess.Board`` at the top while its variants sit beside it in
``chess.variant``; the peg-board game keeps ``board99.Game`` the same way).

Two members are optional, so the interface every kind must meet stays as it
is: ``rules_page(settings)``, its rules as the window's rules screen shows
them for one table (``rules_page`` below), and ``match_magic``, the first line
of its matches' records where its ``replay_record`` reads those too
(``for_record``).

>>> peg = get("peg-board")
>>> peg.check_settings(4, "penalty").sides, peg.side_of(peg.check_settings(4, "penalty"), 2)
(2, 0)
>>> get("chess")
Traceback (most recent call last):
...
board99.kinds.UnknownKind: game: 'chess' is not a game here; choose from peg-board, ninety-nine
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

#: A seat, as the house numbers them: 0 .. players - 1.
Seat = int


class OptionSpec(NamedTuple):
    """One setting a host may choose beyond players and mode, as a form shows it and the table card names it."""

    name: str  # its field name on the wire and in the journal
    label: str  # its name for a person
    choices: tuple[Any, ...]  # the values offered (a small menu: ints, strings or booleans)
    default: Any
    help: str = ""  # one line a form shows under it
    #: Where a new-table form shows it: "" on the form's face (a kind's main choices, such as a rule set), else
    #: the heading it is listed under in the form's further-settings panel ("House rules…"). A kind that says
    #: nothing has all its options on the face.
    group: str = ""
    words: tuple[str, ...] = ()  # each choice in a person's words, in ``choices`` order (empty: as written)
    short: str = ""  # its name in a table card's line of changed settings ("hand"); empty: ``label``
    #: The option whose choice decides what this one's default means ("rules": the default keeps the rule
    #: set's own choice), and for each choice of that option what the default then comes to, in words.
    follows: str = ""
    follow_words: tuple[tuple[Any, str], ...] = ()

    def choice_words(self, value: Any) -> str:
        """``value`` (one of ``choices``) in a person's words: its ``words`` entry, 'on'/'off', or as written."""
        for choice, said in zip(self.choices, self.words):
            if choice == value and type(choice) is type(value):
                return said
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)

    def default_words(self, options: Mapping[str, Any]) -> str:
        """What the default comes to with these ``options`` chosen (the rule set's own value), in words."""
        if self.follows:
            leader = options.get(self.follows)
            for choice, said in self.follow_words:
                if choice == leader:
                    return said
        return self.choice_words(self.default)

    def changes(self, value: Any, options: Mapping[str, Any]) -> bool:
        """Whether ``value`` changes the table's rules: neither the default nor what the default comes to here."""
        if value == self.default and type(value) is type(self.default):
            return False
        return not self.follows or self.choice_words(value) != self.default_words(options)


class Settings(NamedTuple):
    """A table's settings after its kind checked them: what ``new_game`` and everything else take."""

    players: int
    mode: str
    options: tuple[tuple[str, Any], ...] = ()  # (name, value) for every option of the kind, in its order
    sides: int = 0  # how many sides play (the kind fills it in: ``check_settings``)

    def option(self, name: str) -> Any:
        """The value of option ``name``; KeyError if the kind has no such option."""
        for key, value in self.options:
            if key == name:
                return value
        raise KeyError(name)


class SettingsError(ValueError):
    """Settings a kind does not allow; ``field`` names the setting, the message says why in a player's words."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(f"{field}: {why}")
        self.field = field
        self.why = why


class UnknownKind(ValueError):
    """A game name that is not installed here."""


class Refusal(Exception):
    """An action a kind's rules do not allow here, with the kind's stable ``code``; nothing changed.

    Every kind's own refusal (``board99.Refused`` for the peg-board game) is one of these, so the
    house catches one type and passes the code on unchanged (docs/protocol.md, *Error codes*).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class Result(NamedTuple):
    """A finished game's result as the house keeps it: each side's place and the kind's words for it.

    ``ranking[side]`` is the side's place, 0 the best; sides that tied share a place. ``detail`` is
    the kind's own plain data about the result (the peg-board game's winning line), which only the
    kind's own code reads.

    >>> Result(3, (1, 0), "side 1 won").winner, Result(4, (0, 0, 1), "a tie").winner
    (1, None)
    """

    game: int  # the table's game number
    ranking: tuple[int, ...]
    summary: str
    detail: Mapping[str, Any] = {}

    @property
    def winner(self) -> int | None:
        """The side alone in first place, or None when first place is shared."""
        first = [side for side, place in enumerate(self.ranking) if place == 0]
        return first[0] if len(first) == 1 else None

    @property
    def side(self) -> int | None:
        """The side that won the game (``winner``): what a match counts."""
        return self.winner

    def to_data(self) -> dict[str, Any]:
        """Plain data, ready for msgpack."""
        return {"game": self.game, "ranking": list(self.ranking), "summary": self.summary,
                "detail": dict(self.detail)}


@runtime_checkable
class GameState(Protocol):
    """A game in play, as the house drives it. Every rule is the kind's; the house only asks."""

    @property
    def seed(self) -> int:
        """The seed that, with the actions, rebuilds the game exactly."""

    @property
    def turn(self) -> int | None:
        """The seat to act, or None (no deal yet, or the game is over)."""

    @property
    def ply(self) -> int:
        """Actions carried out so far in this game (refusals do not count)."""

    @property
    def deal(self) -> int:
        """The deal (round) in play: 1, 2, ...; the house clears per-deal counts when it changes."""

    @property
    def over(self) -> bool:
        """True once the game has a result (``GameKind.ranking``)."""

    @property
    def opening(self) -> tuple[Any, ...]:
        """The events that began the game (the deal), as ``apply`` returns events; a reply names them."""

    def check(self, seat: int, action: Any) -> str | None:
        """What ``apply`` would do, changing nothing: raises the kind's refusal, else the offence's code or None."""

    def apply(self, seat: int, action: Any) -> tuple[Any, ...]:
        """Carry the action out; the events it caused (each has ``kind`` and ``text()``)."""

    def copy(self) -> GameState:
        """An independent copy (the house stages changes on copies)."""


@runtime_checkable
class Bot(Protocol):
    """A program that plays a seat: it chooses an action from that seat's view alone."""

    def choose(self, view: Any) -> Any:
        """The action it takes from ``view`` (the seat's own, on its turn)."""


@runtime_checkable
class ThinkingBot(Bot, Protocol):
    """A slow bot (``GameKind.slow_bots``): it thinks within ``budget``, which the server's bot worker sets for each
    move (server/thinker.py: a fair share of the worker's time, never more than the bot's own)."""

    #: Seconds a move may take at most; None: no clock (arena runs and tests: a fixed amount of thinking).
    budget: float | None


@runtime_checkable
class GameKind(Protocol):
    """One game's rules as the house plays them. Implemented once per game, in that game's own package."""

    name: str  # the kind's name on the wire, in the journal and on the command line ("peg-board")
    title: str  # its name for a person ("GAME OF 99")
    player_counts: tuple[int, ...]  # the player counts it allows
    modes: tuple[str, ...]  # its table modes ("guarded" refuses offences, "penalty" carries them out)
    options: tuple[OptionSpec, ...]  # further settings a host may choose (empty for a game without any)
    record_magic: str  # the first line of its records (``for_record`` finds the kind by it)
    bots: Mapping[str, Callable[..., Any]]  # bot name -> factory taking ``seed=``, making a ``Bot``
    #: Bots that think too long for the server's loop (they go to a worker process): each factory makes a
    #: ``ThinkingBot``, whose ``budget`` the worker sets for each move.
    slow_bots: frozenset[str]
    standin_bot: str  # the bot that plays for a person who left or is away
    #: bot name -> its 2-player win rate against the kind's anchor bot (0.5 for the anchor itself): the
    #: house turns these into the bots' fixed ratings (server/ratings.py). A kind whose bots' strengths differ
    #: with its settings (Ninety-Nine's rule sets) may also have ``bot_strengths_for(settings)``: see
    #: ``bot_strengths_for`` below.
    bot_strengths: Mapping[str, float]
    refusals: Mapping[str, str]  # the kind's refusal codes -> when each is raised (docs/protocol.md)

    # -- settings and sides --------------------------------------------------------------
    def check_settings(self, players: object, mode: object, options: Mapping[str, object] | None = None) -> Settings:
        """The checked settings; SettingsError naming the field otherwise (options missing take their defaults)."""

    def side_of(self, settings: Settings, seat: int) -> int:
        """The side ``seat`` plays for (its own when everyone plays alone)."""

    # -- play ------------------------------------------------------------------------
    def new_game(self, settings: Settings, seed: int | None = None) -> GameState:
        """A new game (a fresh secret seed when ``seed`` is None)."""

    def view(self, game: GameState | None, settings: Settings, seat: int | None) -> Any:
        """What ``seat`` (None: a spectator) may see; ``game`` None: the table still waits for players."""

    def ranking(self, game: GameState) -> tuple[int, ...]:
        """A finished game's result: each side's place, 0 the best; sides that tied share a place."""

    def summary(self, game: GameState) -> str:
        """A finished game's result in one line of words for a person ("side 1 won with 12-13-14-15-16")."""

    def result_detail(self, game: GameState) -> dict[str, Any]:
        """The kind's own facts of a finished game's result as plain data (empty when it has none)."""

    def clock_action(self, game: GameState) -> Any:
        """The action the turn clock takes for the seat to act when its time is up."""

    def advise(self, view: Any) -> Any | None:
        """The coach's advice (with ``to_data()``) from a seat's own view; None where the kind has no coach."""

    def advice_from_data(self, data: object) -> Any:
        """The coach's advice from plain data (what ``advise`` gave, sent); ValueError otherwise or without a coach."""

    def warm_up(self) -> None:
        """(In the bots' worker process) load what its slow bots need before any move's clock runs."""

    # -- codecs ----------------------------------------------------------------------
    def action_from_data(self, data: object) -> Any:
        """The action plain data describes; ValueError naming the field otherwise (clients are hostile)."""

    def action_to_data(self, action: Any) -> dict[str, Any]:
        """The action as plain data."""

    def parse_action(self, text: str) -> Any:
        """The action its record text names; ValueError otherwise."""

    def action_text(self, action: Any) -> str:
        """The action as its record text (``parse_action`` reads it back): what the journal keeps."""

    def view_to_data(self, view: Any) -> dict[str, Any]:
        """A view as plain data."""

    def view_from_data(self, data: object) -> Any:
        """The view plain data describes; ValueError naming the field otherwise (a client checks what it gets)."""

    def event_for(self, event: Any, seat: int | None) -> dict[str, Any]:
        """An event as plain data, cut down to what ``seat`` (None: a spectator) may see of it."""

    def event_from_data(self, data: object) -> Any:
        """The event ``event_for``'s plain data describes, as the kind's own event class (a card the reader may
        not see is None); ValueError naming the field otherwise (clients read every event once, with this)."""

    # -- records -----------------------------------------------------------------------
    def record_text(self, game: GameState, reveal: bool = True, hints: tuple[tuple[int, int], ...] = ()) -> str:
        """The game's text record (its first line is ``record_magic``); without ``reveal`` nothing secret."""

    def replay_record(self, text: str) -> Iterator[tuple[int, str, GameState]]:
        """Replay a record line by line: (line number, line, game after it); ValueError at a line the rules deny.

        The first step comes before any action (the deal's line), so a replay sees the game as dealt.
        """

    def match_record_text(self, settings: Settings, match: tuple[str, int], names: tuple[str, ...],
                          records: Sequence[str], first_game: int) -> str:
        """A match's record: ``match`` its format (kind, target), ``records`` its finished games' records."""


def bot_strengths_for(kind: GameKind, settings: Settings | None = None) -> Mapping[str, float]:
    """``kind``'s bots' strengths at a table with ``settings``: its own ``bot_strengths_for(settings)`` where it has
    one (a kind whose bots are stronger at some of its rule sets than at others), else ``bot_strengths``; without
    settings (a leaderboard of the whole game) always ``bot_strengths``."""
    per_table = getattr(kind, "bot_strengths_for", None)
    if settings is None or per_table is None:
        return kind.bot_strengths
    strengths: Mapping[str, float] = per_table(settings)
    return strengths


def view_from_trusted(kind: GameKind, data: dict[str, Any]) -> Any:
    """The view in ``data`` as ``kind.view_from_data`` reads it, without its field checks, where ``kind`` can.

    Only for data this very process's server core made (the web seat's, web/seat.py: its ClientCore is
    ``trusted``): a kind may then build its view straight from the fields with its own
    ``view_from_trusted(data)``; one without it (every kind keeps working) checks as ever. Never for what
    came over a network: a client checks everything a server sends (docs/web.md, *What the seat trusts*).
    """
    trusted: Callable[[dict[str, Any]], Any] | None = getattr(kind, "view_from_trusted", None)
    return kind.view_from_data(data) if trusted is None else trusted(data)


def view_data(kind: GameKind, game: GameState | None, settings: Settings, seat: int | None) -> dict[str, Any]:
    """``kind.view_to_data(kind.view(game, settings, seat))``: a seat's view as plain data.

    A kind may have ``view_data(game, settings, seat)`` giving the very same map without making the
    view first (the peg-board game's builds it straight from the game: the server makes one for
    every reply and push, docs/benchmarks.md); one without it (every kind keeps working) goes
    through its view. The server's tables ask it (``server/in_play.py``).
    """
    direct: Callable[..., dict[str, Any]] | None = getattr(kind, "view_data", None)
    return kind.view_to_data(kind.view(game, settings, seat)) if direct is None else direct(game, settings, seat)


_KINDS: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    """Install a kind (a game's package calls this once; a test may install its own). Returns it."""
    if not isinstance(kind, GameKind):
        raise TypeError(f"{kind!r} does not implement GameKind")
    _installed()
    _KINDS[kind.name] = kind
    _in_order()
    _most.clear()
    return kind


def _in_order() -> None:
    # The games of GAMES first and in its order (the default kind first), whichever of their modules was
    # imported first; then kinds a test installed, as they came.
    rank = {module: place for place, module in enumerate(GAMES)}
    ordered = sorted(_KINDS.values(), key=lambda k: rank.get(type(k).__module__, len(GAMES)))
    _KINDS.clear()
    _KINDS.update((k.name, k) for k in ordered)


def unregister(name: str) -> None:
    """Take a kind out again (tests that installed their own)."""
    _KINDS.pop(name, None)
    _most.clear()


#: The modules of the games installed here, each registering its kind when imported: adding a game is
#: adding its module here (docs/kinds.md). The first is the default kind's.
GAMES = ("board99.peg_kind", "board99.ninety_nine.kind")
_loaded = False


def _installed() -> dict[str, GameKind]:
    global _loaded
    if not _loaded:
        # Imported here, not at the top: the games' packages import this module for its types.
        _loaded = True
        for module in GAMES:
            importlib.import_module(module)
    return _KINDS


def names() -> tuple[str, ...]:
    """The installed kinds' names, the peg-board game first."""
    return tuple(_installed())


def get(name: object) -> GameKind:
    """The kind called ``name``; UnknownKind (naming the choices) otherwise."""
    kinds = _installed()
    kind = kinds.get(name) if isinstance(name, str) else None
    if kind is None:
        raise UnknownKind(f"game: {name!r} is not a game here; choose from {', '.join(kinds)}")
    return kind


def refusal_codes() -> dict[str, str]:
    """Every installed kind's refusal codes (the engine codes of docs/protocol.md), the default kind's first."""
    codes: dict[str, str] = {}
    for kind in _installed().values():
        for code, why in kind.refusals.items():
            codes.setdefault(code, why)
    return codes


#: ``most_players``, worked out once per registry (every request naming a seat asks it).
_most: list[int] = []


def most_players() -> int:
    """The largest player count of any installed kind: what bounds a seat number on the wire."""
    if not _most:
        _most.append(max(max(kind.player_counts) for kind in _installed().values()))
    return _most[0]


def for_record(text: str) -> GameKind:
    """The kind whose records begin as ``text`` does; UnknownKind otherwise."""
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    for kind in _installed().values():
        # A kind whose ``replay_record`` also reads its matches' records names their first line (``match_magic``).
        if first in (kind.record_magic, getattr(kind, "match_magic", None)):
            return kind
    raise UnknownKind(f"line 1: {first[:60]!r} is not the first line of any game's record here "
                      f"({', '.join(_installed())})")


class RulesSection(NamedTuple):
    """One section of a game's rules page (the window's F1 screen): a heading and its paragraphs, the game's words."""

    title: str
    paragraphs: tuple[str, ...]


def rules_page(kind: GameKind, settings: Settings) -> tuple[RulesSection, ...] | None:
    """The rules page of a ``kind`` table with ``settings``, from the kind's optional ``rules_page(settings)``.

    None for a kind without one: the window then shows its own rules screen, the peg-board handbook's (the
    default kind's, which has kept that screen since before kinds), so no kind has to write one.
    """
    page = getattr(kind, "rules_page", None)
    return None if page is None else tuple(page(settings))


#: The kind a table is of when nothing says otherwise (requests and journals from before kinds).
DEFAULT = "peg-board"
