"""Play a 4-player match to 3 through two real windows, with two bots and a server restart mid-match.

What a person would do, with real X input: a server; two `board99 join`
windows (Ann and Bob, each with its own config folder and player key) on two
Xvfb screens; Ann creates a "first to 3" table in the lobby and fills the two
partners' seats with "+ bot"; both sit down by clicking. Every game is then
played through the windows: a spectator connection only says whose turn it
is, and the window of that seat is used as a player uses it -- keys 1-5 pick
a card, the screen is read for the squares it lights (their yellow frame),
a lit square is clicked; D draws, X discards. Both players press "Next game"
after each game. In game 2 the server is killed (SIGKILL) and started again
on the same data folder; the windows take their seats back by themselves.
At the end Ann saves the match record from the match's result box and the
record is checked with `board99 replay`.

Run on a machine with Xvfb, xdotool and ImageMagick (not part of `make test`:
it plays for about four minutes):

    .venv/bin/python tools/window_match.py /tmp/window-match

Screenshots of every stage go to that folder's shots/. The lobby clicks are
placed for the default 1280x800 window.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from board99.client.gui.geometry import TableGeometry
from board99.client.gui.scale import ui_scale
from board99.client.net import GameClient, ServerError
from board99.layout import LAYOUT, POSITION
from board99.view import SeatView
from board99.wire.table_info import TableInfo

W, H = 1280, 800
PORT = 9199
BIN = Path(sys.executable).parent / "board99"
#: Lobby controls at 1280x800 (read off a screenshot of the lobby).
PLAYERS_4, FIRST_TO_3, CREATE = (231, 290), (174, 431), (164, 559)
SIDE1_SIT, SIDE1_BOT, SIDE2_SIT, SIDE2_BOT = (501, 310), (757, 310), (501, 338), (757, 338)
NEXT_GAME = (1000, 371)  # the panel's Next game button
SAVE_IN_MATCH_BOX = (282, 560)


def log(*words: object) -> None:
    print(time.strftime("%H:%M:%S"), *words, flush=True)


class Screen:
    """One Xvfb display with one board99 window on it."""

    def __init__(self, display: str, shots: Path) -> None:
        self.display, self.shots = display, shots

    def x(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": self.display}, check=True)

    def click(self, at: tuple[int, int], pause: float = 1.0) -> None:
        self.x("mousemove", str(at[0]), str(at[1]), "click", "1")
        time.sleep(pause)

    def shot(self, name: str) -> Image.Image:
        path = self.shots / f"{name}.png"
        subprocess.run(["import", "-window", "root", str(path)], env={**os.environ, "DISPLAY": self.display},
                       check=True)
        return Image.open(path).convert("RGB")


class Player:
    """A person at a window: picks cards with keys and clicks the squares the window lights."""

    def __init__(self, name: str, screen: Screen, seat: int, players: int) -> None:
        self.name, self.screen, self.seat = name, screen, seat
        self.geo = TableGeometry(W, H, players, seat, ui_scale(W, H))

    def centre(self, square: int) -> tuple[int, int]:
        cx, cy = self.geo.square_centre(*POSITION[square])
        return int(cx), int(H - cy)  # arcade counts y up, X down

    def lit(self, img: Image.Image, free: list[int]) -> list[int]:
        """The free squares the window frames in yellow (the picked card's squares)."""
        half = self.geo.cell / 2

        def yellow(px: int, py: int) -> bool:
            r, g, b = img.getpixel((px, py))
            return r > 230 and 170 < g < 230 and b < 70

        out = []
        for sq in free:
            cx, cy = self.centre(sq)
            left, top = int(cx - half), int(cy - half)
            if any(yellow(px, cy) for px in range(left + 1, left + 6)) and \
                    any(yellow(cx, py) for py in range(top + 1, top + 6)):
                out.append(sq)
        return out

    def act(self, view: SeatView, side: int) -> None:
        """One turn: the highest card that fits somewhere (fewest lit squares), next to our own pegs."""
        s = self.screen
        s.x("mousemove", str(W - 5), str(H - 5))  # off the board: no hover frame
        time.sleep(0.25)
        n = view.hand_sizes[self.seat]
        free = [sq for sq in range(100) if view.board[sq] is None]
        mine = {sq for sq in range(100) if view.board[sq] == side}
        best: tuple[int, list[int]] | None = None
        for i in range(1, n + 1):
            s.x("key", "Escape", "key", str(i))
            time.sleep(0.3)
            lit = self.lit(s.shot("pick"), free)
            if lit and (best is None or len(lit) < len(best[1])):
                best = (i, lit)
        s.x("key", "Escape")
        if best is not None:
            i, lit = best
            s.x("key", str(i))
            time.sleep(0.25)

            def near_mine(sq: int) -> tuple[int, int]:
                r, c = POSITION[sq]
                return (-sum(1 for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                             if 0 <= r + dr < 10 and 0 <= c + dc < 10 and LAYOUT[r + dr][c + dc] in mine), sq)

            sq = min(lit, key=near_mine)
            s.click(self.centre(sq), 0)
            log(self.name, "plays card", i, "of", n, "on square", sq)
        elif n < 5 and view.deck_size > 0 or n == 0:
            s.x("key", "d")
            log(self.name, "draws")
        else:
            s.x("key", str(n), "key", "x")
            log(self.name, "discards card", n, "of", n)


def start_server(data: Path, out: Path) -> None:
    with open(out / "server.log", "a") as f:
        subprocess.Popen([str(BIN), "serve", "--bind", "127.0.0.1", "--port", str(PORT), "--data", str(data),
                          "--no-beacon", "--bot-delay", "0.4"], stdout=f, stderr=f, start_new_session=True)


def side_of(info: TableInfo) -> Callable[[int], int]:
    return lambda seat: seat % info.sides


def play(out: Path, ann: Screen, bob: Screen, restart_in: int = 2) -> int:
    """Follow the table as a spectator; act in the window whose turn it is. 0 once the match is over."""
    spec = GameClient(f"tcp://127.0.0.1:{PORT}", name="watcher", timeout=3.0)
    table = spec.list_tables()[0]
    spec.spectate(table.id)
    seats = {s.name: s.seat for s in table.seats}
    people = {seats["Ann"]: Player("Ann", ann, seats["Ann"], table.players),
              seats["Bob"]: Player("Bob", bob, seats["Bob"], table.players)}
    last: object = None
    restarted = False
    quiet_since = time.monotonic()
    deadline = time.monotonic() + 1800
    while time.monotonic() < deadline:
        try:
            spec.poll(0.2)
        except ServerError as exc:
            log("the watcher's poll:", exc.message)
            time.sleep(0.5)
            continue
        view, info = spec.view, spec.table
        if view is None or info is None or info.match is None:
            continue
        match = info.match
        game = len(match.results) + (0 if view.winner is not None else 1)
        key = (game, view.deal, view.ply, view.turn, view.winner)
        if match.over(info.sides):
            log("match over:", match.score(info.sides))
            time.sleep(2)
            ann.shot("match-end-Ann")
            bob.shot("match-end-Bob")
            ann.click(SAVE_IN_MATCH_BOX, 1.5)
            ann.shot("match-saved-Ann")
            return 0
        if view.winner is not None:
            if key != last:
                last = key
                log(f"game {game} over: side {view.winner} won; score {match.score(info.sides)}")
                time.sleep(2.5)
                for p in people.values():
                    p.screen.shot(f"game{game}-end-{p.name}")
                    p.screen.click(NEXT_GAME, 0.5)
            continue
        if not restarted and game == restart_in and view.ply >= 14:
            log("killing the server (SIGKILL) at ply", view.ply, "of game", game)
            ann.shot("before-kill-Ann")
            subprocess.run(["pkill", "-9", "-f", f"board99 serve --bind 127.0.0.1 --port {PORT}"], check=False)
            time.sleep(3)
            ann.shot("server-down-Ann")
            start_server(out / "data", out)
            restarted = True
            time.sleep(5)
            ann.shot("server-back-Ann")
            bob.shot("server-back-Bob")
            last = None
            continue
        if view.turn in people and key != last:
            last = key
            quiet_since = time.monotonic()
            time.sleep(0.3)
            people[view.turn].act(view, side_of(info)(view.turn))
        elif view.turn in people and time.monotonic() - quiet_since > 6:
            p = people[view.turn]
            log("no move from", p.name, "for 6 s: screenshot, Esc, again")
            p.screen.shot(f"stuck-{p.name}-{int(time.time())}")
            p.screen.x("key", "Escape")
            last = None
    log("timed out")
    return 1


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "/tmp/window-match").resolve()
    shots = out / "shots"
    for folder in (shots, out / "data", out / "ann", out / "bob", out / "records"):
        folder.mkdir(parents=True, exist_ok=True)
    procs = [subprocess.Popen(["Xvfb", d, "-screen", "0", f"{W}x{H}x24"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) for d in (":71", ":72")]
    time.sleep(1)
    start_server(out / "data", out)
    time.sleep(2)
    ann, bob = Screen(":71", shots), Screen(":72", shots)
    for screen, name in ((ann, "ann"), (bob, "bob")):
        env = {**os.environ, "DISPLAY": screen.display, "BOARD99_CONFIG": str(out / name / "settings.toml"),
               "BOARD99_RECORDS": str(out / "records")}
        procs.append(subprocess.Popen([str(BIN), "join", f"127.0.0.1:{PORT}", "--name", name.title(), "--mute"],
                                      env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        time.sleep(7)
        ann.shot("lobby-Ann")
        for at in (PLAYERS_4, FIRST_TO_3, CREATE, SIDE1_BOT, SIDE2_BOT):
            ann.click(at)
        ann.shot("table-created-Ann")
        ann.click(SIDE1_SIT, 2)
        bob.click(SIDE2_SIT, 2)
        bob.shot("seated-Bob")
        status = play(out, ann, bob)
        saved = sorted((out / "records").glob("*.txt"))
        if status == 0 and saved:
            status = subprocess.run([str(BIN), "replay", "--quiet", str(saved[-1])], check=False).returncode
            log("record", saved[-1], "replays" if status == 0 else "does NOT replay")
        return status
    finally:
        subprocess.run(["pkill", "-f", f"board99 serve --bind 127.0.0.1 --port {PORT}"], check=False)
        for p in procs:
            p.terminate()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
