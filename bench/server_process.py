"""The server as the load benchmarks run it (`serverload.py`): `chuko serve` in a subprocess,
under cProfile or with its garbage collections timed when asked, killed and restarted on
the same database; and the CPU time and memory of processes, read from /proc (Linux)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench.children import family, kill_group, popen, stop
from bench.postgres_process import free_port
from bench.serverload import request

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
STOP_GRACE = 30.0  # seconds a stopping server has to write its profile and end
# Runs a server under cProfile (CPU time of the event loop's thread only: the database
# writer and `to_thread` work are not in it) and writes the profile when uvicorn has shut
# down. uvicorn raises the SIGTERM it caught again once done: a handler that exits lets the
# profile be written, and ends a server told to stop before uvicorn handles signals.
_PROFILED = """
import cProfile, signal, sys, time
from chuko.cli.main import main
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
out, sys.argv = sys.argv[1], ["chuko", *sys.argv[2:]]
profiler = cProfile.Profile(time.thread_time)
profiler.enable()
try:
    main()
finally:
    profiler.disable()
    profiler.dump_stats(out)
"""
# Runs a server with its garbage collections timed (`gc.callbacks`): when uvicorn has shut
# down it writes them to a JSON file, each as [generation, monotonic start, seconds, objects
# freed, CPU seconds], with the objects the collector tracked then. SIGUSR1 runs a full
# collection (timed as the others) and writes a census of the tracked objects by type, and of
# what holds the commonest types, next to it (`.census.json`): what the collector walks.
_GC_TIMED = """
import collections, gc, json, signal, sys, time
from chuko.cli.main import main
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
out, sys.argv = sys.argv[1], ["chuko", *sys.argv[2:]]
pauses, began = [], [0.0, 0.0]
def timed(phase, info):
    if phase == "start":
        began[:] = time.monotonic(), time.thread_time()
    else:
        pauses.append([info["generation"], began[0], time.monotonic() - began[0],
                       info["collected"], time.thread_time() - began[1]])
def census(*_):
    gc.collect()
    counts = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
    owners = collections.defaultdict(collections.Counter)
    wanted = {name for name, _ in counts.most_common(8)}
    for o in gc.get_objects():
        for r in gc.get_referents(o):
            name = type(r).__qualname__
            if name in wanted:
                owners[name][type(o).__qualname__ + ":" + getattr(o, "__qualname__", "")[:40]] += 1
    with open(out + ".census.json", "w") as f:
        json.dump({"tracked": sum(counts.values()), "frozen": gc.get_freeze_count(),
                   "types": counts.most_common(60),
                   "owners": {k: v.most_common(12) for k, v in owners.items()}}, f)
signal.signal(signal.SIGUSR1, census)
gc.callbacks.append(timed)
try:
    main()
finally:
    with open(out, "w") as f:
        json.dump({"pauses": pauses, "tracked": len(gc.get_objects())}, f)
"""


# -- processes: CPU time and memory from /proc ------------------------------------------------

def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """User + system CPU seconds of a process, all its threads; or of one `thread` of it
    (`thread=pid`: its main thread, a server's event loop, the rest being its database writer
    and the threads of `asyncio.to_thread`)."""
    path = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and every process under it (uvicorn's workers)."""
    total = 0.0
    for member in family(pid):
        with contextlib.suppress(OSError):
            total += cpu_seconds(member)
    return total


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def machine_cpu() -> tuple[float, float]:
    """Busy and total CPU seconds of the whole machine since boot (all cores)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / CLOCK_TICKS, sum(values) / CLOCK_TICKS


class Server:
    """A server subprocess on a fixed port; `start()` brings it back on the same database
    after `kill()` (SIGKILL, nothing flushed). It leads a process group of its own (its
    workers' too), and ends with the bench that started it (`bench/children.py`)."""

    def __init__(self, command: list[str], ready_path: str, log: Path,
                 env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.command = [part.replace("{port}", str(self.port)) for part in command]
        self.ready_path = ready_path
        self.log = log
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None

    @classmethod
    def chuko(cls, directory: Path, *, bot_delay: float = 0.0, profile: Path | None = None,
              db: str | None = None, redis: str | None = None, workers: int = 1,
              gc_log: Path | None = None) -> Server:
        """`chuko serve` on a SQLite file in `directory`, or on the database `db` with
        `workers` workers sharing it through `redis`; under cProfile with `profile`, with its
        garbage collections timed into `gc_log` (`gc_pauses`) with that."""
        args = ["serve", "--host", "127.0.0.1", "--port", "{port}",
                "--db", db or f"sqlite:///{directory / 'bench.db'}", "--bot-delay", str(bot_delay)]
        if redis:
            args += ["--redis", redis, "--workers", str(workers)]
        prefix = ([sys.executable, "-c", _PROFILED, str(profile)] if profile else
                  [sys.executable, "-c", _GC_TIMED, str(gc_log)] if gc_log else
                  [sys.executable, "-m", "chuko.cli.main"])
        return cls(prefix + args, "/api/games", directory / "server.log")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> Server:
        with self.log.open("ab") as out:
            self.process = popen(self.command, own_group=True, stdout=out,
                                 stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            # Bounded: a server dying as it starts may leave the connection unanswered.
            with contextlib.suppress(OSError, TimeoutError):
                status, _ = asyncio.run(asyncio.wait_for(
                    request(self.port, "127.0.0.1", "GET", self.ready_path), 5))
                if status == 200:
                    return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"The server did not start; see {self.log}.")

    def kill(self) -> None:
        """SIGKILL to the server and its workers."""
        if self.process is not None and self.process.poll() is None:
            kill_group(self.process)

    def stop(self) -> None:
        """SIGTERM (uvicorn shuts down cleanly, a profile is written), SIGKILL if stuck."""
        if self.process is not None:
            stop(self.process, STOP_GRACE)


def gc_pauses(log: Path, start: float, end: float) -> str:
    """The garbage collections a server timed into `log` (`Server.chuko(gc_log=…)`) that
    began from `start` to `end` (monotonic seconds), per generation: how many, the longest
    and the median pause, and the time paused in all."""
    pauses = json.loads(log.read_text())["pauses"]
    parts = []
    for generation, name in enumerate(("young", "middle", "full")):
        found = sorted(p[2] * 1e3 for p in pauses if p[0] == generation and start <= p[1] < end)
        if found:
            parts.append(f"{name} {len(found)} (longest {found[-1]:.0f} ms, median "
                         f"{found[len(found) // 2]:.1f} ms, {sum(found):.0f} ms in all)")
        else:
            parts.append(f"{name} 0")
    return "garbage collections: " + ", ".join(parts)
