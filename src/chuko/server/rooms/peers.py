"""This worker's peers as the rooms see them (`Peers`): the other workers of a cluster, or
none for a server alone; whether this worker runs the bots and timers, and who is at which
table, shared. The cluster (`cluster.workers.Cluster`) is named here by what the rooms ask
of it (`ClusterPart`), so the rooms need not import the cluster, which is built on them.
Each committed change to a room is not told to the cluster here but published on the bus
(`changed`, a `RoomChanged`), which the cluster hears."""

from __future__ import annotations

from typing import Protocol

from chuko.server.rooms.room import Room
from chuko.server.shared.bus import RoomChanged


def changed(room: Room, reload: bool = False) -> RoomChanged:
    """The event of a committed change to `room` (`reload`: its header changed). Its `bots`
    asks the lease holder to hold the room: its bots must move, or its clocks run (their
    timer is the holder's)."""
    return RoomChanged(room.id, room.version, reload, bool(room.bots_to_move()) or (
        room.status == "playing" and room.clocks is not None))


class SeatPresence(Protocol):
    """The cluster's sharing of who is at which table (`presence.Presence`)."""

    def changed(self, room: Room) -> None: ...


class ClusterPart(Protocol):
    """What the rooms ask of this worker's part in a cluster (`cluster.workers.Cluster`)."""

    leader: bool  # this worker runs the bots and timers

    @property
    def presence(self) -> SeatPresence: ...

    def publish_said(self, room_id: str, seat: int, phrase: str) -> None: ...

    def publish_away(self, room: Room) -> None: ...

    def attend(self, room: Room) -> None: ...

    def judge(self, room: Room) -> None: ...


class Peers:
    """This worker among its peers: alone (`cluster` None) or one worker of a cluster, which
    the app gives once it is built on the hub."""

    def __init__(self) -> None:
        self.cluster: ClusterPart | None = None

    @property
    def alone(self) -> bool:
        return self.cluster is None

    def runs_timers(self) -> bool:
        """Whether this worker runs the bots and timers (alone, or holding the lease)."""
        return self.cluster is None or self.cluster.leader

    def attend(self, room: Room) -> None:
        """A room came into memory: the cluster shares its sockets and absences."""
        if self.cluster is not None:
            self.cluster.attend(room)

    def seat_changed(self, room: Room) -> None:
        """A seat of the room gained its first socket here or lost its last: the cluster, if
        any, shares it."""
        if self.cluster is not None:
            self.cluster.presence.changed(room)

    def judge(self, room: Room) -> None:
        """The lease holder works out the room's absences again (a seat a bot took is
        nobody's absence now)."""
        if self.cluster is not None and self.cluster.leader:
            self.cluster.judge(room)

    def publish_away(self, room: Room) -> None:
        """Tell the other workers the room's absences (a heads-up claim may be possible)."""
        if self.cluster is not None:
            self.cluster.publish_away(room)
