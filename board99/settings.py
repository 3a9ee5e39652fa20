"""What a table is set up with: how many players, how they form sides, and the table's mode (docs/rules.md §3, §7).

>>> [sides_for(n) for n in PLAYER_COUNTS]
[2, 3, 2, 3]
"""

from __future__ import annotations

#: The player counts the game allows: 2 or 3 alone, 4 or 6 as partnerships.
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4, 6)
#: Table modes: guarded refuses offences, penalty carries them out and punishes them.
MODES: tuple[str, ...] = ("guarded", "penalty")


def sides_for(players: int) -> int:
    """How many sides play: 2 or 3 players alone, 4 or 6 as sides of two partners."""
    return players if players <= 3 else players // 2


def check_settings(players: object, mode: object) -> None:
    """ValueError naming the field unless ``players`` and ``mode`` are ones the game allows."""
    if players not in PLAYER_COUNTS or type(players) is not int:
        raise ValueError(f"players: {players!r} is not allowed; the game is for 2, 3, 4 or 6")
    if mode not in MODES:
        raise ValueError(f"mode: {mode!r} is not a table mode; use 'guarded' or 'penalty'")
