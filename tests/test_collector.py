"""The server loop's own cycle collection (server/collector.py): off in CPython while it runs, full and rare, idle."""

from __future__ import annotations

import gc
import logging
import threading
import time
from pathlib import Path

import pytest

from board99.server import collector as collector_module
from board99.server.collector import FULL_EVERY, Collector
from board99.server.loop import Server


class Knot:
    """An object in a reference cycle with itself."""

    def __init__(self) -> None:
        self.me = self


def test_a_collector_takes_collecting_over_until_it_stops() -> None:
    assert gc.isenabled()
    c = Collector()
    c.start(0.0)
    try:
        assert not gc.isenabled(), "CPython's allocation-driven collections are off"
        assert gc.get_freeze_count() > 0, "what was made before serving is frozen out of collections"
    finally:
        c.stop()
    assert gc.isenabled() and gc.get_freeze_count() == 0
    c.stop()  # a second stop changes nothing
    assert gc.isenabled()


def test_collecting_comes_back_only_when_the_last_of_two_servers_stops() -> None:
    first, second = Collector(), Collector()
    first.start(0.0)
    second.start(0.0)
    first.stop()
    assert not gc.isenabled(), "the other server's loop still collects for the process"
    second.stop()
    assert gc.isenabled()


def test_a_full_collection_is_due_every_full_every_seconds_and_finds_a_cycle(caplog) -> None:
    c = Collector()
    c.start(100.0)
    try:
        assert not c.due(100.0 + FULL_EVERY - 0.01)
        assert c.due(100.0 + FULL_EVERY)
        Knot()  # dropped at once: only a collection frees it
        with caplog.at_level(logging.INFO, logger="board99.server"):
            c.collect(100.0 + FULL_EVERY)
        assert c.found >= 1 and c.collections == 1
        assert "event=cycles-collected" in caplog.text, "a cycle found is logged: some step makes one"
        assert not c.due(100.0 + FULL_EVERY + 1.0), "the next is a whole period on"
    finally:
        c.stop()


def test_a_loop_never_idle_collects_once_too_much_was_made(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collector_module, "BUSY_MAX", 1000)
    c = Collector()
    c.start(0.0)
    try:
        kept = [[n] for n in range(2000)]  # containers made and not freed
        assert c.overdue() and c.due(0.0)
        c.collect(0.0)
        assert not c.overdue()
        del kept
    finally:
        c.stop()


def test_a_serving_loop_collects_while_idle_and_gives_collecting_back(tmp_path: Path, caplog,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collector_module, "FULL_EVERY", 0.05)
    server = Server("127.0.0.1", 0, tmp_path)
    server.bind()
    thread = threading.Thread(target=server.serve_forever, kwargs={"collect": True}, daemon=True)
    with caplog.at_level(logging.INFO, logger="board99.server"):
        thread.start()
        try:
            deadline = time.monotonic() + 5.0
            while gc.isenabled() and time.monotonic() < deadline:
                time.sleep(0.01)
            assert not gc.isenabled(), "the serving loop took collecting over"
            Knot()  # garbage in a cycle, made anywhere in the process
            while "event=cycles-collected" not in caplog.text and time.monotonic() < deadline:
                time.sleep(0.02)
            assert "event=cycles-collected" in caplog.text, "the idle loop collected it"
        finally:
            server.stop()
            thread.join(10.0)
            server.close()
    assert not thread.is_alive()
    assert gc.isenabled(), "collecting is CPython's again once the server stopped"
