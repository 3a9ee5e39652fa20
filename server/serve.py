"""`board99 serve`: start a server in the foreground, say where it listens, stop on Ctrl-C or SIGTERM."""

from __future__ import annotations

import logging
import signal
import socket
from pathlib import Path

import zmq

from board99.wire.protocol import DEFAULT_PORT, PROTOCOL_VERSION

from .loop import Server


def lan_address() -> str | None:
    """This machine's address on its LAN (the one its default route uses), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 9))  # UDP connect sends nothing; it only picks a route
            return probe.getsockname()[0]
        except OSError:
            return None


def default_data_dir() -> Path:
    """Where `board99 serve` keeps its journal and keys unless --data says otherwise."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("board99")) / "server"


def default_web_port(port: int) -> int:
    """The web table's port when --web-port is not given: the game's port + 1 (a free one for port 0 or 65535)."""
    return port + 1 if 0 < port < 65535 else 0


def serve(bind: str = "*", port: int = DEFAULT_PORT, data_dir: str | Path | None = None, *,
          curve: bool = False, name: str | None = None, beacon: bool = True, bot_delay: float = 0.6,
          fsync: bool = False, web_port: int | None = None, web: bool = True, qr: bool = False) -> int:
    """Run a server in the foreground (`board99 serve`) until Ctrl-C or SIGTERM.

    ``web``: serve the web table too, on ``web_port`` (default ``default_web_port(port)``); ``qr``:
    print its address as a QR code as well.
    """
    folder = Path(data_dir) if data_dir is not None else default_data_dir()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    keys = None
    if curve:
        from .keys import load_or_create

        keys = load_or_create(folder)
    wanted = (web_port if web_port is not None else default_web_port(port)) if web else None
    # A default port that is taken gives way to a free one (the address printed below says which);
    # a port the operator chose does not.
    server = Server(bind, port, folder, name=name or socket.gethostname(), curve=keys, beacon=beacon,
                    bot_delay=bot_delay, fsync=fsync, web_port=wanted, web_port_exact=web_port is not None)
    try:
        server.bind()
    except zmq.ZMQError as exc:
        server.journal.close()
        raise OSError(f"--bind {bind} --port {port}: {exc}") from None
    except OSError as exc:  # the web table's port (the ZeroMQ socket is bound by then)
        server.journal.close()
        raise OSError(f"--web-port {wanted}: {exc.strerror or exc} (give another, or --no-web)") from None
    signal.signal(signal.SIGTERM, lambda *_: server.stop())
    shown = f"tcp://{bind}:{server.port}"
    print(f"board99 server {server.name!r} listening on {shown} (protocol {PROTOCOL_VERSION}), "
          f"data in {folder}, {len(server.lobby.tables)} table(s) restored", flush=True)
    for aside in server.core.set_aside:
        # For the admin: one damaged table does not keep the others away; its rows stay as they are.
        print(f"table {aside.table} could not be restored and was set aside (its rows are kept): {aside.reason}",
              flush=True)
    lan = lan_address() if bind in ("*", "0.0.0.0") else None
    if lan is not None:
        print(f"players on the LAN: board99 join (finds it by discovery) or board99 join {lan}:{server.port}", flush=True)
    if server.web_port is not None:
        from board99.web.address import qr_text, web_address

        url = web_address(server.web_port, bind)
        print(f"Guests open {url} in a browser on the LAN to play (the web table; plain HTTP: see docs/web.md)",
              flush=True)
        if qr:
            print(qr_text(url), end="", flush=True)
    if keys is not None:
        # The --key=KEY form: a Z85 key may start with '-', which a separate argument cannot.
        public = keys.public.decode()
        print(f"CurveZMQ on; server public key: {public}\n"
              f"  clients give it as: board99 join HOST --key={public}", flush=True)
    try:
        server.serve_forever(collect=True)
    finally:
        server.close()
    return 0
