"""How big text and controls are drawn: from the window's size and the player's own scale setting."""

from __future__ import annotations

#: The window size everything was designed at (scale 1.0).
DESIGN_W, DESIGN_H = 1280, 800
SMALLEST, LARGEST = 0.75, 2.2


def ui_scale(width: float, height: float, user: float = 1.0) -> float:
    """The factor for font sizes, cards and panel widths: grows with the window, times the player's setting.

    >>> ui_scale(1280, 800)
    1.0
    >>> ui_scale(2560, 1440)
    1.8
    >>> ui_scale(960, 640)
    0.75
    """
    base = min(width / DESIGN_W, height / DESIGN_H)
    return round(max(SMALLEST, min(LARGEST, base)) * user, 3)
