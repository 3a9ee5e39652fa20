"""The review after a game: each of one seat's moves weighed by an estimate of its side's chance to win.

For every action the chosen seat took, the review rebuilds that seat's own
view at that moment (``Game.view(seat)`` while the record is replayed: never
another hand, never the deck's order) and asks an *estimator* for the side's
chance to win after each of a few candidate moves and after the move actually
made, all on the same guessed futures (common random numbers), so the
comparison is fair. The best candidate's chance is the chance *before* the
move (what the position offered); the move's own is the chance *after*; the
difference is the *loss*, in points of win chance. A loss of at least 5, 10
or 20 points marks the move an inaccuracy, a mistake or a blunder, and a
marked move names the better move and the rulebook hint it broke.

The estimator here is the search bot's machinery (``bots.search``): the
hidden cards dealt at random into the other hands and the deck, then the deal
played out by every seat with the noisy rulebook policy (``Playout``). A win
counts 1, a loss 0, a tied deal 1/sides (a tie replays the deal, which each
side then wins about equally often: 0.5 with two sides). Anything with an
``outcomes`` method of the same shape can stand in for it (a stronger bot's
evaluation). Everything is deterministic given the seed and the guess counts.
docs/review.md states the method, the thresholds and the measured error.

>>> from board99 import Game
>>> from board99.arena import play_game
>>> from board99.bots import make_bot
>>> from board99.record import Record
>>> game = play_game(Game(2, seed=5, first=0), [make_bot("rulebook"), make_bot("rulebook")])
>>> review = review_record(Record.of(game), seat=0, options=Options(guesses=8, second=16))
>>> review.seat, len(review.moves) == sum(1 for s, _, _ in game.log if s == 0)
(0, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple, Protocol

from .actions import Action, Discard, Draw, Play
from .bots.rulebook import RESERVE
from .bots.search import PLAYOUT_NOISE, Playout, candidates, deal_guess, unseen_cards
from .bots.tally import LineTally
from .cards import HAND_LIMIT
from .coach import LOW, TITLES
from .layout import LINES_THROUGH
from .record import Record
from .settings import sides_for
from .view import SeatView

#: A move the review weighs: an action, or WAIT (not acting at all: the seat whose turn it is plays on).
#: WAIT is what a seat should have done instead of acting out of turn.
WAIT = None
Move = Action | None

#: Marks by the loss in points of win chance (0-1), worst first: a loss that *shows* as at least this many
#: whole points (``points``) earns the mark, so the number printed beside a move and its mark never disagree.
MARKS: tuple[tuple[str, float], ...] = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
#: Chess notation for each mark, so it reads without colour.
SYMBOLS: dict[str, str] = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
#: A first look that puts the move at least this far behind the best candidate earns a second look.
SECOND_LOOK = 0.03
#: A move is marked only when its loss is also this many standard errors (of the paired difference) above 0.
MARK_Z = 2.0

#: The hints a marked move can break: the 1963 rulebook's five playing hints, blocking a four, winning at once,
#: and the rules themselves (an offence). Kind -> what the player reads.
HINTS: dict[str, str] = {
    "win-now": "Win at once: a card in your hand completed five in a line.",
    "block-threat": "Block an opponent's four before it becomes five.",
    "keep-low-card": "Do not waste the low cards: only they reach the low squares in the centre.",
    "high-card-high-square": "Play the high cards on the high squares, and keep the low ones.",
    "make-opponent-waste": "Make your opponent waste a low card: a four whose open square is low can only be "
                 "blocked with a low card.",
    "two-way-build": "Keep more than one way to win, and don't leave your opponent two: build in blocks that grow "
                "in more than one direction, and take the square where a line would become two fours at once.",
    "dont-run-out": "Don't run out of cards: avoid playing your last two cards unless they win, "
                  "or you cannot block.",
    "offence": "Keep to the rules: an offence costs a card, a turn or both.",
    "none": "No single hint names this one: the playouts simply won more often after the better move.",
}
#: The hints' short names, for tables and the replay viewer: the coach's titles (one name per hint, whoever
#: speaks of it), and the review's own two.
HINT_NAMES: dict[str, str] = {**TITLES, "offence": "An offence", "none": "No single hint"}
#: Squares numbered below this are the centre's two inner rings (0-15): a four open there needs a low card.
LOW_SQUARE = LOW + 1
#: Cards below this reach the inner three rings (0-35): the ones the rulebook says not to waste.
LOW_CARD = 36


class Estimator(Protocol):
    """What the review needs of an estimate: each move's score on the same guessed futures."""

    name: str

    def outcomes(self, view: SeatView, moves: Sequence[Move], guesses: int, seed: int) -> list[list[float]]:
        """Per move, its score for the view's side (1 win, 0 loss, a tie between) on each of ``guesses`` futures.

        Every move is scored on the same futures, guess by guess (common random numbers), and the
        result depends only on the arguments.
        """
        ...


class PlayoutEstimator:
    """The search bot's estimate: hidden cards guessed from the view, the deal played out with the rulebook."""

    name = "playouts"

    def __init__(self, noise: float = PLAYOUT_NOISE) -> None:
        self.noise = noise

    def outcomes(self, view: SeatView, moves: Sequence[Move], guesses: int, seed: int) -> list[list[float]]:
        """Per move, 1/0/(1/sides) for the view's side on each guess; a guess deals every unseen card at random."""
        assert view.seat is not None and view.side is not None and view.hand is not None and view.turn is not None
        seat, side, players = view.seat, view.side, view.players
        hand = list(view.hand)
        tally = LineTally(view.board, view.sides)
        unseen = unseen_cards(view)
        sizes = view.hand_sizes
        tie = 1.0 / view.sides
        rng = random.Random(seed)
        effects = [_effect(view, move) for move in moves]
        scores: list[list[float]] = [[] for _ in moves]
        for _ in range(guesses):
            rng.shuffle(unseen)
            hands, deck = deal_guess(unseen, seat, hand, sizes)
            playout_seed = rng.getrandbits(64)
            for effect, row in zip(effects, scores):
                p = Playout(tally.copy(), [h[:] for h in hands], deck[:], view.turn, list(view.skips), players)
                outcome = effect(p, seat)
                if outcome is None:
                    outcome = p.run(random.Random(playout_seed), self.noise)
                row.append(1.0 if outcome == side else tie if outcome == -1 else 0.0)
        return scores


Effect = Callable[[Playout, int], "int | None"]


def _effect(view: SeatView, move: Move) -> Effect:
    """How ``move`` changes a guessed deal, as the engine would carry it out from ``view`` (penalties too)."""
    if move is None:
        return lambda p, seat: None
    ruling = view.ruling(move)
    if ruling.refused is not None and ruling.offence is None:
        raise ValueError(f"review: {move.text()} is not possible from this view ({ruling.message})")
    offence = ruling.offence
    if offence is None:
        return lambda p, seat: p.act(move)
    if offence == "illegal-draw":
        return _pass_turn  # the card is shown and cut back into the deck: only the turn is gone
    card = None if isinstance(move, Draw) else move.card
    if offence == "illegal-play":
        assert card is not None
        lost = Discard(card)  # the peg comes out, the card stays on the pile: as a discard
        return lambda p, seat: p.act(lost)

    def out_of_turn(p: Playout, seat: int) -> int | None:
        if card is not None:
            p.hands[seat].remove(card)
        p.skips[seat] += 1
        return None

    return out_of_turn


def _pass_turn(p: Playout, seat: int) -> int | None:
    # The turn passes as after any action (Playout.act's loop), with nothing else changed.
    deck, hands, skips, n = p.deck, p.hands, p.skips, p.players
    if not deck and not any(hands):
        return -1
    while True:
        seat = (seat + 1) % n
        if skips[seat]:
            skips[seat] -= 1
        elif hands[seat] or deck:
            p.turn = seat
            return None


class Options(NamedTuple):
    """How hard the review looks: guesses per move, and for a move that may have lost points, a second look."""

    guesses: int = 40  # first look: every candidate and the move made, on the same guesses
    second: int = 128  # second look (fresh guesses): the best candidate against the move made ...
    most: int = 1024  # ... doubled up to this many while its mark is in doubt
    seed: int = 0


#: The review's default effort (docs/review.md gives its time per game and its error).
DEFAULT = Options()


class MoveReview(NamedTuple):
    """One move of the reviewed seat, weighed."""

    game: int  # 1-based, within the file (a match record holds several)
    ply: int  # the action's number in its game, 1-based (across deals)
    deal: int
    seat: int
    action: Action
    before: float  # the side's win chance with the best move found (0-1)
    after: float  # its win chance after the move made
    loss: float  # before - after, never below 0
    se: float  # standard error of the loss (paired, guess by guess); 0 when the move was the best found
    mark: str | None  # 'inaccuracy', 'mistake', 'blunder' or None
    better: Move | None  # for a marked move: the better move (WAIT: not acting out of turn)
    hint: str | None  # for a marked move: the kind of hint it broke (a key of HINTS)
    forced: bool  # the only legal action there was
    offence: str | None  # the offence the move was (penalty mode), else None
    guesses: int  # guesses behind before and after

    @property
    def symbol(self) -> str:
        """'??', '?' or '?!' for a marked move, else ''."""
        return SYMBOLS.get(self.mark or "", "")


class Review(NamedTuple):
    """One seat's moves in one or more games, weighed, with how they were weighed."""

    seat: int
    side: int
    players: int
    moves: tuple[MoveReview, ...]
    estimator: str
    options: Options

    def marked(self) -> tuple[MoveReview, ...]:
        """The marked moves, in the order played."""
        return tuple(m for m in self.moves if m.mark is not None)

    def worst(self) -> MoveReview | None:
        """The move that lost the most (the earliest of equals); None without moves."""
        return max(self.moves, key=lambda m: (m.loss, -m.game, -m.ply), default=None)

    def counts(self) -> dict[str, int]:
        """Marked moves per mark, worst mark first."""
        return {name: sum(1 for m in self.moves if m.mark == name) for name, _ in MARKS}

    def lines(self) -> list[str]:
        """The review as a table of text lines (``board99 review``)."""
        o = self.options
        head = [
            f"Review of S{self.seat} (side {self.side}), {self.players} players: "
            f"{len(self.moves)} moves; estimate: {self.estimator}, {o.guesses} guesses a move "
            f"({o.second}-{o.most} on a second look), seed {o.seed}",
            "Win chance of the side: a win counts 1, a tied deal 1/sides. Loss in points; " + legend() + ".",
            "",
            f"{'game':>4} {'act':>4} {'deal':>4}  {'move':<16} {'before':>6} {'after':>6} {'loss':>5}  "
            f"{'mark':<13} {'better':<16} hint",
        ]
        rows = []
        for m in self.moves:
            mark = f"{m.symbol} {m.mark}" if m.mark else ("forced" if m.forced else "")
            better = move_text(m.better) if m.mark else ""
            hint = HINT_NAMES[m.hint] if m.mark and m.hint else ""
            rows.append(f"{m.game:>4} {m.ply:>4} {m.deal:>4}  {move_text(m.action):<16} {m.before:>6.0%} "
                        f"{m.after:>6.0%} {points(m.loss):>5}  {mark:<13} {better:<16} {hint}".rstrip())
        return head + rows + ["", self.summary()]

    def summary(self) -> str:
        """'1 blunder, 2 inaccuracies; worst: game 1 action 57, play 3 on 40 (-31 points)'."""
        counts = [_plural(n, name) for name, n in self.counts().items() if n]
        worst = self.worst()
        said = ", ".join(counts) if counts else "no marked moves"
        if worst is None or worst.loss <= 0:
            return said
        return (f"{said}; worst: game {worst.game} action {worst.ply}, {move_text(worst.action)} "
                f"(-{points(worst.loss)} points)")


def _plural(n: int, name: str) -> str:
    if n == 1:
        return f"1 {name}"
    return f"{n} {name[:-1]}ies" if name.endswith("y") else f"{n} {name}s"


def move_text(move: Move) -> str:
    """A move in record notation, or 'wait' (not acting out of turn)."""
    return "wait" if move is None else move.text()


def points(chance: float) -> int:
    """A chance (or a loss of chance) in whole points, rounded half up: the one number every page shows.

    >>> points(0.097), points(0.095), points(0.0949), points(0.2)
    (10, 10, 9, 20)
    """
    return math.floor(chance * 100 + 0.5 + 1e-9)


def mark_for(loss: float, se: float) -> str | None:
    """The mark a loss earns by the points it shows as (None: below 5 points, or not clearly above 0).

    >>> mark_for(0.25, 0.03), mark_for(0.12, 0.03), mark_for(0.06, 0.02), mark_for(0.06, 0.04), mark_for(0.02, 0.0)
    ('blunder', 'mistake', 'inaccuracy', None, None)
    >>> mark_for(0.097, 0.0)  # shown as a loss of 10 points: a mistake, as the legend says
    'mistake'
    """
    if loss < MARK_Z * se:
        return None
    shown = points(loss)
    return next((name for name, at in MARKS if shown >= points(at)), None)


def legend() -> str:
    """The marks' thresholds as every page states them: 'inaccuracy ?! from 5, mistake ? from 10, blunder ?? from 20'."""
    return ", ".join(f"{name} {SYMBOLS[name]} from {points(at)}" for name, at in reversed(MARKS))


# -- one move -----------------------------------------------------------------------------------


def candidate_moves(view: SeatView) -> list[Move]:
    """The moves worth comparing from ``view``: the search bot's candidates on the seat's turn, else waiting."""
    assert view.hand is not None and view.side is not None
    if not view.my_turn:
        return [WAIT]
    if not view.hand:
        return [Draw()]
    return list(candidates(LineTally(view.board, view.sides), list(view.hand), view.side, view.deck_size))


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _paired_se(a: Sequence[float], b: Sequence[float]) -> float:
    """Standard error of mean(a - b), guess by guess."""
    n = len(a)
    if n < 2:
        return 0.0
    d = [x - y for x, y in zip(a, b)]
    m = sum(d) / n
    var = sum((x - m) ** 2 for x in d) / (n - 1)
    return float((var / n) ** 0.5)


def move_seed(seed: int, game: int, ply: int) -> int:
    """The seed of one move's looks, from the review's seed and the move's place: any move reviews alone."""
    return random.Random(f"board99-review/{seed}/{game}/{ply}").getrandbits(64)


def weigh(view: SeatView, action: Action, estimator: Estimator, options: Options, seed: int) -> tuple[
        float, float, float, Move, int]:
    """(before, after, se, best move, guesses) for ``action`` from ``view``, ``seed`` from ``move_seed``.

    The first look scores every candidate and the move made on ``options.guesses`` shared guesses (a
    move with no alternative gets ``options.second`` guesses, as it is all there is to weigh). If a
    candidate did better by SECOND_LOOK or more, a second look scores just the two on ``options.second``
    fresh guesses, doubled (up to ``options.most``) while the loss may earn a mark but is not yet
    MARK_Z standard errors clear of 0: chosen on the first look, measured on the second, so the luck
    of the choice does not inflate the loss.
    """
    moves = candidate_moves(view)
    if action not in moves:
        moves.append(action)
    mine = moves.index(action)
    if len(moves) == 1:  # nothing to compare (an empty hand's draw, the only block): one steadier look
        only = estimator.outcomes(view, moves, max(options.guesses, options.second), seed)[0]
        return _mean(only), _mean(only), 0.0, action, len(only)
    scores = estimator.outcomes(view, moves, options.guesses, seed)
    means = [_mean(s) for s in scores]
    # The first candidate of the best score; the move made keeps a tie.
    best = max(range(len(moves)), key=lambda i: (means[i], i == mine, -i))
    if best == mine:
        return means[mine], means[mine], 0.0, action, options.guesses
    if means[best] - means[mine] < SECOND_LOOK or options.second <= 0:
        return means[best], means[mine], _paired_se(scores[best], scores[mine]), moves[best], options.guesses
    pair: list[list[float]] = [[], []]
    batch, look = options.second, 2
    while True:
        more = estimator.outcomes(view, [moves[best], action], batch, seed + look)
        pair[0] += more[0]
        pair[1] += more[1]
        loss, se = _mean(pair[0]) - _mean(pair[1]), _paired_se(pair[0], pair[1])
        n = len(pair[0])
        if points(loss) < points(MARKS[-1][1]) or loss >= MARK_Z * se or n + n > options.most:
            break
        batch, look = n, look + 1  # double the guesses
    return _mean(pair[0]), _mean(pair[1]), se, moves[best], n


# -- which hint a move broke ------------------------------------------------------------------


def _live_after(view: SeatView, move: Move, top: int) -> int:
    """Live cards (some free square fits them) the seat holds after ``move`` (a draw counts as one more)."""
    assert view.hand is not None
    hand = list(view.hand)
    if type(move) in (Play, Discard):
        hand.remove(move.card)  # type: ignore[union-attr]
    live = sum(1 for c in hand if c <= top)
    return live + (1 if type(move) is Draw and len(hand) < HAND_LIMIT else 0)


def _own_lines(tally: LineTally, square: int, side: int) -> int:
    """Lines through ``square`` that ``side`` can still complete and already has a peg in."""
    return sum(1 for i in LINES_THROUGH[square] if tally.owner[i] == side and tally.count[i] >= 1)


def _new_fours(tally: LineTally, square: int, side: int) -> set[int]:
    """The open squares of the fours pegging ``square`` would give ``side``."""
    t = tally.copy()
    before = set(t.threats[side])
    t.place(square, side)
    return t.threats[side] - before


def _double(tally: LineTally, square: int, sides: Iterable[int]) -> bool:
    """True if pegging ``square`` would give one of ``sides`` two or more new fours at once (unstoppable)."""
    return any(len(_new_fours(tally, square, s)) >= 2 for s in sides)


def hint_broken(view: SeatView, action: Action, better: Move) -> str:
    """The kind of hint (a key of HINTS) that ``action`` broke where ``better`` would have kept it."""
    assert view.side is not None and view.hand is not None
    if view.ruling(action).offence is not None:
        return "offence"
    side = view.side
    tally = LineTally(view.board, view.sides)
    wins = tally.threats[side]
    blocks = {q for s in range(view.sides) if s != side for q in tally.threats[s]}
    played = action if type(action) is Play else None
    if type(better) is Play and better.square in wins:
        return "win-now"
    if type(better) is Play and better.square in blocks and (played is None or played.square not in blocks
                                                               or played.square != better.square):
        return "block-threat"
    top = tally.free_top
    left = _live_after(view, action, top)
    if view.deck_size > 0 and left < RESERVE and _live_after(view, better, top) > left:
        return "dont-run-out"
    if played is not None and type(better) is Play:
        if played.square == better.square and played.card < better.card:
            return "high-card-high-square"
        if played.card < better.card and played.square - played.card > better.square - better.card:
            return "keep-low-card"
        if _double(tally, better.square, range(view.sides)) and not _double(tally, played.square, [side]):
            return "two-way-build"  # two fours at once for us, or a square where an opponent would make them
        mine, theirs = _new_fours(tally, better.square, side), _new_fours(tally, played.square, side)
        if mine and max(mine) < LOW_SQUARE and not (theirs and max(theirs) < LOW_SQUARE):
            return "make-opponent-waste"
        if _own_lines(tally, better.square, side) > _own_lines(tally, played.square, side):
            return "two-way-build"
        if played.card < LOW_CARD and played.card < better.card:
            return "keep-low-card"
        return "none"
    if type(action) is Discard and action.card <= top and action.card < LOW_CARD:
        return "keep-low-card"
    if type(better) is Play and _own_lines(tally, better.square, side) >= 2:
        return "two-way-build"
    return "none"


# -- a whole record ---------------------------------------------------------------------------


class _Turn(NamedTuple):
    game: int
    ply: int
    deal: int
    view: SeatView
    action: Action


def _turns(records: Sequence[Record], seat: int) -> Iterator[_Turn]:
    """Each action of ``seat`` in ``records``, with the seat's own view just before it."""
    for number, record in enumerate(records, start=1):
        if not 0 <= seat < record.players:
            raise ValueError(f"seat: a {record.players}-player game has seats 0-{record.players - 1}, not {seat}")
        mine = {i for i, line in enumerate(record.lines) if line.startswith(f"S{seat} ")}
        before: SeatView | None = None
        for offset, (_, _line, game) in enumerate(record.steps()):
            if offset in mine and before is not None:
                _, action, _ = game.log[-1]
                yield _Turn(number, game.ply, before.deal, before, action)
            if offset + 1 in mine:
                before = game.view(seat)


def review_records(
    records: Sequence[Record],
    seat: int,
    estimator: Estimator | None = None,
    options: Options = DEFAULT,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Weigh every action of ``seat`` in the games of ``records`` (a match's games, or one game's).

    ``progress(done, total)`` is called after each move (for a window's progress bar).
    """
    estimator = estimator or PlayoutEstimator()
    total = sum(1 for r in records for line in r.lines if line.startswith(f"S{seat} "))
    reviewed: list[MoveReview] = []
    for turn in _turns(records, seat):
        reviewed.append(review_move(turn.view, turn.action, estimator, options, turn.game, turn.ply, turn.deal))
        if progress is not None:
            progress(len(reviewed), total)
    players = records[0].players if records else 2
    return Review(seat, seat % sides_for(players), players, tuple(reviewed),
                  estimator.name, options)


def review_record(record: Record, seat: int, estimator: Estimator | None = None, options: Options = DEFAULT,
                  progress: Callable[[int, int], None] | None = None) -> Review:
    """Weigh every action of ``seat`` in one game's record."""
    return review_records([record], seat, estimator, options, progress)


def review_move(view: SeatView, action: Action, estimator: Estimator, options: Options = DEFAULT,
                game: int = 1, ply: int = 0, deal: int = 1) -> MoveReview:
    """One move weighed from the seat's own view just before it."""
    assert view.seat is not None
    legal = view.legal_actions() if view.my_turn else []
    forced = len(legal) == 1 and legal[0] == action
    before, after, se, best, guesses = weigh(view, action, estimator, options, move_seed(options.seed, game, ply))
    before = max(before, after)  # a second look that puts the move made ahead makes it the best found
    loss = before - after
    mark = mark_for(loss, se)
    ruling = view.ruling(action)
    return MoveReview(
        game, ply, deal, view.seat, action, before, after, loss, se, mark,
        best if mark else None, hint_broken(view, action, best) if mark else None,
        forced, ruling.offence, guesses,
    )


__all__ = [
    "DEFAULT", "HINTS", "HINT_NAMES", "MARKS", "SYMBOLS", "WAIT", "Estimator", "Move", "MoveReview", "Options",
    "PlayoutEstimator", "Review", "candidate_moves", "hint_broken", "mark_for", "move_text", "review_move", "review_record",
    "review_records", "weigh", "legend", "points",
]
