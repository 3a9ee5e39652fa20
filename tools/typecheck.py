"""`make lint`'s type check: mypy over the one installed name, board99, with its folders mapped as installed.

mypy cannot follow setuptools' package-dir mapping (board99.server is server/ ...),
so this builds a tree of links shaped like the installed package in .typecheck/
and checks ``-p board99`` there; messages are given with the checkout's paths.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE = ROOT / ".typecheck"
#: Folder -> where it sits in the installed package (pyproject.toml's package-dir).
MAPPED = {"wire": "wire", "server": "server", "client": "client", "commands": "commands", "web": "web"}


def build() -> Path:
    """The link tree: .typecheck/board99/ holds board99/'s files and the mapped folders."""
    shutil.rmtree(TREE, ignore_errors=True)
    package = TREE / "board99"
    package.mkdir(parents=True)
    for item in (ROOT / "board99").iterdir():
        if item.name != "__pycache__":
            (package / item.name).symlink_to(item)
    for folder, name in MAPPED.items():
        (package / name).symlink_to(ROOT / folder)
    return TREE


def main() -> int:
    """Run mypy; exit with its status."""
    from mypy import api

    tree = build()
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "-p", "board99"])
    # Name files as they are in the checkout.
    out = out.replace(".typecheck/", "")
    for folder, name in MAPPED.items():
        out = out.replace(f"board99/{name}/", f"{folder}/")
    sys.stdout.write(out)
    sys.stderr.write(err)
    shutil.rmtree(tree, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
