"""The parts a scene is made of (docs/web.md, *Scenes*): plain maps the page draws, built in one place.

Every control has a stable ``id``, a visible ``label`` and an accessible ``name``; a
control shown disabled carries ``why`` (the page shows it when the control is pressed
or focused). The page decides nothing: what a press means is the server's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Any

_ID = itemgetter("id")
#: The tones a line is said in (the window's table_talk.Tone).
TONES = ("plain", "good", "warn", "bad")


def text(id: str, words: str, tone: str = "plain", role: str = "para", side: bool = False) -> dict:
    """A line or paragraph: ``role`` heading, para or status (a status is read out when it changes)."""
    return _side({"type": "text", "id": id, "text": words, "tone": tone, "role": role}, side)


def button(id: str, label: str, name: str | None = None, enabled: bool = True, why: str | None = None,
           primary: bool = False) -> dict:
    """One button item (of a ``buttons`` row, a table card or a dialog)."""
    return {"id": id, "label": label, "name": name or label, "enabled": enabled,
            "why": None if enabled else why, "primary": primary}


def buttons(id: str, label: str, items: Sequence[dict], side: bool = False) -> dict:
    """A row of buttons under a label (read by a screen reader as a group)."""
    return _side({"type": "buttons", "id": id, "label": label, "items": list(items)}, side)


def cell(id: str, label: str, name: str, peg: str | None = None, lit: bool = False, last: bool = False,
         enabled: bool = True, why: str | None = None) -> dict:
    """One square of a grid."""
    return {"id": id, "label": label, "name": name, "peg": peg, "lit": lit, "last": last, "enabled": enabled,
            "why": None if enabled else why}


def grid(id: str, label: str, cells: Sequence[dict], cols: int) -> dict:
    """A board of ``cols`` columns, its cells row by row from the top."""
    return {"type": "grid", "id": id, "label": label, "cols": cols, "cells": list(cells)}


def card(id: str, label: str, name: str, face: str, suit: str | None = None, selected: bool = False,
         enabled: bool = True, why: str | None = None, detail: str | None = None) -> dict:
    """One card of a hand (a peg card's number, or a playing card's rank and suit)."""
    return {"id": id, "label": label, "name": name, "face": face, "suit": suit, "selected": selected,
            "enabled": enabled, "why": None if enabled else why, "detail": detail}


def cards(id: str, label: str, items: Sequence[dict]) -> dict:
    """A hand of cards."""
    return {"type": "cards", "id": id, "label": label, "items": list(items)}


def seat(name: str, colour: str | None, turn: bool, you: bool, detail: str) -> dict:
    """One seat at the table: who, their colour, whether it is their turn, whether it is the guest's own."""
    return {"name": name, "colour": colour, "turn": turn, "you": you, "detail": detail}


def seats(id: str, items: Sequence[dict], side: bool = True) -> dict:
    """The seats around the table."""
    return _side({"type": "seats", "id": id, "items": list(items)}, side)


def listing(id: str, label: str, items: Iterable[str], side: bool = False) -> dict:
    """A list of lines (since your turn, the log, rules lines); blank lines are dropped."""
    return _side({"type": "list", "id": id, "label": label, "items": [i for i in items if i.strip()]}, side)


def clock(id: str, seconds: float | None, label: str, side: bool = True) -> dict:
    """The turn clock: seconds left (the page counts down from it), None when no clock runs."""
    return _side({"type": "clock", "id": id, "seconds": None if seconds is None else round(seconds, 1),
                  "label": label}, side)


def choice(value: str, label: str) -> dict:
    """One choice of a select field."""
    return {"value": value, "label": label}


def select(id: str, label: str, value: str, choices: Sequence[dict]) -> dict:
    """A field that takes one of ``choices``."""
    return {"id": id, "label": label, "kind": "select", "value": value, "choices": list(choices), "max": None}


def entry(id: str, label: str, value: str, most: int) -> dict:
    """A text field of at most ``most`` characters."""
    return {"id": id, "label": label, "kind": "text", "value": value, "choices": [], "max": most}


def form(id: str, label: str, fields: Sequence[dict], submit: dict) -> dict:
    """A form: its fields' values come back with the press of its ``submit`` button."""
    return {"type": "form", "id": id, "label": label, "fields": list(fields), "submit": submit}


def table_card(id: str, title: str, lines: Sequence[str], items: Sequence[dict]) -> dict:
    """One table's card in the lobby (a blank line is dropped: the page would draw an empty row)."""
    return {"id": id, "title": title, "lines": [line for line in lines if line.strip()], "buttons": list(items)}


def tables(id: str, items: Sequence[dict]) -> dict:
    """The lobby's table cards."""
    return {"type": "tables", "id": id, "items": list(items)}


def dialog(id: str, title: str, words: str, items: Sequence[dict]) -> dict:
    """A box over the screen (a question, the end of a game or a match)."""
    return {"type": "dialog", "id": id, "title": title, "text": words, "buttons": list(items)}


def total(id: str, value: int, label: str) -> dict:
    """A running total drawn large."""
    return {"type": "total", "id": id, "value": value, "label": label}


#: The parts' types that hold controls (``controls`` finds none in any other).
WITH_CONTROLS = frozenset({"buttons", "cards", "dialog", "grid", "form", "tables"})


def controls(parts: Iterable[dict]) -> dict[str, dict]:
    """Every control of these parts by id (buttons, squares, cards, form submits): what a page may press."""
    found: dict[str, dict] = {}
    for part in parts:
        kind = part.get("type")
        items: list[Any] = []
        if kind in ("buttons", "cards", "dialog"):
            items = part.get("items", part.get("buttons", []))
        elif kind == "grid":
            # A board's 100 squares: taken at C speed (every scene whose board changed reads them).
            cells = part["cells"]
            found.update(zip(map(_ID, cells), cells))
            continue
        elif kind == "form":
            items = [part["submit"]]
        elif kind == "tables":
            items = [b for card_ in part["items"] for b in card_["buttons"]]
        for item in items:
            found[item["id"]] = item
    return found


def form_fields(parts: Iterable[dict], submit: str) -> dict[str, dict] | None:
    """The fields of the form whose submit button is ``submit``, by id (None: no such form)."""
    for part in parts:
        if part.get("type") == "form" and part["submit"]["id"] == submit:
            return {f["id"]: f for f in part["fields"]}
    return None


def _side(part: dict, side: bool) -> dict:
    if side:
        part["side"] = True
    return part
