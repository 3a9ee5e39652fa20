"""Bad input never takes the server down: thousands of malformed messages against the real server.

Every malformed message gets a clear error reply (a known code and a message
naming what is wrong) or is dropped and logged; a game that is being played
meanwhile at another table notices nothing, and afterwards a normal game
between bots still completes. Counts are fixed and every wait is bounded.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterator

import msgpack
import pytest
import zmq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import board99
from board99 import kinds
from board99.bots import make_bot
from board99.client.net import GameClient, play_bot
from board99.server.loop import run_in_thread
from board99.wire.protocol import ERRORS, MAX_MESSAGE_SIZE, PROTOCOL_VERSION, REQUESTS

KNOWN_CODES = set(ERRORS) | set(board99.CODES) | set(kinds.refusal_codes())  # every installed game's refusals
FUZZ = settings(max_examples=600, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


class ServerLog(logging.Handler):
    """Keeps the server's log lines (it runs in this process, on its own thread)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    def count(self, text: str) -> int:
        return sum(text in line for line in self.lines)


class Raw:
    """A bare DEALER that sends whatever bytes it is given, as a hostile client would."""

    def __init__(self, ctx: zmq.Context, endpoint: str, ident: bytes | None = None) -> None:
        self.sock = ctx.socket(zmq.DEALER)
        self.sock.linger = 0
        if ident is not None:
            self.sock.setsockopt(zmq.ROUTING_ID, ident)  # libzmq lets a peer choose its own
        self.sock.setsockopt(zmq.RECONNECT_IVL, 20)
        self.sock.setsockopt(zmq.RCVHWM, 100_000)
        self.sock.connect(endpoint)
        self.sent = 0

    def send(self, frame: bytes | list[bytes]) -> None:
        self.sock.send_multipart(frame if isinstance(frame, list) else [frame])
        self.sent += 1

    def recv(self, timeout: float = 3.0) -> dict | None:
        if not self.sock.poll(int(timeout * 1000)):
            return None
        return msgpack.unpackb(self.sock.recv(), raw=False)

    def ask(self, frame: bytes | list[bytes], timeout: float = 3.0) -> dict:
        self.send(frame)
        deadline = time.monotonic() + timeout
        while (reply := self.recv(max(0.0, deadline - time.monotonic()))) is not None:
            view = reply.get("view")
            if isinstance(view, dict) and isinstance(reply.get("table"), str | dict):
                table = reply["table"] if isinstance(reply["table"], str) else reply["table"].get("id")
                SEEN_PLY[table] = view.get("ply", 0)  # what an act on that table must name as its ply
            if reply["type"] in ("reply", "error"):  # a seated connection also gets its table's pushes
                return reply
        raise AssertionError(f"no reply within {timeout} s to {frame!r:.80}")

    def collect(self, count: int, timeout: float = 5.0) -> list[dict]:
        """Up to ``count`` messages, stopping ``timeout`` s after the last one arrived."""
        out: list[dict] = []
        while len(out) < count and (msg := self.recv(timeout)) is not None:
            out.append(msg)
        return out


#: table id -> the latest ply any test connection saw there (replies and pushes carry views).
SEEN_PLY: dict[str, int] = {}


def pack(msg: object) -> bytes:
    return msgpack.packb(msg, use_bin_type=True)


def assert_clear_error(reply: dict, *codes: str) -> None:
    assert reply["type"] == "error", reply
    assert reply["code"] in (codes or KNOWN_CODES), reply
    assert reply["code"] != "internal", reply  # an unhandled exception in the server
    assert isinstance(reply["message"], str) and len(reply["message"]) >= 10, reply


class Bystander:
    """A person playing a real game at another table while the fuzzing goes on."""

    def __init__(self, endpoint: str) -> None:
        self.client = GameClient(endpoint, name="bystander", timeout=5.0)
        self.received: list[dict] = []
        self.polled: list[dict] = []
        self.client.on_receive = self.received.append
        table = self.client.create_table("bystander", 2)
        self.client.take_seat(table.id, 0, "red")
        self.client.add_bot(table.id, 1, "random")
        self.bot = make_bot("random", seed=11)
        self.actions = 0

    def step(self, turns: int = 2) -> None:
        """Play up to ``turns`` of our turns (the server's bot answers each at once)."""
        deadline = time.monotonic() + 5.0
        done = 0
        while done < turns and time.monotonic() < deadline:
            self.polled += self.client.poll(0.05)
            if self.client.table.state == "over":
                return
            if self.client.my_turn():
                self.client.act(self.bot.choose(self.client.view))
                self.actions += 1
                done += 1


@pytest.fixture(scope="module")
def server_log() -> Iterator[ServerLog]:
    handler = ServerLog()
    logger = logging.getLogger("board99.server")
    old = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(old)


@pytest.fixture(scope="module")
def server(tmp_path_factory, server_log):
    # The bystander only speaks between fuzz steps (it is polled from this thread), so it may be silent for
    # seconds: a long lost_after keeps the server from counting it as gone, which is not what is tested here.
    # A generous rate limit: fuzzing sends thousands of requests a second from one connection.
    handle = run_in_thread(0, tmp_path_factory.mktemp("fuzz"), lost_after=120.0, rate=1000.0, burst=2000.0)
    yield handle
    handle.stop()


@pytest.fixture(scope="module")
def ctx() -> Iterator[zmq.Context]:
    context = zmq.Context()
    context.linger = 0
    yield context
    context.destroy(linger=0)


@pytest.fixture(scope="module")
def bystander(server) -> Iterator[Bystander]:
    person = Bystander(server.endpoint)
    person.step(3)
    yield person
    person.client.close()


@pytest.fixture(scope="module")
def conns(server, ctx):
    """One raw connection per kind of abuse (so each stays under the rate limit's burst)."""
    made: dict[str, Raw] = {}

    def get(name: str) -> Raw:
        if name not in made:
            made[name] = Raw(ctx, server.endpoint)
        return made[name]

    return get


# -- garbage bytes ------------------------------------------------------------------------------


@pytest.mark.slow
@FUZZ
@given(data=st.binary(min_size=0, max_size=300))
def test_random_bytes_get_a_clear_error(data: bytes, conns, bystander) -> None:
    reply = conns("bytes").ask(data)
    assert_clear_error(reply, "bad-message", "unknown-type", "bad-field")


VALID = [
    {"type": "hello", "id": 1, "version": PROTOCOL_VERSION, "name": "fuzzer"},
    {"type": "create_table", "id": 2, "name": "x" * 30, "players": 6, "mode": "penalty", "clock": 2.5},
    {"type": "act", "id": 3, "table": "deadbeef", "seat": 1, "token": "ab" * 16,
     "action": {"type": "play", "card": 12, "square": 57}, "ply": 0},
    {"type": "take_seat", "id": 4, "table": "deadbeef", "seat": 3, "colour": "purple", "name": "n" * 40},
]


def test_every_truncation_of_a_valid_request_gets_a_clear_error(conns, bystander) -> None:
    raw = conns("truncated")
    cuts = [pack(msg)[:n] for msg in VALID for n in range(len(pack(msg)))]
    for frame in cuts:
        raw.send(frame)
    replies = raw.collect(len(cuts))
    assert len(replies) == len(cuts) > 250
    for reply in replies:
        assert_clear_error(reply, "bad-message")
    bystander.step()


HUGE = [
    b"\xdb\xff\xff\xff\xff" + b"x" * 20,  # str 32 claiming 4 GiB
    b"\xc6\xff\xff\xff\xff" + b"x" * 20,  # bin 32
    b"\xdd\xff\xff\xff\xff\xc0",  # array 32 of 4 G items
    b"\xdf\xff\xff\xff\xff\xa4type\xa4ping",  # map 32
    b"\xc9\xff\xff\xff\xff\x01" + b"x" * 20,  # ext 32
    b"\xd9\xff" + b"x" * 10,  # str 8 longer than the frame
    pack({"type": "ping", "pad": "x" * 5000}),  # over max_str_len
    pack({"type": "ping", "pad": list(range(300))}),  # over max_array_len
    pack({"type": "ping", **{f"k{i}": i for i in range(40)}}),  # over max_map_len
    pack({"type": "ping", "pad": b"\x00" * 10}),  # bin is not used by the protocol at all
    pack({"type": "ping", "pad": msgpack.ExtType(1, b"x")}),
    b"\x91" * 60_000 + b"\xc0",  # arrays nested 60,000 deep
    b"\x81\xa1a" * 20_000 + b"\xc0",  # maps nested 20,000 deep
    pack({"type": "ping"}) + pack({"type": "ping"}),  # two values in one frame
    b"",
]


def test_huge_lengths_deep_nesting_and_limits_get_a_clear_error(conns, bystander) -> None:
    raw = conns("huge")
    for _ in range(20):
        for frame in HUGE:
            raw.send(frame)
    replies = raw.collect(20 * len(HUGE))
    assert len(replies) == 20 * len(HUGE)
    for reply in replies:
        assert_clear_error(reply, "bad-message")
    bystander.step()


@pytest.mark.slow
def test_a_message_over_maxmsgsize_drops_the_link_which_comes_back(server, conns, bystander, server_log) -> None:
    raw = conns("oversized")
    for _ in range(5):
        raw.send(pack({"type": "ping", "pad": "x" * 100}) + b"\x00" * MAX_MESSAGE_SIZE)
        assert raw.recv(0.3) is None  # libzmq cut the link before the server saw a byte of it
    # The DEALER reconnects by itself; requests sent before the new link is up may be lost with the old one.
    deadline = time.monotonic() + 5.0
    reply = None
    while reply is None and time.monotonic() < deadline:
        raw.send(pack({"type": "ping", "id": 7}))
        reply = raw.recv(0.3)
    assert reply is not None and reply["type"] == "reply" and reply["id"] == 7
    # The server logs every link libzmq cut.
    deadline = time.monotonic() + 3.0
    while server_log.count("reason=disconnected") < 5 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server_log.count("event=link-dropped") >= 5 and server_log.count("reason=disconnected") >= 5
    bystander.step()


def test_several_frames_in_one_message_get_a_clear_error(conns) -> None:
    raw = conns("frames")
    for frames in ([b"a", b"b"], [pack({"type": "ping"}), pack({"type": "ping"})], [b""] * 5):
        reply = raw.ask(frames)
        assert_clear_error(reply, "bad-message")
        assert "one frame" in reply["message"]


# -- wrong shapes and types ---------------------------------------------------------------------------


@pytest.mark.parametrize("msg", [1, "ping", None, [], ["ping"], 3.5, True, {1: "ping"}, {"type": 5},
                                 {"type": None}, {"type": True}, {"type": ["ping"]}, {"id": 4}])
def test_a_message_that_is_not_a_typed_map_is_refused(msg, conns) -> None:
    assert_clear_error(conns("shape").ask(pack(msg)), "bad-message")


@pytest.mark.parametrize("kind", ["", "PING", "pong", "act ", "snapshots", "x" * 4000, "__init__", "handlers",
                                  "_act", "reply", "update", "error"])
def test_unknown_message_types_are_refused_by_name(kind: str, conns) -> None:
    reply = conns("unknown").ask(pack({"type": kind, "id": 9}))
    assert_clear_error(reply, "unknown-type")
    assert reply["id"] == 9 and "docs/protocol.md" in reply["message"]


#: A valid value of every request field; each test breaks one field at a time.
GOOD = {
    "version": PROTOCOL_VERSION, "name": "fuzz", "players": 2, "mode": "guarded", "clock": None,
    "grace": None, "table": "deadbeef", "seat": 0, "colour": "red", "bot": "random", "token": "ab" * 16,
    "action": {"type": "draw"}, "game": 1, "ply": 0, "offset": 0, "limit": 10,
    "key": "cd" * 32, "match": {"kind": "first-to", "target": 3}, "player": "fuzz", "rated": False,
    "entrants": [["bot:random"], ["bot:rulebook"]], "rounds": 1, "tournament": "deadbeef", "whole_match": False,
    "bot_pace": "person", "options": {},
}
#: Where a field's name means another thing in another request: (request, field) -> a valid value.
GOOD_IN = {(kind, "game"): "peg-board" for kind in ("create_table", "create_tournament", "leaderboard", "player")}
INT_FIELDS = {"version", "players", "seat", "game", "ply", "offset", "limit", "rounds"}
TEXT_FIELDS = {"name", "table", "token", "bot", "player", "tournament"}
BAD = {
    **{f: [True, False, 1.5, "1", [], {}, -(2 ** 63), 2 ** 64 - 1] for f in INT_FIELDS},
    **{f: [5, True, 1.5, [], {}, ["x"], "x" * 4001] for f in TEXT_FIELDS},
    "mode": ["chaos", True, 1, "", "GUARDED"],
    "clock": [True, "1", -1, 0.0, math.nan, math.inf, 1e9, []],
    "grace": [True, "1", -1, math.nan, -math.inf, 1e9, {}],
    "colour": ["pink", 1, True, "", "RED"],
    "action": [[], "draw", 1, True, None],
    "key": ["", "ab", "AB" * 32, "zz" * 32, 1, True, ["x"]],
    "match": [{"kind": "first-to", "target": 2}, {"kind": "best-of", "target": 3}, {"kind": "games"}, [], "3", True,
              {"kind": "games", "target": 10, "x": 1}],
    "rated": [1, "yes", None, []],
    "whole_match": [1, "yes", None, {}],
    "bot_pace": ["slow", "", "PERSON", 1, True, None, []],
    "entrants": [[], [["a"]], [["a", "b", "c"], ["d"]], [[1], [2]], "ab", [["x" * 50], ["y"]], [[]] * 17],
    "options": [[], "x", 1, True, None, [["x", 1]]],
}
BAD_IN = {key: ["chess", "PEG-BOARD", "", 1, True, None, [], {}, "x" * 4001] for key in GOOD_IN}


def good(kind: str, name: str) -> object:
    """A valid value of field ``name`` of request ``kind``."""
    return GOOD_IN.get((kind, name), GOOD.get(name))


def test_every_request_field_has_a_valid_value_to_fuzz_around() -> None:
    missing = {name for kind, spec in REQUESTS.items() for name in spec if name not in GOOD and (kind, name) not in GOOD_IN}
    assert not missing, f"a new request field: give GOOD in tests/test_fuzz.py a valid value for {sorted(missing)}"


WRONG = [(kind, name, value) for kind, spec in REQUESTS.items() for name in spec
         for value in BAD_IN.get((kind, name), BAD.get(name, []))]


def test_a_wrong_type_in_any_field_is_refused_naming_the_field(conns, bystander) -> None:
    raw = conns("types")
    sent = []
    for kind, name, value in WRONG:
        msg = {"type": kind, "id": len(sent), **{f: good(kind, f) for f in REQUESTS[kind]}, name: value}
        raw.send(pack(msg))
        sent.append((kind, name, value))
    replies = raw.collect(len(sent))
    assert len(replies) == len(sent) > 150
    for reply in replies:
        kind, name, value = sent[reply["id"]]
        assert_clear_error(reply, "bad-field")
        assert reply["message"].startswith(f"{name}:"), (kind, name, value, reply)
    bystander.step()


def test_fields_that_a_request_does_not_have_and_missing_ones_are_named(conns) -> None:
    raw = conns("fields")
    reply = raw.ask(pack({"type": "ping", "id": 1, "seat": 0}))
    assert_clear_error(reply, "bad-field")
    assert reply["message"].startswith("seat:")
    for kind, spec in REQUESTS.items():
        for name, (_, required) in spec.items():
            if required:
                msg = {"type": kind, "id": 1, **{f: good(kind, f) for f in spec if f != name}}
                reply = raw.ask(pack(msg))
                assert_clear_error(reply, "bad-field")
                assert reply["message"].startswith(f"{name}: missing")


@pytest.mark.parametrize("rid", ["7", True, 1.5, None, [], {"a": 1}, "missing"])
def test_a_request_without_a_whole_number_id_is_refused_naming_the_id(rid, conns) -> None:
    # docs/protocol.md: every request carries an integer id; without one the error's id is nil.
    msg = {"type": "ping"} if rid == "missing" else {"type": "ping", "id": rid}
    reply = conns("ids").ask(pack(msg))
    assert_clear_error(reply, "bad-field")
    assert reply["id"] is None and reply["message"].startswith("id:")


msgpack_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2 ** 63), 2 ** 64 - 1) | st.floats() | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@FUZZ
@given(kind=st.sampled_from(sorted(REQUESTS) + ["nope"]),
       fields=st.dictionaries(st.sampled_from(sorted(GOOD) + ["extra"]), msgpack_values, max_size=5),
       rid=st.integers(0, 2 ** 31))
@pytest.mark.slow
def test_random_requests_get_a_reply_or_a_clear_error(kind, fields, rid, conns, bystander) -> None:
    reply = conns("requests").ask(pack({**fields, "type": kind, "id": rid}))
    assert reply["id"] == rid
    if reply["type"] == "error":
        assert_clear_error(reply)
    else:
        assert reply["type"] == "reply"


# -- real tables, wrong seats ---------------------------------------------------------------------------


def test_actions_for_tables_and_seats_that_do_not_exist_are_refused(server, conns, bystander) -> None:
    raw = conns("seats")

    def ask(kind: str, **fields) -> dict:
        return raw.ask(pack({"type": kind, "id": 1, **fields}))

    table = ask("create_table", name="target", players=2)["table"]["id"]
    token = "ab" * 16
    draw = {"type": "draw"}
    cases = [
        (("act", {"table": "nosuch00", "seat": 0, "token": token, "action": draw, "ply": 0}), "no-such-table"),
        (("act", {"table": table, "seat": 4, "token": token, "action": draw, "ply": 0}), "no-such-seat"),
        (("act", {"table": table, "seat": 0, "token": token, "action": draw, "ply": 0}), "bad-token"),
        (("take_seat", {"table": table, "seat": 2, "colour": "red"}), "no-such-seat"),
        (("take_seat", {"table": "nosuch00", "seat": 0}), "no-such-table"),
        (("add_bot", {"table": table, "seat": 5, "bot": "random"}), "no-such-seat"),
        (("add_bot", {"table": table, "seat": 1, "bot": "oracle"}), "no-such-bot"),
        (("resume", {"table": table, "seat": 0, "token": token}), "bad-token"),
        (("spectate", {"table": "nosuch00"}), "no-such-table"),
        (("fetch_record", {"table": "nosuch00"}), "no-such-table"),
        (("fetch_record", {"table": table}), "not-over"),
        (("rematch", {}), "not-seated"),
        (("snapshot", {}), "not-seated"),
    ]
    for (kind, fields), code in cases:
        reply = ask(kind, **fields)
        assert reply["type"] == "error", (kind, fields, reply)
        assert_clear_error(reply, code)
    # Seated, with the real token: the action's own fields are checked, and the engine has the last word.
    seat = ask("take_seat", table=table, seat=0, colour="red")
    real = seat["token"]
    ask("add_bot", table=table, seat=1, bot="random", token=real)
    time.sleep(0.2)  # if the bot opens, it has moved: from then on nothing changes (every act below is refused)
    ply = ask("snapshot", token=real)["view"]["ply"]
    for action, code, field in [
        ({"type": "play", "card": True, "square": 5}, "bad-field", "action.card"),
        ({"type": "play", "card": 5}, "bad-field", "action.square"),
        ({"type": "shout"}, "bad-field", "action.type"),
        ({"type": "play", "card": 100, "square": 5}, "no-such-card", "card 100"),
        ({"type": "discard", "card": -1}, "no-such-card", "card -1"),
    ]:
        reply = ask("act", table=table, seat=0, token=real, action=action, ply=ply)
        assert_clear_error(reply, code)
        assert field in reply["message"]
    # Another seat's number with this seat's token acts for nobody.
    assert_clear_error(ask("act", table=table, seat=1, token=real, action=draw, ply=0), "bad-token")
    bystander.step()


#: Malformed Ninety-Nine actions: (action, the field its refusal names). ``HAND`` stands for a card the seat holds.
HAND = "<a card in hand>"
NINETY_BAD_FIELDS = [
    ({"type": "play", "card": "1Z"}, "action.card"), ({"type": "play", "card": 5}, "action.card"),
    ({"type": "play", "card": None}, "action.card"), ({"type": "play"}, "action.card"),
    ({"type": "play", "card": "A" * 4001}, "action.card"), ({"type": "play", "card": ["AS"]}, "action.card"),
    ({"type": "play", "card": "as"}, "action.card"),
    *(({"type": "play", "card": HAND, "value": v}, "action.value")
      for v in ("eleven", "11", True, 1.5, math.nan, 2 ** 64 - 1, -(2 ** 63), 1000, -1000, [1], {"a": 1})),
    *(({"type": "play", "card": HAND, "say": v}, "action.say")
      for v in ("ninety-nine", "99", 99.0, False, 2 ** 63, 10 ** 6, [], {})),
    *(({"type": "play", "card": HAND, "draw": v}, "action.draw") for v in ("yes", 1, 0, None, [])),
    # The other game's actions at this table.
    ({"type": "discard", "card": 5}, "action.type"), ({"type": "play", "card": 5, "square": 10}, "action.card"),
    ({"type": "shout"}, "action.type"), ({"type": None}, "action.type"), ({}, "action.type"),
    ({"type": "PLAY", "card": HAND}, "action.type"),
]


#: Ninety-Nine tables a host may not open: (players, options, the field the refusal names).
NINETY_BAD_TABLES = [
    (2, {"rules": "poker"}, "options.rules"), (2, {"rules": "three-card"}, "players"),
    (3, {"hand_size": 99}, "options.hand_size"), (3, {"tokens": "3"}, "options.tokens"),
    (3, {"tokens": True}, "options.tokens"), (3, {"decks": 1.0}, "options.decks"),
    (3, {"rank_A": "explode"}, "options.rank_A"), (3, {"rank_joker": ["99"]}, "options.rank_joker"),
    (3, {"wrong_total": "death"}, "options.wrong_total"), (3, {"rules": None}, "options.rules"),
    (3, {"rules": "x" * 4000}, "options.rules"), (3, {"rules": [["long" * 25]] * 40}, "options.rules"),
    (3, {"unknown": 1}, "options.unknown"), (3, {"x" * 4000: 1}, "options"), (7, {}, "players"),
    (2, {"x" * 4000: 1}, "options"),  # a peg-board table (below) names an option it lacks as shortly
]


def test_ninety_nine_tables_a_host_may_not_open_are_refused_naming_the_option_in_few_words(conns,
                                                                                           bystander) -> None:
    raw = conns("ninety-tables")
    for players, options, field in NINETY_BAD_TABLES:
        game = "peg-board" if (players, field) == (2, "options") else "ninety-nine"
        reply = raw.ask(pack({"type": "create_table", "id": 1, "name": "bad", "players": players, "mode": "guarded",
                              "game": game, "options": options}))
        assert_clear_error(reply, "bad-field")
        assert reply["message"].startswith(f"{field}:") and len(reply["message"]) < 300, (options, reply)
    assert raw.ask(pack({"type": "list_tables", "id": 2}))["total"] >= 0
    bystander.step()


def wait_for_turn(raw: Raw, token: str, seat: int = 0) -> dict:
    """The seat's view once it is its turn (the server's bot at the table answers at once)."""
    deadline = time.monotonic() + 5
    while True:
        view = raw.ask(pack({"type": "snapshot", "id": 1, "token": token}))["view"]
        if view["turn"] == seat or time.monotonic() > deadline:
            return view
        time.sleep(0.02)


@pytest.mark.parametrize("mode", ["guarded", "penalty"])
def test_malformed_ninety_nine_actions_are_refused_naming_the_field_and_nothing_changes(server, conns, bystander,
                                                                                        mode) -> None:
    from board99.ninety_nine.cards import words
    from board99.ninety_nine.kind import NINETY_NINE

    raw = conns(f"ninety-{mode}")

    def ask(kind: str, **fields) -> dict:
        return raw.ask(pack({"type": kind, "id": 1, **fields}))

    table = ask("create_table", name="hostile", players=2, mode=mode, game="ninety-nine",
                options={"rules": "convention"})["table"]["id"]
    token = ask("take_seat", table=table, seat=0)["token"]
    ask("add_bot", table=table, seat=1, bot="sound", token=token)
    view = wait_for_turn(raw, token)
    assert view["turn"] == 0 and view["hand"]
    card = view["hand"][0]
    other = next(c for c in ("AS", "AH", "AD", "AC", "2S", "2H") if c not in view["hand"] and c != view["top"])

    def act(action: dict) -> dict:
        return ask("act", table=table, seat=0, token=token, action=action, ply=view["ply"])

    for action, field in NINETY_BAD_FIELDS:
        if action.get("card") == HAND:
            action = {**action, "card": card}
        reply = act(action)
        assert_clear_error(reply, "bad-field")
        assert reply["message"].startswith(f"{field}:") and len(reply["message"]) < 300, (action, reply)
    # Well-formed, but not what the rules allow: the kind's own refusal, the rule in words.
    said = {"say": view["total"]} if mode == "penalty" else {}
    rules = [
        ({"type": "play", "card": other, **said}, "not-in-hand", "does not hold the"),
        ({"type": "play", "card": card, "value": 42, **said}, "bad-value", f"the {words(card)} "),
        ({"type": "draw"}, "draw-automatic" if mode == "guarded" else "no-draw-owed", "draw"),
    ]
    proper = NINETY_NINE.action_to_data(NINETY_NINE.view_from_data(view).legal_actions()[0])
    if mode == "guarded":
        rules.append(({**proper, "say": 500}, "wrong-total", "not 500"))
    else:
        rules.append(({**proper, "say": None}, "say-total", "say the new total"))
    for action, code, said_so in rules:
        reply = act(action)
        assert_clear_error(reply, code)
        assert said_so in reply["message"], (action, reply)
    # Nothing changed: the same position, the same hand, the same seq.
    after = ask("snapshot", token=token)
    assert after["view"] == view
    # A Ninety-Nine action at a peg-board table is refused as the peg-board game's, naming the field.
    pegger = conns(f"ninety-{mode}-at-peg")

    def peg_ask(kind: str, **fields) -> dict:
        return pegger.ask(pack({"type": kind, "id": 1, **fields}))

    peg = peg_ask("create_table", name="peg", players=2)["table"]["id"]
    peg_token = peg_ask("take_seat", table=peg, seat=0)["token"]
    peg_ask("add_bot", table=peg, seat=1, bot="random", token=peg_token)
    peg_view = peg_ask("snapshot", token=peg_token)["view"]
    reply = peg_ask("act", table=peg, seat=0, token=peg_token, action={"type": "play", "card": "AS", "say": 1},
                    ply=peg_view["ply"])
    assert_clear_error(reply, "bad-field")
    assert reply["message"].startswith("action.")
    bystander.step()


@pytest.mark.slow
def test_a_flood_from_one_connection_is_rate_limited_and_nobody_else_notices(
    server, conns, bystander, server_log
) -> None:
    flood, other = conns("flood"), conns("patient")
    ping = pack({"type": "ping", "id": 1})
    replies = []
    for _ in range(20):  # 8,000 pings, read as they come (what the server queues for a reader is bounded)
        for _ in range(400):
            flood.send(ping)
        replies += flood.collect(400, timeout=0.01)
    started = time.monotonic()
    reply = other.ask(pack({"type": "ping", "id": 5}), timeout=5.0)
    assert reply["type"] == "reply" and reply["id"] == 5 and time.monotonic() - started < 5.0
    replies += flood.collect(8000, timeout=1.0)
    limited = [r for r in replies if r["type"] == "error"]
    assert limited and all(r["code"] == "rate-limited" for r in limited)
    assert "messages a second" in limited[0]["message"]
    assert len(replies) - len(limited) < 8000  # some pings were dropped, not queued without end
    assert server_log.count("event=rate-limited") >= 1
    time.sleep(0.05)  # the bucket refills at the sustained rate
    assert flood.ask(pack({"type": "ping", "id": 6}))["id"] == 6
    bystander.step()


@pytest.mark.slow
def test_random_lobby_and_play_requests_on_real_tables_never_fail_the_server(server, conns, bystander) -> None:
    """Three connections make 1,500 random but well-formed requests with real table ids and tokens."""
    import random

    rng = random.Random(99)
    players = [conns(f"walker{i}") for i in range(3)]
    tables: list[str] = []
    tokens: list[tuple[str, int, str]] = []
    codes: dict[str, int] = {}
    mine: dict[int, tuple[str, int, str]] = {}  # the seat each connection last took
    accepted = 0
    for n in range(1500):
        who = rng.randrange(len(players))
        raw = players[who]
        table = rng.choice(tables) if tables and rng.random() < 0.9 else "nosuch00"
        seat = rng.randrange(6)
        if who in mine and rng.random() < 0.7:
            token = mine[who]
        else:
            token = rng.choice(tokens) if tokens else (table, seat, "ab" * 16)
        action = rng.choice([{"type": "draw"}, {"type": "discard", "card": rng.randrange(100)},
                             {"type": "play", "card": rng.randrange(100), "square": rng.randrange(100)}])
        options = [
            ("create_table", {"name": f"walk{n}", "players": rng.choice((2, 2, 3, 4, 6)),
                              "mode": rng.choice(("guarded", "penalty", "penalty")), "grace": 0.0}),
            ("take_seat", {"table": table, "seat": seat, "colour": rng.choice((None, "red", "blue", "green"))}),
            ("add_bot", {"table": table, "seat": seat, "bot": "random"}),
            ("spectate", {"table": table}),
            ("resume", {"table": token[0], "seat": token[1], "token": token[2]}),
            ("act", {"table": token[0], "seat": token[1], "token": token[2], "action": action,
                     "ply": SEEN_PLY.get(token[0], 0)}),
            ("act", {"table": token[0], "seat": token[1], "token": token[2], "action": {"type": "draw"},
                     "ply": SEEN_PLY.get(token[0], 0)}),
            ("leave", {}), ("rematch", {}), ("snapshot", {}), ("list_tables", {}),
            ("fetch_record", {"table": table}),
        ]
        # Weighted towards seating and playing, so that games start and actions reach the engine.
        kind, fields = rng.choices(options, weights=[1, 3, 4, 1, 1, 4, 4, 1, 1, 1, 1, 1])[0]
        if kind == "create_table" and len(tables) >= 4:
            kind, fields = "list_tables", {}
        reply = raw.ask(pack({"type": kind, "id": n, **{k: v for k, v in fields.items() if v is not None}}))
        assert reply["id"] == n
        if reply["type"] == "error":
            assert_clear_error(reply)
            codes[reply["code"]] = codes.get(reply["code"], 0) + 1
        elif kind == "create_table":
            tables.append(reply["table"]["id"])
        elif kind == "take_seat":
            tokens.append((table, seat, reply["token"]))
            mine[who] = tokens[-1]
        elif kind == "act":
            accepted += 1
        if kind == "leave":
            mine.pop(who, None)
    # The walk reached the interesting places, not only the front door.
    assert tokens and accepted and {"seat-taken", "already-seated", "bad-token"} <= set(codes)
    bystander.step()


def random_ninety_action(rng, hand: list[str]) -> dict:
    """A well-formed Ninety-Nine action, proper or not: a card held or any card, any value, any total said."""
    from board99.ninety_nine.cards import CARDS

    if rng.random() < 0.2:
        return {"type": "draw"}
    card = rng.choice(hand) if hand and rng.random() < 0.8 else rng.choice(sorted(CARDS))
    action: dict = {"type": "play", "card": card}
    if rng.random() < 0.5:
        action["value"] = rng.choice((1, 11, 14, 10, -10, 0, 5, 999, -999))
    if rng.random() < 0.8:
        action["say"] = rng.randrange(-20, 120)
    if rng.random() < 0.3:
        action["draw"] = rng.random() < 0.5
    return action


@pytest.mark.slow
def test_random_play_at_ninety_nine_tables_never_fails_the_server(server, conns, bystander) -> None:
    """Three connections, each at a Ninety-Nine table of its own against a server bot, make 1,500 random
    well-formed requests with their real tokens: proper and improper actions, rematches, leaving, history."""
    import random

    from board99.ninety_nine.kind import NINETY_NINE

    rng = random.Random(21)
    players = [conns(f"ninety-walker{i}") for i in range(3)]
    tables: list[str] = []
    seats: dict[int, tuple[str, int, str]] = {}  # connection -> the seat it holds
    hands: dict[int, list[str]] = {}
    codes: dict[str, int] = {}
    accepted = 0

    def ask(raw: Raw, kind: str, n: int, **fields) -> dict:
        reply = raw.ask(pack({"type": kind, "id": n, **fields}))
        assert reply["id"] == n
        view = reply.get("view")
        if isinstance(view, dict) and view.get("hand") is not None:
            NINETY_NINE.view_from_data(view)  # every view the server sends is one the client accepts
        if reply["type"] == "error":
            assert_clear_error(reply)
            codes[reply["code"]] = codes.get(reply["code"], 0) + 1
        return reply

    for who, raw in enumerate(players):
        rules = ("glengariff", "convention", "tokens")[who]
        table = ask(raw, "create_table", 0, name=f"walk{who}", players=2, mode=("penalty", "guarded")[who % 2],
                    game="ninety-nine", options={"rules": rules})["table"]["id"]
        tables.append(table)
        seats[who] = (table, 0, ask(raw, "take_seat", 0, table=table, seat=0)["token"])
        ask(raw, "add_bot", 0, table=table, seat=1, bot="sound", token=seats[who][2])
    for n in range(1, 1500):
        who = rng.randrange(len(players))
        raw = players[who]
        held = seats.get(who)
        if held is None:
            table = tables[who]
            reply = ask(raw, "take_seat", n, table=table, seat=rng.randrange(2))
            if reply["type"] == "reply":
                seats[who] = (table, reply["seat"], reply["token"])
            continue
        snap = ask(raw, "snapshot", n, token=held[2])
        view = snap.get("view") or {}
        hands[who] = view.get("hand") or []
        if view.get("winner") is not None:
            ask(raw, "rematch", n, token=held[2])  # the next game (too-often once the quota is spent)
            continue
        proper = NINETY_NINE.view_from_data(view).legal_actions() if view.get("hand") is not None else []
        if proper and rng.random() < 0.6:  # half the time a proper action, so that games go deep
            action = NINETY_NINE.action_to_data(rng.choice(proper))
            if ask(raw, "act", n, table=held[0], seat=held[1], token=held[2], action=action,
                   ply=view["ply"])["type"] == "reply":
                accepted += 1
            continue
        kind, fields = rng.choices([
            ("act", {"table": held[0], "seat": held[1], "token": held[2],
                     "action": random_ninety_action(rng, hands[who]), "ply": view.get("ply", 0)}),
            ("history", {}), ("leave", {"token": held[2]}),
            ("take_seat", {"table": rng.choice(tables), "seat": rng.randrange(2)}),
            ("add_bot", {"table": rng.choice(tables), "seat": rng.randrange(2), "bot": "random", "token": held[2]}),
        ], weights=[40, 1, 1, 1, 1])[0]
        reply = ask(raw, kind, n, **fields)
        if kind == "act" and reply["type"] == "reply":
            accepted += 1
        if kind == "leave" and reply["type"] == "reply":
            seats.pop(who, None)
    # The walk reached the engine's refusals and carried actions out, not only the front door; and no game
    # was left with nobody to act (a game its deal decided was once never finished: 'not-over' to a rematch).
    assert accepted > 100 and {"not-in-hand", "bad-value", "wrong-total", "no-draw-owed"} <= set(codes), codes
    assert "not-over" not in codes, codes
    bystander.step()


@pytest.mark.slow
def test_a_socket_that_names_itself_is_never_served(tmp_path, ctx) -> None:
    """A DEALER may pick its own routing id, and so could claim a departed holder's: such sockets get nothing."""
    handle = run_in_thread(0, tmp_path, lost_after=0.5)
    try:
        with GameClient(handle.endpoint, timeout=5.0) as host:
            table = host.create_table("t", 2).id
            host.take_seat(table, 0)
            host.add_bot(table, 1, "random")
            for name in (b"holder", b"\x00abcdef", b"\x00" * 5 + b"x", b"\x01kL\x8bE"):
                named = Raw(ctx, handle.endpoint, name)
                for rid, kind, fields in [(1, "hello", {"version": 1}), (2, "spectate", {"table": table}),
                                          (3, "snapshot", {}), (4, "take_seat", {"table": table, "seat": 1})]:
                    reply = named.ask(pack({"type": kind, "id": rid, **fields}))
                    assert reply["type"] == "error" and reply["code"] == "bad-identity" and reply["id"] == rid
                    assert "view" not in reply
                assert named.recv(0.3) is None  # and no push of the table ever comes its way
            host.poll(0.1)
            assert host.table.state == "playing" and host.table.seats[0].connected
    finally:
        handle.stop()


# -- the other way round: a client fed garbage ------------------------------------------------------------


GARBAGE_FROM_SERVER = [
    b"\xc1", b"", b"\x91" * 60_000 + b"\xc0", pack([1, 2]), pack(5), pack({"type": 7}),
    pack({"type": "update", "seq": "x", "table": None}), pack({"type": "update", "seq": True, "view": 3}),
    pack({"type": "reply", "id": "x"}), pack({"type": "error", "id": None, "code": 5}),
    pack({"no": "type"}), b"\xdb\xff\xff\xff\xff",
]


def test_a_client_fed_garbage_by_a_fake_server_ignores_it(ctx) -> None:
    """Anyone on the LAN can answer a beacon's listener: a broken or hostile server must not crash a client."""
    fake = ctx.socket(zmq.ROUTER)
    port = fake.bind_to_random_port("tcp://127.0.0.1")
    client = GameClient(f"tcp://127.0.0.1:{port}", timeout=1.0)
    try:
        deadline = time.monotonic() + 5.0
        while not fake.poll(0) and time.monotonic() < deadline:
            client.poll(0.1)  # the client says hello, or pings, once its link is up
        ident, _hello = fake.recv_multipart(zmq.NOBLOCK)
        for frame in GARBAGE_FROM_SERVER:
            fake.send_multipart([ident, frame])
        out = client.poll(0.5)
        assert all(isinstance(m, dict) and isinstance(m.get("type"), str) for m in out)
        assert client.view is None and client.table is None
    finally:
        client.close()
        fake.close(0)


# -- afterwards --------------------------------------------------------------------------------------------


def test_after_the_fuzzing_the_server_answers_and_a_normal_game_completes(server, conns, bystander,
                                                                        server_log) -> None:
    assert server.thread.is_alive()
    assert conns("after").ask(pack({"type": "ping", "id": 1}))["type"] == "reply"
    # The bystander's game went on undisturbed: no error, no gap to resync, every update in order.
    view = play_bot(bystander.client, bystander.bot, until=time.monotonic() + 30)
    assert view is not None and view.winner is not None
    assert bystander.actions > 0
    assert [m for m in bystander.received if m["type"] == "error"] == []
    assert [m for m in bystander.polled if m["type"] in ("snapshot", "restarted")] == []
    assert [m for m in bystander.polled if m["type"] == "connection" and not m["connected"]] == []
    # A fresh 4-player penalty game: a remote client and three server bots play it to the end.
    with GameClient(server.endpoint, name="after", timeout=5.0) as client:
        table = client.create_table("after the storm", 4, mode="penalty")
        client.take_seat(table.id, 0, "red")
        for seat in (1, 2, 3):
            client.add_bot(table.id, seat, "random")
        view = play_bot(client, make_bot("random", seed=5), until=time.monotonic() + 30)
        assert view is not None and view.winner is not None
        assert "wins by" in client.fetch_record(table.id)
    # Refusals were logged, a few a second per connection at most (the rest counted in a summary line),
    # and no request made the server fail.
    assert server_log.count("event=error ") >= 100
    assert server_log.count("event=internal-error") == 0
