"""Measure the coach: ``board99.coach.advise`` on every position of rulebook bots' games, and a hint over the wire.

    python bench/coach.py [--games 40] [--hints 200]

The first figure is the engine alone (what a `hint` costs the server's loop);
the second is a whole `hint` round trip from a client to a server on
127.0.0.1 and back (the quota is lifted for the measurement).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from board99 import Draw, Game
from board99.bots import make_bot
from board99.coach import advise


def positions(games: int) -> list:
    """Every view a seat had on its turn in ``games`` rulebook games of 2, 3, 4 and 6 players."""
    views = []
    for g in range(games):
        game = Game((2, 3, 4, 6)[g % 4], seed=g)
        bots = [make_bot("rulebook") for _ in range(game.players)]
        while game.winner is None and game.ply < 400:
            view = game.view(game.turn)
            views.append(view)
            game.apply(game.turn, bots[game.turn].choose(view))
    return views


def over_the_wire(hints: int) -> list[float]:
    """Seconds per `hint` round trip, each at a new position (the seat draws between asks)."""
    from board99.client.net import GameClient
    from board99.server.loop import run_in_thread

    with tempfile.TemporaryDirectory() as folder:
        server = run_in_thread(data_dir=folder, hints_burst=1e9)
        try:
            a, b = GameClient(server.endpoint, name="A"), GameClient(server.endpoint, name="B")
            times = []
            while len(times) < hints:
                table = a.create_table("bench", 2)
                a.take_seat(table.id, 0)
                b.take_seat(table.id, 1)
                while len(times) < hints and a.view is not None and a.view.deck_size > 2 and a.view.winner is None:
                    for c in (a, b):
                        c.poll(0.05)
                    mover = a if a.my_turn() else b if b.my_turn() else None
                    if mover is None:
                        continue
                    start = time.perf_counter()
                    mover.hint()
                    times.append(time.perf_counter() - start)
                    if len(mover.view.hand) == 5:
                        mover.act(make_bot("rulebook").choose(mover.view))
                    else:
                        mover.act(Draw())
                a.leave()
                b.leave()
            a.close()
            b.close()
        finally:
            server.stop()
    return times


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--hints", type=int, default=200)
    args = parser.parse_args()
    views = positions(args.games)
    for view in views[:50]:
        advise(view)  # warm up
    times = []
    for view in views:
        # The best of 5 per position: what the position costs, without the machine's other load.
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            advise(view)
            runs.append(time.perf_counter() - start)
        times.append(min(runs))
    times.sort()
    print(f"advise: {len(times)} positions (best of 5 each), median {statistics.median(times) * 1e3:.3f} ms, "
          f"99th percentile {times[int(len(times) * 0.99)] * 1e3:.3f} ms, most {times[-1] * 1e3:.3f} ms")
    wire = sorted(over_the_wire(args.hints))
    print(f"hint over the wire: {len(wire)} round trips, median {statistics.median(wire) * 1e3:.2f} ms, "
          f"99th percentile {wire[int(len(wire) * 0.99)] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
