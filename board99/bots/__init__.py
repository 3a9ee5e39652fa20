"""Bots: programs that play a seat from its view alone."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .fast_search import FastSearchBot
from .inference import InferenceBot
from .random_bot import RandomBot
from .rulebook import RulebookBot
from .search import SearchBot

#: Bot name -> factory taking a seed.
BOTS: dict[str, Callable[..., Bot]] = {
    "fastsearch": FastSearchBot,
    "infer": InferenceBot,
    "random": RandomBot,
    "rulebook": RulebookBot,
    "search": SearchBot,
}


def make_bot(name: str, seed: int | None = None, budget: float | None = None) -> Bot:
    """A new bot by name ('fastsearch', 'infer', 'random', 'rulebook', 'search'); ValueError names the choices.

    ``budget`` is the search bots' seconds per move (search, fastsearch, infer; default 0.2); others ignore it.
    """
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"bot: {name!r} is not a bot; choose from {', '.join(sorted(BOTS))}") from None
    if budget is not None and isinstance(factory, type) and issubclass(factory, SearchBot):
        if not budget > 0:
            raise ValueError(f"budget: {budget!r} seconds per move must be more than 0")
        return factory(seed=seed, budget=budget)
    return factory(seed=seed)


__all__ = ["BOTS", "Bot", "FastSearchBot", "InferenceBot", "RandomBot", "RulebookBot", "SearchBot", "make_bot"]
