"""Two machines on one LAN, made of Linux network namespaces: a server on one, players on the other.

    sudo .venv/bin/python tools/lan_check.py [--curve] [--players 4] [--mode penalty]

Needs root (it creates the namespaces b99-srv and b99-cli joined by a veth
pair, 10.99.0.1 and 10.99.0.2/24, and removes them at the end). On the
server side it runs `board99 serve` bound to all interfaces; on the player
side it finds the server by LAN discovery (the UDP broadcast beacon, nothing
typed), creates a table, sits in seat 0, sends `board99 bot` processes to the
other seats of its side and puts the server's bots in the rest, plays its
own seat to the end of the game and fetches the game's record. Every step is
bounded in time; it prints what it saw and exits 0 only if the game ended
and its record replays.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRV, CLI = "b99-srv", "b99-cli"
SERVER_IP = "10.99.0.1"


def sh(*args: str) -> None:
    subprocess.run(args, check=True)


def make_lan() -> None:
    """Two namespaces and a veth cable between them."""
    remove_lan()
    for ns in (SRV, CLI):
        sh("ip", "netns", "add", ns)
        sh("ip", "-n", ns, "link", "set", "lo", "up")
    sh("ip", "link", "add", "b99-a", "type", "veth", "peer", "name", "b99-b")
    for dev, ns, ip in (("b99-a", SRV, SERVER_IP), ("b99-b", CLI, "10.99.0.2")):
        sh("ip", "link", "set", dev, "netns", ns)
        sh("ip", "-n", ns, "addr", "add", f"{ip}/24", "brd", "10.99.0.255", "dev", dev)
        sh("ip", "-n", ns, "link", "set", dev, "up")


def remove_lan() -> None:
    for ns in (SRV, CLI):
        subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL, check=False)


def in_ns(ns: str, *args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(["ip", "netns", "exec", ns, *args], cwd=ROOT, text=True, **kwargs)


def player_side(players: int, mode: str) -> int:
    """Runs inside the player namespace: discover, sit, send remote bots, play, fetch the record."""
    sys.path.insert(0, str(ROOT))
    from board99.bots import make_bot
    from board99.client.net import connect, play_bot
    from board99.game import sides_for
    from board99.record import Record

    started = time.monotonic()
    with connect(name="lan-player", discovery_timeout=3.0) as me:
        print(f"discovered and connected to {me.endpoint} in {time.monotonic() - started:.1f} s", flush=True)
        table = me.create_table("lan check", players, mode)["id"]
        me.take_seat(table, 0, "red")
        sides = sides_for(players)
        remote = [s for s in range(1, players) if s % sides == 0]  # my partners, played from this machine
        bots = []
        host = me.endpoint.split("//", 1)[1]
        key = me.server_key.decode() if isinstance(me.server_key, bytes) else me.server_key
        for seat in remote:
            cmd = [sys.executable, "-m", "board99.commands", "bot", "--server", host, "--table", table,
                   "--seat", str(seat), "--bot", "rulebook"]
            if key:
                cmd.append(f"--key={key}")
            bots.append(subprocess.Popen(cmd, cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and sum(1 for s in me.table["seats"] if s.get("occupant")) < 1 + len(remote):
            me.poll(0.1)
        for seat in range(1, players):
            if seat not in remote:
                me.add_bot(table, seat, "rulebook")
        view = play_bot(me, make_bot("rulebook", seed=1), until=time.monotonic() + 120)
        for bot in bots:
            out, _ = bot.communicate(timeout=30)
            print(f"remote bot: {out.strip().splitlines()[-1] if out.strip() else '(no output)'} (exit {bot.returncode})")
        if view is None or view.get("winner") is None:
            print("the game did not end in 120 s")
            return 1
        record = me.fetch_record(table)
        game = Record.loads(record).replay()
        print(f"game over after {view['ply']} actions: side {view['winner']} won; record of "
              f"{len(record.splitlines())} lines replays to the same winner: {game.winner == view['winner']}")
        return 0 if game.winner == view["winner"] and all(b.returncode == 0 for b in bots) else 1


def main() -> int:
    """Set up the LAN, run both sides, tear it down."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 6))
    parser.add_argument("--mode", default="penalty", choices=("guarded", "penalty"))
    parser.add_argument("--curve", action="store_true")
    parser.add_argument("--player-side", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.player_side:
        return player_side(args.players, args.mode)
    if os.geteuid() != 0:
        print("lan_check: needs root to create network namespaces", file=sys.stderr)
        return 2
    make_lan()
    server = None
    try:
        with tempfile.TemporaryDirectory(prefix="board99-lan-") as data:
            cmd = [sys.executable, "-m", "board99.commands", "serve", "--data", data, "--name", "lan-den"]
            server = in_ns(SRV, *cmd, *(["--curve"] if args.curve else []), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
            for _ in range(20):  # its log lines may come first
                line = server.stdout.readline()
                if not line or "listening" in line:
                    break
            print("server:", line.strip(), flush=True)
            player = in_ns(CLI, sys.executable, __file__, "--player-side", "--players", str(args.players),
                           "--mode", args.mode)
            return player.wait(timeout=300)
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
        remove_lan()


if __name__ == "__main__":
    sys.exit(main())
