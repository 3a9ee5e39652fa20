"""Ninety-Nine as a board99 game kind: the house's one door to this game's rules.

Installed in the default registry (``board99.kinds.GAMES`` names this module;
the window's table for it is client/gui/ninety_table.py).

>>> from board99.kinds import GameKind
>>> kind = NINETY_NINE
>>> isinstance(kind, GameKind), kind.name
(True, 'ninety-nine')
>>> settings = kind.check_settings(4, "guarded", {"rules": "glengariff"})
>>> settings.sides, settings.option("rules"), settings.option("tokens")
(4, 'glengariff', 'rule')
>>> game = kind.new_game(settings, seed=11)
>>> kind.view_from_data(kind.view_to_data(kind.view(game, settings, 2))) == kind.view(game, settings, 2)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .. import kinds
from .actions import Action, Draw, Play, from_data, parse_action, to_data
from .bots import BOTS
from .errors import CODES
from .events import Event, seen_by
from .events import from_data as event_from_data
from .game import MODES, Game
from .record import MAGIC, MATCH_MAGIC, NinetyRecord, replay_file
from .rules import HOUSE_OPTIONS, OPTION_SPECS, Table
from .search import SearchBot
from .view import NinetyView, view_of

PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4, 5, 6)


def rate_from_3(share: float) -> float:
    """The 2-player win rate against a bot that a bot beating two of them ``share`` of the time has, by the odds of
    the rating model (Plackett-Luce: the winner of three is picked with odds r : 1 : 1, so r = 2 share / (1 - share),
    and one of two with r : 1)."""
    odds = 2 * share / (1 - share)
    return odds / (odds + 1)


#: Measured per rule set (``NinetyNine.strengths_by_rules``; docs/benchmarks.md, Ninety-Nine): search won 121 of
#: 200 against sound at Glengariff, 100 of 200 at Convention, 145 of 200 at Tokens, and 161 of 400 against two sound
#: bots at Three-card; sound beat random in 552, 827 and 795 of 1,000 head to head and 714 of 1,000 against two.
STRENGTHS: dict[str, dict[str, float]] = {
    "glengariff": {"sound": 0.5, "random": round(1 - 0.552, 3), "search": 0.605},
    "convention": {"sound": 0.5, "random": round(1 - 0.827, 3), "search": 0.5},
    "tokens": {"sound": 0.5, "random": round(1 - 0.795, 3), "search": 0.725},
    "three-card": {"sound": 0.5, "random": round(1 - rate_from_3(0.714), 3), "search": round(rate_from_3(161 / 400), 3)},
}


class NinetyNine:
    """The counting card game Ninety-Nine, in the four rule sets of the seed documents (docs/ninety-nine.md)."""

    name = "ninety-nine"
    title = "Ninety-Nine"
    player_counts = PLAYER_COUNTS
    modes = MODES
    options: tuple[kinds.OptionSpec, ...] = OPTION_SPECS
    record_magic = MAGIC
    match_magic = MATCH_MAGIC  # the first line of its matches' records (``kinds.for_record`` finds it by it too)
    bots: Mapping[str, Callable[..., Any]] = {**BOTS, "search": SearchBot}
    #: The search bot plays out a few hundred deals a move: it thinks in the server's bot worker.
    slow_bots: frozenset[str] = frozenset({"search"})
    standin_bot = "sound"
    #: Per rule set, each bot's 2-player win rate against the sound bot, the anchor (the house rates the bots from
    #: them: server/ratings.py). Measured in the arena (docs/benchmarks.md, Ninety-Nine): search and random head to
    #: head against sound where the rule set allows two players; Three-card (3 to 6) from the 3-player games, one bot
    #: against two sound bots, turned into a 2-player rate by the rating model's own odds (``rate_from_3``).
    strengths_by_rules: Mapping[str, Mapping[str, float]] = STRENGTHS
    #: The whole game's figures (its leaderboard, and a table with no rule set named): the mean over the rule sets.
    bot_strengths: Mapping[str, float] = {
        bot: round(sum(s[bot] for s in STRENGTHS.values()) / len(STRENGTHS), 3) for bot in ("sound", "random", "search")}
    refusals: Mapping[str, str] = CODES

    def bot_strengths_for(self, settings: kinds.Settings) -> Mapping[str, float]:
        """The bots' strengths at a table of these settings: its rule set's (``kinds.bot_strengths_for``)."""
        return self.strengths_by_rules[settings.option("rules")]

    # -- settings and sides --------------------------------------------------------------

    def check_settings(self, players: object, mode: object,
                       options: Mapping[str, object] | None = None) -> kinds.Settings:
        """Players 2-6 (as the rule set allows), a mode, and the house options checked against the rule set."""
        if type(players) is not int or players not in PLAYER_COUNTS:
            raise kinds.SettingsError("players", f"{players!r} is not allowed; Ninety-Nine is for 2 to 6 players")
        if type(mode) is not str or mode not in MODES:
            raise kinds.SettingsError("mode", f"{mode!r} is not a table mode; use 'guarded' or 'penalty'")
        if options is not None and not isinstance(options, Mapping):
            raise kinds.SettingsError("options", "expected a map of option names to values")
        table = Table.build(players, options)
        return kinds.Settings(players, mode, table.options, players)

    def side_of(self, settings: kinds.Settings, seat: int) -> int:
        """Everyone plays alone: a seat is its own side."""
        return seat

    # -- play ----------------------------------------------------------------------------

    def table(self, settings: kinds.Settings) -> Table:
        """The rules a table with these settings plays by."""
        return Table.build(settings.players, dict(settings.options))

    def new_game(self, settings: kinds.Settings, seed: int | None = None) -> Game:
        """A new game (a fresh secret seed when ``seed`` is None)."""
        return Game(settings.players, settings.mode, self.table(settings), seed=seed)

    def view(self, game: kinds.GameState | None, settings: kinds.Settings, seat: int | None) -> NinetyView:
        """What ``seat`` may see; before the deal, nothing dealt."""
        if game is None:
            return NinetyView.before_deal(settings.players, settings.mode, self.table(settings), seat)
        assert isinstance(game, Game)
        return view_of(game, seat)

    def position_text(self, game: kinds.GameState) -> str:
        """The table as a spectator sees it, in lines of words for a terminal (``board99 replay`` prints it)."""
        assert isinstance(game, Game)
        return view_of(game, None).text()

    def ranking(self, game: kinds.GameState) -> tuple[int, ...]:
        """Finishing order: the winner 0, the last player out 1, ... the first out ``players - 1``."""
        assert isinstance(game, Game) and game.winner is not None
        places = [0] * game.players
        for place, seat in enumerate(reversed(game.places), start=1):
            places[seat] = place
        return tuple(places)

    def summary(self, game: kinds.GameState) -> str:
        """'S2 won; then S0, S3, S1' (the others in finishing order)."""
        assert isinstance(game, Game) and game.winner is not None
        rest = ", ".join(f"S{s}" for s in reversed(game.places))
        return f"S{game.winner} won; then {rest}"

    def result_detail(self, game: kinds.GameState) -> dict[str, Any]:
        """The finishing order (winner first) and how many deals the game took."""
        assert isinstance(game, Game) and game.winner is not None
        return {"order": [game.winner, *reversed(game.places)], "deals": game.deal}

    def rules_page(self, settings: kinds.Settings) -> tuple[kinds.RulesSection, ...]:
        """This table's rules for the window's rules screen, every line in the engine's own words: the rule set as
        the table plays it (``Table.describe``), the house options it changed, and what its mode does."""
        table = self.table(settings)
        rs = table.rule_set
        rules = table.describe()
        changed = [(name, value) for name, value in table.changed() if name != "rules"]
        labels = {o.name: o for o in HOUSE_OPTIONS}
        house = tuple(f"{labels[name].label}: {value} ({labels[name].help})" for name, value in changed) or (
            f"none: this table plays the {rs.title} rules as document {rs.source} has them",)
        if settings.mode == "guarded":
            mode = ("A guarded table refuses what the rules do not allow, with the rule in words:",
                    *(f"• {CODES[code]}" for code in ("over-99", "wrong-total", "below-zero", "draw-automatic")
                      if code != "below-zero" or not table.below_zero))
        else:
            wrong = " and costs a token (a house rule)" if table.wrong_total == "token" else ""
            mode = ("A penalty table lets a player break the rules of conduct the documents name, and applies what "
                    "they say happens:",
                    f"• {CODES['say-total']}; a wrong total is corrected for everyone to see{wrong}",
                    "• drawing is a step of its own (D): a draw not made in time is lost, as the rule above says",
                    "• a card that takes the total over 99 is not refused: the player "
                    + ("loses a token" if table.tokens else "is out of the game"))
        return (kinds.RulesSection(f"{rs.title} rules ({rs.source}): this table", tuple(rules[1:])),
                kinds.RulesSection("House options at this table", house),
                kinds.RulesSection(f"A {settings.mode} table", mode))

    def advise(self, view: Any) -> None:
        """This game has no coach yet."""
        return None

    def advice_from_data(self, data: object) -> Any:
        """This game has no coach yet: nothing is advice."""
        raise ValueError("advice: Ninety-Nine has no coach")

    def warm_up(self) -> None:
        """Its bots need nothing loaded."""

    def clock_action(self, game: kinds.GameState) -> Action:
        """What the stand-in bot would do for the seat out of time, from its own view: a proper action (the
        total said, the draw taken). Not the card that keeps the total lowest: a table of players who all let
        their clocks run (5 at Convention) then never ends, the total held down by minus tens for ever."""
        assert isinstance(game, Game) and game.turn is not None
        action: Action = self.bots[self.standin_bot](seed=game.ply).choose(view_of(game, game.turn))
        return action

    # -- codecs --------------------------------------------------------------------------

    def action_from_data(self, data: object) -> Action:
        """``actions.from_data``."""
        return from_data(data)

    def action_to_data(self, action: Any) -> dict[str, Any]:
        """``actions.to_data``."""
        return to_data(action)

    def parse_action(self, text: str) -> Action:
        """``actions.parse_action``."""
        return parse_action(text)

    def action_text(self, action: Any) -> str:
        """The action's record text: 'play 10H as -10 says 89', 'draw'."""
        assert isinstance(action, (Play, Draw))
        return action.text()

    def view_to_data(self, view: Any) -> dict[str, Any]:
        """``NinetyView.to_data``."""
        assert isinstance(view, NinetyView)
        return view.to_data()

    def view_from_data(self, data: object) -> NinetyView:
        """``NinetyView.from_data``."""
        return NinetyView.from_data(data)

    def view_from_trusted(self, data: dict[str, Any]) -> NinetyView:
        """The view ``view_from_data`` reads from ``data``, without its checks: only for data this process's own
        server core made (``kinds.view_from_trusted``; the web seat's ClientCore). Lists become tuples as there."""
        d = data
        hand = d["hand"]
        return NinetyView(
            d["seat"], d["players"], d["mode"], tuple((p[0], p[1]) for p in d["options"]), d["deal"], d["ply"],
            d["turn"], d["dealer"], d["direction"], d["total"], d["top"], d["pile_size"], d["stock_size"],
            None if hand is None else tuple(hand), tuple(d["hand_sizes"]), tuple(d["tokens"]), tuple(d["out"]),
            tuple(d["sat_out"]), tuple(d["places"]), d["winner"], d["chain"], d["owed"], tuple(d["pending"]))

    def event_for(self, event: Any, seat: int | None) -> dict[str, Any]:
        """``events.seen_by``: a drawn card only for its drawer."""
        return dict(seen_by(event, seat))

    def event_from_data(self, data: object) -> Event:
        """``events.from_data``: a drawn card another seat may not see is None."""
        return event_from_data(data)

    # -- records -----------------------------------------------------------------------------

    def record_text(self, game: kinds.GameState, reveal: bool = True,
                    hints: tuple[tuple[int, int], ...] = ()) -> str:
        """The game's record (this game has no coach, so no hints)."""
        assert isinstance(game, Game)
        return NinetyRecord.of(game, reveal=reveal).dumps()

    def replay_record(self, text: str) -> Iterator[tuple[int, str, Game]]:
        """A game's or a match's record replayed line by line (``record.replay_file``), numbered as in the file."""
        return replay_file(text)


    def match_record_text(self, settings: kinds.Settings, match: tuple[str, int], names: tuple[str, ...],
                          records: Sequence[str], first_game: int) -> str:
        """A match's record: its header (format, players, first game's number), then each game's record."""
        kind, target = match
        length = f"first to {target}" if kind == "first-to" else f"{target} games"
        head = [MATCH_MAGIC, f"match: {length}", f"players: {settings.players}", f"mode: {settings.mode}",
                *(f"S{seat}: {name}" for seat, name in enumerate(names)), f"first game: {first_game}", ""]
        return "\n".join(head) + "\n" + "\n".join(records)


#: The one instance, installed in the registry (``board99.kinds.GAMES`` imports this module).
NINETY_NINE = NinetyNine()
kinds.register(NINETY_NINE)
_AS_KIND: kinds.GameKind = NINETY_NINE  # mypy checks ``NinetyNine`` against the protocol, method by method, here

__all__ = ["NINETY_NINE", "NinetyNine", "PLAYER_COUNTS"]
