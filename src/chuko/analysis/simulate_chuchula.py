"""`chuko simulate chuchula`: bots play many rounds; points per round per bot, 95% intervals.

Chuchula's own simulation, named by its descriptor: what it measures is points per round,
which the generic simulation's win rates would hide. Rounds are played in games of the
game's options (--mode and --length, as every command spells them: 5-round games by
default), so --jsonl writes one game record per line. Seats cannot matter in Chuchula
beyond the random dealer, so the lineup stays in the seats given. Bots build their
grouping from their view: the game lists no moves.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from random import Random

from chuko.analysis.progress import progress_bar
from chuko.analysis.stats import Interval, mean_interval, proportion_interval
from chuko.bots import make_bot, parse_levels
from chuko.console import LINEUP_HELP, add_option_flags, console, game_from_flags, say
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import Json, Outcome
from chuko.core.rng import make_rng
from chuko.core.text import Plural, Text
from chuko.core.words import bot_name, seat_names
from chuko.games.chuchula import DESCRIPTOR, Game

HELP = {Game.id: "bots play many Chuchula rounds; points per round with 95% intervals"}


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    add_option_flags(parser, DESCRIPTOR)
    parser.add_argument("--bots", help="bot level per seat, e.g. hard,easy,easy,easy; "
                        f"{LINEUP_HELP} (default hard, then easy in every other seat)")
    parser.add_argument("--rounds", type=int, default=1000,
                        help="rounds to play in all, in games of --mode and --length; the last "
                        "game of rounds is cut short, a game to points played whole "
                        "(default 1000)")
    parser.add_argument("--seed", type=int, help="seed for a reproducible run")
    parser.add_argument("--jsonl", metavar="FILE", help="write each game's record as a line")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print the summary as JSON")
    shown.add_argument("--verbose", action="store_true",
                       help="also say how each game ended, in the game's own words")


def bot_names(levels: Sequence[str]) -> list[str]:
    """'Hard bot', 'Easy bot 1', 'Easy bot 2': how the summary names each seat's bot."""
    return seat_names([bot_name(level) for level in levels])


@dataclass
class Study:
    """Points per round for each seat, and which seat won each game (seats from 0)."""

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
                {"seat": s, "bot": lv, "name": name,
                 "points_per_round": self.seat_interval(s).to_json(),
                 "games_won": self.win_interval(s).to_json()}
                for s, (lv, name) in enumerate(zip(self.levels, bot_names(self.levels),
                                                   strict=True))
            ],
            "levels": {lv: self.level_interval(lv).to_json() for lv in dict.fromkeys(self.levels)},
        }


def simulate(
    levels: list[str], rounds: int, length: int = 5, seed: int | None = None,
    on_record: Callable[[Json], object] | None = None,
    advance: Callable[[int], None] = lambda n: None,
    on_result: Callable[[Outcome], None] | None = None,
    *, mode: str = "rounds",
) -> Study:
    """Play `rounds` rounds with one bot per seat, in games of `mode` and `length` (the game's
    options): the last game of rounds is cut to the rounds left, a game to points is played
    whole, so it may go past `rounds`. Each bot sees only its seat's view. `on_record` hears
    each game's record, `on_result` each game's outcome."""
    if rounds < 1:
        raise ConfigError(Text("The number of rounds to play must be positive."))
    options = {"players": len(levels), "mode": mode, "length": length}
    configured = Game.from_options(options, bots_only=True)
    assert isinstance(configured, Game)  # Chuchula's own from_options
    rng = make_rng(seed)
    bots = [make_bot(Game.id, lv, Random(rng.getrandbits(64))) for lv in levels]
    study = Study(levels, [[] for _ in levels], [])
    while len(study.points[0]) < rounds:
        left = rounds - len(study.points[0])
        game = replace(configured, length=min(length, left)) if mode == "rounds" else configured
        state = game.new(rng.getrandbits(64))
        while state.outcome is None:
            for seat in state.to_move:
                state.play(seat, bots[seat].choose(state.view(seat), []))
        played = state.view(None)["rounds"]
        for entry in played:
            won = [p["winner"] for p in entry["positions"]]
            for seat in range(len(levels)):
                study.points[seat].append(won.count(seat))
        study.winners.append(state.outcome.winners[0])
        if on_record:
            on_record(state.record())
        if on_result:
            on_result(state.outcome)
        advance(len(played))
    return study


def print_summary(study: Study, game: Game, seed: int | None) -> None:
    levels, names = study.levels, bot_names(study.levels)
    games = (Plural("of up to {n} round", "of up to {n} rounds", n=game.length)
             if game.mode == "rounds" else Plural("to {n} point", "to {n} points", n=game.length))
    rounds = Plural("{n} round", "{n} rounds", n=len(study.points[0]))
    played = Plural("{n} game", "{n} games", n=len(study.winners))
    title = f"[bold]{say(Game.title)}[/]"
    console.print(say(
        Text("{game}, {players} players: {rounds} in {played} {games}, seed {seed}.",
             game=title, players=len(levels), rounds=rounds, played=played, games=games,
             seed=seed) if seed is not None
        else Text("{game}, {players} players: {rounds} in {played} {games}.", game=title,
                  players=len(levels), rounds=rounds, played=played, games=games)))
    width = max(len(name) for name in names) + 2
    bot, per_round = say(Text("bot")), say(Text("points per round [95%]"))
    won = say(Text("games won [95%]"))
    console.print(f"{bot:<{width}}{per_round:<28}{won}", markup=False)
    for seat, name in enumerate(names):
        console.print(f"{name:<{width}}{str(study.seat_interval(seat)):<28}"
                      f"{study.win_interval(seat).percent()}", markup=False)
    if len(set(levels)) < len(levels):
        for level in dict.fromkeys(levels):
            console.print(say(Text("{level} bots (pooled): {interval} per round", level=level,
                                   interval=str(study.level_interval(level)))), markup=False)


def run(args: argparse.Namespace) -> int:
    game = game_from_flags(args, bots_only=True)
    assert isinstance(game, Game)  # the flags are Chuchula's (add_arguments)
    levels = (parse_levels(args.bots, Game.id, game.players, "--bots") if args.bots
              else ["hard"] + ["easy"] * (game.players - 1))
    names = bot_names(levels)
    played = 0

    def tell(outcome: Outcome) -> None:
        nonlocal played
        played += 1
        console.print(say(Text("Game {number}: {result}", number=played,
                               result=outcome.describe(names, None))))

    sink = None
    if args.jsonl:
        try:
            sink = open(args.jsonl, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as error:
            raise ChukoError(Text("Cannot write {path}: {reason}.", path=args.jsonl,
                                  reason=error.strerror)) from None
    try:
        with progress_bar(args.rounds, say(Text("{game} rounds", game=Game.title))) as advance:
            study = simulate(
                levels, args.rounds, game.length, args.seed,
                (lambda r: sink.write(json.dumps(r) + "\n")) if sink else None, advance,
                tell if args.verbose else None, mode=game.mode,
            )
    finally:
        if sink:
            sink.close()
    if args.json:
        print(json.dumps(study.to_json()))
    else:
        print_summary(study, game, args.seed)
    return 0
