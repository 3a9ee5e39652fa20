"""bench/informed_match.py: the informed bot is told the other hands and plays whole games (a short run)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from board99 import Game

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from informed_match import InformedBot  # noqa: E402


def test_the_informed_bot_puts_the_told_hands_first_as_known():
    game = Game(2, seed=3, first=0)
    for _ in range(6):
        seat = game.turn
        game.apply(seat, game.legal_actions(seat)[0])
    bot = InformedBot(seed=1, budget=0.01)
    bot.hands = [game.hand(s) for s in range(2)]
    seat = game.turn
    cards, known = bot.unseen(game.view(seat))
    other = game.hand(1 - seat)
    assert known == len(other) and tuple(cards[:known]) == other
    seen = set(game.hand(seat)).union(*game.view(seat).discards)
    assert sorted(cards) == [c for c in range(100) if c not in seen]


@pytest.mark.slow
def test_an_informed_match_runs_and_reports_its_interval():
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "informed_match.py"), "--games", "2", "--budget",
                           "0.005", "--jobs", "1"], capture_output=True, text=True, timeout=120, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    assert "informed fastsearch v search:" in done.stdout and "of 2 games" in done.stdout
    assert "95% Wilson interval" in done.stdout
