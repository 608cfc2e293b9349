"""A process that ends with its parent (Linux's `prctl(PR_SET_PDEATHSIG)`): a server's
worker whose supervisor was killed, or a benchmark's server and clients whose bench was,
would otherwise serve on, their parent now process 1. Elsewhere nothing is asked, and a
parent's own clean-up is all there is.

The kernel sends the signal when the *thread* that started the process ends, so a process
asks this only of a parent that starts it from its main thread (uvicorn's supervisor does).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# Loaded once, here: a child between fork and exec (`Popen`'s preexec_fn) should not load it.
_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def end_with_parent(parent: int, sig: int = signal.SIGKILL) -> None:
    """Have the kernel send `sig` to this process when its parent ends, and end now if
    `parent` (the pid the parent had) is gone already: it may have ended before the asking."""
    if _LIBC is None:
        return
    if _LIBC.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))
    if os.getppid() != parent:
        os.kill(os.getpid(), sig)
