"""Where numba keeps the compiled kernels between runs (`cache=True`), so that a process
loads them in a fraction of a second instead of compiling them for several.

numba caches in `NUMBA_CACHE_DIR` when it is set, else beside the package (its
`__pycache__`), else in the user's cache directory (`~/.cache/numba`). Where none of these
can be written (a package installed by root and run by a server account without a home)
it refuses to define a cached function at all, so the kernels would not load. Then the
cache goes to a directory of the system's temporary one that only this user may write
(`chuko-numba-<uid>`, kept across runs), or failing that a fresh one for this process.
"""

from __future__ import annotations

import atexit
import os
import shutil
import stat
import tempfile
from pathlib import Path

from numba import config, njit


def _probe() -> None:
    """Never run: numba is asked where it would cache a function of this directory."""


def ensure_cache() -> None:
    """Make sure numba has somewhere to cache this package's kernels; call before
    defining them."""
    try:
        njit(cache=True)(_probe)  # numba picks its cache directory here, or refuses
    except RuntimeError:
        config.CACHE_DIR = str(private_directory())  # type: ignore[attr-defined]


def private_directory() -> Path:
    """`chuko-numba-<uid>` in the temporary directory, made for this user alone; a fresh
    directory (removed at exit) when that one is someone else's or open to others, since
    numba's cache files are code that a process loads."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    kept = Path(tempfile.gettempdir()) / f"chuko-numba-{uid if uid is not None else 'user'}"
    try:
        kept.mkdir(mode=0o700, exist_ok=True)
        found = os.lstat(kept)
        if (stat.S_ISDIR(found.st_mode) and stat.S_IMODE(found.st_mode) & 0o077 == 0
                and (uid is None or found.st_uid == uid)):
            return kept
    except OSError:
        pass
    fresh = Path(tempfile.mkdtemp(prefix="chuko-numba-"))
    atexit.register(shutil.rmtree, fresh, ignore_errors=True)
    return fresh
