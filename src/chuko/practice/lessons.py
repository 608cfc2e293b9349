"""Lessons: short steps that teach a game on its own engine.

A game's descriptor names its lesson as a reference to a JSON file of its package
(`lessons="chuko_takeaway:lessons.json"`), so a game from another package ships its own.
The file holds `{"steps": [...]}`; a step is

- a position: `options` for `Game.from_options`, a `deal` for `Game.from_deal`, and
  `moves` (texts) played from it before the learner moves; the learner is the seat to move;
- `title`, `text` (the task), `expect` (the move texts that complete it), `right` (said
  when one is made), `wrong` (move text → why it is not the move asked for) and `hint`
  (said for any other legal move);
- or, for the last step, `play`: `{"options", "level"}`, a real game against a bot.

Texts may write `{factors 22}` ("22 is 2 × 11") and `{pair 22 15}` ("22 and 15 share no
prime factor: 22 is 2 × 11, 15 is 3 × 5"), so every factorisation a learner reads is worded
by one helper and cannot be wrong. The engine judges every attempt: a move it refuses is
never counted right, whatever the data says.

Every text a learner reads is a `Text` whose message id is the JSON string exactly as
written, markup included: that is what the lessons catalogue holds (`chuko.i18n.extract`
reads the JSON as it is). The markup is already a placeholder in `str.format`'s grammar,
`{pair 22 15}` naming the field "pair 22 15", so each one becomes a parameter of that
name: the worded factorisation (itself a sentence of the engines, translated in turn).
An edge says a step in any language with a plain `words(lang).say(text)`: the translator
keeps `{pair 22 15}` where the language puts it, and the numbers are worded after the
translation, by the same helper as in English.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from chuko.core import references
from chuko.core.errors import ChukoError, IllegalMove, ParseError
from chuko.core.numbers import factor_words, pair_words
from chuko.core.protocol import Game, Json, State
from chuko.core.text import Text
from chuko.games import descriptor, game_class


class LessonError(ChukoError, ValueError):
    """A lesson that does not exist, or lesson data a front end cannot use."""


_TEMPLATE = re.compile(r"\{(factors|pair)((?: \d{1,6})+)\}")
_ARITY = {"factors": 1, "pair": 2}


def expand(text: str) -> Text:
    """`text` as a Text: its message id `text` itself, each `{factors N}` and `{pair A B}`
    a parameter holding the factorisation in words; LessonError for a placeholder it
    cannot read."""
    params: dict[str, str] = {}
    for found in _TEMPLATE.finditer(text):
        kind, numbers = found.group(1), [int(n) for n in found.group(2).split()]
        if len(numbers) != _ARITY[kind] or min(numbers) < 1:
            raise LessonError(Text("The lesson text {markup!r} is not a placeholder.",
                                   markup=found.group(0)))
        words = factor_words(numbers[0]) if kind == "factors" else pair_words(*numbers)
        params[found.group(0)[1:-1]] = words
    if re.search(r"\{(factors|pair)\b", _TEMPLATE.sub("", text)):
        raise LessonError(Text("The lesson text {text!r} has a placeholder it cannot read.",
                               text=text))
    try:
        return Text(text, **params)
    except (KeyError, IndexError, ValueError):
        raise LessonError(Text("The lesson text {text!r} has braces that are no placeholder.",
                               text=text)) from None


@dataclass(frozen=True)
class Verdict:
    """The judgement of one attempt: `kind` is "right", "wrong" (legal, not the move asked
    for) or "illegal" (the engine refuses it); `sentence` says why, for a learner."""

    kind: str
    sentence: str  # a Text, or an engine's refusal as it gave it
    move: str
    after: Json | None = None  # a right move's position after it, as the learner sees it

    @property
    def right(self) -> bool:
        return self.kind == "right"

    def to_json(self) -> Json:
        data = {"kind": self.kind, "right": self.right, "sentence": self.sentence,
                "move": self.move}
        if self.after is not None:
            data["view"] = self.after
        return data


@dataclass(frozen=True)
class Step:
    """One step of a lesson (see the module's docstring for its fields)."""

    game_id: str
    number: int
    title: Text
    text: Text
    options: Mapping[str, Any] = field(default_factory=dict)
    deal: Any = None
    moves: tuple[str, ...] = ()
    expect: tuple[str, ...] = ()
    right: Text = Text("Right.")
    wrong: Mapping[str, Text] = field(default_factory=dict)
    hint: Text = Text("That move is allowed, but it is not the one this step asks for.")
    play: Mapping[str, Any] | None = None

    def game(self) -> Game:
        options = self.play["options"] if self.play else self.options
        return game_class(self.game_id).from_options(dict(options or {}))

    def position(self) -> State:
        """The step's position, its set-up moves played; a fresh one on every call."""
        if self.play is not None:
            raise LessonError(Text("Step {number} is a real game, not a position.",
                                   number=self.number))
        state = self.game().from_deal(self.deal)
        for text in self.moves:
            state.play(state.to_move[0], text)
        return state

    def judge(self, text: str) -> Verdict:
        """The engine's judgement of the learner's move `text` in this position: ParseError
        (one sentence) for text that is no move."""
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise ParseError(Text("Type a move."))
        state = self.position()
        seat = state.to_move[0]
        move = state.game.parse_move(text)
        said = str(move)
        try:
            state.play(seat, move)
        except IllegalMove as refusal:
            return Verdict("illegal", self._wrong_words(state, said) or refusal.args[0], said)
        if said in self._expected(state):
            return Verdict("right", self.right, said, state.view(seat))
        return Verdict("wrong", self._wrong_words(state, said) or self.hint, said)

    def _expected(self, state: State) -> set[str]:
        return {str(state.game.parse_move(text)) for text in self.expect}

    def _wrong_words(self, state: State, said: str) -> Text | None:
        for text, why in self.wrong.items():
            if str(state.game.parse_move(text)) == said:
                return why
        return None

    def to_json(self) -> Json:
        data: Json = {"number": self.number, "title": self.title, "text": self.text}
        if self.play is not None:
            data["play"] = dict(self.play)
            return data
        state = self.position()
        seat = state.to_move[0]
        data.update(seat=seat, options=dict(self.options), view=state.view(seat))
        return data


def _step(game_id: str, number: int, entry: Any) -> Step:
    if not isinstance(entry, Mapping) or not isinstance(entry.get("title"), str):
        raise LessonError(Text("Step {number} of the {game} lesson has no title.",
                               number=number, game=game_id))
    texts = {key: expand(entry[key]) for key in ("right", "hint") if key in entry}
    wrong = {move: expand(why) for move, why in (entry.get("wrong") or {}).items()}
    return Step(game_id, number, expand(entry["title"]), expand(entry.get("text", "")),
                options=entry.get("options") or {}, deal=entry.get("deal"),
                moves=tuple(entry.get("moves") or ()), expect=tuple(entry.get("expect") or ()),
                wrong=wrong, play=entry.get("play"),
                **{key: texts[key] for key in ("right", "hint") if key in texts})


@lru_cache(maxsize=64)  # one per game: registered games are few
def lesson(game_id: str) -> tuple[Step, ...]:
    """The steps of `game_id`'s lesson, in order; LessonError when it has none."""
    named = descriptor(game_id).integrations.lessons
    if named is None:
        raise LessonError(Text("{game} has no lesson yet.", game=descriptor(game_id).title))
    data = json.loads(references.read_text(named))
    entries = data.get("steps") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise LessonError(Text("The {game} lesson lists no steps.", game=game_id))
    return tuple(_step(game_id, n, entry) for n, entry in enumerate(entries, 1))


def step(game_id: str, number: int) -> Step:
    """Step `number` (from 1) of the game's lesson; LessonError in one sentence otherwise."""
    steps = lesson(game_id)
    if not isinstance(number, int) or not 1 <= number <= len(steps):
        raise LessonError(Text("The {game} lesson has steps 1 to {last}, not {number}.",
                               game=game_id, last=len(steps), number=number))
    return steps[number - 1]


def games_with_lessons(ids: Sequence[str]) -> list[str]:
    """Those of `ids` whose descriptor names a lesson, in order."""
    return [game_id for game_id in ids if descriptor(game_id).integrations.lessons is not None]
