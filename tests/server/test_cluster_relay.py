"""The cluster hears the rooms' changes on the app's event bus (`RoomChanged`) and passes
each on to the other workers as the message its room's channel has always carried; the
rooms' other events are not its to pass on. No Redis is reached: the cluster's outbox is
read instead."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from chuko.server.shared.bus import Bus, GameOver, MoveStored, RoomChanged, SeatLeft

pytest.importorskip("redis")

from chuko.server.cluster.workers import Cluster  # noqa: E402


def outbox(cluster: Cluster) -> list[tuple[str, dict]]:
    sent = []
    while not cluster._outbox.empty():
        channel, text = cluster._outbox.get_nowait()
        sent.append((channel, json.loads(text)))
    return sent


def test_a_room_changed_on_the_bus_is_relayed_to_the_rooms_channel_as_before():
    bus = Bus()
    cluster = Cluster(SimpleNamespace(rooms={}, bus=bus), "redis://127.0.0.1:1/0", name="c")
    bus.publish(RoomChanged("r1", 7, reload=True, bots=True))
    bus.publish(RoomChanged("r2", 3, kind="next"))
    assert outbox(cluster) == [
        ("c:room:r1", {"worker": cluster.me, "kind": "change", "version": 7, "reload": True,
                       "bots": True}),
        ("c:room:r2", {"worker": cluster.me, "kind": "next", "version": 3, "reload": False,
                       "bots": False})]


def test_the_cluster_passes_on_room_changes_only():
    bus = Bus()
    cluster = Cluster(SimpleNamespace(rooms={}, bus=bus), "redis://127.0.0.1:1/0", name="c")
    bus.publish(MoveStored("r1", 1, 0))
    bus.publish(SeatLeft("r1", 2, "left"))
    bus.publish(GameOver("r1", "g1", False, (0, 1), None))
    assert outbox(cluster) == []
