"""Instructions of each part of one ``act``, counted by valgrind's callgrind on a live table: where an act's work goes.

Run: .venv/bin/python bench/act_parts.py [--calls 200] [--checkout DIR]

Sets up bench/server.py's ``core_act_path`` table (a ``Core`` with a real
SQLite journal, a person against a random bot), plays it to a position in the
middle of a deal with the person to act, then calls each part of the act path
``--calls`` times on that position under ``valgrind --tool=callgrind``,
counting each part alone (callgrind's client requests zero the counts, switch
collection on and off, and dump one profile per part). Parts that change
nothing are called as the core calls them; the journal's INSERT is rolled
back by deleting its row (the delete is not counted). Printed: instructions
per call of each part, and the whole ``Core.receive`` of a refused act (a
stale ``ply``: decode, checks, token, refusal, error encoded) for scale.
``--checkout DIR`` counts another checkout's code with its own ``.venv``.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ZONE_C = """
#include <valgrind/callgrind.h>
void b99_zero(void) { CALLGRIND_ZERO_STATS; }
void b99_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
void b99_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
"""


def parts(core: Any, me: bytes, table: str, token: str, now: float) -> dict[str, Callable[[], Any]]:
    """The act path's parts at ``table``'s current position, each a call that changes nothing lasting."""
    import msgpack

    from board99.server.play import act_reply
    from board99.wire.protocol import check_request, decode

    state = core.state
    t = state.lobby.get(table)
    seat = 0
    view = t.view(seat)
    action = view.legal_actions()[0]
    action_data = t.kind.action_to_data(action)
    frame = msgpack.packb({"type": "act", "id": 12345, "table": table, "seat": seat, "token": token,
                           "action": action_data, "ply": t.game.ply})
    stale = msgpack.packb({"type": "act", "id": 12346, "table": table, "seat": seat, "token": token,
                           "action": action_data, "ply": t.game.ply + 7})
    msg = decode(frame)
    events = ()
    played = t.kind.event_from_data({"kind": "played", "seat": seat, "card": 12, "square": 57})
    reply = act_reply(t, seat, events, 12345, now)
    encode = core._encode
    journal = state.journal

    def journal_insert() -> None:
        journal.save_action(t, seat, action)

    def undo_insert() -> None:
        journal.db.execute("DELETE FROM actions WHERE table_id=? AND game_no=? AND ply=?",
                           (t.id, t.game_no, t.game.ply + 1))

    conn = state.presence.conns[me]
    return {
        "nothing (the toggles)": lambda: None,
        "decode": lambda: decode(frame),
        "check_request": lambda: check_request(msg),
        "token (proved before)": lambda: t.check_token_again(seat, token, conn.proved),
        "action_from_data": lambda: t.kind.action_from_data(action_data),
        "table.check": lambda: t.check(seat, action),
        "kind.view": lambda: t.view(seat),
        "view_to_data": lambda: t.kind.view_to_data(view),
        "view_data (the reply's view)": lambda: t.view_data(seat),
        "an event's data (played)": lambda: t.kind.event_for(played, seat),
        "act_reply (no events)": lambda: act_reply(t, seat, events, 12345, now),
        "encode reply": lambda: encode(reply),
        "schedule": lambda: state.schedule(t),
        "journal INSERT": (journal_insert, undo_insert),  # type: ignore[dict-item]
        "receive (stale act)": lambda: core.receive(me, [stale], now),
    }


def play(checkout: Path, calls: int, lib: Path) -> None:
    """(Under callgrind) set up the table, then count each part ``calls`` times."""
    sys.path[:0] = [str(checkout), str(checkout / "bench")]
    import random
    import secrets

    drawn = random.Random(20)
    secrets.randbits = drawn.getrandbits  # type: ignore[assignment]
    secrets.token_hex = lambda n=32: drawn.getrandbits(8 * n).to_bytes(n, "big").hex()  # type: ignore[assignment]

    import msgpack

    from board99 import SeatView, to_data
    from board99.bots import make_bot
    from board99.server.core import Core
    from board99.server.journal import Journal
    from board99.server.state import Settings

    zone = ctypes.CDLL(str(lib))
    me = b"\x00bnch"
    ids = iter(range(1, 1 << 62))
    now = 0.0

    def ask(kind: str, **fields: object) -> dict:
        out = core.receive(me, [msgpack.packb({"type": kind, "id": next(ids), **fields})], now)
        return next(r for r in map(msgpack.unpackb, (f for i, f in out.sends if i == me))
                    if r["type"] in ("reply", "error"))

    with tempfile.TemporaryDirectory(prefix="board99-parts-") as data:
        journal = Journal(data)
        core = Core(journal, Settings(rate=None, lost_after=1e9), now)
        table = ask("create_table", name="bench", players=2)["table"]["id"]
        token = ask("take_seat", table=table, seat=0)["token"]
        ask("add_bot", table=table, seat=1, bot="random", token=token)
        view = SeatView.from_data(ask("snapshot", token=token)["view"])
        bot = make_bot("random", seed=2)
        while view.ply < 12 or view.turn != 0:  # into the deal, the person to act
            now += 0.001
            if view.turn == 0:
                out = core.receive(me, [msgpack.packb({"type": "act", "id": next(ids), "table": table, "seat": 0,
                                                       "token": token, "action": to_data(bot.choose(view)),
                                                       "ply": view.ply})], now)
            else:
                out = core.tick(now)
            for ident, frame in out.sends:
                msg = msgpack.unpackb(frame)
                if ident == me and "view" in msg:
                    view = SeatView.from_data(msg["view"])
        for name, part in parts(core, me, table, token, now).items():
            undo = None
            if isinstance(part, tuple):
                part, undo = part
            for _ in range(3):  # warm
                part()
                if undo:
                    undo()
            zone.b99_zero()
            for _ in range(calls):
                zone.b99_toggle()
                part()
                zone.b99_toggle()
                if undo:
                    undo()
            zone.b99_dump(name.encode())
        journal.close()


def main(argv: list[str] | None = None) -> int:
    """Count each part under callgrind and print instructions per call."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--play", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    checkout = args.checkout.resolve()
    if args.play:
        play(checkout, args.calls, Path(args.play))
        return 0
    if shutil.which("valgrind") is None or shutil.which("cc") is None:
        raise SystemExit("valgrind (with its headers) and a C compiler are needed: apt-get install valgrind gcc")
    with tempfile.TemporaryDirectory(prefix="board99-callgrind-") as tmp:
        folder = Path(tmp)
        (folder / "zone.c").write_text(ZONE_C)
        lib = folder / "libzone.so"
        subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", str(lib), str(folder / "zone.c")], check=True)
        out = folder / "cg.out"
        python = checkout / ".venv" / "bin" / "python"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no",
             str(python), str(Path(__file__).resolve()), "--checkout", str(checkout), "--calls", str(args.calls),
             "--play", str(lib)],
            cwd=checkout, env=dict(os.environ, PYTHONHASHSEED="0"), capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"the count failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
        counted: dict[str, int] = {}
        for dump in sorted(folder.glob("cg.out.*"), key=lambda p: int(p.name.rsplit(".", 1)[1].split("-")[0])):
            text = dump.read_text(errors="replace")
            trigger = re.search(r"^desc: Trigger: Client Request: (.*)$", text, re.M)
            summary = re.search(r"^summary: (\d+)", text, re.M) or re.search(r"^totals: (\d+)", text, re.M)
            if trigger and summary:
                counted[trigger.group(1)] = int(summary.group(1))
    print(f"# bench/act_parts.py: {checkout}, {args.calls} calls a part (instructions per call)")
    for name, total in counted.items():
        print(f"  {name:<24} {total / args.calls:>9,.0f}")
    print("(each part's count includes the toggles' own, the first row)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
