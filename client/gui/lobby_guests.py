"""The web table's address in the lobby: the guests' line, and its QR code drawn big over the lobby.

The server says where guests go in its hello reply (``web``, docs/protocol.md); a window that hosts
`board99 play`'s practice server, which listens on this machine only, has no guests' line. The code's
modules come from board99.web.address ``qr_rows`` (segno) with the standard's quiet zone of four
light modules kept round it, drawn as one texture scaled without smoothing so every module stays sharp.
"""

from __future__ import annotations

import arcade
from PIL import Image

from board99.web.address import qr_rows

from .palette import FONT, TEXT

#: Light modules round the code: the QR standard's quiet zone, which a phone's reader needs to find it.
QUIET_ZONE = 4
#: The code's side as a share of the window's shorter side: big enough for a phone across a table.
SHARE = 0.62
DARK, LIGHT = (0, 0, 0, 255), (255, 255, 255, 255)


def guests_words(url: str) -> str:
    """The lobby's line for guests with a browser."""
    return f"Guests: {url}"


class QrPanel:
    """The address as a QR code over the lobby, with what it is for; any click closes it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.rows = qr_rows(url, border=QUIET_ZONE)
        size = len(self.rows)
        image = Image.new("RGBA", (size, size))
        image.putdata([DARK if dark else LIGHT for row in self.rows for dark in row])
        self.texture = arcade.Texture(image, hash=f"board99-qr-{url}")

    def square(self, width: float, height: float) -> tuple[float, float, float]:
        """(left, bottom, side) of the code, quiet zone included, in whole pixels per module, centred."""
        modules = len(self.rows)
        module = max(1, int(min(width, height) * SHARE // modules))
        side = module * modules
        return (width - side) // 2, (height - side) // 2 + 20, side

    def draw(self, width: float, height: float, scale: float) -> None:
        """A dark veil over the lobby, the code, the address above it and how to close it below."""
        arcade.draw_lrbt_rectangle_filled(0, width, 0, height, (0, 0, 0, 200))
        left, bottom, side = self.square(width, height)
        arcade.draw_texture_rect(self.texture, arcade.LBWH(left, bottom, side, side),
                                 pixelated=True)  # nearest-neighbour: square modules, no blur
        arcade.Text(f"Guests scan this with a phone's camera, or open {self.url}", width / 2,
                    bottom + side + 16 * scale, TEXT, 16 * scale, font_name=FONT, anchor_x="center",
                    bold=True).draw()
        arcade.Text("Click anywhere to close", width / 2, bottom - 30 * scale, TEXT, 13 * scale,
                    font_name=FONT, anchor_x="center").draw()
