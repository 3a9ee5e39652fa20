"""The servers this player has used, kept in the config folder, and how found servers are ordered by them.

Discovery hears anyone on the LAN: a beacon's name is whatever its sender wrote ("!den" sorts before
"den"), and its source address can be forged. So the lobby lists first the servers the player has
reason to trust: one whose CurveZMQ key the player pinned (``board99 join --key``), or one at the
address (and with the key, if it had one) where the player played before. Those are marked, kept
whatever else is heard (``client.discovery``), and never pushed out of view by strangers.

The file, ``servers.json`` beside the settings, holds at most ``MOST_KNOWN`` servers, the most
recently used; a missing or unreadable file is an empty list (it only orders a list).
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Any

from .player_key import config_dir

log = logging.getLogger(__name__)

KNOWN_FILE = "servers.json"
#: Servers remembered; the least recently used goes first.
MOST_KNOWN = 20
#: Marks shown before a found server's name, by why it is trusted.
PINNED, USED = "pinned", "used"


def known_path() -> Path:
    """Where the list lives: in the config folder, beside the player's keys (player_key.config_dir)."""
    return config_dir() / KNOWN_FILE


def load(path: Path | None = None) -> list[dict[str, Any]]:
    """The servers used before, most recent first: ``{"name", "host", "port", "key", "used"}`` (never raises)."""
    path = path or known_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        log.warning("known servers: %s is unreadable (%s); starting a new list", path, exc)
        return []
    out = []
    for entry in data if isinstance(data, list) else []:
        if (isinstance(entry, dict) and isinstance(entry.get("host"), str) and type(entry.get("port")) is int
                and (entry.get("key") is None or isinstance(entry.get("key"), str))):
            out.append({"name": str(entry.get("name") or entry["host"])[:64], "host": entry["host"],
                        "port": entry["port"], "key": entry.get("key"), "used": float(entry.get("used") or 0)})
    return out[:MOST_KNOWN]


def remember(host: str, port: int, key: str | None, name: str, path: Path | None = None) -> None:
    """Note that the player reached the server at ``host:port`` (with ``key``, if it has one)."""
    path = path or known_path()
    kept = [e for e in load(path) if (e["host"], e["port"]) != (host, port)]
    entries = [{"name": name, "host": host, "port": port, "key": key, "used": time.time()}, *kept][:MOST_KNOWN]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(entries, indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:  # a read-only home must not stop the game
        log.warning("known servers: cannot write %s (%s)", path, exc)


def mark(server: dict[str, Any], known: list[dict[str, Any]], pinned: str | None) -> str | None:
    """Why ``server`` (a found one) is trusted: PINNED (its key is the one given), USED (played there), or None.

    A server used before counts only at the same address, and with the same key if it had one: a
    beacon that copies a known name, or a known key from another address, is a stranger.

    >>> known = [{"host": "10.0.0.5", "port": 9099, "key": None}]
    >>> mark({"host": "10.0.0.5", "port": 9099, "key": None}, known, None)
    'used'
    >>> mark({"host": "10.0.0.9", "port": 9099, "key": None}, known, None) is None
    True
    """
    if pinned is not None and server.get("key") == pinned:
        return PINNED
    for entry in known:
        if (entry["host"], entry["port"]) == (server.get("host"), server.get("port")) and (
                entry.get("key") is None or entry.get("key") == server.get("key")):
            return USED
    return None


def arrange(found: list[dict[str, Any]], known: list[dict[str, Any]], pinned: str | None) -> list[dict[str, Any]]:
    """The found servers, each with its ``mark``: the trusted first (pinned, then used), then the rest by name."""
    marked = [{**server, "mark": mark(server, known, pinned)} for server in found]
    rank = {PINNED: 0, USED: 1, None: 2}
    return sorted(marked, key=lambda s: (rank[s["mark"]], s.get("name", ""), s.get("host", ""), s.get("port", 0)))
