"""PettingZoo's versioned modules, one per game with an encoding, as `pettingzoo.classic`
offers its games:

    from chuko.envs import caravan_v0
    env = caravan_v0.env(bridges=1)          # the AEC environment, order enforced
    env = caravan_v0.raw_env(bridges=1)      # the same without the wrapper (faster)
    env = caravan_v0.parallel_env()          # the parallel environment

`import chuko.envs.chuchula_v0` works too. The modules are made at import from the
descriptors (`<game id>_v<VERSION>`), so no game is named here; the version changes when an
environment changes what it observes, acts on or pays.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from pettingzoo.utils import wrappers

from chuko.games import descriptors

from .aec import ChukoAEC, ChukoParallel

VERSION = 0


def module_name(game_id: str) -> str:
    """The versioned module's name in `chuko.envs`: caravan_v0."""
    return f"{game_id}_v{VERSION}"


def _module(package: str, game_id: str) -> ModuleType:
    """The module for one game: `raw_env`, `env` and `parallel_env`, each taking the
    game's options (and `render_mode`) by name."""
    name = f"{package}.{module_name(game_id)}"
    module = ModuleType(name, f"PettingZoo's {game_id} environments (chuko.envs.versioned).")

    def raw_env(**options: Any) -> ChukoAEC:
        """The AEC environment: one agent per seat (docs/envs.md)."""
        return ChukoAEC(game_id, **options)

    def env(**options: Any) -> Any:
        """`raw_env` in PettingZoo's order-enforcing wrapper, as its classic games are."""
        return wrappers.OrderEnforcingWrapper(raw_env(**options))

    def parallel_env(**options: Any) -> ChukoParallel:
        """The parallel environment: every seat to act sends an action per step."""
        return ChukoParallel(game_id, **options)

    for function in (raw_env, env, parallel_env):
        function.__module__ = name
        function.__qualname__ = function.__name__
        setattr(module, function.__name__, function)
    module.__all__ = ["env", "raw_env", "parallel_env"]  # type: ignore[attr-defined]
    return module


def install(package: str) -> dict[str, ModuleType]:
    """Make every game's module a submodule of `package` (in `sys.modules`, so that both
    `from package import x_v0` and `import package.x_v0` find it); returns them by name."""
    made = {}
    for described in descriptors():
        if described.integrations.encoding is None:
            continue
        module = sys.modules.get(f"{package}.{module_name(described.id)}")
        made[module_name(described.id)] = module or _module(package, described.id)
    for name, module in made.items():
        sys.modules[f"{package}.{name}"] = module
    return made
