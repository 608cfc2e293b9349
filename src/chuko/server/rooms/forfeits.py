"""Games ended or seats given up before the engine says so: a clock run out, a player who
resigns, a player who left (every socket gone for the grace period). Heads-up, the game ends
and that player loses; with 3+ players, a bot takes the seat over for the rest of the game
and its player finishes last (`endings.py`). In a game between people, a resignation, a
claim or a clock run out before the game's second move, or a seat's time run out before its
first move (`clocks.py`'s first-move limit), aborts the game instead: over, nobody's win, no
rating changed.

A forfeit is stored as one header write checked against the room's version
(`writes.forfeit`): a move stored first makes it a Conflict, and it is looked at again
against the game as it now is. Once it is committed the bus hears of it: `ClockFlagged` for
a clock run out, then `GameOver` when it ended the game, or `SeatLeft` when a bot took the
seat. The timer (`timer.py`) forfeits the seats whose clock ran out or whose player left.
"""

from __future__ import annotations

from collections.abc import Callable

from chuko.core.errors import ConfigError
from chuko.core.text import Text
from chuko.server.rooms.bot_maker import BotMaker
from chuko.server.rooms.commits import stored
from chuko.server.rooms.endings import ABORT_BEFORE, people, ranks
from chuko.server.rooms.move_path import MovePath
from chuko.server.rooms.peers import Peers, changed
from chuko.server.rooms.room import Forbidden, Room
from chuko.server.rooms.terms import ClubTerms
from chuko.server.shared.bus import Bus, ClockFlagged, GameOver, SeatLeft
from chuko.server.store import database as db

CONFLICT_RETRIES = 3


def bot_level(levels: tuple[str, ...]) -> str:
    """The level of the bot that takes a seat over: easy, else the weakest after random."""
    if "easy" in levels:
        return "easy"
    return levels[1] if len(levels) > 1 else levels[0]


def _abort(room: Room, seat: int, reason: str) -> str | None:
    """Why `seat`'s forfeit for `reason` aborts the game (`endings.ABORT_BEFORE`): in a game
    between people, "first_move" for a seat whose time ran out before it moved, else the
    reason while the game has fewer than two moves; None when it does not. A player who
    leaves a table of three or more hands their seat to the bot however early: the others
    play on."""
    if people(room.seats) < 2 or (reason == "left" and len(room.seats) > 2):
        return None
    if reason == "timeout" and room.clocks is not None and seat not in room.clocks.opened:
        return "first_move"
    return reason if room.version < ABORT_BEFORE else None


class Forfeits:
    """Resigning, claiming a game from a player who left, and the forfeits of the seats whose
    clock ran out or whose player left (the timer's)."""

    def __init__(self, store: db.Store, clock: Callable[[], float], grace: float,
                 moves: MovePath, maker: BotMaker, peers: Peers, bus: Bus,
                 terms: ClubTerms) -> None:
        self.store, self.clock, self.grace = store, clock, grace
        self.moves, self.maker, self.peers, self.bus = moves, maker, peers, bus
        self.terms = terms

    # -- what players ask -------------------------------------------------------------------

    async def resign(self, room: Room, seat: int | None) -> None:
        """`seat` gives up: heads-up the game ends, with 3+ a bot takes the seat."""
        if seat is None:
            raise Forbidden(Text("Spectators cannot resign."))
        self._playing(room, seat)
        await self.forfeit(room, seat, "resigned",
                           lambda: room.status == "playing" and not room.seats[seat].gone)

    async def claim(self, room: Room, seat: int | None) -> None:
        """`seat` claims the heads-up game of an opponent who left (`Room.claimable`)."""
        if seat is None:
            raise Forbidden(Text("Spectators cannot claim a game."))
        self._playing(room, seat)
        left = room.claimable(seat)
        if not left:
            raise ConfigError(Text("There is nothing to claim: your opponent has not been away "
                                   "for {seconds} seconds.", seconds=round(self.grace)))
        await self.forfeit(room, left[0], "left", lambda: left[0] in room.claimable(seat))

    @staticmethod
    def _playing(room: Room, seat: int) -> None:
        if room.status != "playing":
            raise ConfigError(Text("Only a game in play can be given up or claimed."))
        if room.seats[seat].kind != "human":
            raise ConfigError(Text("A bot plays this seat now."))

    # -- the forfeit ------------------------------------------------------------------------

    async def forfeit(self, room: Room, seat: int, reason: str,
                      still: Callable[[], bool]) -> None:
        """Store `seat`'s forfeit for `reason` while `still()` holds (checked again after a
        move stored meanwhile), then tell everyone."""
        async with room.lock:
            for attempt in range(CONFLICT_RETRIES + 1):
                if not still():
                    return
                try:
                    await self._store_forfeit(room, seat, reason)
                    break
                except db.Conflict:
                    if attempt == CONFLICT_RETRIES:
                        raise
                    await self.moves.catch_up(room, reload=True)
        self.peers.judge(room)  # the seat a bot took is nobody's absence now

    async def _store_forfeit(self, room: Room, seat: int, reason: str) -> None:
        """The write, then memory (the caller holds the room's lock). A rated game's end
        carries its ratings, to commit with it."""
        now = self.clock()
        result = dict(room.result or {})
        aborted = _abort(room, seat, reason)
        over = aborted is not None or len(room.seats) <= 2
        level = None
        if aborted is not None:
            result.update(kind="aborted", seat=seat, why=aborted)
        elif over:
            result.update(kind=reason, seat=seat)
        else:
            result["gone"] = [*result.get("gone", []), seat]
            level = bot_level(room.descriptor.levels)
        places = ranks(len(room.seats), None, result)
        then = self.terms.rated_end(room, places, now) if over else None
        commit = self.store.submit(db.forfeit(room.id, room.version, result, over=over,
                                              at=now, seat=seat, reason=reason, level=level,
                                              then=then))
        try:
            await commit
        finally:
            if stored(commit):
                room.result = result
                if level is None:
                    room.status = "over"
                    self.terms.ended(room, now, commit.result())
                else:
                    self.maker.take_over(room, seat, level, reason)
                room.broadcast()
                self.bus.publish(changed(room, reload=True))
                if reason == "timeout":
                    self.bus.publish(ClockFlagged(room.id, seat))
                self.bus.publish(
                    SeatLeft(room.id, seat, reason) if level is not None else
                    GameOver(room.id, room.game_id, room.rated, tuple(places), room.result))
