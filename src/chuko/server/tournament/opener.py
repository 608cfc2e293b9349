"""A recorded tournament game's room, made under the id its pairing chose: its players in
its seats in the recorded order, bots of the game's second level (or its only one) in any
seat left. A room made twice is refused by the database, so making a pairing again (after
a leader died between recording and making it) seats nobody twice."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from chuko.games import game_class
from chuko.server.rooms.room import Seat
from chuko.server.store.tournament_rows import TournamentRow

if TYPE_CHECKING:
    from chuko.server.rooms.hub import Hub

# Makes a game's room: the tournament, the room's id, its players by seat and their names;
# True when this call made it, False when it was made already.
OpenGame = Callable[[TournamentRow, str, tuple[str, ...], Mapping[str, str]], Awaitable[bool]]


def game_opener(hub: Hub) -> OpenGame:
    """`OpenGame` on `hub`."""
    duplicate = hub.store.key_taken

    async def open_game(tournament: TournamentRow, room_id: str, players: tuple[str, ...],
                        names: Mapping[str, str]) -> bool:
        rules = game_class(tournament.game)
        described = rules.descriptor
        values = described.read_online(tournament.options, bots_only=False)
        game = rules.configure(values, bots_only=False)
        level = described.levels[min(1, len(described.levels) - 1)]
        seats = [Seat(n, "human", None, None, None, True, names.get(player, "Player")[:24],
                      player=player) for n, player in enumerate(players)]
        seats += [Seat(n, "bot", level, None, None, True)
                  for n in range(len(players), game.players)]
        try:
            await hub.open_room(tournament.game, game, values, seats, room_id=room_id,
                                rated=tournament.rated, clock=tournament.clock)
        except duplicate:
            return False
        return True

    return open_game
