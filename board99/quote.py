"""A value someone sent, quoted short for an error message: never its whole length, never its whole depth."""

from __future__ import annotations

import reprlib

_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother = 3, 40, 40
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 4


def quote(value: object, width: int = 40) -> str:
    """``value`` as repr would show it, cut to ``width`` characters.

    reprlib, not repr(): a value nested a thousand lists deep (or a megabyte long) is quoted in a few
    dozen characters instead of raising RecursionError.

    >>> quote([[[[[1]]]]])
    '[[[[...]]]]'
    >>> quote("x" * 100, width=12)
    "'xxxxxxxx..."
    """
    shown = _SHORT.repr(value)
    return shown if len(shown) <= width else shown[:width - 3] + "..."
