"""The player key: a secret kept in the player's own config folder that lets a server recognise them.

Made on first start (256 random bits, 64 hex digits) in a file only its owner
may read. The server keeps only its SHA-256 (docs/server.md, *Players*). Losing
the file loses the name on every server that knew it; copying it to another
machine takes the name along.

One key is one person: a server binds the key to the first name it hears with
it. Two people sharing a machine each have their own key, one per name
(`board99 join --as NAME`): ``players/<name>.key`` beside ``player.key``, the
key of whoever uses the window without ``--as``. ``player.name`` records the
name that key was last accepted under, so ``--as`` that name finds it again.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from board99.wire.protocol import PLAYER_KEY_BYTES

KEY_FILE = "player.key"
NAME_FILE = "player.name"  # the name player.key was last accepted under (see ``note_name``)
NAMES_DIR = "players"  # one key per name given with --as


def config_dir() -> Path:
    """The folder of the keys: the settings file's ($BOARD99_CONFIG's folder in tests), else the config folder."""
    override = os.environ.get("BOARD99_CONFIG")
    if override:
        return Path(override).parent
    import platformdirs

    return Path(platformdirs.user_config_dir("board99"))


def file_stem(name: str) -> str:
    """A file name for a player's name: the same for names a server counts as one (case), distinct otherwise.

    >>> file_stem("Ann"), file_stem("ANN"), file_stem("Ann B."), file_stem("Zoë")
    ('ann', 'ann', 'ann_20_b_2e_', 'zo_eb_')
    """
    return "".join(c if c.isascii() and c.isalnum() else f"_{ord(c):x}_" for c in name.strip().casefold())


def key_path(name: str | None = None) -> Path:
    """Where the key of ``name`` lives (None: the window's own key, ``player.key``).

    A name whose own key does not exist yet but which ``player.key`` was accepted under uses that key.
    """
    folder = config_dir()
    if name is None or not name.strip():
        return folder / KEY_FILE
    own = folder / NAMES_DIR / f"{file_stem(name)}.key"
    if not own.exists() and file_stem(noted_name(folder) or "") == file_stem(name):
        return folder / KEY_FILE
    return own


def has_key_here(name: str) -> bool:
    """Whether ``name`` has a key on this machine (``players/<name>.key``, or ``player.key`` noted as theirs)."""
    return key_path(name).exists() if name.strip() else False


def noted_name(folder: Path | None = None) -> str | None:
    """The name ``player.key`` was last accepted under, if noted."""
    try:
        return (folder or config_dir()).joinpath(NAME_FILE).read_text(encoding="utf-8").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def note_name(path: Path, name: str) -> None:
    """Note that the key at ``path`` was accepted under ``name`` (only ``player.key``'s name is kept)."""
    if path.name != KEY_FILE:
        return
    with contextlib.suppress(OSError):
        path.with_name(NAME_FILE).write_text(name + "\n", encoding="utf-8")


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
