"""A game's end: its record, its result in the match, the players' ratings, and what comes next.

Everything a finished game changes is journaled in one transaction
(``Journal.save_finished``) and only then taken into memory: the match's
score, the registry's ratings, the ratings shown at the table. If the journal
fails, memory is left as it was: the winning action itself is journaled, so
a restart finishes the game the same way (``Table.unfinished``).
"""

from __future__ import annotations

import logging

from .journal import finished_record
from .players import Player, Standing
from .ratings import Skill, rate
from .state import State
from .tables import Table

log = logging.getLogger("board99.server")


def rated_players(state: State, t: Table, ranking: tuple[int, ...]) -> list[Player]:
    """The rated table's players with their ratings after the sides placed as ``ranking`` says (empty for an
    unrated table). Each side's players are the seats its kind says play for it (``side_of``)."""
    if not t.rated:
        return []
    ids = [pid for _, pid in t.played_by]
    if any(pid is None or pid not in state.players.by_id for pid in ids):
        log.warning("event=unrated table=%s game=%d why=seat-without-player", t.id, t.game_no)
        return []
    people = [state.players.by_id[pid] for pid in ids if pid is not None]
    side_of = [s.side for s in t.seats]  # the kind's side_of, asked when the seats were made
    teams: list[list[Player]] = [[p for seat, p in enumerate(people) if side_of[seat] == side]
                                 for side in range(t.sides)]
    game = t.kind.name  # each player's rating in this game kind moves
    skills: list[list[Skill]] = rate([[p.standing(game).skill for p in team] for team in teams], ranking)
    return [p.with_standing(game, Standing(skill, p.standing(game).games + 1,
                                           p.standing(game).wins + (ranking[side] == 0)))
            for side, team in enumerate(teams) for p, skill in zip(team, skills[side])]


def finish_game(state: State, t: Table) -> bool:
    """Journal the end of the game at ``t`` (over in memory already), then adopt its consequences.

    True if the journal took it. A match table with nobody but bots at it starts its next game.
    """
    result = t.result()
    players = rated_players(state, t, result.ranking)
    # If it fails, the action itself is journaled: a restart replays it and finishes the game's bookkeeping.
    if not state.journaled("record", state.journal.save_finished, t, finished_record(t), players, table=t):
        return False
    t.unfinished = False
    for p in players:
        state.players.adopt(p)
    shown = {p.id: p.standing(t.kind.name).skill.shown for p in players}
    for s in t.seats:
        if s.player in shown:
            s.rating = shown[s.player]
    if t.match is not None:
        t.results.append(result)
    if players:
        log.info("event=rated table=%s game=%d %s", t.id, t.game_no,
                 " ".join(f"{p.name}={p.standing(t.kind.name).skill.shown}" for p in players))
    state.match_over(t)
    return True


def finish_if_decided(state: State, t: Table) -> bool:
    """End a game its deal alone decided (a Ninety-Nine player with no card to play at the first turn, and
    nobody else left): True if it did. No action will come to end it, so it ends here, as an action would.

    The table was journaled as playing: if the end cannot be journaled, a restart finds the game over and
    finishes it (``Table.unfinished``).
    """
    if t.state != "playing" or not t.game.over:
        return False
    t.end_game()
    finish_game(state, t)
    return True


def next_game_by_itself(state: State, t: Table) -> None:
    """A match table with only bots at it plays its next game at once (people ask with ``rematch``)."""
    staged = t.staged()
    if staged.start_rematch_if_ready(state.now):
        state.commit(t, staged, "rematch", dealt=True)
        log.info("event=next-game table=%s game=%d", t.id, t.game_no)
