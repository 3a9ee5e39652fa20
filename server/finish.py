"""A game's end: its record, its result in the match, the players' ratings, and what comes next.

Everything a finished game changes is journaled in one transaction
(``Journal.save_finished``) and only then taken into memory: the match's
score, the registry's ratings, the ratings shown at the table. If the journal
fails, memory is left as it was: the winning action itself is journaled, so
a restart finishes the game the same way (``Table.unfinished``).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from board99.match import result_of

from .journal import finished_record
from .players import Player
from .ratings import Skill, rate
from .state import State
from .tables import Table

log = logging.getLogger("board99.server")


def rated_players(state: State, t: Table, winner: int) -> list[Player]:
    """The rated table's players with their ratings after ``winner`` won (empty for an unrated table)."""
    if not t.rated:
        return []
    ids = [pid for _, pid in t.played_by]
    if any(pid is None or pid not in state.players.by_id for pid in ids):
        log.warning("event=unrated table=%s game=%d why=seat-without-player", t.id, t.game_no)
        return []
    people = [state.players.by_id[pid] for pid in ids if pid is not None]
    sides = t.game.sides
    teams: list[list[Player]] = [[p for seat, p in enumerate(people) if seat % sides == side] for side in range(sides)]
    skills: list[list[Skill]] = rate([[p.skill for p in team] for team in teams], winner)
    return [replace(p, skill=skill, games=p.games + 1, wins=p.wins + (side == winner))
            for side, team in enumerate(teams) for p, skill in zip(team, skills[side])]


def finish_game(state: State, t: Table) -> bool:
    """Journal the end of the game at ``t`` (over in memory already), then adopt its consequences.

    True if the journal took it. A match table with nobody but bots at it starts its next game.
    """
    result = result_of(t.game, t.game_no)
    players = rated_players(state, t, result.side)
    # If it fails, the action itself is journaled: a restart replays it and finishes the game's bookkeeping.
    if not state.journaled("record", state.journal.save_finished, t, finished_record(t), players, table=t):
        return False
    t.unfinished = False
    for p in players:
        state.players.adopt(p)
    shown = {p.id: p.skill.shown for p in players}
    for s in t.seats:
        if s.player in shown:
            s.rating = shown[s.player]
    if t.match is not None:
        t.results.append(result)
    if players:
        log.info("event=rated table=%s game=%d %s", t.id, t.game_no,
                 " ".join(f"{p.name}={p.skill.shown}" for p in players))
    state.match_over(t)
    return True


def next_game_by_itself(state: State, t: Table) -> None:
    """A match table with only bots at it plays its next game at once (people ask with ``rematch``)."""
    staged = t.staged()
    if staged.start_rematch_if_ready(state.now):
        state.commit(t, staged, "rematch", dealt=True)
        log.info("event=next-game table=%s game=%d", t.id, t.game_no)
