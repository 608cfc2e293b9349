"""The store's reads and writes of lesson progress (`schema.lesson_progress`): the highest
step of each game's lesson a player has done. Reads are functions of a connection for
`Store.read`/`fetch`, writes are `Write`s for `Store.submit`.
"""

from __future__ import annotations

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from chuko.server.store.schema import lesson_progress
from chuko.server.store.writes import Write


def progress(conn: Connection, player: str) -> dict[str, int]:
    """The steps the player has done, by game."""
    rows = conn.execute(select(lesson_progress.c.game, lesson_progress.c.done).where(
        lesson_progress.c.player == player)).all()
    return {row.game: row.done for row in rows}


def record_done(player: str, game_id: str, done: int, now: float) -> Write:
    """The write that keeps the highest step done of the player's lesson of `game_id`: the
    stored count or `done`, whichever is higher; the count it leaves."""

    def write(conn: Connection) -> int:
        key = (lesson_progress.c.player == player) & (lesson_progress.c.game == game_id)
        stored = conn.execute(select(lesson_progress.c.done).where(key)).scalar()
        if stored is None:
            conn.execute(insert(lesson_progress).values(player=player, game=game_id,
                                                        done=done, updated=now))
            return done
        if done > stored:
            conn.execute(update(lesson_progress).where(key).values(done=done, updated=now))
        return int(max(done, stored))

    return write
