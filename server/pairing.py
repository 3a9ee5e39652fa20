"""Tournament pairing and standings: who meets whom each round, and the table of places.

A pure model: no I/O, no sockets, no clock. The server keeps the results and
asks this module for each round's pairings and for the standings.

Entrants and matches
    An entrant is a *side*: one player (2-player games) or a partnership of two
    (4-player games). Entrants are numbered 0, 1, 2 ... in seed order (0 is the
    top seed). A round pairs the entrants into matches, side A against side B
    at one table; a match is first-to-N games or a fixed number of games, and
    the side that won more games wins it. Equal games (a fixed number of games
    can end level) is a drawn match.

Match points
    Win 1, draw 0.5, loss 0; a bye is 1 point, is not a match played, and
    counts as 0-0 in games.

Formats
    Up to 4 entrants play a round-robin, more play a Swiss (``formats``).
    A round-robin of n entrants has n - 1 rounds (n even) or n rounds (n odd,
    one bye a round); asking for more is a ValueError, fewer plays its first
    rounds. The rounds come from the circle method: entrant 0 stays put, the
    others turn one place a round (``round_robin``).

Standings
    Ranked by ``TIE_BREAKS`` in order, each one only deciding what the ones
    before it left level: points, Buchholz (the sum of the points of every
    opponent met; a bye adds nothing), Sonneborn-Berger (the sum over the
    matches of the opponent's points times your result: 1, 0.5 or 0), game
    difference (games won minus games lost), games won -- all higher first --
    and last the seed, lower first. Places are 1, 2, 3 ... with none shared:
    the seed always decides. The opponents' points are their final ones, bye
    included; an opponent met twice counts twice.

Swiss pairing (a simplified Dutch system, deterministic so that a person can check it)
    1. Rank the entrants by the standings of the rounds before this one (in
       round 1 everyone is level, so the rank is the seed order).
    2. Odd count: one entrant gets the bye. The candidates are the entrants
       with the fewest byes so far (so nobody gets a second bye while someone
       has had none), lowest-ranked first; the first candidate who lets the
       others be paired by steps 3-5 gets it.
    3. Pair the others top-down. Take the highest-ranked unpaired entrant, P,
       and its *score group*: the unpaired entrants with P's points, in rank
       order. If the group is odd, its lowest-ranked member is set aside as the
       floater, to be paired with the group below. The rest split into a top
       half and a bottom half, and P's opponents are tried in this order:
       the bottom half from its top, then the rest of the top half from its
       bottom, then the floater, then the entrants below the group in rank
       order. A group of one (P alone, say a floater come down) tries the
       entrants below it in rank order. P's side is A.
    4. The first candidate P has not met is taken and the rest is paired the
       same way, the groups recomputed from the entrants left; if the rest
       cannot then be paired without a rematch, P's next candidate is tried
       (backtracking), so a round has no rematch whenever one is possible.
    5. Looking ahead: a round so paired is taken only if the pairs not yet met
       after it can still fill every later round of the tournament without a
       rematch or a second bye (``lookahead.py``); otherwise the search goes on
       to the next pairing in the same order. The later rounds counted are the
       tournament's, at most a round-robin's worth (n - 1 rounds in all for an
       even n, n for an odd n): past that every pair has met. When every round
       so far was paired here, such a round always exists. A history from
       elsewhere may not allow it: then as many later rounds as it does allow.
    6. Only if no bye and no pairing at all avoids rematches are they allowed:
       the round is then the first in the same order with the fewest rematches.

    So a score group of six, ranked 1 to 6, plays 1-4, 2-5, 3-6 (top half
    against bottom half, the classic Swiss a tournament director expects); if 1
    and 4 have met, 1-5, 2-4, 3-6. A group of five plays 1-3, 2-4, and 5 floats
    down to meet the top of the next group. A round differs from that order
    only where the order would leave a later round nothing but rematches, and
    then it is the first pairing in the order that does not.

>>> pairings(6, 4, [], 1)
[Pairing(a=0, b=3), Pairing(a=1, b=4), Pairing(a=2, b=5)]
>>> round_robin(3)[0]
[Pairing(a=1, b=2), Pairing(a=0, b=None)]
>>> [(s.place, s.entrant, s.points) for s in standings(3, [Result(1, 1, 2, 2, 0), Result(1, 0, None, 0, 0)])]
[(1, 1, 1.0), (2, 0, 1.0), (3, 2, 0.0)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from .lookahead import Lookahead, without

#: The standings order, named: each decides only what the ones before it left level.
TIE_BREAKS: tuple[str, ...] = ("points", "buchholz", "sonneborn-berger", "game difference", "games won", "seed")
#: Up to this many entrants play a round-robin; more play a Swiss.
ROUND_ROBIN_MAX = 4
#: Match points for a won, drawn and lost match, and for a bye.
WIN, DRAW, LOSS, BYE = 1.0, 0.5, 0.0, 1.0


class Result(NamedTuple):
    """One finished match of a round (``b`` None: a bye for ``a``, 0-0 in games)."""

    round: int  # 1-based
    a: int  # entrant index (seed order, 0-based)
    b: int | None  # None: a bye for a
    games_a: int  # games won by a in the match
    games_b: int  # games won by b


class Pairing(NamedTuple):
    """One match of a round: side ``a`` against side ``b``, or a bye for ``a`` when ``b`` is None."""

    a: int
    b: int | None


class Standing(NamedTuple):
    """One entrant's line of the standings."""

    place: int  # 1-based, never shared: the tie-breaks and then the seed decide
    entrant: int
    played: int  # matches played (a bye is not one)
    points: float  # match points: win 1, draw 0.5, loss 0, bye 1
    buchholz: float  # the sum of the points of the opponents met
    sonneborn_berger: float  # the sum of opponent's points x the result against them
    game_diff: int  # games won minus games lost (a bye is 0-0)
    games_won: int


def formats(entrants: int, rounds: int) -> str:
    """The format that many entrants play: "round-robin" (up to 4) or "swiss"; ValueError if it cannot be."""
    _check_entrants(entrants)
    if type(rounds) is not int or rounds < 1:
        raise ValueError(f"rounds: {rounds!r} is not a number of rounds (1 or more)")
    if entrants > ROUND_ROBIN_MAX:
        return "swiss"
    if rounds > round_robin_rounds(entrants):
        raise ValueError(f"rounds: a round-robin of {entrants} entrants has {round_robin_rounds(entrants)} "
                         f"rounds, not {rounds}")
    return "round-robin"


def round_robin_rounds(entrants: int) -> int:
    """How many rounds a full round-robin takes: n - 1 for an even n, n for an odd n (a bye each round)."""
    return entrants - 1 if entrants % 2 == 0 else entrants


def round_robin(entrants: int) -> list[list[Pairing]]:
    """Every round of a round-robin by the circle method; an odd count gives one bye a round, listed last.

    >>> for matches in round_robin(4):
    ...     print(matches)
    [Pairing(a=0, b=3), Pairing(a=1, b=2)]
    [Pairing(a=0, b=2), Pairing(a=1, b=3)]
    [Pairing(a=0, b=1), Pairing(a=2, b=3)]
    """
    _check_entrants(entrants)
    # An odd count gets a dummy entrant; whoever meets it has the bye.
    circle: list[int | None] = [*range(entrants), *([None] if entrants % 2 else [])]
    size = len(circle)
    rounds = []
    for _ in range(size - 1):
        matches = []
        byes = []
        for i in range(size // 2):
            pair = [e for e in (circle[i], circle[size - 1 - i]) if e is not None]
            if len(pair) == 1:
                byes.append(Pairing(pair[0], None))
            else:
                matches.append(Pairing(min(pair), max(pair)))  # side A the lower seed, for an easy read
        rounds.append(matches + byes)
        # The first place stays; the last turns into the second place, everyone else moves up one.
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def pairings(entrants: int, rounds: int, results: Sequence[Result], round_no: int) -> list[Pairing]:
    """Round ``round_no``'s pairings of a tournament of ``rounds`` rounds, in its format (``formats``)."""
    kind = formats(entrants, rounds)
    if type(round_no) is not int or not 1 <= round_no <= rounds:
        raise ValueError(f"round_no: {round_no!r} is not a round of this tournament (1-{rounds})")
    if kind == "round-robin":
        _check_results(entrants, results)
        return round_robin(entrants)[round_no - 1]
    return swiss_pairings(entrants, results, round_no, rounds)


def swiss_pairings(entrants: int, results: Sequence[Result], round_no: int,
                   rounds: int | None = None) -> list[Pairing]:
    """Round ``round_no``'s Swiss pairings from the results of the rounds before it (the module's steps 1-6).

    ``rounds`` is the tournament's length: the pairing looks ahead so that the rounds after this one, up to
    it, can still be paired without a rematch (step 5). None pairs this round alone, looking at nothing after.
    Matches are listed from the top of the ranking down, the bye last.
    """
    _check_entrants(entrants)
    if type(round_no) is not int or round_no < 1:
        raise ValueError(f"round_no: {round_no!r} is not a round (rounds count from 1)")
    if rounds is not None and (type(rounds) is not int or rounds < round_no):
        raise ValueError(f"rounds: {rounds!r} is not a number of rounds of at least round_no {round_no}")
    _check_results(entrants, results)
    late = sorted({r.round for r in results if r.round >= round_no})
    if late:
        raise ValueError(f"results: round {late[0]} is not before round_no {round_no}")
    table = standings(entrants, results)
    ranked = tuple(s.entrant for s in table)
    points = {s.entrant: s.points for s in table}
    met = {frozenset((r.a, r.b)) for r in results if r.b is not None}
    byes = Counter(r.a for r in results if r.b is None)
    if entrants % 2:
        fewest = min(byes[e] for e in ranked)
        bye_order: list[int | None] = [e for e in reversed(ranked) if byes[e] == fewest]
    else:
        bye_order = [None]
    search = _Search(points, met)
    # Step 5: the rounds after this one that must stay free of rematches: up to the tournament's last, at most a
    # round-robin's worth, fewer only if this history cannot be paired so far (it never comes to that when every
    # round so far was paired here).
    last = min(rounds or round_no, round_robin_rounds(entrants + entrants % 2))
    found = _Ahead(entrants, met, byes).pair(search, ranked, bye_order, last - round_no)
    if found is not None:
        return found
    # Fewest rematches first (normally none), then the bye as low as it can go, then the search order.
    for allowed in range(entrants // 2 + 1):
        for bye in bye_order:
            for found in search.each(tuple(e for e in ranked if e != bye), allowed):
                return found + ([Pairing(bye, None)] if bye is not None else [])
    raise AssertionError("unreachable: with every match allowed to be a rematch, any pairing will do")


class _Ahead:
    """The pairs not yet met as a graph (``lookahead.py``), the bye one more vertex: a second bye is a rematch."""

    def __init__(self, entrants: int, met: set[frozenset[int]], byes: Counter[int]) -> None:
        size = entrants + entrants % 2
        self.bye_vertex = entrants  # only there when the count is odd
        everyone = (1 << size) - 1
        graph = [everyone & ~(1 << v) for v in range(size)]
        pairs = [(min(pair), max(pair)) for pair in met]
        if entrants % 2:
            pairs += [(e, self.bye_vertex) for e in byes if byes[e]]
        self.graph = without(tuple(graph), pairs)
        self.lookahead = Lookahead()

    def pair(self, search: _Search, ranked: tuple[int, ...], bye_order: list[int | None],
             later: int) -> list[Pairing] | None:
        """The first pairing in the search's order without a rematch that leaves ``later`` rounds (or fewer,
        as many as can be) still to be paired without one; None if none can, or the search ran out of steps."""
        for k in range(later, 0, -1):
            if not self.lookahead.fills(self.graph, k + 1):
                if self.lookahead.spent:
                    return None
                continue
            for bye in bye_order:
                for found in search.each(tuple(e for e in ranked if e != bye), 0):
                    if self.leaves(found, bye, k):
                        return found + ([Pairing(bye, None)] if bye is not None else [])
                    if self.lookahead.spent:
                        return None
        return None

    def leaves(self, matches: list[Pairing], bye: int | None, later: int) -> bool:
        """True if, after this round, the pairs not met can still fill ``later`` rounds without a rematch."""
        edges = [(p.a, p.b) for p in matches if p.b is not None]
        if bye is not None:
            edges.append((bye, self.bye_vertex))
        return self.lookahead.fills(without(self.graph, edges), later)


class _Search:
    """The depth-first search of step 4, remembering which (entrants left, rematches allowed) have no pairing."""

    def __init__(self, points: dict[int, float], met: set[frozenset[int]]) -> None:
        self.points = points
        self.met = met
        self.dead: set[tuple[tuple[int, ...], int]] = set()  # without it, a hopeless round takes factorial time

    def each(self, left: tuple[int, ...], allowed: int) -> Iterator[list[Pairing]]:
        """Every pairing of ``left`` (in rank order) with at most ``allowed`` rematches, the best first."""
        if not left:
            yield []
            return
        if (left, allowed) in self.dead:
            return
        top = left[0]
        some = False
        for other in self.candidates(left):
            again = frozenset((top, other)) in self.met
            if again and not allowed:
                continue
            for rest in self.each(tuple(e for e in left[1:] if e != other), allowed - again):
                some = True
                yield [Pairing(top, other), *rest]
        if not some:
            self.dead.add((left, allowed))

    def candidates(self, left: tuple[int, ...]) -> list[int]:
        """The opponents of ``left[0]``, the best first (the module's step 3)."""
        top = left[0]
        # ``left`` is in rank order, points first, so the score group is the run sharing top's points.
        size = next((i for i, e in enumerate(left) if self.points[e] != self.points[top]), len(left))
        group, below = list(left[:size]), list(left[size:])
        if size == 1:
            return below
        floater = [group.pop()] if size % 2 else []
        half = len(group) // 2
        return group[half:] + group[half - 1:0:-1] + floater + below


def standings(entrants: int, results: Sequence[Result]) -> list[Standing]:
    """The standings after these results, ranked by ``TIE_BREAKS``; every entrant has a line."""
    _check_entrants(entrants)
    _check_results(entrants, results)
    points = [0.0] * entrants
    played = [0] * entrants
    won = [0] * entrants
    lost = [0] * entrants
    scores: list[list[tuple[int, float]]] = [[] for _ in range(entrants)]  # (opponent, my result) per match
    for r in results:
        if r.b is None:
            points[r.a] += BYE
            continue
        score = _score(r.games_a, r.games_b)
        for me, them, mine, theirs, result in ((r.a, r.b, r.games_a, r.games_b, score),
                                               (r.b, r.a, r.games_b, r.games_a, WIN - score)):
            points[me] += result
            played[me] += 1
            won[me] += mine
            lost[me] += theirs
            scores[me].append((them, result))
    # The opponents' points are their totals after every result, so these come after the loop above.
    buchholz = [sum(points[o] for o, _ in scores[e]) for e in range(entrants)]
    berger = [sum(points[o] * result for o, result in scores[e]) for e in range(entrants)]
    order = sorted(range(entrants), key=lambda e: (-points[e], -buchholz[e], -berger[e],
                                                   -(won[e] - lost[e]), -won[e], e))
    return [Standing(place, e, played[e], points[e], buchholz[e], berger[e], won[e] - lost[e], won[e])
            for place, e in enumerate(order, 1)]


def _score(games_a: int, games_b: int) -> float:
    """Side A's match points: the side with more games wins, equal games is a draw."""
    return WIN if games_a > games_b else LOSS if games_a < games_b else DRAW


def _check_entrants(entrants: int) -> None:
    if type(entrants) is not int or entrants < 2:
        raise ValueError(f"entrants: {entrants!r} is not a number of entrants (2 or more)")


def _check_results(entrants: int, results: Sequence[Result]) -> None:
    """ValueError naming the field of the first result that cannot be."""
    seen: dict[tuple[int, int], int] = {}  # (round, entrant) -> the result that entrant already has there
    for i, r in enumerate(results):
        where = f"results[{i}] {tuple(r)}"
        if type(r.round) is not int or r.round < 1:
            raise ValueError(f"{where}: round {r.round!r} is not a round (rounds count from 1)")
        for name, side in (("a", r.a), ("b", r.b)):
            if side is None and name == "b":
                continue
            if type(side) is not int or not 0 <= side < entrants:
                raise ValueError(f"{where}: {name} {side!r} is not an entrant (0-{entrants - 1})")
        for name, games in (("games_a", r.games_a), ("games_b", r.games_b)):
            if type(games) is not int or games < 0:
                raise ValueError(f"{where}: {name} {games!r} is not a number of games (0 or more)")
        if r.b is None and (r.games_a or r.games_b):
            raise ValueError(f"{where}: games_a and games_b of a bye are 0, not {r.games_a}-{r.games_b}")
        if r.a == r.b:
            raise ValueError(f"{where}: a and b are both entrant {r.a}")
        for side in (r.a, r.b):
            if side is None:
                continue
            before = seen.setdefault((r.round, side), i)
            if before != i:
                other = results[before]
                what = "repeats the pair" if {other.a, other.b} == {r.a, r.b} else "meets again"
                raise ValueError(f"{where}: round {r.round} {what} of results[{before}] {tuple(other)} "
                                 f"(entrant {side} has a result in that round already)")
