"""The player key: a secret kept in the player's own config folder that lets a server recognise them.

Made on first start (256 random bits, 64 hex digits) in a file only its owner
may read. The server keeps only its SHA-256 (docs/server.md, *Players*). Losing
the file loses the name on every server that knew it; copying it to another
machine takes the name along.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from board99.wire.protocol import PLAYER_KEY_BYTES

KEY_FILE = "player.key"


def key_path() -> Path:
    """Where the key lives: beside the settings file ($BOARD99_CONFIG's folder in tests), else the config folder."""
    override = os.environ.get("BOARD99_CONFIG")
    if override:
        return Path(override).parent / KEY_FILE
    import platformdirs

    return Path(platformdirs.user_config_dir("board99")) / KEY_FILE


def load_or_create(path: Path | None = None) -> str:
    """The player's key, made (and written readable by its owner only) if there is none yet.

    ValueError names the file if it exists but holds no key (it is never overwritten: it may be
    someone's only copy of their name).
    """
    path = path or key_path()
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return _create(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: the player key cannot be read ({exc})") from None
    if len(text) != 2 * PLAYER_KEY_BYTES or any(c not in "0123456789abcdef" for c in text):
        raise ValueError(f"{path}: not a player key (64 hex digits); move it away to make a new one")
    with contextlib.suppress(OSError):
        path.chmod(0o600)  # a key copied in by hand may have been left readable by others
    return text


def _create(path: Path) -> str:
    key = secrets.token_hex(PLAYER_KEY_BYTES)
    path.parent.mkdir(parents=True, exist_ok=True)
    # O_EXCL: two windows starting at once cannot both write a key; the second reads the first's.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return load_or_create(path)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key + "\n")
    return key
