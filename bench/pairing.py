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

With ``--histories N`` it instead pairs, for each number of sides, N random
histories that no Swiss made (random rounds of new pairs, a random length, the
byes to distinct sides or, every other history, to anyone) and prints the
slowest pairing and the most look-ahead steps one pairing took, and then how
long a search takes that spends the whole budget: sixteen sides whose unmet
pairs (six each) cross between a group of 7 and one of 9 by only four pairs,
so no six rounds exist, which the counting does not see.

It prints, per row, the tournaments with a rematch (or a second bye) each way
and the slowest single round's pairing, in ms of CPU time, looking ahead and taken over.
docs/tournaments.md quotes a run. Tournament ``i`` of a row is the same
whatever the other options, so rows can be re-run one at a time.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from board99.server import pairing  # noqa: E402
from board99.server.lookahead import Lookahead  # noqa: E402
from board99.server.pairing import Result, pairings, round_robin_rounds, swiss_pairings  # noqa: E402

#: Every look-ahead search made while ``--histories`` runs, to read its steps.
SEARCHES: list[Lookahead] = []


class CountedLookahead(Lookahead):
    """The pairing's search, kept in ``SEARCHES``."""

    def __init__(self, *args: int) -> None:
        super().__init__(*args)
        SEARCHES.append(self)


def random_history(sides: int, rounds: int, rng: random.Random, distinct_byes: bool) -> list[Result]:
    """Up to ``rounds`` random rounds of pairs not met before (fewer if random tries find none)."""
    met: set[frozenset[int]] = set()
    had: set[int] = set()
    results: list[Result] = []
    for round_no in range(1, rounds + 1):
        for _ in range(300):
            people = list(range(sides))
            rng.shuffle(people)
            if sides % 2 and distinct_byes:
                free = [p for p in people if p not in had]
                if not free:
                    return results
                people.remove(free[0])
                people.append(free[0])
            pairs = [(people[i], people[i + 1]) for i in range(0, sides - sides % 2, 2)]
            if all(frozenset(p) not in met for p in pairs):
                break
        else:
            return results
        for a, b in pairs:
            met.add(frozenset((a, b)))
            results.append(Result(round_no, a, b, rng.randint(0, 3), rng.randint(0, 3)))
        if sides % 2:
            had.add(people[-1])
            results.append(Result(round_no, people[-1], None, 0, 0))
    return results


def spent_budget() -> None:
    """Time a search that spends the whole budget (the graph this bench's docstring describes)."""
    rng = random.Random(1)
    big = list(range(7, 16))
    want = {v: 3 if v < 11 else 2 for v in big}  # what each of the 9 lacks of K9: three (a cut pair) or two
    while True:
        lacking = {v: 0 for v in big}
        left_out: set[tuple[int, int]] = set()
        pairs = list(itertools.combinations(big, 2))
        rng.shuffle(pairs)
        for a, b in pairs:
            if lacking[a] < want[a] and lacking[b] < want[b]:
                left_out.add((a, b))
                lacking[a] += 1
                lacking[b] += 1
        if lacking == want:
            break
    edges = [p for p in itertools.combinations(range(7), 2) if p not in ((0, 1), (2, 3))]
    edges += [p for p in itertools.combinations(big, 2) if p not in left_out]
    edges += [(0, 7), (1, 8), (2, 9), (3, 10)]
    graph = [0] * 16
    for a, b in edges:
        graph[a] |= 1 << b
        graph[b] |= 1 << a
    search = Lookahead()
    start = time.process_time()
    found = search.fills(tuple(graph), 6)
    print(f"a search that spends its budget: {search.steps} steps, {time.process_time() - start:.2f} s, "
          f"answer {found} (spent: {search.spent})")


def any_histories(first: int, last: int, count: int) -> None:
    """The slowest pairing and the most steps over ``count`` random histories per number of sides."""
    pairing.Lookahead = CountedLookahead  # type: ignore[misc]
    for sides in range(first, last + 1):
        free = round_robin_rounds(sides + sides % 2)
        slowest, steps = 0.0, 0
        for seed in range(count):
            rng = random.Random(seed)
            results = random_history(sides, rng.randint(1, free - 1), rng, seed % 2 == 0)
            played = max((r.round for r in results), default=0)
            SEARCHES.clear()
            start = time.process_time()
            pairings(sides, free, results, played + 1)
            slowest = max(slowest, time.process_time() - start)
            steps = max([steps, *(s.steps for s in SEARCHES)])
        print(f"{sides:5} sides, {count} histories: slowest pairing {slowest * 1e3:.1f} ms, "
              f"most look-ahead steps {steps}", flush=True)


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
    parser.add_argument("--histories", type=int, default=0, help="pair this many random histories instead")
    args = parser.parse_args()
    first, _, last = args.sides.partition("-")
    if args.histories:
        any_histories(int(first), int(last or first), args.histories)
        spent_budget()
        return 0
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
