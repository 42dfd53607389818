from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from chord_memory import config
from chord_memory.errors import UserError
from tests.helpers import cli


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
    ("memory:\n  injection_budget: true\n", "memory.injection_budget: expected an integer"),
    ("memory:\n  injection_budget: '4000'\n", "memory.injection_budget: expected an integer"),
    ("memory:\n  limits: {record_bytes: 4096.0}\n", "memory.limits.record_bytes: expected an integer"),
    ("memory:\n  enabled: 'yes'\n", "memory.enabled: expected true or false"),
    ("memory:\n  autoPromote: {enabled: 1}\n", "memory.autoPromote.enabled: expected true or false"),
    ("memory:\n  freeze_after: .nan\n", "memory.freeze_after: Input should be a finite number"),
    ("memory:\n  freeze_after: .inf\n", "memory.freeze_after: Input should be a finite number"),
    ("memory:\n  freeze_after: -5\n", "memory.freeze_after: Input should be greater than or equal to 0"),
    ("memory:\n  freeze_after: true\n", "memory.freeze_after: expected a number"),
    ("memory:\n  pools: {main: [{base_url: x, model: m, timeout: .inf}]}\n",
     "memory.pools.main.0.timeout: Input should be a finite number"),
    ("memory:\n  model_pool: nope\n  pools: {main: [{base_url: x, model: m}], fast: []}\n",
     "memory.model_pool: no pool 'nope' in memory.pools (pools: fast, main)"),
    ("memory:\n  model_pool: nope\n", "memory.model_pool: no pool 'nope' in memory.pools (pools: none)"),
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


@pytest.mark.parametrize("text, seconds", [
    ("90s", 90), ("10m", 600), ("1.5h", 5400), ("1d", 86400), ("250ms", 0.25),
    ("'45'", 45), ("0", 0), ("2.5", 2.5),
])
def test_durations(repo: Path, text: str, seconds: float) -> None:
    write(repo / ".chord/config.yaml", f"memory:\n  freeze_after: {text}\n")
    assert config.load(str(repo)).memory.freeze_after == seconds


def test_model_pool_is_checked_after_the_merge(repo: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    user = tmp_path / "xdg/chord/config.yaml"
    write(user, "memory:\n  pools:\n    fast: [{base_url: 'http://127.0.0.1:1/v1', model: a}]\n")
    write(repo / ".chord/config.yaml", "memory:\n  model_pool: fast\n")
    assert config.load(str(repo)).memory.model_pool == "fast"
    write(user, "memory:\n  model_pool: slow\n")
    write(repo / ".chord/config.yaml",
          "memory:\n  pools:\n    fast: [{base_url: 'http://127.0.0.1:1/v1', model: a}]\n")
    with pytest.raises(UserError) as e:
        config.load(str(repo))
    assert str(e.value) == f"{user}: memory.model_pool: no pool 'slow' in memory.pools (pools: fast)"


def _directory(path: Path) -> None:
    path.mkdir(parents=True)


def _fifo(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)


def _large(path: Path) -> None:
    write(path, "# padding\n" * 30000)


@pytest.mark.parametrize("make, why", [
    (_directory, "not a regular file"),
    pytest.param(_fifo, "not a regular file",
                 marks=pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")),
    (_large, "larger than 262,144 bytes"),
])
@pytest.mark.parametrize("user", [False, True])
def test_unreadable_file_is_an_error(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     make: Callable[[Path], None], why: str, user: bool) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    path = tmp_path / "xdg/chord/config.yaml" if user else repo / ".chord/config.yaml"
    make(path)
    with pytest.raises(UserError) as e:
        config.load(str(repo))
    assert str(e.value) == f"{path}: cannot be read ({why})"
    result = cli("extract", "--dry-run", cwd=repo)
    assert result.returncode == 2 and result.stderr == f"chord-memory: {path}: cannot be read ({why})\n"


def test_the_documented_defaults_are_the_ones_in_defaults_py() -> None:
    """docs/configuration.md's table, config.py's fields and the hot paths' views all say what
    defaults.py says (issue 14: one set of defaults)."""
    import re
    from pathlib import Path

    from chord_memory import config, defaults, records, settings
    from chord_memory.recall import options

    doc = (Path(__file__).resolve().parents[1] / "docs" / "configuration.md").read_text()
    table = dict(re.findall(r"^\| `(memory\.[\w.]+)` \| [^|]*(?:\\\|[^|]*)* \| `([^`]*)` \|", doc, re.M))
    assert len(table) >= 14, table  # every row but the lists (pools, sessions)
    memory = config.Memory()
    for key, shown in table.items():
        value: object = memory
        for part in key.split(".")[1:]:
            value = getattr(value, part)
        if key == "memory.freeze_after":
            assert shown == "10m" and value == defaults.FREEZE_AFTER == 600
            continue
        if isinstance(value, bool) or value is None:
            text = {True: "true", False: "false", None: "null"}[value]
        else:
            text = "{}" if value == {} else str(value).removesuffix(".0")
        assert text == shown, key
    assert tuple(records.Limits()) == (defaults.SUMMARY_CHARS, defaults.STATEMENT_CHARS,
                                       defaults.RECORD_BYTES)
    assert settings.DEFAULTS.budget == memory.injection_budget and settings.DEFAULTS.enabled == memory.enabled
    assert options.DEFAULTS.pack() == options.Options(memory.maxRecall, memory.backend,
                                                      memory.preferOverDocBridge,
                                                      tuple(records.Limits())).pack()
    assert config.Endpoint(base_url="http://127.0.0.1:1", model="m").timeout == defaults.ENDPOINT_TIMEOUT
