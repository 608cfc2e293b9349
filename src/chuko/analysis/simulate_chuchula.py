"""`chuko simulate chuchula`: bots play many rounds; points per round per bot, 95% intervals.

Rounds are played as round games of --per-game rounds each (a 5-round game by
default), so --jsonl writes one game record per line. Seats cannot matter in
Chuchula beyond the random dealer, so the lineup stays in the seats given.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from chuko.analysis.progress import progress_bar
from chuko.analysis.stats import Interval, mean_interval, proportion_interval
from chuko.bots import make_bot, parse_levels
from chuko.core.errors import ConfigError
from chuko.core.protocol import Json
from chuko.core.rng import make_rng
from chuko.games.chuchula import Game, State

HELP = {"chuchula": "bots play many Chuchula rounds; points per round with 95% intervals"}


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.add_argument("--players", type=int, default=4, help="seats, 2-4 (default 4)")
    parser.add_argument(
        "--bots", help="bot level per seat, e.g. hard,easy,easy,easy (default hard then easy)"
    )
    parser.add_argument("--rounds", type=int, default=1000, help="rounds to play (default 1000)")
    parser.add_argument("--per-game", type=int, default=5, help="rounds per game (default 5)")
    parser.add_argument("--seed", type=int, help="seed for a reproducible run")
    parser.add_argument("--jsonl", metavar="FILE", help="write each game's record as a line")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


@dataclass
class Study:
    """Points per round for each seat, and which seat won each game."""

    levels: list[str]
    points: list[list[int]]  # points[seat][round]
    winners: list[int]

    def seat_interval(self, seat: int) -> Interval:
        return mean_interval(self.points[seat])

    def level_interval(self, level: str) -> Interval:
        """Points per round of one bot of `level`, averaged over the seats it holds."""
        seats = [s for s, lv in enumerate(self.levels) if lv == level]
        rounds = len(self.points[0])
        return mean_interval(sum(self.points[s][r] for s in seats) / len(seats)
                             for r in range(rounds))

    def win_interval(self, seat: int) -> Interval:
        return proportion_interval(self.winners.count(seat), len(self.winners))

    def to_json(self) -> Json:
        return {
            "rounds": len(self.points[0]),
            "games": len(self.winners),
            "seats": [
                {"seat": s, "bot": lv, "points_per_round": self.seat_interval(s).to_json(),
                 "games_won": self.win_interval(s).to_json()}
                for s, lv in enumerate(self.levels)
            ],
            "levels": {lv: self.level_interval(lv).to_json() for lv in dict.fromkeys(self.levels)},
        }


def simulate(
    levels: list[str], rounds: int, per_game: int = 5, seed: int | None = None,
    on_record: Callable[[Json], None] | None = None,
    advance: Callable[[int], None] = lambda n: None,
) -> Study:
    """Play `rounds` rounds with one bot per seat; each bot sees only its seat's view."""
    if rounds < 1 or per_game < 1:
        raise ConfigError("The number of rounds and of rounds per game must be positive.")
    rng = make_rng(seed)
    bots = [make_bot("chuchula", lv, Random(rng.getrandbits(64))) for lv in levels]
    study = Study(levels, [[] for _ in levels], [])
    while len(study.points[0]) < rounds:
        length = min(per_game, rounds - len(study.points[0]))
        state: State = Game(len(levels), "rounds", length).new(rng.getrandbits(64))
        while state.outcome is None:
            for seat in state.to_move:
                # Chuchula bots build their grouping from the view; see chuko.bots.chuchula.
                state.play(seat, bots[seat].choose(state.view(seat), []))
        for entry in state.view(None)["rounds"]:
            won = [p["winner"] for p in entry["positions"]]
            for seat in range(len(levels)):
                study.points[seat].append(won.count(seat))
        study.winners.append(state.outcome.winners[0])
        if on_record:
            on_record(state.record())
        advance(length)
    return study


def run(args: argparse.Namespace) -> int:
    if not 2 <= args.players <= 4:
        raise ConfigError(f"Chuchula is for 2 to 4 players, not {args.players}.")
    levels = (parse_levels(args.bots, "chuchula", args.players, "--bots") if args.bots
              else ["hard"] + ["easy"] * (args.players - 1))
    sink = None
    if args.jsonl:
        try:
            sink = open(args.jsonl, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as error:
            raise ConfigError(f"Cannot write {args.jsonl}: {error.strerror}.") from None
    try:
        with progress_bar(args.rounds, "Chuchula rounds") as advance:
            study = simulate(
                levels, args.rounds, args.per_game, args.seed,
                (lambda r: sink.write(json.dumps(r) + "\n")) if sink else None, advance,
            )
    finally:
        if sink:
            sink.close()
    if args.json:
        print(json.dumps(study.to_json()))
        return 0
    print(f"Chuchula, {args.players} players: {len(study.points[0])} rounds in "
          f"{len(study.winners)} game(s) of up to {args.per_game} rounds"
          + (f", seed {args.seed}" if args.seed is not None else "") + ".")
    print(f"{'seat':<5}{'bot':<8}{'points per round [95%]':<28}games won [95%]")
    for seat, level in enumerate(levels):
        print(f"{seat:<5}{level:<8}{str(study.seat_interval(seat)):<28}"
              f"{study.win_interval(seat).percent()}")
    if len(set(levels)) < len(levels):
        for level in dict.fromkeys(levels):
            print(f"{level} (per seat, pooled): {study.level_interval(level)}")
    return 0
