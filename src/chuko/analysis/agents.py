"""Agents for the arena: a built-in bot level, a bot made by any Python callable, or a
saved policy, each given as one word on the command line.

- `easy` (any level the game's descriptor lists) is the built-in bot of that level.
- `package.module:factory` (or `path/to/file.py:factory`) names a callable, its module
  found in the current folder as well as on the path. The arena
  calls `factory(game, rng)` with the configured `Game` and a seeded `random.Random`, once
  per seat it fills, and it must return a bot: an object with a `level` (a short name) and
  `choose(view, legal_moves) -> move` (the `chuko.bots.Bot` protocol). Like every bot it is
  given only its seat's view and the legal moves (an empty list where the game does not
  list them), and it should take its randomness from `rng` for the arena to be
  reproducible. The move may be a move value or its text; the engine judges it.
- `path/to/policy.npz` is a saved policy, loaded by `chuko.bots.policy.policy_bot`.

A callable or policy is tried once on a fresh deal before the arena starts: one that cannot
be imported or called, returns no bot, raises, or plays an illegal move there is refused
in one sentence. During the arena an illegal move forfeits the game (`play_judged`), and an
agent that raises stops the arena with one sentence.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from random import Random
from types import ModuleType
from typing import Any

from chuko.bots import Bot, make_bot
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import Game, State
from chuko.core.text import Text
from chuko.core.words import bot_name

POLICY_SUFFIX = ".npz"
POLICY_MODULE = "chuko.bots.policy"  # policy_bot(path, game, rng) -> Bot
PROBE_SEED = 0  # the deal an agent is tried on before the arena starts
# What an engine may raise when handed a move that is not one of its own (a wrong type):
# a refusal too, since only an agent's move that is not a legal move gets here.
REFUSALS = (ChukoError, TypeError, ValueError, AttributeError, KeyError, IndexError)


class AgentError(ConfigError):
    """An agent that cannot be loaded or misbehaves outside the rules."""


@dataclass(frozen=True)
class Agent:
    """One contestant: `spec` as given, and how to make its bot for a seat. `level` is set for
    a built-in level (which takes the search budget); `make(game, rng)` otherwise."""

    spec: str
    kind: str  # "level", "callable" or "policy"
    make: Callable[[Game, Random], Bot] | None = None

    @property
    def level(self) -> str | None:
        return self.spec if self.kind == "level" else None

    @property
    def name(self) -> str:
        """How people see it: "Easy bot", or the spec of a callable or policy."""
        return bot_name(self.spec) if self.kind == "level" else self.spec

    def bot(self, game: Game, rng: Random, budget: dict[str, Any]) -> Bot:
        """A bot for one seat; a level takes `budget` when its module does."""
        if self.make is None:
            if budget:
                try:
                    return make_bot(game.id, self.spec, rng, **budget)
                except (ConfigError, TypeError):
                    pass  # a level without a search plays without the budget
            return make_bot(game.id, self.spec, rng)
        return checked_bot(self, self.make, game, rng)


def refusal_of(error: BaseException) -> str:
    """An error's sentence as it was raised: its first argument (a Text where the engine
    built one, so the edge can say it in a language), else its text."""
    first = error.args[0] if error.args else ""
    return first if isinstance(first, str) else str(error)


def one_line(error: BaseException) -> str:
    """An exception as a clause: its type and the first line of its message."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def read_agents(named: Sequence[Agent | str], game: Game) -> list[Agent]:
    """The agents named (agents already read pass through), each spec once; built-in levels
    as the game's descriptor lists them. ConfigError in one sentence for a spec that is
    neither a level nor an agent that plays."""
    agents = [item if isinstance(item, Agent) else read_agent(item.strip(), game)
              for item in named if isinstance(item, Agent) or item.strip()]
    specs = [agent.spec for agent in agents]
    for spec in specs:
        if specs.count(spec) > 1:
            raise ConfigError(Text("The arena names {spec} twice.", spec=repr(spec)))
    return agents


def read_agent(spec: str, game: Game) -> Agent:
    levels = game.descriptor.levels
    if spec.lower() in levels:
        return Agent(spec.lower(), "level")
    if spec.endswith(POLICY_SUFFIX):
        return probed(Agent(spec, "policy", _policy_loader(spec)), game)
    module, colon, name = spec.rpartition(":")
    if not colon or not module or not name:
        raise ConfigError(Text("There is no {spec} bot; choose from {levels}, or name an agent "
                               "as module:callable or a saved policy (.npz).", spec=repr(spec),
                               levels=", ".join(levels)))
    return probed(Agent(spec, "callable", _find_callable(spec, module, name)), game)


def _policy_loader(spec: str) -> Callable[[Game, Random], Bot]:
    if not Path(spec).is_file():
        raise AgentError(Text("There is no saved policy {spec}.", spec=spec))
    try:
        policy_bot = import_module(POLICY_MODULE).policy_bot
    except ModuleNotFoundError as error:
        if error.name and POLICY_MODULE.startswith(error.name):
            raise AgentError(Text("Cannot load the policy {spec}: this chuko has no "
                                  "saved-policy support ({module}).", spec=spec,
                                  module=POLICY_MODULE)) from None
        raise AgentError(Text("Cannot load the policy {spec}: its loader needs {module}, which "
                              "is not installed.", spec=spec, module=error.name)) from None
    except (ImportError, AttributeError) as error:
        raise AgentError(Text("Cannot load the policy {spec} ({reason}).", spec=spec,
                              reason=one_line(error))) from None

    def load(game: Game, rng: Random) -> Bot:
        bot: Bot = policy_bot(spec, game, rng)
        return bot

    return load


def _import(spec: str, module: str) -> ModuleType:
    """The module of `module:callable`: a dotted module name, or a file ending in .py."""
    try:
        if module.endswith(".py"):
            found = importlib.util.spec_from_file_location(Path(module).stem, module)
            if not Path(module).is_file() or found is None or found.loader is None:
                raise AgentError(Text("There is no file {module} for the agent {spec}.",
                                      module=module, spec=spec))
            loaded = importlib.util.module_from_spec(found)
            found.loader.exec_module(loaded)
            return loaded
        _current_folder_on_path()
        return import_module(module)
    except AgentError:
        raise
    except ModuleNotFoundError as error:
        if error.name and (module == error.name or module.startswith(f"{error.name}.")):
            raise AgentError(Text("There is no module {module} for the agent {spec}.",
                                  module=module, spec=spec)) from None
        raise AgentError(Text("Cannot import {module} for the agent {spec} ({reason}).",
                              module=module, spec=spec, reason=one_line(error))) from None
    except Exception as error:  # any failure of foreign code is one sentence
        raise AgentError(Text("Cannot import {module} for the agent {spec} ({reason}).",
                              module=module, spec=spec, reason=one_line(error))) from None


def _current_folder_on_path() -> None:
    """Let `mybots:make_bot` name mybots.py in the folder the command runs in, as `python -m`
    would: the `chuko` script itself starts with only its own folder on the path."""
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)


def _find_callable(spec: str, module: str, name: str) -> Callable[[Game, Random], Bot]:
    found: Any = _import(spec, module)
    for part in name.split("."):
        if not hasattr(found, part):
            raise AgentError(Text("The module {module} has no {name} for the agent {spec}.",
                                  module=module, name=name, spec=spec))
        found = getattr(found, part)
    if not callable(found):
        raise AgentError(Text("{name} in {module} is not callable, so it cannot make the agent "
                              "{spec}.", name=name, module=module, spec=spec))
    factory: Callable[[Game, Random], Bot] = found
    return factory


def checked_bot(agent: Agent, make: Callable[[Game, Random], Bot], game: Game,
                rng: Random) -> Bot:
    """`make(game, rng)`, which must return an object with `level` and `choose`."""
    try:
        bot = make(game, rng)
    except ChukoError as error:
        raise AgentError(Text("The agent {spec} could not be made: {reason}", spec=agent.spec,
                              reason=refusal_of(error))) from None
    except Exception as error:  # foreign code
        raise AgentError(Text("The agent {spec} could not be made ({reason}).",
                              spec=agent.spec, reason=one_line(error))) from None
    if not callable(getattr(bot, "choose", None)) or not hasattr(bot, "level"):
        raise AgentError(Text("The agent {spec} returned {kind}, not a bot (an object with "
                              "`level` and `choose(view, legal_moves)`).", spec=agent.spec,
                              kind=type(bot).__name__))
    return bot


def probed(agent: Agent, game: Game) -> Agent:
    """`agent`, once it has made a bot and chosen a legal first move on a fresh deal."""
    assert agent.make is not None
    state = game.new(PROBE_SEED)
    seat = state.to_move[0]
    bot = checked_bot(agent, agent.make, game, Random(PROBE_SEED))
    refusal = judged_move(agent, bot, state.copy(), seat)
    if refusal is not None:
        raise AgentError(Text("The agent {spec} played an illegal move on its first turn: "
                              "{reason}", spec=agent.spec, reason=refusal))
    return agent


def judged_move(agent: Agent, bot: Bot, state: State, seat: int) -> str | None:
    """Let `bot` move for `seat`: None when the engine took the move, else the engine's
    reason (one sentence) for refusing it. An agent that raises stops the arena."""
    legal = state.legal_moves(seat) if state.game.lists_moves else []
    try:
        move = bot.choose(state.view(seat), legal)
    except Exception as error:
        if agent.kind == "level":
            raise  # a built-in bot's failure is a bug to see whole
        raise AgentError(Text("The agent {spec} raised {reason}.", spec=agent.spec,
                              reason=one_line(error))) from None
    if legal and not isinstance(move, str) and move not in legal:
        return Text("{move} is not a legal move.", move=repr(move))
    try:
        state.play(seat, move)
    except REFUSALS as error:
        if legal and not isinstance(move, str):
            raise  # a listed legal move the engine refuses is the engine's bug
        return refusal_of(error) or Text("{move} is not a legal move.", move=repr(move))
    return None


@dataclass(frozen=True)
class Forfeit:
    """A game stopped by an illegal move: the seat that made it and the engine's reason."""

    seat: int
    reason: str


def play_judged(state: State, agents: Sequence[Agent], bots: Sequence[Bot]) -> Forfeit | None:
    """Play `state` to its end, seat `s` moved by `bots[s]` (of `agents[s]`); a game stops at
    an illegal move, which forfeits it."""
    while state.outcome is None:
        for seat in state.to_move:
            refusal = judged_move(agents[seat], bots[seat], state, seat)
            if refusal is not None:
                return Forfeit(seat, refusal)
    return None
