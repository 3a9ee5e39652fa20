"""Ratings: openskill's Plackett-Luce model (Weng-Lin), which rates partnerships as teams and free-for-alls alike.

A rated game's sides are teams, ranked by the game kind's result (``GameKind.ranking``):
each side's place, sides that tied sharing one (the peg-board game has one winner and the
other sides share second place; a finishing order rates each place). A player has a rating
in each game kind (the journal keeps them per kind). Each person starts at ``MU`` with a wide ``SIGMA``; the lobby shows the
mean (``rating``) and two standard deviations (``spread``), and ranks the
leaderboard by ``mean - 3 sd``, so a newcomer with a lucky first game does not
top it. The bots never change: their ratings are fixed per kind (per rule set where the kind says, shown at
a table of that rule set), from the win rates the kind measured in its arena (``GameKind.bot_strengths``,
``kinds.bot_strengths_for``; for the peg-board game ``bench/bot_ratings.py``, and docs/ratings.md gives the
figures and the reasoning; Ninety-Nine's in docs/benchmarks.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from openskill.models import PlackettLuce

from board99 import kinds

#: A newcomer's mean and uncertainty, the skill gap that makes one win about 76% likely (BETA)
#: and the drift added before each game so that a rating keeps moving a little (TAU).
MU, SIGMA, BETA, TAU = 1500.0, 500.0, 250.0, 5.0

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


class Skill(NamedTuple):
    """A rating: the mean skill and how unsure the model still is of it."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> int:
        """What the lobby shows as the rating: the mean, rounded."""
        return round(self.mu)

    @property
    def spread(self) -> int:
        """Two standard deviations, rounded: the rating is very likely within ``shown ± spread``."""
        return round(2 * self.sigma)

    @property
    def rank_key(self) -> float:
        """What the leaderboard sorts by: a conservative estimate (mean less three standard deviations)."""
        return self.mu - 3 * self.sigma


def rate(sides: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """Each side's players' new skills after a game among ``sides`` (in side order) ended in ``ranks``.

    ``ranks[i]`` is side ``i``'s place, 0 the best; sides that tied share a place.

    >>> new = rate([[Skill()], [Skill()]], ranks=(0, 1))
    >>> new[0][0].mu > 1500 > new[1][0].mu
    True
    >>> third, first, second = rate([[Skill()], [Skill()], [Skill()]], ranks=(2, 0, 1))
    >>> first[0].mu > second[0].mu > third[0].mu
    True
    >>> tied_a, tied_b, last = rate([[Skill()], [Skill()], [Skill()]], ranks=(0, 0, 1))
    >>> round(tied_a[0].mu, 6) == round(tied_b[0].mu, 6) > 1500 > last[0].mu
    True
    """
    teams = [[MODEL.create_rating([s.mu, s.sigma]) for s in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(place + 1) for place in ranks])
    return [[Skill(r.mu, r.sigma) for r in team] for team in rated]


def gap_for(win_rate: float) -> float:
    """The difference of means at which the model expects one player to beat another ``win_rate`` of the time.

    Plackett-Luce with two players, both ratings certain: P = 1 / (1 + exp(-gap / c)), c = sqrt(2) BETA.

    >>> round(gap_for(0.5)), round(gap_for(0.752))
    (0, 392)
    """
    c = math.sqrt(2) * BETA
    return c * math.log(win_rate / (1 - win_rate))


@cache
def _bot_ratings(kind: str, strengths: tuple[tuple[str, float], ...]) -> dict[str, Skill]:
    return {bot: Skill(MU + gap_for(rate), 0.0) for bot, rate in strengths}


def bot_ratings(kind: kinds.GameKind, settings: kinds.Settings | None = None) -> dict[str, Skill]:
    """A kind's bots' fixed ratings. The kind's anchor bot (win rate 0.5) sits at a newcomer's MU (for the
    peg-board game the rulebook bot: a person who plays by the rulebook's hints is where everyone starts);
    the others at the gap their measured 2-player win rates against it give (``GameKind.bot_strengths``).
    With a table's ``settings``, the ratings at that table (``kinds.bot_strengths_for``: Ninety-Nine's bots are
    rated per rule set); without, the kind's own figures (its leaderboard). People's ratings stay one per kind.
    """
    return _bot_ratings(kind.name, tuple(kinds.bot_strengths_for(kind, settings).items()))


def all_bot_ratings() -> dict[str, Skill]:
    """Every installed kind's bots' fixed ratings by name (a name two kinds share: the first kind's)."""
    merged: dict[str, Skill] = {}
    for name in kinds.names():
        for bot, skill in bot_ratings(kinds.get(name)).items():
            merged.setdefault(bot, skill)
    return merged


#: The default kind's bots' fixed ratings (board99.kinds.DEFAULT), by bot name.
BOT_RATINGS: dict[str, Skill] = bot_ratings(kinds.get(kinds.DEFAULT))
