"""A game's socket, `/ws/{room}` (docs/web-protocol.md): a player's or a spectator's live
session on a room, served as bare ASGI by the router (`router.App`). It is admitted within
the limits of `shared/limits.py`, sent the log and the room's states through its outbox
(`rooms.outbox.Client`), and its messages (a move, a hint, "next", a ping, a log page) are
answered one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from typing import Any

from starlette.types import Receive, Scope, Send

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.rooms.hub import Hub
from chuko.server.rooms.outbox import Client
from chuko.server.rooms.quick_messages import QuickMessages
from chuko.server.rooms.room import Forbidden, NotFound, Room
from chuko.server.shared.limits import Buckets, Budget, Clock, Costly, Limits, SocketFlow, TooMany
from chuko.server.shared.messages import sentence
from chuko.server.web.identify import Identify, held_seat
from chuko.server.web.router import client_host, query_params
from chuko.server.web.socket_io import (
    handshake_language,
    pump,
    read_message,
    refusal,
    refuse,
    within_rate,
)

log = logging.getLogger("chuko.server")

# The players whose quick messages a request's player does not see (those they block).
Hidden = Callable[[Scope], Awaitable[frozenset[str]]]


class Sockets:
    """The game's sockets on `hub`, within `limits` measured on `clock`; `budget` counts the
    costly messages (hints, log pages) with the API's pages. A socket opened without a
    token is the seat of its session's player (found by `identify`), if they hold one."""

    def __init__(self, hub: Hub, limits: Limits, clock: Clock, budget: Budget,
                 identify: Identify | None = None, hidden: Hidden | None = None) -> None:
        self.hub, self.limits, self.clock, self.budget = hub, limits, clock, budget
        self.identify = identify
        self.hidden = hidden  # whose quick messages a socket's player does not see
        self.opened = Buckets(limits.connects, clock)  # per address
        self.quick = QuickMessages(limits.says, clock)  # per seat

    async def __call__(self, scope: Scope, receive: Receive, send: Send, room_id: str) -> None:
        """A player's or a spectator's socket on a room, served as bare ASGI (`App`)."""
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        lang = handshake_language(scope)
        try:
            room, seat = await self._admit(scope, room_id)
        except ChukoError as error:  # also a stored room that does not hold together
            await _refuse_socket(send, error, lang)
            return
        except Exception:
            log.exception("Room %s: a socket could not be opened", room_id)
            await _refuse_socket(send, ChukoError(
                Text("The server could not open this room just now: reconnect in a moment.")),
                lang)
            return
        await self._serve(scope, receive, send, room, seat, lang)

    async def _admit(self, scope: Scope, room_id: str) -> tuple[Room, int | None]:
        """The room and the seat the socket opens on, within the limits; ChukoError when
        it may not open."""
        limits = self.limits
        # Before anything is loaded or sent: a socket that reconnects without end would
        # cost a room lookup, a log page and a state each time.
        if not self.opened.take(client_host(scope)):
            raise TooMany(Text("Too many connections from your address: wait a moment and "
                               "reconnect."))
        room = await self.hub.room(room_id)
        token = query_params(scope).get("token")
        seat = room.seat_for(token)
        if token is None and self.identify is not None:
            seat = await held_seat(self.identify, scope, room.seats)
        if len(room.clients) >= limits.sockets_per_room:
            raise TooMany(Text("This room has {sockets_per_room} connections already: "
                               "try again later.", sockets_per_room=limits.sockets_per_room))
        if seat is not None and sum(c.seat == seat for c in room.clients) >= \
                limits.sockets_per_seat:
            raise TooMany(Text("This seat is open in {sockets_per_seat} places already: "
                               "close one of them first.",
                               sockets_per_seat=limits.sockets_per_seat))
        return room, seat

    async def _serve(self, scope: Scope, receive: Receive, send: Send, room: Room,
                     seat: int | None, lang: str) -> None:
        """Send the socket the log and the room's states, and answer its messages, until
        it closes; all of it in `lang`, its reader's language."""
        hub = self.hub
        client = Client(room, seat, frozenset() if self.hidden is None
                        else await self.hidden(scope), lang)
        flow = SocketFlow(self.limits, self.clock)
        admit = partial(self.budget.admit, address=client_host(scope), room_id=room.id)
        say = partial(self.quick.say, room, seat, cluster=hub.cluster)
        moment = room.moment()
        hub.connect(room, client)  # the client's first state is this moment's version
        sender = None
        try:
            # The log is a replay of the game, in a thread; before the first move it is empty.
            client.send_first(hub.log(room, seat, moment) if moment.version == 0 else
                              await asyncio.to_thread(hub.log, room, seat, moment))
            sender = asyncio.create_task(pump(send, client.next_message, lang))
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    break
                allowed = await within_rate(send, flow.messages, flow.refusals, client.send,
                                            lang)
                if allowed is None:
                    break
                if not allowed:
                    continue
                reply = await _handle(hub, room, seat, message, admit, say)
                if reply is not None:
                    client.send(reply)
        finally:
            hub.disconnect(room, client)
            if room.idle:
                hub.rooms.pop(room.id, None)  # finished and unwatched: reloaded on demand
            if sender is not None:
                sender.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await sender


async def _refuse_socket(send: Send, error: ChukoError, lang: str) -> None:
    """Refuse a socket that cannot go on: its `error` message, then a close frame whose code
    says why (4404 no such room, 4403 forbidden, 1008 over a limit, 1011 the server's
    trouble, such as the database being away) and whose reason is the sentence (in
    `lang`)."""
    code = (4404 if isinstance(error, NotFound) else 4403 if isinstance(error, Forbidden)
            else 1008 if isinstance(error, TooMany) else 1011)
    await refuse(send, sentence(error), code, lang)


async def _handle(hub: Hub, room: Room, seat: int | None, message: Mapping[str, Any],
                  admit: Callable[[Costly], None], say: Callable[[Any], None]) -> dict | None:
    """One client message → the reply for that client only (None when the broadcast of an
    accepted move is the answer); `admit` counts a costly one against its buckets, `say`
    passes a quick message on to the room."""
    data, refused = read_message(message.get("text"))
    if data is None:
        return refused
    kind = data.get("type")
    try:
        if kind == "move":
            await hub.play(room, seat, data.get("move"))
            return None
        if kind == "hint":
            admit("hint")
            return await hub.hint(room, seat)
        if kind == "next":
            hub.next_round(room, seat)
            return None
        if kind == "resign":
            await hub.resign(room, seat)
            return None
        if kind == "claim":
            await hub.claim(room, seat)
            return None
        if kind == "ping":
            return {"type": "pong"}
        if kind == "say":
            say(data.get("phrase"))
            return None
        if kind == "log":
            admit("log")
            page = await hub.log_page(room, seat, data.get("before"), data.get("count"))
            return {**page, "before": page["first"] + len(page["lines"])}
    except ChukoError as error:
        return refusal(sentence(error))
    except Exception:
        log.exception("Room %s: a message failed", room.id)
        return refusal(Text("The server could not do that just now; nothing changed. Try again."))
    return refusal(Text("Unknown message: send {kinds}.",
                        kinds='{"type": "move" | "hint" | "next" | "resign" | "claim" | "say" | '
                              '"ping" | "log", …}'))
