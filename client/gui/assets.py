"""Where the assets are: ``client/gui/assets`` (in a checkout a link to the canonical ``assets/``).

In a checkout ``client/gui/assets`` is a symbolic link to the repository's
``assets/`` directory, which ``tools/make_assets.py`` writes; building a wheel
copies the files behind the link into the package as package data, so the
same lookup finds them in an installed wheel.
"""

from __future__ import annotations

from pathlib import Path

#: Every file the client loads; tests check each one is found.
FILES = (
    "board.png", "cards.png", "highlight.png", "hover.png", "line.png", "white.png",
    "peg.wav", "draw.wav", "penalty.wav", "win.wav",
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVu-LICENSE.txt",
)


def asset_dir() -> Path:
    """The directory holding the assets, from a checkout or an installed wheel."""
    packaged = Path(__file__).resolve().parent / "assets"
    # resolve() follows the checkout's link; without one (e.g. a checkout on a
    # file system without links) the repository's assets/ is two levels up.
    for candidate in (packaged, Path(__file__).resolve().parents[2] / "assets"):
        if (candidate / "board.png").is_file():
            return candidate
    raise FileNotFoundError(
        f"board99 assets not found in {packaged}; run `python tools/make_assets.py` in a checkout"
    )


def asset(name: str) -> Path:
    """The path of one asset file by name (e.g. 'board.png')."""
    path = asset_dir() / name
    if not path.is_file():
        raise FileNotFoundError(f"asset {name!r} is missing from {path.parent}")
    return path
