"""Chükö: random playout speed and bot strength.

Speed: random playouts of the standard pack, 2 and 4 players, through the engine's fast
path (`State.playout`) against the baseline in this process, the plain protocol loop
(`random_move` then `play` for every move). Both pick the same moves from the same
generator, so they play identical games. The goal is 340,000 turns per second, ten times
the 34,000 steps per second of RLCard's UNO environment with random agents.

Strength, heads-up with seats alternating, 95% Wilson intervals: easy vs random over 2,000
games and hard vs easy over 500 at hard's default budget (200 ms per move). For quick
checks: CHUKO_BENCH_EASY_GAMES, CHUKO_BENCH_HARD_GAMES, and CHUKO_BENCH_HARD_SIMS (a fixed
number of simulations per move instead of the time budget).

Strength table: on every named pack for 2 to 5 players (those the rules deal), one
bot against the weaker level in every other seat, the lineup rotating each game
(`analysis.simulate`): easy vs random over 400 games a cell, hard vs easy over 200 at 200
simulations per move, and an easy bot in the hard bot's seat on the same deals. A bot beats
the other when its win rate is above the fair share 1/P; the verdict says whether the whole
interval is. Sizes: CHUKO_BENCH_TABLE_EASY_GAMES, CHUKO_BENCH_TABLE_HARD_GAMES,
CHUKO_BENCH_TABLE_HARD_SIMS.

The bound: how much any bot could win against players who all follow the strategy advice
(`bots.chuko.advised_move`, the easy bot without its random moves). A clairvoyant player
sees every hand and every future shuffle, and searches for a line that wins against the
advised moves the others will make; the share of deals where one exists bounds every
strategy's win rate in that seat. Beside it, the advice's own win rate in that seat on the
same deals. CHUKO_BENCH_BOUND_GAMES a cell (300).

CHUKO_BENCH_PARTS picks the parts to run, from speed, table, bound and heads-up (all by
default): `CHUKO_BENCH_PARTS=table python -m bench chuko`. On 2 cores shared with other
work the table takes about 4 minutes, the bound about 17 (most of it on `primes` and `large`,
whose games run longest), the heads-up part about 10.
"""

from __future__ import annotations

import argparse
import os
import time
from random import Random
from typing import Any

from chuko.analysis.simulate import play_game, simulate
from chuko.analysis.stats import Interval, proportion_interval
from chuko.bots import make_bot
from chuko.bots.chuko import advised_move
from chuko.core.errors import ConfigError
from chuko.core.packs import PACKS
from chuko.games.chuko import Game, State

GOAL_TURNS = 340_000
RLCARD_UNO_STEPS = 34_000
SECONDS = 3.0


def protocol_playout(state: Any, rng: Random) -> None:
    while state.outcome is None:
        seat = state.to_move[0]
        state.play(seat, state.random_move(seat, rng))


def fast_playout(state: Any, rng: Random) -> None:
    state.playout(rng)


def speed(players: int, playout: Any) -> tuple[float, float, float]:
    """(playouts, turns) per CPU second of this process, and the share of the wall clock it
    had: on a shared machine CPU time measures the engine, wall time also the neighbours."""
    game, rng = Game(players=players), Random(players)
    games = turns = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < SECONDS:
        for _ in range(200):
            state = game.new(rng=rng)
            playout(state, rng)
            turns += state.turns_played
        games += 200
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return games / cpu, turns / cpu, cpu / wall


class Timed:
    """A bot wrapper that records how long each decision takes."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.times, self.simulations = bot, [], []

    def choose(self, view: dict[str, Any], legal_moves: list[Any]) -> Any:
        start = time.perf_counter()
        move = self.bot.choose(view, legal_moves)
        if len(legal_moves) > 1:  # a forced move is not a decision
            self.times.append(time.perf_counter() - start)
            self.simulations.append(getattr(self.bot, "last_simulations", 0))
        return move


def strength(strong: str, weak: str, games: int, seed: int, **options: Any) -> None:
    rng = Random(seed)
    bot = Timed(make_bot("chuko", strong, Random(seed + 1), **options))
    other = make_bot("chuko", weak, Random(seed + 2))
    wins = unfinished = 0
    start = time.perf_counter()
    for index in range(games):
        seat = index % 2  # seats alternate
        bots = [bot, other] if seat == 0 else [other, bot]
        state = play_game(Game(players=2).new(rng=rng), bots)
        wins += state.winner == seat
        unfinished += state.winner is None
    interval = proportion_interval(wins, games)
    verdict = "goal met" if interval.low > 0.5 else "goal NOT met"
    print(
        f"{strong} vs {weak}: {games} games, {strong} wins {interval.percent()} "
        f"({verdict}: lower end above 50%); {unfinished} unfinished; "
        f"{time.perf_counter() - start:.0f} s"
    )
    if bot.times:
        mean = sum(bot.times) / len(bot.times)
        sims = sum(bot.simulations) / len(bot.simulations)
        print(
            f"  {strong}: {len(bot.times)} decisions, mean {mean * 1000:.1f} ms, "
            f"max {max(bot.times) * 1000:.1f} ms per move, {sims:.0f} simulations per move"
        )


def lineup_rate(strong: str, weak: str, pack: str, players: int, games: int, seed: int,
                **budget: Any) -> Interval | None:
    """`strong` in one seat against `weak` in every other, the lineup rotating each game:
    its win rate, or None when the rules refuse to deal `pack` to that many players. The
    first seat is fixed, so with the rotation each bot moves first in turn rather than by
    the luck of the draw: moving first wins two games in three with 5 players."""
    try:
        game = Game(players=players, pack=pack, first=0)
    except ConfigError:
        return None
    tally = simulate(game, [strong] + [weak] * (players - 1), games, Random(seed),
                     budget=budget)
    return proportion_interval(tally.bot_wins[0], games)


def verdict(rate: Interval, players: int) -> str:
    """The rate with '>' when its whole interval is above the fair share 1/P, '~' when only
    the estimate is, '<' when not even that."""
    fair = 1 / players
    mark = ">" if rate.low > fair else "~" if rate.estimate > fair else "<"
    return f"{mark} {rate.percent()}"


def table(easy_games: int, hard_games: int, sims: int) -> None:
    """Every named pack for 2 to 5 players: easy against random, hard against easy, and, on
    the same deals as the hard bot's, an easy bot in its seat: how much of the hard bot's
    figure is the deals' luck for that seat."""
    print(f"Strength on every named pack: one bot against the other level in every other "
          f"seat, the lineup rotating; easy vs random over {easy_games} games a cell, hard "
          f"({sims} simulations per move) vs easy over {hard_games}; 95% Wilson intervals; "
          "'>' interval above the fair share 1/P, '~' estimate above, '<' not above.")
    print(f"  {'pack':<10} P  {'easy vs random':<26} {'hard vs easy':<26} easy in hard's seat")
    start = time.perf_counter()
    for pack in PACKS:
        for players in range(2, 6):
            easy = lineup_rate("easy", "random", pack, players, easy_games, seed=players)
            if easy is None:
                print(f"  {pack:<10} {players}  refused by the rules (K3)")
                continue
            hard = lineup_rate("hard", "easy", pack, players, hard_games, seed=players,
                               simulations=sims)
            same = lineup_rate("easy", "easy", pack, players, hard_games, seed=players)
            assert hard is not None and same is not None  # the same game as `easy`
            print(f"  {pack:<10} {players}  {verdict(easy, players):<26} "
                  f"{verdict(hard, players):<26} {same.estimate:.1%}", flush=True)
    print(f"  ({time.perf_counter() - start:.0f} s)")


# The clairvoyant's search stops after this many of its own decisions (a reset and its card
# are two), and gives up a deal after this many positions: both bound its time, and a win
# it misses only lowers the bound it reports.
BOUND_DECISIONS = 14
BOUND_POSITIONS = 20_000


class Advised:
    """A player who makes the advised move (the easy bot without its random moves)."""

    level = "advice"

    def choose(self, view: dict[str, Any], legal_moves: list[Any]) -> Any:
        return advised_move(view, legal_moves)


def clairvoyant_wins(state: State, seat: int) -> bool:
    """Whether `seat` has a line that wins `state` against advised players, seeing every card
    and, through the state's own generator, every future shuffle (the others' moves are
    then certain): a search over its own moves only."""
    failed: dict[Any, int] = {}  # position -> decisions left when no win was found from it
    positions = 0

    def search(state: State, left: int) -> bool:
        nonlocal positions
        positions += 1
        if positions > BOUND_POSITIONS:
            return False
        while state.outcome is None and state.to_move[0] != seat:
            mover = state.to_move[0]
            state.play(mover, advised_move(state.view(mover), state.legal_moves(mover)))
        if state.outcome is not None:
            return state.winner == seat
        position = (tuple(map(tuple, state._hands)), tuple(state._pile), tuple(state._draw),
                    state.pending_reset)
        if left == 0 or failed.get(position, -1) >= left:
            return False
        for move in state.legal_moves(seat):
            after = state.copy()
            after.play(seat, move)
            if search(after, left - 1):
                return True
        failed[position] = left
        return False

    return search(state.copy(), BOUND_DECISIONS)


def bound(games: int) -> None:
    print(f"The bound: a clairvoyant player against advised players, {games} deals a cell, "
          "its seat rotating; 95% Wilson intervals. 'advice': an advised player in that seat "
          "on the same deals.")
    print(f"  {'pack':<10} P  fair   {'clairvoyant':<22} advice")
    start = time.perf_counter()
    advised = Advised()
    for pack in PACKS:
        for players in range(2, 6):
            try:
                game = Game(players=players, pack=pack, first=0)
            except ConfigError:
                continue
            rng = Random(players)
            best = plain = 0
            for index in range(games):
                seat = index % players
                state = game.new(rng=Random(rng.getrandbits(64)))
                best += clairvoyant_wins(state, seat)
                plain += play_game(state, [advised] * players).winner == seat
            print(f"  {pack:<10} {players}  {1 / players:<5.0%}  "
                  f"{proportion_interval(best, games).percent():<22} "
                  f"{proportion_interval(plain, games).percent()}", flush=True)
    print(f"  ({time.perf_counter() - start:.0f} s)")


def parser() -> argparse.ArgumentParser:
    """No options: its parts and sizes are environment variables (see above)."""
    return argparse.ArgumentParser(prog="python -m bench chuko",
                                   description=__doc__.splitlines()[0])


def main(argv: list[str] | None = None) -> None:
    parser().parse_args(argv or [])
    parts = os.environ.get("CHUKO_BENCH_PARTS", "speed,table,bound,heads-up").split(",")
    if "speed" in parts:
        speed_part()
    if "table" in parts:
        table(int(os.environ.get("CHUKO_BENCH_TABLE_EASY_GAMES", 400)),
              int(os.environ.get("CHUKO_BENCH_TABLE_HARD_GAMES", 200)),
              int(os.environ.get("CHUKO_BENCH_TABLE_HARD_SIMS", 200)))
    if "bound" in parts:
        bound(int(os.environ.get("CHUKO_BENCH_BOUND_GAMES", 300)))
    if "heads-up" in parts:
        heads_up_part()


def speed_part() -> None:
    print(f"Random playouts, standard pack, {SECONDS:.0f} s each, per CPU second:")
    for players in (2, 4):
        base_games, base_turns, _ = speed(players, protocol_playout)
        games, turns, share = speed(players, fast_playout)
        print(
            f"  {players} players: {games:,.0f} playouts/s, {turns:,.0f} turns/s "
            f"({turns * share:,.0f} per wall second with {share:.0%} of a core); "
            f"baseline protocol loop {base_games:,.0f} playouts/s, {base_turns:,.0f} turns/s; "
            f"x{turns / base_turns:.2f} the baseline, {turns / GOAL_TURNS:.0%} of the goal of "
            f"{GOAL_TURNS:,} turns/s, x{turns / RLCARD_UNO_STEPS:.1f} RLCard UNO's "
            f"{RLCARD_UNO_STEPS:,} steps/s"
        )


def heads_up_part() -> None:
    easy_games = int(os.environ.get("CHUKO_BENCH_EASY_GAMES", 2000))
    hard_games = int(os.environ.get("CHUKO_BENCH_HARD_GAMES", 500))
    sims = os.environ.get("CHUKO_BENCH_HARD_SIMS")
    budget = {"simulations": int(sims)} if sims else {}
    print("Strength, heads-up, seats alternating, 95% Wilson intervals:")
    strength("easy", "random", easy_games, seed=1)
    label = f"{sims} simulations per move" if sims else "the default 200 ms per move"
    print(f"  (hard at {label})")
    strength("hard", "easy", hard_games, seed=2, **budget)


if __name__ == "__main__":
    main()
