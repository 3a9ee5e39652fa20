"""board99.wire: what the server and its clients share, and nothing else.

The protocol version, request checks and error codes (``protocol``), every
reply's and push's fields and their checks (``replies``), CurveZMQ key
handling (``curve``) and the LAN discovery beacon's format (``beacon``).
Both ends import this package; it imports neither end (a test checks it), only
the rules engine's public names where a rule decides a field's range.
See docs/protocol.md.
"""
