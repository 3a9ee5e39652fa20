"""bench/bot_match.py plays its games, saves a part and sums parts (a short run; the real match is in docs)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "bot_match.py"


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_a_match_in_two_parts_adds_up(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    run("search", "rulebook", "--budget", "0.005", "--games", "2", "--jobs", "1", "--json", str(a), "--quiet")
    run("search", "rulebook", "--budget", "0.005", "--first", "2", "--games", "2", "--jobs", "2", "--json", str(b),
        "--quiet")
    parts = [json.loads(p.read_text()) for p in (a, b)]
    assert all(isinstance(p, dict) for p in parts)
    out = run("--combine", str(a), str(b))
    assert "4 games" in out and "95% Wilson interval" in out
    line = next(x for x in out.splitlines() if x.startswith("search:") and "wins" in x)
    wins, losses = int(line.split()[1]), int(line.split(" ties, ")[1].split()[0])
    assert wins + losses == 4


def test_an_unknown_bot_is_named() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "nobody", "rulebook", "--games", "2"], capture_output=True,
                          text=True, timeout=60, cwd=ROOT, check=False)
    assert done.returncode == 2 and "'nobody' is not a bot" in done.stderr
