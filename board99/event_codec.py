"""Events as plain data and back: the codec each game's events module builds on.

A game's events are NamedTuples, each with a ``kind`` (its name on the wire)
and fields. ``to_data`` writes one as a map (tuples as lists, as msgpack gives
them back); ``EventReader`` reads such a map back into the event's own class,
checking every field, and refuses anything else with a ValueError that names
the field and why (a client checks what a server sends, as it checks views).
A field annotated ``X | None`` may be None (a drawn card a reader may not see);
keys a map has beyond the event's fields are ignored (what the server adds for
people, as the penalty's rule in words), as views ignore them.

>>> from board99.events import Drew
>>> read = EventReader("GAME OF 99", {"drew": Drew}, {"seat": whole(0, 5), "card": whole(0, 99)})
>>> read(to_data(Drew(1, 42))), read({"kind": "drew", "seat": 1, "card": None})
(Drew(seat=1, card=42), Drew(seat=1, card=None))
>>> read({"kind": "drew", "seat": 1, "card": 100})
Traceback (most recent call last):
...
ValueError: event.card: expected a whole number 0-99 or none, got 100 (a 'drew' event)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .quote import quote

#: A field's check: the value as the event holds it (a list made a tuple), else ValueError saying what was expected.
Check = Callable[[object], object]


def whole(low: int, high: int) -> Check:
    """A whole number ``low``..``high`` (never a bool)."""
    def check(value: object) -> object:
        if type(value) is not int or not low <= value <= high:
            raise ValueError(f"a whole number {low}-{high}")
        return value
    return check


def whole_list(low: int, high: int, most: int) -> Check:
    """A list of at most ``most`` whole numbers ``low``..``high``, kept as a tuple."""
    one = whole(low, high)

    def check(value: object) -> object:
        if not isinstance(value, list | tuple) or len(value) > most:
            raise ValueError(f"a list of at most {most} whole numbers {low}-{high}")
        try:
            return tuple(one(v) for v in value)
        except ValueError:
            raise ValueError(f"a list of at most {most} whole numbers {low}-{high}") from None
    return check


def one_of(choices: Mapping[Any, Any] | tuple[Any, ...] | frozenset[Any], what: str) -> Check:
    """One of ``choices`` (``what`` names them for the error)."""
    def check(value: object) -> object:
        try:
            if value in choices and type(value) in (type(c) for c in choices):
                return value
        except TypeError:  # an unhashable list or map
            pass
        raise ValueError(what)
    return check


def text(most: int = 200) -> Check:
    """A string of at most ``most`` characters."""
    def check(value: object) -> object:
        if type(value) is not str or len(value) > most:
            raise ValueError(f"a text of at most {most} characters")
        return value
    return check


def flag(value: object) -> object:
    """True or False."""
    if type(value) is not bool:
        raise ValueError("true or false")
    return value


def to_data(event: Any) -> dict[str, object]:
    """The whole event as plain data: its fields and its ``kind``, tuples as lists (msgpack gives lists back)."""
    data: dict[str, object] = event._asdict()
    data["kind"] = event.kind
    for key, value in data.items():
        if type(value) is tuple:
            data[key] = list(value)
    return data


def _optional(note: object) -> bool:
    # The field's annotation as written ('int | None'): a string, or a ForwardRef holding it (NamedTuple's).
    written = str(getattr(note, "__forward_arg__", note))
    return written.replace(" ", "").endswith("|None")


class EventReader:
    """Reads one game's events from plain data: ``kinds`` maps each wire kind to its class, ``fields`` checks by name."""

    def __init__(self, game: str, kinds: Mapping[str, type], fields: Mapping[str, Check]) -> None:
        self.game = game
        self.kinds = dict(kinds)
        # (field, check, None allowed) per class, worked out once; a field without a check is a mistake
        # here, found when the module is imported rather than when an event comes.
        self._fields: dict[str, tuple[tuple[str, Check, bool], ...]] = {}
        for kind, cls in self.kinds.items():
            self._fields[kind] = tuple((name, fields[name], _optional(cls.__annotations__[name]))
                                       for name in cls._fields)  # type: ignore[attr-defined]

    def __call__(self, data: object) -> Any:
        """The event ``data`` describes; ValueError naming the field otherwise."""
        if not isinstance(data, dict):
            raise ValueError(f"event: expected a map with a 'kind' field, got {quote(data)}")
        kind = data.get("kind")
        if type(kind) is not str or kind not in self.kinds:
            raise ValueError(f"event.kind: {quote(kind)} is not an event of the {self.game} "
                             f"({', '.join(self.kinds)})")
        values: list[object] = []
        for name, check, nil in self._fields[kind]:
            if name not in data:
                raise ValueError(f"event.{name}: missing (a {kind!r} event)")
            value = data[name]
            if value is None and nil:
                values.append(None)
                continue
            try:
                values.append(check(value))
            except ValueError as exc:
                raise ValueError(f"event.{name}: expected {exc}{' or none' if nil else ''}, got {quote(value)} "
                                 f"(a {kind!r} event)") from None
        return self.kinds[kind](*values)
