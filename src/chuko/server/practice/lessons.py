"""Lessons as the server serves them: every game's lesson with the steps a player has done,
a step's position as the page draws it, and a move tried at a step judged by the engine
(`web/lessons_api.py` answers the requests).

The steps and their judge are the game's (`chuko.practice.lessons`); the server remembers
how far each player (a guest or an account) has come, in `lesson_progress`: the highest
step done, per game.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from chuko.core.errors import ChukoError
from chuko.core.protocol import Json
from chuko.games import descriptor, game_ids
from chuko.practice.lessons import LessonError, Step, lesson, step
from chuko.server.rooms.room import NotFound
from chuko.server.shared.messages import sentence
from chuko.server.shared.players import Player
from chuko.server.store import lesson_rows as rows
from chuko.server.store.database import Store


def steps_of(game_id: str) -> tuple[Step, ...]:
    """The game's lesson; NotFound for a game without one."""
    try:
        return lesson(game_id)
    except (LessonError, ChukoError) as error:
        raise NotFound(sentence(error)) from None


def step_of(game_id: str, number: int) -> Step:
    """The game's step `number`; NotFound for no such lesson or step."""
    steps_of(game_id)
    try:
        return step(game_id, number)
    except LessonError as error:
        raise NotFound(sentence(error)) from None


def shown(found: Step) -> Json:
    """A step as the page draws it: the engine's view and legal moves for the game's own
    screen, as a room's state message carries them."""
    data = found.to_json()
    if found.play is None:
        state = found.position()
        seat = data["seat"]
        data["legal"] = ([str(move) for move in state.legal_moves(seat)]
                         if state.game.lists_moves else [])
    return data


class Lessons:
    """The lessons and the players' progress in them, on `store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def progress(self, player: Player | None) -> dict[str, int]:
        """Steps done per game by `player`; none for no player."""
        if player is None:
            return {}
        return await self.store.fetch(lambda conn: rows.progress(conn, player.id))

    @staticmethod
    def index(done: dict[str, int]) -> Json:
        """Every game with a lesson: its title, how many steps and how many are `done`."""
        found = []
        for game_id in game_ids():
            if descriptor(game_id).integrations.lessons is None:
                continue
            steps = steps_of(game_id)
            found.append({"game": game_id, "title": descriptor(game_id).title,
                          "steps": len(steps), "done": done.get(game_id, 0),
                          "first": steps[0].title})
        return {"lessons": found}

    @staticmethod
    def course(game_id: str, done: int) -> Json:
        """A game's lesson: every step with its position as the learner's seat sees it."""
        steps = steps_of(game_id)
        return {"game": game_id, "title": descriptor(game_id).title, "done": done,
                "steps": [shown(s) for s in steps]}

    async def attempt(self, found: Step, move: Any,
                      player_of: Callable[[], Awaitable[Player]]) -> Json:
        """The engine's judgement of `move` at the step `found`; a right move (or a real
        game's step, which has no move to judge) counts the step done for the player
        (`player_of`, asked once the move is judged)."""
        if found.play is None:
            verdict = found.judge(move if isinstance(move, str) else "").to_json()
        else:
            verdict = {"kind": "right", "right": True, "sentence": "", "move": ""}
        player = await player_of()
        if verdict["right"]:
            verdict["done"] = await self.store.submit(
                rows.record_done(player.id, found.game_id, found.number, time.time()))
        return verdict
