"""Shared test set-up: in CI (CI=true) a skipped test fails the run."""

from __future__ import annotations

import os
import tempfile

import pytest

# No test reads or writes the player's own settings file (client/gui/preferences.py): each test
# process gets a fresh one in a temporary folder (a test may point it elsewhere with monkeypatch).
os.environ["BOARD99_CONFIG"] = os.path.join(tempfile.mkdtemp(prefix="board99-test-config-"), "settings.toml")


@pytest.fixture
def room(tmp_path):
    """A server core and the web pages talking to it, in this process (tests/web_seat_kit.py); closed after."""
    from tests.web_seat_kit import Room

    r = Room(tmp_path)
    yield r
    r.close()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI nothing may be skipped: a missing display or tool must be installed, not excused."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if os.environ.get("CI", "").lower() == "true" and skipped:
        reporter.write_line(f"CI=true: {skipped} test(s) skipped; CI allows none", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
