"""``act``'s one-step check (wire.protocol._act_at_once) answers exactly as the field-by-field check does."""

from __future__ import annotations

from typing import Any

import pytest

from board99.wire import protocol
from board99.wire.protocol import ProtocolError, check_request

GOOD = {"type": "act", "id": 5, "table": "t1234567", "seat": 1, "token": "ab" * 16,
        "action": {"kind": "draw"}, "ply": 3}
ODD: list[Any] = [None, True, False, 0, -1, 1, 5, 6, 1 << 62, (1 << 62) + 1, 1.0, "", " ", "\t\n", "x", "x" * 16,
                  "x" * 17, "y" * 64, "y" * 65, " a ", {}, {"kind": "draw"}, [], b"t"]


def answer(msg: dict[str, Any]) -> tuple[str, Any]:
    try:
        return ("ok", check_request(msg))
    except ProtocolError as exc:
        return (exc.code, exc.message)


def messages() -> list[dict[str, Any]]:
    out = [dict(GOOD)]
    for field in ("table", "seat", "token", "action", "ply"):
        out.append({k: v for k, v in GOOD.items() if k != field})  # missing
        out.extend({**GOOD, field: value} for value in ODD)
    out.append({**GOOD, "extra": 1})
    out.append({k: v for k, v in GOOD.items() if k != "ply"} | {"extra": 1})  # seven keys, one not a field
    out.append({**GOOD, "id": "7"})
    return out


@pytest.mark.parametrize("msg", messages(), ids=lambda m: repr(m)[:60])
def test_the_one_step_check_of_act_answers_as_the_field_by_field_check(msg, monkeypatch):
    quick = answer(msg)
    monkeypatch.setattr(protocol, "_act_at_once", lambda msg: None)
    assert quick == answer(msg)


def test_a_well_formed_act_takes_the_one_step_check():
    assert protocol._act_at_once(GOOD) == {k: GOOD[k] for k in ("table", "seat", "token", "action", "ply")}
