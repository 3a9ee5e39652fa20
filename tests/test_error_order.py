"""`not-seated` wins where docs/protocol.md's "Which error wins" places it, over a real socket (issue 19)."""

from __future__ import annotations

import re

import pytest

from board99.client.net import GameClient, ServerError
from board99.server.loop import run_in_thread
from tests.test_protocol_page import PAGE, section

WHICH_WINS = " ".join(section(PAGE, "### Which error wins").split())


@pytest.fixture
def server(tmp_path):
    handle = run_in_thread(data_dir=tmp_path)
    yield handle
    handle.stop()


def code_of(call) -> str:
    with pytest.raises(ServerError) as caught:
        call()
    return caught.value.code


def test_the_page_places_not_seated_for_every_request_that_refuses_with_it() -> None:
    for kind in ("add_bot", "rematch", "hint", "snapshot", "history"):
        # The sentence naming the request also names not-seated.
        sentences = [s for s in re.split(r"(?<=[.;])\s", WHICH_WINS) if f"`{kind}`" in s]
        assert any("`not-seated`" in s for s in sentences), kind


def test_not_seated_comes_before_every_other_fault_it_is_placed_before(server) -> None:
    with GameClient(server.endpoint, name="host") as host, GameClient(server.endpoint, name="stranger") as stranger:
        table = host.create_table("t", 2).id
        host.take_seat(table, 0)
        bad = "0" * 32
        # add_bot: a stranger is refused for who it is before its bot's name or its seat number are read.
        assert code_of(lambda: stranger._request("add_bot", table=table, seat=4, bot="nobody")) == "not-seated"
        assert code_of(lambda: stranger._request("add_bot", table="nosuch", seat=1)) == "no-such-table"
        # ... while the seated host is asked for its token first, then the bot's name.
        assert code_of(lambda: host._request("add_bot", table=table, seat=1, bot="nobody", token=bad)) == "bad-token"
        assert code_of(lambda: host._request("add_bot", table=table, seat=1, bot="nobody",
                                             token=host.token)) == "no-such-bot"
        # rematch and hint: no seat held wins over a wrong token (and over a game not over).
        assert code_of(lambda: stranger._request("rematch", token=bad)) == "not-seated"
        assert code_of(lambda: stranger._request("hint", token=bad)) == "not-seated"
        assert code_of(lambda: host._request("rematch", token=bad)) == "bad-token"
        assert code_of(lambda: host._request("rematch", token=host.token)) == "not-over"
        # snapshot and history: no table followed wins over a wrong token, and over a game not begun.
        assert code_of(lambda: stranger._request("snapshot", token=bad)) == "not-seated"
        assert code_of(lambda: stranger._request("history")) == "not-seated"
        assert code_of(lambda: host._request("history")) == "not-started"
        assert code_of(lambda: host._request("snapshot", token=bad)) == "bad-token"
