"""A test-only game kind, "first to draw 3 aces": the proof that a second game needs no change to the house.

2-4 players, each alone. A 52-card deck shuffled from the seed; in turn each
player draws a card or passes. Drawn cards are secret to their drawer except
aces, which are shown. The first to hold ``target`` aces (an option: 2 or 3,
default 3) wins; if the deck runs out first, the players are ranked by their
aces (ties share a place). Its record is text whose first line names it.

Nothing in server/, wire/, the journal or the client library names it: a test
installs it with ``board99.kinds.register(ACES)`` and takes it out after.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from board99 import kinds

MAGIC = "# ACES record, test format 1"
RANKS = "A23456789TJQK"
SUITS = "SHDC"


def card_name(card: int) -> str:
    """'AS', '7H', ... for cards 0-51."""
    return RANKS[card % 13] + SUITS[card // 13]


def is_ace(card: int) -> bool:
    """Cards 0, 13, 26 and 39 are the aces."""
    return card % 13 == 0


class Draw(NamedTuple):
    """Take the deck's top card."""

    def text(self) -> str:
        return "draw"


class Pass(NamedTuple):
    """Let the turn go by."""

    def text(self) -> str:
        return "pass"


class Event(NamedTuple):
    """What an action caused: ``kind`` 'shuffled', 'drew', 'passed' or 'won'."""

    kind: str
    seat: int | None = None
    card: int | None = None

    def text(self, reveal: bool = True) -> str:
        if self.kind == "shuffled":
            return "shuffled"
        if self.kind == "drew":
            # None: a card this reader may not see (as a client gets another seat's draw)
            shown = card_name(self.card) if self.card is not None and (reveal or is_ace(self.card)) else "a card"
            return f"S{self.seat} drew {shown}"
        if self.kind == "passed":
            return f"S{self.seat} passed"
        return f"S{self.seat} won" if self.seat is not None else "the deck ran out"


class AcesRefusal(kinds.Refusal):
    """An action the aces rules do not allow."""


CODES = {"not-your-turn": "another player is to act", "game-over": "the game is over; nothing more to do"}


@dataclass
class AcesGame:
    """One game of aces."""

    players: int
    target: int
    seed: int
    deck: list[int] = field(default_factory=list)  # top last
    hands: list[list[int]] = field(default_factory=list)
    turn: int | None = 0
    ply: int = 0
    deal: int = 1
    log: list[tuple[int, Any, tuple[Event, ...]]] = field(default_factory=list)
    opening: tuple[Event, ...] = (Event("shuffled"),)
    winner: int | None = None

    def __post_init__(self) -> None:
        if not self.deck and not self.hands:
            self.deck = list(range(52))
            random.Random(self.seed).shuffle(self.deck)
            self.hands = [[] for _ in range(self.players)]

    @property
    def over(self) -> bool:
        return self.turn is None

    def aces(self, seat: int) -> int:
        return sum(1 for c in self.hands[seat] if is_ace(c))

    def check(self, seat: int, action: Any) -> str | None:
        if self.turn is None:
            raise AcesRefusal("game-over", "the game is over; nothing more to do")
        if seat != self.turn:
            raise AcesRefusal("not-your-turn", f"it is S{self.turn}'s turn, not S{seat}'s")
        if not isinstance(action, Draw | Pass):
            raise AcesRefusal("game-over", "not an action of this game")
        return None

    def apply(self, seat: int, action: Any) -> tuple[Event, ...]:
        self.check(seat, action)
        events: list[Event] = []
        if isinstance(action, Draw):
            card = self.deck.pop()
            self.hands[seat].append(card)
            events.append(Event("drew", seat, card))
            if self.aces(seat) >= self.target:
                self.winner, self.turn = seat, None
                events.append(Event("won", seat))
        else:
            events.append(Event("passed", seat))
        if self.turn is not None:
            if not self.deck:
                self.turn = None
                events.append(Event("won"))
            else:
                self.turn = (seat + 1) % self.players
        self.ply += 1
        self.log.append((seat, action, tuple(events)))
        return tuple(events)

    def copy(self) -> AcesGame:
        return AcesGame(self.players, self.target, self.seed, list(self.deck), [list(h) for h in self.hands],
                        self.turn, self.ply, self.deal, list(self.log), self.opening, self.winner)


class AcesView(NamedTuple):
    """What a seat may see: its own cards, everyone's aces and how many cards each holds."""

    seat: int | None
    players: int
    turn: int | None
    ply: int
    hand: tuple[int, ...] | None
    aces: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    over: bool

    def to_data(self) -> dict[str, Any]:
        return {**self._asdict(), "hand": None if self.hand is None else list(self.hand),
                "aces": list(self.aces), "hand_sizes": list(self.hand_sizes)}


class DrawBot:
    """Always draws (a person who knows no better)."""

    name = "drawer"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: AcesView) -> Any:
        return Draw()


class Aces:
    """The aces game as a board99 game kind."""

    name = "aces"
    title = "FIRST TO 3 ACES"
    player_counts = (2, 3, 4)
    modes = ("plain",)
    options = (kinds.OptionSpec("target", "Aces to win", (2, 3), 3, "how many aces win the game"),)
    record_magic = MAGIC
    bots: Mapping[str, Any] = {"drawer": DrawBot}
    slow_bots: frozenset[str] = frozenset()
    standin_bot = "drawer"
    bot_strengths: Mapping[str, float] = {"drawer": 0.5}
    refusals: Mapping[str, str] = CODES

    def check_settings(self, players: object, mode: object,
                       options: Mapping[str, object] | None = None) -> kinds.Settings:
        if type(players) is not int or players not in self.player_counts:
            raise kinds.SettingsError("players", f"{players!r} is not allowed; aces is for 2, 3 or 4")
        if mode not in self.modes:
            raise kinds.SettingsError("mode", f"{mode!r} is not a mode of aces; use 'plain'")
        chosen = dict(options or {})
        target = chosen.pop("target", 3)
        if chosen:
            name = next(iter(chosen))
            raise kinds.SettingsError(name, f"aces has no option {name!r}")
        if target not in (2, 3) or type(target) is not int:
            raise kinds.SettingsError("target", f"{target!r}: aces is won with 2 or 3 aces")
        return kinds.Settings(players, "plain", (("target", target),), players)

    def side_of(self, settings: kinds.Settings, seat: int) -> int:
        return seat

    def new_game(self, settings: kinds.Settings, seed: int | None = None) -> AcesGame:
        return AcesGame(settings.players, settings.option("target"),
                        random.SystemRandom().randrange(1 << 62) if seed is None else seed)

    def view(self, game: Any, settings: kinds.Settings, seat: int | None) -> AcesView:
        if game is None:
            return AcesView(seat, settings.players, None, 0, None if seat is None else (),
                            (0,) * settings.players, (0,) * settings.players, 52, False)
        return AcesView(seat, game.players, game.turn, game.ply, None if seat is None else tuple(game.hands[seat]),
                        tuple(game.aces(s) for s in range(game.players)), tuple(len(h) for h in game.hands),
                        len(game.deck), game.over)

    def ranking(self, game: Any) -> tuple[int, ...]:
        counts = [game.aces(s) for s in range(game.players)]
        if game.winner is not None:
            counts[game.winner] += 100  # the first to the target is first, whatever the others hold
        order = sorted(set(counts), reverse=True)
        return tuple(order.index(c) for c in counts)

    def summary(self, game: Any) -> str:
        if game.winner is not None:
            return f"S{game.winner} drew {game.target} aces first"
        return "the deck ran out: ranked by aces held"

    def result_detail(self, game: Any) -> dict[str, Any]:
        return {"aces": [game.aces(s) for s in range(game.players)]}

    def clock_action(self, game: Any) -> Any:
        return Draw()

    def advise(self, view: Any) -> None:
        return None

    def advice_from_data(self, data: object) -> Any:
        raise ValueError("aces has no coach")

    def warm_up(self) -> None:
        return None

    def action_from_data(self, data: object) -> Any:
        if not isinstance(data, dict) or data.get("type") not in ("draw", "pass") or len(data) != 1:
            raise ValueError("action: expected {'type': 'draw'} or {'type': 'pass'}")
        return Draw() if data["type"] == "draw" else Pass()

    def action_to_data(self, action: Any) -> dict[str, Any]:
        return {"type": action.text()}

    def parse_action(self, text: str) -> Any:
        if text not in ("draw", "pass"):
            raise ValueError(f"{text!r} is not an action of aces")
        return Draw() if text == "draw" else Pass()

    def action_text(self, action: Any) -> str:
        text: str = action.text()
        return text

    def view_to_data(self, view: Any) -> dict[str, Any]:
        return view.to_data()

    def view_from_data(self, data: object) -> AcesView:
        if not isinstance(data, dict) or set(data) != set(AcesView._fields):
            raise ValueError("view: not an aces view")
        d = dict(data)
        return AcesView(d["seat"], d["players"], d["turn"], d["ply"], None if d["hand"] is None else tuple(d["hand"]),
                        tuple(d["aces"]), tuple(d["hand_sizes"]), d["deck_size"], d["over"])

    def event_for(self, event: Any, seat: int | None) -> dict[str, Any]:
        shown = event.card if event.card is not None and (seat == event.seat or is_ace(event.card)) else None
        return {"kind": event.kind, "seat": event.seat, "card": shown, "text": event.text(reveal=shown is not None)}

    def event_from_data(self, data: object) -> Event:
        if not isinstance(data, dict) or data.get("kind") not in ("shuffled", "drew", "passed", "won"):
            raise ValueError("event.kind: expected 'shuffled', 'drew', 'passed' or 'won'")
        seat, card = data.get("seat"), data.get("card")
        if seat is not None and (type(seat) is not int or not 0 <= seat < 4):
            raise ValueError(f"event.seat: expected a seat 0-3 or none, got {seat!r}")
        if card is not None and (type(card) is not int or not 0 <= card < 52):
            raise ValueError(f"event.card: expected a card 0-51 or none, got {card!r}")
        return Event(data["kind"], seat, card)

    def record_text(self, game: Any, reveal: bool = True, hints: tuple[tuple[int, int], ...] = ()) -> str:
        lines = [MAGIC, f"players: {game.players}", f"target: {game.target}",
                 f"seed: {game.seed if reveal else 'hidden'}", "", "  shuffled"]
        for seat, action, events in game.log:
            lines.append(f"S{seat} {action.text()}")
            lines.extend("  " + e.text(reveal) for e in events)
        return "\n".join(lines) + "\n"

    def replay_record(self, text: str) -> Iterator[tuple[int, str, AcesGame]]:
        rows = text.rstrip("\n").split("\n")
        if rows[0] != MAGIC or len(rows) < 6:
            raise ValueError(f"line 1: an aces record starts with {MAGIC!r}")
        try:
            players, target, seed = (int(rows[i].split(": ", 1)[1]) for i in (1, 2, 3))
        except (ValueError, IndexError):
            raise ValueError("lines 2-4: expected players, target and a revealed seed") from None
        game = AcesGame(players, target, seed)
        expected = ["  shuffled"]
        for no, row in enumerate(rows[5:], start=6):
            if row.startswith("  "):
                if not expected or row != expected.pop(0):
                    raise ValueError(f"line {no}: {row!r} is not what the rules give")
                yield no, row, game
                continue
            seat_text, _, action_text = row.partition(" ")
            events = game.apply(int(seat_text.removeprefix("S")), self.parse_action(action_text))
            expected = ["  " + e.text() for e in events]
            yield no, row, game
        if expected:
            raise ValueError(f"the record ends before {expected[0].strip()!r}")

    def match_record_text(self, settings: kinds.Settings, match: tuple[str, int], names: tuple[str, ...],
                          records: Sequence[str], first_game: int) -> str:
        head = [f"# ACES match record: {match[0]} {match[1]}", *(f"S{s}: {n}" for s, n in enumerate(names)), ""]
        return "\n".join(head) + "\n" + "".join(records)


ACES = Aces()
