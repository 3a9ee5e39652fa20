"""Shared test set-up: in CI (CI=true) a skipped test fails the run."""

from __future__ import annotations

import os

import pytest


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI nothing may be skipped: a missing display or tool must be installed, not excused."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if os.environ.get("CI", "").lower() == "true" and skipped:
        reporter.write_line(f"CI=true: {skipped} test(s) skipped; CI allows none", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
