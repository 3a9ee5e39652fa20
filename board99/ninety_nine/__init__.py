"""Ninety-Nine, the counting card game of the seed documents, as a board99 game kind (issue 21).

Pure rules, no I/O: cards and the deck (``cards``), the four rule sets and the
house options (``rules``), actions (``actions``), events and what each seat
sees of them (``events``), the game (``game``), a seat's view (``view``), text
records (``record``), bots (``bots``) and the ``GameKind`` (``kind``).
docs/ninety-nine.md sets the four rule sets side by side with their sources.

The kind is in the default registry: ``board99.kinds.GAMES`` imports ``kind``, which registers it.
"""
