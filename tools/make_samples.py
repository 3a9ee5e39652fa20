"""Write the sample records in docs/: a 4-player match between rulebook bots, a 2-player penalty-mode game,
and a 2-player game with a planted blunder for the review (docs/review.md).

    python tools/make_samples.py        # rewrites docs/sample-match.txt, sample-game.txt, sample-blunder.txt

Seeds are fixed, so the files come out the same each time (a test checks they replay).
"""

from __future__ import annotations

import sys
from pathlib import Path

from board99 import Action, Draw, Game, Play, SeatView
from board99.arena import play_game
from board99.bots import make_bot
from board99.bots.rulebook import ranked_plays
from board99.bots.tally import LineTally
from board99.match import MatchFormat, MatchRecord, result_of, score
from board99.record import Record

DOCS = Path(__file__).resolve().parents[1] / "docs"
MATCH_NAMES = ("Ada (rulebook)", "Ben (rulebook)", "Cy (rulebook)", "Di (rulebook)")
MATCH_SEED = 992  # a 3-1 match over four games
GAME_SEED = 4
OFFENCE_AT = 9  # the ply at which the penalty game's player to act plays a card below its square
BLUNDER_SEED, BLUNDER_FIRST = 15, 1  # seat 0 leaves a four unblocked at action 24


def bot_game(players: int, mode: str, seed: int, offence_at: int | None = None) -> Game:
    """A finished game between rulebook bots; at ply ``offence_at`` the seat to act makes an illegal play."""
    game = Game(players, mode, seed=seed)
    bots = [make_bot("rulebook", seed=seed * 10 + s) for s in range(players)]
    while (seat := game.turn) is not None:
        if game.ply == offence_at:
            card = max(game.hand(seat), default=None)
            square = next((sq for sq in range(card or 0) if game.occupant(sq) is None), None)
            if card is not None and square is not None:
                game.apply(seat, Play(card, square))  # below the card: penalised in penalty mode
                continue
        game.apply(seat, bots[seat].choose(game.view(seat)))
    return game


def sample_match() -> str:
    """A 4-player first-to-3 match between rulebook bots, as a match record."""
    fmt = MatchFormat("first-to", 3)
    record, results = MatchRecord(4, "guarded", fmt, MATCH_NAMES), []
    while not fmt.over(score(2, results)):
        game = bot_game(4, "guarded", MATCH_SEED + len(results))
        results.append(result_of(game, len(results) + 1))
        record.games.append(Record.of(game))
    return record.dumps(results)


def sample_game() -> str:
    """A 2-player penalty-mode game between rulebook bots with an illegal play penalised."""
    game = bot_game(2, "penalty", GAME_SEED, offence_at=OFFENCE_AT)
    text = Record.of(game).dumps()
    assert "penalty S" in text, "the sample game must hold a penalty"
    return text


class Planter:
    """The rulebook bot, except that the first time it would block an opponent's four it plays its best other play."""

    name = "planter"

    def __init__(self) -> None:
        self.inner = make_bot("rulebook")
        self.planted = False

    def choose(self, view: SeatView) -> Action:
        act = self.inner.choose(view)
        threats = view.threats_against()
        if not self.planted and type(act) is Play and act.square in threats:
            self.planted = True
            tally = LineTally(view.board, view.sides)
            live = [c for c in view.hand if c <= tally.free_top]
            elsewhere = [Play(c, q) for _, c, q in ranked_plays(tally, live, 10) if q not in threats]
            return elsewhere[0] if elsewhere else Draw()
        return act


def sample_blunder() -> str:
    """A 2-player game between rulebook bots in which seat 0 once leaves the opponent's four unblocked."""
    game = play_game(Game(2, seed=BLUNDER_SEED, first=BLUNDER_FIRST), [Planter(), make_bot("rulebook")])
    return Record.of(game).dumps()


def main() -> int:
    """Write the samples."""
    (DOCS / "sample-match.txt").write_text(sample_match(), encoding="utf-8")
    (DOCS / "sample-game.txt").write_text(sample_game(), encoding="utf-8")
    (DOCS / "sample-blunder.txt").write_text(sample_blunder(), encoding="utf-8")
    print(f"wrote {DOCS / 'sample-match.txt'}, {DOCS / 'sample-game.txt'} and {DOCS / 'sample-blunder.txt'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
