"""Every step of every lesson weighed with every legal move, the way the review weighs a game.

    .venv/bin/python bench/lesson_check.py [--guesses N] [--second N] [--most N] [--seed S] [LESSON ...]

For each task step the learner is on turn for, every legal move is scored by the
review's estimator on the same guessed futures, moves in doubt get second looks
(board99/lessons/check.py), and the step is held to the margins: the solution
within BEST_MARGIN of the best move, and at a hint lesson's choice every move the
lesson calls wrong at least WRONG_MARGIN behind the solution. Prints one line per
step and exits 1 if a step fails. docs/lessons.md records the last run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from board99.lessons import catalogue  # noqa: E402
from board99.lessons.check import BEST_MARGIN, WRONG_MARGIN, Options, check_lesson  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", help="lesson ids or numbers (default: all)")
    parser.add_argument("--guesses", type=int, default=128, help="first look: guesses for every move")
    parser.add_argument("--second", type=int, default=256, help="second look for a move in doubt")
    parser.add_argument("--most", type=int, default=2048, help="second looks doubled up to this many")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    options = Options(args.guesses, args.second, args.most, every=True, seed=args.seed)
    chosen = [lesson for n, lesson in enumerate(catalogue(), start=1)
              if not args.lessons or lesson.id in args.lessons or str(n) in args.lessons]
    print(f"margins: solution within {BEST_MARGIN * 100:.0f} points of the best; a choice's wrong move at least "
          f"{WRONG_MARGIN * 100:.0f} behind; {options}")
    failed = 0
    start = time.perf_counter()
    for lesson in chosen:
        for check in check_lesson(lesson, options=options):
            print(check.line(), flush=True)
            failed += not check.ok
    print(f"{failed} step(s) fail; {time.perf_counter() - start:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
