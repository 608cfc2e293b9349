"""The processes a bench or a test starts never outlive it. Each is asked to end with its
parent (`chuko.cli.lifetime`: SIGKILL from the kernel), so a run killed outright, whose
`finally` blocks never run, takes its servers and clients with it; a server with processes
of its own (uvicorn's workers, which end with it in turn) leads a process group, and is
stopped as one: SIGTERM, then SIGKILL to the whole group once its grace is over.

Start them from the main thread: the kernel ties a child's end to the thread that started
it."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chuko.cli.lifetime import end_with_parent


def popen(command: list[str], *, own_group: bool = False, **options: Any) -> subprocess.Popen[Any]:
    """`subprocess.Popen(command, **options)`, ending with this process; with `own_group`, the
    leader of a process group of its own (`stop`, `kill_group`)."""
    parent = os.getpid()
    return subprocess.Popen(command, preexec_fn=lambda: end_with_parent(parent),
                            start_new_session=own_group, **options)


def ending_with_parent(target: Callable[..., Any]) -> Callable[..., Any]:
    """`target`, for a forked process (`multiprocessing`'s "fork" context) that ends with the
    process forking it."""
    parent = os.getpid()

    def run(*args: Any) -> Any:
        end_with_parent(parent)
        return target(*args)

    return run


def family(pid: int) -> set[int]:
    """The process `pid` and every process under it, read from /proc (Linux)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
    found, grown = {pid}, True
    while grown:
        grown = False
        for child, parent in parents.items():
            if parent in found and child not in found:
                found.add(child)
                grown = True
    return found


def running(pid: int) -> bool:
    """Whether the process `pid` runs: it exists and is no zombie (dead, not yet reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def kill_group(process: subprocess.Popen[Any]) -> None:
    """SIGKILL to the process and to every process of its group (it leads one: `own_group`),
    reaped."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def stop(process: subprocess.Popen[Any], grace: float) -> None:
    """SIGTERM, and SIGKILL to its whole group if it has not ended within `grace` seconds
    (a server stuck in its shutdown, or one that ignores SIGTERM); reaped either way."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        kill_group(process)
