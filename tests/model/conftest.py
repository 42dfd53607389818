"""Fixtures of the model extractor's tests: a scripted chat server, short waits."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from chord_memory.extract import model
from tests.model.server import ChatServer

FAST = model.Timing(active_window=0.0, wait_max=0.0, wait_poll=0.01, watch_poll=0.05,
                    tries=3, backoff=0.01, retry_after_cap=0.05)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_model: runs a real llama.cpp server (xllamacpp)")


@pytest.fixture(autouse=True)
def _fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model path's waits, shrunk: what a run uses unless a test says otherwise."""
    monkeypatch.setattr(model, "DEFAULT", FAST)


@pytest.fixture
def chat() -> Iterator[ChatServer]:
    server = ChatServer().start()
    try:
        yield server
    finally:
        server.stop()
