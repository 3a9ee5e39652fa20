"""Hidden information: no client ever receives another seat's hand card (partner included), the deck's order, or the seed."""

from __future__ import annotations

import pytest

from board99.record import Record
from board99.server.loop import run_in_thread
from tests.server_kit import Offender, card_locations, drive, leaks, seat_table, settle


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    handle = run_in_thread(data_dir=tmp_path_factory.mktemp("hidden"))
    yield handle
    handle.stop()


# 16 full games: every table size, both modes, penalties (shown cards) included.
GAMES = [(players, mode, rep) for players in (2, 3, 4, 6) for mode in ("guarded", "penalty") for rep in range(2)]


@pytest.mark.slow
@pytest.mark.parametrize("players,mode,rep", GAMES)
def test_no_message_shows_a_card_its_reader_may_not_see(server, players, mode, rep) -> None:
    seated = seat_table(server.endpoint, players, mode)
    try:
        drive(seated, offender=Offender() if mode == "penalty" else None, seconds=40, bot="rulebook" if rep else "random")
        settle(seated)
        text = seated.clients[0].fetch_record(seated.table)
        seed = Record.loads(text).seed
        states = card_locations(text)
        checked = 0
        for seat, messages in seated.received.items():
            assert messages, f"seat {seat} received nothing"
            found = leaks(messages, seat, states, seed)
            assert not found, f"seat {seat}: " + "; ".join(found[:5])
            checked += len(messages)
        assert checked > 20
    finally:
        seated.close()


def test_the_leak_check_catches_a_leak() -> None:
    # The checker itself: a partner's card, a drawn card shown to another seat, a deck field, the seed.
    from board99 import Draw, Game

    game = Game(4, seed=11, first=0)
    for _ in range(4):
        game.apply(game.turn, Draw())
    from board99.record import Record as R

    text = R.of(game).dumps()
    states = card_locations(text)
    partner_card = game.hand(2)[0]
    view = game.view(0).to_data()
    bad = [
        {"type": "update", "view": {**view, "hand": [partner_card]}},
        {"type": "update", "view": view, "events": [{"kind": "drew", "seat": 2, "card": partner_card}]},
        {"type": "update", "view": view, "deck": [1, 2, 3]},
        {"type": "reply", "view": view, "token_bits": game.seed},
        {"type": "reply", "view": view, "mystery": 5},
    ]
    for msg in bad:
        assert leaks([msg], 0, states, game.seed), msg
    assert leaks([{"type": "update", "view": view}], 0, states, game.seed) == []
