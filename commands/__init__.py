"""The `board99` command (import name ``board99.commands``): the layer above the rules, the wire, the server and
the client, which it composes; nothing below imports it (docs/architecture.md).

One module per family of subcommands; ``parser`` builds the argument parser and
runs the one asked for, importing only that family's module.
"""

from .parser import build_parser, main

__all__ = ["build_parser", "main"]
