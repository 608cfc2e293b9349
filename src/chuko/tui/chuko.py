"""`chuko play chuko`: Chükö in the terminal against bots.

Everything shown comes from the human seat's view (ruling K6); every move goes through
the engine, which alone decides what is legal. Cards are typed by their number; the
listed choices also have letters, since a list number could be mistaken for a card.
"""

from __future__ import annotations

import argparse
from random import Random
from string import ascii_lowercase
from typing import Any

from chuko.bots import make_bot, parse_levels
from chuko.console import Quit, ask, console, warn
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.numbers import factor_text
from chuko.core.rng import make_rng
from chuko.core.words import bot_name, seat_names, who
from chuko.games.chuko import Game, Move, State

HELP = {"chuko": "play Chükö against bots (share a factor, go lower, or reset)"}

RULES = """[bold]Chükö[/]: be the first to empty your hand. On your turn, either
  • play a card that shares a prime factor with the top card or is lower, or
  • [bold]reset[/]: draw a card, then play any card (the drawn one included).
An empty draw pile is refilled by shuffling the play pile beneath its top card;
with nothing at all to draw, a reset plays any card without drawing.
Type a card (15), a choice's letter (a), r to reset, help, or quit."""


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.add_argument("--players", type=int, default=2, help="number of seats (default 2)")
    parser.add_argument("--vs", default="easy", help="bot levels of the others, e.g. easy,hard")
    parser.add_argument("--seed", type=int, help="seed for a reproducible deal and bots")
    parser.add_argument(
        "--pack", default="standard", help="pack name, list (2,6,7) or range (2-30)"
    )
    parser.add_argument("--first", type=int, help="seat that starts (you are seat 0)")
    parser.add_argument(
        "--turn-limit", type=int, help="end the game with no winner after this many turns"
    )
    parser.add_argument(
        "--hard-time", type=float, default=0.2, help="hard bots' seconds per move (default 0.2)"
    )


def run(args: argparse.Namespace, you: int = 0) -> int:
    game = Game(players=args.players, pack=args.pack, first=args.first, turn_limit=args.turn_limit)
    levels = parse_levels(args.vs, Game.id, game.players - 1)
    if args.hard_time <= 0:
        raise ConfigError("--hard-time must be a positive number of seconds.")
    rng = make_rng(args.seed)
    state = game.new(rng=rng)
    bots: dict[int, Any] = {}
    labels = ["Player"] * game.players
    for seat, level in zip((s for s in range(game.players) if s != you), levels, strict=True):
        options = {"time_limit": args.hard_time} if level == "hard" else {}
        bots[seat] = make_bot(Game.id, level, Random(rng.getrandbits(64)), **options)
        labels[seat] = bot_name(level)
    names = seat_names(labels)
    console.print(RULES)
    console.print(
        f"\n{game.players} players, pack {', '.join(map(str, game.pack))}, "
        f"{game.hand_size} cards each."
    )
    console.print(f"{who(state.first, names, you)} start{'' if state.first == you else 's'}.")
    try:
        return _play(state, you, bots, names)
    except Quit:
        console.print("Goodbye.")
        return 0


def _play(state: State, you: int, bots: dict[int, Any], names: list[str]) -> int:
    while state.outcome is None:
        seat = state.to_move[0]
        if seat in bots:
            move = bots[seat].choose(state.view(seat), state.legal_moves(seat))
            state.play(seat, move)
            _said(state, seat, move, names, you)
        else:
            _turn(state, you, names)
    console.rule("Game over")
    console.print(f"[bold]{state.outcome.describe(names, you)}[/]")
    return 0


def _said(state: State, seat: int, move: Move, names: list[str], you: int) -> None:
    """The engine's sentence about the move just played, as the player may know it."""
    console.print(f"  {state.describe(seat, move, names, you)}")


def _table(view: dict[str, Any], playable: set[int], names: list[str]) -> None:
    top = view["top"]
    sizes = ", ".join(
        f"{who(s, names, view['seat'])} {n}" for s, n in enumerate(view["hand_sizes"])
    )
    console.print(
        f"\nTop card: [bold yellow]{top}[/] ({factor_text(top)})   "
        f"Draw pile: {view['draw_size']}   Hands: {sizes}"
    )
    cards = []
    for card in view["hand"]:
        mark = "[green]✓[/]" if card in playable else " "
        style = "bold green" if card in playable else "white"
        cards.append(f"[{style}]{card}[/] ({factor_text(card)}){mark}")
    console.print("Your hand: " + "  ".join(cards))


def _choices(moves: list[Move]) -> dict[str, Move]:
    """Letters for the listed moves; 'r' is always the reset."""
    plays = [m for m in moves if not m.is_reset]
    choices = dict(zip(ascii_lowercase.replace("r", ""), plays, strict=False))
    if len(plays) < len(moves):
        choices["r"] = Move(None)
    return choices


def _turn(state: State, you: int, names: list[str]) -> None:
    """One turn of the player: a normal play, or a reset and then the card after it."""
    while True:
        view = state.view(you)
        moves = state.legal_moves(you)
        _table(view, {m.card for m in moves if m.card is not None}, names)
        choices = _choices(moves)
        if view["phase"] == "reset":  # what the reset drew was just told
            console.print("Play any card: " + "  ".join(f"{k}) {m}" for k, m in choices.items()))
        else:
            listed = [f"{k}) play {m}" for k, m in choices.items() if k != "r"]
            if not listed:
                console.print("No card of yours may follow: you must reset.")
            console.print("  ".join([*listed, "r) reset: draw, then play any card"]))
        move = _read_move(state, you, choices)
        _said(state, you, move, names, you)
        if not move.is_reset:
            return


def _read_move(state: State, you: int, choices: dict[str, Move]) -> Move:
    """Ask until the player types a move the engine accepts, and play it; a bad line gets
    one sentence and the prompt again."""
    while True:
        text = ask("Your move?")
        if text.lower() in ("help", "h", "?"):
            console.print(RULES)
            continue
        try:
            move = choices.get(text.lower()) or state.game.parse_move(text)
            state.play(you, move)
        except ChukoError as error:
            warn(str(error))
            continue
        return move
