"""A worker for bots that think for a while (the search bots), so the server's loop never waits.

The loop hands a bot and its view over with ``submit``; a thread takes the
moves in turn and has each worked out in a process of its own (a search in a
thread of the server's process would hold Python's lock for its whole budget,
and every other table would wait); the answer comes back through a queue, and
a byte on an inproc PUSH/PULL pair wakes the loop's poller. Only the loop thread touches ``wake`` (the PULL end); each
answer makes its own PUSH socket, because a socket belongs to the thread that
made it.

The thinking is shared fairly: when a move joins a queue of n, every move
waiting gets at most ``FAIR_WAIT / n`` seconds to think (never more than its
bot's own budget, and never more again), so the moves ahead of any new one
take about ``FAIR_WAIT`` together, however many tables of thinking bots others
start.
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
from collections.abc import Hashable, Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import zmq

from board99 import kinds

from .outbox import Thought

#: Seconds the moves queued ahead of a new one take at most, together (about): see the module docstring.
FAIR_WAIT = 1.0
#: The least a thinking bot is given, however long the queue.
MIN_BUDGET = 0.01


class Thinker:
    """One worker thread running slow bots' ``choose``; answers are read by the loop that owns it."""

    def __init__(self, ctx: zmq.Context, name: str) -> None:
        self.ctx = ctx
        self.address = f"inproc://board99-thinker-{name}"
        #: The loop polls this socket: readable when an answer is waiting.
        self.wake = ctx.socket(zmq.PULL)
        self.wake.bind(self.address)
        self._answers: queue.SimpleQueue = queue.SimpleQueue()
        self._busy: set[Hashable] = set()
        self._pool: ThreadPoolExecutor | None = None  # made on the first slow bot
        self._process: ProcessPoolExecutor | None = None
        self._budgets: dict[Hashable, float] = {}  # waiting move -> seconds it may think
        self._lock = threading.Lock()
        #: The budget each move was given, newest last (at most the last 1,000; for tests and the log).
        self.budgets: list[float] = []

    def submit(self, key: Hashable, bot: Any, view: Any) -> None:
        """Have ``bot`` choose from ``view`` on the worker; a second submit of ``key`` while busy is ignored."""
        if key in self._busy:
            return
        self._busy.add(key)
        with self._lock:
            own = getattr(bot, "budget", None)
            if own is not None:
                self._budgets[key] = own
            share = FAIR_WAIT / len(self._busy)
            for waiting in self._budgets:
                self._budgets[waiting] = max(MIN_BUDGET, min(self._budgets[waiting], share))
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="board99-bot")
        self._pool.submit(self._work, key, bot, view)

    def _work(self, key: Hashable, bot: Any, view: Any) -> None:
        with self._lock:
            budget = self._budgets.pop(key, None)  # fixed now: later arrivals do not shorten a running move
        if budget is not None:
            self.budgets.append(budget)
            del self.budgets[:-1000]
        try:
            if self._process is None:
                # spawn, not fork: the server may run inside another program (the window's).
                self._process = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
                self._process.submit(warm_up)  # the fastsearch bot's compiled code loads before any move's clock
            result: Any = self._process.submit(choose, bot, budget, view).result()
        except Exception as exc:  # handed back: the loop logs it and plays the clock's action instead
            result = exc
        self._answers.put((key, result))
        out = self.ctx.socket(zmq.PUSH)
        try:
            out.connect(self.address)
            out.send(b"", zmq.NOBLOCK)
        except zmq.ZMQError:
            pass  # the server is stopping
        finally:
            out.close(linger=1000)

    def pending(self) -> bool:
        """True when an answer is waiting (checked each round as well as by the poller)."""
        return not self._answers.empty()

    def answers(self) -> Iterator[tuple[Hashable, Any]]:
        """Every answer that has arrived: (key, action or the exception the bot raised)."""
        while True:
            try:
                self.wake.recv(zmq.NOBLOCK)
            except zmq.Again:
                break
        while True:
            try:
                key, result = self._answers.get_nowait()
            except queue.Empty:
                return
            self._busy.discard(key)
            yield key, result

    def close(self) -> None:
        """Wait for a bot still thinking, then release the socket."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        if self._process is not None:
            self._process.shutdown(wait=True, cancel_futures=True)
        self.wake.close(linger=0)


def warm_up() -> None:
    """(In the worker process) each installed kind loads what its slow bots need (the fastsearch bot's playouts)."""
    for name in kinds.names():
        kinds.get(name).warm_up()


def choose(bot: Any, budget: float | None, view: Any) -> Thought:
    """(In the worker process) ``bot`` (a copy, sent over) chooses from ``view`` within ``budget``.

    The bot comes back with the move, its own budget restored: what it learnt from the view (the
    infer bot's memory of the deal) goes on with it to its next move.
    """
    own = bot.budget
    if budget is not None:
        bot.budget = budget
    try:
        return Thought(bot.choose(view), bot)
    finally:
        bot.budget = own
