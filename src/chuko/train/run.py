"""One recipe from start to finish: train, evaluating now and then against the recipe's
levels, then save the policy, measure it on held-out deals and draw the learning curve.

    python examples/train.py caravan --seed 0 --minutes 15 --out runs/

writes `<out>/<recipe>.npz` (the policy), `<out>/<recipe>.json` (the curve and the final
measurement) and `<out>/<recipe>.svg` (the curve, with matplotlib from the `lab` extra).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

from chuko.bots.policy import load_policy
from chuko.core.errors import ConfigError
from chuko.core.protocol import Game, Json
from chuko.envs.common import make_game

from .evaluate import EVALUATION_SEEDS, evaluate
from .plot import plot_curve
from .recipes import RECIPES, Recipe
from .trainer import Point, Trainer


def level_name(level: str | None) -> str:
    return level or "alone"


def train_recipe(recipe: Recipe, seed: int, minutes: float | None, updates: int | None,
                 out: Path, every: int = 10, games: int = 200, final_games: int = 1000,
                 say: Callable[[str], None] = print, compiled: bool = False) -> Json:
    """Train by `recipe` and write its three files under `out`; the summary written to the
    JSON file, which holds the final measurement of the saved policy."""
    out.mkdir(parents=True, exist_ok=True)
    game = make_game(recipe.game_id, recipe.options)
    trainer = Trainer(recipe.source(seed, compiled=compiled), recipe.settings, seed)
    # Progress evaluations use deals after the final measurement's, so neither is tuned on.
    during = final_games

    def on_point(point: Point) -> None:
        policy = trainer.snapshot(game, recipe.options)
        for level in recipe.measure:
            score = evaluate(policy, game, level, games, first=during)
            point.evaluations[level_name(level)] = {
                "win_rate": score.win_rate.to_json(), "mean_return": score.mean_return.to_json()}
        shown = ", ".join(f"{name} {e['win_rate']['estimate']:.1%}"
                          for name, e in point.evaluations.items())
        say(f"update {point.update:5,}  {point.steps:>10,} actions  "
            f"{point.seconds / 60:5.1f} min  wins: {shown}")

    trainer.run(minutes=minutes, updates=updates, every=every, on_point=on_point)
    path = out / f"{recipe.name}.npz"
    trainer.save(str(path), game, recipe.options)
    summary = _final(recipe, game, str(path), seed, final_games, say)
    summary["curve"] = [asdict(point) for point in trainer.curve]
    summary["minutes"] = trainer.curve[-1].seconds / 60
    summary["actions"] = trainer.steps
    (out / f"{recipe.name}.json").write_text(json.dumps(summary, indent=1))
    plot_curve(recipe, summary, str(out / f"{recipe.name}.svg"), say)
    return summary


def _final(recipe: Recipe, game: Game, path: str, seed: int, games: int,
           say: Callable[[str], None]) -> Json:
    """The saved policy (as stored, read back) on `games` held-out deals per level."""
    policy = load_policy(path)
    final: Json = {}
    for level in recipe.measure:
        score = evaluate(policy, game, level, games)
        final[level_name(level)] = {"games": score.games, "wins": score.wins,
                                    "draws": score.draws,
                                    "win_rate": score.win_rate.to_json(),
                                    "mean_return": score.mean_return.to_json()}
        say(f"held out, against {level_name(level)}: {score.describe()}")
    return {"recipe": recipe.name, "seed": seed, "policy": path, "final": final,
            "evaluation_seeds": f"{EVALUATION_SEEDS} to {EVALUATION_SEEDS + games - 1}",
            "load_average": os.getloadavg()}


def positive(kind: type[int] | type[float]) -> Callable[[str], int | float]:
    """An argparse type: a number above 0 of `kind`, refused in one sentence otherwise."""
    def read(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if value <= 0:
            raise argparse.ArgumentTypeError(f"a number above 0 is needed, not {text!r}")
        return value
    return read


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="Train a masked PPO policy by one recipe: "
                                + "; ".join(f"{r.name}: {r.summary}" for r in RECIPES.values()))
    p.add_argument("recipe", choices=sorted(RECIPES))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--minutes", type=positive(float), default=15.0,
                   help="training time (default 15)")
    p.add_argument("--updates", type=positive(int), help="stop after this many updates instead")
    p.add_argument("--out", default="runs", help="folder for the policy, curve and plot")
    p.add_argument("--every", type=positive(int), default=10, help="evaluate every N updates")
    p.add_argument("--games", type=positive(int), default=200,
                   help="games per evaluation in training")
    p.add_argument("--final-games", type=positive(int), default=1000,
                   help="held-out games at the end")
    p.add_argument("--envs", type=int, help="games stepped together (default: the recipe's)")
    p.add_argument("--compiled", action="store_true",
                   help="learn on a batch of the game's compiled twin (self-play and Caravan)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        recipe = RECIPES[args.recipe]
        if args.envs is not None:
            if args.envs < 1:
                raise ConfigError(f"--envs is a number of games from 1, not {args.envs}.")
            recipe = replace(recipe, num_envs=args.envs)
        train_recipe(recipe, args.seed, None if args.updates else args.minutes,
                     args.updates, Path(args.out), args.every, args.games, args.final_games,
                     compiled=args.compiled)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    return 0
