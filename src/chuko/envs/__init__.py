"""The games as research environments (docs/envs.md), under the `rl` extra:

    from chuko.envs import aec_env, parallel_env, gym_env
    env = aec_env("chuko", players=3)            # PettingZoo AEC, every game
    env = parallel_env("chuchula", players=4)    # PettingZoo parallel
    env = gym_env("crossroads", level="hard")    # Gymnasium, one learner against bots

Importing this package registers every game that has an encoding with Gymnasium, as
`chuko/<Name>-v0` (`gymnasium.make("chuko/Caravan-v0")`; a game of one seat with a compiled
twin also under Gymnasium's vector API, `gymnasium.make_vec("chuko/Caravan-v0",
num_envs=1024)`, from `chuko.envs.vector_gym.gym_vector_env`), and makes PettingZoo's
versioned modules, `<game id>_v0` with `env()`, `raw_env()` and `parallel_env()`
(envs/versioned.py: `from chuko.envs import caravan_v0`); `import chuko.envs.openspiel`
registers them with OpenSpiel. Nothing here names a game: what a game offers comes from its
descriptor.
"""

from __future__ import annotations

from typing import Any

import gymnasium

from chuko.games import descriptors

from .aec import ChukoAEC, ChukoParallel
from .single import ChukoGym
from .versioned import install

__all__ = ["aec_env", "parallel_env", "gym_env", "gym_id", "ChukoAEC", "ChukoParallel",
           "ChukoGym"]


def aec_env(game_id: str, **options: Any) -> ChukoAEC:
    """A PettingZoo AEC environment: one agent per seat; `options` are the game's (its
    descriptor's) and `render_mode`."""
    return ChukoAEC(game_id, **options)


def parallel_env(game_id: str, **options: Any) -> ChukoParallel:
    """A PettingZoo parallel environment, made for games whose seats act at once."""
    return ChukoParallel(game_id, **options)


def gym_env(game_id: str, **options: Any) -> ChukoGym:
    """A Gymnasium environment for one learner: `level` of the bots in the other seats,
    `seat` the learner's (default 0), then the game's options."""
    return ChukoGym(game_id, **options)


VECTOR_ENTRY_POINT = "chuko.envs.vector_gym:gym_vector_env"


def gym_id(game_id: str) -> str:
    """The id a game is registered under with Gymnasium: chuko/Caravan-v0."""
    return f"chuko/{game_id.capitalize()}-v0"


def _register() -> None:
    for described in descriptors():
        serves = described.integrations
        if serves.encoding is not None and gym_id(described.id) not in gymnasium.registry:
            # A game of one seat with a compiled twin is also a vector environment:
            # gymnasium.make_vec(id, num_envs=...) (vector_gym.py).
            vector = (VECTOR_ENTRY_POINT if serves.twin is not None
                      and described.traits.max_players == 1 else None)
            gymnasium.register(gym_id(described.id), entry_point="chuko.envs:gym_env",
                               vector_entry_point=vector, kwargs={"game_id": described.id})


_register()
# The versioned modules, as names of this package: `from chuko.envs import caravan_v0`.
globals().update(install(__name__))
