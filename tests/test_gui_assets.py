"""The assets: remade by tools/make_assets.py, found from a checkout and from an installed package."""

from __future__ import annotations

import subprocess
import sys
import wave
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from board99.client.gui.assets import FILES, asset, asset_dir

ROOT = Path(__file__).resolve().parents[1]


def test_every_asset_is_found_from_the_checkout():
    assert asset_dir().resolve() == (ROOT / "assets").resolve()
    for name in FILES:
        assert asset(name).stat().st_size > 0, name


def test_the_font_ships_with_its_free_licence():
    licence = asset("DejaVu-LICENSE.txt").read_text()
    assert "Permission is hereby granted, free of charge" in licence and "Bitstream" in licence


@pytest.mark.slow
def test_make_assets_remakes_the_committed_files(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_assets.py"), "--out", str(tmp_path)],
                   check=True, capture_output=True, timeout=60)
    for name in FILES:
        made, committed = tmp_path / name, ROOT / "assets" / name
        if name.endswith(".png"):
            a, b = Image.open(made).convert("RGBA"), Image.open(committed).convert("RGBA")
            assert a.size == b.size and ImageChops.difference(a, b).getbbox() is None, name
        elif name.endswith(".wav"):
            with wave.open(str(made)) as a, wave.open(str(committed)) as b:
                assert a.readframes(a.getnframes()) == b.readframes(b.getnframes()), name
        else:
            assert made.read_bytes() == committed.read_bytes(), name
