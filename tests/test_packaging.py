"""The installed package: one top-level name, the folders mapped into it, the assets inside the wheel."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from board99.client.gui.assets import FILES

ROOT = Path(__file__).resolve().parents[1]
#: The repository's code folders and the import names they install as (docs/architecture.md).
FOLDERS = {"board99": "board99", "wire": "board99.wire", "server": "board99.server", "client": "board99.client",
           "commands": "board99.commands", "web": "board99.web"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The project's wheel, built from this checkout without network (setuptools from the test extras)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(out), str(ROOT)], check=True, capture_output=True, timeout=300)
    (built,) = out.glob("board99-*.whl")
    return built


@pytest.mark.slow
def test_the_wheel_installs_exactly_one_top_level_name(wheel) -> None:
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
        info = next(n for n in names if n.endswith(".dist-info/top_level.txt"))
        assert whl.read(info).decode().split() == ["board99"]
        scripts = whl.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "board99 = board99.commands:main" in scripts  # the `board99` script runs the command layer
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"board99"}
    for folder, package in FOLDERS.items():
        inside = package.replace(".", "/")
        assert f"{inside}/__init__.py" in names, f"{folder}/ is not installed as {package}"


@pytest.mark.slow
def test_the_installed_wheel_imports_by_its_one_name_and_finds_its_assets(wheel, tmp_path) -> None:
    # Unpacking a pure-Python wheel is installing it. -S skips site processing, so the checkout's
    # editable install (a .pth hook) stays away while its dependencies (zmq, msgpack, PIL ...) are
    # still found on the path; the working directory is not the checkout, so its folders cannot stand in.
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as whl:
        whl.extractall(site)
    assert not (site / "board99" / "client" / "gui" / "assets").is_symlink()
    code = ("import board99.server.loop, board99.client.net, board99.wire.protocol, board99.commands.records; "
            "from board99.client.gui.assets import FILES, asset, asset_dir; [asset(n) for n in FILES]; "
            "print(asset_dir())\n"
            "for name in ('server', 'client', 'wire', 'commands'):\n"
            "    try:\n"
            "        __import__(name)\n"
            "    except ModuleNotFoundError:\n"
            "        pass\n"
            "    else:\n"
            "        raise SystemExit(f'{name} is importable as a top-level name')\n")
    out = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         timeout=60, env={"PYTHONPATH": os.pathsep.join([str(site), *dependency_paths()])})
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()) == site / "board99" / "client" / "gui" / "assets"
    assert {p.name for p in Path(out.stdout.strip()).iterdir()} >= set(FILES)


def dependency_paths() -> list[str]:
    """Where this interpreter's installed packages live (without running their .pth hooks)."""
    paths = sysconfig.get_paths()
    return sorted({paths["purelib"], paths["platlib"]})


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found


@pytest.mark.slow
def test_no_code_imports_a_folder_by_its_checkout_name() -> None:
    # In a checkout server/, client/, wire/ and commands/ are also importable as top-level names; nothing may
    # use them that way, or it would break in the installed wheel.
    bad = []
    for folder in ("board99", "wire", "server", "client", "commands", "web", "tests", "bench", "tools"):
        for path in (ROOT / folder).rglob("*.py"):
            for name in _imports(path):
                if name.split(".")[0] in ("server", "client", "wire", "commands", "web"):
                    bad.append(f"{path.relative_to(ROOT)}: import {name}")
    assert not bad, bad


def imports_anywhere(path: Path, package: str) -> list[str]:
    """Every module an import in ``path`` names, at any depth (inside functions too), relative ones made absolute.

    ``package`` is the file's package as installed (``board99.bots`` for board99/bots/x.py); ``from . import x``
    names ``package.x``, since x may be a module.
    """
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                up = parts[:len(parts) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            found.append(base)
            found.extend(f"{base}.{alias.name}" for alias in node.names)
    return found


def test_the_rules_package_imports_no_layer_above_it_even_inside_a_function() -> None:
    # docs/architecture.md: board99/ (the engine) is the bottom layer; the wire, the server, the client and the
    # commands sit above it, so none of its modules may import them, not even lazily inside a function.
    above = ("board99.wire", "board99.server", "board99.client", "board99.commands")
    bad = []
    for path in sorted((ROOT / "board99").rglob("*.py")):
        package = ".".join(path.relative_to(ROOT).parent.parts)
        for name in imports_anywhere(path, package):
            if name.startswith(tuple(f"{a}." for a in above)) or name in above:
                bad.append(f"{path.relative_to(ROOT)}: import {name}")
    assert not bad, "the rules package imports a layer above it:\n" + "\n".join(sorted(set(bad)))


@pytest.mark.slow
def test_the_wire_imports_neither_end_and_the_ends_only_meet_through_it() -> None:
    # docs/architecture.md: the client and the server share the wire package, never each other.
    def imports_of(folder: str) -> set[str]:
        names: set[str] = set()
        for path in (ROOT / folder).rglob("*.py"):
            names.update(_imports(path))
        return names

    def touches(names: set[str], package: str) -> list[str]:
        return sorted(n for n in names if n == package or n.startswith(package + "."))

    assert not touches(imports_of("wire"), "board99.server") and not touches(imports_of("wire"), "board99.client")
    assert not touches(imports_of("client"), "board99.server"), "the client imports the server"
    assert not touches(imports_of("server"), "board99.client"), "the server imports the client"
    for folder in ("wire", "server", "client"):  # the command line is the top layer: nothing imports it
        assert not touches(imports_of(folder), "board99.commands"), f"{folder}/ imports the command line"


@pytest.mark.slow
def test_the_wheel_holds_the_lessons_and_reads_them_when_installed(wheel, tmp_path) -> None:
    # The lessons are package data (board99/lessons/data/*.toml), read with importlib.resources.
    from board99.lessons import names

    with zipfile.ZipFile(wheel) as whl:
        held = {n.rsplit("/", 1)[-1] for n in whl.namelist() if n.startswith("board99/lessons/data/")}
    assert held == set(names())
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as whl:
        whl.extractall(site)
    code = "from board99.lessons import catalogue, solve; print(sum(solve(l)[0].done for l in catalogue()))"
    out = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         timeout=60, env={"PYTHONPATH": os.pathsep.join([str(site), *dependency_paths()])})
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == len(names())


@pytest.mark.slow
def test_the_wheel_holds_the_web_pages_files_and_serves_them_when_installed(wheel, tmp_path) -> None:
    # The web table's page is package data (web/static/*, installed as board99/web/static/), every file of it.
    shipped = {p.name for p in (ROOT / "web" / "static").glob("*") if p.is_file()}
    with zipfile.ZipFile(wheel) as whl:
        held = {n.rsplit("/", 1)[-1] for n in whl.namelist() if n.startswith("board99/web/static/")}
        assert "board99/web/gateway.py" in whl.namelist()
    assert held == shipped
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as whl:
        whl.extractall(site)
    code = ("from board99.web.files import load, package_static; import board99.web.gateway; "
            "print(str(package_static())); print(' '.join(sorted(load(package_static()))))")
    out = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         timeout=60, env={"PYTHONPATH": os.pathsep.join([str(site), *dependency_paths()])})
    assert out.returncode == 0, out.stderr
    folder, names = (out.stdout.splitlines() + [""])[:2]
    assert Path(folder) == site / "board99" / "web" / "static"
    assert set(names.split()) == shipped  # the installed gateway serves exactly the shipped files


#: board99 modules the house (server, wire, client library) may import: the seam and truly game-neutral ones.
GAME_NEUTRAL = {"board99.kinds", "board99.quote", "board99.match_format"}
#: The web table's transport (web/gateway.py, files.py, address.py): part of the house, game-neutral too.
WEB_TRANSPORT = ("board99.web.gateway", "board99.web.files", "board99.web.address")


def _board99_imports(path: Path) -> list[str]:
    """The board99 modules ``path`` imports (``from board99 import kinds`` names board99.kinds; a name that
    is not a module, like ``from board99 import Game``, names the package board99 itself)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend(a.name for a in node.names if a.name.split(".")[0] == "board99")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                node.module.split(".")[0] == "board99":
            for alias in node.names:
                inside = node.module.split(".")[1:] + [alias.name]
                folder = {"wire": "wire", "server": "server", "client": "client", "web": "web"}.get(inside[0], "board99")
                rest = inside[1:] if folder != "board99" else inside
                candidate = ROOT.joinpath(folder, *rest)
                is_module = candidate.with_suffix(".py").exists() or (candidate / "__init__.py").exists()
                found.append(".".join(["board99", *inside]) if is_module else node.module)
    return found


def test_the_house_reaches_a_game_only_through_the_kinds_registry() -> None:
    # issue 20: server/, wire/ and the client library import nothing of a game's own (the peg-board game is
    # reached through board99.kinds); their own modules and the game-neutral ones are allowed.
    house = [*(ROOT / "server").rglob("*.py"), *(ROOT / "wire").rglob("*.py"), *(ROOT / "client").glob("*.py"),
             *(ROOT / "web" / f"{m.rsplit('.', 1)[1]}.py" for m in WEB_TRANSPORT)]
    own = ("board99.server", "board99.wire", "board99.client", *WEB_TRANSPORT)
    bad = sorted(f"{path.relative_to(ROOT)}: {name}" for path in house for name in _board99_imports(path)
                 if name not in GAME_NEUTRAL and not name.startswith(own))
    assert not bad, bad
    assert len(house) > 30 and any("board99.kinds" in _board99_imports(p) for p in house)  # the check sees them
