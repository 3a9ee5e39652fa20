"""Who is here: the connections the server has heard from, and the seats whose person is away.

This is the one place a lost seat is tracked: ``Presence.away`` holds every
person's seat whose connection went silent (or every seat after a restart),
with the time it was lost; a seat is in it exactly while it has a person and
no connection. The core's sweep reads it to hand a long-lost seat to a bot
(``takeover``) or to free it when no game is running.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Conn:
    """What the server knows of one connection (one DEALER socket on the other side)."""

    ident: bytes
    last_seen: float
    tokens: float  # the rate limiter's bucket
    stamp: float  # when the bucket was last filled
    name: str = "player"
    table: str | None = None
    seat: int | None = None  # None with a table: spectating
    warned: float = -1e9  # when the last rate-limit error went out
    rid: int | None = None  # the id of the request being handled
    label: str = field(init=False)

    def __post_init__(self) -> None:
        self.label = self.ident.hex()


class Presence:
    """Connections by identity, the rate limit they share, and the seats whose person is away."""

    def __init__(self, lost_after: float, rate: float | None, burst: float) -> None:
        self.lost_after = lost_after
        self.rate, self.burst = rate, burst
        self.conns: dict[bytes, Conn] = {}
        #: (table id, seat) -> when its person was lost.
        self.away: dict[tuple[str, int], float] = {}

    # -- connections ----------------------------------------------------------------------

    def heard(self, ident: bytes, now: float) -> tuple[Conn, bool]:
        """The connection a message came from (made on first contact), and whether it is new."""
        conn = self.conns.get(ident)
        fresh = conn is None
        if conn is None:
            conn = self.conns[ident] = Conn(ident, now, self.burst, now)
        conn.last_seen = now
        return conn, fresh

    def admit(self, conn: Conn, now: float) -> bool:
        """Take one message from ``conn``'s token bucket; False when it is over the rate limit."""
        if self.rate is None:
            return True
        conn.tokens = min(self.burst, conn.tokens + (now - conn.stamp) * self.rate)
        conn.stamp = now
        if conn.tokens < 1:
            return False
        conn.tokens -= 1
        return True

    def silent(self, now: float) -> list[Conn]:
        """Forget the connections silent for longer than ``lost_after``, and return them."""
        gone = [c for c in self.conns.values() if now - c.last_seen > self.lost_after]
        for conn in gone:
            del self.conns[conn.ident]
        return gone

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
