"""docs/protocol.md and the code agree both ways: what the page lists is produced, and what is produced is listed.

"Produced" is read from the source itself (its syntax tree), not from the
registries in ``board99.wire.protocol``: the literal message types the server
builds and pushes, the table changes it announces, and every error code it
(or the engine, or the client library) raises. The registries are checked
against the same sets, so a code can neither be documented, nor registered,
without being used.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from board99 import CODES, kinds
from board99.ninety_nine.errors import CODES as NINETY_CODES
from board99.rulings import GUARDED_CODES
from board99.server.requests import HANDLERS
from board99.wire.protocol import CHANGES, ERRORS, REQUESTS, SERVER_MESSAGES
from board99.wire.replies import ERROR, PUSHES, REPLIES, SNAPSHOT

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


# -- what the page lists ---------------------------------------------------------------------------


def section(text: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of the same or a higher level."""
    level = heading.split(" ")[0]
    start = text.index(heading + "\n") + len(heading) + 1
    end = re.search(rf"^#{{1,{len(level)}}} ", text[start:], re.M)
    return text[start:start + end.start()] if end else text[start:]


def headings(text: str, level: str = "###") -> list[str]:
    """The backticked names of the headings ``### `name``` in ``text``."""
    return re.findall(rf"^{level} `([\w-]+)`$", text, re.M)


def table_names(text: str) -> list[str]:
    """The backticked first cells of a Markdown table's rows."""
    return re.findall(r"^\| `([\w-]+)` \|", text, re.M)


def documented_codes() -> dict[str, set[str]]:
    """Error codes by table on the page: the server's, the client library's, the engine's.

    Each table follows a paragraph that says whose codes it lists.
    """
    found: dict[str, set[str]] = {"server": set(), "client": set(), "engine": set()}
    key = None
    for line in section(PAGE, "## Error codes").splitlines():
        if line.startswith("| `"):
            assert key is not None, f"a code table with no paragraph saying whose: {line}"
            found[key].update(table_names(line))
        elif line and not line.startswith("|"):
            lower = line.lower()
            key = ("client" if "client library" in lower else "engine" if "engine" in lower
                   else "server" if "server" in lower else key)
    return found


def field_rows(text: str) -> dict[str, tuple[set[str], set[str]]]:
    """A table of messages and their fields: name -> (fields always there, fields in brackets)."""
    rows: dict[str, tuple[set[str], set[str]]] = {}
    for name, cells in re.findall(r"^\| `([\w-]+)` \| (.*) \|$", text, re.M):
        optional = set(re.findall(r"\[`(\w+)`\]", cells))
        rows[name] = (set(re.findall(r"(?<!\[)`(\w+)`(?!\])", cells)), optional)
    return rows


def schema_rows(specs: dict[str, dict]) -> dict[str, tuple[set[str], set[str]]]:
    """The same, from ``wire.replies``' schemas."""
    return {name: ({f for f, (_, required) in spec.items() if required},
                   {f for f, (_, required) in spec.items() if not required}) for name, spec in specs.items()}


# -- what the code produces ------------------------------------------------------------------------


def trees(*folders: str, skip: frozenset[Path] = frozenset()) -> list[ast.AST]:
    """The syntax trees of every module in ``folders`` but those under a folder in ``skip``."""
    return [ast.parse(p.read_text(encoding="utf-8")) for folder in folders for p in (ROOT / folder).rglob("*.py")
            if not skip & set(p.parents)]


def strings(node: ast.AST) -> set[str]:
    """The string constants ``node`` may be: a literal, or either arm of a conditional (not a passed-on value)."""
    if isinstance(node, ast.Constant) and type(node.value) is str:
        return {node.value}
    if isinstance(node, ast.IfExp):
        return strings(node.body) | strings(node.orelse)
    return set()


def calls(folders: tuple[str, ...], name: str, skip: frozenset[Path] = frozenset()) -> list[ast.Call]:
    """Every call of a function or method called ``name`` (not in the folders ``skip`` names)."""
    found = []
    for tree in trees(*folders, skip=skip):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
                if called == name:
                    found.append(node)
    return found


def arg_strings(found: list[ast.Call], index: int) -> set[str]:
    return set().union(*(strings(c.args[index]) for c in found if len(c.args) > index))


def produced_server_codes() -> set[str]:
    raised = arg_strings(calls(("server", "wire"), "ProtocolError"), 0)
    sent = arg_strings(calls(("server",), "error"), 2)  # Outbox.error(ident, rid, code, message)
    return raised | sent


def uninstalled_games() -> frozenset[Path]:
    """The game packages under board99/ whose kind is not installed (kinds.GAMES): their codes are not the page's."""
    return frozenset(p.parent for p in (ROOT / "board99").glob("*/kind.py")
                     if f"board99.{p.parent.name}.kind" not in kinds.GAMES)


def produced_engine_codes() -> set[str]:
    return arg_strings(calls(("board99",), "Refused", skip=uninstalled_games()), 0) | set(GUARDED_CODES.values())


def produced_client_codes() -> set[str]:
    return arg_strings(calls(("client",), "ServerError"), 0)


def produced_message_types() -> set[str]:
    kinds: set[str] = set()
    for tree in trees("server"):
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if isinstance(key, ast.Constant) and key.value == "type" and isinstance(value, ast.Constant):
                        kinds.add(value.value)
    return kinds | arg_strings(calls(("server",), "push"), 1)


def produced_changes() -> set[str]:
    # State.commit(t, staged, change), State.changed(t, change), State.announce(t, change), or a push's
    # literal {"change": ...}.
    found = arg_strings(calls(("server",), "commit"), 2) | arg_strings(calls(("server",), "changed"), 1)
    found |= arg_strings(calls(("server",), "announce"), 1)
    for tree in trees("server"):
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if isinstance(key, ast.Constant) and key.value == "change":
                        found |= strings(value)
    return found


# -- both ways -------------------------------------------------------------------------------------


def test_every_request_on_the_page_is_handled_and_every_handled_request_is_on_the_page() -> None:
    requests = section(PAGE, "## Requests and replies")
    assert set(headings(requests)) == set(REQUESTS) == set(HANDLERS)
    for kind, spec in REQUESTS.items():
        text = section(requests, f"### `{kind}`")
        for name in spec:
            assert f"`{name}`" in text, f"field {name!r} of {kind!r} is not on the page"


def test_every_reply_and_push_field_on_the_page_is_in_the_schemas_and_every_one_there_is_on_the_page() -> None:
    glance = section(PAGE, "## Replies and pushes, field by field")
    replies, pushes = glance.split("Errors and pushes:")
    assert field_rows(replies) == schema_rows(REPLIES)
    assert field_rows(pushes) == schema_rows({"error": ERROR, **PUSHES})
    assert set(REPLIES) == set(REQUESTS) and {"reply", "error", *PUSHES} == set(SERVER_MESSAGES)
    # Each request's own section names its reply's fields too ("snapshot fields" names the four).
    requests = section(PAGE, "## Requests and replies")
    for kind, spec in REPLIES.items():
        text = section(requests, f"### `{kind}`")
        named = set(re.findall(r"`(\w+)`", text)) | (set(SNAPSHOT) if "snapshot fields" in text else set())
        assert set(spec) <= named, f"the reply to {kind!r} has fields its section does not name: {set(spec) - named}"
    for kind, spec in PUSHES.items():
        text = section(PAGE, f"### `{kind}`")
        assert set(spec) <= set(re.findall(r"`(\w+)`", text)), f"push {kind!r}"


def test_the_field_table_parser_sees_what_is_there() -> None:
    rows = field_rows(section(PAGE, "## Replies and pushes, field by field"))
    assert rows["act"] == ({"events", "seq", "view", "state", "turn_left"}, {"table"})
    assert rows["leave"] == (set(), set())


@pytest.mark.slow
def test_every_message_the_server_sends_is_on_the_page_and_nothing_else() -> None:
    pushes = set(headings(section(PAGE, "## Pushes (server to client, no `id`)")))
    replies = set(re.findall(r"^- `(reply|error)`:", section(PAGE, "## Requests and replies"), re.M))
    assert pushes | replies == produced_message_types() == set(SERVER_MESSAGES)


@pytest.mark.slow
def test_every_table_change_on_the_page_is_announced_and_every_announced_one_is_on_the_page() -> None:
    documented = set(table_names(section(PAGE, "### `table`")))
    assert documented == produced_changes() == set(CHANGES)


@pytest.mark.slow
def test_every_error_code_on_the_page_is_raised_and_every_raised_one_is_on_the_page() -> None:
    codes = documented_codes()
    assert codes["server"] == produced_server_codes()
    assert codes["engine"] == produced_engine_codes() == set(CODES) | set(NINETY_CODES) == set(kinds.refusal_codes())
    assert codes["client"] == produced_client_codes()
    assert set(ERRORS) == codes["server"] | codes["client"]


@pytest.mark.slow
def test_the_page_parser_sees_what_is_there() -> None:
    # The parser above must not pass by finding nothing.
    codes = documented_codes()
    assert {"bad-field", "stale", "internal"} <= codes["server"]
    assert {"occupied", "hand-full"} <= codes["engine"] and "timeout" in codes["client"]
    assert "started" in table_names(section(PAGE, "### `table`"))
    assert "over" not in produced_changes()  # a game's end is an `update`, not a table change
