"""Make every file in assets/: board texture, card sheet, highlights (pegs are drawn at run time: client/gui/peg_art.py), sounds, the font.

Run ``python tools/make_assets.py`` to remake them (needs Pillow, which arcade
depends on, and the DejaVu fonts from Debian's fonts-dejavu-core). The output
is deterministic, so a rerun only changes files whose drawing code changed.
"""

from __future__ import annotations

import math
import random
import shutil
import struct
import sys
import wave
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from board99.client.gui.palette import CARD_SIZE, CELL  # noqa: E402
from board99.layout import LAYOUT  # noqa: E402

OUT = ROOT / "assets"
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
FONT_LICENCE = Path("/usr/share/doc/fonts-dejavu-core/copyright")
RATE = 22050

# Ring tints from the edge ring (0) to the centre (4): the low numbers sit in
# the centre, so the board darkens towards it to make that visible at a glance.
RING_TINTS = ((236, 214, 170), (226, 199, 150), (214, 184, 132), (200, 166, 112), (184, 146, 92))


def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    """DejaVu Sans from assets/ (copied in first)."""
    return ImageFont.truetype(str(OUT / FONT_FILES[1 if bold else 0]), size)


def copy_font() -> None:
    """Copy the free DejaVu fonts and their licence into assets/."""
    for name in FONT_FILES:
        shutil.copyfile(FONT_DIR / name, OUT / name)
    shutil.copyfile(FONT_LICENCE, OUT / "DejaVu-LICENSE.txt")


def make_board() -> None:
    """board.png: the 10x10 squares in the canonical layout, each number baked in."""
    img = Image.new("RGBA", (CELL * 10, CELL * 10), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    number_font = font(CELL * 34 // 100)
    for r, row in enumerate(LAYOUT):
        for c, square in enumerate(row):
            ring = min(r, c, 9 - r, 9 - c)
            x0, y0 = c * CELL, r * CELL
            draw.rectangle((x0, y0, x0 + CELL - 1, y0 + CELL - 1), fill=RING_TINTS[ring] + (255,))
            draw.rectangle((x0, y0, x0 + CELL - 1, y0 + CELL - 1), outline=(120, 88, 50, 255), width=2)
            # The peg hole: where a peg stands, under the number.
            hx, hy, hr = x0 + CELL * 0.5, y0 + CELL * 0.62, CELL * 0.07
            draw.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=(90, 62, 34, 255))
            draw.text((x0 + CELL / 2, y0 + CELL * 0.27), str(square), font=number_font,
                      fill=(48, 30, 12, 255), anchor="mm")
    img.save(OUT / "board.png", optimize=True)


def make_cards() -> None:
    """cards.png: a sheet of 101 cards in rows of 10 (faces 0-99, then the back)."""
    w, h = CARD_SIZE
    sheet = Image.new("RGBA", (w * 10, h * 11), (0, 0, 0, 0))
    big, small = font(h * 36 // 100), font(h * 13 // 100, bold=False)
    corner = font(h * 11 // 100)
    for card in range(101):
        face = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        d = ImageDraw.Draw(face)
        if card == 100:
            d.rounded_rectangle((1, 1, w - 2, h - 2), radius=w // 10, fill=(38, 70, 140, 255),
                                outline=(240, 240, 240, 255), width=4)
            for k in range(-h, w, 14):
                d.line((k, h - 8, k + h, -8), fill=(60, 100, 180, 255), width=4)
            d.rounded_rectangle((1, 1, w - 2, h - 2), radius=w // 10, outline=(240, 240, 240, 255), width=5)
            d.multiline_text((w / 2, h / 2), "GAME\nOF 99", font=corner, fill=(240, 240, 240, 255), anchor="mm",
                             align="center", stroke_width=3, stroke_fill=(38, 70, 140, 255))
        else:
            d.rounded_rectangle((1, 1, w - 2, h - 2), radius=w // 10, fill=(252, 248, 236, 255),
                                outline=(70, 50, 30, 255), width=3)
            d.text((w / 2, h * 0.42), str(card), font=big, fill=(140, 20, 30, 255), anchor="mm")
            d.text((w / 2, h * 0.70), "to 99", font=small, fill=(60, 45, 30, 255), anchor="mm")
            d.text((w * 0.1, h * 0.05), str(card), font=corner, fill=(140, 20, 30, 255), anchor="la")
        sheet.paste(face, ((card % 10) * w, (card // 10) * h))
    sheet.save(OUT / "cards.png", optimize=True)


def make_overlays() -> None:
    """highlight.png (a square the picked card allows), hover.png, line.png (the winning line)."""
    s = CELL
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, s - 1, s - 1), fill=(255, 255, 120, 70), outline=(255, 230, 0, 255), width=6)
    img.save(OUT / "highlight.png")
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(img).rectangle((0, 0, s - 1, s - 1), outline=(255, 255, 255, 230), width=5)
    img.save(OUT / "hover.png")
    img = Image.new("RGBA", (64, 16), (255, 255, 255, 255))
    ImageDraw.Draw(img).rectangle((0, 0, 63, 15), outline=(30, 30, 30, 255), width=3)
    img.save(OUT / "line.png")
    img = Image.new("RGBA", (8, 8), (255, 255, 255, 255))
    img.save(OUT / "white.png")


def _write_wav(name: str, samples: list[float]) -> None:
    with wave.open(str(OUT / name), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        peak = max(1e-9, max(abs(s) for s in samples))
        w.writeframes(b"".join(struct.pack("<h", int(s / peak * 0.8 * 32767)) for s in samples))


def _tone(freq: float, seconds: float, decay: float = 8.0, shape: str = "sine") -> list[float]:
    out = []
    for i in range(int(RATE * seconds)):
        t = i / RATE
        phase = 2 * math.pi * freq * t
        v = math.sin(phase) if shape == "sine" else (1.0 if math.sin(phase) > 0 else -1.0) * 0.5
        out.append(v * math.exp(-decay * t) * min(1.0, i / 60))
    return out


def make_sounds() -> None:
    """peg.wav, draw.wav, penalty.wav, win.wav, turn.wav, tick.wav: short synthesized sounds."""
    # peg: a wooden knock, a low tone with a fast decay plus a click
    knock = [a + 0.5 * b for a, b in zip(_tone(180, 0.18, 30), _tone(420, 0.18, 45))]
    _write_wav("peg.wav", knock)
    # draw: a card swish, filtered noise rising and falling
    rng = random.Random(99)
    n, prev, swish = int(RATE * 0.22), 0.0, []
    for i in range(n):
        prev = 0.75 * prev + 0.25 * rng.uniform(-1, 1)
        swish.append(prev * math.sin(math.pi * i / n))
    _write_wav("draw.wav", swish)
    # penalty: two falling buzzes
    _write_wav("penalty.wav", _tone(220, 0.25, 4, "square") + _tone(165, 0.4, 4, "square"))
    # win: a rising major arpeggio
    win: list[float] = []
    for f in (523.25, 659.25, 783.99, 1046.5):
        win += _tone(f, 0.16, 6)
    win += _tone(1046.5, 0.5, 3)
    _write_wav("win.wav", win)
    # turn: two soft rising notes, "your turn"
    _write_wav("turn.wav", _tone(659.25, 0.12, 10) + _tone(880.0, 0.22, 9))
    # tick: a short dry click for the turn clock's last seconds
    _write_wav("tick.wav", [a + 0.4 * b for a, b in zip(_tone(1500, 0.05, 90), _tone(3000, 0.05, 120))])


def main(argv: list[str] | None = None) -> None:
    """Remake every asset (into ``--out DIR`` instead of assets/ if given)."""
    global OUT
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--out"] and len(args) == 2:
        OUT = Path(args[1])
    elif args:
        raise SystemExit("usage: python tools/make_assets.py [--out DIR]")
    OUT.mkdir(parents=True, exist_ok=True)
    copy_font()
    make_board()
    make_cards()
    make_overlays()
    make_sounds()
    print(f"assets written to {OUT}")


if __name__ == "__main__":
    main()
