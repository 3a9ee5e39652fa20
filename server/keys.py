"""The server's CurveZMQ key pair, kept in its data directory (`board99 serve --curve`).

The key pair lives there as two Z85 text files (40 characters and a newline),
``curve_secret.key`` and ``curve_public.key``, both created with mode 0600.
How keys are checked and sockets set up is shared with the client
(``board99.wire.curve``).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from board99.wire.curve import KeyPair, new_key_pair, parse_key, public_of, require_curve

log = logging.getLogger("board99.keys")

SECRET_FILE = "curve_secret.key"
PUBLIC_FILE = "curve_public.key"


def _write_private(path: Path, data: bytes) -> None:
    # Created 0600 from the start (never world-readable, even for an instant), then moved into place.
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, data + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def load(data_dir: str | os.PathLike) -> KeyPair:
    """The key pair saved in ``data_dir``; FileNotFoundError if there is none, ValueError if damaged."""
    folder = Path(data_dir)
    secret_path = folder / SECRET_FILE
    secret = parse_key(secret_path.read_bytes(), f"{secret_path}")
    mode = secret_path.stat().st_mode & 0o777
    if mode & 0o077:
        # Like ssh, a secret others can read is a fault; tighten it and say so.
        log.warning("event=key-permissions path=%s mode=%o action=chmod-600", secret_path, mode)
        secret_path.chmod(0o600)
    public = public_of(secret)
    public_path = folder / PUBLIC_FILE
    if not public_path.exists() or public_path.read_bytes().strip() != public:
        # The public half is derived from the secret one; the file is only for people to read.
        _write_private(public_path, public)
    return KeyPair(public, secret)


def load_or_create(data_dir: str | os.PathLike) -> KeyPair:
    """The server's key pair from ``data_dir``, made and saved there on first use."""
    require_curve()
    folder = Path(data_dir)
    try:
        return load(folder)
    except FileNotFoundError:
        pass
    folder.mkdir(parents=True, exist_ok=True)
    keys = new_key_pair()
    _write_private(folder / SECRET_FILE, keys.secret)
    _write_private(folder / PUBLIC_FILE, keys.public)
    log.info("event=key-created dir=%s public=%s", folder, keys.public.decode())
    return keys
