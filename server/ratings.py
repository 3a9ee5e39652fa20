"""Ratings: openskill's Plackett-Luce model (Weng-Lin), which rates partnerships as teams.

A rated game's sides are teams; the winning side ranks first and every other
side shares second place (a game of 99 has one winner and no order among the
rest). Each person starts at ``MU`` with a wide ``SIGMA``; the lobby shows the
mean (``rating``) and two standard deviations (``spread``), and ranks the
leaderboard by ``mean - 3 sd``, so a newcomer with a lucky first game does not
top it. The bots never change: their ratings are fixed, measured in the arena
(``bench/bot_ratings.py``; docs/ratings.md gives the figures and the reasoning).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from openskill.models import PlackettLuce

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


def rate(sides: Sequence[Sequence[Skill]], winner: int) -> list[list[Skill]]:
    """Each side's players' new skills after ``winner`` won a game among ``sides`` (sides in seat order).

    >>> new = rate([[Skill()], [Skill()]], winner=0)
    >>> new[0][0].mu > 1500 > new[1][0].mu
    True
    """
    teams = [[MODEL.create_rating([s.mu, s.sigma]) for s in side] for side in sides]
    ranks: list[float] = [1.0 if i == winner else 2.0 for i in range(len(sides))]
    rated = MODEL.rate(teams, ranks=ranks)
    return [[Skill(r.mu, r.sigma) for r in team] for team in rated]


def gap_for(win_rate: float) -> float:
    """The difference of means at which the model expects one player to beat another ``win_rate`` of the time.

    Plackett-Luce with two players, both ratings certain: P = 1 / (1 + exp(-gap / c)), c = sqrt(2) BETA.

    >>> round(gap_for(0.5)), round(gap_for(0.752))
    (0, 392)
    """
    c = math.sqrt(2) * BETA
    return c * math.log(win_rate / (1 - win_rate))


#: The bots' fixed ratings. The rulebook bot is the anchor, at a newcomer's MU (a person who plays by
#: the rulebook's hints is where everyone starts); the others sit at the gap their measured 2-player
#: win rates give (docs/benchmarks.md, bots): search beat rulebook in 752 of 1,000 games (0.2 s a move),
#: rulebook beat random in 1,000 of 1,000, taken at its 95% lower bound, 99.6%, since 100% has no finite gap.
#: ``python bench/bot_ratings.py`` measures them again and prints these numbers.
BOT_RATINGS: dict[str, Skill] = {
    "search": Skill(MU + gap_for(0.752), 0.0),
    "rulebook": Skill(MU, 0.0),
    "random": Skill(MU - gap_for(0.996), 0.0),
}
