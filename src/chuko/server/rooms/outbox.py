"""A socket's outbox (`Client`): what the room has to tell one connection, in order, in
the language its reader asked for as it opened (`Outbox.lang`)."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Protocol

from chuko.core.protocol import Json
from chuko.i18n import DEFAULT
from chuko.server.rooms.moment import Moment
from chuko.server.shared.messages import dumps_in

# State messages a client may have waiting; past this it is cut off and reconnects, which
# costs one replay of the record, instead of the server holding every version for it.
MAX_BEHIND = 256


class Speaker(Protocol):
    """What a client asks of its room: a state message as JSON text (`Room.state_text`)."""

    def state_text(self, seat: int | None, moment: Moment | None = None,
                   lang: str = DEFAULT) -> str: ...


class Outbox:
    """What a socket has to send, in order, and the sender's wait for it: the room sockets'
    (`Client`) and the lobby's (`lobby.feed.LobbyClient`). A client that falls too far
    behind is `cut_off`: its socket is closed, and it reconnects afresh. Each message is
    worded in the client's language, `lang`, as it becomes text (`shared_text` for one
    message sent to many)."""

    __slots__ = ("_queue", "_waiter", "cut_off", "lang")

    def __init__(self, lang: str = DEFAULT) -> None:
        self.lang = lang
        self._queue: deque = deque()
        # The sender's wait for the next message: a future only while it waits (an Event
        # would be two more objects per socket for the collector to walk).
        self._waiter: asyncio.Future[None] | None = None
        self.cut_off = False

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def shared_text(self, message: Json, texts: dict[str, str]) -> str:
        """`message` as text in this client's language, made once for all the clients of a
        fan-out that read the same language (`texts`, by language, kept by the caller)."""
        text = texts.get(self.lang)
        if text is None:
            text = texts[self.lang] = dumps_in(message, self.lang)
        return text

    async def _ready(self) -> bool:
        """Wait until a message is queued (True) or the client is cut off (False)."""
        while not self._queue and not self.cut_off:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return not self.cut_off


class Client(Outbox):
    """One WebSocket connection's outbox. State snapshots are built when they are sent, from
    the moment each was queued for: every version reaches the client, so the `last` of each
    move does and its move log stays whole; states of one version (seats coming and going)
    are sent once, the newest. The outbox gives out JSON text, ready for the socket (a
    state's text is shared with the room's other clients that read it alike: `state_text`)."""

    __slots__ = ("hides", "room", "seat")

    def __init__(self, room: Speaker, seat: int | None,
                 hides: frozenset[str] = frozenset(), lang: str = DEFAULT) -> None:
        super().__init__(lang)  # cut off once MAX_BEHIND states behind
        self.room = room
        self.seat = seat
        self.hides = hides  # the players whose quick messages it is not sent (blocked)

    def send(self, message: Json) -> None:
        self._queue.append(message)
        self._wake()

    def send_passing(self, message: Json) -> None:
        """Queue a message that matters only now (a quick message): dropped when the
        outbox is already long, rather than held for a client that is far behind."""
        if len(self._queue) < MAX_BEHIND:
            self.send(message)

    def send_presence(self, message: Json) -> None:
        """Queue a presence message; one still queued is replaced, since the newest tells
        all (so sockets coming and going cannot fill the outbox)."""
        queued = self._queue[-1] if self._queue else None
        if isinstance(queued, dict) and queued.get("type") == "presence":
            self._queue[-1] = message
        else:
            self.send(message)

    def send_first(self, message: Json) -> None:
        self._queue.appendleft(message)
        self._wake()

    def send_state(self, moment: Moment) -> None:
        queued = self._queue[-1] if self._queue else None
        if isinstance(queued, Moment) and queued.version == moment.version:
            self._queue[-1] = moment
        elif len(self._queue) >= MAX_BEHIND:
            self._queue.clear()
            self.cut_off = True
        else:
            self._queue.append(moment)
        self._wake()

    async def next_message(self) -> str | None:
        """The next message to send, as JSON text; None once the client is cut off."""
        if not await self._ready():
            return None
        message = self._queue.popleft()
        if isinstance(message, Moment):
            return self.room.state_text(self.seat, message, self.lang)
        return dumps_in(message, self.lang)
