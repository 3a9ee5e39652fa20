"""The examples in docstrings run: one test per docstring that has examples, by its import name.

Only docstrings with `>>>` examples are collected (found in the source, so collecting imports nothing):
a module without examples would pass on any code that imports, and proves nothing.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import board99

#: Every package of the one import name (the mapped folders have their own paths).
PACKAGES = ("board99", "board99.bots", "board99.lessons", "board99.ninety_nine", "board99.wire", "board99.server", "board99.client", "board99.client.gui",
            "board99.commands")


def modules() -> list[str]:
    """Every module's import name, from each package's own path."""
    names = []
    for package in PACKAGES:
        names.append(package)
        path = importlib.import_module(package).__path__
        names += [f"{package}.{m.name}" for m in pkgutil.iter_modules(path) if not m.ispkg]
    return sorted(set(names))


def _docstrings(node: ast.AST, prefix: str) -> list[tuple[str, str]]:
    """(doctest name, docstring) of the node and every class and function inside it, as doctest names them."""
    found = []
    doc = ast.get_docstring(node, clean=False) if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                                              | ast.AsyncFunctionDef) else None
    if doc:
        found.append((prefix, doc))
    for child in getattr(node, "body", []):
        if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            found += _docstrings(child, f"{prefix}.{child.name}")
    return found


def examples() -> list[tuple[str, str]]:
    """(module, doctest name) of every docstring in the package with at least one `>>>` example."""
    items = []
    for name in modules():
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, name
        with open(spec.origin, encoding="utf-8") as source:
            tree = ast.parse(source.read())
        items += [(name, test) for test, doc in _docstrings(tree, name) if ">>>" in doc]
    return items


EXAMPLES = examples()


def test_docstrings_with_examples_are_found() -> None:
    # This file must not pass by finding none: the rules model documents itself by example (STYLE.md).
    assert len(EXAMPLES) > 0
    assert board99.__doc__ and ">>>" in board99.__doc__
    assert ("board99", "board99") in EXAMPLES


@pytest.mark.parametrize(("module", "name"), EXAMPLES, ids=[name for _, name in EXAMPLES])
def test_the_examples_of_each_docstring_hold(module: str, name: str) -> None:
    tests = {t.name: t for t in doctest.DocTestFinder().find(importlib.import_module(module))}
    assert name in tests, f"{name}: its docstring has examples in the source but doctest does not find it"
    test = tests[name]
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    result = runner.run(test)
    assert result.attempted > 0, f"{name}: no example ran"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
