"""The four rule sets of the seed documents as data, the house options, and a table's rules once both are set.

A rule set is what one document says (docs/ninety-nine.md quotes it rule by
rule); a house option changes one rule for one table, and "rule" keeps the
rule set's own choice. ``Table.build`` checks a table's options and gives the
rules the game plays by.

>>> t = Table.build(4, {"rules": "glengariff"})
>>> t.hand_size, t.tokens, t.decks, t.jokers, t.effect("A").values, t.effect("Q").queen
(4, 0, 1, 2, (1, 14), True)
>>> Table.build(2, {"rules": "three-card"})
Traceback (most recent call last):
...
board99.kinds.SettingsError: players: the Three-card rules (004) are for 3 to 6 players, not 2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from ..kinds import OptionSpec, SettingsError
from ..quote import quote
from .cards import ALL_RANKS, JOKER, RANKS, Card, rank_of


class Effect(NamedTuple):
    """What playing a card of one rank does: the amounts it may add, or 99, and its effect on the turn order."""

    name: str  # its name in the house options' menu ('face skip', '1/11', '99', 'queen')
    values: tuple[int, ...]  # the amounts the player may add (one: no choice); empty when it makes the total 99
    to99: bool = False  # makes the total 99
    reverse: bool = False  # reverses the direction of play (with more than two players still in)
    skip: bool = False  # the next player is skipped
    queen: bool = False  # the next player may not draw; queens in a row add up (000)

    @property
    def choice(self) -> bool:
        """True when the player chooses among amounts (an ace as 1 or 11, a ten as +10 or -10)."""
        return len(self.values) > 1

    def words(self) -> str:
        """What it does, for a person: 'adds 1 or 11', 'makes the total 99', 'adds 0, reverses the play'."""
        if self.to99:
            head = "makes the total 99"
        elif self.values == (10, -10):
            head = "adds or subtracts 10"
        elif self.values == (-10,):
            head = "subtracts 10"
        else:
            head = "adds " + " or ".join(map(str, self.values))
        tail = [w for flag, w in ((self.reverse, "reverses the play"), (self.skip, "skips the next player"),
                                  (self.queen, "the next player may not draw (queens in a row add up)")) if flag]
        return ", ".join([head, *tail])


def _face(rank: str) -> int:
    """A rank's face value: ace 1, number cards their number, court cards 10, a joker 0."""
    if rank == "A":
        return 1
    if rank in ("J", "Q", "K"):
        return 10
    return 0 if rank == JOKER else int(rank)


def effect_named(name: str, rank: str) -> Effect:
    """The effect ``name`` from the menu (``EFFECT_MENU``) for a card of ``rank``; KeyError for no such effect."""
    face = _face(rank)
    fixed: dict[str, Effect] = {
        "face": Effect(name, (face,)),
        "face skip": Effect(name, (face,), skip=True),
        "face reverse": Effect(name, (face,), reverse=True),
        "+0": Effect(name, (0,)),
        "+10": Effect(name, (10,)),
        "+11": Effect(name, (11,)),
        "reverse": Effect(name, (0,), reverse=True),
        "skip": Effect(name, (0,), skip=True),
        "queen": Effect(name, (0,), queen=True),
        "99": Effect(name, (), to99=True),
        "-10": Effect(name, (-10,)),
        "+/-10": Effect(name, (10, -10)),
        "1/11": Effect(name, (1, 11)),
        "1/14": Effect(name, (1, 14)),
    }
    return fixed[name]


#: The effects a host may give a rank (besides "rule": the rule set's own).
EFFECT_MENU: tuple[str, ...] = ("face", "face skip", "face reverse", "+0", "+10", "+11", "reverse", "skip", "queen",
                                "99", "-10", "+/-10", "1/11", "1/14")


class RuleSet(NamedTuple):
    """One document's rules, as a table picks them by name."""

    name: str  # 'glengariff', 'convention', 'tokens', 'three-card'
    title: str  # 'Glengariff'
    source: str  # the seed document ('000')
    players: tuple[int, int]  # fewest and most players
    hand_size: int
    tokens: int  # 0: no tokens, a player who cannot play is out of the game and play goes on
    two_decks_above: int  # two decks when more players than this
    jokers: int  # per deck
    effects: tuple[tuple[str, str], ...]  # rank -> its effect's menu name
    turn_up: bool  # the top card of the stock is turned up as the dealer's play (000)
    below_zero: bool  # a ten may take the total below zero (002)
    forgot: str  # when a forgotten draw is lost: 'next-draw' (002) or 'next-play' (003)
    shuffle_rebuilt: bool  # the rebuilt stock is shuffled (002, 004) or turned over as it lies (000)
    round_end: str  # with tokens: 'first-out' (003, 004) ends the round at the first failure, 'last-left' when
    # one player is left in it, the others sitting out (000's and 002's reading of a game of rounds)


def _effects(special: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """Every rank's effect: face value unless ``special`` names another; a joker makes 99 (000)."""
    names = {rank: "face" for rank in RANKS} | {JOKER: "99"} | special
    return tuple((rank, names[rank]) for rank in ALL_RANKS)


RULE_SETS: dict[str, RuleSet] = {
    "glengariff": RuleSet(
        "glengariff", "Glengariff", "000", players=(2, 6), hand_size=4, tokens=0, two_decks_above=6, jokers=2,
        effects=_effects({"A": "1/14", "4": "reverse", "5": "face skip", "7": "face reverse", "9": "99",
                          "10": "+/-10", "J": "+11", "Q": "queen", "K": "+0"}),
        turn_up=True, below_zero=False, forgot="next-draw", shuffle_rebuilt=False,
        round_end="last-left"),
    "convention": RuleSet(
        "convention", "Convention", "002", players=(2, 6), hand_size=7, tokens=0, two_decks_above=5, jokers=0,
        effects=_effects({"4": "reverse", "9": "99", "10": "-10", "K": "+0"}),
        turn_up=False, below_zero=True, forgot="next-draw", shuffle_rebuilt=True,
        round_end="last-left"),
    "tokens": RuleSet(
        "tokens", "Tokens", "003", players=(2, 6), hand_size=4, tokens=3, two_decks_above=6, jokers=0,
        effects=_effects({"A": "1/11", "3": "face skip", "4": "reverse", "9": "99", "10": "+/-10", "K": "+0"}),
        turn_up=False, below_zero=False, forgot="next-play", shuffle_rebuilt=True,
        round_end="first-out"),
    "three-card": RuleSet(
        "three-card", "Three-card", "004", players=(3, 6), hand_size=3, tokens=3, two_decks_above=4, jokers=0,
        effects=_effects({"A": "1/11", "4": "reverse", "9": "+0", "10": "+/-10", "K": "99"}),
        turn_up=False, below_zero=False, forgot="next-draw", shuffle_rebuilt=True,
        round_end="first-out"),
}

RULE = "rule"  # a house option's value meaning "as the rule set says"


def effect_words(name: str, rank: str) -> str:
    """The menu's effect ``name`` for a card of ``rank`` in a few words (what a form's menu and a table card say).

    >>> effect_words("face skip", "5"), effect_words("queen", "Q"), effect_words("1/14", "A")
    ('adds 5, skips the next player', 'adds 0, the next player may not draw', 'adds 1 or 14')
    """
    return effect_named(name, rank).words().replace(" (queens in a row add up)", "")


class HouseOption(NamedTuple):
    """One setting a host may choose at table creation (the kind turns each into an ``OptionSpec``: ``spec``)."""

    name: str
    label: str
    choices: tuple[Any, ...]
    default: Any
    help: str
    group: str = ""  # the heading a form lists it under ("": the form's face)
    words: tuple[str, ...] = ()  # each choice in words, in order
    short: str = ""  # its name on a table card
    own: Any = None  # RuleSet -> the rule set's own choice in words (what "rule" means there)

    def spec(self) -> OptionSpec:
        """The option as the house's forms and table cards show it (``board99.kinds.OptionSpec``)."""
        follow = tuple((rs.name, self.own(rs)) for rs in RULE_SETS.values()) if self.own is not None else ()
        return OptionSpec(self.name, self.label, self.choices, self.default, self.help, self.group, self.words,
                          self.short, "rules" if follow else "", follow)


#: The groups the house options are listed under on the new-table form's "House rules…" panel, in order.
GROUPS = ("Cards and tokens", "Play", "Penalty tables", "What each card does")
_ROUND_END = {"first-out": "first out", "last-left": "one left"}
_FORGOT = {"next-draw": "later draw", "next-play": "next play"}


def _decks(rs: RuleSet) -> str:
    # Two decks above a player count: said where a table of six may reach it.
    return "1" if rs.two_decks_above >= 6 else f"1, 2 from {rs.two_decks_above + 1} players"


HOUSE_OPTIONS: tuple[HouseOption, ...] = (
    HouseOption("rules", "Rule set", tuple(RULE_SETS), "convention",
                "whose rules: Glengariff (000), Convention (002), Tokens (003) or Three-card (004)",
                words=tuple(rs.title for rs in RULE_SETS.values()), short="rules"),
    HouseOption("hand_size", "Cards in hand", (RULE, 3, 4, 5, 6, 7), RULE, "cards dealt to each player",
                GROUPS[0], short="hand", own=lambda rs: str(rs.hand_size)),
    HouseOption("tokens", "Tokens", (RULE, 0, 1, 2, 3, 4, 5), RULE,
                "0: a player who cannot play is out at once; else each failure costs a token and ends the round",
                GROUPS[0], short="tokens", own=lambda rs: str(rs.tokens)),
    HouseOption("round_end", "A round ends", (RULE, "first-out", "last-left"), RULE,
                "with tokens: at the first player who fails (003, 004), or when one player is left in it",
                GROUPS[1], (RULE, *_ROUND_END.values()), "round ends:", lambda rs: _ROUND_END[rs.round_end]),
    HouseOption("jokers", "Jokers per deck", (RULE, 0, 1, 2), RULE, "jokers shuffled into each deck",
                GROUPS[0], short="jokers", own=lambda rs: str(rs.jokers)),
    HouseOption("decks", "Decks", (RULE, 1, 2), RULE, "one or two 52-card decks", GROUPS[0], short="decks",
                own=_decks),
    HouseOption("below_zero", "Total below zero", (RULE, True, False), RULE,
                "whether a ten may take the total below zero", GROUPS[1], (RULE, "yes", "no"), "below zero:",
                lambda rs: "yes" if rs.below_zero else "no"),
    HouseOption("forgot_draw", "A forgotten draw is lost", (RULE, "next-draw", "next-play"), RULE,
                "when a later player draws (002) or when the next player plays (003)", GROUPS[1],
                (RULE, *_FORGOT.values()), "forgotten draw lost at", lambda rs: _FORGOT[rs.forgot]),
    HouseOption("wrong_total", "A wrong total", ("corrected", "token"), "corrected",
                "penalty tables: a wrongly announced total is corrected, or (house rule) also costs a token",
                GROUPS[2], ("corrected", "costs a token"), "wrong total"),
    *(HouseOption(f"rank_{rank}", f"{rank if rank != JOKER else 'Joker'} does", (RULE, *EFFECT_MENU), RULE,
                  f"what a {rank} does", GROUPS[3],
                  (RULE, *(effect_words(name, rank) for name in EFFECT_MENU)), rank if rank != JOKER else "joker",
                  lambda rs, rank=rank: effect_words(dict(rs.effects)[rank], rank)) for rank in ALL_RANKS),
)
_OPTION = {o.name: o for o in HOUSE_OPTIONS}
#: The house options as the kind offers them (``NinetyNine.options``).
OPTION_SPECS: tuple[OptionSpec, ...] = tuple(o.spec() for o in HOUSE_OPTIONS)


class Table(NamedTuple):
    """The rules one table plays by: its rule set with the house options applied, checked."""

    rule_set: RuleSet
    options: tuple[tuple[str, Any], ...]  # every house option, in order, as chosen ('rule' kept)
    hand_size: int
    tokens: int
    decks: int
    jokers: int
    below_zero: bool
    forgot: str
    wrong_total: str
    round_end: str
    effects: tuple[tuple[str, Effect], ...]

    @classmethod
    def build(cls, players: int, options: Mapping[str, object] | None = None) -> Table:
        """The checked rules for ``players`` and these options (missing ones take their defaults)."""
        given = dict(options or {})
        for name in given:
            if type(name) is not str:
                raise SettingsError("options", f"an option's name is a word, not {quote(name)}")
            if name not in _OPTION:  # the name is the client's: quoted short
                raise SettingsError(name, f"Ninety-Nine has no option {quote(name)}")
        chosen: list[tuple[str, Any]] = []
        for option in HOUSE_OPTIONS:
            value = given.get(option.name, option.default)
            # type() too: True == 1, and must not pass for 1 token
            if not any(value == c and type(value) is type(c) for c in option.choices):
                shown = ", ".join(map(str, option.choices))
                raise SettingsError(option.name, f"{quote(value)} is not one of {shown}")
            chosen.append((option.name, value))
        values = dict(chosen)
        rs = RULE_SETS[values["rules"]]

        def pick(name: str, own: Any) -> Any:
            return own if values[name] == RULE else values[name]

        lo, hi = rs.players
        if not lo <= players <= hi:
            raise SettingsError("players", f"the {rs.title} rules ({rs.source}) are for {lo} to {hi} players, "
                                           f"not {players}")
        decks = pick("decks", 2 if players > rs.two_decks_above else 1)
        jokers = pick("jokers", rs.jokers)
        hand = pick("hand_size", rs.hand_size)
        tokens = pick("tokens", rs.tokens)
        cards = decks * (52 + jokers)
        if players * hand + 2 > cards:
            raise SettingsError("hand_size", f"{players} hands of {hand} need more than the {cards} cards "
                                             f"of {decks} deck(s)")
        if values["wrong_total"] == "token" and tokens == 0:
            raise SettingsError("wrong_total", "a wrong total can only cost a token at a table with tokens")
        own = dict(rs.effects)
        effects = tuple((rank, effect_named(pick(f"rank_{rank}", own[rank]), rank)) for rank in ALL_RANKS)
        # A game ends when someone cannot keep the total at 99: with no card that adds, nobody ever fails.
        dealt = [e for rank, e in effects if rank != JOKER or jokers]
        if not any(not e.to99 and e.values and max(e.values) > 0 for e in dealt):
            raise SettingsError("options", "no card would add to the total, so nobody could ever pass 99 and the "
                                           "game would never end; let at least one rank add")
        return cls(rs, tuple(chosen), hand, tokens, decks, jokers, pick("below_zero", rs.below_zero),
                   pick("forgot_draw", rs.forgot), values["wrong_total"], pick("round_end", rs.round_end), effects)

    def effect(self, rank: str) -> Effect:
        """What a card of ``rank`` does at this table."""
        for r, e in self.effects:
            if r == rank:
                return e
        raise KeyError(rank)

    def fits(self, total: int) -> bool:
        """True if the total may be ``total``: 99 or under, and not below zero unless this table allows it."""
        return total <= 99 and (total >= 0 or self.below_zero)

    @staticmethod
    def after(total: int, effect: Effect, value: int | None) -> int:
        """The total after a card with ``effect`` played as ``value`` (None: its only value) on ``total``."""
        if effect.to99:
            return 99
        return total + (effect.values[0] if value is None else value)

    def playable(self, hand: Iterable[Card], total: int) -> list[tuple[Card, int | None]]:
        """Each (card, value) of ``hand`` that keeps ``total`` fit; value None when the card gives no choice."""
        found: list[tuple[Card, int | None]] = []
        for card in dict.fromkeys(hand):  # each distinct card once (two decks hold pairs)
            effect = self.effect(rank_of(card))
            if effect.to99:
                found.append((card, None))
                continue
            for value in effect.values:
                if self.fits(total + value):
                    found.append((card, value if effect.choice else None))
        return found

    def describe(self) -> list[str]:
        """This table's rules in lines of words, from the rules themselves: what a help page or a table card shows.

        >>> Table.build(3, {"rules": "three-card"}).describe()[:3]
        ['Three-card rules (004)', '1 deck, no jokers; 3 cards each; 3 tokens each', 'A: adds 1 or 11']
        """
        rs = self.rule_set
        jokers = f"{self.jokers} joker{'s' if self.jokers != 1 else ''} a deck" if self.jokers else "no jokers"
        tokens = (f"{self.tokens} token{'s' if self.tokens != 1 else ''} each" if self.tokens
                  else "no tokens: a player who cannot play is out")
        lines = [f"{rs.title} rules ({rs.source})",
                 f"{self.decks} deck{'s' if self.decks != 1 else ''}, {jokers}; {self.hand_size} cards each; {tokens}"]
        lines += [f"{rank}: {effect.words()}" for rank, effect in self.effects if rank != JOKER or self.jokers]
        if rs.turn_up:
            lines.append("the top card of the stock is turned up as the dealer's play")
        lines.append("the total may go below zero" if self.below_zero else "the total may not go below zero")
        if self.tokens:
            lines.append("a round ends at the first player who cannot play" if self.round_end == "first-out"
                         else "a player who cannot play sits the round out; it ends when one is left")
        lines.append("a forgotten draw is lost when a later player draws" if self.forgot == "next-draw"
                     else "a forgotten draw is lost when the next player plays")
        lines.append("an empty stock is rebuilt from the played pile but its top card, "
                     + ("shuffled" if rs.shuffle_rebuilt else "turned over unshuffled"))
        if self.wrong_total == "token":
            lines.append("house rule: a wrong total costs a token")
        lines.append("the last player left in the game wins")
        return lines

    def changed(self) -> tuple[tuple[str, Any], ...]:
        """The options that differ from their defaults (what a record or a table card names)."""
        return tuple((k, v) for (k, v), o in zip(self.options, HOUSE_OPTIONS) if v != o.default or k == "rules")
