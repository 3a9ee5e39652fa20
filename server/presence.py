"""Who is here: the connections the server has heard from, and the seats whose person is away.

This is the one place a lost seat is tracked: ``Presence.away`` holds every
person's seat whose connection went silent (or every seat after a restart),
with the time it was lost; a seat is in it exactly while it has a person and
no connection. The core's sweep reads it to hand a long-lost seat to a bot
(``takeover``) or to free it when no game is running.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from board99.wire.protocol import DEFAULT_NAME

if TYPE_CHECKING:
    from .seating import ProvedToken


class Bucket:
    """A token bucket: ``rate`` a second sustained, ``burst`` at once; ``take`` one if there is one."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, burst, now

    def take(self, now: float) -> bool:
        """True (and one token fewer) if a token is left at ``now``."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def available(self, now: float) -> float:
        """Tokens in the bucket at ``now`` (taking none)."""
        return min(self.burst, self.tokens + (now - self.stamp) * self.rate)

    def wait(self, now: float) -> float:
        """Seconds until the next token."""
        return max(0.0, (1 - self.tokens) / self.rate) if self.rate else float("inf")


#: New games (create_table, and a rematch) one connection may start: per hour, and at once.
GAMES_PER_HOUR, GAMES_BURST = 120, 20
#: Resumes of one seat: per minute, and at once.
RESUMES_PER_MINUTE, RESUMES_BURST = 10, 5
#: Error lines logged for one connection: per second, and at once; the rest are counted.
LOG_PER_SECOND, LOG_BURST = 5, 20


@dataclass
class Conn:
    """What the server knows of one connection (one DEALER socket on the other side)."""

    ident: bytes
    last_seen: float
    name: str = DEFAULT_NAME
    host: str = ""  # the peer's address, as libzmq gives it ("Peer-Address")
    link: int | None = None  # the TCP link (socket descriptor) its first message came over, if known
    table: str | None = None
    seat: int | None = None  # None with a table: spectating
    player: int | None = None  # the registered player this connection proved to be (hello with a key)
    warned: float = -1e9  # when the last rate-limit error went out
    rid: int | None = None  # the id of the request being handled
    #: The seat token this connection last proved in an ``act`` (seating.ProvedToken): its next act
    #: with the same token, while the seat's digest is unchanged, skips the SHA-256.
    proved: ProvedToken | None = None
    label: str = field(init=False)
    messages: Bucket | None = None  # the rate limit's bucket (None: no rate limit)
    games: Bucket = field(init=False)  # the new-games quota
    log_budget: Bucket = field(init=False)  # error lines this connection may still cause
    unlogged: int = 0  # error lines left out since the last summary

    def __post_init__(self) -> None:
        self.label = self.ident.hex()
        self.games = Bucket(GAMES_PER_HOUR / 3600, GAMES_BURST, self.last_seen)  # Presence may set another
        self.log_budget = Bucket(LOG_PER_SECOND, LOG_BURST, self.last_seen)


class Presence:
    """Connections by identity, the rate limit they share, and the seats whose person is away."""

    def __init__(self, lost_after: float, rate: float | None, burst: float, max_conns: int = 1000,
                 games: tuple[float, float] = (GAMES_PER_HOUR, GAMES_BURST), per_host: int = 64) -> None:
        self.lost_after = lost_after
        self.rate, self.burst = rate, burst
        self.max_conns, self.per_host = max_conns, per_host
        self.hosts: dict[str, int] = {}  # peer address -> connections from it
        self.games_per_hour, self.games_burst = games
        self.conns: dict[bytes, Conn] = {}
        #: (table id, seat) -> the bucket of that seat's resumes.
        self.resumes: dict[tuple[str, int], Bucket] = {}
        #: (table id, seat) -> when its person was lost.
        self.away: dict[tuple[str, int], float] = {}
        #: TCP link (socket descriptor) -> the connections heard over it: a closed link finds its
        #: connections at once, not by a scan of every connection (a storm of closing links).
        self.links: dict[int, set[bytes]] = {}

    # -- connections ----------------------------------------------------------------------

    def heard(self, ident: bytes, now: float, host: str = "") -> tuple[Conn | None, str]:
        """The connection a message came from (made on first contact), and "new", "known" or why it is not served.

        Not served (None) when the server already follows ``max_conns`` connections, or ``per_host``
        from that address: one machine cannot crowd every other out.
        """
        conn = self.conns.get(ident)
        if conn is not None:
            conn.last_seen = now
            return conn, "known"
        if len(self.conns) >= self.max_conns:
            return None, f"the server serves {self.max_conns} connections, its limit; try again later"
        if host and self.hosts.get(host, 0) >= self.per_host:
            return None, f"{self.per_host} connections from {host} are served already, the most one machine gets"
        conn = self.conns[ident] = Conn(ident, now, host=host)
        if self.rate is not None:
            conn.messages = Bucket(self.rate, self.burst, now)
        self.hosts[host] = self.hosts.get(host, 0) + 1
        conn.games = Bucket(self.games_per_hour / 3600, self.games_burst, now)
        return conn, "new"

    def bind_link(self, conn: Conn, link: int | None) -> None:
        """``conn`` speaks over the TCP link ``link`` (its first message came over it)."""
        conn.link = link
        if link is not None:
            self.links.setdefault(link, set()).add(conn.ident)

    def admit(self, conn: Conn, now: float) -> bool:
        """Take one message from ``conn``'s token bucket; False when it is over the rate limit."""
        return conn.messages is None or conn.messages.take(now)

    def may_resume(self, table: str, seat: int, now: float) -> bool:
        """A seat may be resumed a few times a minute, however many connections try (resume spam)."""
        bucket = self.resumes.get((table, seat))
        if bucket is None:
            bucket = self.resumes[(table, seat)] = Bucket(RESUMES_PER_MINUTE / 60, RESUMES_BURST, now)
        return bucket.take(now)

    def forget_table(self, table: str) -> None:
        """A table closed: nothing of it is kept here."""
        for key in [k for k in self.away if k[0] == table]:
            del self.away[key]
        for key in [k for k in self.resumes if k[0] == table]:
            del self.resumes[key]

    def silent(self, now: float) -> list[Conn]:
        """Forget the connections silent for longer than ``lost_after``, and return them."""
        gone = [c for c in self.conns.values() if now - c.last_seen > self.lost_after]
        for conn in gone:
            self.forget(conn)
        return gone

    def over_link(self, link: int) -> list[Conn]:
        """Forget the connections whose messages came over the TCP link ``link`` (it closed), and return them."""
        gone = [c for c in map(self.conns.get, self.links.get(link, ())) if c is not None and c.link == link]
        for conn in gone:
            self.forget(conn)
        return gone

    def forget(self, conn: Conn) -> None:
        """The connection is gone: a later message with its routing id is a new connection."""
        if self.conns.get(conn.ident) is not conn:
            return
        del self.conns[conn.ident]
        if conn.link is not None:
            idents = self.links.get(conn.link)
            if idents is not None:
                idents.discard(conn.ident)
                if not idents:
                    del self.links[conn.link]
        left = self.hosts.get(conn.host, 1) - 1
        if left > 0:
            self.hosts[conn.host] = left
        else:
            self.hosts.pop(conn.host, None)

    # -- seats whose person is away --------------------------------------------------------

    def lose(self, table: str, seat: int, now: float) -> None:
        """The person of this seat is away from ``now`` (kept if already away)."""
        self.away.setdefault((table, seat), now)

    def back(self, table: str, seat: int) -> bool:
        """The seat's person is here again (or gone for good); True if the seat was away."""
        return self.away.pop((table, seat), None) is not None

    def away_for(self, table: str, seat: int, now: float) -> float | None:
        """Seconds the seat's person has been away, or None if they are not."""
        since = self.away.get((table, seat))
        return None if since is None else now - since
