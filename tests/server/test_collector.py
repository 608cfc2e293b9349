"""The garbage collector's schedule while a server runs (`server/web/collector.py`): what exists
at start is frozen, full collections are rare, and the process's collector is as it was once
the last app stops."""

from __future__ import annotations

import gc
import warnings

import pytest

from chuko.server import create_app
from chuko.server.web import collector

with warnings.catch_warnings():  # starlette's TestClient warns about its httpx use
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture(autouse=True)
def no_app_running(collector_schedule):
    """Each test starts where a server process starts: the session's hold let go meanwhile."""
    collector.stop()
    yield
    collector.start()


@pytest.mark.slow  # seconds: in make test, not make test-fast
def test_a_running_app_freezes_what_it_started_with_and_makes_full_collections_rare(
        make_client):
    before = gc.get_threshold()
    frozen_before = gc.get_freeze_count()
    client = make_client()
    assert gc.get_threshold() == (before[0], collector.MIDDLE_AFTER, collector.FULL_AFTER)
    assert gc.get_freeze_count() > frozen_before  # the app, its routes, the registry…
    assert client.get("/api/games").status_code == 200


def test_the_collector_is_as_it_was_once_the_last_of_two_apps_stops(db_url):
    before = gc.get_threshold()
    with TestClient(create_app(db_url)):
        with TestClient(create_app(db_url)):
            assert gc.get_threshold()[2] == collector.FULL_AFTER
        assert gc.get_threshold()[2] == collector.FULL_AFTER  # the first still serves
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
