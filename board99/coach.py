"""The coach: what a good player would consider now, from one seat's own view, as the 1963 rulebook's hints.

``advise(view)`` reads one ``SeatView`` -- the board, the seat's own hand,
the deck's size; never another hand or the deck's order, since a view holds
neither -- and returns an ``Advice``: named hints, most useful first. Each
hint says which of the rulebook's hints it applies (``kind``), in words for
the player with the rulebook's own sentence (``rule``), which squares and
cards to show on the board, and the action it suggests.

The reasoning is the rulebook bot's (``board99.bots.rulebook``), read through
its line tally (``board99.bots.tally``): the first hint is always the one the
rulebook bot's own choice follows (win, block, keep two cards, best square for
the highest card, dead cards), so the coach never suggests what the bot would
not play. The other hints are what a player should see besides: a threat no
card in hand can block, the low card worth keeping, a square that builds two
ways, a dead card, a four the opponent must waste a low card on.

It is deterministic and costs well under a millisecond: the same view always
gets the same advice, so a game's review can ask what the coach said at any
position by replaying to it.

>>> from board99 import Game
>>> game = Game(2, seed=1, first=0)
>>> advice = advise(game.view(0))
>>> advice.applies, advice.action
('dont-run-out', Draw())
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .actions import Action, Discard, Draw, Play, from_data, to_data
from .bots.rulebook import RESERVE, best_play, decide
from .bots.tally import WASTE, LineTally
from .layout import LINES, LINES_THROUGH, POSITION
from .view import SeatView

#: The hints the coach names, after the rulebook's own (its "SOME PLAYING HINTS", the object of the
#: game, its example of a block and its word on discarding), in the order the coach weighs them.
KINDS = ("win-now", "block-threat", "make-opponent-waste", "dont-run-out", "dead-card-discard",
         "two-way-build", "high-card-high-square", "keep-low-card")

#: The five of them that are the rulebook's "SOME PLAYING HINTS" (the lessons teach one each).
RULEBOOK_HINTS = ("keep-low-card", "high-card-high-square", "make-opponent-waste", "two-way-build", "dont-run-out")

#: Each kind as a heading a player reads.
TITLES: dict[str, str] = {
    "win-now": "Win now",
    "block-threat": "Block the threat",
    "make-opponent-waste": "Make the opponent waste a low card",
    "dont-run-out": "Don't run out of cards",
    "dead-card-discard": "Discard the dead card",
    "two-way-build": "Build in more than one direction",
    "high-card-high-square": "High card on a high square",
    "keep-low-card": "Keep your low cards",
}

#: The rulebook's own words (1963) each kind applies, verbatim.
RULEBOOK: dict[str, str] = {
    "win-now": "The first player to occupy five squares next to one another in a row, column or diagonal, "
               "wins the game.",
    "block-threat": "If you occupy squares numbered 72, 58, 20, and 14, your opponent will have to play 0, 1, "
                    "2, 3, or 4 card to block you on square number 4.",
    "make-opponent-waste": "Try to get your opponent to waste his low-numbered cards. [...] it may be worth "
                           "your while to force him to waste his low card blocking you instead of building "
                           "his own pattern.",
    "dont-run-out": "Don't run out of cards. Avoid playing the last two cards in your hand, unless you can "
                    "win the hand by playing them. Otherwise, you may be unable to block your opponent.",
    "dead-card-discard": "The decision to discard is rarely made except when you hold an unplayable card. [...] "
                         "it might be wise to use a turn to discard 99 in order to make room in your hand for "
                         "a draw on the next turn.",
    "two-way-build": "Play so you have more than one opportunity to win. Try to occupy squares in blocks which "
                     "will allow you to build in more than one direction.",
    "high-card-high-square": "Try to play the high-numbered cards on the high-numbered squares.",
    "keep-low-card": "Do not waste the low cards. The low-numbered squares are in the center of the board. "
                     "It is unlikely that you will get many cards in the course of a game that will allow you "
                     "to occupy the center squares, so don't waste the ones you get to play on the higher "
                     "numbered squares.",
}

#: The centre: the two inner rings, squares 0-15 (docs/rules.md §1). A card this low is a low card, and a
#: four whose last square is this low can only be blocked with one.
LOW = 15
#: Most hints in one advice (the first is the one applied).
MOST_HINTS = 4
#: What a two-way build that makes two fours at once adds to its words.
FORK = "It makes two fours at once: one block cannot stop both."
#: Bounds a client checks advice against (``Advice.from_data``).
WORDS_MAX = 600


class Hint(NamedTuple):
    """One thing worth considering, named after the rulebook hint it applies."""

    kind: str  # one of KINDS
    words: str  # for the player, about this position
    rule: str  # the rulebook's own words it applies (RULEBOOK[kind])
    squares: tuple[int, ...]  # the squares to show: where to peg, or where to block
    line: tuple[int, ...]  # the pegs it is about: a threat's four, a build's lines
    cards: tuple[int, ...]  # the cards it names (e.g. every card 0-4 that blocks square 4); those held are marked
    action: Action | None  # what it suggests doing, if anything

    @property
    def title(self) -> str:
        """The kind as a heading."""
        return TITLES[self.kind]

    def held(self, hand: Sequence[int]) -> tuple[int, ...]:
        """The cards it names that ``hand`` holds."""
        return tuple(c for c in hand if c in self.cards)

    def to_data(self) -> dict[str, Any]:
        """Plain data, ready for msgpack."""
        return {"kind": self.kind, "words": self.words, "rule": self.rule, "squares": list(self.squares),
                "line": list(self.line), "cards": list(self.cards),
                "action": None if self.action is None else to_data(self.action)}


class Advice(NamedTuple):
    """The coach's hints for one position, most useful first; the first is the one it applies."""

    hints: tuple[Hint, ...]
    deal: int  # the position it is about: the view's deal and ply
    ply: int

    @property
    def applies(self) -> str | None:
        """The kind of hint the suggested action follows (None: nothing to suggest)."""
        return self.hints[0].kind if self.hints and self.hints[0].action is not None else None

    @property
    def action(self) -> Action | None:
        """What the coach would do now."""
        return self.hints[0].action if self.hints else None

    def kinds(self) -> tuple[str, ...]:
        """The kinds of its hints, in order."""
        return tuple(h.kind for h in self.hints)

    def to_data(self) -> dict[str, Any]:
        """Plain data, ready for msgpack."""
        return {"hints": [h.to_data() for h in self.hints], "deal": self.deal, "ply": self.ply}

    @classmethod
    def from_data(cls, data: object) -> Advice:
        """The advice in plain data (as ``to_data`` gives); ValueError names the first bad field."""
        if not isinstance(data, dict):
            raise ValueError("advice: expected a map")
        hints_data = data.get("hints")
        if not isinstance(hints_data, list | tuple) or len(hints_data) > MOST_HINTS:
            raise ValueError(f"advice.hints: expected a list of at most {MOST_HINTS} hints")
        hints = tuple(_hint_from(i, h) for i, h in enumerate(hints_data))
        deal, ply = data.get("deal"), data.get("ply")
        if type(deal) is not int or type(ply) is not int or deal < 0 or ply < 0:
            raise ValueError(f"advice.deal, advice.ply: expected whole numbers, got {deal!r}, {ply!r}")
        return cls(hints, deal, ply)


def _hint_from(i: int, data: object) -> Hint:
    where = f"advice.hints[{i}]"
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected a map")
    kind = data.get("kind")
    if kind not in KINDS:
        raise ValueError(f"{where}.kind: expected one of {', '.join(KINDS)}, got {kind!r}"[:200])
    texts = []
    for name in ("words", "rule"):
        value = data.get(name)
        if type(value) is not str or len(value) > WORDS_MAX:
            raise ValueError(f"{where}.{name}: expected text of at most {WORDS_MAX} characters")
        texts.append(value)
    numbers = []
    for name in ("squares", "line", "cards"):
        value = data.get(name)
        if not isinstance(value, list | tuple) or len(value) > 100 or any(
                type(n) is not int or not 0 <= n <= 99 for n in value):
            raise ValueError(f"{where}.{name}: expected at most 100 numbers 0-99")
        numbers.append(tuple(value))
    action = data.get("action")
    try:
        act = None if action is None else from_data(action)
    except ValueError as exc:
        raise ValueError(f"{where}.action: {exc}") from None
    return Hint(kind, texts[0], texts[1], numbers[0], numbers[1], numbers[2], act)


# -- reading the board ---------------------------------------------------------------------------------


def _direction(line: tuple[int, ...]) -> tuple[int, int]:
    (r0, c0), (r1, c1) = POSITION[line[0]], POSITION[line[1]]
    return r1 - r0, c1 - c0


#: line index -> its direction (row step, column step): lines of one direction through a square overlap.
DIRECTION: tuple[tuple[int, int], ...] = tuple(_direction(line) for line in LINES)


def cards_text(top: int) -> str:
    """Every card that fits square ``top``, in words: 'card 0', 'a card 0 or 1', 'a card 0-4' (an en dash)."""
    if top == 0:
        return "card 0"
    if top == 1:
        return "a card 0 or 1"
    return f"a card 0\u2013{top}"


def _listed(numbers: Sequence[int]) -> str:
    items = [str(n) for n in numbers]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _four(tally: LineTally, square: int, side: int) -> tuple[int, ...]:
    """The pegs of ``side`` that make ``square`` a winning square (the four of one such line), in line order."""
    for i in LINES_THROUGH[square]:
        if tally.owner[i] == side and tally.count[i] == 4:
            return tuple(sq for sq in LINES[i] if sq != square)
    return ()


class _Position:
    """What the hints read, worked out once: the tally, the hand, who is who."""

    def __init__(self, view: SeatView) -> None:
        assert view.side is not None and view.hand is not None and view.seat is not None
        self.view = view
        self.side = view.side
        self.hand = tuple(sorted(view.hand))
        self.tally = LineTally(view.board, view.sides)
        top = self.tally.free_top
        self.live = [c for c in self.hand if c <= top]
        self.dead = [c for c in self.hand if c > top]
        self.deck = view.deck_size

    def who(self, side: int) -> str:
        """A side in words: 'your opponent' at two players, else its seats ('S1', 'S1 and S3')."""
        v = self.view
        if v.players == 2:
            return "your opponent"
        seats = v.partners(side)
        return f"S{seats[0]}" if len(seats) == 1 else f"S{seats[0]} and S{seats[1]}"

    def own_dirs(self, square: int) -> dict[tuple[int, int], tuple[int, int]]:
        """Direction -> (pegs, line index) of this side's best open line through ``square`` in that direction."""
        tally, side = self.tally, self.side
        best: dict[tuple[int, int], tuple[int, int]] = {}
        for i in LINES_THROUGH[square]:
            if tally.owner[i] == side:
                d, n = DIRECTION[i], tally.count[i]
                if n > best.get(d, (0, -1))[0]:
                    best[d] = (n, i)
        return best

    def pegs_of(self, line: int) -> tuple[int, ...]:
        board = self.tally.board
        return tuple(sq for sq in LINES[line] if board[sq] == self.side)


# -- the hints -----------------------------------------------------------------------------------------


def _hint(kind: str, words: str, squares: Sequence[int] = (), line: Sequence[int] = (),
          cards: Sequence[int] = (), action: Action | None = None) -> Hint:
    return Hint(kind, words, RULEBOOK[kind], tuple(squares), tuple(line), tuple(cards), action)


def _win(p: _Position, square: int, card: int) -> Hint:
    four = _four(p.tally, square, p.side)
    return _hint("win-now", f"Play your {card} on square {square}: with {_listed(four)} it makes five in a line, "
                            f"and that wins at once.", (square,), four, (card,), Play(card, square))


def _threats(p: _Position) -> list[tuple[int, int]]:
    """(square, side) where another side would complete five, the highest-numbered first (most cards fit it)."""
    found = [(sq, s) for s in range(p.tally.sides) if s != p.side for sq in p.tally.threats[s]]
    return sorted(found, reverse=True)


def _block(p: _Position, threats: list[tuple[int, int]], action: Action | None) -> Hint:
    """The threat to block, the only square that blocks it and the cards that fit that square."""
    square, side = threats[0]
    if isinstance(action, Play) and any(sq == action.square for sq, _ in threats):
        square = action.square
        side = next(s for sq, s in threats if sq == square)
    four = _four(p.tally, square, side)
    fit = tuple(range(square + 1))
    held = [c for c in p.hand if c <= square]
    who = p.who(side)
    holds = "hold" if " and " in who else "holds"
    words = (f"{who[0].upper()}{who[1:]} {holds} {_listed(four)} in a line: only square {square} completes it, "
             f"so only square {square} blocks it, and only {cards_text(square)} fits square {square}.")
    if isinstance(action, Play) and action.square == square:
        lower = [c for c in p.hand if c < action.card]
        words += f" Block it with your {action.card}, the highest card you hold that fits{_stay(lower)}."
    elif held:
        words += f" Your {_listed(held)} can block it on your turn."
    else:
        words += (f" You hold no such card: keep any {cards_text(square).removeprefix('a ')} you draw, "
                  f"to block with it.")
    others = [sq for sq, _ in threats if sq != square]
    if others:
        words += (f" Also threatened: square{'s' if len(others) > 1 else ''} {_listed(others)}; one block a turn "
                  f"cannot stop every threat.")
    if not (isinstance(action, Play) and action.square == square):
        action = None
    return _hint("block-threat", words, (square, *others), four, fit, action)


def _waste_from_four(p: _Position) -> Hint | None:
    """This side's own four whose last square no card in hand fits: the opponent must spend a low card on it."""
    for square in sorted(p.tally.threats[p.side]):
        if square <= LOW and not any(c <= square for c in p.hand):
            four = _four(p.tally, square, p.side)
            return _hint("make-opponent-waste",
                         f"Your {_listed(four)} can only be completed on square {square}, and only "
                         f"{cards_text(square)} fits it. You hold none yet, and to block you the other side must "
                         f"spend one of its few low cards there instead of building its own lines.",
                         (square,), four, range(square + 1))
    return None


def _waste_from_three(p: _Position) -> Hint | None:
    """A play that makes a four whose last square is a low one: only a low card can block it."""
    tally, board = p.tally, p.tally.board
    best: tuple[int, int, int, int] | None = None  # (-last square, pegged square, card, line)
    for i, line in enumerate(LINES):
        if tally.owner[i] != p.side or tally.count[i] != 3:
            continue
        free = sorted(sq for sq in line if board[sq] is None)
        last, peg = free[0], free[1]
        if last > LOW:
            continue
        fit = [c for c in p.live if c <= peg]
        if not fit:
            continue
        key = (-last, peg, max(fit), i)
        if best is None or key > best:
            best = key
    if best is None:
        return None
    last, peg, card, i = -best[0], best[1], best[2], best[3]
    pegs = p.pegs_of(i)
    return _hint("make-opponent-waste",
                 f"Peg {peg} with your {card}: with {_listed(pegs)} that makes four, and then only square {last} "
                 f"completes the line, so only {cards_text(last)} can block it. Forcing that block costs the other "
                 f"side one of its few low cards.", (peg, last), pegs, (card,), Play(card, peg))


def _builds_two_ways(dirs: dict[tuple[int, int], tuple[int, int]]) -> bool:
    """Two directions or more, with at least three of the side's pegs in the best two (a pair and one more)."""
    if len(dirs) < 2:
        return False
    counts = sorted((n for n, _ in dirs.values()), reverse=True)
    return counts[0] + counts[1] >= 3


def _two_way(p: _Position, square: int, card: int, action: Action | None) -> Hint | None:
    """Pegging ``square`` adds to this side's lines in two or more directions; None if it does not."""
    dirs = p.own_dirs(square)
    if not _builds_two_ways(dirs):
        return None
    pegs = sorted({sq for _, i in dirs.values() for sq in p.pegs_of(i)})
    fours = sum(1 for n, _ in dirs.values() if n == 3)
    words = (f"Peg {square} with your {card}: it adds to your lines in {len(dirs)} directions at once "
             f"(with {_listed(pegs)}), so you can build more than one way.")
    if fours >= 2:
        words += " " + FORK
    return _hint("two-way-build", words, (square,), pegs, (card,), action)


def _best_two_way(p: _Position, exclude: int) -> Hint | None:
    """The best square that builds two ways with a live card, by the tally's value (None if there is none)."""
    value, board = p.tally.value, p.tally.board
    best: tuple[float, int, int] | None = None
    for sq in range(100):
        if board[sq] is not None or sq == exclude or not _builds_two_ways(p.own_dirs(sq)):
            continue
        fit = [c for c in p.live if c <= sq]
        if fit:
            card = max(fit)
            key = (value[sq] + WASTE * card, sq, card)
            if best is None or key > best:
                best = key
    if best is None:
        return None
    _, sq, card = best
    return _two_way(p, sq, card, Play(card, sq))


def _stay(lower: Sequence[int]) -> str:
    """', so your 3 and 12 stay for lower squares' (nothing without lower cards)."""
    if not lower:
        return ""
    return f", so your {_listed(lower)} stay{'s' if len(lower) == 1 else ''} for lower squares"


def _high_card(p: _Position, play: Play) -> Hint:
    card, square = play
    lower = [c for c in p.live if c < card]
    if card == square:
        words = f"Peg {square} with your {card}: a card on its own number wastes nothing{_stay(lower)}."
    else:
        waste = square - card
        words = (f"Peg {square} with your {card}: the highest card you hold that fits square {square}, wasting "
                 f"{waste} point{'s' if waste != 1 else ''}{_stay(lower)}.")
    line: tuple[int, ...] = ()
    for last, pegs in _fours_made(p, square):
        words += (f" With {_listed(pegs)} it makes four: square {last} then completes the line unless "
                  f"it is blocked.")
        line = pegs
        break
    return _hint("high-card-high-square", words, (square,), line, (card,), play)


def _fours_made(p: _Position, square: int) -> list[tuple[int, tuple[int, ...]]]:
    """(the last free square, the side's three pegs) of each line that pegging ``square`` makes a four."""
    tally, board = p.tally, p.tally.board
    out = []
    for i in LINES_THROUGH[square]:
        if tally.owner[i] == p.side and tally.count[i] == 3:
            last = next(sq for sq in LINES[i] if board[sq] is None and sq != square)
            out.append((last, p.pegs_of(i)))
    return out


def _keep_low(p: _Position, action: Action | None) -> Hint | None:
    """The lowest card in hand, if it is a low one the suggested action does not spend: the centre it alone reaches."""
    used = action.card if isinstance(action, Play | Discard) else None
    low = [c for c in p.live if c <= LOW and c != used]
    if not low:
        return None
    card = low[0]
    higher = [c for c in p.hand if c > card]
    end = min(higher[0] if higher else 100, LOW + 1)
    board = p.tally.board
    alone = [sq for sq in range(card, end) if board[sq] is None]
    reach = f"squares {card}\u2013{end - 1}" if end - 1 > card else f"square {card}"
    if alone:
        words = (f"Keep your {card}: of your cards only it reaches the centre's {reach}, and few cards that low "
                 f"come to anyone. Spend it there, or on a block, not on a high square.")
    else:
        words = (f"Keep your {card}: few cards that low come to anyone, and it can still block a four anywhere "
                 f"on the board. Don't spend it on a high square.")
    return _hint("keep-low-card", words, alone, (), (card,))


def _dead(p: _Position, action: Action | None) -> Hint | None:
    if not p.dead:
        return None
    card = max(p.dead)
    taken = f"square {card}" if card == 99 else f"every square {card}\u201399"
    others = [c for c in p.dead if c != card]
    words = f"Your {card} is dead: {taken} is taken, so it can only be discarded."
    if others:
        words = (f"Your {_listed(p.dead)} are dead: every square they allow is taken, so they can only be "
                 f"discarded.")
    if isinstance(action, Discard) and p.deck == 0:
        words += f" The deck is empty, so there is nothing to draw: discard the {card}."
    elif isinstance(action, Discard):
        words += f" Your hand is full: discard the {card} to make room for a draw next turn."
    else:
        words += (" While your hand has room, drawing is the better turn; discard it when your hand is full, to "
                  "make room for a draw.")
    return _hint("dead-card-discard", words, (), (), tuple(p.dead), action if isinstance(action, Discard) else None)


def _reserve(p: _Position, action: Action) -> Hint:
    if not p.hand:
        return _hint("dont-run-out", "Your hand is empty: draw. With no cards you could not block a four.",
                     action=action)
    n = len(p.live)
    cards = f"only {n} card{'s' if n != 1 else ''} you can play" if n else "no card you can play"
    what = "draw" if isinstance(action, Draw) else f"discard your dead {action.card}" \
        if isinstance(action, Discard) else "keep them"
    return _hint("dont-run-out", f"You hold {cards}: {what} rather than play {'them' if n > 1 else 'it'}. Keep two "
                                 f"cards in hand so that you can still block a four.",
                 (), (), tuple(p.live), action)


def _applied(p: _Position) -> tuple[Hint, Action]:
    """The rulebook bot's choice for this position, and the hint it follows (the bot's own order of reasons)."""
    tally, side, hand = p.tally, p.side, list(p.hand)
    action = decide(tally, hand, side, p.deck)
    if not hand:
        return _reserve(p, action), action
    if isinstance(action, Play):
        card, square = action
        if square in tally.threats[side]:
            return _win(p, square, card), action
        threats = _threats(p)
        if any(sq == square for sq, _ in threats):
            return _block(p, threats, action), action
        two = _two_way(p, square, card, action)
        if two is not None and FORK in two.words:
            return two, action  # two fours at once: stronger than any one of them
        waste = _waste_from_three(p)
        if waste is not None and waste.action == action:
            return waste, action
        if two is not None:
            return two, action
        return _high_card(p, action), action
    if not p.live:
        dead = _dead(p, action)
        assert dead is not None
        if isinstance(action, Draw):
            dead = dead._replace(action=action)
        return dead, action
    if p.deck > 0 and len(p.live) <= RESERVE:
        return _reserve(p, action), action
    if isinstance(action, Discard):
        dead = _dead(p, action)
        assert dead is not None
        return dead, action
    # A draw: no play is worth a card now (the bot's THRESHOLD).
    _, card, square = best_play(tally, sorted(p.live))
    return _hint("keep-low-card",
                 f"No play is worth a card now: the best, your {card} on square {square}, would add little to any "
                 f"line. Keep your cards and draw.",
                 (square,), (), (card,), action), action


def advise(view: SeatView) -> Advice:
    """The coach's hints for the view's seat: the first is the rulebook bot's own choice and why.

    Only the view is read (a seat's view holds no other hand and not the deck's order), so the
    advice cannot carry hidden information; the same view always gets the same advice. A view
    with nothing to advise on (before the deal, after a win) gets none. ValueError for a
    spectator's view: the coach advises a seat on its own hand.
    """
    if view.seat is None or view.hand is None or view.side is None:
        raise ValueError("coach: a spectator's view holds no hand to advise on")
    if not view.started or view.over:
        return Advice((), view.deal, view.ply)
    p = _Position(view)
    first, action = _applied(p)
    hints = [first]
    if first.kind == "win-now":
        return Advice((first,), view.deal, view.ply)
    threats = _threats(p)
    if threats and first.kind != "block-threat":
        hints.append(_block(p, threats, None))
    extra: list[Hint | None] = [_waste_from_four(p)]
    if first.kind != "make-opponent-waste":
        extra.append(_waste_from_three(p))
    if first.kind != "dead-card-discard":
        extra.append(_dead(p, None))
    if first.kind != "two-way-build":
        extra.append(_best_two_way(p, action.square if isinstance(action, Play) else -1))
    if first.kind != "keep-low-card":
        extra.append(_keep_low(p, action))
    seen = {first.kind}
    for hint in extra:
        if hint is not None and len(hints) < MOST_HINTS and hint.kind not in seen:
            seen.add(hint.kind)
            hints.append(hint)
    return Advice(tuple(hints), view.deal, view.ply)


__all__ = ["KINDS", "LOW", "RULEBOOK", "RULEBOOK_HINTS", "TITLES", "Advice", "Hint", "advise", "cards_text"]
