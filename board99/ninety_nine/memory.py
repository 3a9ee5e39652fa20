"""What one seat saw of a Ninety-Nine deal from its own successive views: the cards known to lie in the played
pile, and the plays of the others it can tell apart.

A bot sees the table only when it is asked to act. Each look shows the top card of the played pile, the total,
the direction and every hand's size, never the other cards played in between. From two looks and its own action
in between it still learns:

- which cards lie face up in the played pile: its own plays and every top card it saw (since the stock was last
  rebuilt from the pile; a rebuild is seen as the pile shrinking), so a guess at the hidden cards leaves them out;
- the play just before this look, when it can be told apart: the seat before this one in the direction of play
  laid the top card on a total this seat can work out (the total now less the card's fixed amount, or, at two
  players, the total this seat left). The search bot (``search.py``) weighs each guess at that seat's hand by how
  likely a sound player holding it was to make that play, as the peg-board ``infer`` bot weighs its guesses.

When the looks do not fit that plain order (a new deal, a player gone out or sitting out, a skip, a queen owed,
a choice card whose amount cannot be told) nothing is learnt from the move; the pile's cards are still counted.
Nothing here ever sees a card the seat could not see at a real table.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import Action, Play
from .cards import Card, rank_of
from .view import NinetyView

#: Remembered plays per other seat: the newest ones weigh most on its hand.
DEPTH = 6


class Seen(NamedTuple):
    """One play another seat made: the card, the amount it chose (None: no choice), the total it played on, and how
    many cards that seat has drawn since (they were not in its hand when it chose)."""

    seat: int
    card: Card
    value: int | None
    before: int
    drawn_since: int


class PlayMemory:
    """One seat's memory of the current deal: the pile's known cards and the others' plays it could tell apart."""

    def __init__(self, depth: int = DEPTH) -> None:
        self.depth = depth
        self.deal = -1
        self.pile: list[Card] = []  # cards known to lie in the played pile (since its last rebuild)
        self.seen: list[Seen] = []
        self._last: NinetyView | None = None
        self._mine: Action | None = None

    def forget(self, view: NinetyView) -> None:
        """A new deal (or a view this memory cannot follow): nothing known but the top card."""
        self.deal = view.deal
        self.pile = [view.top] if view.top is not None else []
        self.seen = []

    def acted(self, view: NinetyView, action: Action) -> None:
        """This seat chose ``action`` from ``view`` (call after each choice, with the view it was made from)."""
        self._last, self._mine = view, action
        if isinstance(action, Play):
            self.pile.append(action.card)

    def observe(self, view: NinetyView) -> None:
        """Learn from this look (call at each choice, before choosing)."""
        last, mine = self._last, self._mine
        if last is None or view.deal != self.deal or last.seat != view.seat:
            self.forget(view)
            return
        if view.ply == last.ply:
            return  # the same look again (asked twice): nothing happened
        grew = view.pile_size - last.pile_size - (1 if isinstance(mine, Play) else 0)
        if grew < 0 or view.stock_size > last.stock_size:  # the stock was rebuilt: only the pile's top stayed
            self.pile = []
        if view.top is not None and (not self.pile or self.pile[-1] != view.top or grew > 0):
            self.pile.append(view.top)
        # Each other seat has played and drawn once more since: a card drawn after a play was not in the hand that
        # chose it, and once a whole hand has been drawn since, the play says nothing of the hand now.
        aged = [m._replace(drawn_since=m.drawn_since + 1) for m in self.seen]
        aged += self._moves(last, mine, view)
        self.seen = self._newest([m for m in aged if m.drawn_since < max(1, view.hand_sizes[m.seat])])

    def _newest(self, seen: list[Seen]) -> list[Seen]:
        count: dict[int, int] = {}
        kept: list[Seen] = []
        for m in reversed(seen):
            count[m.seat] = count.get(m.seat, 0) + 1
            if count[m.seat] <= self.depth:
                kept.append(m)
        return kept[::-1]

    def _moves(self, last: NinetyView, mine: Action | None, view: NinetyView) -> list[Seen]:
        """The plays of the others since the last look that can be told apart (module docstring)."""
        if (view.top is None or view.seat is None or last.out != view.out or last.sat_out != view.sat_out
                or view.chain or last.chain or not isinstance(mine, Play) or view.owed != 1):
            return []
        table = view.table
        effect = table.effect(rank_of(view.top))
        if effect.skip or effect.queen:
            return []
        players = [s for s in range(view.players) if not view.out[s] and not view.sat_out[s]]
        if not 2 <= len(players) <= 3 or view.pile_size - last.pile_size != len(players):
            return []  # each other player laid exactly one card, and at most one of them unseen
        at = players.index(view.seat)
        seat = players[(at - view.direction) % len(players)]
        mine_total = table.after(last.total, table.effect(rank_of(mine.card)), mine.value)
        if len(players) == 2:
            before = mine_total
        elif effect.to99 or effect.choice or effect.reverse or last.direction != view.direction:
            return []  # the total it played on cannot be told from this look alone
        else:
            before = view.total - effect.values[0]
        value: int | None = None
        if effect.choice:
            value = view.total - before
            if value not in effect.values:
                return []
        elif not effect.to99 and table.after(before, effect, None) != view.total:
            return []
        seen = [Seen(seat, view.top, value, before, 1)]  # it drew with its card
        if len(players) == 3:
            middle = self._unseen(view, players[(at + view.direction) % 3], mine_total, before)
            if middle is not None:
                seen.insert(0, middle)
        return seen

    @staticmethod
    def _unseen(view: NinetyView, seat: int, before: int, after: int) -> Seen | None:
        """The card ``seat`` laid face up while this seat was not looking, from the totals either side of it: a
        card of a rank that takes ``before`` to ``after`` with no turn-order effect, when every such rank is
        played the same way by a sound player (``search.likelihood`` weighs only that); else None."""
        from .bots import _worth  # the sound bot's order of plays

        table = view.table
        found: dict[tuple[int, int], Seen] = {}
        for rank, effect in table.effects:
            if effect.reverse or effect.skip or effect.queen or (rank == "joker" and not table.jokers):
                continue
            for v in effect.values or (None,):
                value = v if effect.choice else None
                if table.after(before, effect, value) == after and table.fits(after):
                    card = rank if rank == "joker" else rank + "S"  # its suit does not matter here
                    worth = _worth(Play(card, value, after), before, effect)
                    found.setdefault(worth, Seen(seat, card, value, before, 1))  # it drew with its card
        return next(iter(found.values())) if len(found) == 1 else None
