"""`chuko simulate GAME`: bots play many games of any registered game; win rates per seat
and per bot with 95% Wilson intervals, draws, games without a winner and their length, and
optionally every game's record as one JSON line.

Everything about the game comes from its descriptor and the protocol: its options become
flags (checked by `Game.from_options`, bots alone), its levels the choices of --bots. The
lineup rotates by one seat each game (unless --fixed-seats), so each bot sits in every seat
equally often and its win rate is not a seat's advantage.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, TextIO

from chuko.analysis.progress import progress_bar
from chuko.analysis.stats import mean_interval, proportion_interval
from chuko.bots import Bot, make_bot, parse_levels
from chuko.console import (
    LINEUP_HELP,
    add_option_flags,
    console,
    game_from_flags,
    numeral,
    option_values,
    say,
)
from chuko.core.descriptor import Descriptor
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import Game, Json, State
from chuko.core.rng import make_rng
from chuko.core.text import Text
from chuko.core.words import bot_name, ordinal, seat_names
from chuko.games import game_class

# Search budgets a bot may take as keyword options (`make_bot(level, rng, **options)`): the
# flag, its old name, the option's name and its help. A bot that takes none plays without.
BUDGETS = (
    ("--bot-time", "--hard-time", "time_limit", float, "SECONDS",
     "seconds per move of bots that search"),
    ("--bot-simulations", "--hard-simulations", "simulations", int, "N",
     "simulations per move of bots that search, instead of a time (reproducible with --seed)"),
)


def default_level(levels: Sequence[str]) -> str:
    return "easy" if "easy" in levels else levels[0]


def _positive(kind: Callable[[str], Any]) -> Callable[[str], Any]:
    def read(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not value > 0:
            raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
        return value

    return read


def add_bot_game_arguments(parser: argparse.ArgumentParser, described: Descriptor,
                           games: int) -> None:
    """The flags of every command where bots play many games: the game's options, the
    lineup, how many games, the seed and the search bots' budgets."""
    add_option_flags(parser, described)
    level = default_level(described.levels)
    parser.add_argument("--bots", default=level, help=f"bot level per seat, from "
                        f"{', '.join(described.levels)}, separated by commas; {LINEUP_HELP} "
                        f"(default {level})")
    parser.add_argument("--games", type=int, default=games, metavar="N",
                        help=f"games to play (default {games})")
    parser.add_argument("--seed", type=int, metavar="N", help="seed for a reproducible run")
    add_budget_arguments(parser)


def add_budget_arguments(parser: argparse.ArgumentParser) -> None:
    """The search bots' budget flags (a time or a number of simulations per move)."""
    for flag, old_name, name, kind, metavar, text in BUDGETS:
        parser.add_argument(flag, old_name, dest=name, type=_positive(kind), metavar=metavar,
                            help=text)


def read_bot_games(args: argparse.Namespace) -> tuple[Game, Json, list[str], dict[str, Any]]:
    """From the flags of `add_bot_game_arguments`: the game, its option values, the lineup
    and the search bots' budget; ConfigError in one sentence for a bad one."""
    if args.games < 1:
        raise ConfigError(Text("--games must be at least 1."))
    game = game_from_flags(args, bots_only=True)
    lineup = parse_levels(args.bots, game.id, game.players, "--bots")
    return game, game.descriptor.read_options(option_values(args)), lineup, read_budget(args)


def read_budget(args: argparse.Namespace) -> dict[str, Any]:
    """The budget flags given, as options for the search bots."""
    return {name: getattr(args, name) for _, _, name, *_ in BUDGETS
            if getattr(args, name) is not None}


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    described = game_class(game_id).descriptor
    parser.description = (f"Bots play many games of {described.title}; win rates per seat and "
                          "per bot with 95% intervals.")
    add_bot_game_arguments(parser, described, 1000)
    parser.add_argument("--fixed-seats", action="store_true",
                        help="keep the lineup in the seats given instead of rotating it")
    parser.add_argument("--jsonl", metavar="FILE", help="write each game's record as a line")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print the summary as JSON")
    shown.add_argument("--verbose", action="store_true",
                       help="also say how each game ended, in the game's own words")


def play_game(state: State, bots: Sequence[Bot]) -> State:
    """Let the bots play `state` to its end; each sees only its own seat's view (and the
    legal moves, where the game lists them)."""
    _play(state, bots)
    return state


def _play(state: State, bots: Sequence[Bot]) -> int:
    """Play `state` to its end; the number of moves played."""
    moves = 0
    while state.outcome is None:
        for seat in state.to_move:
            legal = state.legal_moves(seat) if state.game.lists_moves else []
            state.play(seat, bots[seat].choose(state.view(seat), legal))
            moves += 1
    return moves


def make_bots(game_id: str, lineup: Sequence[str], rng: Random,
              budget: dict[str, Any]) -> list[Bot]:
    """One bot per level of `lineup`, with the search budget where its module takes it (a
    bot module refuses options it does not know); ConfigError when none takes it."""
    bots: list[Bot] = []
    took = False
    for level in lineup:
        seed = rng.getrandbits(64)
        if budget:
            try:
                bots.append(make_bot(game_id, level, Random(seed), **budget))
                took = True
                continue
            except (ConfigError, TypeError):
                pass  # this bot plays without a budget; its own errors surface just below
        bots.append(make_bot(game_id, level, Random(seed)))
    if budget and not took:
        names = " or ".join(flag for flag, _, name, *_ in BUDGETS if name in budget)
        raise ConfigError(Text("No bot of the lineup ({lineup}) takes {flags}.",
                               lineup=", ".join(lineup), flags=names))
    return bots


@dataclass
class Tally:
    """What a simulation counted. Seats and bots are numbered from 0; bot i is the one that
    sat in seat i in the first game."""

    game: Game
    options: Json
    lineup: list[str]
    rotate: bool
    seat_wins: list[int]
    bot_wins: list[int]
    games: int = 0
    first_wins: int = 0  # games won by the seat that moved first
    first_known: int = 0  # games with one seat to move first (not moving at once)
    draws: int = 0  # no winner, every score level
    no_winner: int = 0  # no winner otherwise (a turn limit, a lost solitaire)
    lengths: list[int] = field(default_factory=list)

    def names(self) -> list[str]:
        return seat_names([bot_name(level) for level in self.lineup])

    def to_json(self) -> Json:
        def rate(wins: int, out_of: int) -> Json:
            return {"wins": wins, "n": out_of, **proportion_interval(wins, out_of).to_json()}

        n = self.games
        return {
            "game": self.game.id,
            "options": self.options,
            "players": self.game.players,
            "games": n,
            "lineup": self.lineup,
            "rotate": self.rotate,
            "seats": [{"seat": s, **rate(w, n)} for s, w in enumerate(self.seat_wins)],
            "bots": [{"bot": b, "level": lv, "name": name, **rate(w, n)} for b, (lv, name, w)
                     in enumerate(zip(self.lineup, self.names(), self.bot_wins, strict=True))],
            "first_player": rate(self.first_wins, self.first_known) if self.first_known else None,
            "draws": self.draws,
            "no_winner": self.no_winner,
            "moves": ({**mean_interval(self.lengths).to_json(), "n": len(self.lengths)}
                      if self.lengths else None),
        }


def simulate(
    game: Game,
    lineup: Sequence[str],
    games: int,
    rng: Random,
    *,
    options: Json | None = None,
    rotate: bool = True,
    budget: dict[str, Any] | None = None,
    out: TextIO | None = None,
    on_result: Callable[[int, State, list[str]], None] | None = None,
    advance: Callable[[int], None] = lambda n: None,
) -> Tally:
    """Play `games` games with bots of the levels in `lineup` (seat order of the first game)
    and count them; `options` are the game's option values, for the summary. Each record,
    with the bots' levels, goes to `out` as one JSON line; `on_result(index, state, names)`
    hears of each finished game, `names` by seat."""
    players = game.players
    bots = make_bots(game.id, lineup, rng, budget or {})
    tally = Tally(game, options or {}, list(lineup), rotate, [0] * players, [0] * players)
    names = tally.names()
    for index in range(games):
        shift = index % players if rotate else 0
        order = [(seat - shift) % players for seat in range(players)]  # the bot at each seat
        state = game.new(rng.getrandbits(64))
        first = state.to_move
        tally.lengths.append(_play(state, [bots[b] for b in order]))
        outcome = state.outcome
        assert outcome is not None  # _play returns only at the end
        tally.games += 1
        for seat in outcome.winners:
            tally.seat_wins[seat] += 1
            tally.bot_wins[order[seat]] += 1
        if len(first) == 1:
            tally.first_known += 1
            tally.first_wins += first[0] in outcome.winners
        if not outcome.winners:
            level = players > 1 and len(set(outcome.scores)) == 1
            tally.draws += level
            tally.no_winner += not level
        if out is not None:
            out.write(json.dumps({**state.record(), "bots": [lineup[b] for b in order]}) + "\n")
        if on_result is not None:
            on_result(index, state, [names[b] for b in order])
        advance(1)
    return tally


def print_summary(tally: Tally) -> None:
    n = tally.games
    options = " ".join(f"--{name.replace('_', '-')} {value}"
                       for name, value in tally.options.items())
    game, bots = f"[bold]{say(tally.game.title)}[/]", ", ".join(tally.names())
    console.print(say(
        Text("{game}: {games} games of {bots} (the seats rotate each game).", game=game,
             games=numeral(n), bots=bots) if tally.rotate
        else Text("{game}: {games} games of {bots} (fixed seats).", game=game,
                  games=numeral(n), bots=bots)))
    if options:
        console.print(say(Text("Options: {options}", options=options)))
    console.print(say(Text("Win rates with 95% Wilson intervals:")))
    rows = [(say(Text("{ordinal} seat", ordinal=ordinal(s + 1))), w, n)
            for s, w in enumerate(tally.seat_wins)]
    rows += list(zip(tally.names(), tally.bot_wins, [n] * len(tally.bot_wins), strict=True))
    if tally.first_known and tally.game.players > 1:
        rows.append((say(Text("whoever moved first")), tally.first_wins, tally.first_known))
    width = max(len(label) for label, _, _ in rows) + 2
    for label, wins, out_of in rows:
        rate = proportion_interval(wins, out_of).percent()
        console.print(f"  {label:<{width}}{numeral(wins):>7}  {rate}")
    if tally.draws:
        console.print(say(Text("Draws: {n}", n=numeral(tally.draws))))
    if tally.no_winner:
        console.print(say(Text("No winner: {n}", n=numeral(tally.no_winner))))
    if tally.lengths:
        console.print(say(Text("Moves per game: {mean}", mean=mean_interval(tally.lengths))))


def run(args: argparse.Namespace) -> int:
    game, values, lineup, budget = read_bot_games(args)
    rng = make_rng(args.seed)

    def tell(index: int, state: State, names: list[str]) -> None:
        assert state.outcome is not None
        console.print(say(Text("Game {number}: {result}", number=index + 1,
                               result=state.outcome.describe(names, None))))

    try:
        out = open(args.jsonl, "w", encoding="utf-8") if args.jsonl else None  # noqa: SIM115
    except OSError as error:
        raise ChukoError(Text("Cannot write {path}: {reason}.", path=args.jsonl,
                              reason=error.strerror)) from None
    try:
        with progress_bar(args.games, say(Text("{game} games", game=game.title))) as advance:
            tally = simulate(game, lineup, args.games, rng,
                             options=values,
                             rotate=not args.fixed_seats, budget=budget, out=out,
                             on_result=tell if args.verbose else None, advance=advance)
    finally:
        if out is not None:
            out.close()
    if args.json:
        print(json.dumps(tally.to_json()))
    else:
        print_summary(tally)
    return 0
