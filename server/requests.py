"""The request handlers, one function per request type (docs/protocol.md, *Requests and replies*).

Each takes the server's state, the connection and the request's checked
fields, and returns the reply's fields, or None when it has queued its reply
itself; a refusal is raised (``ProtocolError`` or the engine's ``Refused``)
and the core turns it into an ``error``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from board99 import kinds
from board99.kinds import Refusal
from board99.wire.listings import Met, PlayerHistory, Rating, RecordEntry
from board99.wire.protocol import (
    DEFAULT_NAME,
    LIST_MAX,
    PAGE_DEFAULT,
    PROTOCOL_VERSION,
    ProtocolError,
)

from .finish import finish_if_decided, next_game_by_itself
from .play import act
from .players import Player, key_digest, name_key
from .presence import Bucket, Conn
from .ratings import bot_ratings
from .state import State
from .tables import Table
from .tournaments import BOT_PREFIX, table_name

log = logging.getLogger("board99.server")

Handler = Callable[[State, Conn, dict[str, Any]], "dict[str, Any] | None"]


def snapshot_of(state: State, t: Table, seat: int | None) -> dict[str, Any]:
    """The snapshot fields of a reply: the table, the seat, its seq and the seat's view."""
    return {"table": t.describe(state.now), "seat": seat, "seq": t.seq, "view": t.view_data(seat)}


def _opening(t: Table, seat: int | None) -> dict[str, Any]:
    # A game's first deal began: its `dealt` event, for the reply that says so.
    return {"events": [t.kind.event_for(e, seat) for e in t.game.opening]}


def _held(conn: Conn) -> ProtocolError:
    return ProtocolError("already-seated", f"this connection holds S{conn.seat} at table {conn.table}; leave it first")


def hello(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Check the protocol version; the server's name, epoch and heartbeat settings."""
    if f["version"] != PROTOCOL_VERSION:
        raise ProtocolError("bad-version", f"version: this server speaks protocol {PROTOCOL_VERSION}, "
                                           f"not {f['version']}")
    name = f.get("name") or conn.name
    player = None
    known = state.players.by_key.get(key_digest(f["key"])) if "key" in f else None
    placeholder = name_key(name) == name_key(DEFAULT_NAME)
    if known is not None and placeholder:
        name = known.name  # a window that chose no name yet is its key's player, under their own name
    if "key" in f and (known is not None or not placeholder):  # the placeholder registers nobody
        claimed = state.players.claim(name, f["key"], conn.host, state.now, state.journal.next_player_id())
        if claimed is not None:
            state.journaled("player", state.journal.save_player, claimed,
                            refusal="the player could not be saved, so the name is not yours yet")
            new = claimed.id not in state.players.by_id
            state.players.adopt(claimed)
            log.info("event=player-%s player=%d name=%r conn=%s", "new" if new else "renamed", claimed.id,
                     claimed.name, conn.label)
        player = state.players.by_key[key_digest(f["key"])]
    else:  # a guest, or a key not yet registered while the window has no name of its own
        state.players.check_guest_name(name)
    conn.name, conn.player = name, None if player is None else player.id
    log.info("event=hello conn=%s name=%r player=%s", conn.label, conn.name, conn.player)
    s = state.settings
    reply = {"version": PROTOCOL_VERSION, "server": s.name, "epoch": s.epoch,
             "heartbeat": s.heartbeat, "lost_after": s.lost_after, "curve": s.curve,
             "player": None if player is None else {"name": player.name, "rating": player.skill.shown,
                                                    "spread": player.skill.spread, "games": player.games}}
    if s.web is not None:
        reply["web"] = s.web
    return reply


def ping(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Heartbeat: which table and seat the server links to this connection, and that table's seq."""
    t = state.lobby.tables.get(conn.table) if conn.table else None
    return {"epoch": state.settings.epoch, "table": conn.table, "seat": conn.seat,
            "seq": None if t is None else t.seq}


def list_tables(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """One page of the lobby: waiting tables first, then games being played, then finished ones; newest first."""
    tables = state.lobby.in_order()
    offset, limit = f.get("offset", 0), f.get("limit", PAGE_DEFAULT)
    return {"tables": [t.describe(state.now) for t in tables[offset:offset + limit]],
            "total": len(tables), "offset": offset}


def _quota(state: State, conn: Conn, what: str) -> None:
    """A new game (a table, a rematch) takes one from the connection's quota, or is refused."""
    if not conn.games.take(state.now):
        raise ProtocolError("too-often", f"{what}: this connection has started {conn.games.burst:g} games in a "
                                         f"short while, the most it may; try again in "
                                         f"{conn.games.wait(state.now):.0f} s")


def create_table(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """A new table, journaled before it is in the lobby."""
    settings = f["settings"]  # the kind's check of game, players, mode and options (wire.protocol.table_settings)
    t = state.lobby.create(f["name"], settings.players, settings.mode, f.get("clock"), f.get("grace"),
                           creator=conn.ident, per_creator=state.settings.tables_per_conn,
                           host=conn.host, per_host=state.settings.tables_per_host, match=f.get("match"),
                           rated=f.get("rated", False), bot_pace=f.get("bot_pace", "quick"),
                           kind=f["kind"], settings=settings)
    _quota(state, conn, "create_table")
    t.idle_since = state.now  # nobody sits at it yet
    state.journaled("created", state.journal.save_table, t, True, table=t,
                    refusal="the table could not be saved, so it was not made")
    state.lobby.add(t)
    log.info("event=table-created table=%s conn=%s name=%r game=%s players=%d mode=%s clock=%s grace=%g bot_pace=%s",
             t.id, conn.label, t.name, t.kind.name, t.players, t.mode, t.clock, t.grace, t.bot_pace)
    return {"table": t.describe(state.now)}


def _unfollow(state: State, conn: Conn) -> None:
    if conn.table is not None and conn.seat is None:
        t = state.lobby.tables.get(conn.table)
        if t is not None:
            t.spectators.discard(conn.ident)
        conn.table = None


def take_seat(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Sit a person; the reply carries the secret seat token. Filling the last seat starts the game."""
    if conn.seat is not None:
        raise _held(conn)
    t = state.lobby.get(f["table"])
    staged = t.staged()
    player = state.players.by_id.get(conn.player) if conn.player is not None else None
    token = staged.take(f["seat"], f.get("colour"), conn.name, conn.ident, player)
    started = staged.start_if_full(state.now)
    state.commit(t, staged, "started" if started else "seat-taken", exclude=conn.ident, dealt=started)
    _unfollow(state, conn)
    conn.table, conn.seat = t.id, f["seat"]
    log.info("event=seat-taken table=%s seat=%d conn=%s name=%r", t.id, conn.seat, conn.label, conn.name)
    if started:
        log.info("event=table-started table=%s game=%d", t.id, t.game_no)
    reply = {"token": token, **snapshot_of(state, t, conn.seat)}
    if started:
        reply.update(_opening(t, conn.seat))
    return reply


def add_bot(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """A server bot in an empty seat, asked for by a player seated at that table or by the table's creator.

    It may start the game, or the rematch waiting for that seat.
    """
    t = state.lobby.get(f["table"])
    if conn.table == t.id and conn.seat is not None:
        _own_seat(state, conn, f)
    elif t.creator != conn.ident:
        raise ProtocolError("not-seated", f"only a player seated at table {t.id}, or the connection that created "
                                          f"it, may put a bot in its seats; take a seat there first")
    staged = t.staged()
    staged.add_bot(f["seat"], f.get("bot", "rulebook"))
    started = staged.start_if_full(state.now)
    state.commit(t, staged, "started" if started else "bot-seated", dealt=started)
    log.info("event=bot-seated table=%s seat=%d bot=%s conn=%s", t.id, f["seat"], t.seats[f["seat"]].bot,
             conn.label)
    if started:
        log.info("event=table-started table=%s game=%d", t.id, t.game_no)
    staged = t.staged()
    if staged.start_rematch_if_ready(state.now):  # the bot filled the last seat everyone's rematch waited for
        _quota(state, conn, "rematch")
        state.commit(t, staged, "rematch", dealt=True)
        log.info("event=rematch table=%s game=%d", t.id, t.game_no)
    return {"table": t.describe(state.now)}


def spectate(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Follow a table with the public view."""
    if conn.seat is not None:
        raise _held(conn)
    t = state.lobby.get(f["table"])
    _unfollow(state, conn)
    t.spectators.add(conn.ident)
    conn.table = t.id
    log.info("event=spectate table=%s conn=%s", t.id, conn.label)
    return snapshot_of(state, t, None)


def resume(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Take a seat back with its token, on this connection (also a seat its player left mid-game)."""
    t = state.lobby.get(f["table"])
    seat = f["seat"]
    if conn.seat is not None and (conn.table, conn.seat) != (t.id, seat):
        raise _held(conn)
    s = t.check_token(seat, f["token"])
    if conn.player is not None:  # the token proves the seat; a proven key must still be the seat's player
        t.check_one_seat(seat, conn.player, conn.name)
    old = s.conn
    if old == conn.ident:
        return snapshot_of(state, t, seat)  # this connection holds it already: nothing changes
    if not state.presence.may_resume(t.id, seat, state.now):
        raise ProtocolError("too-often", f"S{seat} at table {t.id} has been resumed too often in the last minute; "
                                         f"wait a few seconds")
    was_left = s.vacated
    if was_left:
        staged = t.staged()
        staged.resume(seat, f["token"], conn.ident)
        state.commit(t, staged, "presence", exclude=conn.ident)
    else:
        t.resume(seat, f["token"], conn.ident)
    if old is not None and old in state.presence.conns:
        gone = state.presence.conns[old]
        gone.table = gone.seat = None  # the seat followed its token to this connection
    _unfollow(state, conn)
    conn.table, conn.seat = t.id, seat
    state.presence.back(t.id, seat)
    log.info("event=resume table=%s seat=%d conn=%s", t.id, seat, conn.label)
    if not was_left:
        state.changed(t, "presence", exclude=conn.ident)
    return snapshot_of(state, t, seat)


def _own_seat(state: State, conn: Conn, f: dict[str, Any]) -> None:
    """A seated connection's request about its seat must carry that seat's token."""
    if conn.seat is not None and conn.table is not None:
        t = state.lobby.get(conn.table)
        if "token" not in f:
            raise ProtocolError("bad-token", f"token: missing; requests for S{conn.seat} at table {t.id} "
                                             f"carry the seat's token")
        t.check_token(conn.seat, f["token"])


def leave(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Give up the seat (during a game a bot plays on, and the seat is kept for its token) or stop spectating."""
    if conn.table is None:
        return {}
    _own_seat(state, conn, f)
    t = state.lobby.tables.get(conn.table)
    if conn.seat is None:
        _unfollow(state, conn)
        return {}
    seat = conn.seat
    if t is not None:
        staged = t.staged()
        staged.leave(staged.seats[seat])
        state.commit(t, staged, "seat-left")
        state.presence.back(t.id, seat)
        log.info("event=seat-left table=%s seat=%d conn=%s state=%s", t.id, seat, conn.label, t.state)
    conn.table, conn.seat = None, None
    return {}


def _seated(state: State, conn: Conn) -> Table:
    if conn.table is None or conn.seat is None:
        raise ProtocolError("not-seated", "this connection holds no seat; take one or resume with its token")
    return state.lobby.get(conn.table)


def rematch(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """This seat asks for another game; it starts when every person at the table has asked."""
    t = _seated(state, conn)
    _own_seat(state, conn, f)
    assert conn.seat is not None
    staged = t.staged()
    started = staged.vote_rematch(conn.seat, state.now)
    if started:
        _quota(state, conn, "rematch")
    state.commit(t, staged, "rematch" if started else "rematch-vote", exclude=conn.ident, dealt=started)
    if started:
        log.info("event=rematch table=%s game=%d", t.id, t.game_no)
    reply = snapshot_of(state, t, conn.seat)
    if started:
        reply.update(_opening(t, conn.seat))
    return reply


def snapshot(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """The current state of the table this connection follows."""
    if conn.table is None:
        raise ProtocolError("not-seated", "this connection follows no table; take a seat or spectate first")
    _own_seat(state, conn, f)
    t = state.lobby.get(conn.table)
    return snapshot_of(state, t, conn.seat)


def fetch_record(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """A finished game's record (seed revealed), also of a closed table; a game in progress has none yet.

    With ``whole_match``: the match record of the match that game belongs to (its finished games so far).
    """
    t = state.lobby.tables.get(f["table"])
    game = f.get("game")
    if f.get("whole_match"):
        text = state.journal.match_record(f["table"], game)
        if text is None and state.journal.record(f["table"], game) is not None:
            raise ProtocolError("no-record", f"game: that game at table {f['table']} was not part of a match")
    else:
        text = state.journal.record(f["table"], game)
    if text is None:
        if t is None:
            raise ProtocolError("no-such-table", f"table: there is no table {f['table']!r} on this server")
        if game is None or game == t.game_no:
            raise ProtocolError("not-over", f"table {t.id}: no game has finished yet; a record is kept "
                                            f"secret (its seed too) until its game ends")
        raise ProtocolError("no-record", f"game: table {t.id} has no finished game {game}")
    return {"record": text}


def history(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """What has happened in the followed table's game so far, as a spectator may see it.

    The public record lines (drawn cards unnamed, the seed hidden) and the public view after the
    deal and after each action: the game is replayed from its seed here, and only ``view(None)``
    of each position leaves the server.
    """
    if conn.table is None:
        raise ProtocolError("not-seated", "this connection follows no table; spectate or take a seat first")
    t = state.lobby.get(conn.table)
    if t.state == "waiting":
        raise ProtocolError("not-started", f"table {t.id} is waiting for players; the game has not begun")
    if not conn.games.take(state.now):  # a replay costs the server a game's worth of work
        raise ProtocolError("too-often", f"history: asked too often; try again in {conn.games.wait(state.now):.0f} s")
    kind = t.kind
    public = kind.record_text(t.game, reveal=False)
    views: list[dict[str, Any]] = []
    ply = -1
    for _, _, replay in kind.replay_record(kind.record_text(t.game)):
        if replay.ply != ply:  # the game as dealt, then after each action
            ply = replay.ply
            views.append(kind.view_to_data(kind.view(replay, t.settings, None)))
    return {"lines": public.partition("\n\n")[2].splitlines(), "views": views}


def list_records(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """A page of the finished games the server keeps, newest first (one player's, if named)."""
    player_id = None
    if f.get("player") is not None:
        player_id = _player(state, f["player"]).id
    rows, total = state.journal.finished_games(f.get("offset", 0), f.get("limit", LIST_MAX), player_id)
    return {"records": [RecordEntry(**r).to_data() for r in rows], "total": total}


def _player(state: State, name: str) -> Player:
    found = state.players.named(name)
    if found is None:
        raise ProtocolError("no-such-player", f"name: no player called {name!r} on this server")
    return found


def _rating(p: Player, game: str = kinds.DEFAULT) -> Rating:
    s = p.standing(game)
    return Rating(p.name, s.skill.shown, s.skill.spread, s.games, s.wins)


def leaderboard(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """One game kind's players by conservative rating (mean less three deviations), its bots among them at
    their fixed ratings."""
    game = kinds.get(f.get("game", kinds.DEFAULT))
    entries = [(p.standing(game.name).skill.rank_key, _rating(p, game.name)) for p in state.players.by_id.values()
               if p.standing(game.name).games > 0]
    entries += [(skill.rank_key, Rating(name, skill.shown, 0, 0, 0, bot=True))
                for name, skill in bot_ratings(game).items()]
    entries.sort(key=lambda e: (-e[0], e[1].name.casefold()))
    offset, limit = f.get("offset", 0), f.get("limit", LIST_MAX)
    return {"players": [r.to_data() for _, r in entries[offset:offset + limit]], "total": len(entries)}


def player(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """One player's rating, partners, opponents and latest games."""
    p = _player(state, f["name"])
    partners, opponents = state.journal.met(p.id)
    games, _ = state.journal.finished_games(0, LIST_MAX, p.id)
    history = PlayerHistory(_rating(p, f.get("game", kinds.DEFAULT)), tuple(Met(*m) for m in partners), tuple(Met(*m) for m in opponents),
                            tuple(RecordEntry(**g) for g in games))
    return {"player": history.to_data()}


def create_tournament(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """A new tournament of entrants (registered players or bots); the reply carries its steering token."""
    tournament, token = state.tournaments.new(f["name"], f["players"], f["entrants"], f["rounds"], f["match"],
                                              known=lambda name: state.players.named(name) is not None,
                                              kind=kinds.get(f.get("game", kinds.DEFAULT)))
    _quota(state, conn, "create_tournament")
    state.journaled("created", state.journal.save_tournament, tournament.id, tournament.to_data(),
                    tournament=tournament.id, refusal="the tournament could not be saved, so it was not made")
    state.tournaments.by_id[tournament.id] = tournament
    log.info("event=tournament-created tournament=%s entrants=%d rounds=%d conn=%s", tournament.id,
             len(tournament.entrants), tournament.rounds, conn.label)
    return {"tournament": tournament.info(state.lobby.tables).to_data(), "token": token}


def next_round(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """Open the tournament's next round: one match table per pairing, each seat kept for its player."""
    tournaments = state.tournaments
    tournament = tournaments.get(f["tournament"])
    tournaments.check_token(tournament, f["token"])
    number = tournament.round + 1
    matches: list[tuple[str | None, int, int | None]] = []
    for a, b in tournaments.next_pairings(tournament):
        if b is None:
            matches.append((None, a, None))
            continue
        settings = tournament.settings
        t = state.lobby.create(table_name(tournament.name, number, tournament.entrants[a], tournament.entrants[b]),
                               settings.players, settings.mode, None, None, match=tournament.match,
                               kind=tournament.game, settings=settings)
        t.tournament = tournament.id
        for seat, who in enumerate(tournaments.seats_for(tournament, a, b)):
            if who.startswith(BOT_PREFIX):
                t.add_bot(seat, who[len(BOT_PREFIX):])
            else:
                t.seats[seat].reserved = who
        t.start_if_full(state.now)
        t.idle_since = None
        state.journaled("created", state.journal.save_table, t, True, table=t, tournament=tournament.id,
                        refusal="a table of the round could not be saved; try again")
        state.lobby.add(t)
        state.schedule(t)
        matches.append((t.id, a, b))
    updated = tournaments.with_round(tournament, matches)
    state.journaled("round", state.journal.save_tournament, updated.id, updated.to_data(), tournament=updated.id,
                    refusal="the round could not be saved; try again")
    tournaments.by_id[updated.id] = updated
    for table_id, _, _ in matches:  # a game its deal decided ends now (the round counts it), and the match goes on
        if table_id is not None and finish_if_decided(state, state.lobby.tables[table_id]):
            next_game_by_itself(state, state.lobby.tables[table_id])
    log.info("event=tournament-round tournament=%s round=%d tables=%d", updated.id, number,
             sum(1 for m in matches if m[0] is not None))
    return {"tournament": updated.info(state.lobby.tables).to_data()}


def list_tournaments(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """The server's tournaments, newest first, each with its pairings and standings."""
    every = list(reversed(list(state.tournaments.by_id.values())))
    offset, limit = f.get("offset", 0), f.get("limit", PAGE_DEFAULT)
    return {"tournaments": [t.info(state.lobby.tables).to_data() for t in every[offset:offset + limit]],
            "total": len(every)}


def _advise(t: Table, seat: int) -> Any:
    """The kind's coach's advice from ``seat``'s own view; ``hints-off`` where the kind has no coach."""
    advice = t.kind.advise(t.view(seat))
    if advice is None:
        raise ProtocolError("hints-off", f"table {t.id} plays {t.kind.title}, which has no coach")
    return advice


def hint(state: State, conn: Conn, f: dict[str, Any]) -> dict[str, Any]:
    """The coach's advice for this connection's seat at its table now; the table hears that it asked.

    The advice is the kind's ``advise`` of the seat's own view, nothing else, so it cannot carry
    another hand or the deck's order. Asking is no secret: the first ask at a position is journaled
    (the finished record's ``hints`` line), counted in the table description (``seats[].hints``) and
    announced to the others with a ``hint`` change. Asking again at the same position gives the same
    advice at no cost and tells nobody again; new positions draw on the seat's quota, so no client
    can make the server think without bound.
    """
    t = _seated(state, conn)
    _own_seat(state, conn, f)
    seat = conn.seat
    assert seat is not None
    if not t.coach:
        what = "rated" if t.rated else "playing a match"
        raise ProtocolError("hints-off", f"table {t.id} is {what}: the coach gives hints at casual tables only, "
                                         f"never at rated or match tables")
    if t.state == "waiting":
        raise ProtocolError("not-started", f"table {t.id} is waiting for players; the coach advises once the "
                                           f"game is under way")
    if t.game.over:
        raise Refusal("deal-over", f"{t.kind.summary(t.game)}; the coach has nothing to advise until the "
                                   f"next game")
    key = (t.game_no, t.game.ply)
    kept = t.advice.get(seat)
    if kept is not None and kept[0] == key:
        return {"advice": kept[1].to_data(), **snapshot_of(state, t, seat)}  # asked already here: told already
    if (seat, t.game.ply) in t.hints:  # asked here before a restart: journaled and announced then
        advice = _advise(t, seat)
        t.advice[seat] = (key, advice)
        return {"advice": advice.to_data(), **snapshot_of(state, t, seat)}
    quota = t.hint_quota.get(seat)
    if quota is None:
        s = state.settings
        quota = t.hint_quota[seat] = Bucket(s.hints_per_minute / 60, s.hints_burst, state.now)
    if not quota.take(state.now):
        raise ProtocolError("too-often", f"hint: S{seat} has asked the coach {quota.burst:g} times in a short "
                                         f"while, the most it may; try again in {quota.wait(state.now):.0f} s")
    advice = _advise(t, seat)
    state.journaled("hint", state.journal.save_hint, t, seat, t.seq + 1, table=t,
                    refusal="the hint could not be saved, so it was not given")
    t.seq += 1
    t.hints.append((seat, t.game.ply))
    t.advice[seat] = (key, advice)
    log.info("event=hint table=%s seat=%d ply=%d applies=%s", t.id, seat, t.game.ply, advice.applies)
    state.announce(t, "hint", exclude=conn.ident, by=seat)
    return {"advice": advice.to_data(), **snapshot_of(state, t, seat)}


#: Request type -> its handler (the request types of board99.wire.protocol.REQUESTS).
HANDLERS: dict[str, Handler] = {
    "hello": hello, "ping": ping, "list_tables": list_tables, "create_table": create_table,
    "take_seat": take_seat, "add_bot": add_bot, "spectate": spectate, "resume": resume, "leave": leave,
    "rematch": rematch, "snapshot": snapshot, "act": act, "fetch_record": fetch_record, "history": history,
    "list_records": list_records, "leaderboard": leaderboard, "player": player,
    "create_tournament": create_tournament, "next_round": next_round, "list_tournaments": list_tournaments,
    "hint": hint,
}

