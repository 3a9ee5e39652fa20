"""Measure the bots' fixed ratings: arena win rates turned into rating gaps with the rating model's own formula.

    python bench/bot_ratings.py [--games 1000] [--search-games 1000] [--budget 0.2]

The rulebook bot is the anchor (a newcomer's starting mean); search and random
sit at the gaps their 2-player win rates against it give (board99.server.ratings.gap_for).
A 100% win rate has no finite gap, so the Wilson 95% interval's bound nearer 50% is used.
The search games take about 5.6 s each at 0.2 s a move (1,000 games: an hour and a half).
"""

from __future__ import annotations

import argparse

from board99.arena import run_arena, wilson
from board99.server.ratings import MU, gap_for


def measured(bots: list[str], games: int, budget: float | None) -> tuple[int, float]:
    """(wins of the first bot, the win rate used for its gap) over ``games`` 2-player games."""
    options = {} if budget is None else {"budget": budget}
    result = run_arena(bots, 2, games, 1, "guarded", bot_options=options)
    wins = result.wins[0]
    lo, hi = wilson(wins, games)
    rate = wins / games
    return wins, (lo if rate > 0.5 else hi) if rate in (0.0, 1.0) else rate


def main() -> None:
    """Play the two matches and print the ratings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="rulebook v random games")
    parser.add_argument("--search-games", type=int, default=1000, help="search v rulebook games")
    parser.add_argument("--budget", type=float, default=0.2, help="the search bot's seconds a move")
    args = parser.parse_args()
    r_wins, r_rate = measured(["rulebook", "random"], args.games, None)
    s_wins, s_rate = measured(["search", "rulebook"], args.search_games, args.budget)
    print(f"rulebook beat random {r_wins}/{args.games} (rate used {r_rate:.4f}); "
          f"search beat rulebook {s_wins}/{args.search_games} (rate used {s_rate:.4f})")
    for name, mean in (("search", MU + gap_for(s_rate)), ("rulebook", MU), ("random", MU - gap_for(r_rate))):
        print(f"  {name:<9} {mean:7.0f}")


if __name__ == "__main__":
    main()
