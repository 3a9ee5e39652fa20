"""Bots: programs that play a seat from its view alone."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .random_bot import RandomBot

#: Bot name -> factory taking a seed.
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot by name ('random', 'rulebook', 'search'); ValueError names the choices."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"bot: {name!r} is not a bot; choose from {', '.join(sorted(BOTS))}") from None
    return factory(seed=seed)


__all__ = ["BOTS", "Bot", "RandomBot", "make_bot"]
