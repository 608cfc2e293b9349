"""Lessons over HTTP (docs/web-protocol.md): `GET /api/lessons`, `GET /api/lessons/{game}`
and `POST /api/lessons/{game}/{step}`.

The steps and their judge are the game's (`practice/lessons.py`); this module serves them and
remembers how far the session's player (a guest or an account) has come, in
`lesson_progress`: the highest step done, per game. A step's answer is the engine's
judgement of the move tried, with the sentence a learner reads.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from chuko.core.errors import ChukoError, ParseError
from chuko.core.protocol import Json
from chuko.games import descriptor, game_ids
from chuko.practice.lessons import LessonError, Step, lesson, step
from chuko.server.rooms.room import NotFound
from chuko.server.shared.limits import MAX_BODY
from chuko.server.store.database import Store, Unavailable
from chuko.server.store.schema import lesson_progress
from chuko.server.web.router import parse_object


def _steps(game_id: str) -> tuple[Step, ...]:
    try:
        return lesson(game_id)
    except (LessonError, ChukoError) as error:
        raise NotFound(str(error)) from None


def _step(game_id: str, number: int) -> Step:
    _steps(game_id)
    try:
        return step(game_id, number)
    except LessonError as error:
        raise NotFound(str(error)) from None


def record_done(player: str, game_id: str, done: int, now: float) -> Callable[[Connection], int]:
    """The write that keeps the highest step done of the player's lesson of `game_id`: the
    stored count or `done`, whichever is higher; the count it leaves."""

    def write(conn: Connection) -> int:
        key = (lesson_progress.c.player == player) & (lesson_progress.c.game == game_id)
        stored = conn.execute(select(lesson_progress.c.done).where(key)).scalar()
        if stored is None:
            conn.execute(insert(lesson_progress).values(player=player, game=game_id,
                                                        done=done, updated=now))
            return done
        if done > stored:
            conn.execute(update(lesson_progress).where(key).values(done=done, updated=now))
        return max(done, stored)

    return write


class LessonApi:
    """The lesson routes on one store; `accounts` finds a request's player."""

    def __init__(self, store: Store, accounts: Any) -> None:
        self.store = store
        self.accounts = accounts

    def add_routes(self, app: FastAPI) -> None:
        app.get("/api/lessons")(self.index)
        app.get("/api/lessons/{game_id}")(self.course)
        app.post("/api/lessons/{game_id}/{number}")(self.attempt)

    async def _progress(self, request: Request) -> dict[str, int]:
        """Steps done per game by the request's player; none for no player (or no database)."""
        try:
            player = await self.accounts.player(request.scope, create=False)
        except Unavailable:
            return {}
        if player is None:
            return {}
        query = select(lesson_progress.c.game, lesson_progress.c.done).where(
            lesson_progress.c.player == player.id)
        try:
            rows = await self.store.fetch(lambda conn: conn.execute(query).all())
        except Unavailable:
            return {}
        return {row.game: row.done for row in rows}

    async def index(self, request: Request) -> Json:
        """Every game with a lesson: its title, how many steps and how many are done."""
        done = await self._progress(request)
        found = []
        for game_id in game_ids():
            if descriptor(game_id).integrations.lessons is None:
                continue
            steps = _steps(game_id)
            found.append({"game": game_id, "title": descriptor(game_id).title,
                          "steps": len(steps), "done": done.get(game_id, 0),
                          "first": steps[0].title})
        return {"lessons": found}

    async def course(self, game_id: str, request: Request) -> Json:
        """A game's lesson: every step with its position as the learner's seat sees it."""
        steps = _steps(game_id)
        done = (await self._progress(request)).get(game_id, 0)
        return {"game": game_id, "title": descriptor(game_id).title, "done": done,
                "steps": [_shown(s) for s in steps]}

    async def attempt(self, game_id: str, number: int, request: Request) -> Json:
        """The engine's judgement of `{"move": text}` at step `number`; a right move (or a
        real game's step, which has no move to judge) counts the step done."""
        found = _step(game_id, number)
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise ParseError("The request body is too long.")
        move = parse_object(raw or b"{}").get("move")
        if found.play is None:
            verdict = found.judge(move if isinstance(move, str) else "").to_json()
        else:
            verdict = {"kind": "right", "right": True, "sentence": "", "move": ""}
        player = await self.accounts.player(request.scope, create=True)
        if verdict["right"]:
            verdict["done"] = await self.store.submit(
                record_done(player.id, game_id, number, time.time()))
        return verdict


def _shown(found: Step) -> Json:
    """A step as the page draws it: the engine's view and legal moves for the game's own
    screen, as a room's state message carries them."""
    data = found.to_json()
    if found.play is None:
        state = found.position()
        seat = data["seat"]
        data["legal"] = ([str(move) for move in state.legal_moves(seat)]
                         if state.game.lists_moves else [])
    return data
