"""Whether the pairs not yet met can still fill the rounds left: k disjoint perfect matchings (pure).

The Swiss pairing (``pairing.py``) asks this before it settles a round: a round
is only paired so if the rounds after it can still be paired without a rematch.
Each round is a *perfect matching* of the entrants (with an odd count, one more
vertex stands for the bye, so a bye is a pairing with it and a second bye is a
rematch with it). The pairs not yet met form a graph, given as one bitmask of
neighbours per vertex; ``Lookahead.fills(graph, k)`` is True if that graph holds
k perfect matchings with no edge in two of them, that is k more rounds without a
rematch.

The search is a depth-first one, made small four ways:

- *Rounds are interchangeable*, so the k matchings are found in the order of
  the partner they give one vertex w, the one with the fewest pairs left. If the
  first gives w the partner u, w's pairs below u are never used and are dropped;
  so w's first partner is one of its lowest deg(w) - k + 1 neighbours.
- *Counting*: every vertex is in all k matchings, so exactly deg(v) - k of its
  pairs go unused, and an unused pair joins two vertices that have pairs to
  spare. Pairs this forces to stay unused are dropped first (``_tighten``), and
  a vertex that cannot leave enough unused refuses the graph at once.
- *Quick refusals*: every connected part of the graph needs an even number of
  vertices (an odd part has no perfect matching; six entrants whose unmet pairs
  form two triangles are the everyday case).
- *Memory*: a graph already answered (with its k) is not searched again.

Within a matching the vertex with the fewest pairs left is matched first. The
search has a budget of steps (``BUDGET``): a history this pairing made needs a
few hundred at most (bench/pairing.py), the budget bounds any other, and once
it is spent every answer is False, so the pairing falls back to its round-alone
rules rather than wait.

>>> full = (0b1110, 0b1101, 0b1011, 0b0111)  # four entrants, nobody has met
>>> Lookahead().fills(full, 3), Lookahead().fills(full, 4)
(True, False)
>>> Lookahead().fills((0b110, 0b101, 0b011), 1)  # three vertices: no perfect matching
False
"""

from __future__ import annotations

from collections.abc import Iterator

Graph = tuple[int, ...]  # graph[v]: a bitmask of the vertices v has not met (never v itself)

#: Search steps one pairing may spend (a step: one vertex matched while looking for a matching): about half a
#: second. Histories this pairing made need at most a few hundred (docs/tournaments.md gives the figures).
BUDGET = 50_000


class Lookahead:
    """The search, with its memory of graphs already answered; one per pairing asked (results differ after).

    It spends at most ``budget`` steps in all; once they are spent, every answer is False ("cannot promise").
    """

    def __init__(self, budget: int = BUDGET) -> None:
        self.known: dict[tuple[Graph, int], bool] = {}
        self.left = budget
        self.steps = 0  # steps spent, for the bench (bench/pairing.py)

    @property
    def spent(self) -> bool:
        """True once the budget is spent: no answer after that is a proof."""
        return self.left <= 0

    def fills(self, graph: Graph, k: int) -> bool:
        """True if ``graph`` holds ``k`` perfect matchings, no edge in two of them (False too once spent)."""
        if self.spent:
            return False
        try:
            return self._fills(graph, k)
        except _Spent:
            return False

    def _fills(self, graph: Graph, k: int) -> bool:
        if k <= 0:
            return True
        key = (graph, k)
        if key not in self.known:
            self.known[key] = self._search(graph, k)
        return self.known[key]

    def _search(self, graph: Graph, k: int) -> bool:
        tight = _tighten(graph, k)
        if tight is None or not _even_parts(tight):
            return False
        if tight != graph:
            return self._fills(tight, k)
        degrees = [g.bit_count() for g in graph]
        # w: the fewest pairs left (ties: the lowest), its partners taken in rising order across the k rounds.
        w = min(range(len(graph)), key=lambda v: (degrees[v], v))
        below = 0  # w's neighbours lower than the partner tried: unused by every one of the k matchings
        for tries, u in enumerate(_bits(graph[w])):
            if degrees[w] - tries < k:
                break
            trimmed = without(graph, [(w, v) for v in _bits(below)])
            below |= 1 << u
            rest = (1 << len(graph)) - 1 & ~(1 << w) & ~(1 << u)
            for matching in self._matchings(trimmed, rest):
                if self._fills(without(trimmed, [(w, u), *matching]), k - 1):
                    return True
        return False

    def _matchings(self, graph: Graph, left: int) -> Iterator[list[tuple[int, int]]]:
        """Every perfect matching of the vertices in the bitmask ``left``, the vertex with the fewest choices first."""
        self.left -= 1
        self.steps += 1
        if self.left <= 0:
            raise _Spent
        if not left:
            yield []
            return
        v = min(_bits(left), key=lambda x: ((graph[x] & left).bit_count(), x))
        for u in _bits(graph[v] & left):
            for rest in self._matchings(graph, left & ~(1 << v) & ~(1 << u)):
                yield [(v, u), *rest]


class _Spent(Exception):
    """The search's budget is spent."""


def without(graph: Graph, edges: list[tuple[int, int]]) -> Graph:
    """``graph`` less ``edges``."""
    out = list(graph)
    for a, b in edges:
        out[a] &= ~(1 << b)
        out[b] &= ~(1 << a)
    return tuple(out)


def _tighten(graph: Graph, k: int) -> Graph | None:
    """``graph`` less the pairs no k matchings can use, or None if it cannot hold k of them.

    Each vertex v is in all k matchings, so exactly spare(v) = deg(v) - k of its pairs go unused, and an unused
    pair joins two vertices with a spare. A vertex whose spare equals its pairs to vertices with a spare leaves
    all those unused (they are dropped, and its neighbours' spares shrink); one whose spare exceeds them cannot
    be (None). Repeated until nothing changes.
    """
    out = list(graph)
    spare = [g.bit_count() - k for g in out]
    if min(spare) < 0:
        return None
    changed = True
    while changed:
        changed = False
        slack = sum(1 << v for v, s in enumerate(spare) if s > 0)
        for v in _bits(slack):
            if spare[v] == 0:
                continue
            options = out[v] & slack
            count = options.bit_count()
            if count < spare[v]:
                return None
            if count == spare[v]:
                for u in _bits(options):
                    out[v] &= ~(1 << u)
                    out[u] &= ~(1 << v)
                    spare[u] -= 1
                    if spare[u] == 0:
                        slack &= ~(1 << u)
                spare[v] = 0
                slack &= ~(1 << v)
                changed = True
    return tuple(out)


def _even_parts(graph: Graph) -> bool:
    """True if every connected part of ``graph`` has an even number of vertices."""
    unseen = (1 << len(graph)) - 1
    while unseen:
        part = frontier = unseen & -unseen
        while frontier:
            reach = 0
            for v in _bits(frontier):
                reach |= graph[v]
            frontier = reach & ~part
            part |= frontier
        if part.bit_count() % 2:
            return False
        unseen &= ~part
    return True


def _bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
