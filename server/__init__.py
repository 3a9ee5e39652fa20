"""The board99 LAN game server: ZeroMQ ROUTER loop (app), lobby and tables, SQLite journal, wire protocol.

Start one with `board99 serve`, or in-process with ``server.app.run_in_thread()``;
see docs/server.md and docs/protocol.md.
"""
