"""The search bot's guesses and rulebook playouts, compiled with numba: the same policy, many times faster.

``SearchBot`` plays each guess out in Python (``search.Playout``): about a
tenth of a millisecond a playout, so 0.2 s buys a few hundred guesses a move.
This module does the same work -- deal a guess at the hidden cards, carry out
each candidate action, play the deal out with the noisy rulebook policy for
every seat -- in machine code, on flat arrays, so the same 0.2 s buys many
times more guesses. The policy is ``rulebook.decide`` move for move (a test
plays the two side by side); the random numbers come from a small xorshift
generator seeded by the caller, so a run is reproducible from its seed.

Arrays (all int64 unless said):
    board[100]        -1 free, else the side holding the square
    count[192]        pegs in each line of five
    owner[192]        NOBODY, MIXED or the one side holding all its pegs
    value[100]        float64: ``LineTally.value``
    threat[sides,101] how many of the side's four-peg lines the square completes; column 100
                      counts every such line the side ever made, so a side with none skips the scan
    hands[players,5], sizes[players], deck[100] (top card last), skips[players]
    moves[m,6]        remembered moves of other seats, newest first: seat, kind (PLAY, DRAW,
                      DISCARD), card, square, deck size and highest free square before it; with
                      mboard[m,100], mvalue[m,100] and mthreat[m,sides,101], the table it was made at
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import HAND_LIMIT
from ..layout import LINES, LINES_THROUGH
from .memory import DISCARD, DRAW, PLAY
from .rulebook import RESERVE, THRESHOLD
from .search import CANDIDATE_PLAYS
from .tally import MIXED, TAKEN, WASTE, WEIGHTS, LineTally

NOBODY = -2
#: The 192 lines as rows of five squares, and each square's lines (padded with -1).
LINE_SQUARES = np.array(LINES, dtype=np.int64)
_WIDEST = max(len(t) for t in LINES_THROUGH)
THROUGH = np.array([list(t) + [-1] * (_WIDEST - len(t)) for t in LINES_THROUGH], dtype=np.int64)
WEIGHT = np.array(WEIGHTS, dtype=np.float64)

# Outcome codes of a playout, as ``Playout.run`` returns them: a side number, or TIE.
TIE = -1
#: A playout that has not ended after this many actions counts as a tie (as ``search.PLAYOUT_PLIES``).
PLIES = 400

#: How likely a searching player (the search bot) makes a move, by what the rulebook's policy would do
#: with the same hand; counted from the search bot's own moves (docs/bots.md).
ODDS_DRAW = 0.72  # it draws where the rulebook draws
ODDS_DRAW_NOT = 0.075  # it draws where the rulebook plays
ODDS_CHOICE = 0.68  # it plays the rulebook's play
ODDS_OTHER = 0.05  # it plays another of its candidates (one of the five best plays)
ODDS_NONE = 0.005  # no searching player would: not a candidate, or a due win or block not made


@njit(cache=True)
def _next(rng: np.ndarray) -> np.uint64:  # pragma: no cover - compiled
    """xorshift64*: the next 64 random bits; ``rng`` is a one-element uint64 state."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(2685821657736338717)


@njit(cache=True)
def _uniform(rng: np.ndarray) -> float:  # pragma: no cover - compiled
    """A float in [0, 1)."""
    return float(_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _below(rng: np.ndarray, n: int) -> int:  # pragma: no cover - compiled
    """An int in [0, n)."""
    return int(_next(rng) % np.uint64(n))


@njit(cache=True)
def _place(square, side, sides, board, count, owner, value, threat, lines, through, weight):  # pragma: no cover
    """Peg ``square`` for ``side`` (``LineTally.place``); True if that completes a five."""
    board[square] = side
    value[square] = TAKEN
    won = False
    opened = weight[1] - weight[0] - (sides - 1) * weight[0]
    for j in range(through.shape[1]):
        i = through[square, j]
        if i < 0:
            break
        o = owner[i]
        n = count[i]
        count[i] = n + 1
        if o == MIXED:
            continue
        if o == NOBODY:
            owner[i] = side
            d = opened
        elif o == side:
            d = weight[n + 1] - weight[n]
            if n == 3:
                for k in range(5):
                    q = lines[i, k]
                    if board[q] < 0:
                        threat[side, q] += 1
                threat[side, 100] += 1
            elif n == 4:
                won = True
        else:
            owner[i] = MIXED
            d = -weight[n]
        for k in range(5):
            value[lines[i, k]] += d
    return won


@njit(cache=True)
def _threat_square(board, threat, side, lowest):  # pragma: no cover - compiled
    """The highest free square >= ``lowest`` completing one of ``side``'s fours, or -1."""
    if threat[side, 100] == 0:
        return -1
    for q in range(99, lowest - 1, -1):
        if board[q] < 0 and threat[side, q] > 0:
            return q
    return -1


@njit(cache=True)
def _remove(hands, sizes, seat, card):  # pragma: no cover - compiled
    """Take ``card`` out of the seat's hand (order does not matter to the policy)."""
    n = sizes[seat]
    for k in range(n):
        if hands[seat, k] == card:
            hands[seat, k] = hands[seat, n - 1]
            sizes[seat] = n - 1
            return


@njit(cache=True)
def _due_square(board, threat, side, sides, lowest):  # pragma: no cover - compiled
    """A square a card >= ``lowest`` must take now: the side's own win, else the highest block; or -1."""
    square = _threat_square(board, threat, side, lowest)
    if square < 0:
        for s in range(sides):
            if s != side:
                square = max(square, _threat_square(board, threat, s, lowest))
    return square


@njit(cache=True)
def _live_sorted(hands, sizes, seat, free_top, live):  # pragma: no cover - compiled
    """The seat's live cards (some free square fits them) into ``live``, lowest first; how many."""
    nlive = 0
    for k in range(sizes[seat]):
        c = hands[seat, k]
        if c <= free_top:
            j = nlive  # insertion sort: at most five cards
            while j > 0 and live[j - 1] > c:
                live[j] = live[j - 1]
                j -= 1
            live[j] = c
            nlive += 1
    return nlive


@njit(cache=True)
def _policy(seat, side, sides, board, value, threat, free_top, hands, sizes, left, noise, rng, live):  # pragma: no cover
    """The noisy rulebook policy (``rulebook.decide``): (card, square); card -1 draws, square -1 discards.

    ``live`` is scratch space for the sorted live cards (at least HAND_LIMIT + 1 long).
    """
    n = sizes[seat]
    if n == 0:
        return -1, -1
    lowest, highest = 100, -1
    for k in range(n):
        c = hands[seat, k]
        lowest = min(lowest, c)
        highest = max(highest, c)
    square = _due_square(board, threat, side, sides, lowest)
    if square >= 0:
        card = -1
        for k in range(n):
            c = hands[seat, k]
            if c <= square and c > card:
                card = c
        return card, square
    nlive = _live_sorted(hands, sizes, seat, free_top, live)
    can_draw = n < HAND_LIMIT and left > 0
    if nlive == 0 or (left > 0 and nlive <= RESERVE):
        return (-1, -1) if can_draw else (highest, -1)
    best_v, best_c, best_q = TAKEN, -1, -1
    top = free_top + 1
    for k in range(nlive):
        card = live[k]
        end = top if k + 1 == nlive else min(live[k + 1], top)
        if end <= card:
            continue
        m, at = value[card], card
        for q in range(card + 1, end):
            if value[q] > m:
                m, at = value[q], q
        if m <= TAKEN / 2:
            continue
        v = m + WASTE * card
        if noise > 0.0:
            v += noise * _uniform(rng)
        if v > best_v:
            best_v, best_c, best_q = v, card, at
    if best_v < THRESHOLD and left > 0 and (can_draw or nlive < n):
        return (-1, -1) if can_draw else (highest, -1)
    return best_c, best_q


@njit(cache=True)
def _advance(seat, players, hands_sizes, left, skips):  # pragma: no cover - compiled
    """The next seat to act after ``seat`` (skips served on the way), or -1 when the deal is a tie."""
    empty = True
    for s in range(players):
        if hands_sizes[s] > 0:
            empty = False
    if left == 0 and empty:
        return -1
    while True:
        seat = (seat + 1) % players
        if skips[seat] > 0:
            skips[seat] -= 1
        elif hands_sizes[seat] > 0 or left > 0:
            return seat


@njit(cache=True)
def _act(seat, side, sides, card, square, board, count, owner, value, threat, hands, sizes, deck, left,
         lines, through, weight):  # pragma: no cover - compiled
    """Carry out one action; (winning side or -2 to go on, cards left in the deck)."""
    if card < 0:
        hands[seat, sizes[seat]] = deck[left - 1]
        sizes[seat] += 1
        left -= 1
    else:
        _remove(hands, sizes, seat, card)
        if square >= 0 and _place(square, side, sides, board, count, owner, value, threat, lines, through, weight):
            return side, left
    return NOBODY, left


@njit(cache=True)
def _top(board, free_top):  # pragma: no cover - compiled
    """The highest free square at or below ``free_top``."""
    while free_top >= 0 and board[free_top] >= 0:
        free_top -= 1
    return free_top


@njit(cache=True)
def playout(seat, sides, players, board, count, owner, value, threat, hands, sizes, deck, left, skips, noise,
            seed, limit, lines, through, weight):  # pragma: no cover - compiled
    """Play the deal out from ``seat``'s turn with the noisy rulebook policy; the winning side or TIE.

    Every array is changed in place (the caller passes copies).
    """
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) | np.uint64(1)
    live = np.empty(HAND_LIMIT + 1, dtype=np.int64)
    free_top = _top(board, 99)
    for _ in range(limit):
        side = seat % sides
        card, square = _policy(seat, side, sides, board, value, threat, free_top, hands, sizes, left, noise, rng,
                               live)
        won, left = _act(seat, side, sides, card, square, board, count, owner, value, threat, hands, sizes, deck,
                         left, lines, through, weight)
        if won != NOBODY:
            return won
        free_top = _top(board, free_top)
        seat = _advance(seat, players, sizes, left, skips)
        if seat < 0:
            return TIE
    return TIE


@njit(cache=True)
def _hands(seat, players, hand, hand_sizes, pool, hands, sizes):  # pragma: no cover - compiled
    """Deal ``hand`` to ``seat`` and the front of ``pool`` to the others by their sizes; the cards dealt."""
    at = 0
    for s in range(players):
        if s == seat:
            for k in range(hand.shape[0]):
                hands[s, k] = hand[k]
            sizes[s] = hand.shape[0]
        else:
            for k in range(hand_sizes[s]):
                hands[s, k] = pool[at + k]
            sizes[s] = hand_sizes[s]
            at += hand_sizes[s]
    return at


@njit(cache=True)
def _likelihood(kind, card, square, seat, side, sides, board, value, threat, free_top, left, hands, sizes, rng,
                live):  # pragma: no cover - compiled
    """How likely a searching player holding hands[seat] was to make this move on this board (the ``ODDS_*``)."""
    if kind == DISCARD:
        return 1.0  # the highest dead card, or a hand too poor to matter: it tells little
    lowest = 100
    for k in range(sizes[seat]):
        lowest = min(lowest, hands[seat, k])
    if _due_square(board, threat, side, sides, lowest) >= 0:  # a win or a block was due
        if kind != PLAY:
            return ODDS_NONE
        completes = 0
        for s in range(sides):
            completes += threat[s, square]
        if completes == 0 or card != _highest_fitting(hands, sizes, seat, square):
            return ODDS_NONE
        return 1.0
    rc, rq = _policy(seat, side, sides, board, value, threat, free_top, hands, sizes, left, 0.0, rng, live)
    if kind == DRAW:
        return ODDS_DRAW if rc < 0 else ODDS_DRAW_NOT
    if rc == card and rq == square:
        return ODDS_CHOICE
    if card != _highest_fitting(hands, sizes, seat, square) or card > free_top:
        return ODDS_NONE
    # One of the five best plays (each square with its highest fitting card, as ``ranked_plays``)?
    nlive = _live_sorted(hands, sizes, seat, free_top, live)
    mine = value[square] + WASTE * card
    better = 0
    top = free_top + 1
    for k in range(nlive):
        c = live[k]
        end = top if k + 1 == nlive else min(live[k + 1], top)
        for q in range(c, end):
            if value[q] > TAKEN / 2 and value[q] + WASTE * c > mine:
                better += 1
    return ODDS_NONE if better >= CANDIDATE_PLAYS else ODDS_OTHER


@njit(cache=True)
def _highest_fitting(hands, sizes, seat, square):  # pragma: no cover - compiled
    """The highest card in the seat's hand that fits ``square``, or -1."""
    best = -1
    for k in range(sizes[seat]):
        c = hands[seat, k]
        if best < c <= square:
            best = c
    return best


@njit(cache=True)
def _weight(sides, hands, sizes, moves, mboard, mvalue, mthreat, rng, live, work, work_sizes):  # pragma: no cover
    """How likely the guessed hands made the remembered moves (newest first), stepping back through them.

    Stepping back over a play or discard puts its card back in the hand; over a draw, a card of the
    hand chosen at random is the one drawn, and goes back to the deck.
    """
    w = 1.0
    work[:, :] = hands
    work_sizes[:] = sizes
    for j in range(moves.shape[0]):
        s, kind, card, square, left, top = moves[j, 0], moves[j, 1], moves[j, 2], moves[j, 3], moves[j, 4], \
            moves[j, 5]
        if kind == DRAW:
            if work_sizes[s] == 0:
                return 0.0
            x = _below(rng, work_sizes[s])
            work[s, x] = work[s, work_sizes[s] - 1]
            work_sizes[s] -= 1
        else:
            if work_sizes[s] >= HAND_LIMIT:
                return 0.0
            work[s, work_sizes[s]] = card
            work_sizes[s] += 1
        w *= _likelihood(kind, card, square, s, s % sides, sides, mboard[j], mvalue[j], mthreat[j], top, left,
                         work, work_sizes, rng, live)
    return w


@njit(cache=True)
def deal(seat, sides, players, hand, hand_sizes, pool, known, moves, mboard, mvalue, mthreat, samples, rng,
         hands, sizes, picks, weights, work, work_sizes, live):  # pragma: no cover - compiled
    """One guess at the hidden cards: ``pool`` shuffled, ``hands`` and ``sizes`` dealt; the cards dealt.

    ``pool`` is left with the other seats' hands at its front, in seat order, and the deck after
    them. Uniform, unless there are ``moves`` to weigh (see ``guesses``); the rest is scratch space
    (``picks`` samples x hidden cards, ``weights`` samples, ``work`` and ``work_sizes`` as ``hands``
    and ``sizes``, ``live`` HAND_LIMIT + 1).
    """
    n = pool.shape[0]
    need = 0
    for s in range(players):
        if s != seat:
            need += hand_sizes[s]
    if moves.shape[0] == 0 or samples < 2 or known > 0:
        for k in range(n - 1, known, -1):  # Fisher-Yates over pool[known:]
            j = known + _below(rng, k + 1 - known)
            pool[k], pool[j] = pool[j], pool[k]
        return _hands(seat, players, hand, hand_sizes, pool, hands, sizes)
    total = 0.0
    for m in range(samples):
        for k in range(need):  # partial Fisher-Yates: pool[:need] becomes a uniform draw
            j = k + _below(rng, n - k)
            pool[k], pool[j] = pool[j], pool[k]
        picks[m, :] = pool[:need]
        _hands(seat, players, hand, hand_sizes, pool, hands, sizes)
        weights[m] = _weight(sides, hands, sizes, moves, mboard, mvalue, mthreat, rng, live, work, work_sizes)
        total += weights[m]
    chosen = samples - 1  # all weights nought (no sample explains the moves): the last, a uniform draw
    x = _uniform(rng) * total
    for m in range(samples):
        x -= weights[m]
        if x < 0.0:
            chosen = m
            break
    for k in range(need):  # the chosen hands to the front; the rest is the deck, shuffled
        for j in range(k, n):
            if pool[j] == picks[chosen, k]:
                pool[k], pool[j] = pool[j], pool[k]
                break
    for k in range(n - 1, need, -1):
        j = need + _below(rng, k + 1 - need)
        pool[k], pool[j] = pool[j], pool[k]
    return _hands(seat, players, hand, hand_sizes, pool, hands, sizes)


@njit(cache=True)
def guesses(seat, sides, players, board, count, owner, value, threat, hand, unseen, hand_sizes, skips,
            cards, squares, alive, rounds, noise, seed, known, moves, mboard, mvalue, mthreat, samples,
            lines, through, weight):  # pragma: no cover - compiled
    """``rounds`` guesses at the hidden cards, each played out after every live candidate action.

    Candidate ``i`` is (cards[i], squares[i]) as in ``_policy``'s codes; ``alive[i]`` says whether to
    play it. Returns outcomes[round, i]: the winning side, TIE, or -3 for a candidate not played.
    All candidates share each guess and each playout's random numbers. The first ``known`` cards of
    ``unseen`` are not shuffled: 0 in play; bench/informed_match.py passes the other hands' true
    cards there, in seat order, to measure what knowing them would be worth.

    With no ``moves`` the hidden cards are dealt uniformly. With the other seats' remembered moves
    (``InferenceBot.evidence``'s arrays, newest first) each guess deals ``samples`` hands and keeps
    one in proportion to how likely those hands made the moves (``deal``): sampling-importance-resampling.
    """
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) | np.uint64(1)
    ncand = cards.shape[0]
    out = np.full((rounds, ncand), -3, dtype=np.int64)
    pool = unseen.copy()
    hands = np.zeros((players, HAND_LIMIT + 1), dtype=np.int64)
    sizes = np.zeros(players, dtype=np.int64)
    deck = np.empty(100, dtype=np.int64)
    # One set of working arrays, overwritten for each candidate (no allocation in the loop).
    b, c, o, v, t = board.copy(), count.copy(), owner.copy(), value.copy(), threat.copy()
    h, z, d, sk = hands.copy(), sizes.copy(), deck.copy(), skips.copy()
    n = pool.shape[0]
    need = 0
    for s in range(players):
        if s != seat:
            need += hand_sizes[s]
    picks = np.empty((max(samples, 1), need), dtype=np.int64)
    weights = np.empty(max(samples, 1), dtype=np.float64)
    work = np.zeros((players, HAND_LIMIT + 1), dtype=np.int64)
    work_sizes = np.zeros(players, dtype=np.int64)
    live = np.empty(HAND_LIMIT + 1, dtype=np.int64)
    for r in range(rounds):
        at = deal(seat, sides, players, hand, hand_sizes, pool, known, moves, mboard, mvalue, mthreat, samples,
                  rng, hands, sizes, picks, weights, work, work_sizes, live)
        left = n - at
        for k in range(left):
            deck[k] = pool[at + k]
        playout_seed = _next(rng)
        for i in range(ncand):
            if not alive[i]:
                continue
            b[:] = board
            c[:] = count
            o[:] = owner
            v[:] = value
            t[:] = threat
            h[:] = hands
            z[:] = sizes
            d[:left] = deck[:left]
            sk[:] = skips
            side = seat % sides
            won, n_left = _act(seat, side, sides, cards[i], squares[i], b, c, o, v, t, h, z, d, left,
                               lines, through, weight)
            if won == NOBODY:
                nxt = _advance(seat, players, z, n_left, sk)
                if nxt < 0:
                    won = TIE
                else:
                    won = playout(nxt, sides, players, b, c, o, v, t, h, z, d, n_left, sk, noise,
                                  playout_seed, PLIES, lines, through, weight)
            out[r, i] = won
    return out


def arrays(tally: LineTally) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(board, count, owner, value, threat) arrays for a tally."""
    board = np.array([-1 if s is None else s for s in tally.board], dtype=np.int64)
    count = np.array(tally.count, dtype=np.int64)
    owner = np.array([NOBODY if o is None else o for o in tally.owner], dtype=np.int64)
    value = np.array(tally.value, dtype=np.float64)
    threat = np.zeros((tally.sides, 101), dtype=np.int64)
    for i, line in enumerate(LINES):
        o = tally.owner[i]
        if tally.count[i] == 4 and o is not None and o != MIXED:
            threat[o, 100] += 1
            for q in line:
                if tally.board[q] is None:
                    threat[o, q] += 1
    return board, count, owner, value, threat
