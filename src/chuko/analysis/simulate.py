"""`chuko simulate chuko`: many bot games, win rates per seat and per bot with 95% intervals,
and optionally every game's record as one JSON line.

The lineup given by --bots rotates by one seat each game (unless --fixed-seats), so each
bot sits in every seat equally often and its win rate is not a seat's advantage.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from random import Random
from typing import Any, TextIO

from chuko.analysis.progress import progress_bar
from chuko.analysis.stats import Interval, mean_interval, proportion_interval
from chuko.bots import Bot, make_bot, parse_levels
from chuko.console import console
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.protocol import State
from chuko.core.rng import make_rng
from chuko.games.chuko import Game

HELP = {"chuko": "play many Chükö bot games and report win rates with 95% intervals"}


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.add_argument("--players", type=int, default=2, help="number of seats (default 2)")
    parser.add_argument(
        "--pack", default="standard", help="pack name, list (2,6,7) or range (2-30)"
    )
    parser.add_argument(
        "--bots",
        default="easy",
        help="bot level per seat, e.g. hard,easy (one level fills every seat; default easy)",
    )
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, help="seed for a reproducible run")
    parser.add_argument("--first", type=int, help="seat that starts every game (random if unset)")
    parser.add_argument(
        "--turn-limit", type=int, default=1000, help="end a game with no winner after this many"
    )
    parser.add_argument(
        "--fixed-seats", action="store_true", help="keep the lineup in the seats given"
    )
    parser.add_argument("--hard-time", type=float, help="hard bot's seconds per move (default 0.2)")
    parser.add_argument(
        "--hard-simulations",
        type=int,
        help="hard bot's simulations per move instead of a time (reproducible with --seed)",
    )
    parser.add_argument("--jsonl", metavar="FILE", help="write each game's record as a line")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def play_game(state: State, bots: Sequence[Bot]) -> State:
    """Let the bots play `state` to its end; each sees only its own seat's view."""
    while state.outcome is None:
        seat = state.to_move[0]
        state.play(seat, bots[seat].choose(state.view(seat), state.legal_moves(seat)))
    return state


def hard_options(time_limit: float | None, simulations: int | None) -> dict[str, Any]:
    """The hard bot's budget from command-line options (its default when both are unset)."""
    if simulations is not None:
        return {"simulations": simulations}
    if time_limit is not None:
        return {"time_limit": time_limit}
    return {}


def simulate(
    game: Game,
    lineup: Sequence[str],
    games: int,
    rng: Random,
    *,
    rotate: bool = True,
    hard: dict[str, Any] | None = None,
    out: TextIO | None = None,
    advance: Callable[[int], None] = lambda n: None,
) -> dict[str, Any]:
    """Play `games` games with bots of the levels in `lineup` (seat order of the first game)
    and return the tallies; write each record to `out` as one JSON line."""
    players = game.players
    bots = [
        make_bot(
            Game.id, level, Random(rng.getrandbits(64)), **(hard or {}) if level == "hard" else {}
        )
        for level in lineup
    ]
    seat_wins, bot_wins = [0] * players, [0] * players
    first_wins, unfinished, turns = 0, 0, []
    for index in range(games):
        shift = index % players if rotate else 0
        order = [(seat - shift) % players for seat in range(players)]  # bot at each seat
        state = play_game(game.new(rng=rng), [bots[b] for b in order])
        winner = state.winner
        turns.append(state.turns_played)
        if winner is None:
            unfinished += 1
        else:
            seat_wins[winner] += 1
            bot_wins[order[winner]] += 1
            first_wins += winner == state.first
        if out is not None:
            record = state.record()
            record["bots"] = [lineup[b] for b in order]
            out.write(json.dumps(record) + "\n")
        advance(1)
    return {
        "game": Game.id,
        "players": players,
        "pack": list(game.pack),
        "games": games,
        "lineup": list(lineup),
        "rotate": rotate,
        "seat_wins": seat_wins,
        "bot_wins": bot_wins,
        "first_wins": first_wins,
        "unfinished": unfinished,
        "turns": mean_interval(turns) if turns else None,
    }


def summary_json(tally: dict[str, Any]) -> dict[str, Any]:
    n = tally["games"]

    def rate(wins: int) -> dict[str, Any]:
        return {"wins": wins, **proportion_interval(wins, n).to_json()}

    turns: Interval | None = tally["turns"]
    return {
        **{k: tally[k] for k in ("game", "players", "pack", "games", "lineup", "rotate")},
        "seats": [rate(w) for w in tally["seat_wins"]],
        "bots": [
            {"level": lvl, **rate(w)}
            for lvl, w in zip(tally["lineup"], tally["bot_wins"], strict=True)
        ],
        "first_player": rate(tally["first_wins"]),
        "unfinished": tally["unfinished"],
        "turns": turns.to_json() if turns else None,
    }


def print_summary(tally: dict[str, Any]) -> None:
    n = tally["games"]
    console.print(
        f"[bold]Chükö[/]: {n} games, {tally['players']} players, "
        f"lineup {','.join(tally['lineup'])}"
        + (" (rotating seats)" if tally["rotate"] else " (fixed seats)")
    )
    console.print("Win rates with 95% Wilson intervals:")
    for seat, wins in enumerate(tally["seat_wins"]):
        console.print(f"  seat {seat}          {wins:6d}  {proportion_interval(wins, n).percent()}")
    for number, (level, wins) in enumerate(zip(tally["lineup"], tally["bot_wins"], strict=True), 1):
        label = f"bot {number} ({level})"
        console.print(f"  {label:<16}{wins:6d}  {proportion_interval(wins, n).percent()}")
    wins = tally["first_wins"]
    console.print(f"  first player    {wins:6d}  {proportion_interval(wins, n).percent()}")
    console.print(f"  no winner (turn limit) {tally['unfinished']}")
    if tally["turns"] is not None:
        console.print(f"Turns per game: {tally['turns']}")


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise ConfigError("--games must be at least 1.")
    game = Game(players=args.players, pack=args.pack, first=args.first, turn_limit=args.turn_limit)
    lineup = parse_levels(args.bots, Game.id, game.players, "--bots")
    hard = hard_options(args.hard_time, args.hard_simulations)
    rng = make_rng(args.seed)
    try:
        out = open(args.jsonl, "w", encoding="utf-8") if args.jsonl else None  # noqa: SIM115
    except OSError as error:
        raise ChukoError(f"Cannot write {args.jsonl}: {error.strerror}.") from None
    try:
        with progress_bar(args.games, "Chükö games") as advance:
            tally = simulate(game, lineup, args.games, rng, rotate=not args.fixed_seats,
                             hard=hard, out=out, advance=advance)
    finally:
        if out is not None:
            out.close()
    if args.json:
        print(json.dumps(summary_json(tally)))
    else:
        print_summary(tally)
    return 0
