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


def test_the_layout_names_only_modules_that_exist_and_every_top_level_module() -> None:
    """docs/layout.md is a newcomer's map: a module it names must be there, and a new module
    must be placed on it."""
    import re

    text = (ROOT / "docs/layout.md").read_text().split("\n## Tests\n")[0]
    package = ROOT / "src/chord_memory"
    named = set(re.findall(r"`([a-z_]+/)?([a-z_]+\.py)`", text))
    for folder, name in named:
        if folder:
            assert (package / folder / name).exists(), f"{folder}{name}"
        else:
            assert list(package.rglob(name)), name
    top = {p.name for p in package.glob("*.py")} - {"__init__.py", "__main__.py"}
    assert top <= {name for _, name in named}, sorted(top - {name for _, name in named})
