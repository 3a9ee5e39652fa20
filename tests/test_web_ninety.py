"""The Ninety-Nine table's web scenes (web/screens/ninety.py): whole games played only by presses of the ids the
scenes offer, fed the records a real game produces (the engine, as the client's messages carry it).

The screen is the window's own view model (``NinetyState``) turned into scenes: these tests play a seat through
it against the sound bot in every other seat, and check what a guest reads: the cards that fit, what each would
make the total, a card's two values, the draw owed and the total said at a penalty table, refusals in words, the
end of the game with its rematch; a spectator's scenes hold no card of any hand; every scene is JSON and small.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from board99.client.gui.messages import Events, Failed, StateChanged
from board99.kinds import Result
from board99.ninety_nine.actions import Draw, Play
from board99.ninety_nine.bots import BOTS
from board99.ninety_nine.cards import rank_of, words
from board99.ninety_nine.errors import Refused
from board99.ninety_nine.events import Busted, Corrected, shown_to
from board99.ninety_nine.game import Game
from board99.ninety_nine.kind import NINETY_NINE
from board99.ninety_nine.rules import Table
from board99.ninety_nine.view import NinetyView, view_of
from board99.web.screens.ninety import NinetyScreen
from board99.wire.table_info import MatchInfo
from tests.gui_harness import table_info
from tests.ninety_kit import rigged

NAMES = ("Ann", "Bo", "Cy", "Di", "Eve", "Fay")
#: The most one scene may weigh (the gateway closes a frame over 16 KiB; a scene goes out in one).
MOST_BYTES = 16 * 1024
#: The most presses and moves a test game may take (a bound on every loop).
MOST_STEPS = 5000


def info_for(game: Game, me: int | None, /, **fields: Any):
    """The table description a client holds for ``game`` (seat ``me`` a person, the rest bots)."""
    seats = [{"name": "Guest" if s == me else NAMES[s], "occupant": "human" if s == me else "bot",
              "connected": True, "side": s} for s in range(game.players)]  # everyone plays alone
    state = "over" if game.winner is not None else "playing"
    return table_info(seats, players=game.players, mode=game.mode, state=state, kind="ninety-nine",
                      options=game.table.options, name="Friday cards", **fields)


class Table99:
    """A game of the engine, seat ``me`` seen through a web screen, the other seats played by sound bots."""

    def __init__(self, players: int, rules: str, mode: str = "guarded", seed: int = 1, me: int | None = 0,
                 clock: Any = None, **options: Any) -> None:
        self.game = Game(players, mode, Table.build(players, {"rules": rules, **options}), seed=seed)
        self.me = me
        self.screen = NinetyScreen(NINETY_NINE, "Guest", clock)
        self.bots = [BOTS["sound"](seed=s) for s in range(players)]
        self.scenes = 0
        self.refusals: list[str] = []
        self.fields: dict[str, Any] = {}
        self.show(())

    def show(self, events: tuple) -> None:
        """What the client posts after a change: the new state, then the events as the seat may see them."""
        self.screen.take(StateChanged(view_of(self.game, self.me), info_for(self.game, self.me, **self.fields),
                                      True))
        if events:
            self.screen.take(Events(tuple(shown_to(e, self.me) for e in events)))

    def scene(self) -> dict:
        """The scene now, checked: plain JSON, under the bound, no card of a hand it may not see."""
        scene = self.screen.scene(0.0)
        text = json.dumps(scene, ensure_ascii=False)
        assert len(text.encode()) < MOST_BYTES, len(text.encode())
        assert json.loads(text) == scene  # plain data: nothing JSON would change
        assert "\\n" not in text  # no line breaks: the page lays text out itself
        self.scenes += 1
        # Another hand's card may be named only where it was once played face up (a line of what happened: the
        # cards are dealt again after a round, and a rebuilt stock brings them back), or drawn by the guest.
        public = (" played the ", " turned up the ", "You drew the ")
        rest = json.dumps({**scene, "parts": [{**p, "items": [i for i in p["items"] if not (
            isinstance(i, str) and any(w in i for w in public))]} if p["type"] == "list" else
            {k: v for k, v in p.items() if not (p["id"] == "last" and k == "text")} for p in scene["parts"]]})
        hidden = {c for s in range(self.game.players) if s != self.me for c in self.game.hand(s)}
        mine = set(self.game.hand(self.me)) if self.me is not None else set()
        for card in hidden - mine - {self.game.pile[-1] if self.game.pile else None}:
            assert f'"{card}"' not in rest and f"card-{card}" not in rest, card
            assert words(card) not in rest, (card, words(card))
        return scene

    def act(self, seat: int, action: Any) -> tuple:
        """``seat`` acts on the real engine; the screen takes what the client would (a refusal as Failed)."""
        try:
            events = self.game.apply(seat, action)
        except Refused as refusal:
            if seat == self.me:
                self.screen.take(Failed("act", refusal.code, refusal.message))
                self.refusals.append(refusal.code)
            return ()
        self.show(events)
        return events

    def bots_move(self) -> bool:
        """One bot move where one is due (a draw owed first, as the arena plays it); False when the guest's."""
        game = self.game
        others = [s for s in game.pending if s != self.me]
        if others:
            seat = others[0]
        elif game.turn is not None and game.turn != self.me:
            seat = game.turn
        else:
            return False
        self.act(seat, self.bots[seat].choose(view_of(game, seat)))
        return True

    def press(self, control: str, fields: dict | None = None) -> list:
        """Press ``control`` as the page does; carry out the acts it gives."""
        commands = self.screen.press(control, fields or {}, 0.0)
        for what, action in commands:
            if what == "act":
                self.act(self.me, action)  # type: ignore[arg-type]
        return commands


def part(scene: dict, part_id: str) -> dict | None:
    """The scene's part with this id, or None."""
    return next((p for p in scene["parts"] if p.get("id") == part_id), None)


def enabled(items: list[dict]) -> list[dict]:
    """The items a guest may press."""
    return [i for i in items if i["enabled"]]


def guest_turn(t: Table99, rng: random.Random, choose_high: bool) -> None:
    """The guest's move, by presses of what the scene offers: a value while one is asked, the draw owed, a card."""
    scene = t.scene()
    choice = part(scene, "choice")
    if choice is not None:
        items = enabled(choice["items"])
        assert [i["id"] for i in items] == ["value-high", "value-low", "value-cancel"]
        t.press(items[0 if choose_high else 1]["id"])
        return
    actions = part(scene, "actions")
    draw = next((b for b in actions["items"] if b["id"] == "draw"), None) if actions else None
    if draw is not None and draw["enabled"]:
        t.press("draw")
        return
    hand = part(scene, "hand")
    assert hand is not None
    cards = enabled(hand["items"])
    assert cards, f"the guest's turn with no card offered: {scene['headline']}"
    assert scene["turn"] and scene["title"].startswith("Your turn")
    t.press(rng.choice(cards)["id"])


def play_out(t: Table99, seed: int = 0) -> set[str]:
    """Play the game to its end, the guest by presses only; what kinds of press the guest made."""
    rng = random.Random(seed)
    pressed: set[str] = set()
    for step in range(MOST_STEPS):
        if t.game.winner is not None:
            return pressed
        if t.me not in t.game.pending and t.bots_move():  # a draw owed is drawn before the next card
            t.scene()  # every scene checked, the others' moves' too
            continue
        before = t.game.ply
        scene = t.scene()
        pressed.add("choice" if part(scene, "choice") else "draw" if t.me in t.game.pending else "card")
        guest_turn(t, rng, choose_high=step % 2 == 0)
        if t.game.ply == before and part(t.scene(), "choice") is None:
            raise AssertionError(f"a press did nothing: {t.scene()['headline']} {t.screen.state.notice}")
    raise AssertionError("the game did not end")


GAMES = [(2, "glengariff", "guarded", 3), (4, "convention", "guarded", 5), (2, "tokens", "guarded", 7),
         (4, "three-card", "guarded", 11), (4, "glengariff", "penalty", 13), (2, "tokens", "penalty", 17),
         (6, "convention", "guarded", 19)]  # six players: two decks, so a hand may hold a pair


@pytest.mark.parametrize(("players", "rules", "mode", "seed"), GAMES)
def test_a_whole_game_is_played_by_the_scenes_presses(players: int, rules: str, mode: str, seed: int) -> None:
    t = Table99(players, rules, mode, seed=seed)
    pressed = play_out(t, seed)
    assert "card" in pressed
    assert t.refusals == []  # nothing a scene offered was refused by the engine
    scene = t.scene()
    result = part(scene, "result")
    assert result is not None and result["type"] == "dialog"
    winner = t.game.winner
    assert result["title"] == ("You won!" if winner == 0 else f"{NAMES[winner]} won")
    assert scene["headline"]["text"] in ("You win!", f"{NAMES[winner]} wins")
    rematch = next(b for b in result["buttons"] if b["id"] == "rematch")
    assert rematch["enabled"] and rematch["label"] == "Rematch"
    assert t.press("rematch") == [("rematch", None)]
    assert t.press("leave") == [("leave", None)]
    if mode == "penalty":
        assert "draw" in pressed


def test_aces_and_tens_ask_which_value_with_the_totals_each_makes() -> None:
    # Tokens rules: an ace is 1 or 11, a ten +10 or -10; the total 40, so both values of each fit.
    t = Table99(2, "tokens")
    t.game = rigged("tokens", 2, hands=[["AS", "10H", "7C", "2D"], ["5S", "6S", "8S", "9D"]],
                    stock=["3C", "4C", "5C", "6C"], total=40, turn=0)
    t.show(())
    hand = part(t.scene(), "hand")
    ace = next(i for i in hand["items"] if i["id"] == "card-AS")
    assert ace["enabled"] and ace["label"] == "A♠" and ace["suit"] == "spades"
    assert ace["detail"] == "+1 → 41 or +11 → 51"
    assert ace["name"] == "ace of spades: +1 → 41 or +11 → 51, fits"
    ten = next(i for i in hand["items"] if i["id"] == "card-10H")
    assert ten["detail"] == "+10 → 50 or -10 → 30"
    assert t.press("card-10H") == []
    choice = part(t.scene(), "choice")
    assert [b["label"] for b in choice["items"]] == ["+10 (total 50)", "-10 (total 30)", "Pick again"]
    assert t.scene()["headline"]["text"] == "The 10 of hearts: choose its value"
    t.press("value-low")
    assert t.game.total == 30 and part(t.scene(), "choice") is None
    assert part(t.scene(), "total")["value"] == 30


def test_a_card_that_does_not_fit_is_disabled_and_refused_in_words() -> None:
    t = Table99(2, "convention")
    t.game = rigged("convention", 2, hands=[["8S", "3H", "9C"], ["5S", "6S", "8D"]], stock=["3C", "4C", "5C"],
                    total=95, turn=0)
    t.show(())
    hand = part(t.scene(), "hand")
    eight = next(i for i in hand["items"] if i["id"] == "card-8S")
    assert not eight["enabled"]
    assert eight["why"] == "The 8 of spades would make the total 103: it does not fit"
    assert eight["name"] == "8 of spades: +8 → 103, does not fit"
    three = next(i for i in hand["items"] if i["id"] == "card-3H")
    assert three["enabled"] and three["why"] is None
    nine = next(i for i in hand["items"] if i["id"] == "card-9C")
    assert nine["enabled"] and nine["detail"] == "makes it 99"
    # A page that presses it anyway (stale or hostile) gets the words, and nothing is sent.
    why = "The 8 of spades would make the total 103: it does not fit"
    assert t.press("card-8S") == [("notice", (why, "warn"))]
    scene = t.scene()
    assert part(scene, "notice")["text"] == why
    # A card not held, a control that is not there, a key not offered: refused by name, never an exception.
    assert t.press("card-KD") == [("notice", ("You no longer hold that card", "warn"))]
    assert t.press("nonsense") == [("notice", ("Nothing called 'nonsense' is on this table", "warn"))]
    assert t.screen.key("²", 0.0) == [("notice", ("The key '²' does nothing here", "warn"))]
    assert t.screen.key("d", 0.0) == [("notice", ("The key 'd' does nothing here", "warn"))]
    assert t.screen.notices() == []  # those went out with the press itself
    # The engine's own refusal (here: a card the server judged on a newer position) reads in words too.
    t.screen.take(Failed("act", "out-of-turn", "it is S1's turn to play, not S0's"))
    assert t.screen.notices() == [("Refused: it is S1's turn to play, not S0's", "bad")]
    assert part(t.scene(), "notice")["tone"] == "bad"


def test_at_a_penalty_table_a_card_that_does_not_fit_may_be_played_and_busts_as_in_the_window() -> None:
    # A penalty table is where the over-99 offence is practised: the engine takes the card and the player busts.
    t = Table99(2, "convention", "penalty")
    t.game = rigged("convention", 2, "penalty", hands=[["8S", "3H", "9C"], ["5S", "6S", "8D"]],
                    stock=["3C", "4C", "5C"], total=95, turn=0)
    t.show(())
    eight = next(i for i in part(t.scene(), "hand")["items"] if i["id"] == "card-8S")
    assert eight["enabled"] and eight["why"] is None
    assert eight["name"] == "8 of spades: +8 → 103, does not fit"
    assert [what for what, _ in t.press("card-8S")] == ["act"]
    busted = [e for _, _, done in t.game.log for e in done if isinstance(e, Busted)]
    assert busted and busted[0].seat == 0 and busted[0].card == "8S"


def test_not_the_guests_turn_every_card_says_whose_it_is() -> None:
    t = Table99(4, "convention", seed=2)
    for _ in range(MOST_STEPS):
        if t.game.turn != 0:
            break
        guest_turn(t, random.Random(1), True)
    scene = t.scene()
    who = NAMES[t.game.turn]
    assert scene["turn"] is False and scene["headline"]["text"] == f"{who} to play"
    for item in part(scene, "hand")["items"]:
        assert not item["enabled"] and item["why"] == f"It is {who}'s turn, not yours"
    assert t.press(part(scene, "hand")["items"][0]["id"]) == [("notice", (f"It is {who}'s turn, not yours", "warn"))]
    seats = part(scene, "seats")["items"]
    assert [s["name"] for s in seats] == ["You", "Bo", "Cy", "Di"]
    assert [s["turn"] for s in seats] == [s == t.game.turn for s in range(4)]
    assert seats[0]["you"] and "to play" not in seats[t.game.turn]["detail"]  # the turn flag says it


def test_keys_play_as_the_window_s() -> None:
    t = Table99(2, "tokens", seed=4)
    t.game = rigged("tokens", 2, hands=[["AS", "7C"], ["5S", "6S"]], stock=["3C", "4C", "5C"], total=20, turn=0)
    t.show(())
    keys = [k["key"] for k in t.scene()["keys"]]
    assert keys == ["1", "2", "h", "escape"]
    assert t.screen.key("1", 0.0) == []  # the ace: its value is asked
    assert [k["key"] for k in t.scene()["keys"]] == ["1", "2", "up", "down", "h", "escape"]
    commands = t.screen.key("down", 0.0)
    assert commands == [("act", Play("AS", 1, 21))]
    leaving = "Esc again leaves the table; a bot plays your seat until you take it back"
    assert t.screen.key("escape", 0.0) == [("notice", (leaving, "warn"))]
    assert t.screen.key("escape", 0.0) == [("leave", None)]
    assert t.screen.key("h", 0.0) == [("rules", None)]


def test_the_say_total_penalty_at_a_penalty_table() -> None:
    # Tokens rules at a penalty table where a wrong total costs a token: the guest says 50 for a 7 on 40.
    t = Table99(2, "tokens", "penalty", wrong_total="token")
    t.game = rigged("tokens", 2, "penalty", hands=[["7C", "2D", "3D"], ["5S", "6S", "8S"]],
                    stock=["3C", "4C", "5C", "6C"], total=40, turn=0, wrong_total="token")
    t.show(())
    scene = t.scene()
    form = part(scene, "say")
    assert form is not None and form["type"] == "form" and form["submit"]["id"] == "say"
    assert [f["id"] for f in form["fields"]] == ["say-total"]
    assert [k["key"] for k in scene["keys"]] == ["1", "2", "3", "d", "t", "h", "escape"]
    draw = next(b for b in part(scene, "actions")["items"] if b["id"] == "draw")
    assert not draw["enabled"] and "once you have played" in draw["why"]
    # A total that is no number is refused by the field's name; nothing changes.
    bad = [("notice", ("say-total: type the new total as a whole number, such as 57", "warn"))]
    assert t.press("say", {"say-total": "fifty"}) == bad
    assert t.press("say", {"say-total": "1" * 50}) == bad
    assert t.press("say", {"say-total": "٥٠"}) == bad  # digits, but not ASCII's
    assert t.press("say", {}) == bad
    assert t.press("say", {"say-total": "50"}) == []
    assert part(t.scene(), "say")["label"] == "You will say 50 with your next card"
    assert "saying 50" in t.scene()["headline"]["text"]
    assert t.press("say-clear") == [] and part(t.scene(), "say")["fields"][0]["value"] == ""
    assert "say-clear" not in [b["id"] for b in part(t.scene(), "actions")["items"]]
    assert t.press("say", {"say-total": "50"}) == []
    assert "say-clear" in [b["id"] for b in part(t.scene(), "actions")["items"]]
    t.press("card-7C")
    corrected = [e for _, _, done in t.game.log for e in done if isinstance(e, Corrected)]
    assert corrected and corrected[0].said == 50 and t.game.total == 47
    scene = t.scene()
    notice = part(scene, "notice")
    assert notice["text"] == "You said 50: corrected, the total is 47" and notice["tone"] == "bad"
    assert any("You lost a token" in line for line in part(scene, "log")["items"])
    assert "You lost a token" in part(scene, "last")["text"]
    me = part(scene, "seats")["items"][0]
    assert "tokens ●●○ 2" in me["detail"]
    assert t.screen.notices() == [("You said 50: corrected, the total is 47", "bad"),
                                  ("You lost a token: announced a wrong total (a house rule: the documents only have the "
                                   "total said); 2 left", "bad")]
    # The draw owed: the button is offered now, and it draws.
    draw = next(b for b in part(scene, "actions")["items"] if b["id"] == "draw")
    assert draw["enabled"] and scene["headline"]["text"].startswith("Your turn") is False
    assert t.press("draw") == [("act", Draw())]
    assert len(t.game.hand(0)) == 3


def test_a_forgotten_draw_is_said_in_words() -> None:
    t = Table99(2, "convention", "penalty")
    t.game = rigged("convention", 2, "penalty", hands=[["7C", "2D", "3D"], ["5S", "6S", "8S"]],
                    stock=["3C", "4C", "5C", "6C"], total=40, turn=0)
    t.show(())
    t.press("card-7C")
    assert t.scene()["headline"]["text"] == "Draw for the card you played, before the next player plays"
    t.bots_move()  # Bo plays; the guest's draw waits
    t.bots_move()
    log = part(t.scene(), "log")["items"]
    assert any("forgot to draw" in line for line in log) or 0 in t.game.pending


def test_a_spectator_sees_no_card_of_any_hand() -> None:
    t = Table99(4, "convention", seed=9, me=None)
    for _ in range(MOST_STEPS):
        if t.game.winner is not None:
            break
        seat = t.game.pending[0] if t.game.pending else t.game.turn
        t.act(seat, t.bots[seat].choose(view_of(t.game, seat)))
        scene = t.scene()  # checks every hand's cards are absent
        assert part(scene, "hand") is None and part(scene, "say") is None and part(scene, "since") is None
        assert scene["turn"] is False
        assert all(not s["you"] for s in part(scene, "seats")["items"])
    scene = t.scene()
    result = part(scene, "result")
    assert result is not None and all(b["id"] != "rematch" for b in result["buttons"])
    assert [k["key"] for k in scene["keys"]] == ["h", "escape"]  # no rematch to ask for: no seat


def test_since_your_turn_lists_the_others_plays_and_starts_again_at_the_guests() -> None:
    t = Table99(4, "convention", seed=21)
    rng = random.Random(2)
    for _ in range(MOST_STEPS):
        if t.game.turn == 0 and t.game.ply > 4:
            break
        if not t.bots_move():
            guest_turn(t, rng, True)
    since = part(t.scene(), "since")["items"]
    assert since and all(not line.startswith("You ") for line in since)
    assert any(line.startswith(("Bo played", "Cy played", "Di played")) for line in since)
    guest_turn(t, rng, True)
    assert all(not line.startswith(("You played",)) for line in part(t.scene(), "since")["items"])


def test_the_turn_clock_counts_down_from_the_table_s() -> None:
    now = [100.0]
    t = Table99(2, "convention", seed=3, clock=lambda: now[0])
    assert part(t.scene(), "clock") is None  # no clock at this table
    t.fields = {"clock": 30.0, "turn_left": 25.0}
    t.show(())
    now[0] += 12
    clock = part(t.scene(), "clock")
    who = "Your" if t.game.turn == 0 else f"{NAMES[t.game.turn]}'s"
    assert clock == {"type": "clock", "id": "clock", "seconds": 13.0, "label": f"{who} turn clock", "side": True}


def test_the_rules_page_is_the_engine_s_own_words() -> None:
    t = Table99(3, "three-card", "penalty", seed=2)
    assert t.press("rules") == [("rules", None)]
    title, page = t.screen.rules()
    assert title == "Ninety-Nine — the rules"
    lines = [line for p in page if p["type"] == "list" for line in p["items"]]
    assert set(t.game.table.describe()[1:]) <= set(lines)
    assert any(line.startswith("• at a penalty table the player says the new total") for line in lines)
    assert json.loads(json.dumps(page)) == page


def test_a_rematch_once_asked_for_is_not_offered_again() -> None:
    t = Table99(2, "glengariff", seed=6)
    play_out(t, 6)
    t.fields = {"votes": (0,)}
    t.show(())
    rematch = next(b for b in part(t.scene(), "result")["buttons"] if b["id"] == "rematch")
    assert not rematch["enabled"] and rematch["why"] == "Rematch asked for"
    assert t.press("rematch") == [("notice", ("Rematch asked for", "warn"))]
    t.press("result-close")
    assert part(t.scene(), "result") is None


def test_what_a_card_makes_comes_from_the_engine() -> None:
    # Every card's detail names the total the engine's Table.after gives, for each value that fits.
    t = Table99(4, "glengariff", seed=8)
    rng = random.Random(8)
    for _ in range(200):
        if t.game.winner is not None:
            break
        if t.bots_move():
            continue
        v = view_of(t.game, 0)
        for item, card in zip(part(t.scene(), "hand")["items"], v.hand):
            effect = v.table.effect(rank_of(card))
            if not effect.to99:
                fits = [x for c, x in v.playable() if c == card] or list(effect.values)
                totals = [v.table.after(v.total, effect, x) for x in fits]
                assert [int(s.rsplit("→ ", 1)[1]) for s in item["detail"].split(" or ")] == totals
        guest_turn(t, rng, rng.random() < 0.5)


def test_the_total_said_with_keys_as_in_the_window() -> None:
    t = Table99(2, "tokens", "penalty")
    t.game = rigged("tokens", 2, "penalty", hands=[["7C", "2D"], ["5S", "6S"]], stock=["3C", "4C", "5C"],
                    total=40, turn=0)
    t.show(())
    assert t.screen.key("t", 0.0) == []
    assert [k["key"] for k in t.scene()["keys"]][:12] == [*"0123456789", "minus", "enter"]
    t.screen.key("4", 0.0)
    t.screen.key("7", 0.0)
    assert t.scene()["headline"]["text"].startswith("Say the total: 47 · Enter")
    t.screen.key("enter", 0.0)
    assert part(t.scene(), "say")["fields"][0]["value"] == "47"
    commands = t.screen.key("1", 0.0)
    assert commands == [("act", Play("7C", None, 47, draw=False))]


def test_a_card_the_clock_played_for_the_guest_is_said() -> None:
    t = Table99(2, "convention", seed=5)
    while t.game.turn != 0:
        t.bots_move()
    events = t.game.apply(0, t.bots[0].choose(view_of(t.game, 0)))
    t.screen.take(StateChanged(view_of(t.game, 0), info_for(t.game, 0), True))
    t.screen.take(Events(events, clock=True))
    assert ("Your time ran out: the table played a card for you", "bad") in t.screen.notices()


def test_a_guest_out_of_the_game_watches_with_no_card_to_press() -> None:
    t = Table99(3, "convention", seed=3)
    t.game = rigged("convention", 3, hands=[["8S"], ["5S", "2S"], ["6D", "3D"]], stock=["3C", "4C", "5C", "6C"],
                    total=90, turn=2)
    t.show(())
    t.act(2, Play("3D"))  # 93: the guest's 8 cannot be played, and no tokens: out
    assert t.game.out[0]
    scene = t.scene()
    assert scene["headline"] == {"text": "You are out of the game: watch to the end, or leave for the lobby",
                                 "tone": "bad"}
    assert [k["key"] for k in scene["keys"]] == ["h", "escape"]
    assert part(scene, "seats")["items"][0]["detail"].startswith("out")
    assert any("You are out of the game" in text for text, _ in t.screen.notices())


def test_leaving_during_a_game_asks_first_and_before_it_bots_fill_the_seats() -> None:
    t = Table99(3, "convention", seed=4)
    assert t.press("leave") == []
    question = part(t.scene(), "question")
    assert question["title"] == "Leave this game?" and "take it back from the lobby" in question["text"]
    assert t.press("stay") == [] and part(t.scene(), "question") is None
    t.press("leave")
    assert t.press("leave") == [("leave", None)]
    # A table still waiting for players offers bots for its empty seats (not a rated one).
    waiting = NinetyScreen(NINETY_NINE, "Guest")
    game = t.game
    before = NinetyView.before_deal(3, "guarded", game.table, 0)
    seats = [{"name": "Guest", "occupant": "human", "connected": True}, {}, {}]
    info = table_info(seats, players=3, kind="ninety-nine", options=game.table.options)
    waiting.take(StateChanged(before, info, True))
    scene = waiting.scene(0.0)
    assert scene["headline"]["text"] == "Waiting for players"
    assert [b["id"] for b in part(scene, "actions")["items"]] == ["bots", "rules", "leave"]
    assert waiting.press("bots", {}, 0.0) == [("add_bot", 1), ("add_bot", 2)]
    waiting.take(StateChanged(before, info._replace(rated=True), True))
    assert [b["id"] for b in part(waiting.scene(0.0), "actions")["items"]] == ["rules", "leave"]


# -- through the web seat, against a real server core (tests/web_seat_kit.py) ---------------------------------

def ninety_table(page: Any, players: int, mode: str, rules: str) -> str:
    """The page creates a Ninety-Nine table from the lobby's form; its id."""
    page.press("game-ninety-nine")
    before = {c["id"] for c in page.part("tables")["items"]}
    page.press("create", name="Cards", players=str(players), mode=mode, **{"option-rules": rules})
    made = [c for c in page.part("tables")["items"] if c["id"] not in before]
    assert len(made) == 1, page.heard()
    return str(made[0]["id"]).removeprefix("t-")


def seated_among_bots(room: Any, name: str = "ann") -> Any:
    """A page at a 4-player guarded Glengariff table, seat 0, the other seats the table's bots: the game is on."""
    page = room.page(name)
    page.hello(name.title())
    table = ninety_table(page, 4, "guarded", "glengariff")
    page.press(f"sit-{table}-0")
    page.press("bots")
    return page


def page_move(page: Any, rng: random.Random) -> bool:
    """One press from the page's scene alone (a value, the draw owed, a card that fits); False: nothing to do."""
    choice = page.part("choice")
    if choice is not None:
        page.press(rng.choice(["value-high", "value-low"]))
        return True
    actions = page.part("actions")
    draw = next((b for b in actions["items"] if b["id"] == "draw"), None) if actions else None
    if draw is not None and draw["enabled"]:
        page.press("draw")
        return True
    if not page.scene["turn"]:
        return False
    cards = enabled(page.part("hand")["items"])
    assert cards, page.scene["headline"]
    page.press(rng.choice(cards)["id"])
    return True


def test_a_web_guest_plays_a_whole_four_player_game_with_bots_on_a_real_core(room: Any) -> None:
    ann = room.page("ann")
    ann.hello("Ann")
    table = ninety_table(ann, 4, "guarded", "glengariff")
    ann.press(f"sit-{table}-0")
    assert ann.scene["screen"] == "table" and ann.scene["headline"]["text"] == "Waiting for players"
    ann.press("bots")
    assert ann.part("total") is not None, ann.heard()
    assert [s["name"] for s in ann.part("seats")["items"]][0] == "You"
    rng = random.Random(4)
    for _ in range(MOST_STEPS):
        if ann.part("result") is not None:
            break
        if not page_move(ann, rng):
            room.advance(0.5)  # the bots' turns
    result = ann.part("result")
    names = [s["name"] for s in ann.part("seats")["items"]]
    assert result is not None and result["title"] in ("You won!", *(f"{n} won" for n in names[1:]))
    places = result["text"].removeprefix("Places: ").split(", ")
    assert sorted(place.split(". ", 1)[1] for place in places) == sorted(names)
    assert any(text.endswith("wins: the last player left") or text == "You win: the last player left"
               for text in ann.heard())
    assert not any(text.startswith("Refused") for text in ann.heard()), ann.heard()
    ann.press("rematch")  # the bots agree at once: game 2 starts
    assert ann.heard()[-1] == "Game 2 starts"
    assert ann.part("result") is None and ann.part("total")["value"] >= 0


def test_two_web_guests_at_a_penalty_table_a_wrong_total_said_is_corrected_and_a_watcher_sees_no_hand(
        room: Any) -> None:
    ann, bo, cy = room.page("ann"), room.page("bo"), room.page("cy")
    ann.hello("Ann")
    bo.hello("Bo")
    cy.hello("Cy")
    table = ninety_table(ann, 2, "penalty", "tokens")
    ann.press(f"sit-{table}-0")
    bo.press("refresh")
    bo.press(f"sit-{table}-1")
    cy.press("refresh")
    cy.press(f"watch-{table}")
    assert ann.scene["screen"] == bo.scene["screen"] == cy.scene["screen"] == "table"
    mover = ann if ann.scene["turn"] else bo
    other = bo if mover is ann else ann
    total = mover.part("total")["value"]
    card = enabled(mover.part("hand")["items"])[0]
    mover.press("say", **{"say-total": str(total + 50)})  # a total no card makes
    assert mover.part("say")["label"] == f"You will say {total + 50} with your next card"
    mover.press(card["id"])
    if mover.part("choice") is not None:
        mover.press("value-high")
    corrected = [n for n in mover.notices if n["text"].startswith(f"You said {total + 50}: corrected")]
    assert corrected and corrected[-1]["tone"] == "bad", mover.heard()
    assert any(f"said {total + 50}: corrected" in line for line in other.part("log")["items"])
    mover.press("draw")
    # The watcher: no hand part, no card of either hand anywhere in what it was sent.
    assert cy.part("hand") is None and not cy.scene["turn"]
    held = {c["id"].removeprefix("card-").split("-")[0] for p in (ann, bo) for c in p.part("hand")["items"]}
    for scene in cy.drawn:
        if scene.get("screen") == "table":
            assert part(scene, "hand") is None
    assert all(f"card-{c}" not in text for text in cy.texts for c in held)
    # Both guests play the game out from their scenes.
    rng = random.Random(9)
    for _ in range(MOST_STEPS):
        if ann.part("result") is not None and bo.part("result") is not None:
            break
        if not (page_move(ann, rng) or page_move(bo, rng)):
            room.advance(0.5)
    titles = {ann.part("result")["title"], bo.part("result")["title"]}
    assert titles in ({"You won!", "Ann won"}, {"You won!", "Bo won"})
    assert cy.part("result") is not None and all(b["id"] != "rematch" for b in cy.part("result")["buttons"])
    assert all(len(text.encode()) < MOST_BYTES for p in (ann, bo, cy) for text in p.texts)
    # A rematch: the first to ask hears it asked for (and cannot ask twice); the second starts game 2 for both.
    ann.press("rematch")
    assert ann.heard()[-1] == "Rematch asked for"
    rematch = next(b for b in ann.part("result")["buttons"] if b["id"] == "rematch")
    assert not rematch["enabled"] and rematch["why"] == "Rematch asked for"
    bo.press("rematch")
    assert ann.heard()[-1] == bo.heard()[-1] == "Game 2 starts"
    assert ann.part("result") is None and not any("win" in line for line in ann.part("log")["items"])


def test_off_turn_a_card_says_what_it_does_not_a_total_that_will_move() -> None:
    t = Table99(2, "tokens")
    t.game = rigged("tokens", 2, hands=[["10H", "4C"], ["5S", "6S"]], stock=["3C", "4C", "5C"], total=40, turn=1)
    t.show(())
    items = {i["id"]: i for i in part(t.scene(), "hand")["items"]}
    assert items["card-10H"]["detail"] == "+10 or -10" and items["card-10H"]["name"] == "10 of hearts: +10 or -10"
    assert items["card-4C"]["detail"] == "+0, reverses"


def test_a_match_table_says_the_score_and_who_won_the_match() -> None:
    t = Table99(2, "glengariff", seed=6)
    play_out(t, 6)
    winner = t.game.winner
    ranking = (0, 1) if winner == 0 else (1, 0)
    # Game 1 of a first-to-2 match went the same way: this game decides the match.
    t.fields = {"match": MatchInfo("first-to", 2, 1, (Result(1, ranking, "won"), Result(2, ranking, "won"))),
                "game": 2}
    t.show(())
    scene = t.scene()
    score = "You 2 · Bo 0" if winner == 0 else "You 0 · Bo 2"
    assert part(scene, "match")["text"] == f"First to 2 · game 2: {score}"
    result = part(scene, "result")
    assert result["title"] == ("You won the match" if winner == 0 else "Bo won the match")
    assert result["text"].startswith(f"First to 2 · game 2: {score} · Places: 1. ")
    assert next(b for b in result["buttons"] if b["id"] == "rematch")["label"] == "New match"


def test_a_web_guest_whose_page_went_away_comes_back_to_the_same_hand(room: Any) -> None:
    ann = room.page("ann")
    ann.hello("Ann")
    table = ninety_table(ann, 3, "guarded", "convention")
    ann.press(f"sit-{table}-0")
    ann.press("bots")
    kept = dict(ann.kept)
    assert kept["seat"]["table"] == table and kept["seat"]["seat"] == 0
    hand = [c["id"] for c in ann.part("hand")["items"]]
    ann.seat.closed(room.now)
    del room.pages[ann.ident]
    room.advance(1.0)
    back = room.page("ann again")
    back.hello("Ann", key=kept["key"], seat=kept["seat"])
    assert back.scene["screen"] == "table"
    assert any(text.startswith("Welcome back: your unfinished game goes on") for text in back.heard())
    assert back.part("seats")["items"][0]["you"]
    now = [c["id"] for c in back.part("hand")["items"]]
    assert now == hand or len(now) == len(hand)  # the same hand, or one card played for her and one drawn
    rng = random.Random(3)
    for _ in range(MOST_STEPS):
        if back.part("result") is not None:
            break
        if not page_move(back, rng):
            room.advance(0.5)
    assert back.part("result") is not None


def test_a_pair_in_a_two_deck_hand_gets_two_ids() -> None:
    t = Table99(6, "convention", seed=2)
    t.game = rigged("convention", 6, hands=[["7S", "7S", "3H"], *[["2C"]] * 5], stock=["3C", "4C"], total=10,
                    turn=0)
    t.show(())
    ids = [i["id"] for i in part(t.scene(), "hand")["items"]]
    assert ids == ["card-7S", "card-7S-2", "card-3H"]
    assert t.press("card-7S-2") == [("act", Play("7S", None, 17))]
