"""What the lobby's lists say and save: matches, ratings, finished games, tournaments (pure: no arcade).

lobby_view.py and lobby_panels.py draw these words; the tests read them
directly. Files are written by ``records.write_new`` (never over another).

>>> match_words_of(MatchFormat("first-to", 3), (2, 1))
'First to 3 · 2–1'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import datetime

from board99 import sides_for
from board99.match import MatchFormat
from board99.wire.listings import Pairing, Rating, RecordEntry, Standing, TournamentInfo
from board99.wire.table_info import TableInfo

from .records import file_stem, slug
from .wording import rating_words

#: The create-table "Match" choices in the first row: a single game (rematches as before) or first to N
#: (first to 1 is left out: one game decides it, which a single game already does, less the rematch).
MATCH_CHOICES: tuple[tuple[str, MatchFormat | None], ...] = (
    ("Single game", None),
    ("First to 3", MatchFormat("first-to", 3)),
    ("First to 5", MatchFormat("first-to", 5)),
)
#: The fixed-length matches offered in the second row (board99.match allows 1-9 games; 1 is a single game).
GAMES_CHOICES = tuple(range(2, 10))
#: What the Rated toggle's hint says (the server refuses bots and guests at a rated table: 'rated-table').
RATED_HINT = ("Seats people only:", "no bots, no guests")
#: The standings' columns, with the tie-breaks named in the order they decide (docs/tournaments.md).
STANDING_COLUMNS = ("Place", "Entrant", "Played", "Points", "Buchholz", "Sonneborn-Berger", "Game diff.",
                    "Games won")
LEADERBOARD_COLUMNS = ("#", "Name", "Rating", "Games", "Wins")
RECORD_COLUMNS = ("Table", "Game", "Finished", "Players", "Won by", "")


# -- returning players ----------------------------------------------------------------------------


def name_taken_words(name: str) -> str:
    """What the lobby says when the server answers hello (or a new name) with 'name-taken'."""
    # Short enough for the status line of a 1024-pixel window; the "Use name" button sits beside it.
    return f"Another player already uses the name {name} on this server: type a new name above and press Use name"


def key_problem_words(reason: str) -> str:
    """What the lobby says when the player key file cannot be read: the window plays on as a guest."""
    return f"Playing as a guest (no rating kept): your player key could not be read. {reason}"


# -- matches on the table cards ------------------------------------------------------------------


def match_words_of(fmt: MatchFormat, score: Sequence[int]) -> str:
    """'First to 3 · 2–1', '3 games · 0–0'."""
    text = fmt.text()
    return f"{text[:1].upper()}{text[1:]} · {'–'.join(map(str, score))}"


def match_words(table: TableInfo) -> str | None:
    """A match table's format and score ('First to 3 · 2–1'); None for single games."""
    if table.match is None:
        return None
    return match_words_of(table.match.format, table.match.score(table.sides))


def badges(table: TableInfo) -> tuple[str, ...]:
    """The short marks a card shows beside its name: 'Rated' (a tournament table's seats say whom they keep)."""
    return ("Rated",) if table.rated else ()


# -- the leaderboard and a player's history ---------------------------------------------------------


def rating_text(rating: Rating) -> str:
    """'1520 ± 80'; a bot's fixed rating alone, and a rating below the floor as '< 100' (docs/ratings.md)."""
    if rating.bot:
        return rating_words(rating.rating)
    return f"{rating_words(rating.rating)} ± {rating.spread}"


def rated_name(rating: Rating) -> str:
    """A leaderboard name: bots are marked, their rating never moves."""
    return f"{rating.name} (bot, fixed)" if rating.bot else rating.name


def leaderboard_cells(rank: int, rating: Rating) -> tuple[str, ...]:
    """One leaderboard row: rank, name, rating ± spread, games, wins."""
    return (str(rank), rated_name(rating), rating_text(rating), str(rating.games), str(rating.wins))


def is_me(rating: Rating, me: str) -> bool:
    """The player's own line (names are compared as the server does: case does not matter)."""
    return not rating.bot and rating.name.casefold() == me.strip().casefold()


def history_lines(name: str, rating: Rating, partners: Sequence[tuple[str, int, int]],
                  opponents: Sequence[tuple[str, int, int]]) -> list[str]:
    """A player's history in lines: rating, then partners and opponents with games and wins."""
    lines = [f"{rated_name(rating)} · rating {rating_text(rating)} · {rating.games} rated games, {rating.wins} won"]
    for title, people in (("Partners", partners), ("Opponents", opponents)):
        if people:
            lines.append(f"{title}: " + ", ".join(f"{who} ({games} games, {wins} won)"
                                                   for who, games, wins in people))
        else:
            lines.append(f"{title}: none yet")
    return lines


# -- finished games ----------------------------------------------------------------------------------


def when(timestamp: float) -> str:
    """A finish time as the player's clock shows it: '2025-03-14 20:05'."""
    return datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def side_names(names: Sequence[str | None], players: int) -> list[str]:
    """Each side's people ('Ann & Cy'): partners sit opposite, so seat s plays for side s % sides."""
    sides = sides_for(players)
    out = []
    for side in range(sides):
        out.append(" & ".join(names[s] or "?" for s in range(side, len(names), sides)))
    return out


def record_cells(entry: RecordEntry) -> tuple[str, ...]:
    """One finished game's row: table, game, finished, who played, who won, match/rated marks."""
    sides = side_names(entry.names, entry.players)
    winner = sides[entry.winner] if 0 <= entry.winner < len(sides) else f"side {entry.winner + 1}"
    marks = " · ".join(m for m, on in (("match", entry.match), ("rated", entry.rated)) if on)
    return (entry.table_name, str(entry.game), when(entry.finished), " vs ".join(sides), winner, marks)


def record_title(entry: RecordEntry) -> str:
    """The title a replay of this record is shown under."""
    what = "match" if entry.match else f"game {entry.game}"
    return f"{entry.table_name} · {what} · {when(entry.finished)}"


def record_stem(entry: RecordEntry, match_games: tuple[int, int] | None = None) -> str:
    """The file name (less '.txt') of a listed game, or of its whole match (its first and last game): as the table's."""
    if match_games is None:
        return file_stem(entry.table_name or "table", entry.game)
    return file_stem(entry.table_name or "table", match_games[1], match_games[0])


# -- tournaments -------------------------------------------------------------------------------------


def entrant(tournament: TournamentInfo, number: int | None) -> str:
    """An entrant's people ('Ann & Bo'), by the entrant's number."""
    if number is None or not 0 <= number < len(tournament.entrants):
        return "?"
    return " & ".join(tournament.entrants[number])


def short_id(table: str) -> str:
    """A table id short enough to read aloud: its first four characters (the lobby card shows all of it)."""
    return table if len(table) <= 6 else table[:4] + "…"


def pairing_line(tournament: TournamentInfo, pairing: Pairing) -> str:
    """'Round 2: Ann & Bo (table 3f2a…) vs Cy & Di · 1–0', or a bye."""
    a = entrant(tournament, pairing.a)
    if pairing.b is None or pairing.table is None:
        return f"Round {pairing.round}: {a} has a bye"
    score = f"{pairing.games_a}–{pairing.games_b}"
    end = " · finished" if pairing.over else ""
    return (f"Round {pairing.round}: {a} (table {short_id(pairing.table)}) vs "
            f"{entrant(tournament, pairing.b)} · {score}{end}")


def round_words(tournament: TournamentInfo) -> str:
    """'round 2 of 3 · playing', 'not started', 'finished after 3 rounds'."""
    if tournament.state == "over":
        return f"finished after {tournament.rounds} rounds"
    if tournament.round == 0:
        return f"{tournament.rounds} rounds · not started"
    state = "playing" if tournament.state == "playing" else "between rounds"
    return f"round {tournament.round} of {tournament.rounds} · {state}"


def tournament_heading(tournament: TournamentInfo) -> str:
    """'Spring cup · swiss · first to 3 · round 2 of 3 · playing'."""
    who = "pairs" if tournament.players == 4 else "players"
    return (f"{tournament.name} · {tournament.format} · {tournament.match} · "
            f"{len(tournament.entrants)} {who} · {round_words(tournament)}")


def current_pairings(tournament: TournamentInfo) -> list[Pairing]:
    """The pairings of the round being played (or the last one), where players look for their table."""
    latest = max((p.round for p in tournament.pairings), default=0)
    return [p for p in tournament.pairings if p.round == latest]


def number(value: float) -> str:
    """'2', '2.5': whole scores without a trailing '.0'."""
    return f"{value:g}"


def signed(value: int) -> str:
    """'+3', '0', '−2'."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def standing_cells(standing: Standing) -> tuple[str, ...]:
    """One standings row, in STANDING_COLUMNS' order."""
    return (str(standing.place), " & ".join(standing.names), str(standing.played), number(standing.points),
            number(standing.buchholz), number(standing.sonneborn_berger), signed(standing.game_diff),
            str(standing.games_won))


def standings_csv(tournament: TournamentInfo) -> str:
    """The standings as CSV (plain numbers, a header row naming each tie-break), for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["place", "entrant", "played", "points", "buchholz", "sonneborn_berger", "game_difference",
                     "games_won"])
    for s in tournament.standings:
        writer.writerow([s.place, " & ".join(s.names), s.played, number(s.points), number(s.buchholz),
                         number(s.sonneborn_berger), s.game_diff, s.games_won])
    return out.getvalue()


def standings_stem(tournament: TournamentInfo) -> str:
    """'spring-cup-standings-round-2' (written with '.csv')."""
    return f"{slug(tournament.name)}-standings-round-{tournament.round}"


