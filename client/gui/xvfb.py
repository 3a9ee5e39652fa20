"""A virtual X display (Xvfb) for the window tests and the benchmark when no display is set."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

SCREEN = "2600x1500x24"  # room for a 2560x1440 window


def _die_with_parent() -> None:
    # Runs in the child before exec: if the test process is killed (a timeout, Ctrl-C),
    # the kernel sends Xvfb SIGTERM instead of leaving it running.
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
    except OSError:
        pass


def start_xvfb(screen: str = SCREEN, timeout: float = 10.0) -> subprocess.Popen:
    """Start Xvfb on a free display number, point DISPLAY at it, and return the process."""
    exe = shutil.which("Xvfb")
    if exe is None:
        raise RuntimeError("Xvfb is not installed (Debian: apt-get install xvfb libgl1-mesa-dri)")
    read, write = os.pipe()
    # -displayfd: Xvfb picks a free display and writes its number once it accepts clients.
    proc = subprocess.Popen([exe, "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=_die_with_parent)
    os.close(write)
    deadline = time.monotonic() + timeout
    number = b""
    with os.fdopen(read, "rb") as pipe:
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            chunk = pipe.read(1)
            if not chunk:
                break
            number += chunk
    if not number.strip().isdigit():
        proc.kill()
        raise RuntimeError("Xvfb did not start")
    os.environ["DISPLAY"] = f":{number.strip().decode()}"
    return proc


def ensure_display() -> subprocess.Popen | None:
    """Use $DISPLAY if it is set and alive, else start Xvfb; returns the Xvfb process we started (or None)."""
    display = os.environ.get("DISPLAY")
    if display and Path(f"/tmp/.X11-unix/X{display.lstrip(':').split('.')[0]}").exists():
        return None
    return start_xvfb()


def stop(proc: subprocess.Popen | None) -> None:
    """Stop an Xvfb we started."""
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
