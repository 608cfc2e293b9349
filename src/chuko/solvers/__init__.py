"""Exact solvers for the perfect-information layout games.

A solver keeps a compact private encoding for speed (ruling-level logic lives in the
games' modules); its tests compare it with the engine on many random deals.
"""

from types import ModuleType


def load_kernels() -> ModuleType | None:
    """The compiled kernels (solvers/kernels.py), or None when numba, the optional `fast`
    extra, is not installed. Imported on first use: numba takes a while to load."""
    try:
        from . import kernels
    except ImportError:
        return None
    return kernels
