"""Fixtures for the server tests: an app on a fresh SQLite file, a Redis for the tests of
several workers (helpers live in server_helpers.py).

Two costs of starting an app are paid once per session rather than per test: migrating a
new SQLite file to the newest schema (each test's database is a copy of one migrated at the
start), and the collector's schedule (`server/web/collector.py`), whose first app freezes the
whole heap after a full collection, which in a test process walks every module the session
imported. The session holds the schedule as a running app would, so each app finds it made.
"""

from __future__ import annotations

import os
import random
import shutil
import warnings
from pathlib import Path

import pytest
from bench.redis_process import redis_server

with warnings.catch_warnings():  # starlette's TestClient warns about its httpx use
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from chuko.server import create_app
from chuko.server.store.database import Store
from chuko.server.web import collector

FAST_BOTS = {"chuko": {"hard": {"simulations": 20}}}


@pytest.fixture(scope="session", autouse=True)
def collector_schedule():
    """The collector's schedule made for the whole session (test_collector.py lets it go)."""
    collector.start()
    yield
    collector.stop()


@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory) -> Path:
    """A SQLite database at the newest schema, holding nothing."""
    path = tmp_path_factory.mktemp("migrated") / "chuko.db"
    Store(f"sqlite:///{path}").close()
    return path


@pytest.fixture
def db_url(tmp_path, migrated_db) -> str:
    """The test's own database: a copy of the migrated one."""
    shutil.copyfile(migrated_db, tmp_path / "chuko.db")
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




@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """CHUKO_TEST_REDIS, else a private redis-server that keeps nothing on disk."""
    given = os.environ.get("CHUKO_TEST_REDIS")
    if given:
        yield given
        return
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server) and "
                    "CHUKO_TEST_REDIS is not set")
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url
