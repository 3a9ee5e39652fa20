"""The player's settings (sound, motion, palette, size, threat marks, hints), kept between runs.

They live in ``settings.toml`` in the user's config folder (platformdirs). A
missing or unreadable file gives the defaults; a bad value gives that field's
default and leaves the others alone, so a hand-edited file never stops the game.
"""

from __future__ import annotations

import logging
import os
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: Animation speeds a player may pick -> the factor applied to every motion's length (0: no motion).
ANIMATION_SPEEDS: dict[str, float] = {"off": 0.0, "fast": 0.6, "normal": 1.0, "slow": 1.6}
#: When squares an opponent side could complete five on are marked.
THREAT_CHOICES = ("guarded", "always", "never")  # "guarded": in guarded tables only (the default)
UI_SCALES = (0.8, 0.9, 1.0, 1.15, 1.3, 1.5)


def config_path() -> Path:
    """Where the settings file lives: $BOARD99_CONFIG if set (tests), else the user's config folder."""
    override = os.environ.get("BOARD99_CONFIG")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir("board99")) / "settings.toml"


@dataclass(frozen=True)
class Preferences:
    """Everything a player may set in the settings screen."""

    volume: float = 0.8  # 0.0-1.0
    muted: bool = False
    animation: str = "normal"  # a key of ANIMATION_SPEEDS
    palette: str = "standard"  # a key of palette.PALETTES
    ui_scale: float = 1.0  # on top of the scale the window size gives
    threats: str = "guarded"  # one of THREAT_CHOICES
    hints: bool = True  # the "how to take a turn" hint in a first game
    fullscreen: bool = False

    @property
    def animation_factor(self) -> float:
        """The factor every motion's length is multiplied by (0: motion off, things jump)."""
        return ANIMATION_SPEEDS.get(self.animation, 1.0)

    def checked(self) -> Preferences:
        """A copy with every out-of-range value put back to its default."""
        default = Preferences()
        from .palette import PALETTES

        ok = {
            "volume": isinstance(self.volume, int | float) and 0.0 <= self.volume <= 1.0,
            "muted": isinstance(self.muted, bool),
            "animation": self.animation in ANIMATION_SPEEDS,
            "palette": self.palette in PALETTES,
            "ui_scale": isinstance(self.ui_scale, int | float) and 0.5 <= self.ui_scale <= 2.0,
            "threats": self.threats in THREAT_CHOICES,
            "hints": isinstance(self.hints, bool),
            "fullscreen": isinstance(self.fullscreen, bool),
        }
        fixes = {name: getattr(default, name) for name, good in ok.items() if not good}
        for name in fixes:
            log.warning("settings: %s=%r is not a valid value; using %r", name, getattr(self, name), fixes[name])
        return replace(self, **fixes)


def load(path: Path | None = None) -> Preferences:
    """The saved settings, or the defaults where there are none (never raises)."""
    path = path or config_path()
    try:
        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Preferences()
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        log.warning("settings: %s is unreadable (%s); using the defaults", path, exc)
        return Preferences()
    known = {f.name for f in fields(Preferences)}
    return Preferences(**{k: v for k, v in data.items() if k in known}).checked()


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(float(value))
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def save(prefs: Preferences, path: Path | None = None) -> None:
    """Write the settings (whole file replaced at once, so a crash never leaves half of it)."""
    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "# board99 settings (the settings screen writes this file)\n" + "".join(
        f"{name} = {_toml_value(value)}\n" for name, value in asdict(prefs).items())
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
