"""What a lesson is, and how its TOML text is read (pure: text in, a ``Lesson`` out, no I/O).

A lesson is a prepared position at a table and one or more steps. The
position is reached by *scripted actions* that the engine carries out (so the
engine, not the lesson, decides what is legal); each step is either a task
the learner carries out at the table (a *play* step, with a goal) or a
question with choices (a *quiz* step). docs/lessons.md describes every field.

>>> lesson = parse('''
... title = "Which squares a card allows"
... summary = "Card N fits squares N to 99"
... topics = ["rule:cards"]
... explain = "Card 40 allows 40 to 99."
... rules = "§2"
... [rulebook]
... heading = "HOW TO PLAY"
... quote = "one hundred cards"
... [table]
... players = 2
... names = ["Bo"]
... deck = [40]
... setup = ["S0 draw 40", "S1 draw"]
... [[step]]
... task = "Peg square 41."
... goal = { square = 41 }
... solution = "play 40 on 41"
... [[step.wrong]]
... square = 38
... why = "38 is below 40."
... example = "play 40 on 38"
... ''', "02-cards.toml")
>>> lesson.id, lesson.table.players, lesson.steps[0].solution
('cards', 2, Play(card=40, square=41))
>>> lesson.table.names, lesson.table.deck[0], sorted(lesson.table.deck) == list(range(100))
(('You', 'Bo'), 40, True)
>>> parse("title = 1", "x.toml")
Traceback (most recent call last):
  ...
board99.lessons.model.LessonError: x.toml: topics: expected a list of topics
"""

from __future__ import annotations

import random
import re
import string
import tomllib
from dataclasses import dataclass
from typing import Any, Literal

from ..actions import Action, Discard, Play, parse_action
from ..coach import RULEBOOK_HINTS, TITLES
from ..events import PENALTY_RULES
from ..settings import MODES, PLAYER_COUNTS, sides_for

#: Every topic the lessons must cover together (tests/test_lessons.py checks it), with what it is.
TOPICS: dict[str, str] = {
    "rule:board": "the board and its numbering",
    "rule:cards": "which squares a card allows",
    "rule:turn": "a turn: play, draw or discard",
    "rule:hand-limit": "the hand limit of five cards",
    "rule:passes": "passes: an empty hand facing an empty deck",
    "rule:five": "five in a line, diagonals included",
    "rule:partners": "partners' pegs count together",
    "rule:ties": "ties and the replayed deal",
    **{f"you:{code}": f"you commit {code.replace('-', ' ')} and watch its penalty" for code in PENALTY_RULES},
    **{f"bot:{code}": f"a bot commits {code.replace('-', ' ')}" for code in PENALTY_RULES},
    # The rulebook's five playing hints, named as the coach and the review name them.
    **{f"hint:{kind}": TITLES[kind] for kind in RULEBOOK_HINTS},
}
#: The list's three groups, by a topic's prefix.
GROUPS: dict[str, str] = {"rule": "The rules", "you": "Penalties", "bot": "Penalties", "hint": "Playing hints"}
#: Event kinds a goal may ask for.
EVENT_KINDS = ("played", "drew", "discarded", "penalty", "skipped", "passed", "won", "tied", "dealt")
#: Refusal codes a goal may ask for (what the learner should find out is refused).
REFUSAL_CODES = ("out-of-turn", "below-card", "hand-full", "occupied", "deck-empty", "not-in-hand")
ACTION_KINDS = ("play", "draw", "discard")
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
MAX_CHOICES = 4
#: What a wrong answer's words may name, filled in from the move actually made (``said``): the card and
#: square it used, and the learner's hand after it ("70 and 75", "75", "no card") and its size.
SAID_FIELDS = ("card", "square", "hand", "left")

Kind = Literal["play", "draw", "discard"]


class LessonError(ValueError):
    """A lesson that cannot be used: names the file, the field and what is wrong with it."""

    def __init__(self, name: str, field: str, message: str) -> None:
        super().__init__(f"{name}: {field}: {message}")
        self.name = name
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Scripted:
    """One scripted action: ``seat`` does ``action``; ``card`` may be "last" (the card drawn last) or the bot's choice.

    ``text`` is how the lesson wrote it ("S1 play 80 on 80", "S0 discard last", "S1 bot", "S0 draw 72").
    """

    seat: int
    kind: Literal["play", "draw", "discard", "bot"]
    card: int | None = None  # None with last=True: the card the seat drew last
    square: int | None = None
    last: bool = False
    expect: int | None = None  # "draw 72": the card the draw must give
    text: str = ""


@dataclass(frozen=True)
class Goal:
    """What an action must be and cause; every field given must hold (an empty goal matches any applied action)."""

    actions: tuple[str, ...] = ()  # "play", "draw", "discard"
    cards: tuple[int, ...] = ()
    squares: tuple[int, ...] = ()
    offence: str | None = None  # the learner's penalty it caused (rulings.OFFENCES)
    refused: str | None = None  # the refusal code it met (nothing changed)
    events: tuple[str, ...] = ()  # event kinds the action caused


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
    reply: tuple[Scripted, ...] = ()  # after a right action: the others' (scripted or a bot's) moves
    wrong: tuple[Wrong, ...] = ()
    miss: str = ""  # why, for a wrong action no ``wrong`` entry foresaw


@dataclass(frozen=True)
class QuizStep:
    """A question with choices; ``then`` is carried out after the answer, right or wrong (what happens)."""

    question: str
    choices: tuple[str, ...]
    answer: int  # index into choices (the file counts from 1)
    why: tuple[str, ...]  # per choice: why it is wrong ("" for the answer)
    then: tuple[Scripted, ...] = ()


Step = PlayStep | QuizStep


@dataclass(frozen=True)
class Table:
    """The table a lesson is played at, and the deck's order (all 100 cards, top first)."""

    players: int
    mode: str
    you: int
    names: tuple[str, ...]  # every seat's name; the learner's is "You" (a screen may put the player's own)
    colours: tuple[str, ...]  # per side
    first: int
    seed: int
    bot: str
    deck: tuple[int, ...]


@dataclass(frozen=True)
class Lesson:
    """One lesson file, read."""

    id: str  # the file name without its order number and ".toml": "cards"
    name: str  # the file name: "02-cards.toml"
    title: str
    summary: str
    topics: tuple[str, ...]
    explain: str
    quote: str  # the rulebook's own words
    heading: str  # the rulebook's heading above them
    rules: str  # the section of docs/rules.md: "§7"
    table: Table
    setup: tuple[Scripted, ...]
    steps: tuple[Step, ...]

    #: The game the lesson is for (the list groups both games' lessons by it: board99/lessons/games.py).
    game = "peg-board"

    @property
    def group(self) -> str:
        """The lesson list's group: "The rules", "Penalties" or "Playing hints" (from the first topic)."""
        return GROUPS[self.topics[0].split(":")[0]]


# -- reading ---------------------------------------------------------------------------------------------

_SCRIPT = re.compile(r"S(\d) (.+)")
_LAST = re.compile(r"(play|discard) last(?: on (\d+))?")
_DRAW = re.compile(r"draw (\d+)")
_ORDER = re.compile(r"\d+-")


class _Reader:
    """Field checks that name the file and the field."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, field: str, message: str) -> LessonError:
        return LessonError(self.name, field, message)

    def text(self, data: dict[str, Any], key: str, where: str = "", *, required: bool = True) -> str:
        field = where + key
        value = data.get(key)
        if value is None:
            if required:
                raise self.fail(field, "missing")
            return ""
        if type(value) is not str or not value.strip():
            raise self.fail(field, f"expected text, got {value!r}")
        return " ".join(value.split())  # one paragraph: the screen wraps it

    def said(self, data: dict[str, Any], key: str, where: str = "", *, required: bool = True) -> str:
        """A text said about the learner's move: it may name the move made and what it left (``SAID_FIELDS``)."""
        value = self.text(data, key, where, required=required)
        try:
            fields = {name for _, name, _, _ in string.Formatter().parse(value) if name is not None}
        except ValueError as exc:
            raise self.fail(where + key, f"{exc}; write {{{{ and }}}} for a brace") from None
        bad = sorted(fields - set(SAID_FIELDS))
        if bad:
            raise self.fail(where + key, f"{{{bad[0]}}} is not one of " + ", ".join(f"{{{f}}}" for f in SAID_FIELDS))
        return value

    def whole(self, data: dict[str, Any], key: str, where: str, lo: int, hi: int, default: int | None = None) -> int:
        value = data.get(key, default)
        if value is None:
            raise self.fail(where + key, "missing")
        if type(value) is not int or not lo <= value <= hi:
            raise self.fail(where + key, f"expected a whole number {lo}-{hi}, got {value!r}")
        return value

    def numbers(self, data: dict[str, Any], key: str, where: str) -> tuple[int, ...]:
        value = data.get(key)
        if value is None:
            return ()
        items = value if isinstance(value, list) else [value]
        if not items or any(type(v) is not int or not 0 <= v <= 99 for v in items):
            raise self.fail(where + key, f"expected a number 0-99 or a list of them, got {value!r}")
        return tuple(items)

    def words(self, data: dict[str, Any], key: str, where: str, choices: tuple[str, ...]) -> tuple[str, ...]:
        value = data.get(key)
        if value is None:
            return ()
        items = value if isinstance(value, list) else [value]
        bad = [v for v in items if v not in choices]
        if not items or bad:
            raise self.fail(where + key, f"{bad[0] if bad else value!r} is not one of {', '.join(choices)}")
        return tuple(items)

    def table_of(self, data: dict[str, Any], key: str, where: str = "") -> dict[str, Any]:
        value = data.get(key)
        if not isinstance(value, dict):
            raise self.fail(where + key, "missing" if value is None else "expected a table")
        return value

    def action(self, text: object, field: str) -> Action:
        if type(text) is not str:
            raise self.fail(field, f"expected an action such as 'play 40 on 41', got {text!r}")
        try:
            return parse_action(text)
        except ValueError as exc:
            raise self.fail(field, str(exc)) from None

    def script(self, items: object, field: str, players: int) -> tuple[Scripted, ...]:
        if items is None:
            return ()
        if not isinstance(items, list):
            raise self.fail(field, "expected a list of actions such as 'S1 play 80 on 80'")
        out: list[Scripted] = []
        for i, item in enumerate(items):
            where = f"{field}[{i + 1}]"
            if isinstance(item, dict):
                times = self.whole(item, "repeat", where + ".", 1, 200)
                block = self.script(item.get("actions"), where + ".actions", players)
                if not block:
                    raise self.fail(where + ".actions", "missing")
                out.extend(block * times)
            else:
                out.append(self.scripted(item, where, players))
        return tuple(out)

    def scripted(self, item: object, field: str, players: int) -> Scripted:
        if type(item) is not str or not (m := _SCRIPT.fullmatch(item.strip())):
            raise self.fail(field, f"expected 'S<seat> <action>' such as 'S1 play 80 on 80', got {item!r}")
        seat, rest = int(m[1]), m[2].strip()
        if seat >= players:
            raise self.fail(field, f"S{seat} is not at a {players}-player table")
        text = item.strip()
        if rest == "bot":
            return Scripted(seat, "bot", text=text)
        if last := _LAST.fullmatch(rest):
            if last[1] == "play" and last[2] is None:
                raise self.fail(field, "'play last' needs a square: 'play last on 30'")
            square = int(last[2]) if last[2] is not None else None
            if square is not None and square > 99:
                raise self.fail(field, f"square {square}: squares are numbered 0 to 99")
            return Scripted(seat, "play" if last[1] == "play" else "discard", None, square, last=True, text=text)
        if draw := _DRAW.fullmatch(rest):
            return Scripted(seat, "draw", expect=int(draw[1]), text=text)
        action = self.action(rest, field)
        if type(action) is Play:
            return Scripted(seat, "play", action.card, action.square, text=text)
        if type(action) is Discard:
            return Scripted(seat, "discard", action.card, text=text)
        return Scripted(seat, "draw", text=text)

    def goal(self, data: object, field: str, *, extra: tuple[str, ...] = ()) -> Goal:
        if not isinstance(data, dict):
            raise self.fail(field, "expected a table of conditions (action, card, square, offence, refused, events)")
        known = {"action", "card", "square", "offence", "refused", "events", *extra}
        unknown = sorted(set(data) - known)
        if unknown:
            raise self.fail(f"{field}.{unknown[0]}", f"not a condition; use {', '.join(sorted(known))}")
        where = field + "."
        offence = self.words(data, "offence", where, tuple(PENALTY_RULES))
        refused = self.words(data, "refused", where, REFUSAL_CODES)
        goal = Goal(self.words(data, "action", where, ACTION_KINDS), self.numbers(data, "card", where),
                    self.numbers(data, "square", where), offence[0] if offence else None,
                    refused[0] if refused else None, self.words(data, "events", where, EVENT_KINDS))
        if goal.refused and (goal.offence or goal.events):
            raise self.fail(field, "a refused action causes nothing: 'refused' goes without 'offence' or 'events'")
        return goal


def _deck(reader: _Reader, table: dict[str, Any], seed: int) -> tuple[int, ...]:
    top = table.get("deck", [])
    if not isinstance(top, list) or any(type(c) is not int or not 0 <= c <= 99 for c in top):
        raise reader.fail("table.deck", f"expected a list of cards 0-99, top first, got {top!r}")
    if len(set(top)) != len(top):
        twice = next(c for c in top if top.count(c) > 1)
        raise reader.fail("table.deck", f"card {twice} is listed twice")
    rest = [c for c in range(100) if c not in top]
    random.Random(f"board99-lesson/{seed}").shuffle(rest)
    return tuple(top) + tuple(rest)


def _table(reader: _Reader, data: dict[str, Any]) -> Table:
    t = reader.table_of(data, "table")
    where = "table."
    unknown = sorted(set(t) - {"players", "mode", "you", "names", "colours", "first", "seed", "bot", "deck", "setup"})
    if unknown:
        raise reader.fail(where + unknown[0], "not a table field (players, mode, you, names, colours, first, seed, "
                                              "bot, deck, setup)")
    players = t.get("players")
    if players not in PLAYER_COUNTS or type(players) is not int:
        raise reader.fail("table.players", f"{players!r} is not allowed; the game is for 2, 3, 4 or 6")
    mode = t.get("mode", "guarded")
    if mode not in MODES:
        raise reader.fail("table.mode", f"{mode!r} is not a table mode; use 'guarded' or 'penalty'")
    you = reader.whole(t, "you", where, 0, players - 1, 0)
    others = t.get("names", [])
    if not isinstance(others, list) or len(others) != players - 1 or any(
            type(n) is not str or not n.strip() for n in others):
        raise reader.fail("table.names", f"expected the names of the other {players - 1} seat(s), in seat order")
    names = list(others)
    names.insert(you, "You")
    sides = sides_for(players)
    colours = t.get("colours", list(COLOURS[:sides]))
    if (not isinstance(colours, list) or len(colours) != sides or any(c not in COLOURS for c in colours)
            or len(set(colours)) != sides):
        raise reader.fail("table.colours", f"expected {sides} different colours from {', '.join(COLOURS)}")
    seed = reader.whole(t, "seed", where, 0, 2**62, 1)
    bot = t.get("bot", "rulebook")
    if bot not in ("random", "rulebook", "search"):
        raise reader.fail("table.bot", f"{bot!r} is not a bot; choose from random, rulebook, search")
    return Table(players, mode, you, tuple(names), tuple(colours), reader.whole(t, "first", where, 0, players - 1, you),
                 seed, bot, _deck(reader, t, seed))


def _play_step(reader: _Reader, data: dict[str, Any], where: str, players: int) -> PlayStep:
    raw = data.get("goal")
    if raw is None:
        raise reader.fail(where + "goal", "missing")
    raws = raw if isinstance(raw, list) else [raw]
    goals = tuple(reader.goal(g, f"{where}goal" + (f"[{i + 1}]" if isinstance(raw, list) else ""))
                  for i, g in enumerate(raws))
    if not goals:
        raise reader.fail(where + "goal", "expected at least one goal")
    wrongs = data.get("wrong", [])
    if not isinstance(wrongs, list):
        raise reader.fail(where + "wrong", "expected [[step.wrong]] tables")
    wrong = []
    for i, entry in enumerate(wrongs):
        field = f"{where}wrong[{i + 1}]"
        goal = reader.goal(entry, field, extra=("why", "example"))
        example = reader.action(entry["example"], field + ".example") if "example" in entry else None
        wrong.append(Wrong(goal, reader.said(entry, "why", field + "."), example))
    unknown = sorted(set(data) - {"task", "goal", "solution", "reply", "wrong", "miss"})
    if unknown:
        raise reader.fail(where + unknown[0], "not a field of a task step (task, goal, solution, reply, wrong, miss)")
    return PlayStep(reader.text(data, "task", where), goals, reader.action(data.get("solution"), where + "solution"),
                    reader.script(data.get("reply"), where + "reply", players), tuple(wrong),
                    reader.said(data, "miss", where, required=False))


def _quiz_step(reader: _Reader, data: dict[str, Any], where: str, players: int) -> QuizStep:
    choices = data.get("choices")
    if (not isinstance(choices, list) or not 2 <= len(choices) <= MAX_CHOICES
            or any(type(c) is not str or not c.strip() for c in choices)):
        raise reader.fail(where + "choices", f"expected 2-{MAX_CHOICES} answers as text")
    answer = reader.whole(data, "answer", where, 1, len(choices))
    why = data.get("why")
    if (not isinstance(why, list) or len(why) != len(choices) or any(type(w) is not str for w in why)
            or any(bool(w.strip()) == (i + 1 == answer) for i, w in enumerate(why))):
        raise reader.fail(where + "why", "expected one text per choice: why it is wrong, and \"\" for the answer")
    unknown = sorted(set(data) - {"question", "choices", "answer", "why", "then"})
    if unknown:
        raise reader.fail(where + unknown[0], "not a field of a question (question, choices, answer, why, then)")
    return QuizStep(reader.text(data, "question", where), tuple(" ".join(c.split()) for c in choices), answer - 1,
                    tuple(" ".join(w.split()) for w in why), reader.script(data.get("then"), where + "then", players))


def parse(text: str, name: str) -> Lesson:
    """The lesson in TOML ``text``, from the file called ``name``; LessonError names the field that is wrong."""
    reader = _Reader(name)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise reader.fail("toml", str(exc)) from None
    known = {"title", "summary", "topics", "explain", "rules", "rulebook", "table", "step"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise reader.fail(unknown[0], f"not a lesson field; use {', '.join(sorted(known))}")
    topics = data.get("topics")
    if not isinstance(topics, list) or not topics or any(t not in TOPICS for t in topics):
        bad = [t for t in topics if t not in TOPICS] if isinstance(topics, list) else []
        raise reader.fail("topics", f"{bad[0]!r} is not a topic" if bad else "expected a list of topics")
    table = _table(reader, data)
    steps_data = data.get("step")
    if not isinstance(steps_data, list) or not steps_data:
        raise reader.fail("step", "expected at least one [[step]]")
    steps: list[Step] = []
    for i, step in enumerate(steps_data):
        where = f"step[{i + 1}]."
        if "question" in step:
            steps.append(_quiz_step(reader, step, where, table.players))
        else:
            steps.append(_play_step(reader, step, where, table.players))
    cite = reader.table_of(data, "rulebook")
    rules = reader.text(data, "rules", "")
    if not re.fullmatch(r"§\d+", rules):
        raise reader.fail("rules", f"expected a section of docs/rules.md such as '§7', got {rules!r}")
    stem = name.removesuffix(".toml")
    return Lesson(
        _ORDER.sub("", stem, count=1) if _ORDER.match(stem) else stem, name,
        reader.text(data, "title"), reader.text(data, "summary"), tuple(topics), reader.text(data, "explain"),
        reader.text(cite, "quote", "rulebook."), reader.text(cite, "heading", "rulebook."), rules, table,
        reader.script(data["table"].get("setup"), "table.setup", table.players), tuple(steps),
    )


def goal_text(goal: Goal) -> str:
    """A goal in brief, for error messages and tests: 'play card 40 on square 41'."""
    parts = ["/".join(goal.actions) or "any action"]
    if goal.cards:
        parts.append("card " + "/".join(map(str, goal.cards)))
    if goal.squares:
        parts.append("on square " + "/".join(map(str, goal.squares)))
    if goal.offence:
        parts.append(f"as the offence {goal.offence}")
    if goal.refused:
        parts.append(f"refused ({goal.refused})")
    if goal.events:
        parts.append("causing " + ", ".join(goal.events))
    return " ".join(parts)


def cards_words(cards: tuple[int, ...] | list[int]) -> str:
    """'70 and 75', '75', 'no card'."""
    if not cards:
        return "no card"
    words = [str(c) for c in sorted(cards)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def said(text: str, action: Action, hand: tuple[int, ...]) -> str:
    """A wrong answer's words with the move made filled in (``SAID_FIELDS``); ``hand`` is the hand after it.

    >>> said("That leaves you one card, {hand}: {card} went on {square}.", Play(70, 80), (75,))
    'That leaves you one card, 75: 70 went on 80.'
    """
    card = action.card if isinstance(action, Play | Discard) else None
    square = action.square if type(action) is Play else None
    return text.format(card="" if card is None else card, square="" if square is None else square,
                       hand=cards_words(hand), left=len(hand))


def kind_of(action: Action) -> Kind:
    """'play', 'draw' or 'discard'."""
    if type(action) is Play:
        return "play"
    return "discard" if type(action) is Discard else "draw"


__all__ = ["ACTION_KINDS", "EVENT_KINDS", "GROUPS", "TOPICS", "Goal", "Lesson", "LessonError", "PlayStep",
           "QuizStep", "SAID_FIELDS", "Scripted", "Step", "Table", "Wrong", "cards_words", "goal_text", "kind_of",
           "parse", "said"]
