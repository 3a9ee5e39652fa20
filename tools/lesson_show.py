"""Show a lesson as the engine plays it: the position its setup reaches, then each step of its solution.

    .venv/bin/python tools/lesson_show.py board99/lessons/data/16-block-low.toml
    .venv/bin/python tools/lesson_show.py --all          # every lesson, briefly

For lesson authors (docs/lessons.md): a scripted action the engine refuses is
reported with its field, as the tests and the window would.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from board99.lessons import LessonError, LessonRun, PlayStep, catalogue, parse
from board99.render import board_text, status_text


def show(path_or_lesson: Path | object, brief: bool = False) -> int:
    lesson = path_or_lesson if not isinstance(path_or_lesson, Path) else parse(
        path_or_lesson.read_text(encoding="utf-8"), path_or_lesson.name)
    try:
        run = LessonRun(lesson)  # type: ignore[arg-type]
    except LessonError as exc:
        print(f"ERROR {exc}")
        return 1
    t = run.lesson.table
    print(f"== {run.lesson.name}: {run.lesson.title}  ({t.players} players, {t.mode}, you S{t.you})")
    view = run.view
    if not brief:
        print(board_text(view))
    print(status_text(view), "| your hand", view.hand, "| hands", [run.game.hand(s) for s in range(t.players)])
    for i, step in enumerate(run.lesson.steps):
        try:
            if isinstance(step, PlayStep):
                outcome = run.act(step.solution)
                what = step.solution.text()
            else:
                outcome = run.answer(step.answer)
                what = f"answer {step.answer + 1}"
        except LessonError as exc:
            print(f"ERROR {exc}")
            return 1
        print(f"  step {i + 1}: {what} -> {outcome.verdict}"
              + (f" (refused: {outcome.refusal.code})" if outcome.refusal else ""))
        for move in outcome.moves:
            print(f"    S{move.seat} {move.action.text()}: " + "; ".join(e.text() for e in move.events))
        if not outcome.right:
            return 1
    if not brief:
        print(board_text(run.view))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--all", action="store_true", help="every lesson in the package")
    args = parser.parse_args()
    status = 0
    if args.all:
        for lesson in catalogue():
            status |= show(lesson, brief=True)
    for path in args.files:
        status |= show(path)
    return status


if __name__ == "__main__":
    sys.exit(main())
