"""A trained policy as a bot: a small network read from a `.npz` file (chuko.train writes
them; docs/training.md).

    bot = policy_bot("src/chuko/data/policies/caravan.npz", game, rng)
    move = bot.choose(state.view(seat), state.legal_moves(seat))

The file holds the policy network's weights (`w0`, `b0`, `w1`, ...: a multilayer perceptron
with tanh between layers, stored as float16 or float32) and one JSON entry, `metadata`:
the format version, the game's id and the options it was trained with, the encoding the
descriptor names, the observation's shape and a digest of one fixed observation, the layer
sizes and each action's move as text. A file is refused (ConfigError, one sentence) unless
the game, its encoding, its observations and the meaning of every action match the
configuration it is asked to play.

The bot sees what any bot sees: its seat's view, from which the game's encoding builds the
observation, and the legal moves, which make the mask. Illegal actions are masked to −∞
before the softmax, so the bot never picks one. `greedy` bots play the most probable
action; others sample from the policy.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from random import Random
from typing import Any

import numpy as np

from chuko.core import references
from chuko.core.encoding import Encoding
from chuko.core.errors import ConfigError
from chuko.core.protocol import Game, Json
from chuko.core.text import Text

FORMAT = 1


@dataclass(frozen=True)
class Policy:
    """The weights of a policy network and the facts that say what it plays."""

    weights: tuple[tuple[np.ndarray, np.ndarray], ...]
    metadata: Json

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """The network's output for a batch of observations (rows)."""
        x = observations
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(self.weights):
            x = x @ w + b
            if i < last:
                x = np.tanh(x)
        return x


def game_encoding(game: Game) -> Encoding:
    """The encoding the game's descriptor names, for this configuration."""
    named = game.descriptor.integrations.encoding
    if named is None:
        raise ConfigError(Text("{game} has no encoding for a trained policy to read.",
                                game=game.title))
    encoding: Encoding = references.load(named)(game)
    return encoding


def observation_check(game: Game, encoding: Encoding) -> str:
    """A digest of the observation of one fixed position (the unshuffled deck, seat 0): it
    changes when the encoding's layout or scaling does, which shape alone would not show."""
    state = game.from_order(game.deck(), [0] * len(game.deal_choices()))
    observation = np.asarray(encoding.observation(state.view(0)), np.float32)
    return hashlib.sha256(observation.tobytes()).hexdigest()[:16]


def describe(game: Game, encoding: Encoding, options: Json, layers: list[int]) -> Json:
    """The metadata a policy file for `game` carries (the module docstring)."""
    return {"format": FORMAT, "game": game.id, "options": dict(options),
            "encoding": game.descriptor.integrations.encoding,
            "observation_shape": list(encoding.observation_shape),
            "observation_check": observation_check(game, encoding),
            "layers": list(layers),
            "actions": [str(encoding.move(a)) for a in range(encoding.num_actions)]}


def save_policy(path: str, policy: Policy, dtype: str = "float16") -> None:
    """Write `policy` to `path` (.npz), its weights as `dtype`."""
    arrays: dict[str, Any] = {"metadata": np.array(json.dumps(policy.metadata))}
    for i, (w, b) in enumerate(policy.weights):
        arrays[f"w{i}"] = w.astype(dtype)
        arrays[f"b{i}"] = b.astype(dtype)
    try:
        with open(path, "wb") as file:
            np.savez_compressed(file, **arrays)
    except OSError as error:
        raise ConfigError(Text("Cannot write the policy {path}: {why}.", path=path,
                                why=error.strerror)) from None


def load_policy(path: str) -> Policy:
    """The policy saved in `path`; ConfigError in one sentence for a file that is not one.
    A file is read once while it stays unchanged (an arena asks for a bot every game)."""
    try:
        stat = os.stat(path)
    except OSError as error:
        raise ConfigError(Text("Cannot read the policy {path}: {why}.", path=path,
                                why=error.strerror)) from None
    return _read_policy(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _read_policy(path: str, mtime_ns: int, size: int) -> Policy:
    try:
        with np.load(path, allow_pickle=False) as data:
            metadata = json.loads(str(data["metadata"]))
            count = len(metadata["layers"]) - 1
            weights = tuple((data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32))
                            for i in range(count))
    except OSError as error:
        raise ConfigError(Text("Cannot read the policy {path}: {why}.", path=path,
                                why=error.strerror or str(error))) from None
    except (KeyError, ValueError, TypeError, EOFError, zipfile.BadZipFile):
        raise ConfigError(Text("{path} is not a policy file written by chuko.train.",
                                path=path)) from None
    if metadata.get("format") != FORMAT:
        raise ConfigError(Text("{path} is a policy of format {format}; this version reads "
                               "format {expected}.", path=path,
                               format=repr(metadata.get("format")), expected=FORMAT))
    return Policy(weights, metadata)


def check_fits(policy: Policy, game: Game, encoding: Encoding, path: str) -> None:
    """ConfigError unless `policy` was trained on this configuration of this game."""
    meta = policy.metadata
    expected = describe(game, encoding, meta.get("options", {}), meta["layers"])
    if meta.get("game") != game.id:
        raise ConfigError(Text("{path} plays {plays}, not {game}.", path=path,
                               plays=repr(meta.get("game")), game=game.title))
    for key in ("encoding", "observation_shape", "actions"):
        if meta.get(key) != expected[key]:
            raise ConfigError(Text("{path} was trained on another configuration of {game} "
                                   "(options {options}).", path=path, game=game.title,
                                   options=str(meta.get("options"))))
    if meta.get("observation_check") != expected["observation_check"]:
        raise ConfigError(Text("{path} was trained on observations {game}'s encoding no "
                               "longer makes; train it again (docs/training.md).", path=path,
                               game=game.title))
    sizes = [w.shape for w, _ in policy.weights]
    if sizes[0][0] != expected["observation_shape"][0] or sizes[-1][1] != len(
            expected["actions"]):
        raise ConfigError(Text("{path} holds a network whose sizes do not fit {game}.",
                               path=path, game=game.title))


class PolicyBot:
    """A trained policy's choices: greedy, or sampled from its probabilities."""

    def __init__(self, policy: Policy, encoding: Encoding, rng: Random, greedy: bool,
                 level: str) -> None:
        self.policy, self.encoding, self.rng = policy, encoding, rng
        self.greedy = greedy
        self.level = level

    def choose(self, view: Json, legal_moves: list[Any]) -> Any:
        if not legal_moves:
            raise ConfigError(Text("A policy bot needs the legal moves to choose from."))
        mask = np.zeros(self.encoding.num_actions, bool)
        for move in legal_moves:
            mask[self.encoding.action(move)] = True
        observation = np.asarray(self.encoding.observation(view), np.float32)
        logits = self.policy.logits(observation.reshape(1, -1))[0].astype(np.float64)
        logits[~mask] = -np.inf  # an illegal action can never be chosen
        if self.greedy:
            action = int(np.argmax(logits))
        else:
            weights = np.exp(logits - logits.max())
            action = self.rng.choices(range(len(weights)), weights=weights.tolist())[0]
        return self.encoding.move(action)


def policy_bot(path: str, game: Game, rng: Random, greedy: bool = True) -> PolicyBot:
    """The bot that plays the policy saved in `path` for `game`; ConfigError for a file that
    is not a policy or was trained for another game or configuration."""
    policy = load_policy(path)
    encoding = game_encoding(game)
    check_fits(policy, game, encoding, path)
    name = path.rsplit("/", 1)[-1].removesuffix(".npz")
    return PolicyBot(policy, encoding, rng, greedy, f"policy {name}")
