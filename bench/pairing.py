"""Swiss pairings over many random tournaments: how often a pair meets twice, and how long a round takes to pair.

    .venv/bin/python bench/pairing.py [--tournaments N] [--sides 4-16] [--max-rounds R] [--seed S]

For every number of sides and every number of rounds from 2 up to a
round-robin's worth (the most a tournament can play without a rematch; at most
``--max-rounds``, the server's 10 by default), it plays N tournaments with
random match results (each side's games 0-3, so about one match in four is
drawn) three ways:

- *one round at a time*: ``swiss_pairings`` without the tournament's length,
  which looks at nothing after the round it pairs (the pairing before issue 19);
- *looking ahead*: ``pairings``, as the server pairs;
- *taken over*: the rounds before a random one (2 to the last) one round at
  a time, the rest looking ahead, as a tournament journaled before the
  look-ahead goes on after an upgrade. Its history may already make a rematch
  unavoidable; then the search must prove it for each shorter look-ahead in
  turn, its slowest case.

It prints, per row, the tournaments with a rematch (or a second bye) each way
and the slowest single round's pairing, in ms of CPU time, looking ahead and taken over.
docs/tournaments.md quotes a run. Tournament ``i`` of a row is the same
whatever the other options, so rows can be re-run one at a time.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from board99.server.pairing import Result, pairings, round_robin_rounds, swiss_pairings  # noqa: E402


def play(sides: int, rounds: int, seed: int, ahead_from: int | None) -> tuple[bool, bool, float]:
    """One tournament: (a pair met twice, a side had a second bye, the slowest round's pairing in s).

    Rounds from ``ahead_from`` on look ahead (None: none does).
    """
    rng = random.Random(seed)
    results: list[Result] = []
    rematch = second_bye = False
    slowest = 0.0
    for round_no in range(1, rounds + 1):
        met = {frozenset((r.a, r.b)) for r in results if r.b is not None}
        byes = Counter(r.a for r in results if r.b is None)
        start = time.process_time()  # CPU time: other processes on the machine do not count
        if ahead_from is not None and round_no >= ahead_from:
            matches = pairings(sides, rounds, results, round_no)
        else:
            matches = swiss_pairings(sides, results, round_no)
        slowest = max(slowest, time.process_time() - start)
        for p in matches:
            if p.b is None:
                second_bye |= byes[p.a] > 0
                results.append(Result(round_no, p.a, None, 0, 0))
            else:
                rematch |= frozenset(p) in met
                results.append(Result(round_no, p.a, p.b, rng.randint(0, 3), rng.randint(0, 3)))
    return rematch, second_bye, slowest


def main() -> int:
    """Run the rows and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=500, help="tournaments per row (default 500)")
    parser.add_argument("--sides", default="5-12", help="numbers of sides, FIRST-LAST (default 5-12)")
    parser.add_argument("--max-rounds", type=int, default=10, help="the most rounds a row has (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="the first tournament's seed (default 0)")
    args = parser.parse_args()
    first, _, last = args.sides.partition("-")
    print("sides rounds | rematch: one-at-a-time  ahead  taken-over | 2nd bye: one-at-a-time  ahead "
          "| slowest round ms: ahead  taken-over")
    worst = (0.0, "")
    for sides in range(int(first), int(last or first) + 1):
        most = min(round_robin_rounds(sides + sides % 2), args.max_rounds)
        for rounds in range(2, most + 1):
            counts: Counter[str] = Counter()
            slow = {"ahead": 0.0, "over": 0.0}
            for i in range(args.tournaments):
                seed = args.seed + i
                for way, start in (("plain", None), ("ahead", 1), ("over", random.Random(seed).randint(2, rounds))):
                    rematch, second, slowest = play(sides, rounds, seed, start)
                    counts[f"{way}-rematch"] += rematch
                    counts[f"{way}-bye"] += second
                    if way in slow:
                        slow[way] = max(slow[way], slowest)
                        if slowest > worst[0]:
                            worst = (slowest, f"{sides} sides, {rounds} rounds, seed {seed}, {way}")
            n = args.tournaments
            print(f"{sides:5} {rounds:6} | {counts['plain-rematch']:8} ({counts['plain-rematch'] / n:4.0%})"
                  f" {counts['ahead-rematch']:6} {counts['over-rematch']:11} ({counts['over-rematch'] / n:4.0%})"
                  f" | {counts['plain-bye']:15} {counts['ahead-bye']:6} | {slow['ahead'] * 1e3:17.1f}"
                  f" {slow['over'] * 1e3:11.1f}", flush=True)
    print(f"slowest round: {worst[0] * 1e3:.1f} ms ({worst[1]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
