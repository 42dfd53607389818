"""Recall, full-span recall and precision on the seeded corpus (floors from the issue)."""
from __future__ import annotations

import pytest

from chord_memory.secrets import scan_text
from tests.secrets import negatives
from tests.secrets.corpus import Metrics, evaluate, generate

RECALL, FULL_SPAN, PRECISION = 0.95, 0.93, 0.98


def _scan(text: str) -> list[tuple[int, int, str]]:
    return [(f.start, f.end, f.kind) for f in scan_text(text)]


@pytest.fixture(scope="module", params=[20261129, 4242])
def metrics(request: pytest.FixtureRequest) -> Metrics:
    return evaluate(generate(request.param, 500), _scan)


def test_corpus_is_big_enough(metrics: Metrics) -> None:
    assert metrics.planted >= 500
    assert len(negatives.FAMILIES) >= 25


def test_recall(metrics: Metrics) -> None:
    assert metrics.recall >= RECALL, metrics.misses[:20]


def test_full_span_recall(metrics: Metrics) -> None:
    assert metrics.full_span_recall >= FULL_SPAN, metrics.misses[:20]


def test_precision(metrics: Metrics) -> None:
    assert metrics.precision >= PRECISION, metrics.false_positives[:20]


def test_every_negative_family_is_clean() -> None:
    import random

    rng = random.Random(5)
    for family in negatives.FAMILIES:
        for _ in range(20):
            text = family(rng)
            assert _scan(text) == [], (family.__name__, text)
