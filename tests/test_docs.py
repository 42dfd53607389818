"""The README test: every hook id and every finding code is documented."""
from __future__ import annotations

import re

import yaml

from chord_memory.findings import CODES
from tests.helpers import ROOT


def test_every_hook_is_in_the_readme() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    readme = (ROOT / "README.md").read_text()
    for hook in hooks:
        assert f"`{hook['id']}`" in readme, hook["id"]


def test_every_code_has_a_section_and_a_row() -> None:
    checks = (ROOT / "docs/checks.md").read_text()
    for code, row in CODES.items():
        assert re.search(rf"^### {code}\b", checks, re.M), code
        assert f"| {code} | {row.severity} | {row.name} |" in checks, code


def test_readme_first_screen_has_the_two_commands() -> None:
    first_screen = "\n".join((ROOT / "README.md").read_text().splitlines()[:40])
    assert "make demo" in first_screen and "make test" in first_screen
    assert ".pre-commit-config.yaml" in first_screen
