"""Fixtures for the server tests: an app on a fresh SQLite file, a Redis for the tests of
several workers (helpers live in server_helpers.py)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import time
import warnings

import pytest
from bench.postgres_process import free_port

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




@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """CHUKO_TEST_REDIS, else a private redis-server that keeps nothing on disk."""
    given = os.environ.get("CHUKO_TEST_REDIS")
    if given:
        yield given
        return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server) and "
                    "CHUKO_TEST_REDIS is not set")
    port = free_port()
    directory = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no", "--dir", str(directory)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import redis

        client = redis.Redis(port=port)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        else:
            pytest.skip("redis-server did not start")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)
