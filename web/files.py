"""The page's files as the gateway serves them: read once from the installed package, found by exact name only.

No request path is ever joined to a folder: a path is checked (no ``..``,
backslash, NUL or encoded form of them), then looked up among the names the
static folder held when the server started. A file outside it cannot be named.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from urllib.parse import unquote

#: What a served file's name may be: letters, digits, dot, dash and underscore, not starting with a dot.
NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}")
#: Content types by suffix; anything else goes out as bytes the browser will not guess at (nosniff).
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".wav": "audio/wav",
    ".ogg": "audio/ogg",
    ".mp3": "audio/mpeg",
    ".txt": "text/plain; charset=utf-8",
}
#: Most bytes of page files read at start (a guard against a wrong folder, not a limit on the page).
MAX_TOTAL = 16 * 1024 * 1024


class BadPath(ValueError):
    """A request path that tries to leave the folder or hides a character: answered 400."""


@dataclass(frozen=True)
class File:
    """One page file: its bytes, content type and entity tag."""

    body: bytes
    type: str
    etag: str


def package_static() -> Traversable:
    """The installed package's static folder (web/static in a checkout)."""
    return resources.files("board99.web") / "static"


def load(folder: Traversable | Path | str) -> dict[str, File]:
    """Every servable file directly in ``folder`` by name (none when the folder is missing).

    A link whose target lies outside the folder is left out, as is any name outside ``NAME``.
    """
    if isinstance(folder, str):
        folder = Path(folder)
    files: dict[str, File] = {}
    if not folder.is_dir():
        return files
    local = Path(str(folder))
    root = local.resolve() if local.is_dir() else None  # a zipped package has no folder (and no links)
    total = 0
    for item in folder.iterdir():
        if not NAME.fullmatch(item.name) or not item.is_file():
            continue
        if root is not None:
            real = Path(str(item)).resolve()
            if real.parent != root:
                continue  # a link out of the folder: not ours to serve
        body = item.read_bytes()
        total += len(body)
        if total > MAX_TOTAL:
            raise ValueError(f"the web page's files in {folder} are over {MAX_TOTAL} bytes together")
        suffix = "." + item.name.rsplit(".", 1)[-1] if "." in item.name else ""
        files[item.name] = File(body, TYPES.get(suffix, "application/octet-stream"),
                                '"' + hashlib.sha256(body).hexdigest()[:20] + '"')
    return files


def name_of(path: str) -> str:
    """The file name a request path asks for ("/" asks for index.html).

    BadPath for a path that names a parent folder, holds a backslash or NUL (raw or percent-encoded),
    or is not a path at all; the caller answers 404 for a well-formed name it does not hold.
    """
    path = path.split("?", 1)[0].split("#", 1)[0]
    if not path.startswith("/"):
        raise BadPath("a request path starts with /")
    decoded = path
    for _ in range(3):  # percent-encoding twice or three times over is decoded as far as it goes
        try:
            once = unquote(decoded, errors="strict")
        except UnicodeDecodeError:
            raise BadPath("a request path is UTF-8 once its %-escapes are decoded") from None
        if once == decoded:
            break
        decoded = once
    for text in (path, decoded):
        if "\\" in text or "\x00" in text:
            raise BadPath("a request path holds no backslash or NUL")
        if ".." in text.split("/"):
            raise BadPath("a request path does not name a parent folder")
    if decoded == "/":
        return "index.html"
    return decoded[1:]
