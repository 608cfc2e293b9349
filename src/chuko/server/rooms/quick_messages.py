"""Quick messages (docs/web-protocol.md): a seat holder says one phrase of a fixed list
("Good luck", "Well played", "Thanks", "Good game") to everyone in the room. There is no
free text, so nothing needs moderating; a phrase is passed on, never stored, and each seat
may say a few in a row, then one every few seconds (`Limits.says`).

In a cluster the phrase reaches the room's sockets on the other workers through the bus
(`Cluster.publish_said`); each worker counts its own sockets' phrases. A socket whose player
blocks the speaker is not sent them (`Client.hides`).
"""

from __future__ import annotations

from typing import Any

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.rooms.peers import ClusterPart
from chuko.server.rooms.room import Forbidden, Room
from chuko.server.shared.limits import Buckets, Clock, Rate, TooMany

# The phrases by code; a browser words them (and may translate them) itself.
PHRASES = {"gl": "Good luck", "wp": "Well played", "ty": "Thanks", "gg": "Good game"}


class UnknownPhrase(ChukoError):
    pass


def said(seat: int, phrase: str) -> dict[str, Any]:
    return {"type": "said", "seat": seat, "phrase": phrase}


def tell(room: Room, seat: int, phrase: str) -> None:
    """Pass a phrase of `seat` on to every client of `room`, not to one already far behind
    nor to one whose player blocks the seat's."""
    speaker = room.seats[seat].player
    for client in room.clients:
        if speaker is None or speaker not in client.hides:
            client.send_passing(said(seat, phrase))


def read_phrase(value: Any) -> str:
    """A phrase's code as sent; UnknownPhrase (one sentence) for anything else."""
    if not isinstance(value, str) or value not in PHRASES:
        raise UnknownPhrase(Text("Quick messages are one of: {phrases}.", phrases=", ".join(
            f'"{code}" ({text})' for code, text in PHRASES.items())))
    return value


class QuickMessages:
    """The phrases said in every room, counted per seat at `rate` measured on `clock`."""

    def __init__(self, rate: Rate, clock: Clock) -> None:
        self.buckets = Buckets(rate, clock)  # per (room, seat)

    def say(self, room: Room, seat: int | None, phrase: Any,
            cluster: ClusterPart | None = None) -> None:
        """Seat `seat` says `phrase` to `room` (and through `cluster` to its other workers);
        a spectator, an unknown phrase or one too many is refused with a sentence."""
        if seat is None:
            raise Forbidden(Text("Spectators cannot send quick messages; only the players can."))
        code = read_phrase(phrase)
        if not self.buckets.take((room.id, seat)):
            raise TooMany(Text("Too many quick messages: wait a few seconds before the next."))
        tell(room, seat, code)
        if cluster is not None:
            cluster.publish_said(room.id, seat, code)
