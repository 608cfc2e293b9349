"""A bare WebSocket relay on the server's own stack, the limit `python -m bench server`
compares the server with: uvicorn with the same settings as `chuko serve` (its HTTP and
WebSocket implementations, `chuko.server.app.SERVING`: no permessage-deflate,
`ws_max_size`), the server's app class answering `/ws/{room}` as bare ASGI before FastAPI's
layers (`chuko.server.app.App`, as the game's sockets are), and its access log; nothing
else: no engine, no database, no JSON parsing, no task or queue per socket.

A room is two sockets, `/ws/{room}?token=0|1&moves=N`. Each message a seat sends (a move)
is answered, as the server answers an accepted move, by a state message to both seats:
one of the real state messages the server sent in the same run (the corpus, a JSON list of
texts, from `CHUKO_ECHO_CORPUS`), its version set and its `legal` list given to the seat
whose turn it is, written as compactly as the server writes it. After N moves the room's
state says "over".

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
from chuko.server.app import App, ReadBody, query_params

VERSION = 987_654_321  # a placeholder no real message contains


def templates(texts: list[str]) -> list[tuple[str, str]]:
    """Each sampled state as two texts, for the seat to move and for the other, with the
    version a placeholder."""
    from chuko.server.rooms import dumps

    pairs = []
    for text in texts:
        message = json.loads(text)
        message.update(version=VERSION, status="playing")
        pairs.append((dumps(message), dumps({**message, "legal": []})))
    return pairs


@dataclass
class Relay:
    moves: int
    sockets: list[Send | None] = field(default_factory=lambda: [None, None])
    version: int = 0

    async def broadcast(self, corpus: list[tuple[str, str]]) -> None:
        to_move, waiting = corpus[self.version % len(corpus)]
        turn = self.version % 2
        for seat, send in enumerate(self.sockets):
            if send is None:
                continue
            text = (to_move if seat == turn else waiting).replace(
                str(VERSION), str(self.version), 1)
            if self.version >= self.moves:
                text = text.replace('"status":"playing"', '"status":"over"', 1)
            await send({"type": "websocket.send", "text": text})


def create_app(corpus: list[tuple[str, str]]) -> App:
    app = App()
    rooms: dict[str, Relay] = {}

    @app.get("/ready")
    async def ready() -> dict[str, bool]:
        return {"ready": True}

    async def relay(scope: Scope, receive: Receive, send: Send, room: str) -> None:
        query = query_params(scope)
        token, moves = int(query["token"]), int(query["moves"])
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        here = rooms.setdefault(room, Relay(moves))
        here.sockets[token] = send
        try:
            if all(here.sockets):
                await here.broadcast(corpus)
            while (await receive())["type"] == "websocket.receive":
                here.version += 1
                await here.broadcast(corpus)
        except OSError:  # a socket of the room went away as it was sent to
            pass
        finally:
            here.sockets[token] = None
            if not any(here.sockets):
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

    app.live = relay
    app.posts = {"create": create, "join": join}
    return app


def main() -> None:
    from chuko.server.app import SERVING

    with open(os.environ["CHUKO_ECHO_CORPUS"], encoding="utf-8") as file:
        corpus = templates(json.load(file))
    config = uvicorn.Config(create_app(corpus), host="127.0.0.1", port=int(sys.argv[1]),
                            log_level="info", **SERVING)
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()
