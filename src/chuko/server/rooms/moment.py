"""A room at one version (`Moment`), as far as its state messages depend on the version."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chuko.core.protocol import State


@dataclass(frozen=True)
class Moment:
    """The room at one version, as far as its state messages depend on the version."""

    state: State
    version: int
    status: str
    # The last accepted move as (seat, move value): worded per reader when a snapshot is built.
    last_move: tuple[int, Any] | None
