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
