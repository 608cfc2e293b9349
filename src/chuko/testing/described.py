"""The conformance checks of what a game's descriptor declares: its options, examples and
traits make the games they say, its bots play legal moves, its study's values make games,
its notation and its encoding match the legal moves. Each failure is worded with the rule
it broke (`chuko.core.conformance`)."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

from chuko.bots import make_bot, parse_levels
from chuko.core import references
from chuko.core.conformance import broke
from chuko.core.encoding import Encoding
from chuko.core.errors import ChukoError, ParseError
from chuko.core.protocol import State
from chuko.games import descriptor, game_class

from .play import configurations, refused

# The notation check tries every string up to this many per position.
MAX_STRINGS = 20_000


def descriptor_makes_games(game_id: str) -> None:
    """The defaults and the examples make games, seated as the traits say; an unknown
    option is refused."""
    described = descriptor(game_id)
    game = game_class(game_id)
    rule = broke("descriptors make games")
    assert described.id == game_id == game.id and game.title == described.title, rule
    json.dumps(described.to_json())
    default = game.from_options({})
    assert game.min_players <= default.players <= (game.max_players or 10**6), rule
    for option in described.options:
        assert option.value(None) == option.default, rule
    with refused(ChukoError, "descriptors make games"):
        game.from_options({"no_such_option": 1})
    assert described.levels and described.examples, rule
    seats = described.traits.players_option
    for options, made in zip(described.examples, configurations(game_id), strict=True):
        wanted = described.read_options(options)[seats] if seats else game.min_players
        assert made.players == wanted, f"{rule} The example {dict(options)} seats " \
                                       f"{made.players} players, not {wanted}."


def bots_play_legal_moves(game_id: str) -> None:
    game = configurations(game_id)[0]
    state = game.new(seed=3)
    seat = state.to_move[0]
    for level in descriptor(game_id).levels:
        bot = make_bot(game_id, level, random.Random(1))
        legal = state.legal_moves(seat) if game.lists_moves else []
        move = bot.choose(state.view(seat), legal)
        try:
            state.copy().play(seat, move)
        except ChukoError as error:
            raise AssertionError(f"{broke('bots play legal moves')} The {level} bot: "
                                 f"{error}") from None


def study_varies_games_and_counts_whole_turns(game_id: str) -> None:
    """Every combination of the values the descriptor's study tries is a game its bot
    lineups can seat, and the game's count of turns by kind reads a finished record."""
    study = descriptor(game_id).integrations.study
    names = [varied.option for varied in study.varies]
    for values in itertools.product(*(varied.values for varied in study.varies)):
        options = dict(zip(names, values, strict=True))
        game = game_class(game_id).from_options(options, bots_only=True)
        for lineup in study.lineups:
            parse_levels(lineup, game_id, game.players)
    if study.turn_kinds:
        state, rng = configurations(game_id)[0].new(seed=5), random.Random(5)
        while state.to_move:
            seat = state.to_move[0]
            state.play(seat, state.random_move(seat, rng))
        counts = references.load(study.turn_kinds)(state.record())
        assert counts and all(type(n) is int and n >= 0 for n in counts.values()), \
            f"{game_id}'s study counts turns as whole numbers of at least 0, not {counts!r}"


def _strings(alphabet: str, most: int) -> Iterator[str]:
    """Every string over `alphabet` up to the longest length that keeps the count bounded."""
    length, total = 0, 0
    while length < most and total + len(alphabet) ** (length + 1) <= MAX_STRINGS:
        length += 1
        total += len(alphabet) ** length
    for size in range(1, length + 1):
        yield from map("".join, itertools.product(alphabet, repeat=size))


def play_accepts_exactly_the_legal_moves(game_id: str) -> None:
    """On small states, every string of the game's notation is tried: those `play` accepts
    are exactly the legal moves (by their canonical text), and no other string is."""
    game = configurations(game_id)[0]
    alphabet = descriptor(game_id).notation
    state, rng = game.new(seed=5), random.Random(5)
    for step in range(8):
        if not state.to_move:
            break
        if step in (0, 1, 2, 4, 7):
            seat = state.to_move[0]
            legal = {str(m) for m in state.legal_moves(seat)}
            accepted = set()
            for text in _strings(alphabet, max(map(len, legal))):
                trial = state.copy()
                try:
                    trial.play(seat, text)
                except ChukoError:
                    continue
                accepted.add(str(game.parse_move(text)))
            assert accepted == legal, \
                f"{broke('play accepts exactly the legal moves')} Position after {step} moves."
        seat = state.to_move[0]
        state.play(seat, state.random_move(seat, rng))


def encoded_move(encoding: Encoding, state: State, seat: int, rng: random.Random) -> Any:
    """A random legal move built from the masks, step by step for a stepwise encoding; each
    observation along the way (with the partial move) has the declared shape."""
    import numpy as np

    partial = None
    rule = broke("encodings number the legal moves")
    while True:
        mask = encoding.legal_mask(state, seat, partial)
        assert mask.shape == (encoding.num_actions,) and mask.dtype == np.int8, rule
        observed = encoding.observation(state.view(seat), partial)
        assert observed.shape == encoding.observation_shape, rule
        action = int(rng.choice(np.flatnonzero(mask)))
        assert encoding.action(encoding.move(action)) == action, rule
        partial, move = encoding.step_move(partial, action)
        if move is not None:
            return move


def check_encoded_position(encoding: Encoding, state: State, views_of: dict[Any, str]) -> None:
    """Each seat to move's observation: the declared shape and type, built from the view
    alone, one information state per view, and a mask of exactly the legal moves."""
    import numpy as np

    rule = broke("encodings number the legal moves")
    for seat in state.to_move:
        view = state.view(seat)
        observed = encoding.observation(view)
        assert observed.shape == encoding.observation_shape, rule
        assert observed.dtype == np.dtype(encoding.observation_dtype), rule
        # Built from the view alone: the same view, however obtained, observes the same.
        again = encoding.observation(json.loads(json.dumps(view)))
        assert np.array_equal(observed, again), rule
        text = json.dumps(view, sort_keys=True)
        assert views_of.setdefault(encoding.information_state(view), text) == text, rule
        if state.game.lists_moves:
            mask = encoding.legal_mask(state, seat)
            legal = state.legal_moves(seat)
            assert sorted(np.flatnonzero(mask)) == sorted(map(encoding.action, legal)), rule
            assert all(encoding.move(encoding.action(m)) == m for m in legal), rule


def encodings_number_the_legal_moves(game_id: str, index: int) -> None:
    """Needs numpy (an environment's arrays)."""
    game = configurations(game_id)[index]
    named = game.descriptor.integrations.encoding
    assert named is not None, f"{game_id} names no encoding to check"
    encoding: Encoding = references.load(named)(game)
    rule = broke("encodings number the legal moves")
    for action in range(encoding.num_actions):
        try:
            move = encoding.move(action)
        except ParseError:
            continue
        assert encoding.action(move) == action, rule
    rng = random.Random(index)
    for seed in range(3):
        state = game.new(seed=seed)
        views_of: dict[Any, str] = {}  # information state -> the one view it stands for
        while state.to_move:
            assert encoding.truncated(state) is False, rule
            check_encoded_position(encoding, state, views_of)
            seat = rng.choice(state.to_move)
            state.play(seat, encoded_move(encoding, state, seat, rng))
        outcome = state.outcome
        assert outcome is not None, broke("games end")
        assert all(encoding.min_utility <= s <= encoding.max_utility for s in outcome.scores), \
            rule
        assert encoding.truncated(state) is outcome.truncated, rule
