"""The assets: remade by tools/make_assets.py, found from a checkout and from an installed package."""

from __future__ import annotations

import shutil
import subprocess
import sys
import wave
from pathlib import Path

from PIL import Image, ImageChops

from client.gui.assets import FILES, asset, asset_dir

ROOT = Path(__file__).resolve().parents[1]


def test_every_asset_is_found_from_the_checkout():
    assert asset_dir().resolve() == (ROOT / "assets").resolve()
    for name in FILES:
        assert asset(name).stat().st_size > 0, name


def test_the_font_ships_with_its_free_licence():
    licence = asset("DejaVu-LICENSE.txt").read_text()
    assert "Permission is hereby granted, free of charge" in licence and "Bitstream" in licence


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


def test_assets_are_found_in_an_installed_layout(tmp_path):
    # What a wheel holds: the package's modules with the asset files themselves (no link);
    # -S keeps the checkout's editable install out of the path.
    site = tmp_path / "site"
    shutil.copytree(ROOT / "client", site / "client", symlinks=False,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "board99", site / "board99", ignore=shutil.ignore_patterns("__pycache__"))
    assert not (site / "client" / "gui" / "assets").is_symlink()
    code = "from client.gui.assets import FILES, asset, asset_dir; [asset(n) for n in FILES]; print(asset_dir())"
    out = subprocess.run([sys.executable, "-S", "-c", code], cwd=site, capture_output=True, text=True,
                         timeout=60, env={"PYTHONPATH": str(site)})
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()) == site / "client" / "gui" / "assets"
