"""Commands that reach a server over the network as a client: whether one answers (``reachable``), and
`board99 bot`, a bot from this machine at a table there."""

from __future__ import annotations

import argparse
import sys

from board99.bots import make_bot
from board99.client.net import GameClient, ServerError, endpoint_for, play_bot


def reachable(command: str, server: str, key: str | None = None, timeout: float = 3.0) -> str | None:
    """The endpoint of a board99 server answering at ``server``, or None (the reason printed)."""
    try:
        endpoint = endpoint_for(server)
        with GameClient(endpoint, server_key=key, timeout=timeout) as client:
            client.hello()
        return endpoint
    except ValueError as exc:
        print(f"board99 {command}: {exc}", file=sys.stderr)
    except ServerError as exc:
        why = ("no board99 server answers there" if exc.code in ("timeout", "disconnected") else exc.message)
        print(f"board99 {command}: {server}: {why} (is `board99 serve` running, and is the port open?)",
              file=sys.stderr)
    return None


def bot(args: argparse.Namespace) -> int:
    """`board99 bot`: seat a bot from this machine at a table on a server, and play until the game ends."""
    try:
        client = GameClient(endpoint_for(args.server), server_key=args.key, name=args.name or f"{args.bot} bot")
    except (ValueError, ServerError) as exc:
        print(f"board99 bot: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    try:
        client.take_seat(args.table, args.seat, args.colour)
        assert client.table is not None
        print(f"seated at table {args.table} as S{args.seat} ({client.table.seats[args.seat].colour})", flush=True)
        while True:
            view = play_bot(client, make_bot(args.bot), until=None)
            if view is not None:
                print(f"game over: side {view.winner} won after {view.ply} actions", flush=True)
            if not args.rematch:
                break
            client.rematch()
    except ServerError as exc:
        print(f"board99 bot: {exc.code}: {exc.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        client.close()
    return 0
