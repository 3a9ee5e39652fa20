"""The docs the code points to: the rules page cited by section, the architecture page naming every module."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = ("board99", "wire", "server", "client", "commands", "tests", "bench", "tools")


def python_files(folders: tuple[str, ...] = CODE) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def test_the_code_cites_the_rules_page_of_the_repository_and_only_its_sections() -> None:
    # The rules page is docs/rules.md; a bare rules-file name pointed to a file that is not in the repository.
    sections = set(re.findall(r"^## (\d+)\. ", (ROOT / "docs" / "rules.md").read_text(encoding="utf-8"), re.M))
    stray, unknown = [], []
    for path in python_files():
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.relative_to(ROOT)}:{no}"
            if re.search(r"(?<![\w./])RULES\.md", line):
                stray.append(where)
            for cited in re.findall(r"docs/rules\.md((?:,? ?§\d+)+)", line):
                unknown += [f"{where}: §{n}" for n in re.findall(r"§(\d+)", cited) if n not in sections]
    assert not stray, f"cite docs/rules.md (the repository's rules page) instead, at {stray}"
    assert not unknown, f"docs/rules.md has no such section: {unknown}"


#: Each code folder and the heading of its section in docs/architecture.md (the section's table names its modules).
SECTIONS = {"board99": "The engine (`board99/`)", "wire": "The wire (`wire/`)", "server": "The server (`server/`)",
            "client": "The client (`client/`)", "commands": "The command line (`commands/`)",
            "web": "The web table (`web/`, installed as `board99.web`)"}


def architecture_sections() -> dict[str, str]:
    """docs/architecture.md's second-level sections: heading -> text."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return {heading.strip(): body for heading, body in zip(parts[1::2], parts[2::2])}


def test_the_architecture_page_names_every_module_in_its_folders_section() -> None:
    # So the page stays true as modules come: a module (other than a package's __init__ or __main__) is named
    # by its path within its folder, in backticks, in that folder's section: `game.py`, `bots/search.py`, `gui/app.py`.
    sections = architecture_sections()
    missing = []
    for folder, heading in SECTIONS.items():
        if heading not in sections:
            missing.append(f"the section '## {heading}' for {folder}/")
            continue
        for path in python_files((folder,)):
            if path.name in ("__init__.py", "__main__.py"):
                continue
            inside = path.relative_to(ROOT / folder).as_posix()
            if f"`{inside}`" not in sections[heading]:
                missing.append(f"{folder}/{inside} (as `{inside}` under '## {heading}')")
    assert not missing, ("docs/architecture.md does not name these; add a row saying what each module holds:\n  "
                         + "\n  ".join(missing))
