"""The learning curve as a chart: the win rate against each measured level, with its 95%
interval, by minutes of training (matplotlib, from the `lab` extra; without it the curve
stays in the JSON file and one line says so)."""

from __future__ import annotations

from collections.abc import Callable

from chuko.core.errors import ConfigError
from chuko.core.protocol import Json

from .recipes import Recipe


def plot_curve(recipe: Recipe, summary: Json, path: str,
               say: Callable[[str], None] = print) -> None:
    try:
        import matplotlib
    except ImportError:
        say(f"No plot: matplotlib is not installed (the lab extra); the curve is in "
            f"{path.removesuffix('.svg')}.json.")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable
    curve = summary["curve"]
    minutes = [point["seconds"] / 60 for point in curve]
    figure, axes = plt.subplots(figsize=(6.4, 3.8))
    for name in curve[0]["evaluations"] if curve else []:
        rates = [point["evaluations"][name]["win_rate"] for point in curve]
        axes.plot(minutes, [100 * r["estimate"] for r in rates], label=f"against {name}"
                  if name != "alone" else "wins")
        axes.fill_between(minutes, [100 * r["low"] for r in rates],
                          [100 * r["high"] for r in rates], alpha=0.2)
    for name, final in summary["final"].items():
        rate = final["win_rate"]
        axes.errorbar([minutes[-1]], [100 * rate["estimate"]], yerr=[
            [100 * (rate["estimate"] - rate["low"])], [100 * (rate["high"] - rate["estimate"])]],
            fmt="o", color="black", capsize=3, markersize=3,
            label=f"held out: {final['games']:,} games" if name == next(iter(
                summary["final"])) else None)
    axes.set_xlabel("minutes of training")
    axes.set_ylabel("wins (%), 95% interval")
    axes.set_ylim(0, 100)
    axes.set_title(f"{recipe.summary}: masked PPO, seed {summary['seed']}", fontsize=10)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    try:
        figure.savefig(path)
    except (OSError, ValueError) as error:
        raise ConfigError(f"Cannot write the plot {path}: {error}.") from None
    finally:
        plt.close(figure)
