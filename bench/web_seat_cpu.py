"""The web seat's CPU per action, alone: record what two guests' seats are handed over a game, then replay it.

``record FILE [TURNS]`` plays TURNS turns (300) of a peg-board game between two web guests in-process
(tests/web_seat_kit.py: a real core, no sockets) and keeps every call the seats were handed (the page's frames,
the core's frames, the ticks, each with its time) and what each ``to_page`` gave. ``replay FILE [ROUNDS]`` hands
the same calls to fresh seats with no core behind them, checks that every ``to_page`` gives what it gave when
recorded (the page sees exactly the same texts), and prints the seats' time per turn (the median of ROUNDS;
ROUNDS 0 only loads the file and replays it once untimed, as every run does first).
A recording made on one tree replays on another: run it under ``valgrind --tool=callgrind`` for a count of
instructions that the machine's other work does not move (docs/benchmarks.md, *The web seat's CPU per action*).
"""

from __future__ import annotations

import os
import pickle
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.getcwd())

from board99.web import seat as seat_module  # noqa: E402

CALLS = ("from_page", "from_core", "tick", "to_page", "to_core")


def record(path: str, turns: int = 300) -> None:
    from tests.test_web_seat import over, play_turn, seated_pair
    from tests.web_seat_kit import Room

    log: list[tuple] = []
    seats: dict[int, bytes] = {}
    originals = {name: getattr(seat_module.WebSeat, name) for name in CALLS}
    original_init = seat_module.WebSeat.__init__

    def init(self, ident: bytes, host: str, now: float) -> None:
        seats[id(self)] = ident
        log.append((ident, "new", (host, now), None))
        original_init(self, ident, host, now)

    def wrapped(name: str):
        def call(self, *args):
            out = originals[name](self, *args)
            log.append((seats[id(self)], name, args, out if name == "to_page" else None))
            return out
        return call

    seat_module.WebSeat.__init__ = init  # type: ignore[method-assign]
    for name in CALLS:
        setattr(seat_module.WebSeat, name, wrapped(name))
    room = Room(Path(tempfile.mkdtemp()))
    ann, bo, _ = seated_pair(room)
    played = 0
    while played < turns:
        if over(ann) and over(bo):
            ann.press("rematch")
            bo.press("rematch")
            continue
        play_turn(ann if ann.scene["turn"] else bo)
        played += 1
    room.close()
    with open(path, "wb") as f:
        pickle.dump({"turns": turns, "calls": log}, f)
    print(f"recorded {len(log)} calls over {turns} turns")


def replay_once(calls: list[tuple]) -> tuple[float, int]:
    """Hand the calls to fresh seats; the seconds they took, and how many to_page answers differed."""
    seats: dict[bytes, seat_module.WebSeat] = {}
    differ = 0
    spent = 0.0
    clock = time.perf_counter
    for ident, name, args, out in calls:
        start = clock()
        if name == "new":
            seats[ident] = seat_module.WebSeat(ident, *args)
            spent += clock() - start
            continue
        got = getattr(seats[ident], name)(*args)
        spent += clock() - start
        if name == "to_page" and got != out:
            differ += 1
    return spent, differ


def _as_made(message: object) -> object:
    """A recorded message of the core as the core made it: its maps' keys interned, as its literals are."""
    if type(message) is dict:
        return {(sys.intern(k) if type(k) is str else k): _as_made(v) for k, v in message.items()}
    if type(message) in (list, tuple):
        return type(message)(map(_as_made, message))  # type: ignore[call-arg]
    return message


def replay(path: str, rounds: int = 5) -> None:
    with open(path, "rb") as f:
        recorded = pickle.load(f)
    # The core hands a web seat its message unpacked (server/outbox.py): unpickled, its keys are new strings,
    # which every lookup would compare by their text where the core's own (literals) match at once.
    recorded["calls"] = [(ident, name, (_as_made(args[0]), *args[1:]) if name == "from_core" else args, out)
                         for ident, name, args, out in recorded["calls"]]
    replay_once(recorded["calls"])  # once untimed: the imports and first-use work of the seats' modules
    if rounds == 0:  # the loading and that once alone: a callgrind count of it is taken off the replay's
        print(f"loaded {len(recorded['calls'])} calls")
        return
    times = []
    for _ in range(rounds):
        spent, differ = replay_once(recorded["calls"])
        if differ:
            raise SystemExit(f"{differ} to_page answers differ from the recording")
        times.append(spent)
    turns = recorded["turns"]
    print(f"replayed {len(recorded['calls'])} calls, every to_page as recorded; "
          f"seats' time {statistics.median(times) / turns * 1e3:.3f} ms per turn (median of {rounds})")


if __name__ == "__main__":
    mode, file = sys.argv[1], sys.argv[2]
    count = [int(a) for a in sys.argv[3:4]]
    if mode == "record":
        record(file, *count)
    else:
        replay(file, *count)
