"""`board99 tournament new|next|show`: start and steer a club tournament on a server (docs/tournaments.md)."""

from __future__ import annotations

import argparse
import csv
import shlex
import sys
from typing import Any

from board99.client.net import GameClient, ServerError
from board99.match import MatchFormat

from .remote import reachable


def tournament(args: argparse.Namespace) -> int:
    """`board99 tournament new|next|show`: start and steer a club tournament on a server."""
    if args.action != "new" and args.id is None:
        print(f"board99 tournament {args.action}: give the tournament's id", file=sys.stderr)
        return 2
    if args.action == "next" and not args.token:
        print("board99 tournament next: give --token, as `board99 tournament new` printed it", file=sys.stderr)
        return 2
    endpoint = reachable("tournament", args.server, args.key)
    if endpoint is None:
        return 2
    with GameClient(endpoint, server_key=args.key, name=args.host_name) as client:
        try:
            if args.action == "new":
                sides = [[n.strip() for n in side.split(",")] for side in args.side]
                fmt = MatchFormat("games", args.games) if args.games else MatchFormat("first-to", args.first_to)
                info, token = client.create_tournament(args.name, args.players, sides, args.rounds, fmt)
                print(f"tournament {info.id} ({info.format}, {info.rounds} rounds, {info.match}); "
                      f"steering token {token}\n(keep the token: `{next_command(info.id, args.server, token, args.key)}`"
                      f" opens each round)")
                return 0
            if args.action == "next":
                info = client.next_round(args.id, args.token)
                print(f"round {info.round} of {info.rounds} opened:")
                for p in info.pairings:
                    if p.round == info.round:
                        a = " & ".join(info.entrants[p.a])
                        b = "a bye" if p.b is None else " & ".join(info.entrants[p.b])
                        print(f"  {a} v {b}" + ("" if p.table is None else f"  at table {p.table}"))
                return 0
            found = next((t for t in client.tournaments() if t.id == args.id), None)
            if found is None:
                print(f"board99 tournament: no tournament {args.id} on {args.server}", file=sys.stderr)
                return 1
            print(f"{found.name}: {found.format}, {found.match}, round {found.round} of {found.rounds} ({found.state})")
            rows = standings_rows(found)
            for row in rows:
                print("  ".join(f"{cell:<14}" if i == 1 else f"{cell:>8}" for i, cell in enumerate(row)))
            if args.csv:
                with open(args.csv, "w", newline="", encoding="utf-8") as f:
                    csv.writer(f).writerows(rows)
                print(f"wrote {args.csv}")
            return 0
        except ServerError as exc:
            print(f"board99 tournament: {exc.code}: {exc.message}", file=sys.stderr)
            return 1


def next_command(tournament: str, server: str, token: str, key: str | None = None) -> str:
    """The command that opens a tournament's next round, every option it needs, quoted for a shell.

    >>> next_command("3f2a9c01", "den", "ab12")
    'board99 tournament next 3f2a9c01 --server den --token ab12'
    """
    words = ["board99", "tournament", "next", tournament, "--server", server, "--token", token]
    if key:
        words.append(f"--key={key}")  # a key may begin with '-': one word with its option
    return shlex.join(words)


def standings_rows(info: Any) -> list[list[str]]:
    """The standings as a table: a heading row naming each tie-break, then one row per side."""
    rows = [["place", "side", "played", "points", "buchholz", "sonneborn-berger", "game diff", "games won"]]
    for s in info.standings:
        rows.append([str(s.place), " & ".join(s.names), str(s.played), f"{s.points:g}", f"{s.buchholz:g}",
                     f"{s.sonneborn_berger:g}", str(s.game_diff), str(s.games_won)])
    return rows
