"""A PostgreSQL server of one's own, in a temporary directory, that can be stopped and started
again: what the outage test and the soak take away from the chuko server under them.

Debian's binaries (`/usr/lib/postgresql/N/bin`, the package `postgresql`). PostgreSQL will not
run as root, so as root its commands run as the `postgres` user, on a directory it owns.
Nothing is kept: fsync is off, and `close` removes the directory. The server is a child of
the process that started it, never a daemon, and ends with it (`bench/children.py`): its
backends follow the server.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.children import popen

STOP_WAIT = 60.0  # seconds a stop may take


def binaries() -> Path | None:
    """The directory of PostgreSQL's server binaries (the newest installed), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda path: int(Path(path).parts[-3]))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresProcess:
    """`start()` once, then `stop()` and `start()` it as often as wanted; `url` reaches its
    database `postgres` as the user `chuko` (trusted, no password)."""

    def __init__(self) -> None:
        found = binaries()
        if found is None:
            raise RuntimeError("PostgreSQL's server is not installed (apt-get install "
                               "postgresql).")
        self.bin = found
        self.port = free_port()
        self.url = f"postgresql://chuko@127.0.0.1:{self.port}/postgres"
        self.directory = Path(tempfile.mkdtemp(prefix="chuko-pg-"))
        self.data = self.directory / "data"
        self._as_postgres = os.geteuid() == 0
        self.process: subprocess.Popen[Any] | None = None
        if self._as_postgres:
            shutil.chown(self.directory, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "chuko", "--no-sync",
                  "-E", "UTF8")

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed: {done.stderr.strip() or done.stdout}")

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        user: dict[str, Any] = ({"user": "postgres", "group": "postgres", "extra_groups": []}
                                if self._as_postgres else {})
        with (self.directory / "log").open("ab") as log:
            self.process = popen(
                [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port),
                 "-k", str(self.directory), "-c", "listen_addresses=127.0.0.1",
                 "-c", "fsync=off", "-c", "synchronous_commit=off",
                 "-c", "full_page_writes=off"],
                stdout=log, stderr=subprocess.STDOUT, **user)
        deadline = time.monotonic() + STOP_WAIT
        while not self._ready():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self._end(signal.SIGQUIT)
                raise RuntimeError("PostgreSQL did not start: see "
                                   f"{self.directory / 'log'}.")
            time.sleep(0.05)

    def _ready(self) -> bool:
        return subprocess.run([str(self.bin / "pg_isready"), "-q", "-h", "127.0.0.1", "-p",
                               str(self.port)], timeout=STOP_WAIT).returncode == 0

    def _end(self, how: signal.Signals) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(how)
            try:
                self.process.wait(STOP_WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def stop(self) -> float:
        """Stop it at once (SIGINT, PostgreSQL's "fast" shutdown: connections are cut, as in
        a crash or a failover); the seconds it took."""
        began = time.monotonic()
        self._end(signal.SIGINT)
        return time.monotonic() - began

    def close(self) -> None:
        """Stop it (its "immediate" shutdown) if it runs, and remove its directory."""
        self._end(signal.SIGQUIT)
        shutil.rmtree(self.directory, ignore_errors=True)
