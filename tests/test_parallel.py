from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_memory import parallel
from chord_memory.cli import main
from tests.helpers import add_record, entry, set_region


def square(x: int) -> int:
    return x * x


def test_a_large_batch_gives_what_a_serial_run_gives() -> None:
    items = list(range(parallel.MIN_BATCH + 50))
    assert parallel.map_cold(square, items) == [x * x for x in items]


def test_cold_check_of_many_records_equals_a_warm_one(
    example_repo: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    count = parallel.MIN_BATCH + 10
    for i in range(count):
        add_record(example_repo, f"20261129-many-{i:06d}",
                   summary="s" * (161 if i == 7 else 20), conclusion=f"Statement {i} of the set.")
    set_region(example_repo, [entry(f"20261129-many-{i:06d}") for i in range(count)])
    runs = []
    for _ in range(2):  # the first run fills the caches on all cores, the second reads them
        main(["check", "--format", "json"])
        runs.append(json.loads(capsys.readouterr().out)["findings"])
    assert runs[0] == runs[1]
    assert [(f["code"], f["path"][-9:]) for f in runs[0]] == [("CM303", "000007.md"), ("CM501", "MEMORY.md")]
