"""The hub: every room the server knows, and the operations the HTTP and WebSocket routes
call. It is one object made of parts, each in a module of its own (`hub_base.py` names
them); the parts share the state of `HubBase`.

Nothing here knows which game a room plays: its rules, options, bot levels, hints and
replays all come from the game's class and descriptor in the registry.
"""

from __future__ import annotations

from chuko.server.rooms.bots import BotRunner
from chuko.server.rooms.expiry import Expiry
from chuko.server.rooms.forfeits import Forfeits
from chuko.server.rooms.hints import Hints
from chuko.server.rooms.history import History
from chuko.server.rooms.lifecycle import Lifecycle
from chuko.server.rooms.move_path import MovePath
from chuko.server.rooms.opening import Lobby


class Hub(Lifecycle, Expiry, Lobby, MovePath, BotRunner, Forfeits, Hints, History):
    """Every room the server knows, and the operations the HTTP and WebSocket routes call."""
