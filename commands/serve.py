"""`board99 serve`: the LAN game server in the foreground (docs/server.md)."""

from __future__ import annotations

import argparse
import sys

from board99.server.serve import serve as run_server


def serve(args: argparse.Namespace) -> int:
    """`board99 serve`: run the LAN game server in the foreground."""
    try:
        return run_server(args.bind, args.port, args.data, curve=args.curve, name=args.name,
                          beacon=not args.no_beacon, bot_delay=args.bot_delay, fsync=args.fsync,
                          web_port=args.web_port, web=not args.no_web, qr=args.qr)
    except (OSError, RuntimeError, ValueError) as exc:
        print(f"board99 serve: {exc}", file=sys.stderr)
        return 2
