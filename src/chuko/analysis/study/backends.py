"""Where exhaustive work runs, and how it survives an interruption.

A piece of work (`ShardWork`) is a list of shards, each solved on its own into a partial
result that adds up with the others. The runner hands chunks of shards to
- local processes (`--backend local`, the default; one process when --jobs is 1), or
- Ray (`--backend ray`): local Ray started for the run, or a cluster at `--address`.

The same work object runs on both. After each chunk the runner merges its result, moves
the progress bar on, and now and then writes a checkpoint: the work's key, the shards
done and the merged result. A later run with the same key resumes from it; partial
results merge the same whatever the order, so a resumed run answers exactly as an
uninterrupted one.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from multiprocessing import get_context
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any, Protocol

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json

BACKENDS = ("local", "ray")
SAVE_EVERY = 5.0  # seconds between checkpoints
CHUNK_SHARDS = 40  # shards per chunk when there are many: about a second of work each


class ShardWork(Protocol):
    """Exhaustive work split into shards (picklable: it travels to other processes)."""

    def key(self) -> Json:
        """What the work is, for checkpoints: a run resumes only the same work."""
        ...

    def selected(self) -> list[int]:
        """The shards this run covers, in order."""
        ...

    def total(self) -> int:
        """The progress units of all selected shards (deals, by weight)."""
        ...

    def solve(self, shards: Sequence[int]) -> Json:
        """The partial result of some shards; its "done" is their progress units."""
        ...

    def merge(self, a: Json, b: Json) -> Json:
        """Two partial results as one (associative and commutative)."""
        ...


def _solve(work: ShardWork, shards: list[int]) -> tuple[list[int], Json]:
    return shards, work.solve(shards)


def chunks(shards: list[int], jobs: int) -> list[list[int]]:
    """Interleaved chunks, so that every chunk mixes large and small shards and the
    progress bar's pace is steady."""
    count = min(len(shards), max(4 * jobs, len(shards) // CHUNK_SHARDS))
    return [shards[i::count] for i in range(count)] if shards else []


class Checkpoint:
    """The file a run saves to and resumes from (None: no checkpoint)."""

    def __init__(self, path: Path | None, key: Json) -> None:
        self.path = path
        self.key = key
        self.saved = time.monotonic()

    def load(self) -> tuple[set[int], Json | None]:
        if self.path is None or not self.path.exists():
            return set(), None
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise ConfigError(f"The checkpoint {self.path} cannot be read: remove it to "
                              "start again.") from None
        if data.get("key") != self.key:
            raise ConfigError(f"The checkpoint {self.path} belongs to another study: give "
                              "another --checkpoint or remove it.")
        return set(data["done"]), data["result"]

    def save(self, done: set[int], result: Json | None, *, force: bool = False) -> None:
        if self.path is None or (not force and time.monotonic() - self.saved < SAVE_EVERY):
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        part = self.path.with_name(self.path.name + ".part")
        data = {"key": self.key, "done": sorted(done), "result": result}
        part.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
        os.replace(part, self.path)  # atomic: an interruption leaves the old file whole
        self.saved = time.monotonic()


def run(
    work: ShardWork,
    *,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    checkpoint: Path | None = None,
    advance: Callable[[int], None] = lambda n: None,
) -> Json:
    """Solve every selected shard of `work` (resuming from `checkpoint`), merged."""
    if backend not in BACKENDS:
        raise ConfigError(f"The backend is one of {', '.join(BACKENDS)}, not {backend!r}.")
    if jobs < 1:
        raise ConfigError("--jobs must be at least 1.")
    saver = Checkpoint(checkpoint, work.key())
    done, result = saver.load()
    if result is not None:
        advance(int(result["done"]))
    pending = [s for s in work.selected() if s not in done]

    def take(shards: list[int], part: Json) -> None:
        nonlocal result
        result = part if result is None else work.merge(result, part)
        done.update(shards)
        saver.save(done, result)
        advance(int(part["done"]))

    try:
        if backend == "ray":
            _run_ray(work, chunks(pending, jobs), jobs, address, take)
        elif jobs == 1:
            for chunk in chunks(pending, 1):
                take(*_solve(work, chunk))
        else:
            _run_processes(work, chunks(pending, jobs), jobs, take)
    finally:
        saver.save(done, result, force=True)
    if result is None:
        result = work.solve([])
    return result


def _run_processes(work: ShardWork, todo: list[list[int]], jobs: int,
                   take: Callable[[list[int], Json], None]) -> None:
    with _workers(jobs) as pool:
        for shards, part in pool.imap_unordered(partial(_solve, work), todo):
            take(shards, part)


@contextmanager
def _workers(jobs: int) -> Iterator[Pool]:
    """`jobs` worker processes, spawned (not forked: the parent runs the progress bar's
    thread). Ctrl-C reaches every process of the terminal's job, so the workers are born
    deaf to it and the parent alone stops: when it stops early, it ends them at once, their
    unfinished chunks lost (what was merged is in the checkpoint)."""
    # Blocked while they start (they inherit the mask), so none dies of it half-born.
    unblock = _block_ctrl_c()
    try:
        pool = get_context("spawn").Pool(jobs, initializer=_deaf_to_ctrl_c)
    except BaseException:
        unblock()
        raise
    try:
        unblock()  # a Ctrl-C pressed meanwhile is raised here
        yield pool
    except BaseException:
        with _ctrl_c_ignored():  # a second Ctrl-C must not cut the ending short
            pool.terminate()
        raise
    pool.close()
    pool.join()


@contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread handles signals
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _block_ctrl_c() -> Callable[[], None]:
    """Hold SIGINT back from this thread (and the processes it starts); returns the undo."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: nothing to hold back
        return lambda: None
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    def unblock() -> None:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)

    return unblock


def _deaf_to_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_ray(work: ShardWork, todo: list[list[int]], jobs: int, address: str | None,
             take: Callable[[list[int], Json], None]) -> None:
    try:
        import ray
    except ImportError:
        raise ConfigError("--backend ray needs Ray: pip install 'chuko[lab]'.") from None
    started = not ray.is_initialized()
    if started:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "configure_logging": False}
        if address is None:
            options["num_cpus"] = jobs
        ray.init(address=address, **options)
    try:
        solve = ray.remote(_solve)
        shared = ray.put(work)
        running = [solve.remote(shared, chunk) for chunk in todo]
        while running:
            finished, running = ray.wait(running, num_returns=1)
            for ref in finished:
                take(*ray.get(ref))
    finally:
        if started:
            ray.shutdown()
