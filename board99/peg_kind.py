"""The peg-board GAME OF 99 as a game kind: the house's one door to ``board99.Game`` and its companions.

Every other module of the house (server, wire, journal, client library) reaches
the peg-board game through this object (``board99.kinds.get("peg-board")``).

>>> from board99.kinds import get
>>> peg = get("peg-board")
>>> settings = peg.check_settings(2, "guarded")
>>> game = peg.new_game(settings, seed=7)
>>> view = peg.view(game, settings, 0)
>>> view.turn in (0, 1), len(view.hand_sizes), peg.view_from_data(peg.view_to_data(view)) == view
(True, 2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from operator import methodcaller
from typing import Any

from . import kinds
from .actions import Action, Discard, Draw, from_data, parse_action, to_data
from .bots import BOTS
from .coach import Advice, advise
from .errors import CODES
from .events import Event, seen_by
from .events import from_data as event_from_data
from .game import Game
from .match import MatchRecord, result_of
from .match_format import MatchFormat
from .record import MAGIC, Record
from .render import board_text, status_text
from .settings import MODES, PLAYER_COUNTS, check_settings, sides_for
from .view import OCCUPANT, Board, SeatView


class PegBoard:
    """The 1963 Percepta GAME OF 99 (docs/rules.md)."""

    name = "peg-board"
    title = "GAME OF 99"
    player_counts = PLAYER_COUNTS
    modes = MODES
    options: tuple[kinds.OptionSpec, ...] = ()
    record_magic = MAGIC
    bots: Mapping[str, Callable[..., Any]] = BOTS
    slow_bots = frozenset({"search", "fastsearch", "infer"})
    standin_bot = "rulebook"
    #: Measured 2-player win rates against the rulebook bot (docs/benchmarks.md, bots): search beat rulebook
    #: in 752 of 1,000 games (0.2 s a move); rulebook beat random in 1,000 of 1,000, taken at its 95% lower
    #: bound, 99.6%, since 100% has no finite gap. ``python bench/bot_ratings.py`` measures them again.
    bot_strengths: Mapping[str, float] = {"search": 0.752, "rulebook": 0.5, "random": 1 - 0.996}
    refusals: Mapping[str, str] = CODES

    def check_settings(self, players: object, mode: object,
                       options: Mapping[str, object] | None = None) -> kinds.Settings:
        """Players 2, 3, 4 or 6 and a mode; the peg-board game has no further options."""
        try:
            check_settings(players, mode)
        except ValueError as exc:
            field, _, why = str(exc).partition(": ")
            raise kinds.SettingsError(field, why) from None
        if options:
            name = next(iter(options))
            raise kinds.SettingsError(name, f"the GAME OF 99 has no option {name!r}")
        assert isinstance(players, int) and isinstance(mode, str)
        return kinds.Settings(players, mode, (), sides_for(players))

    def side_of(self, settings: kinds.Settings, seat: int) -> int:
        """Partners sit opposite: seat ``s`` plays for side ``s % sides``."""
        return seat % settings.sides

    def new_game(self, settings: kinds.Settings, seed: int | None = None) -> Game:
        """A new game (a fresh secret seed when ``seed`` is None)."""
        return Game(settings.players, settings.mode, seed=seed)

    def view(self, game: kinds.GameState | None, settings: kinds.Settings, seat: int | None) -> SeatView:
        """What ``seat`` may see; before the deal, nothing dealt."""
        if game is None:
            return SeatView.before_deal(settings.players, settings.mode, seat)
        assert isinstance(game, Game)
        return game.view(seat)

    def position_text(self, game: kinds.GameState) -> str:
        """The position as a spectator sees it, drawn for a terminal (`board99 replay` prints it; optional)."""
        assert isinstance(game, Game)
        return f"{board_text(game.view())}\n{status_text(game.view())}"

    def ranking(self, game: kinds.GameState) -> tuple[int, ...]:
        """The winning side first, every other side second (the game has one winner; ties are replayed)."""
        assert isinstance(game, Game) and game.winner is not None
        return tuple(0 if side == game.winner else 1 for side in range(game.sides))

    def summary(self, game: kinds.GameState) -> str:
        """'side 1 won with 12-13-14-15-16'."""
        assert isinstance(game, Game) and game.winning_line is not None
        return f"side {game.winner} won with {'-'.join(map(str, game.winning_line))}"

    def result_detail(self, game: kinds.GameState) -> dict[str, Any]:
        """The seat that made the line, the line, and how many deals it took (``board99.match.GameResult``)."""
        assert isinstance(game, Game)
        won = result_of(game, 0)
        return {"seat": won.seat, "line": list(won.line), "deals": won.deals}

    def advise(self, view: Any) -> Any:
        """``board99.coach.advise``."""
        assert isinstance(view, SeatView)
        return advise(view)

    def advice_from_data(self, data: object) -> Any:
        """``board99.coach.Advice.from_data``."""
        return Advice.from_data(data)

    def warm_up(self) -> None:
        """Load the fastsearch bot's compiled playouts."""
        from .bots.fast_search import engine

        engine()

    def clock_action(self, game: kinds.GameState) -> Action:
        """A draw if allowed, else discard the highest card (docs/server.md, turn clock)."""
        assert isinstance(game, Game)
        seat = game.turn
        assert seat is not None
        if game.view(seat).can_draw:
            return Draw()
        return Discard(max(game.hand(seat)))

    #: ``board99.from_data`` itself (a call less on every ``act``).
    action_from_data = staticmethod(from_data)

    #: ``board99.to_data`` itself (a call less on every push of an action).
    action_to_data = staticmethod(to_data)

    def parse_action(self, text: str) -> Action:
        """``board99.parse_action``."""
        return parse_action(text)

    #: ``Action.text()``: 'play 12 on 57', 'draw', 'discard 12' (a C call of the method: the journal writes
    #: every action's text).
    action_text = staticmethod(methodcaller("text"))

    def view_to_data(self, view: Any) -> dict[str, Any]:
        """``SeatView.to_data``."""
        assert isinstance(view, SeatView)
        return view.to_data()

    def view_data(self, game: kinds.GameState | None, settings: kinds.Settings, seat: int | None) -> dict[str, Any]:
        """``view_to_data(view(game, settings, seat))``, the same map, without the view (``Game.view_data``)."""
        if game is None:
            return self.view(None, settings, seat).to_data()
        assert isinstance(game, Game)
        return game.view_data(seat)

    def view_from_data(self, data: object) -> SeatView:
        """``SeatView.from_data``."""
        return SeatView.from_data(data)

    def view_from_trusted(self, data: dict[str, Any]) -> SeatView:
        """The view ``view_from_data`` reads from ``data``, without its checks: only for data this process's own
        server core made (``kinds.view_from_trusted``; the web seat's ClientCore). Lists become tuples as there."""
        d = data
        line, cut, hand, raw = d["line"], d["cut"], d["hand"], d["board"]
        return SeatView(
            d["seat"], d["side"], d["players"], d["sides"], d["mode"], d["deal"], d["ply"], d["turn"], d["winner"],
            None if line is None else tuple(line), None if cut is None else tuple(cut),
            Board.of(map(OCCUPANT.__getitem__, raw), raw), None if hand is None else tuple(hand),
            tuple(d["hand_sizes"]), tuple(map(tuple, d["discards"])), d["deck_size"], tuple(d["skips"]),
            tuple(d["shown"]))

    #: ``board99.seen_by`` itself, not a method calling it: the server calls it for every event it sends.
    event_for = staticmethod(seen_by)

    def event_from_data(self, data: object) -> Event:
        """``board99.events.from_data``."""
        return event_from_data(data)

    def record_text(self, game: kinds.GameState, reveal: bool = True,
                    hints: tuple[tuple[int, int], ...] = ()) -> str:
        """``Record.of(game).dumps()``."""
        assert isinstance(game, Game)
        return Record.of(game, reveal=reveal, hints=hints).dumps()

    def replay_record(self, text: str) -> Iterator[tuple[int, str, Game]]:
        """``Record.loads(text).steps()``."""
        return Record.loads(text).steps()


    def match_record_text(self, settings: kinds.Settings, match: tuple[str, int], names: tuple[str, ...],
                          records: Sequence[str], first_game: int) -> str:
        """``board99.match.MatchRecord``: its header, then each game's record."""
        games = [Record.loads(text) for text in records]
        record = MatchRecord(settings.players, settings.mode, MatchFormat(*match), names, games, first_game)
        results = [result_of(g.replay(), first_game + n) for n, g in enumerate(games)]
        return record.dumps(results)


#: The one instance, installed in the registry.
PEG_BOARD = kinds.register(PegBoard())

__all__ = ["PEG_BOARD", "PegBoard", "Event"]
