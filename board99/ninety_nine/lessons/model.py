"""What a Ninety-Nine lesson is, and how its TOML text is read (pure: text in, a ``Lesson`` out, no I/O).

A lesson is a position at a Ninety-Nine table (a rule set and house options,
the total, the direction, each seat's hand and tokens, the stock's top cards,
whose turn) and one or more steps: a *task* (play a card, or draw, with the
right answer(s) as goals and words for each foreseen wrong one) or a
*question* with choices. The position may also be the engine's own deal from
a seed (``deal = true``), which is how the turned-up card (000) is shown.
docs/lessons.md describes every field; nothing here states a rule: the
engine (``board99.ninety_nine.game``) judges every action.

>>> lesson = parse('''
... title = "Three-card: the king"
... summary = "K makes 99"
... topics = ["set:three-card"]
... explain = "The king sets the total to 99."
... section = "Each card"
... [source]
... document = "004"
... quote = "If a King card is played, the value of the discard pile is immediately set to 99."
... [table]
... players = 3
... rules = "three-card"
... names = ["Bo", "Cy"]
... [position]
... total = 50
... hands = [["KD", "5C", "2H"], ["7S", "8S", "6D"], ["3C", "4C", "JH"]]
... [[step]]
... task = "Make the total 99."
... goal = { rank = "K", total = 99 }
... solution = "play KD"
... [[step.wrong]]
... card = "5C"
... why = "The 5 adds 5."
... example = "play 5C"
... ''', "04-three-card.toml")
>>> lesson.id, lesson.table.rules, lesson.position.total, lesson.steps[0].solution
('three-card', 'three-card', 50, Play(card='KD', value=None, say=None, draw=True))
>>> parse("title = 1", "x.toml")
Traceback (most recent call last):
  ...
board99.ninety_nine.lessons.model.LessonError: x.toml: topics: expected a list of topics
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from typing import Any, Literal

from ...kinds import SettingsError
from ..actions import Action, Play, parse_action
from ..cards import ALL_RANKS, Card, is_card
from ..errors import CODES
from ..game import MODES
from ..rules import HOUSE_OPTIONS, RULE_SETS, Table

#: The game these lessons are for (the lesson list groups by it).
GAME = "ninety-nine"
#: Every topic the lessons must cover together (tests/test_ninety_nine_lessons.py checks it), with what it is.
TOPICS: dict[str, str] = {
    "set:glengariff": "Glengariff's special cards: the queen chain and the joker (000)",
    "set:convention": "Convention's special cards: Pass Me By, Back To You, Minus Ten, Ninety-Nine (002)",
    "set:tokens": "Tokens' special cards: the 3 that skips and the ace as 1 or 11 (003)",
    "set:three-card": "Three-card's special cards: the king makes 99, the 9 passes (004)",
    "rule:turn-up": "the turned-up card counts as the dealer's play (000)",
    "rule:tokens": "tokens: a failure costs one, none left is out of the game (003, 004)",
    "rule:out": "without tokens a player who cannot play is out at once, and play goes on (000, 002)",
    "rule:forgot-draw": "forgetting to draw, and 002's chain of forgetters (penalty tables)",
    "hint:high-early": "get rid of high cards early (002)",
    "hint:low-late": "keep low cards for a high total (002)",
    "hint:specials-early": "use reverses and passes early (002)",
    "hint:nines-late": "keep the 9s for when the pile is near 99 (002)",
    "hint:shut-out": "the early shut-out (002)",
}
#: The list's groups, by a topic's prefix.
GROUPS: dict[str, str] = {"set": "The four rule sets", "rule": "Rules of play", "hint": "Strategy (002)"}
#: The source documents a lesson may quote, by their number (../shared/seeds/NNN_*.txt).
DOCUMENTS: dict[str, str] = {"000": "Glengariff", "002": "Convention", "003": "Tokens", "004": "Three-card"}
#: Event kinds a goal may ask for (board99.ninety_nine.events).
EVENT_KINDS = ("played", "busted", "corrected", "reversed", "skipped", "owes", "drew", "forgot", "rebuilt",
               "lost-token", "out", "sat-out", "round-over", "won", "dealt", "turned-up")
#: What an action may cost at a penalty table (``Game.check``'s offence codes).
OFFENCES = ("over-99", "wrong-total")
ACTION_KINDS = ("play", "draw")
MAX_CHOICES = 4
BOTS = ("sound", "random")


class LessonError(ValueError):
    """A lesson that cannot be used: names the file, the field and what is wrong with it."""

    def __init__(self, name: str, field: str, message: str) -> None:
        super().__init__(f"{name}: {field}: {message}")
        self.name = name
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Scripted:
    """One scripted action: ``seat`` does ``action``, or (``action`` None) the table's bot chooses for it."""

    seat: int
    action: Action | None
    text: str = ""


@dataclass(frozen=True)
class Goal:
    """What an action must be and cause; every field given must hold (an empty goal matches any proper action)."""

    actions: tuple[str, ...] = ()  # "play", "draw"
    cards: tuple[Card, ...] = ()
    ranks: tuple[str, ...] = ()
    values: tuple[int, ...] = ()  # the value chosen for an ace or a ten
    totals: tuple[int, ...] = ()  # the total after the card
    offence: str | None = None  # what it cost at a penalty table (OFFENCES)
    refused: str | None = None  # the refusal it met (nothing changed)
    events: tuple[str, ...] = ()  # event kinds it caused
    draw: bool | None = None  # a play with its draw (True) or leaving it for later (False, penalty tables)


@dataclass(frozen=True)
class Wrong:
    """A foreseen wrong answer: when ``goal`` matches, ``why`` says what is wrong; ``example`` is one such action."""

    goal: Goal
    why: str
    example: Action | None = None


@dataclass(frozen=True)
class PlayStep:
    """A task at the table: the learner acts until an action meets one of ``goals``."""

    task: str
    goals: tuple[Goal, ...]
    solution: Action
    reply: tuple[Scripted, ...] = ()
    wrong: tuple[Wrong, ...] = ()
    miss: str = ""
    weigh: bool = True  # a strategy lesson's task is weighed by playouts (check.py); False: one player's taste


@dataclass(frozen=True)
class QuizStep:
    """A question with choices; ``then`` is carried out after the answer, right or wrong (what happens)."""

    question: str
    choices: tuple[str, ...]
    answer: int  # index into choices (the file counts from 1)
    why: tuple[str, ...]
    then: tuple[Scripted, ...] = ()


Step = PlayStep | QuizStep


@dataclass(frozen=True)
class LessonTable:
    """The table: players, mode, the rules (a rule set and house options), who is who, the seed, the bot."""

    players: int
    mode: str
    rules: str
    options: tuple[tuple[str, Any], ...]  # the house options given besides the rule set
    you: int
    names: tuple[str, ...]  # every seat's name; the learner's is "You"
    seed: int
    bot: str

    def build(self) -> Table:
        """The checked rules of this table (the engine's ``Table``)."""
        return Table.build(self.players, {"rules": self.rules, **dict(self.options)})


@dataclass(frozen=True)
class Position:
    """Where the lesson starts: the engine's own deal (``deal``), or a position laid out card by card."""

    deal: bool
    dealer: int
    turn: int
    total: int
    direction: int
    hands: tuple[tuple[Card, ...], ...]  # per seat (empty for a seat out of the game); checked after a deal
    tokens: tuple[int, ...] | None  # per seat; None: the table's number each
    out: tuple[int, ...]  # seats out of the game, in the order they went out
    stock: tuple[Card, ...]  # the stock's top cards, top first (the rest follow, shuffled by the seed)
    pile: tuple[Card, ...]  # the played pile, oldest first
    turned_up: Card | None  # after a deal: the card the engine must have turned up (000)


@dataclass(frozen=True)
class Lesson:
    """One lesson file, read."""

    id: str
    name: str
    title: str
    summary: str
    topics: tuple[str, ...]
    explain: str
    document: str  # the seed document quoted: "000", "002", "003", "004"
    quote: str  # its own words
    section: str  # the heading of docs/ninety-nine.md where the rule is set out
    table: LessonTable
    position: Position
    setup: tuple[Scripted, ...]
    steps: tuple[Step, ...]

    game = GAME

    @property
    def group(self) -> str:
        """The lesson list's group (from the first topic)."""
        return GROUPS[self.topics[0].split(":")[0]]

    @property
    def cite(self) -> str:
        """Where the quote comes from, for a person: 'The Convention rules (002):'."""
        return f"The {DOCUMENTS[self.document]} rules ({self.document}):"


# -- reading ---------------------------------------------------------------------------------------------

_SCRIPT = re.compile(r"S(\d) (.+)")
_ORDER = re.compile(r"\d+-")
_DIRECTIONS = {"clockwise": 1, "counter-clockwise": -1}


class _Reader:
    """Field checks that name the file and the field."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, field: str, message: str) -> LessonError:
        return LessonError(self.name, field, message)

    def known(self, data: dict[str, Any], where: str, fields: tuple[str, ...], what: str) -> None:
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise self.fail(where + unknown[0], f"not a field of {what} ({', '.join(fields)})")

    def text(self, data: dict[str, Any], key: str, where: str = "", *, required: bool = True) -> str:
        value = data.get(key)
        if value is None:
            if required:
                raise self.fail(where + key, "missing")
            return ""
        if type(value) is not str or not value.strip():
            raise self.fail(where + key, f"expected text, got {value!r}")
        return " ".join(value.split())  # one paragraph: the screen wraps it

    def whole(self, data: dict[str, Any], key: str, where: str, lo: int, hi: int, default: int | None = None) -> int:
        value = data.get(key, default)
        if value is None:
            raise self.fail(where + key, "missing")
        if type(value) is not int or not lo <= value <= hi:
            raise self.fail(where + key, f"expected a whole number {lo} to {hi}, got {value!r}")
        return value

    def listed(self, value: object, field: str, check: Any, what: str) -> tuple[Any, ...]:
        items = value if isinstance(value, list) else [value]
        bad = [v for v in items if not check(v)]
        if not items or bad:
            raise self.fail(field, f"{bad[0] if bad else value!r} is not {what}")
        return tuple(items)

    def cards(self, value: object, field: str) -> tuple[Card, ...]:
        if not isinstance(value, list):
            raise self.fail(field, f"expected a list of cards such as [\"QH\", \"10S\", \"joker\"], got {value!r}")
        bad = [c for c in value if not is_card(c)]
        if bad:
            raise self.fail(field, f"{bad[0]!r} is not a card (such as 'AS', '10H', 'QD' or 'joker')")
        return tuple(value)

    def action(self, text: object, field: str) -> Action:
        if type(text) is not str:
            raise self.fail(field, f"expected an action such as 'play 10H as -10 says 89' or 'draw', got {text!r}")
        try:
            return parse_action(text)
        except ValueError as exc:
            raise self.fail(field, str(exc)) from None

    def script(self, items: object, field: str, players: int) -> tuple[Scripted, ...]:
        if items is None:
            return ()
        if not isinstance(items, list):
            raise self.fail(field, "expected a list of actions such as 'S1 play 7H says 17' or 'S2 bot'")
        out = []
        for i, item in enumerate(items):
            where = f"{field}[{i + 1}]"
            if type(item) is not str or not (m := _SCRIPT.fullmatch(item.strip())):
                raise self.fail(where, f"expected 'S<seat> <action>' such as 'S1 play 7H says 17', got {item!r}")
            seat, rest = int(m[1]), m[2].strip()
            if seat >= players:
                raise self.fail(where, f"S{seat} is not at a {players}-player table")
            out.append(Scripted(seat, None if rest == "bot" else self.action(rest, where), item.strip()))
        return tuple(out)

    def goal(self, data: object, field: str, *, extra: tuple[str, ...] = ()) -> Goal:
        fields = ("action", "card", "rank", "value", "total", "offence", "refused", "events", "draw")
        if not isinstance(data, dict):
            raise self.fail(field, f"expected a table of conditions ({', '.join(fields)})")
        unknown = sorted(set(data) - set(fields) - set(extra))
        if unknown:
            raise self.fail(f"{field}.{unknown[0]}", f"not a condition; use {', '.join(fields)}")
        where = field + "."

        def get(key: str, check: Any, what: str) -> tuple[Any, ...]:
            return () if key not in data else self.listed(data[key], where + key, check, what)

        def number(v: object) -> bool:
            return type(v) is int and -200 <= v <= 200

        offence = get("offence", lambda v: v in OFFENCES, f"an offence ({', '.join(OFFENCES)})")
        refused = get("refused", lambda v: v in CODES, "a refusal code (board99/ninety_nine/errors.py)")
        goal = Goal(get("action", lambda v: v in ACTION_KINDS, "'play' or 'draw'"),
                    get("card", is_card, "a card such as 'QH'"), get("rank", lambda v: v in ALL_RANKS, "a rank"),
                    get("value", number, "a whole number"), get("total", number, "a whole number"),
                    offence[0] if offence else None, refused[0] if refused else None,
                    get("events", lambda v: v in EVENT_KINDS, "an event kind"))
        draw = data.get("draw")
        if draw is not None and type(draw) is not bool:
            raise self.fail(where + "draw", f"expected true or false, got {draw!r}")
        goal = replace(goal, draw=draw)
        if goal.refused and (goal.offence or goal.events or goal.totals):
            raise self.fail(field, "a refused action causes nothing: 'refused' goes without 'offence', "
                                   "'events' or 'total'")
        return goal


def _table(reader: _Reader, data: dict[str, Any]) -> LessonTable:
    t = data.get("table")
    if not isinstance(t, dict):
        raise reader.fail("table", "missing" if t is None else "expected a table")
    fields = ("players", "mode", "rules", "options", "you", "names", "seed", "bot")
    reader.known(t, "table.", fields, "the table")
    players = reader.whole(t, "players", "table.", 2, 6)
    mode = t.get("mode", "guarded")
    if mode not in MODES:
        raise reader.fail("table.mode", f"{mode!r} is not a table mode; use 'guarded' or 'penalty'")
    rules = t.get("rules")
    if rules not in RULE_SETS:
        raise reader.fail("table.rules", f"{rules!r} is not a rule set; use {', '.join(RULE_SETS)}")
    options = t.get("options", {})
    if not isinstance(options, dict):
        raise reader.fail("table.options", "expected a table of house options such as { tokens = 2 }")
    if "rules" in options:
        raise reader.fail("table.options.rules", "the rule set is table.rules")
    you = reader.whole(t, "you", "table.", 0, players - 1, 0)
    others = t.get("names", [])
    if not isinstance(others, list) or len(others) != players - 1 or any(
            type(n) is not str or not n.strip() for n in others):
        raise reader.fail("table.names", f"expected the names of the other {players - 1} seat(s), in seat order")
    names = list(others)
    names.insert(you, "You")
    bot = t.get("bot", "sound")
    if bot not in BOTS:
        raise reader.fail("table.bot", f"{bot!r} is not a bot; choose from {', '.join(BOTS)}")
    table = LessonTable(players, mode, rules, tuple(options.items()), you, tuple(names),
                        reader.whole(t, "seed", "table.", 0, 2**62, 1), bot)
    try:
        table.build()
    except SettingsError as exc:  # the rules' own refusal, naming the option
        option = exc.field in {o.name for o in HOUSE_OPTIONS} and exc.field != "rules"
        raise reader.fail(f"table.{'options.' if option else ''}{exc.field}", exc.why) from None
    return table


def _position(reader: _Reader, data: dict[str, Any], table: LessonTable) -> tuple[Position, Any]:
    p = data.get("position")
    if not isinstance(p, dict):
        raise reader.fail("position", "missing" if p is None else "expected a table")
    where = "position."
    fields = ("deal", "dealer", "turn", "total", "direction", "hands", "tokens", "out", "stock", "pile",
              "turned_up", "setup")
    reader.known(p, where, fields, "the position")
    players = table.players
    deal = p.get("deal", False)
    if type(deal) is not bool:
        raise reader.fail(where + "deal", f"expected true (the engine deals) or false, got {deal!r}")
    dealer = reader.whole(p, "dealer", where, 0, players - 1, (table.you - 1) % players)
    raw_hands = p.get("hands")
    if deal:
        for key in ("turn", "total", "direction", "tokens", "out", "stock", "pile"):
            if key in p:
                raise reader.fail(where + key, "the engine's deal decides it: leave it out with deal = true")
        hands: tuple[tuple[Card, ...], ...] = ()
        if raw_hands is not None:
            if not isinstance(raw_hands, list) or len(raw_hands) != players:
                raise reader.fail(where + "hands", f"expected one list of cards per seat ({players})")
            hands = tuple(reader.cards(h, f"{where}hands[{i + 1}]") for i, h in enumerate(raw_hands))
        turned = p.get("turned_up")
        if turned is not None and not is_card(turned):
            raise reader.fail(where + "turned_up", f"{turned!r} is not a card")
        return Position(True, dealer, 0, 0, 1, hands, None, (), (), (), turned), p.get("setup")
    if "turned_up" in p:
        raise reader.fail(where + "turned_up", "only after the engine's deal (deal = true)")
    if not isinstance(raw_hands, list) or len(raw_hands) != players:
        raise reader.fail(where + "hands", f"expected one list of cards per seat ({players}), the learner's too")
    hands = tuple(reader.cards(h, f"{where}hands[{i + 1}]") for i, h in enumerate(raw_hands))
    out = p.get("out", [])
    if not isinstance(out, list) or any(type(s) is not int or not 0 <= s < players for s in out) or len(
            set(out)) != len(out) or len(out) >= players - 1:
        raise reader.fail(where + "out", "expected the seats out of the game, in the order they went out, "
                                         "at least two left in")
    turn = reader.whole(p, "turn", where, 0, players - 1, table.you)
    if turn in out:
        raise reader.fail(where + "turn", f"S{turn} is out of the game")
    direction = p.get("direction", "clockwise")
    if direction not in _DIRECTIONS:
        raise reader.fail(where + "direction", f"{direction!r}: use 'clockwise' or 'counter-clockwise'")
    tokens = p.get("tokens")
    if tokens is not None and (not isinstance(tokens, list) or len(tokens) != players
                               or any(type(n) is not int or not 0 <= n <= 9 for n in tokens)):
        raise reader.fail(where + "tokens", f"expected each seat's tokens ({players} numbers)")
    position = Position(False, dealer, turn, reader.whole(p, "total", where, -200, 99, 0), _DIRECTIONS[direction],
                        hands, None if tokens is None else tuple(tokens), tuple(out),
                        reader.cards(p.get("stock", []), where + "stock"),
                        reader.cards(p.get("pile", []), where + "pile"), None)
    return position, p.get("setup")


def _play_step(reader: _Reader, data: dict[str, Any], where: str, players: int) -> PlayStep:
    reader.known(data, where, ("task", "goal", "solution", "reply", "wrong", "miss", "weigh"), "a task step")
    weigh = data.get("weigh", True)
    if type(weigh) is not bool:
        raise reader.fail(where + "weigh", f"expected true or false, got {weigh!r}")
    raw = data.get("goal")
    if raw is None:
        raise reader.fail(where + "goal", "missing")
    raws = raw if isinstance(raw, list) else [raw]
    if not raws:
        raise reader.fail(where + "goal", "expected at least one goal")
    goals = tuple(reader.goal(g, f"{where}goal" + (f"[{i + 1}]" if isinstance(raw, list) else ""))
                  for i, g in enumerate(raws))
    wrongs = data.get("wrong", [])
    if not isinstance(wrongs, list):
        raise reader.fail(where + "wrong", "expected [[step.wrong]] tables")
    wrong = []
    for i, entry in enumerate(wrongs):
        field = f"{where}wrong[{i + 1}]"
        goal = reader.goal(entry, field, extra=("why", "example"))
        example = reader.action(entry["example"], field + ".example") if "example" in entry else None
        wrong.append(Wrong(goal, reader.text(entry, "why", field + "."), example))
    return PlayStep(reader.text(data, "task", where), goals, reader.action(data.get("solution"), where + "solution"),
                    reader.script(data.get("reply"), where + "reply", players), tuple(wrong),
                    reader.text(data, "miss", where, required=False), weigh)


def _quiz_step(reader: _Reader, data: dict[str, Any], where: str, players: int) -> QuizStep:
    reader.known(data, where, ("question", "choices", "answer", "why", "then"), "a question")
    choices = data.get("choices")
    if (not isinstance(choices, list) or not 2 <= len(choices) <= MAX_CHOICES
            or any(type(c) is not str or not c.strip() for c in choices)):
        raise reader.fail(where + "choices", f"expected 2 to {MAX_CHOICES} answers as text")
    answer = reader.whole(data, "answer", where, 1, len(choices))
    why = data.get("why")
    if (not isinstance(why, list) or len(why) != len(choices) or any(type(w) is not str for w in why)
            or any(bool(w.strip()) == (i + 1 == answer) for i, w in enumerate(why))):
        raise reader.fail(where + "why", "expected one text per choice: why it is wrong, and \"\" for the answer")
    return QuizStep(reader.text(data, "question", where), tuple(" ".join(c.split()) for c in choices), answer - 1,
                    tuple(" ".join(w.split()) for w in why), reader.script(data.get("then"), where + "then", players))


def parse(text: str, name: str) -> Lesson:
    """The lesson in TOML ``text``, from the file called ``name``; LessonError names the field that is wrong."""
    reader = _Reader(name)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise reader.fail("toml", str(exc)) from None
    reader.known(data, "", ("title", "summary", "topics", "explain", "section", "source", "table", "position",
                            "step"), "a lesson")
    topics = data.get("topics")
    if not isinstance(topics, list) or not topics or any(t not in TOPICS for t in topics):
        bad = [t for t in topics if t not in TOPICS] if isinstance(topics, list) else []
        raise reader.fail("topics", f"{bad[0]!r} is not a topic" if bad else "expected a list of topics")
    table = _table(reader, data)
    position, setup = _position(reader, data, table)
    steps_data = data.get("step")
    if not isinstance(steps_data, list) or not steps_data:
        raise reader.fail("step", "expected at least one [[step]]")
    steps: list[Step] = []
    for i, step in enumerate(steps_data):
        where = f"step[{i + 1}]."
        maker = _quiz_step if "question" in step else _play_step
        steps.append(maker(reader, step, where, table.players))
    source = data.get("source")
    if not isinstance(source, dict):
        raise reader.fail("source", "missing" if source is None else "expected a table (document, quote)")
    reader.known(source, "source.", ("document", "quote"), "the source")
    document = source.get("document")
    if document not in DOCUMENTS:
        raise reader.fail("source.document", f"{document!r}: quote one of {', '.join(DOCUMENTS)}")
    stem = name.removesuffix(".toml")
    return Lesson(
        _ORDER.sub("", stem, count=1) if _ORDER.match(stem) else stem, name,
        reader.text(data, "title"), reader.text(data, "summary"), tuple(topics), reader.text(data, "explain"),
        document, reader.text(source, "quote", "source."), reader.text(data, "section"), table, position,
        reader.script(setup, "position.setup", table.players), tuple(steps),
    )


def goal_text(goal: Goal) -> str:
    """A goal in brief, for error messages and tests: 'play rank Q'."""
    parts = ["/".join(goal.actions) or "any action"]
    for label, items in (("card", goal.cards), ("rank", goal.ranks), ("as", goal.values), ("total", goal.totals)):
        if items:
            parts.append(f"{label} " + "/".join(map(str, items)))
    if goal.offence:
        parts.append(f"as the offence {goal.offence}")
    if goal.refused:
        parts.append(f"refused ({goal.refused})")
    if goal.events:
        parts.append("causing " + ", ".join(goal.events))
    return " ".join(parts)


def kind_of(action: Action) -> Literal["play", "draw"]:
    """'play' or 'draw'."""
    return "play" if type(action) is Play else "draw"


__all__ = ["ACTION_KINDS", "DOCUMENTS", "EVENT_KINDS", "GAME", "GROUPS", "OFFENCES", "TOPICS", "Goal", "Lesson",
           "LessonError", "LessonTable", "PlayStep", "Position", "QuizStep", "Scripted", "Step", "Wrong",
           "goal_text", "kind_of", "parse"]
