"""What a profile shows of the club: the rating classes a game is played in, a finished
game rebuilt for its result, each seat's place and the word for it ("won", "2nd of 4"), and
a rating as the pages read it, with the change a game made (`web/profiles_api.py` serves
them)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from chuko.core.text import Text
from chuko.core.words import ordinal
from chuko.games import descriptor
from chuko.server.club.ratings import CLASSES, Rating, class_of, ranks_of, seat_shown
from chuko.server.rooms.lifecycle import rebuild
from chuko.server.rooms.room import Room, Seat
from chuko.server.store.rating_rows import SeatPoint


def classes_of(game_id: str) -> list[str]:
    """The rating classes a game can be played in, by its descriptor's seat range."""
    described = descriptor(game_id).traits
    most = described.max_players
    found = {class_of(n) for n in (2, 3) if described.min_players <= n and (most is None
                                                                            or n <= most)}
    return [klass for klass in CLASSES if klass in found]


def finished_room(row: Any) -> Room:
    """A stored room rebuilt as a `Room` without bots or clients, for its result: its
    seats' labels and names, its state's outcome and its places."""
    state, last = rebuild(row)
    room = Room(row.id, row.game, row.options, state, [Seat(**vars(s)) for s in row.seats],
                row.version, row.status, last, created=row.created)
    held = {f.name for f in fields(Room)}
    for name in ("rated", "clock", "started", "ended", "result"):
        if name in held:  # what the room keeps of its header, whatever that is
            setattr(room, name, getattr(row, name))
    return room


def places_of(room: Room) -> list[int] | None:
    """The room's places (`Room.places`: the outcome's, or a forfeit's order); where the room
    does not say, from the outcome's scores; None without an outcome."""
    own = getattr(room, "places", None)
    if callable(own):
        return list(own())
    outcome = room.state.outcome
    return None if outcome is None else ranks_of(outcome.scores)


def result_kind(place: int, places: list[int]) -> str:
    """"won", "lost", "draw" or "placed": the listed player's place in a game, for a page
    to style by."""
    if all(other == place for other in places):
        return "draw"
    if place == 0:
        return "won"
    return "lost" if len(places) == 2 else "placed"


def result_word(place: int, places: list[int]) -> Text:
    """The same for people: "won", "lost", "drawn", or "2nd of 4"."""
    kind = result_kind(place, places)
    if kind == "placed":
        return Text("{place} of {players}", place=ordinal(place + 1), players=len(places))
    return {"draw": Text("drawn"), "won": Text("won"), "lost": Text("lost")}[kind]


def shown_rating(rating: Rating, games: bool = True) -> dict[str, Any]:
    shown = rating.shown.to_json()
    if games:
        shown.update(games=rating.games, wins=rating.wins,
                     win_rate=round(rating.wins / rating.games, 3) if rating.games else None)
    else:  # a history point: its number and uncertainty only
        del shown["provisional"], shown["text"]
    return shown


def rated_here(point: SeatPoint) -> dict[str, Any]:
    """A finished game's rating in a player's game list: after it, its uncertainty, and the
    change it made (`seat_shown`'s)."""
    rating = Rating() if point.rating is None else Rating(*point.rating)
    return {**shown_rating(rating, games=False), "change": seat_shown(point)["change"]}
