"""Where guests open the web table: the LAN address of this machine, as a link and as a QR code."""

from __future__ import annotations

import io

from board99.server.serve import lan_address


def web_address(port: int, bind: str = "*") -> str:
    """The address guests open: ``http://LAN-ADDRESS:PORT/``.

    The machine's address on its LAN (the one its default route uses), or the address the server
    was bound to; 127.0.0.1 only when the machine has no other (then only this machine can open it).
    """
    host = bind if bind not in ("*", "0.0.0.0", "", "::") else (lan_address() or "127.0.0.1")
    if ":" in host:  # an IPv6 address goes in brackets
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def _code(url: str):  # segno's QRCode (segno has no type hints to name it by)
    import segno

    return segno.make(url, error="m")


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn with block characters, for a terminal (two rows of modules a line)."""
    out = io.StringIO()
    _code(url).terminal(out=out, compact=True)
    return out.getvalue()


def qr_rows(url: str, border: int = 2) -> list[list[bool]]:
    """``url`` as a QR code's modules, row by row from the top (True: dark), for a window to draw."""
    return [[bool(cell) for cell in row] for row in _code(url).matrix_iter(border=border)]
