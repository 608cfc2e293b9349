"""Fixtures for the server tests: an app on a fresh SQLite file (helpers live in
server_helpers.py)."""

from __future__ import annotations

import random
import warnings

import pytest

with warnings.catch_warnings():  # starlette's TestClient warns about its httpx use
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from chuko.server import create_app

FAST_BOTS = {"chuko": {"hard": {"simulations": 20}}}


@pytest.fixture
def db_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path}/chuko.db"


@pytest.fixture
def make_client(db_url):
    """`make_client(seed=1, **options)`: a started TestClient on the test's database."""
    opened = []

    def make(seed: int | None = 1, **options) -> TestClient:
        options.setdefault("bot_delay", 0)
        options.setdefault("round_pause", 0)
        options.setdefault("bot_options", FAST_BOTS)
        rng = None if seed is None else random.Random(seed)
        client = TestClient(create_app(db_url, rng=rng, **options))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in reversed(opened):
        client.__exit__(None, None, None)


