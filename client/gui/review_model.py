"""The review in the replay viewer, pure (no arcade): a review computed on a thread, and what it says in words.

``board99.review`` weighs every move of one seat from that seat's own view
(docs/review.md). A whole game takes seconds, so the window never waits for it:
``ReviewJob`` has a thread of its own start the work in a process of its own
(spawned, as the server's thinker does: a review on a thread of the window's
process would hold Python's lock, and the frames would stutter) and pass its
progress on; the viewer reads ``done`` and ``total`` once a frame for its
progress bar, then ``review`` when it is there.
The rest of this module maps the reviewed moves onto the replay's frames and
puts them into words: the marks with their symbols, the chance before and after,
the better move and the hint it broke.
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
import time
from typing import Any, NamedTuple

from board99 import Discard, Draw, Play
from board99.match import MatchRecord, is_match_record
from board99.record import Record
from board99.review import (
    DEFAULT,
    HINTS,
    MARKS,
    SYMBOLS,
    Move,
    MoveReview,
    Options,
    Review,
    points,
    review_records,
)
from board99.wire.table_info import TableInfo

from . import wording
from .replay_model import Frame

#: A mark's name as the player reads it.
MARK_WORDS = {"blunder": "Blunder", "mistake": "Mistake", "inaccuracy": "Inaccuracy"}


class _Stopped(Exception):
    """The job was cancelled (another seat was asked for, or the viewer closed)."""


#: How often the watching thread looks for a cancel while the worker process is silent (seconds).
POLL = 0.1


class ReviewJob:
    """One seat's review of a record, worked out away from the window; the window polls it (plain fields).

    By default a daemon thread spawns a worker process and relays its progress; ``elsewhere=False``
    computes on the thread itself (and ``start=False`` leaves the starting to the caller: ``run()``).
    """

    def __init__(self, records: list[Record], seat: int, options: Options = DEFAULT, *, start: bool = True,
                 elsewhere: bool = True) -> None:
        self.records = records
        self.seat = seat
        self.options = options
        self.total = sum(1 for r in records for line in r.lines if line.startswith(f"S{seat} "))
        self.done = 0
        self.review: Review | None = None
        self.error: str | None = None
        self._stop = False
        self.worker_pid: int | None = None  # the worker process's, once started (None on the thread itself)
        self.first_at: float | None = None  # when the first move was weighed: the pace counts from there
        self.thread = threading.Thread(target=self._watch if elsewhere else self.run, name=f"review-S{seat}",
                                       daemon=True)
        if start:
            self.thread.start()

    @property
    def finished(self) -> bool:
        """True once the review is there, or failed."""
        return self.review is not None or self.error is not None

    def share(self) -> float:
        """How much of the review is done (0..1)."""
        return self.done / self.total if self.total else 1.0

    def seconds_left(self, now: float | None = None) -> float | None:
        """About how long the rest will take at the pace since the first move (None before a second one)."""
        if self.done < 2 or self.first_at is None or self.finished:
            return None  # the first move's time includes the worker process starting
        spent = (time.monotonic() if now is None else now) - self.first_at
        return spent / (self.done - 1) * max(0, self.total - self.done)

    def cancel(self) -> None:
        """Stop: the worker process at once, a review on this process after the move being weighed."""
        self._stop = True

    def run(self) -> None:
        """Weigh every move (on the job's thread, or the caller's when started with ``start=False``)."""
        try:
            self.review = review_records(self.records, self.seat, options=self.options, progress=self._progress)
        except _Stopped:
            pass
        except Exception as exc:  # a review must never take the window down: say it instead
            self.error = f"The review failed: {exc}"

    def _progress(self, done: int, total: int) -> None:
        self._moved(done, total)
        if self._stop:
            raise _Stopped

    def _moved(self, done: int, total: int) -> None:
        """A move more is weighed."""
        if self.first_at is None:
            self.first_at = time.monotonic()
        self.done, self.total = done, total

    def _watch(self) -> None:
        """(The job's thread) a spawned process weighs the moves; its progress and review come through a queue."""
        ctx = multiprocessing.get_context("spawn")  # not fork: the window's process runs threads and GL
        messages: Any = ctx.Queue()
        worker = ctx.Process(target=review_elsewhere, args=(self.records, self.seat, self.options, messages),
                             name=f"board99-review-S{self.seat}", daemon=True)
        try:
            worker.start()
            self.worker_pid = worker.pid
            while not self._stop:
                try:
                    kind, *rest = messages.get(timeout=POLL)
                except queue.Empty:
                    if not worker.is_alive() and messages.empty():
                        self.error = f"The review failed: its process ended ({worker.exitcode})"
                        return
                    continue
                if kind == "progress":
                    self._moved(*rest)
                elif kind == "review":
                    self.review = rest[0]
                    return
                else:
                    self.error = f"The review failed: {rest[0]}"
                    return
        except Exception as exc:  # no process could be started: say so, the window goes on
            self.error = f"The review failed: {exc}"
        finally:
            if worker.pid is not None:  # started
                if worker.is_alive():
                    worker.terminate()
                worker.join(5)
            messages.close()


def review_elsewhere(records: list[Record], seat: int, options: Options, messages: Any) -> None:
    """(In the worker process) weigh the moves, putting ('progress', done, total) then ('review', review)."""
    try:
        review = review_records(records, seat, options=options,
                                progress=lambda done, total: messages.put(("progress", done, total)))
    except Exception as exc:
        messages.put(("error", str(exc)))
        return
    messages.put(("review", review))


def records_of(text: str) -> list[Record]:
    """The games of a game or match record (RecordError when it is not one)."""
    if is_match_record(text):
        match, _ = MatchRecord.loads(text)
        return match.games
    return [Record.loads(text)]


def frames_of_moves(frames: tuple[Frame, ...], review: Review) -> dict[int, MoveReview]:
    """Frame index -> the reviewed move it shows (a move's frame is the game just after it)."""
    where: dict[tuple[int, int], int] = {}
    plies: dict[int, int] = {}
    for index, frame in enumerate(frames):
        if frame.actor is not None:
            plies[frame.game] = plies.get(frame.game, 0) + 1
            where[(frame.game, plies[frame.game])] = index
    return {where[(m.game, m.ply)]: m for m in review.moves if (m.game, m.ply) in where}


def marked_frames(moves: dict[int, MoveReview]) -> list[int]:
    """The frame indices of the marked moves, in order."""
    return sorted(i for i, m in moves.items() if m.mark is not None)


def mark_words(move: MoveReview) -> str:
    """'?? Blunder', '? Mistake', '?! Inaccuracy', or how an unmarked move stands."""
    if move.mark is not None:
        return f"{SYMBOLS[move.mark]} {MARK_WORDS[move.mark]}"
    if move.forced:
        return "Forced: the only move there was"
    return "Best move found" if move.loss == 0 else "Good move"


def chance_line(move: MoveReview) -> str:
    """'Win chance 52% → 19% (−33 points)': the side's chance with the best move found, and after the move made."""
    text = f"Win chance {move.before:.0%} → {move.after:.0%}"
    lost = points(move.loss)
    return f"{text} (−{lost} point{'' if lost == 1 else 's'})" if lost else text


def move_words(move: Move) -> str:
    """A move in words, for the better move: 'play card 2 on square 24', 'draw a card', 'wait for your turn'."""
    if move is None:
        return "wait for the turn instead of acting out of turn"
    if type(move) is Play:
        return f"play card {move.card} on square {move.square}"
    if type(move) is Discard:
        return f"discard card {move.card}"
    assert type(move) is Draw
    return "draw a card"


def detail_lines(move: MoveReview, table: TableInfo | None) -> list[str]:
    """For a marked move: the better move (its square is ringed on the board) and the hint it broke, in words."""
    if move.mark is None:
        return []
    better = move_words(move.better)
    where = " (ringed on the board)" if type(move.better) is Play else ""
    lines = [f"Better: {better}{where}."]
    if move.hint is not None:
        lines.append(f"Hint: {HINTS[move.hint]}")
    return lines


def summary_line(review: Review, table: TableInfo | None) -> str:
    """'Ann: 1 blunder, 2 inaccuracies in 28 moves · worst: action 56'."""
    name = wording.seat_name(review.seat, table)
    counts = [f"{n} {name_}" if n == 1 else f"{n} {name_[:-1]}ies" if name_.endswith("y") else f"{n} {name_}s"
              for name_, n in review.counts().items() if n]
    said = ", ".join(counts) if counts else "no marked moves"
    worst = review.worst()
    games = len({m.game for m in review.moves})
    where = f"game {worst.game} action {worst.ply}" if worst is not None and games > 1 else \
        f"action {worst.ply}" if worst is not None else ""
    tail = f" · worst: {where}" if worst is not None and worst.loss > 0 else ""
    return f"{name}: {said} in {len(review.moves)} moves{tail}"


def thresholds_line() -> str:
    """'Marks by points of win chance lost: ?! 5, ? 10, ?? 20'."""
    return "Marks by win chance lost: " + ", ".join(f"{SYMBOLS[n]} {points(at)}" for n, at in reversed(MARKS)) \
        + " points"


class ReviewShown(NamedTuple):
    """What the viewer's review block shows for one frame."""

    head: str
    mark: str | None  # the mark's name (for its colour), or None
    lines: tuple[str, ...]


def left_words(seconds: float | None) -> str:
    """How long a review has left, as a person reads it ("" before there is a pace to go by).

    >>> left_words(None), left_words(3.2), left_words(43), left_words(130)
    ('', ', about 5 s left', ', about 45 s left', ', about 2 min left')
    """
    if seconds is None:
        return ""
    if seconds < 90:
        return f", about {max(5, 5 * round(seconds / 5))} s left"
    return f", about {round(seconds / 60)} min left"


def shown_for(job: ReviewJob | None, review: Review | None, move: MoveReview | None,
              table: TableInfo | None) -> ReviewShown | None:
    """The review block for the frame shown: progress, a move weighed, or the summary; None before any review."""
    if job is not None and not job.finished:
        name = wording.seat_name(job.seat, table)
        return ReviewShown(f"Reviewing {name}'s moves… {job.done} of {job.total}{left_words(job.seconds_left())}",
                           None, ())
    if job is not None and job.error:
        return ReviewShown(job.error, None, ())
    if review is None:
        return None
    head = summary_line(review, table)
    if move is None:
        return ReviewShown(head, None, ("N / P: the next / previous marked move", thresholds_line()))
    return ReviewShown(head, move.mark, (mark_words(move), chance_line(move), *detail_lines(move, table)))
