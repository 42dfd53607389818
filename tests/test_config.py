from __future__ import annotations

from pathlib import Path

import pytest

from chord_memory import config
from chord_memory.errors import UserError
from tests.conftest import cli


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_defaults_without_files(repo: Path) -> None:
    cfg = config.load(str(repo))
    assert cfg.memory.enabled is False
    assert cfg.memory.injection_budget == 4000
    assert cfg.memory.limits.record_bytes == 4096
    assert cfg.memory.freeze_after == 600
    assert cfg.memory.backend == "sqlite" and cfg.memory.maxRecall == 5


def test_project_wins_key_by_key(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    write(tmp_path / "xdg/chord/config.yaml",
          "memory:\n  enabled: true\n  injection_budget: 3000\n  limits: {summary_chars: 100}\n"
          "  pools:\n    main: [{base_url: 'http://127.0.0.1:1/v1', model: a}]\n")
    write(repo / ".chord/config.yaml",
          "memory:\n  enabled: false\n  limits: {statement_chars: 500}\n  freeze_after: 90s\n")
    cfg = config.load(str(repo))
    assert cfg.memory.enabled is False
    assert cfg.memory.injection_budget == 3000
    assert (cfg.memory.limits.summary_chars, cfg.memory.limits.statement_chars) == (100, 500)
    assert cfg.memory.freeze_after == 90
    assert cfg.memory.pools["main"][0].model == "a"


@pytest.mark.parametrize("text, where", [
    ("memory:\n  injection_budget: lots\n", "memory.injection_budget"),
    ("memory:\n  limits: {summary_chars: -1}\n", "memory.limits.summary_chars"),
    ("memory:\n  backend: postgres\n", "memory.backend"),
    ("memory:\n  enabeld: true\n", "memory.enabeld: unknown key"),
    ("memory:\n  freeze_after: soon\n", "memory.freeze_after"),
    ("memory:\n  pools: {main: [{base_url: x, model: m, api_key_env: 'sk-abc def'}]}\n",
     "memory.pools.main.0.api_key_env"),
    ("- just\n- a list\n", "mapping"),
    ("memory: [unclosed\n", ".chord/config.yaml:"),
])
def test_bad_value_names_file_and_key(repo: Path, text: str, where: str) -> None:
    write(repo / ".chord/config.yaml", text)
    with pytest.raises(UserError) as e:
        config.load(str(repo))
    assert ".chord/config.yaml" in str(e.value) and where in str(e.value)
    result = cli("check", cwd=repo)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_api_key_is_never_echoed(repo: Path) -> None:
    write(repo / ".chord/config.yaml",
          "memory:\n  pools: {main: [{base_url: x, model: m, api_key_env: 'sk-live-SECRETVALUE1'}]}\n")
    result = cli("check", cwd=repo)
    assert result.returncode == 2 and "SECRETVALUE1" not in result.stderr


def test_config_bomb_is_an_error(repo: Path) -> None:
    levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'] + [
        f"{c}: &{c} [{','.join(['*' + p] * 9)}]" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    ]
    write(repo / ".chord/config.yaml", "\n".join(levels) + "\n")
    result = cli("check", cwd=repo)
    assert result.returncode == 2 and "nodes" in result.stderr
