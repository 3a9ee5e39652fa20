"""What the lobby says about who the player is on the connected server, and about a name their key cannot take (pure).

One key is one person (client/player_key.py): the server binds a key to its
name, so the lobby shows the name and rating the server knows this window by,
and another person on the same machine plays with a key of their own ("Play
as", or ``board99 join --as NAME``).
"""

from __future__ import annotations

from .wording import rating_words


def identity_words(player: dict | None, has_key: bool) -> tuple[str, bool]:
    """The lobby's "who you are" line and whether it is good news (a known player) rather than a hint.

    >>> identity_words({"name": "Ann", "rating": 1612, "spread": 84, "games": 31}, True)
    ('You are Ann · rating 1612 ± 84 · 31 rated games', True)
    >>> identity_words({"name": "Bo", "rating": 1500, "spread": 1000, "games": 0}, True)[0]
    'You are Bo · no rated games yet'
    >>> identity_words(None, True)[0]
    'New here: type your name, then Play as'
    >>> identity_words(None, False)[0]
    'You play as a guest: no rating is kept'
    """
    if not has_key:
        return "You play as a guest: no rating is kept", False
    if not isinstance(player, dict) or not isinstance(player.get("name"), str):
        return "New here: type your name, then Play as", False
    games = player.get("games") or 0
    if not games:
        return f"You are {player['name']} · no rated games yet", True
    rating = player.get("rating")
    shown = rating_words(rating) if isinstance(rating, int) else "?"
    return (f"You are {player['name']} · rating {shown} ± {player.get('spread')} · "
            f"{games} rated game{'s' if games != 1 else ''}"), True


def name_bound_words(name: str) -> str:
    """What the lobby says when the server refuses ``name`` because this window's key has another name.

    >>> name_bound_words("Bob")
    'Your key already has another name on this server. To play as Bob, press Play as: each name has its own key'
    """
    return (f"Your key already has another name on this server. To play as {name}, press Play as: "
            f"each name has its own key")


def own_key_words(name: str) -> str:
    """What the lobby says when ``name`` is taken on the server but has a key of its own on this machine.

    >>> own_key_words("Ann")
    'Ann has a key of their own on this machine: press Play as to play as Ann'
    """
    return f"{name} has a key of their own on this machine: press Play as to play as {name}"


def same_name(a: str, b: str) -> bool:
    """Whether two names are one on a server (names are compared without regard to case).

    >>> same_name("Ann", "ANN"), same_name("Ann", "Anne")
    (True, False)
    """
    return a.strip().casefold() == b.strip().casefold()
