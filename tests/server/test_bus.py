"""The event bus: subscribers hear the events of their kind, in order, and one that fails
does not keep the others from hearing."""

from chuko.server.shared.bus import Bus, ClockFlagged, GameOver, MoveStored


def test_subscribers_hear_only_their_kind_in_the_order_they_came():
    bus = Bus()
    heard: list[str] = []
    bus.subscribe(MoveStored, lambda e: heard.append(f"a{e.version}"))
    bus.subscribe(MoveStored, lambda e: heard.append(f"b{e.version}"))
    bus.subscribe(ClockFlagged, lambda e: heard.append("flag"))
    bus.publish(MoveStored("r1", 3, 0))
    assert heard == ["a3", "b3"]


def test_a_failing_subscriber_is_logged_and_the_rest_still_hear(caplog):
    bus = Bus()
    heard: list[str] = []

    def broken(event: GameOver) -> None:
        raise RuntimeError("boom")

    bus.subscribe(GameOver, broken)
    bus.subscribe(GameOver, lambda e: heard.append(e.room_id))
    bus.publish(GameOver("r1", "chuko", False, (0, 1), None))
    assert heard == ["r1"]
    assert "a subscriber to GameOver failed" in caplog.text


def test_an_unsubscribed_function_hears_nothing_more():
    bus = Bus()
    heard: list[int] = []

    def listen(event: ClockFlagged) -> None:
        heard.append(event.seat)

    bus.subscribe(ClockFlagged, listen)
    bus.publish(ClockFlagged("r1", 1))
    bus.unsubscribe(ClockFlagged, listen)
    bus.publish(ClockFlagged("r1", 0))
    assert heard == [1]
