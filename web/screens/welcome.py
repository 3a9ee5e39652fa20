"""The first screen a web guest sees: their name (the page keeps it, and the player key, in the browser)."""

from __future__ import annotations

from board99.wire.protocol import NAME_MAX

from . import parts

#: The welcome form's submit button and its one field.
SUBMIT, NAME = "enter", "name"


def scene(name: str = "", why: str = "") -> dict:
    """The welcome scene: a name field and the button that goes to the lobby (``why``: the last refusal)."""
    out = [
        parts.text("welcome", "Welcome to board99", role="heading"),
        parts.text("about", "Play the GAME OF 99 and Ninety-Nine with the people here, in this browser. "
                            "Pick the name the others will see."),
        parts.form("hello", "Your name", [parts.entry(NAME, "Your name", name, NAME_MAX)],
                   parts.button(SUBMIT, "Enter the lobby", "Enter the lobby with this name", primary=True)),
    ]
    if why:
        out.append(parts.text("why", why, "bad", "status"))
    return {"screen": "welcome", "title": "board99", "turn": False,
            "headline": {"text": "Pick a name", "tone": "plain"}, "keys": [], "parts": out}
