"""A bare WebSocket relay on the server's own stack, the limit `python -m bench server`
compares the server with: uvicorn with the same settings as `chuko serve` (its HTTP and
WebSocket implementations, `chuko.server.web.app.SERVING`: no permessage-deflate,
`ws_max_size`), the server's app class answering `/ws/{room}` as bare ASGI before FastAPI's
layers (`chuko.server.web.router.App`, as the game's sockets are), and its access log; nothing
else: no engine, no database, no JSON parsing, no task or queue per socket.

A room is two sockets, `/ws/{room}?token=0|1&moves=N`. It sends what the server sends, from
the server's own messages in the same run (the corpus, from `CHUKO_ECHO_CORPUS`: a JSON object
with the state messages sampled, "states", and one message of each other type, "others"):
- a socket that opens gets the room's log, then a state, and the room's other socket a
  presence message;
- each message a seat sends (a move) is answered, as the server answers an accepted move,
  by a state message to both seats: one of the real state messages, its version set and its
  `legal` list given to the seat whose turn it is, written as compactly as the server writes
  it. After N moves the room's state says "over";
- a socket that closes leaves the other a presence message.

    CHUKO_ECHO_CORPUS=corpus.json python -m bench.echo_peer PORT
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field

import uvicorn
from starlette.types import Receive, Scope, Send

from chuko.core.protocol import Json
from chuko.server.web.router import App, ReadBody, query_params

VERSION = 987_654_321  # a placeholder no real message contains


def templates(texts: list[str]) -> list[tuple[str, str]]:
    """Each sampled state as two texts, for the seat to move and for the other, with the
    version a placeholder."""
    from chuko.server.shared.messages import dumps

    pairs = []
    for text in texts:
        message = json.loads(text)
        message.update(version=VERSION, status="playing")
        pairs.append((dumps(message), dumps({**message, "legal": []})))
    return pairs


def text_message(text: str) -> dict[str, str]:
    """The ASGI message that sends `text` on a socket."""
    return {"type": "websocket.send", "text": text}


@dataclass(frozen=True)
class Corpus:
    """What the relay sends, from the server's own messages in the same run: its state
    messages as `templates`, and one message of each other type it sent (a room's first log
    page, a presence)."""

    states: list[tuple[str, str]]
    log: str | None = None
    presence: str | None = None

    @classmethod
    def read(cls, data: Json) -> Corpus:
        others = data["others"]
        return cls(templates(data["states"]), others.get("log"), others.get("presence"))


@dataclass
class Relay:
    moves: int
    corpus: Corpus
    sockets: list[Send | None] = field(default_factory=lambda: [None, None])
    version: int = 0

    def state(self, seat: int) -> str:
        to_move, waiting = self.corpus.states[self.version % len(self.corpus.states)]
        text = (to_move if seat == self.version % 2 else waiting).replace(
            str(VERSION), str(self.version), 1)
        if self.version >= self.moves:
            text = text.replace('"status":"playing"', '"status":"over"', 1)
        return text

    async def broadcast(self) -> None:
        for seat, send in enumerate(self.sockets):
            if send is not None:
                # One socket that went away is its own handler's business, as each socket's
                # outbox is in the server: this handler goes on (had it returned, uvicorn
                # would have dropped its socket without a close frame). A try costs nothing
                # when nothing is raised, where a helper or a suppress() costs a call.
                try:  # noqa: SIM105
                    await send(text_message(self.state(seat)))
                except OSError:
                    pass

    async def tell_presence(self, seat: int) -> None:
        """The other seat's socket learns that `seat` came or went, as the server tells it
        (if it went away meanwhile, as in `broadcast`)."""
        other = self.sockets[1 - seat]
        if other is not None and self.corpus.presence is not None:
            try:  # noqa: SIM105
                await other(text_message(self.corpus.presence))
            except OSError:
                pass


def create_app(corpus: Corpus) -> App:
    rooms: dict[str, Relay] = {}

    async def relay(scope: Scope, receive: Receive, send: Send, room: str) -> None:
        query = query_params(scope)
        token, moves = int(query["token"]), int(query["moves"])
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        here = rooms.setdefault(room, Relay(moves, corpus))
        here.sockets[token] = send
        try:
            # As the server does: the log first, then the state, and the other seat is told.
            if corpus.log is not None:
                await send(text_message(corpus.log))
            await send(text_message(here.state(token)))
            await here.tell_presence(token)
            while (await receive())["type"] == "websocket.receive":
                here.version += 1
                await here.broadcast()
        except OSError:  # this socket went away as it was sent to
            pass
        finally:
            here.sockets[token] = None
            if any(here.sockets):
                await here.tell_presence(token)
            else:
                rooms.pop(room, None)

    made = 0

    async def create(scope: Scope, body: ReadBody, _: str) -> tuple[int, Json]:
        nonlocal made
        await body()
        made += 1
        room = f"echo{made:011d}"
        return 201, {"room": room, "seat": 0, "token": "0",
                     "invites": [{"seat": 1, "url": f"/join/{room}/{'i' * 22}"}],
                     "watch_url": f"/watch/{room}"}

    async def join(scope: Scope, body: ReadBody, room: str) -> tuple[int, Json]:
        await body()
        return 200, {"seat": 1, "token": "1"}

    app = App(live=relay, posts={"create": create, "join": join})

    @app.get("/ready")
    async def ready() -> dict[str, bool]:
        return {"ready": True}

    return app


def main() -> None:
    from chuko.server.web.app import SERVING

    with open(os.environ["CHUKO_ECHO_CORPUS"], encoding="utf-8") as file:
        corpus = Corpus.read(json.load(file))
    config = uvicorn.Config(create_app(corpus), host="127.0.0.1", port=int(sys.argv[1]),
                            log_level="info", **SERVING)
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()
