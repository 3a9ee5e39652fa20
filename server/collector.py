"""Python's cycle collector in the server: a full collection now and then while the loop is idle, not every 700 allocations.

The server's steps make no reference cycles (tests/test_no_cycles.py holds an act, a bot's move and a web
seat's scenes to none): what they make is freed by reference counting the moment it is dropped. CPython's
collector would still scan the young objects every 700 allocations and every object now and then, whatever
it finds: with 100 paced web seats that was 0.2-16 ms and 23-95 ms pauses in the middle of people's acts,
most of the paced row's p99 (docs/benchmarks.md, sixth session). So while the loop runs, automatic
collection is off and the loop collects everything itself, once ``FULL_EVERY`` seconds have passed and
its poller finds nothing waiting. A loop never idle collects anyway once ``BUSY_MAX`` more containers were
made than freed: a cycle a future change makes cannot grow memory without bound. What the server made
before it serves (its modules, the tables restored from the journal) is frozen out of every collection
(``gc.freeze``): it lives as long as the server.
"""

from __future__ import annotations

import gc
import logging
import threading
import time

log = logging.getLogger("board99.server")

FULL_EVERY = 60.0  # seconds between collections while the loop has idle moments
BUSY_MAX = 500_000  # containers made less those freed since the last collection: collected then, idle or not

_lock = threading.Lock()
_running = 0  # collectors started and not stopped in this process (tests run several servers at once)


class Collector:
    """When the cycle collector runs for one server's loop: ``start``, then ``due``/``collect``, ``stop``."""

    def __init__(self) -> None:
        self._next = float("inf")
        self._started = False
        self.collections = 0  # how many this collector ran
        self.found = 0  # unreachable objects they found (none, while the server makes no cycles)

    def start(self, now: float) -> None:
        """Take collecting over from CPython until ``stop``."""
        global _running
        with _lock:
            if _running == 0:
                gc.collect()
                gc.freeze()  # everything made so far lives as long as the process: never scanned again
                gc.disable()
            _running += 1
        self._started = True
        self._next = now + FULL_EVERY

    def stop(self) -> None:
        """CPython collects on its own again once no server's collector runs."""
        global _running
        if not self._started:
            return
        self._started = False
        with _lock:
            _running -= 1
            if _running == 0:
                gc.unfreeze()
                gc.enable()

    def due(self, now: float) -> bool:
        """True when the loop should collect at its next idle moment (or at once, if ``overdue``)."""
        return now >= self._next or self.overdue()

    def overdue(self) -> bool:
        """True when so much was made since the last collection that the loop collects even though messages wait."""
        return gc.get_count()[0] >= BUSY_MAX

    def collect(self, now: float) -> None:
        """A full collection (logged when it found anything: a cycle some step makes, worth mending)."""
        started = time.perf_counter()
        found = gc.collect()
        self.found += found
        self.collections += 1
        self._next = now + FULL_EVERY
        if found:
            log.info("event=cycles-collected objects=%d ms=%.1f", found, (time.perf_counter() - started) * 1000)
