"""A Redis server of one's own on a free loopback port, keeping nothing on disk: what the
cluster's benches and tests share their rooms through when no Redis is given. It ends with
the process that started it (`bench/children.py`)."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from bench.children import popen, stop
from bench.postgres_process import free_port

STOP_GRACE = 10.0


@contextlib.contextmanager
def redis_server(directory: Path) -> Iterator[str]:
    """A private redis-server, its working directory `directory`; its URL once it answers.
    RuntimeError when Redis is not installed or does not start."""
    import redis

    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("Redis is not installed (apt-get install redis-server).")
    port = free_port()
    process = popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                     "--appendonly", "no", "--dir", str(directory)],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        client = redis.Redis(port=port)
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(redis.ConnectionError):
                client.ping()
                break
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        client.close()
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process, STOP_GRACE)
