"""The compiled kernels load wherever the package is installed: where numba can write its
on-disk cache neither beside the package nor in the user's cache directory (a package
installed by root, a server account without a home), they are cached in a private
directory of the system's temporary one instead of failing to load."""

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

SRC = Path(__file__).resolve().parents[2] / "src"

# Loads the kernels, runs one (so it is compiled and written to the cache), and says where
# numba cached it.
PROBE = """
import numba, numpy as np
from chuko.solvers import load_kernels
kernels = load_kernels()
assert kernels is not None, "the kernels did not load"
kernels._gcd(12, 18)
print(numba.config.CACHE_DIR)
"""


def test_kernels_are_cached_in_a_private_directory_where_numba_finds_no_writable_place(
        tmp_path):
    package = tmp_path / "site" / "chuko"
    shutil.copytree(SRC / "chuko", package, ignore=shutil.ignore_patterns("__pycache__"))
    # No writable __pycache__ beside the kernels, no writable user cache directory: a file
    # stands where each directory would be made.
    (package / "solvers" / "__pycache__").write_text("")
    (package / "analysis" / "study" / "__pycache__").write_text("")
    nowhere = tmp_path / "not-a-directory"
    nowhere.write_text("")
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(PYTHONPATH=str(tmp_path / "site"), HOME=str(nowhere),
               XDG_CACHE_HOME=str(nowhere), TMPDIR=str(temp), PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    cache = Path(done.stdout.strip())
    assert cache.parent == temp
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700  # nobody else's to plant code in
    assert any(cache.rglob("kernels._gcd-*.nbi"))
