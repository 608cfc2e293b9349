"""`chuko arena GAME`: every bot against every other, with ratings.

The bots are agents (`chuko.analysis.agents`): the built-in levels, a `module:callable`
that makes a bot, or a saved policy. Each pair plays `--games` games, dealt and seated as
`chuko simulate` does, the seats rotating each game. With more than two seats the two bots
alternate round the table (and, with an odd number of seats, each starts half the games),
and a game counts for the bot whose seat won it; no winner, or winners of both, is a draw.
The engine judges every move: an illegal one forfeits the game to the other side.

A solitaire has no opponent, so its arena plays every bot on the same deals and compares
them deal by deal: a bot beats another on a deal it wins and the other loses, and both
winning or both losing is a draw. Its table also gives each bot's win rate.

Ratings are Elo points on the Bradley–Terry model (a bot rated 400 above another scores
10 to 1 against it), fitted to all the pairings at once with draws as half a win and one
virtual draw per pairing, which keeps a bot that never lost finite. The first bot listed
(`random` where the game has it) is the zero. The 95% intervals come from a bootstrap that
resamples the games (a solitaire's deals) and fits again. Every pairing keeps its wins,
draws and losses; `--ladder` plays a fixed, versioned arena (`chuko.analysis.ladder`).
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from random import Random
from typing import Any

from chuko.analysis.agents import Agent, Forfeit, play_judged, read_agents
from chuko.analysis.ladder import Ladder, load_ladder, shipped_ladders
from chuko.analysis.progress import progress_bar
from chuko.analysis.simulate import _positive, add_budget_arguments, read_budget
from chuko.analysis.stats import Interval, proportion_interval
from chuko.console import (
    add_option_flags,
    console,
    game_from_flags,
    numeral,
    option_values,
    print_table,
    say,
)
from chuko.core.errors import ConfigError
from chuko.core.protocol import Game, Json, State
from chuko.core.rng import make_rng
from chuko.core.text import Plural, Text
from chuko.games import game_class

HELP: dict[str, str] = {}
BOOTSTRAP = 1000
ITERATIONS = 1000  # at most, of the Bradley–Terry fit; it stops once no strength moves
SETTLED = 1e-7  # relative change: well below 0.01 Elo


@dataclass
class Pairing:
    """Games between agents `a` and `b` (their specs), each game's result for `a`: 1 won, 0.5
    drawn, 0 lost. A solitaire pairing compares the two agents deal by deal. `forfeits`
    holds, by agent, the engine's reason for each illegal move that lost it a game."""

    a: str
    b: str
    results: list[float]
    forfeits: dict[str, list[str]] = field(default_factory=dict)

    def count(self, result: float) -> int:
        return self.results.count(result)

    def forfeit(self, spec: str, reason: str) -> None:
        self.forfeits.setdefault(spec, []).append(reason)

    def line(self, spec: str) -> tuple[int, int, int]:
        """Wins, draws and losses of `spec`, one of the two agents."""
        wins, draws, losses = self.count(1.0), self.count(0.5), self.count(0.0)
        return (wins, draws, losses) if spec == self.a else (losses, draws, wins)

    def to_json(self) -> Json:
        n = len(self.results)
        score = proportion_interval(round(2 * sum(self.results)), 2 * n) if n else None
        return {"a": self.a, "b": self.b, "games": n, "wins_a": self.count(1.0),
                "wins_b": self.count(0.0), "draws": self.count(0.5),
                "forfeits_a": len(self.forfeits.get(self.a, [])),
                "forfeits_b": len(self.forfeits.get(self.b, [])),
                "score_a": score.to_json() if score else None}


# -- ratings --------------------------------------------------------------------------------

def fit_elo(levels: Sequence[str], scores: dict[tuple[int, int], tuple[float, int]]) -> list[float]:
    """Elo ratings from (i, j) → (i's score against j, games), i < j, the first level at 0.
    Hunter's minorisation–maximisation for Bradley–Terry; one virtual draw per pairing."""
    count = len(levels)
    won = [0.0] * count
    games: dict[tuple[int, int], float] = {}
    for (i, j), (score, n) in scores.items():
        won[i] += score + 0.5
        won[j] += n - score + 0.5
        games[i, j] = games[j, i] = n + 1.0
    strength = [1.0] * count
    for _ in range(ITERATIONS):
        new = []
        for i in range(count):
            pace = sum(n / (strength[i] + strength[j]) for (k, j), n in games.items() if k == i)
            new.append(won[i] / pace if pace else strength[i])
        moved = max(abs(n / s - 1) for n, s in zip(new, strength, strict=True))
        strength = new
        if moved < SETTLED:
            break
    return [400 * math.log10(s / strength[0]) for s in strength]


def pair_scores(pairings: Sequence[Pairing], levels: Sequence[str],
                results: Callable[[Pairing], Sequence[float]] = lambda p: p.results,
                ) -> dict[tuple[int, int], tuple[float, int]]:
    index = {level: i for i, level in enumerate(levels)}
    found = {}
    for pairing in pairings:
        got = results(pairing)
        i, j = index[pairing.a], index[pairing.b]
        score = sum(got)
        found[(i, j) if i < j else (j, i)] = (score if i < j else len(got) - score, len(got))
    return found


@dataclass
class Ratings:
    levels: list[str]
    elo: list[float]
    intervals: list[Interval]
    resamples: int


def rate(levels: Sequence[str], pairings: Sequence[Pairing], rng: Random, *,
         shared_deals: bool, resamples: int = BOOTSTRAP) -> Ratings:
    """Elo ratings with 95% bootstrap intervals (percentiles). Games of different pairings
    are independent and resampled apart; a solitaire's pairings share their deals, so the
    deals are resampled once for all of them."""
    elo = fit_elo(levels, pair_scores(pairings, levels))
    draws: list[list[float]] = [[] for _ in levels]
    for _ in range(resamples):
        if shared_deals:
            n = len(pairings[0].results)
            picked = [rng.randrange(n) for _ in range(n)]

            def deals(pairing: Pairing, picked: list[int] = picked) -> list[float]:
                return [pairing.results[k] for k in picked]

            again = pair_scores(pairings, levels, deals)
        else:
            again = pair_scores(pairings, levels,
                                lambda p: rng.choices(p.results, k=len(p.results)))
        for i, value in enumerate(fit_elo(levels, again)):
            draws[i].append(value)
    intervals = []
    for value, sample in zip(elo, draws, strict=True):
        sample.sort()
        low = sample[int(0.025 * (resamples - 1))] if sample else -math.inf
        high = sample[math.ceil(0.975 * (resamples - 1))] if sample else math.inf
        intervals.append(Interval(value, min(low, value), max(high, value)))
    return Ratings(list(levels), elo, intervals, resamples)


# -- playing --------------------------------------------------------------------------------

def play_games(game: Game, lineup: Sequence[Agent], games: int, rng: Random,
               budget: dict[str, Any], on_result: Callable[[State, list[int],
                                                               Forfeit | None], None],
               advance: Callable[[int], None]) -> None:
    """`games` games with one bot per agent of `lineup` (seat order of the first game), the
    lineup rotating by a seat each game, as `chuko simulate` deals and seats them;
    `on_result(state, order, forfeit)` hears of each game, `order[seat]` the index in
    `lineup` of the agent in that seat."""
    players = game.players
    bots = [agent.bot(game, Random(rng.getrandbits(64)), budget) for agent in lineup]
    for index in range(games):
        shift = index % players
        order = [(seat - shift) % players for seat in range(players)]
        state = game.new(rng.getrandbits(64))
        forfeit = play_judged(state, [lineup[b] for b in order], [bots[b] for b in order])
        on_result(state, order, forfeit)
        advance(1)


def side_result(state: State, sides: Sequence[str], a: str, forfeit: Forfeit | None) -> float:
    """The game's result for side `a`, `sides[seat]` the side in each seat: a forfeit loses
    it for the side that made the illegal move; otherwise a game won by one side only is
    that side's, and no winner, or winners of both sides, is a draw."""
    if forfeit is not None:
        return 0.0 if sides[forfeit.seat] == a else 1.0
    outcome = state.outcome
    assert outcome is not None
    won = {sides[seat] for seat in outcome.winners}
    return 0.5 if len(won) != 1 else 1.0 if a in won else 0.0


def play_pairing(game: Game, a: Agent, b: Agent, games: int, rng: Random,
                 budget: dict[str, Any], advance: Callable[[int], None]) -> Pairing:
    """`games` games between agents `a` and `b`, alternating round the table; with an odd
    number of seats each starts half of them, so neither holds more seats overall."""
    players = game.players
    starts = [(a, b)] if players % 2 == 0 else [(a, b), (b, a)]
    pairing = Pairing(a.spec, b.spec, [])
    for number, (first, second) in enumerate(starts):
        lineup = [first if seat % 2 == 0 else second for seat in range(players)]
        share = games // len(starts) + (number < games % len(starts))

        def record(state: State, order: list[int], forfeit: Forfeit | None,
                   lineup: list[Agent] = lineup) -> None:
            sides = [lineup[b].spec for b in order]
            pairing.results.append(side_result(state, sides, a.spec, forfeit))
            if forfeit is not None:
                pairing.forfeit(sides[forfeit.seat], forfeit.reason)

        play_games(game, lineup, share, Random(rng.getrandbits(64)), budget, record, advance)
    return pairing


def play_solitaire(game: Game, agents: Sequence[Agent], games: int, rng: Random,
                   budget: dict[str, Any], advance: Callable[[int], None],
                   ) -> tuple[dict[str, list[bool]], dict[str, list[str]], list[Pairing]]:
    """Every agent on the same `games` deals (each run seeded alike, and a lineup of one bot
    draws the same numbers before each deal); the pairings compare them deal by deal. A
    forfeited deal is lost; the engine's reasons come back by agent."""
    seed = rng.getrandbits(64)
    won: dict[str, list[bool]] = {}
    forfeits: dict[str, list[str]] = {}
    for agent in agents:
        wins: list[bool] = []
        lost: list[str] = []

        def record(state: State, _order: list[int], forfeit: Forfeit | None,
                   wins: list[bool] = wins, lost: list[str] = lost) -> None:
            wins.append(forfeit is None and bool(state.outcome and state.outcome.winners))
            if forfeit is not None:
                lost.append(forfeit.reason)

        play_games(game, [agent], games, Random(seed), budget, record, advance)
        won[agent.spec], forfeits[agent.spec] = wins, lost
    pairings = []
    for a, b in combinations(agents, 2):
        pairing = Pairing(a.spec, b.spec, [0.5 if x == y else float(x) for x, y in
                                           zip(won[a.spec], won[b.spec], strict=True)])
        for spec in (a.spec, b.spec):
            for reason in forfeits[spec]:
                pairing.forfeit(spec, reason)
        pairings.append(pairing)
    return won, forfeits, pairings


@dataclass
class Arena:
    game: Game
    options: Json
    agents: list[Agent]
    games: int
    seed: int | None
    pairings: list[Pairing]
    ratings: Ratings
    win_rates: dict[str, list[bool]] | None  # a solitaire's wins per agent and deal
    forfeits: dict[str, list[str]]  # agent → the engine's reason for each forfeited game
    ladder: Ladder | None = None

    @property
    def levels(self) -> list[str]:
        """The agents' specs (a built-in level's is its name)."""
        return [agent.spec for agent in self.agents]

    def totals(self, spec: str) -> tuple[int, int]:
        """Games (a solitaire's deal-by-deal comparisons) and draws that rate `spec`."""
        mine = [p for p in self.pairings if spec in (p.a, p.b)]
        return sum(len(p.results) for p in mine), sum(p.count(0.5) for p in mine)

    def to_json(self) -> Json:
        rates = None
        if self.win_rates is not None:
            rates = [{"level": spec, "wins": sum(w), "games": len(w),
                      **proportion_interval(sum(w), len(w)).to_json()}
                     for spec, w in self.win_rates.items()]
        return {
            "game": self.game.id, "options": self.options, "players": self.game.players,
            "levels": self.levels, "games": self.games, "seed": self.seed,
            "agents": [{"agent": a.spec, "kind": a.kind, "name": a.name} for a in self.agents],
            "ladder": self.ladder.to_json() if self.ladder else None,
            "rating": (f"Elo (Bradley-Terry, draws as half a win, one virtual draw per "
                       f"pairing), {self.levels[0]} = 0; 95% bootstrap interval over "
                       f"{self.ratings.resamples} resamples"),
            "ratings": [{"level": spec, "elo": round(value, 1), "low": round(found.low, 1),
                         "high": round(found.high, 1), "games": self.totals(spec)[0],
                         "draws": self.totals(spec)[1],
                         "forfeits": len(self.forfeits.get(spec, []))}
                        for spec, value, found in zip(self.levels, self.ratings.elo,
                                                      self.ratings.intervals, strict=True)],
            "pairings": [p.to_json() for p in self.pairings],
            "win_rates": rates,
            "forfeits": [{"level": spec, "games": len(reasons), "first": reasons[0]}
                         for spec, reasons in self.forfeits.items()],
        }


def arena(game: Game, agents: Sequence[Agent | str], games: int, seed: int | None, *,
          options: Json | None = None, budget: dict[str, Any] | None = None,
          resamples: int = BOOTSTRAP, ladder: Ladder | None = None,
          advance: Callable[[int], None] = lambda n: None) -> Arena:
    """Play the arena: every pair of `agents` (Agents, or specs to read), or every agent on
    the same deals for a solitaire, and rate them."""
    contestants = read_agents(agents, game)
    if len(contestants) < 2:
        raise ConfigError(Text("An arena needs at least two bots."))
    rng = make_rng(seed)
    budget = budget or {}
    won = None
    if game.players == 1:
        won, forfeits, pairings = play_solitaire(game, contestants, games, rng, budget,
                                                 advance)
    else:
        pairings = [play_pairing(game, a, b, games, rng, budget, advance)
                    for a, b in combinations(contestants, 2)]
        forfeits = {a.spec: [r for p in pairings for r in p.forfeits.get(a.spec, [])]
                    for a in contestants}
    ratings = rate([a.spec for a in contestants], pairings, Random(rng.getrandbits(64)),
                   shared_deals=won is not None, resamples=resamples)
    return Arena(game, options or game.descriptor.read_options({}), contestants, games, seed,
                 pairings, ratings, won, {k: v for k, v in forfeits.items() if v}, ladder)


# -- output ---------------------------------------------------------------------------------

def print_arena(result: Arena) -> None:
    title = f"[bold]{say(result.game.title)}[/]"
    console.print(say(
        Text("{game} arena: {games} games for every bot on the same deals.", game=title,
             games=numeral(result.games)) if result.win_rates is not None
        else Text("{game} arena: {games} games for every pair of bots, the seats rotating.",
                  game=title, games=numeral(result.games))))
    if result.ladder is not None:
        print_ladder(result.ladder)
    names = {agent.spec: say(agent.name) for agent in result.agents}
    columns = [Text("Bot"), Text("Elo"), Text("95% interval"), Text("Games"), Text("Draws")]
    if result.win_rates is not None:
        columns.append(Text("Wins"))
    if result.forfeits:
        columns.append(Text("Forfeits"))
    rows = []
    for i in sorted(range(len(result.levels)), key=lambda i: -result.ratings.elo[i]):
        spec, found = result.levels[i], result.ratings.intervals[i]
        games, draws = result.totals(spec)
        cells = [names[spec], f"{found.estimate:+.0f}", f"[{found.low:+.0f}, {found.high:+.0f}]",
                 numeral(games), numeral(draws)]
        if result.win_rates is not None:
            wins = result.win_rates[spec]
            cells.append(proportion_interval(sum(wins), len(wins)).percent())
        if result.forfeits:
            cells.append(numeral(len(result.forfeits.get(spec, []))))
        rows.append(cells)
    print_table(say(Text("Ratings (Elo, 95% bootstrap interval)")), [say(c) for c in columns],
                rows, right=range(1, len(columns)))
    print_matrix(result, names)
    for spec, reasons in result.forfeits.items():
        console.print(say(Plural(
            "{name} forfeited {n} game by an illegal move; the first: {reason}",
            "{name} forfeited {n} games by an illegal move; the first: {reason}",
            n=len(reasons), name=names[spec], reason=reasons[0])), markup=False)
    console.print(say(Text("The first bot, {name}, is rated 0.", name=names[result.levels[0]])),
                  markup=False)


def print_matrix(result: Arena, names: dict[str, str]) -> None:
    """Each pairing from both sides: the row's wins–draws–losses against the column, and n."""
    cells: dict[tuple[str, str], str] = {}
    for pairing in result.pairings:
        for row, col in ((pairing.a, pairing.b), (pairing.b, pairing.a)):
            wins, draws, losses = pairing.line(row)
            cells[row, col] = say(Text("{wins}–{draws}–{losses} of {n}", wins=wins, draws=draws,
                                       losses=losses, n=len(pairing.results)))
    title = (Text("The row's bot against the column's: wins–draws–losses of n deals compared")
             if result.win_rates is not None else
             Text("The row's bot against the column's: wins–draws–losses of n games"))
    print_table(say(title), ["", *(names[spec] for spec in result.levels)],
                [[names[row], *(cells.get((row, col), "") for col in result.levels)]
                 for row in result.levels],
                right=range(1, len(result.levels) + 1))


def print_ladder(ladder: Ladder) -> None:
    budget = "".join(f", {value} {name.replace('_', ' ')}" for name, value in
                     ladder.budget.items())
    console.print(say(Text("Ladder {name}: seed {seed}{budget}. Cite as: {citation}.",
                           name=ladder.name, seed=ladder.seed, budget=budget,
                           citation=ladder.citation())), markup=False)
    for sentence in ladder.drift():
        console.print(f"[yellow]{say(sentence)}[/] "
                      + say(Text("Its numbers may differ from the ladder's.")))


def plot_arena(result: Arena, path: str) -> None:
    """The ratings with their intervals as a chart (SVG, PNG or PDF by the file's name)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable, selectable

    order = sorted(range(len(result.levels)), key=lambda i: result.ratings.elo[i])
    names = [result.agents[i].name for i in order]
    values = [result.ratings.elo[i] for i in order]
    lows = [values[k] - result.ratings.intervals[i].low for k, i in enumerate(order)]
    highs = [result.ratings.intervals[i].high - values[k] for k, i in enumerate(order)]
    figure, axes = plt.subplots(figsize=(6, 0.6 * len(names) + 1.4))
    axes.errorbar(values, range(len(names)), xerr=[lows, highs], fmt="o", capsize=4)
    axes.set_yticks(range(len(names)), names)
    axes.set_xlabel(f"Elo ({result.agents[0].name} = 0), 95% bootstrap interval")
    axes.set_title(f"{result.game.title}: bot ratings from {result.games:,} games a pairing")
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    try:
        figure.savefig(path)
    except (OSError, ValueError) as error:
        raise ConfigError(Text("Cannot write the plot {path}: {reason}.", path=path,
                               reason=str(error))) from None
    finally:
        plt.close(figure)


# -- the command ----------------------------------------------------------------------------

AGENTS_HELP = ("bots to rate, separated by commas: built-in levels, module:callable (or "
               "file.py:callable) returning a bot, or a saved policy (.npz)")


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    described = game_class(game_id).descriptor
    parser.description = (f"Every bot of {described.title} against every other, the seats "
                          "rotating; Elo ratings with 95% bootstrap intervals. Built-in "
                          "levels, or any agent: module:callable called as callable(game, "
                          "rng) and returning a bot, or a saved policy (.npz).")
    add_option_flags(parser, described)
    parser.add_argument("--agents", "--levels", dest="agents", metavar="LIST",
                        help=f"{AGENTS_HELP} (default {','.join(described.levels)})")
    parser.add_argument("--agent", action="append", default=[], metavar="SPEC",
                        help="add one agent to the others (repeatable): module:callable, "
                             "file.py:callable or a saved policy (.npz)")
    parser.add_argument("--ladder", metavar="NAME",
                        help=f"play a fixed, versioned ladder ({', '.join(shipped_ladders())}, "
                             "or a ladder file .json): its levels, games, seed and budget, "
                             "with any --agent added")
    parser.add_argument("--games", type=_positive(int), metavar="N",
                        help="games per pairing (default 100)")
    parser.add_argument("--seed", type=int, metavar="N", help="seed for a reproducible run")
    add_budget_arguments(parser)
    parser.add_argument("--plot", metavar="FILE", help="draw the ratings to FILE (.svg, .png)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def read_specs(args: argparse.Namespace, levels: Sequence[str]) -> list[str]:
    """The agents' specs from --agents (the game's levels by default) and --agent."""
    listed = levels if args.agents is None else [w.strip() for w in args.agents.split(",")]
    return [spec for spec in [*listed, *args.agent] if spec.strip()]


def read_ladder(args: argparse.Namespace) -> Ladder:
    """The ladder named by --ladder, refusing the flags it fixes (option flags may only
    repeat its options)."""
    fixed = [flag for flag, given in (
        ("--agents", args.agents is not None), ("--games", args.games is not None),
        ("--seed", args.seed is not None), ("search budget", bool(read_budget(args))))
        if given]
    if fixed:
        raise ConfigError(Text("A ladder fixes its bots, games, seed and search budget, so "
                               "--ladder takes no {flag}; add agents with --agent.",
                               flag=fixed[0]))
    ladder = load_ladder(args.ladder, args.game)
    if ladder.game.descriptor.read_options(option_values(args)) != ladder.options:
        values = " ".join(f"--{name.replace('_', '-')} {value}"
                          for name, value in ladder.options.items())
        raise ConfigError(Text("Ladder {name} plays {game} with {values}; its options are "
                               "fixed.", name=ladder.name, game=ladder.game.title,
                               values=values))
    return ladder


def run(args: argparse.Namespace) -> int:
    ladder = read_ladder(args) if args.ladder else None
    if ladder is not None:
        game, options = ladder.game, ladder.options
        specs, games, seed, budget = [*ladder.levels, *args.agent], ladder.games, ladder.seed, \
            ladder.budget
    else:
        game = game_from_flags(args, bots_only=True)
        options = game.descriptor.read_options(option_values(args))
        specs = read_specs(args, game.descriptor.levels)
        games, seed, budget = args.games or 100, args.seed, read_budget(args)
    agents = read_agents(specs, game)
    if len(agents) < 2:
        raise ConfigError(Text("An arena needs at least two bots."))
    pairs = len(agents) if game.players == 1 else math.comb(len(agents), 2)
    with progress_bar(pairs * games, say(Text("{game} arena", game=game.title))) as advance:
        result = arena(game, agents, games, seed, options=options, budget=budget,
                       ladder=ladder, advance=advance,
                       resamples=ladder.resamples if ladder else BOOTSTRAP)
    if args.plot:
        plot_arena(result, args.plot)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print_arena(result)
    return 0
