"""The log-in limits of a cluster are the cluster's, not each worker's: two apps sharing one
Redis (and one PostgreSQL) refuse the guess over a bucket whichever of them gets it, per
address at an account, per address and per account; the shared buckets refill as a
worker's own do, and a worker counts on its own while Redis cannot say.

The two apps need CHUKO_TEST_POSTGRES; Redis comes from CHUKO_TEST_REDIS, else a private
one."""

from __future__ import annotations

import asyncio
import uuid
import warnings

import argon2
import pytest
from test_cluster import URL

from chuko.server.club.passwords import Passwords
from chuko.server.shared.limits import Buckets, Limits, Rate, take_shared

pytest.importorskip("redis")

with warnings.catch_warnings():  # starlette's TestClient warns about its httpx use
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PASSWORD = "correct horse battery"
OWN = {"origin": "http://testserver"}
LOOSE = Rate(100, 1000)
# Each bucket alone at 10 a minute, the others loose; the guesses are at one account, or
# (for the address's) at a new name each time.
BUCKETS = {
    "pair": (Limits(logins_per_address=LOOSE, logins_per_account=LOOSE),
             "Too many log-in attempts for this account from your address: wait a minute and "
             "try again."),
    "address": (Limits(logins_per_address=Rate(10 / 60, 10)),
                "Too many log-in attempts from your address: wait a minute and try again."),
    "account": (Limits(logins_per_address=LOOSE, logins_per_address_and_account=LOOSE,
                       logins_per_account=Rate(10 / 60, 10)),
                "Too many log-in attempts for this account: wait a minute and try again."),
}


@pytest.fixture
def quick_hashing(monkeypatch):
    """Argon2id at a test's cost: what is tested is the count, not the hashing."""
    quick = argon2.PasswordHasher(time_cost=2, memory_cost=8192, parallelism=1)
    monkeypatch.setattr("chuko.server.web.accounts_api.Passwords", lambda: Passwords(quick))


@pytest.fixture
def two_workers(redis_url):
    """`two_workers(limits)`: two apps of one cluster of the test's own, as clients."""
    from chuko.server import create_app

    opened = []

    def make(limits: Limits | None = None) -> list[TestClient]:
        name = f"test-{uuid.uuid4().hex[:8]}"
        for _ in range(2):
            client = TestClient(create_app(URL, redis_url=redis_url, cluster_name=name,
                                           limits=limits, bot_delay=0, round_pause=0))
            client.__enter__()
            client.headers.update(OWN)
            opened.append(client)
        return opened[-2:]

    yield make
    for client in reversed(opened):
        client.__exit__(None, None, None)


def guesses(workers: list[TestClient], username: str, n: int, many: bool = False) -> list:
    """`n` wrong passwords for `username` (`many`: for a name made of it each time), sent
    to the workers in turn."""
    return [workers[k % 2].post("/api/account/login",
                                json={"username": f"{username}{k}" if many else username,
                                      "password": f"guess {k:04}"})
            for k in range(n)]


@pytest.mark.slow  # seconds: in make test, not make test-fast
@pytest.mark.skipif(not URL, reason="CHUKO_TEST_POSTGRES is not set")
@pytest.mark.parametrize("per", list(BUCKETS))
def test_the_eleventh_wrong_password_in_a_minute_is_refused_by_either_worker(
        two_workers, quick_hashing, per):
    limits, sentence = BUCKETS[per]
    workers = two_workers(limits)
    username = f"ann{uuid.uuid4().hex[:10]}"
    made = workers[0].post("/api/account/signup",
                           json={"username": username, "password": PASSWORD})
    assert made.status_code == 201, made.text
    workers[0].post("/api/account/logout", json={})
    workers[0].cookies.clear()  # a browser the account does not know
    answers = guesses(workers, username, 11, many=per == "address")
    assert [a.status_code for a in answers] == [401] * 10 + [429]
    assert answers[-1].json()["error"] == sentence
    # The right password is refused too, on both, until the bucket refills.
    for worker in workers:
        refused = worker.post("/api/account/login",
                              json={"username": username, "password": PASSWORD})
        assert refused.status_code == 429


def test_a_shared_bucket_refills_as_a_workers_own(redis_url):
    from chuko.server.cluster.shared_buckets import SharedBuckets
    from chuko.server.cluster.workers import connect

    now = [1_000_000.0]
    rate = Rate(10 / 60, 10)

    async def go() -> list[bool | None]:
        redis = connect(redis_url)
        try:
            buckets = [SharedBuckets(redis, f"test-{uuid.uuid4().hex[:8]}", lambda: now[0])]
            buckets.append(SharedBuckets(redis, buckets[0].prefix, lambda: now[0]))
            taken = [await buckets[k % 2].take("login", "ann", rate) for k in range(11)]
            now[0] += 6  # one token back
            taken += [await buckets[1].take("login", "ann", rate),
                      await buckets[0].take("login", "ann", rate),
                      await buckets[0].take("login", "bob", rate)]
            return taken
        finally:
            await redis.aclose()

    assert asyncio.run(go()) == [True] * 10 + [False, True, False, True]


def test_without_redis_a_worker_counts_on_its_own():
    from chuko.server.cluster.shared_buckets import SharedBuckets
    from chuko.server.cluster.workers import connect

    async def go() -> tuple[bool | None, list[bool]]:
        redis = connect("redis://127.0.0.1:1/0")  # nothing listens there
        try:
            away = SharedBuckets(redis, "test")
            local = Buckets(Rate(1 / 60, 2))
            return (await away.take("login", "ann", local.rate),
                    [await take_shared(away, "login", "ann", local) for _ in range(3)])
        finally:
            await redis.aclose()

    assert asyncio.run(go()) == (None, [True, True, False])
