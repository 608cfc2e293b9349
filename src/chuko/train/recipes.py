"""The training recipes the examples run (docs/training.md): which game, configuration and
opponents, the hyperparameters, and what the learner is measured against.

A recipe with `opponents` set trains one learner against bots of that level
(`BotSource`); without, the learner plays every seat (`SelfPlaySource`, or with
`compiled` a batch of the game's compiled twin, `TwinSource`). Every recipe is measured
against each level of `measure` (`None`: a game of one seat, played alone).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chuko.core.errors import ConfigError

from .sources import BotSource, SelfPlaySource, Source, TwinSource, load_twin
from .trainer import Settings


@dataclass(frozen=True)
class Recipe:
    name: str
    game_id: str
    summary: str
    options: dict[str, Any] = field(default_factory=dict)
    opponents: str | None = None
    self_play: bool = False
    measure: tuple[str | None, ...] = (None,)
    num_envs: int = 16
    settings: Settings = field(default_factory=Settings)

    def source(self, seed: int, num_envs: int | None = None, compiled: bool = False
               ) -> Source:
        """The games to learn from; `compiled`: a batch of the game's compiled twin, for
        recipes without bots (the bots are Python)."""
        count = num_envs or self.num_envs
        if compiled:
            if self.opponents is not None:
                raise ConfigError(f"The {self.name} recipe plays against Python bots, so it "
                                  "has no compiled version.")
            return TwinSource(load_twin(self.game_id, **self.options), count, seed)
        if self.self_play:
            return SelfPlaySource(self.game_id, count, seed, **self.options)
        return BotSource(self.game_id, count, seed, level=self.opponents, **self.options)


# More epochs of smaller minibatches than PPO's defaults: the network is tiny and the games
# cost far more than the learning, so each game is learned from more.
_SETTINGS = Settings(epochs=10, minibatches=8)

RECIPES = {r.name: r for r in (
    Recipe("caravan", "caravan", "Caravan, one player against the deal",
           settings=_SETTINGS),
    Recipe("chuko", "chuko", "Chükö heads-up against the easy bot", {"players": 2},
           opponents="easy", measure=("easy", "random"), settings=_SETTINGS),
    Recipe("chuko-self-play", "chuko", "Chükö heads-up, the learner in both seats",
           {"players": 2}, self_play=True, measure=("easy", "random"), settings=_SETTINGS),
    Recipe("crossroads-self-play", "crossroads", "Crossroads, the learner in both seats",
           self_play=True, measure=("easy", "random"), settings=_SETTINGS),
)}
