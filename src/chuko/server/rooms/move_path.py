"""The one path every move takes (a player's or a bot's): checked by the engine on a copy of
the state, appended to the room's move log in the database, and only then made the room's
state and sent to every client. Moves another worker stored first are caught up the same
way (`catch_up`). A move this worker stored is told on the bus (`MoveStored`, then `GameOver`
when it ended the game)."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from chuko.core.errors import ConfigError
from chuko.core.protocol import State
from chuko.core.text import Text
from chuko.server.rooms.bot_maker import BotMaker
from chuko.server.rooms.commits import stored
from chuko.server.rooms.deadlines import Deadlines
from chuko.server.rooms.endings import ranks
from chuko.server.rooms.expiry import expired_sentence
from chuko.server.rooms.peers import changed
from chuko.server.rooms.room import Forbidden, Pause, Room, clocked
from chuko.server.rooms.terms import ClubTerms
from chuko.server.shared.bus import Bus, GameOver, MoveStored
from chuko.server.store import database as db

log = logging.getLogger("chuko.server")

MAX_MOVE_TEXT = 300
# Times a move is checked again after another worker stored one first (a cluster's race).
CONFLICT_RETRIES = 3
MOVE_NOT_SAVED = Text("The game cannot be saved right now; your move was not played. Try again "
                      "in a moment.")


class MovePath:
    """Moves played, stored, and sent."""

    def __init__(self, store: db.Store, clock: Callable[[], float], deadlines: Deadlines,
                 maker: BotMaker, bus: Bus, terms: ClubTerms, *,
                 round_pause: float, waiting_ttl: float) -> None:
        self.store, self.clock, self.deadlines, self.maker = store, clock, deadlines, maker
        self.bus, self.terms = bus, terms
        self.round_pause, self.waiting_ttl = round_pause, waiting_ttl

    async def play(self, room: Room, seat: int | None, text: Any, *,
                   by_bot: bool = False) -> None:
        """Apply `seat`'s move through the engine, store it, then tell everyone; ChukoError
        (with a sentence for that client) when refused, changing nothing. `by_bot`: the
        seat's bot moves (a person's move for a bot's seat is refused)."""
        if seat is None:
            raise Forbidden(Text("Spectators cannot move."))
        if not by_bot and room.seats[seat].kind == "bot":
            raise Forbidden(Text("A bot plays this seat now."))
        if not isinstance(text, str) or not text.strip():
            raise ConfigError(Text("A move message needs the move as text: {example}.",
                                   example='{"type": "move", "move": "…"}'))
        if len(text) > MAX_MOVE_TEXT:
            raise ConfigError(Text("That move is far too long to be a move."))
        async with room.lock:
            for attempt in range(CONFLICT_RETRIES + 1):
                try:
                    await self._append(room, seat, text)
                    break
                except db.Conflict:
                    # The stored game is ahead: another worker stored a move first or ended
                    # the game (a forfeit, which moves no version), or a commit cut off by
                    # the database going away landed after all. Catch up, the stored end
                    # included, and check the move again against the game as it now is
                    # (accepted if it still holds, refused with the engine's sentence or
                    # "The game is over." if not), as one worker does with moves queued on
                    # the lock.
                    if attempt == CONFLICT_RETRIES:
                        raise
                    await self.catch_up(room, reload=True)

    async def _append(self, room: Room, seat: int, text: str) -> None:
        """Check the move on a copy of the state, store it, then make it the room's (the
        caller holds the room's lock); ChukoError when refused, db.Conflict when another
        worker stored this version first."""
        if room.closed is not None:
            raise ConfigError(room.closed)
        if room.status == "waiting":
            raise ConfigError(Text("The game starts when every seat is taken."))
        if room.status == "over":
            raise ConfigError(Text("The game is over."))
        at = self.clock()
        deadline = None if room.clocks is None else room.clocks.deadline(seat)
        if deadline is not None and at >= deadline:
            self.deadlines.schedule(room)
            raise ConfigError(Text("Your time has run out."))
        after = room.state.copy()
        move = after.game.parse_move(text)
        after.play(seat, move)
        outcome = after.outcome
        status = "over" if outcome is not None else "playing"
        number = room.version + 1
        # A rated game's end carries its ratings, to commit with the final move or not at all.
        places = None if outcome is None else ranks(len(room.seats), list(outcome.scores),
                                                     room.result)
        then = None if places is None else self.terms.rated_end(room, places, at)
        append = db.append_move(room.id, number, seat, str(move), status, at, then)
        commit = self.store.submit(append)
        try:
            await commit
        except db.Unavailable:
            raise db.Unavailable(MOVE_NOT_SAVED) from None
        except db.Refused as error:  # the database refused it (the end's ratings, say)
            log.error("Room %s: move %d could not be stored: %s", room.id, number,
                      str(error).splitlines()[0])
            raise db.Unavailable(MOVE_NOT_SAVED) from None
        finally:
            if stored(commit):
                if status == "over":
                    self.terms.ended(room, at, append.outcome)
                self.advance(room, number, after, status, (seat, move), at)
                # Only now: a move is durable before anyone is told. Other workers read a
                # rated end's header again, which says whether it counted.
                self.bus.publish(changed(room, reload=status == "over" and room.rated))
                self.bus.publish(MoveStored(room.id, number, seat))
                if places is not None:
                    self.bus.publish(GameOver(room.id, room.game_id, room.rated,
                                              tuple(places), room.result))

    async def catch_up(self, room: Room, reload: bool = False) -> None:
        """Play the moves stored after `room.version` (by other workers, or by a commit cut
        off when the database went away) through the engine, each version sent to the
        room's sockets in turn; with `reload`, take the stored header's seats, status and
        rematch too. The caller holds `room.lock`."""
        store = self.store
        row = await store.fetch_room(room.id, False) if reload else None
        if row is not None and room.rated and row.status == "over":
            # Rated on another worker: the changes, in the end's own state message.
            with contextlib.suppress(db.Unavailable):
                await self.terms.read_ratings(self.store, room)
        for seat, text, at in await store.fetch_timed_moves(room.id, room.version):
            after = room.state.copy()
            move = after.game.parse_move(text)
            after.play(seat, move)
            status = "over" if after.outcome is not None else "playing"
            self.advance(room, room.version + 1, after, status, (seat, move), at)
        if row is None:
            return
        for held, kept in zip(room.seats, row.seats, strict=True):
            held.joined, held.token_hash, held.name = kept.joined, kept.token_hash, kept.name
            if kept.gone and not held.gone and kept.level is not None:
                self.maker.take_over(room, held.seat, kept.level, kept.gone)
        room.rematch = row.rematch
        room.result, room.ended = row.result, row.ended
        self.terms.word(room)
        if row.version == room.version:
            room.status = row.status
        # After the status: a clock is timed only in a game in play.
        if room.started is None and row.started is not None:
            self.start_clocks(room, row.started)
        if room.status == "expired" and room.closed is None:
            room.closed = expired_sentence(self.waiting_ttl)
        room.broadcast()

    def advance(self, room: Room, number: int, after: State, status: str,
                last_move: tuple[int, Any], at: float) -> None:
        """Make a stored move, played at `at`, the room's state (this worker's, or another's
        caught up), run its clocks on and send it to the room's clients."""
        room.state, room.version, room.status = after, number, status
        room.last_move = last_move
        if room.clocks is not None:
            room.clocks.moved(last_move[0], after.to_move if status == "playing" else (),
                              clocked(room), at)
            self.deadlines.schedule(room)
        if status == "playing" and after.round_ended and self.round_pause > 0 and all(
                room.seats[s].kind == "bot" for s in after.to_move):
            room.pause = Pause(number, time.monotonic() + self.round_pause)
        room.broadcast()

    def start_clocks(self, room: Room, at: float) -> None:
        """Play began at `at` (the room's last seat taken): its clocks run from then."""
        room.started = at
        if room.clocks is not None:
            room.clocks.start(room.state.to_move, clocked(room), at)
            self.deadlines.schedule(room)
