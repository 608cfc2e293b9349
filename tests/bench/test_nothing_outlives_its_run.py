"""A bench killed outright (SIGKILL: no `finally`, no atexit) takes every process it started
with it: the server (under the bench's garbage-collection timer), its uvicorn workers, the
forked client processes, and the PostgreSQL and Redis servers of its own
(`bench/children.py`). Each bench here runs in a process of its own that is killed once its
processes are up; every process under it must be gone soon after."""

from __future__ import annotations

import json
import selectors
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bench.children import family, popen, running
from bench.postgres_process import binaries

ROOT = Path(__file__).resolve().parents[2]
STARTED_WITHIN = 120.0  # seconds for a bench's processes to come up, under load too
GONE_WITHIN = 20.0  # seconds for them to end once it is killed

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="processes end with their parent on Linux only")

# The least: a process that starts a child and a forked one, as the benches do.
CHILDREN = """
import json, multiprocessing, sys, time
from bench.children import ending_with_parent, popen
child = popen(["sleep", "600"])
forked = multiprocessing.get_context("fork").Process(target=ending_with_parent(time.sleep),
                                                     args=(600,), daemon=True)
forked.start()
print(json.dumps({"pids": [child.pid, forked.pid]}), flush=True)
time.sleep(600)
"""

# A bench's set: `python -m bench server`'s processes, started as it starts them.
SERVER_AND_CLIENTS = """
import json, sys, time
from pathlib import Path
from bench.server_process import Server
from bench.serverload import Pace, fork_clients
directory = Path(sys.argv[1])
server = Server.chuko(directory, gc_log=directory / "gc.json").start()
clients = fork_clients(2, server.port, 2, Pace(think=(0.2, 0.5)), time.monotonic(), 0.0)
print(json.dumps({"pids": [server.pid] + [client.pid for client in clients]}), flush=True)
time.sleep(600)
"""

# The two-worker soak's set: its own PostgreSQL and Redis, a server of two workers.
CLUSTER = """
import json, sys, time
from pathlib import Path
from bench.children import family
from bench.postgres_process import PostgresProcess
from bench.redis_process import redis_server
from bench.server_process import Server
directory = Path(sys.argv[1])
postgres = PostgresProcess()
postgres.start()
with redis_server(directory) as redis:
    server = Server.chuko(directory, db=postgres.url, redis=redis, workers=2,
                          gc_log=directory / "gc.json").start()
    while len(family(server.pid)) < 3:  # the supervisor and both workers
        time.sleep(0.05)
    print(json.dumps({"pids": [server.pid, postgres.process.pid],
                      "leftover": str(postgres.directory)}), flush=True)
    time.sleep(600)
"""


def started(script: str, directory: Path,
            request: pytest.FixtureRequest) -> tuple[subprocess.Popen[str], list[int]]:
    """The script in a process of its own; the pids it names once its processes are up (and
    a directory it names, removed at the end of the test)."""
    process = popen([sys.executable, "-c", script, str(directory)], cwd=ROOT, text=True,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(STARTED_WITHIN):
            process.kill()
            pytest.fail(f"the bench did not start: {process.communicate()[1][-3000:]}")
    line = process.stdout.readline()
    if not line:
        pytest.fail(f"the bench ended: {process.communicate()[1][-3000:]}")
    said = json.loads(line)
    if "leftover" in said:  # what the killed bench cannot remove: its PostgreSQL's directory
        request.addfinalizer(lambda: shutil.rmtree(said["leftover"], ignore_errors=True))
    return process, said["pids"]


def assert_all_end_with(process: subprocess.Popen[str], named: list[int]) -> None:
    """SIGKILL to the bench's process; every process under it ends within GONE_WITHIN."""
    under = family(process.pid) - {process.pid}
    assert set(named) <= under
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + GONE_WITHIN
    while (left := {pid for pid in under if running(pid)}) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"still running after their bench was killed: {sorted(left)}"


def test_a_killed_process_takes_the_children_it_started_and_forked_with_it(tmp_path, request):
    process, named = started(CHILDREN, tmp_path, request)
    assert_all_end_with(process, named)


@pytest.mark.slow
def test_a_killed_server_bench_takes_its_server_and_client_processes_with_it(tmp_path, request):
    process, named = started(SERVER_AND_CLIENTS, tmp_path, request)
    assert_all_end_with(process, named)


@pytest.mark.slow
@pytest.mark.skipif(binaries() is None or shutil.which("redis-server") is None,
                    reason="PostgreSQL and Redis are not installed")
def test_a_killed_cluster_bench_takes_its_workers_and_databases_with_it(tmp_path, request):
    process, named = started(CLUSTER, tmp_path, request)
    assert_all_end_with(process, named)
