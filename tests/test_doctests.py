"""The examples in docstrings run: every module of the installed package, by its import name."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import board99

#: Every package of the one import name (the mapped folders have their own paths).
PACKAGES = ("board99", "board99.bots", "board99.lessons", "board99.wire", "board99.server", "board99.client", "board99.client.gui")


def modules() -> list[str]:
    """Every module's import name, from each package's own path."""
    names = []
    for package in PACKAGES:
        names.append(package)
        path = importlib.import_module(package).__path__
        names += [f"{package}.{m.name}" for m in pkgutil.iter_modules(path) if not m.ispkg]
    return sorted(set(names))


@pytest.mark.parametrize("name", modules())
def test_the_docstring_examples_of_each_module_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"


def test_the_engine_has_examples() -> None:
    # The rules model documents itself by example (STYLE.md); this suite must not pass by finding none.
    attempted = sum(doctest.testmod(importlib.import_module(n)).attempted for n in modules() if n.startswith("board99."))
    assert attempted >= 20 and board99.__doc__ and ">>>" in board99.__doc__
