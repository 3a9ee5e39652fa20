"""The window's pure modules stay pure, and the lobby's tabs do not import the lobby's view (no import circle)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GUI = Path(__file__).resolve().parent.parent / "client" / "gui"


def imported(module: str) -> set[str]:
    """Every module ``client/gui/<module>.py`` imports, anywhere in it (also under TYPE_CHECKING or in a function)."""
    tree = ast.parse((GUI / f"{module}.py").read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("." * node.level + (node.module or ""))
    return names


@pytest.mark.parametrize("module", ["lobby_panels", "lobby_form"])
def test_the_lobbys_tabs_and_form_do_not_import_the_lobby_view(module):
    assert not {name for name in imported(module) if name.endswith("lobby_view")}


@pytest.mark.parametrize("module", ["lobby_model", "table_state", "table_talk", "table_recent", "table_clock",
                                    "table_endings"])
def test_the_models_import_no_arcade(module):
    assert not {name for name in imported(module) if name.split(".")[0] in ("arcade", "pyglet")}
