"""The players a server knows: a name and the SHA-256 of the player key that proves it, plus a rating in each game.

A connection that says ``hello`` with a key is that key's player: the first
time, the name is registered to the key (if nobody else has it); later, the
key finds the player again under that name. A key never takes another name
(only another spelling of its own, in case): one key is one person, and a
name with its rating never silently passes to someone else (``name-bound``).
A connection without a key is a guest: it may use any name no player holds.
Nothing here touches the disk; the handler journals a new or renamed player
before ``adopt`` puts it in memory. A player has a rating in each game kind:
the default kind's (``board99.kinds.DEFAULT``) in ``skill``, ``games`` and
``wins`` as before kinds, every other kind's in ``elsewhere``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from board99 import kinds
from board99.wire.protocol import DEFAULT_NAME, ProtocolError

from .presence import Bucket
from .ratings import Skill, all_bot_ratings

#: New players one machine may register: per hour, and at once (a registry is a table a client grows).
NEW_PER_HOUR, NEW_BURST = 20, 10
#: Machines whose registration quota is remembered; the oldest is forgotten beyond this.
HOSTS_REMEMBERED = 1024


def key_digest(key: str) -> bytes:
    """What the server keeps of a player key: its SHA-256, never the key itself."""
    return hashlib.sha256(key.encode()).digest()


def name_key(name: str) -> str:
    """Names are unique without regard to case: 'ann' cannot pass for 'Ann'."""
    return name.casefold()


class Standing(NamedTuple):
    """A player's rating in one game kind and their rated games and wins in it."""

    skill: Skill = Skill()
    games: int = 0
    wins: int = 0


@dataclass(frozen=True)
class Player:
    """A registered player: their id in the journal, name, key digest, and their rating in each game kind."""

    id: int
    name: str
    key_hash: bytes
    skill: Skill = Skill()  # the default kind's rating (board99.kinds.DEFAULT) and its tally
    games: int = 0
    wins: int = 0
    #: kind name -> the rating and tally in each other kind this player has played rated.
    elsewhere: Mapping[str, Standing] = field(default_factory=dict)

    def standing(self, kind: str) -> Standing:
        """The rating and tally in game kind ``kind`` (a newcomer's where they have played none)."""
        if kind == kinds.DEFAULT:
            return Standing(self.skill, self.games, self.wins)
        return self.elsewhere.get(kind, Standing())

    def with_standing(self, kind: str, standing: Standing) -> Player:
        """This player with ``standing`` in game kind ``kind``."""
        if kind == kinds.DEFAULT:
            return replace(self, skill=standing.skill, games=standing.games, wins=standing.wins)
        return replace(self, elsewhere={**self.elsewhere, kind: standing})


class Players:
    """Every registered player, by key digest and by name."""

    def __init__(self, max_players: int = 100_000) -> None:
        self.by_key: dict[bytes, Player] = {}
        self.by_name: dict[str, Player] = {}
        self.by_id: dict[int, Player] = {}
        self.max_players = max_players
        self._quota: dict[str, Bucket] = {}

    def adopt(self, player: Player) -> None:
        """Put ``player`` (new, renamed or re-rated, and journaled) in the registry."""
        old = self.by_key.get(player.key_hash)
        if old is not None:
            self.by_name.pop(name_key(old.name), None)
        self.by_key[player.key_hash] = player
        self.by_name[name_key(player.name)] = player
        self.by_id[player.id] = player

    def named(self, name: str) -> Player | None:
        """The player called ``name`` (any case), or None."""
        return self.by_name.get(name_key(name))

    def check_guest_name(self, name: str) -> None:
        """A guest (no key) may not use a registered player's name, nor a bot's."""
        if self.named(name) is not None or _is_bot(name):
            raise _taken(name)

    def claim(self, name: str, key: str, host: str, now: float, next_id: int) -> Player | None:
        """The player for ``key`` under ``name``, if that needs journaling (new or renamed); else None.

        ProtocolError('name-taken') if another key holds the name; ('name-bound') if this key is another
        name's; ('too-many-players') past the limits.
        """
        digest = key_digest(key)
        holder = self.named(name)
        if _is_bot(name) or (holder is not None and holder.key_hash != digest):
            raise _taken(name)
        known = self.by_key.get(digest)
        if known is not None:
            # A key registered under the placeholder (by a window before this rule) may still take a name.
            if name_key(known.name) not in (name_key(name), name_key(DEFAULT_NAME)):
                raise ProtocolError("name-bound", f"name: this player key is {known.name}'s on this server, so it "
                                                  f"cannot play as {name!r} (a name and its rating stay with "
                                                  f"their key); to play as {name}, use a key of their own: "
                                                  f"board99 join --as {name}")
            return None if known.name == name else replace(known, name=name)
        if len(self.by_key) >= self.max_players:
            raise ProtocolError("too-many-players", f"this server knows {self.max_players} players, its limit; "
                                                    f"play as a guest or ask its host")
        if not self._bucket(host, now).take(now):
            raise ProtocolError("too-many-players", f"{host or 'this machine'} has registered {NEW_BURST} new "
                                                    f"players in a short while, the most it may; try again later")
        return Player(next_id, name, digest)

    def _bucket(self, host: str, now: float) -> Bucket:
        bucket = self._quota.get(host)
        if bucket is None:
            if len(self._quota) >= HOSTS_REMEMBERED:
                self._quota.pop(next(iter(self._quota)))
            bucket = self._quota[host] = Bucket(NEW_PER_HOUR / 3600, NEW_BURST, now)
        return bucket


def _taken(name: str) -> ProtocolError:
    return ProtocolError("name-taken", f"name: another player already uses the name {name!r} on this server; "
                                       f"pick another name")


def _is_bot(name: str) -> bool:
    """Whether ``name`` is a bot's (any case): bots' names are nobody else's, rated or not."""
    key = name_key(name)
    return key in all_bot_ratings() or any(key in kinds.get(kind).bots for kind in kinds.names())
