"""Who plays: a player as every part of the server knows them, a guest or an account holder
(the club makes them, `club/sessions.py`; the store keeps them, `store/player_rows.py`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# The name the server gives a guest until they choose one ("Guest 4821", `club/sessions.py`);
# no player may choose a name that passes for it (`club/labels.py`).
GUEST_LABEL = re.compile(r"Guest \d{4}")


@dataclass(frozen=True)
class Player:
    """A player as the server knows them; `id` never leaves the server.

    A guest has no username; an account holder has one (shown as their
    profile name), and `name` is the display name either way.
    """

    id: str
    name: str
    username: str | None

    @property
    def is_guest(self) -> bool:
        """Whether this player plays without an account."""
        return self.username is None
