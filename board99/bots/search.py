"""The search bot: Monte-Carlo over the hidden cards, with rulebook playouts.

For each move it lists a few candidate actions (the rulebook's best plays,
draw, discarding a dead card), then repeatedly guesses the hidden cards -- the
cards it has not seen, dealt at random into the other hands (by their known
sizes) and the deck -- and plays every candidate out to the end of the deal
with a fast, slightly noisy rulebook policy for every seat. All candidates
share each guess and each playout's random numbers, so they are compared on
the same futures. The rulebook's own choice is the default; another candidate
is played only when it wins more often by PICK_Z standard errors of the
paired difference, so that few guesses rarely lead it astray by chance.
Candidates clearly behind the leader are dropped as the guesses come in, and
the search stops when the leader is clear of all the others, when the budget
is spent (checked between playouts; a guess cut short is not counted) or
after ``rollouts`` guesses.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from ..actions import Action, Discard, Draw, Play
from ..cards import HAND_LIMIT
from ..view import SeatView
from .rulebook import RESERVE, THRESHOLD, best_play, decide, highest_fitting, ranked_plays, win_square
from .tally import LineTally

#: Plays taken from the rulebook's ranking as candidates.
CANDIDATE_PLAYS = 5
#: Uniform noise added to the playout policy's scores, so playouts differ.
PLAYOUT_NOISE = 3.0
#: A playout that has not ended after this many actions counts as a tie.
PLAYOUT_PLIES = 400
#: Guesses before a candidate may be dropped or the search stopped early.
MIN_GUESSES = 8
#: How many standard errors behind the leader a candidate is dropped (and the search stops
#: when every other candidate is that far behind).
DROP_Z = 2.0
#: How many standard errors ahead of the rulebook's choice a candidate must be to be played.
PICK_Z = 1.0


class Playout:
    """A deal played out from a guess at the hidden cards, with no log and no events."""

    __slots__ = ("tally", "hands", "deck", "turn", "skips", "players", "sides")

    def __init__(
        self,
        tally: LineTally,
        hands: list[list[int]],
        deck: list[int],
        turn: int,
        skips: list[int],
        players: int,
    ) -> None:
        self.tally = tally
        self.hands = hands
        self.deck = deck  # top card last, so a draw is a pop()
        self.turn = turn
        self.skips = skips
        self.players = players
        self.sides = tally.sides

    def act(self, action: Action) -> int | None:
        """Carry out the turn's action; the winning side, -1 for a tie, or None while play goes on."""
        seat = self.turn
        hand = self.hands[seat]
        if type(action) is Play:
            hand.remove(action.card)
            if self.tally.place(action.square, seat % self.sides):
                return seat % self.sides
        elif type(action) is Discard:
            hand.remove(action.card)
        else:
            hand.append(self.deck.pop())
        deck, hands, skips, n = self.deck, self.hands, self.skips, self.players
        if not deck and not any(hands):
            return -1
        while True:
            seat = (seat + 1) % n
            if skips[seat]:
                skips[seat] -= 1
            elif hands[seat] or deck:
                self.turn = seat
                return None

    def run(self, rng: random.Random, noise: float = PLAYOUT_NOISE, limit: int = PLAYOUT_PLIES) -> int:
        """Play on with the noisy rulebook policy; the winning side, or -1 for a tie.

        The policy is ``rulebook.decide`` written out in line (the playouts' hot
        loop), with no Action objects; tests check the two agree.
        """
        tally, hands, deck, skips = self.tally, self.hands, self.deck, self.skips
        players, sides = self.players, self.sides
        threats, place = tally.threats, tally.place
        seat = self.turn
        for _ in range(limit):
            hand = hands[seat]
            side = seat % sides
            card, square = -1, -1  # card -1: draw; square -1: discard the card
            if hand:
                lowest = min(hand)
                for q in threats[side]:
                    if q >= lowest and q > square:
                        square = q
                if square < 0:
                    for s in range(sides):
                        if s != side:
                            for q in threats[s]:
                                if q >= lowest and q > square:
                                    square = q
                if square >= 0:
                    card = max(c for c in hand if c <= square)
                else:
                    top = tally.free_top
                    live = sorted(c for c in hand if c <= top)
                    left = len(deck)
                    can_draw = len(hand) < HAND_LIMIT and left > 0
                    if not live or (left and len(live) <= RESERVE):
                        if not can_draw:
                            card = max(hand)  # all dead, or a full hand of mostly dead cards
                    else:
                        v, c, q = best_play(tally, live, rng, noise)
                        if v < THRESHOLD and left and (can_draw or len(live) < len(hand)):
                            if not can_draw:
                                card = max(hand)  # a dead card: the highest card in hand
                        else:
                            card, square = c, q
            if card < 0:
                hand.append(deck.pop())
            else:
                hand.remove(card)
                if square >= 0 and place(square, side):
                    return side
            if not deck and not any(hands):
                return -1
            while True:
                seat = (seat + 1) % players
                if skips[seat]:
                    skips[seat] -= 1
                elif hands[seat] or deck:
                    break
        self.turn = seat
        return -1


def unseen_cards(view: SeatView) -> list[int]:
    """The cards the view's seat has not seen (the other hands and the deck): not its own, in no discard pile."""
    seen = set(view.hand or ())
    for pile in view.discards:
        seen.update(pile)
    return [c for c in range(100) if c not in seen]


def deal_guess(
    unseen: list[int], seat: int, hand: Sequence[int], sizes: Sequence[int],
) -> tuple[list[list[int]], list[int]]:
    """A guess at the hidden cards: ``seat`` holds ``hand``, each other seat its size's share of ``unseen``
    (shuffled by the caller) in seat order, and the rest is the deck, top card last."""
    hands: list[list[int]] = []
    at = 0
    for s in range(len(sizes)):
        if s == seat:
            hands.append(list(hand))
        else:
            hands.append(unseen[at:at + sizes[s]])
            at += sizes[s]
    return hands, unseen[at:]


def candidates(tally: LineTally, hand: Sequence[int], side: int, deck_size: int) -> list[Action]:
    """The actions worth searching, most promising first by the rulebook's order."""
    lowest = min(hand)
    sq = win_square(tally, side, lowest)
    if sq >= 0:
        return [Play(highest_fitting(hand, sq), sq)]
    threats = sorted(
        {q for s in range(tally.sides) if s != side for q in tally.threats[s] if q >= lowest},
        reverse=True,
    )
    if threats:
        # An opponent's four must be blocked; with several, search which one.
        return [Play(highest_fitting(hand, q), q) for q in threats]
    top = tally.free_top
    live = [c for c in hand if c <= top]
    dead = [c for c in hand if c > top]
    first = decide(tally, hand, side, deck_size)
    acts: list[Action] = [first]
    for _, card, sq in ranked_plays(tally, live, CANDIDATE_PLAYS):
        act = Play(card, sq)
        if act not in acts:
            acts.append(act)
    if len(hand) < HAND_LIMIT and deck_size > 0:
        if Draw() not in acts:
            acts.append(Draw())
    elif dead and Discard(max(dead)) not in acts:
        acts.append(Discard(max(dead)))
    return acts


class SearchBot:
    """Monte-Carlo search over guesses at the hidden cards, with rulebook playouts, within a time budget."""

    name = "search"

    def __init__(self, seed: int | None = None, budget: float | None = 0.2, rollouts: int | None = None) -> None:
        """``budget``: seconds per move, a hard cap (None: no cap); ``rollouts``: at most this many guesses per move."""
        if budget is None and rollouts is None:
            raise ValueError(f"{self.name} bot: give a time budget, a rollouts count, or both")
        self.rng = random.Random(seed)
        self.budget = budget
        self.rollouts = rollouts
        #: Guesses played out at the last move (for tests and benchmarks).
        self.last_guesses = 0

    def choose(self, view: SeatView) -> Action:
        """The action whose playouts won most often, from the view's seat (the view must be on its turn)."""
        start = time.perf_counter()
        deadline = None if self.budget is None else start + self.budget
        assert view.seat is not None and view.side is not None and view.hand is not None, \
            "a bot plays a seat, not a spectator's view"
        seat, side, players = view.seat, view.side, view.players
        hand = list(view.hand)
        tally = LineTally(view.board, view.sides)
        self.last_guesses = 0
        if not hand:
            return Draw()
        acts = candidates(tally, hand, side, view.deck_size)
        if len(acts) == 1:
            return acts[0]
        unseen = unseen_cards(view)
        sizes = view.hand_sizes
        rng = self.rng
        # outcomes[i]: candidate i's score on each guess so far (all live candidates share every guess)
        outcomes: list[list[float]] = [[] for _ in acts]
        alive = list(range(len(acts)))
        guesses = 0
        tie_value = 1.0 / view.sides
        slowest = 0.0  # the longest one guess has taken, to stop before the budget runs out
        while self.rollouts is None or guesses < self.rollouts:
            began = time.perf_counter()
            if deadline is not None and began + slowest > deadline:
                break
            rng.shuffle(unseen)
            hands, deck = deal_guess(unseen, seat, hand, sizes)
            playout_seed = rng.getrandbits(64)
            results = []
            for i in alive:
                p = Playout(tally.copy(), [h[:] for h in hands], deck[:], seat, list(view.skips), players)
                outcome = p.act(acts[i])
                if outcome is None:
                    outcome = p.run(random.Random(playout_seed))
                results.append(1.0 if outcome == side else tie_value if outcome == -1 else 0.0)
                if deadline is not None and time.perf_counter() > deadline:
                    break
            else:
                for i, r in zip(alive, results):
                    outcomes[i].append(r)
                guesses += 1
                slowest = max(slowest, time.perf_counter() - began)
                if guesses >= MIN_GUESSES and guesses % 4 == 0:
                    alive, clear = _prune(alive, outcomes)
                    if clear:
                        break
                continue
            break  # out of time in the middle of a guess: it does not count
        self.last_guesses = guesses
        return acts[_pick(alive, outcomes)]


def _edge(a: list[float], b: list[float]) -> float:
    """How many standard errors the mean of a - b (paired, guess by guess) lies above 0."""
    n = len(a)
    if n == 0:
        return 0.0
    total = squares = 0.0
    for x, y in zip(a, b):
        d = x - y
        total += d
        squares += d * d
    # One pseudo-observation of size 1 keeps the error from vanishing after a few equal outcomes.
    se = math.sqrt((squares + 1.0) / (n + 1) / n)
    return total / n / se


def _leader(alive: list[int], outcomes: list[list[float]]) -> int:
    """The live candidate with the best total, the earlier one on a tie."""
    return max(alive, key=lambda i: (sum(outcomes[i]), -i))


def _prune(alive: list[int], outcomes: list[list[float]]) -> tuple[list[int], bool]:
    """Drop candidates DROP_Z standard errors behind the leader; True when the leader is clear of all.

    The rulebook's choice (candidate 0) is kept to the end as the baseline.
    """
    lead = _leader(alive, outcomes)
    behind = {i: _edge(outcomes[lead], outcomes[i]) >= DROP_Z for i in alive if i != lead}
    kept = [i for i in alive if i == lead or i == 0 or not behind[i]]
    return kept, all(behind[i] for i in kept if i != lead)


def _pick(alive: list[int], outcomes: list[list[float]]) -> int:
    """The candidate to play: the best of those PICK_Z standard errors ahead of the rulebook's choice, else it."""
    best = 0
    for i in alive:
        # Leave the rulebook's choice only on evidence, so few guesses rarely lead astray.
        if i and sum(outcomes[i]) > sum(outcomes[best]) and _edge(outcomes[i], outcomes[0]) > PICK_Z:
            best = i
    return best
