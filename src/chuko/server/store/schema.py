"""The database's schema, as the newest migration leaves it (`migrations/versions`) (the
engine that reaches it is `engine.py`'s).

A game is stored once (docs/architecture.md, 'Storage'): its room's row is the header (the
game, its options, the record its moves start from — for a new room the deal, `record()`
right after dealing —, a secret seed for the chance still to come, the seats) and `moves` is
its append-only log, one row per accepted move. Nothing is rewritten per move: the game is
rebuilt by replaying the header's record, reseeding the state with the seed, and playing
the moves (`chuko.server.rooms.lifecycle.rebuild`). `base` counts the moves the header's record
holds already (0, but for rooms stored before the log was the truth).

A room's `status` is waiting, playing, over, or expired (a waiting room whose seats were
not all taken in time, `writes.expire_waiting`). Seats keep only SHA-256 hashes of their
tokens and invite codes. A finished room names its rematch, and a rematch the room it
follows.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),  # any registered game's id, plug-ins too
    Column("options", Text, nullable=False),
    Column("status", String(8), nullable=False),
    Column("version", Integer, nullable=False),  # the moves accepted so far
    Column("record", Text, nullable=False),  # the record the move log starts from
    Column("base", Integer, nullable=False),  # the moves `record` holds already
    Column("seed", BigInteger),  # reseeds the rebuilt state: its chance still to come
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("rematch", String(32)),  # the room that replays this one's seats, once asked for
    Column("rematch_of", String(32)),  # the finished room whose seats this one takes over
    Column("rated", Boolean, nullable=False, default=False),  # its result changes ratings
    Column("clock", Text),  # its time control as JSON; null: no clock
    Column("started", Float),  # when its last seat was taken and play began (the clocks')
    Column("ended", Float),  # when it ended
    Column("result", Text),  # JSON: how it ended when the engine did not say (a forfeit)
    Index("rooms_status", "status"),
)

seats = Table(
    "seats",
    metadata,
    Column("room", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(8), nullable=False),
    Column("level", String(16)),
    Column("token_hash", String(64)),
    Column("invite_hash", String(64)),
    Column("joined", Boolean, nullable=False),
    Column("name", String(24)),  # the player's display name; null: the default label
    Column("player", String(32)),  # the player (players.id) who holds it, when known
    Column("gone", String(8)),  # resigned, timeout or left: a bot plays it from then on
    Index("seats_player", "player"),
)

# A guest or an account: a guest has no username and no password.
players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("username", String(24)),  # as chosen (an account's), null for a guest
    Column("username_key", String(24), unique=True),  # casefolded, to compare names by
    Column("name", String(24)),  # the display name
    Column("password_hash", Text),  # Argon2id, PHC string
    Column("created", Float, nullable=False),
    Column("deleted", Boolean, nullable=False, default=False),
    # Whom the account takes challenges from (migration 0007): null for everyone,
    # "follows" for those it follows, "nobody".
    Column("challenges", String(8)),
    # The language the account chose (migration 0009): null for the browser's own.
    Column("language", String(8)),
)

# Server-side sessions: the cookie holds a secret whose SHA-256 is the row's key; logging out
# deletes the row, so a copy of the cookie is worth nothing after.
sessions = Table(
    "sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("player", String(32), ForeignKey("players.id"), nullable=False),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Index("sessions_player", "player"),
)

# A player's rating in a game and player-count class ("duel": heads-up, "multi": 3+).
ratings = Table(
    "ratings",
    metadata,
    Column("player", String(32), ForeignKey("players.id"), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("class", String(8), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ratings_board", "game", "class", "mu"),
)

# Each rated game's rating after it, for a player's rating-history plot.
rating_history = Table(
    "rating_history",
    metadata,
    Column("player", String(32), ForeignKey("players.id"), primary_key=True),
    Column("room", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("class", String(8), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("at", Float, nullable=False),
    # A player's recent rated games, for who is rated (migration 0006).
    Index("rating_history_recent", "player", "at"),
)

# Practice (migration 0004). How many of a game's lesson steps a player has done.
lesson_progress = Table(
    "lesson_progress",
    metadata,
    Column("player", String(32), ForeignKey("players.id"), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("done", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

# A player's result on a day's Caravan ("2026-12-02"): bridges used against the day's par.
daily_results = Table(
    "daily_results",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("player", String(32), ForeignKey("players.id"), primary_key=True),
    Column("won", Boolean, nullable=False),
    Column("bridges", Integer, nullable=False),
    Column("par", Integer, nullable=False),
    Column("seconds", Float, nullable=False),
    Column("at", Float, nullable=False),
    Index("daily_board", "day", "won", "seconds"),
)

# When a day's Caravan was first served to a player (migration 0005), written once: their
# result's time is the server's, from this to the accepted result.
daily_starts = Table(
    "daily_starts",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("player", String(32), ForeignKey("players.id"), primary_key=True),
    Column("at", Float, nullable=False),
)

# A player's puzzle rating, each puzzle's rating as tries move it from its calibrated one
# (Glicko-2 since migration 0010), and which puzzles a player has tried (a puzzle rates a
# player once).
puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("player", String(32), ForeignKey("players.id"), primary_key=True),
    Column("tries", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
)
puzzles = Table(
    "puzzles",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("tries", Integer, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
)
puzzle_tries = Table(
    "puzzle_tries",
    metadata,
    Column("player", String(32), ForeignKey("players.id"), primary_key=True),
    Column("puzzle", String(16), primary_key=True),
    Column("solved", Boolean, nullable=False),
    Column("at", Float, nullable=False),
)

# A player's puzzle streak (migration 0010): puzzles of rising difficulty, unrated, until
# the first miss; `given` the run's puzzles so far, comma-separated.
puzzle_streaks = Table(
    "puzzle_streaks",
    metadata,
    Column("player", String(32), ForeignKey("players.id"), primary_key=True),
    Column("puzzle", String(16)),
    Column("solved", Integer, nullable=False),
    Column("best", Integer, nullable=False),
    Column("given", Text, nullable=False),
    Column("started", Float, nullable=False),
)

# People (migration 0007): who follows whom and who blocks whom, since when.
follows = Table(
    "follows",
    metadata,
    Column("follower", String(32), ForeignKey("players.id"), primary_key=True),
    Column("followed", String(32), ForeignKey("players.id"), primary_key=True),
    Column("since", Float, nullable=False),
    Index("follows_followed", "followed"),
)
blocks = Table(
    "blocks",
    metadata,
    Column("blocker", String(32), ForeignKey("players.id"), primary_key=True),
    Column("blocked", String(32), ForeignKey("players.id"), primary_key=True),
    Column("since", Float, nullable=False),
    Index("blocks_blocked", "blocked"),
)

# A challenge from one player to another (migration 0007): its game, options (JSON), clock
# (JSON, null: none) and whether it is rated; its `status` is pending, accepted, declined,
# cancelled or expired; a declined one keeps the reason chosen, an accepted one its room.
challenges = Table(
    "challenges",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("challenger", String(32), ForeignKey("players.id"), nullable=False),
    Column("challenged", String(32), ForeignKey("players.id"), nullable=False),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("clock", Text),
    Column("rated", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("status", String(10), nullable=False),
    Column("reason", String(16)),
    Column("room", String(32)),
    Index("challenges_to", "challenged", "status"),
    Index("challenges_from", "challenger", "status"),
    Index("challenges_due", "status", "expires"),
)

# Tournaments (migration 0008). A tournament's settings, and where it is: upcoming,
# running or over, and its `round` (a Swiss's rounds paired, an arena's waves). One made
# from the server's schedule carries its `schedule_key`, so each is made once. The password
# is an entry code, kept as a SHA-256 of the tournament's id and the code.
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("clock", Text, nullable=False),  # JSON: its games' time control
    Column("rated", Boolean, nullable=False),
    Column("system", String(8), nullable=False),  # "arena" | "swiss"
    Column("table_size", Integer, nullable=False),
    Column("starts_at", Float, nullable=False),
    Column("minutes", Integer),  # an arena's length
    Column("rounds", Integer),  # a Swiss's rounds
    Column("rating_min", Integer),
    Column("rating_max", Integer),
    Column("password_hash", String(64)),
    Column("created_by", String(32), ForeignKey("players.id")),  # null: the schedule's
    Column("created", Float, nullable=False),
    Column("schedule_key", String(96), unique=True),
    Column("status", String(8), nullable=False),  # upcoming | running | over
    Column("round", Integer, nullable=False),
    Column("started", Float),
    Column("ended", Float),
    Index("tournaments_status", "status", "starts_at"),
    Index("tournaments_creator", "created_by", "status"),
)

# Who entered a tournament, their rating when they did (what pairings go by) and whether
# they have withdrawn, or (an arena) paused.
tournament_players = Table(
    "tournament_players",
    metadata,
    Column("tournament", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("player", String(32), ForeignKey("players.id"), primary_key=True),
    Column("name", String(24), nullable=False),
    Column("rating", Float, nullable=False),
    Column("joined_at", Float, nullable=False),
    Column("withdrawn", Boolean, nullable=False),
    Column("paused", Boolean, nullable=False),
)

# Each pairing, recorded before its room is made: the room's id chosen up front (null for a
# bye), the players by seat (JSON). Its result is its room's stored end, never copied here.
tournament_games = Table(
    "tournament_games",
    metadata,
    Column("tournament", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True, autoincrement=False),
    Column("slot", Integer, primary_key=True, autoincrement=False),
    Column("room_id", String(32), unique=True),
    Column("players", Text, nullable=False),
    Column("created", Float, nullable=False),
)

moves = Table(
    "moves",
    metadata,
    Column("room", String(32), ForeignKey("rooms.id"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("move", Text, nullable=False),
    Column("at", Float, nullable=False),
)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human" | "bot"
    level: str | None
    token_hash: str | None
    invite_hash: str | None
    joined: bool
    name: str | None = None
    player: str | None = None  # the guest or account that holds the seat, when known
    gone: str | None = None  # resigned, timeout or left: a bot took the seat over


@dataclass
class RoomRow:
    """A room's header, and (as loaded) the moves its log adds to `record`."""

    id: str
    game: str
    options: dict[str, Any]
    status: str
    version: int
    record: dict[str, Any]  # the record the moves start from: the deal, for a new room
    seats: list[SeatRow]
    rematch: str | None = None
    rematch_of: str | None = None
    created: float = 0.0  # seconds since the epoch (time.time, or the server's clock)
    seed: int | None = None  # secret: never leaves the server
    base: int = 0  # the moves `record` holds already
    moves: list[tuple[int, str]] = field(default_factory=list)  # (seat, move) after `base`
    rated: bool = False
    clock: dict[str, Any] | None = None  # the time control; None: no clock
    started: float | None = None
    ended: float | None = None
    result: dict[str, Any] | None = None  # how it ended when the engine did not say
    times: list[float] = field(default_factory=list)  # when each of `moves` was played
