"""Fixed lobby data for the window tests: match and rated tables, a leaderboard, finished games, a tournament.

``ListsStandIn`` answers the lobby's list requests at once from this data
(``call`` runs the request on a fake client), so golden screenshots never
depend on a server's random ids or clock.
"""

from __future__ import annotations

from board99.match import GameResult, to_result
from board99.wire.listings import Met, Pairing, PlayerHistory, Rating, RecordEntry, Standing, TournamentInfo
from board99.wire.table_info import MatchInfo
from tests.gui_harness import table_info
from tests.test_gui_golden import StandIn

#: 2025-03-14 19:05 UTC and a day before: the tests set TZ=UTC so the shown times are fixed.
T0 = 1741979100.0


def _seat(name: str | None, colour: str | None, occupant: str | None = "human", **more: object) -> dict:
    return {"colour": colour, "occupant": occupant if name else None, "name": name, "connected": bool(name), **more}


def _results(sides: list[int]) -> tuple:
    return tuple(to_result(GameResult(g + 1, side, side, (1, 2, 3, 4, 5), 1), 2) for g, side in enumerate(sides))


MATCH_TABLES = [
    table_info([_seat("Ann", "red", rating=1612), _seat("Bo", "blue", rating=1540)],
               id="m1", name="Ladder match", players=2, mode="guarded", clock=30.0, state="playing", game=4,
               rated=True, match=MatchInfo("first-to", 3, 1, _results([0, 1, 0]))),
    table_info([_seat("Cy", "green", rating=1480), _seat(None, None), _seat("Di", "green", rating=1455),
                _seat(None, None)],
               id="m2", name="Rated pairs", players=4, mode="penalty", clock=None, state="waiting", rated=True),
    table_info([_seat(None, None, reserved="Ann"), _seat("Eve", "purple", rating=1390)],
               id="3f2a9c01", name="Spring cup R2", players=2, mode="guarded", clock=60.0, state="waiting",
               rated=True, tournament="spring", match=MatchInfo("first-to", 3, 1, ())),
    table_info([_seat("Fay", "orange"), _seat("rulebook", "blue", "bot", rating=1500)],
               id="m4", name="Three games", players=2, mode="guarded", clock=None, state="over", game=3,
               match=MatchInfo("games", 3, 1, _results([1, 0, 1]))),
]

RATINGS = (
    Rating("Ann", 1612, 84, 31, 20),
    Rating("Bo", 1540, 120, 12, 7),
    Rating("search", 1530, 0, 0, 0, bot=True),
    Rating("rulebook", 1500, 0, 0, 0, bot=True),
    Rating("Cy", 1480, 96, 22, 11),
    Rating("Di", 1455, 150, 8, 3),
    Rating("Eve", 1390, 200, 4, 1),
    Rating("random", -451, 0, 0, 0, bot=True),  # its fixed figure, a bound: shown "< 100"
)

RECORDS = (
    RecordEntry("m4", 3, "Three games", 2, "guarded", 1, T0, ("Fay", "rulebook"), True),
    RecordEntry("m1", 3, "Ladder match", 2, "guarded", 0, T0 - 1800, ("Ann", "Bo"), True, True),
    RecordEntry("t7", 1, "Friday four", 4, "penalty", 1, T0 - 86400, ("Ann", "Cy", "Di", "Bo"), False),
    RecordEntry("t8", 2, "Rules practice with a very long table name", 2, "penalty", 0, T0 - 90000,
                ("Eve", "random"), False),
)

HISTORY = PlayerHistory(RATINGS[0], (Met("Di", 5, 4),), (Met("Bo", 12, 8), Met("Cy", 9, 5), Met("rulebook", 6, 3)),
                        RECORDS[1:3])

TOURNAMENT = TournamentInfo(
    "spring", "Spring cup", 2, "swiss", "first to 3", 3, 2, "playing",
    (("Ann",), ("Bo",), ("Cy",), ("Di",), ("Eve",), ("Fay",)),
    (Pairing(1, "aa11bb22", 0, 1, 3, 1, True), Pairing(1, "cc33dd44", 2, 3, 3, 2, True),
     Pairing(1, "ee55ff66", 4, 5, 0, 3, True),
     Pairing(2, "3f2a9c01", 0, 4, 0, 0, False), Pairing(2, "77aa88bb", 5, 2, 2, 1, False),
     Pairing(2, "99cc00dd", 3, 1, 1, 1, False)),
    (Standing(1, 0, ("Ann",), 1, 1.0, 1.0, 1.0, 2, 3), Standing(2, 5, ("Fay",), 1, 1.0, 0.0, 0.0, 3, 3),
     Standing(3, 2, ("Cy",), 1, 1.0, 0.0, 0.0, 1, 3), Standing(4, 3, ("Di",), 1, 0.0, 1.0, 0.0, -1, 2),
     Standing(5, 1, ("Bo",), 1, 0.0, 1.0, 0.0, -2, 1), Standing(6, 4, ("Eve",), 1, 0.0, 1.0, 0.0, -3, 0)),
)

RECORD_TEXT = "# GAME OF 99 record, board99 format 1\n(a stand-in record)\n"


class FakeClient:
    """The client library's list calls, answered from the fixed data."""

    name = "Ann"

    def leaderboard(self, offset: int = 0, limit: int = 100) -> tuple[tuple[Rating, ...], int]:
        return RATINGS[offset:offset + limit], len(RATINGS)

    def list_records(self, offset: int = 0, limit: int = 100, player: str | None = None):
        return RECORDS[offset:offset + limit], len(RECORDS)

    def player_history(self, name: str) -> PlayerHistory:
        return HISTORY._replace(rating=next(r for r in RATINGS if r.name == name))

    def tournaments(self) -> tuple[TournamentInfo, ...]:
        return (TOURNAMENT,)

    def fetch_record(self, table: str, game: int | None = None, match: bool = False) -> str:
        self.fetched = (table, game, match)
        return RECORD_TEXT

    def hello(self) -> dict:
        if self.name == "Bo":
            from board99.client.net import ServerError

            raise ServerError("name-taken", "name: another player already uses the name 'Bo' on this server")
        return {}


class ListsStandIn(StandIn):
    """A session that answers every ``call`` at once from the fixed data (as the network thread would)."""

    name = "Ann"

    def __init__(self) -> None:
        from board99.client.gui.messages import Failed, Replied

        self._replied, self._failed = Replied, Failed
        self.client = FakeClient()
        self.out: list = []
        self.created: list = []

    def call(self, op: str, run) -> None:
        try:
            self.out.append(self._replied(op, run(self.client)))
        except Exception as exc:
            self.out.append(self._failed(op, getattr(exc, "code", type(exc).__name__), str(exc)))

    def create_table(self, *args, **kwargs) -> None:
        self.created.append((args, kwargs))

    def kept(self) -> dict:
        return {}

    def drain(self) -> list:
        out, self.out = self.out, []
        return out
