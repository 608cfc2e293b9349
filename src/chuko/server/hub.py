"""The hub: every room the server knows, and the operations the HTTP and WebSocket routes
call. It is one object made of parts, each in a module of its own (`hub_base.py` names
them); the parts share the state of `HubBase`.

Nothing here knows which game a room plays: its rules, options, bot levels, hints and
replays all come from the game's class and descriptor in the registry.
"""

from __future__ import annotations

from .bot_runner import BotRunner
from .expiry import Expiry
from .forfeits import Forfeits
from .hints import Hints
from .history import History
from .lifecycle import Lifecycle
from .lobby import Lobby
from .moves import MovePath


class Hub(Lifecycle, Expiry, Lobby, MovePath, BotRunner, Forfeits, Hints, History):
    """Every room the server knows, and the operations the HTTP and WebSocket routes call."""
