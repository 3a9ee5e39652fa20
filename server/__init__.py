"""The board99 LAN game server (import name ``board99.server``).

A core without sockets (``core``: the request handlers, play, presence and
timers over the lobby and the SQLite journal), the thin ZeroMQ loop around it
(``loop``) and the command-line start-up (``serve``). Start one with
`board99 serve`, or in-process with ``board99.server.loop.run_in_thread()``;
see docs/server.md and docs/protocol.md.
"""
