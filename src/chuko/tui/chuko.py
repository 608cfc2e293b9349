"""`chuko play chuko`: Chükö in the terminal against bots.

Everything shown comes from the human seat's view (ruling K6); every move goes through
the engine, which alone decides what is legal. Cards are typed by their number; the
listed choices also have letters, since a list number could be mistaken for a card.
"""

from __future__ import annotations

import argparse
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from random import Random
from string import ascii_lowercase
from typing import Any

from chuko.bots import Bot, make_bot, parse_levels
from chuko.console import (
    LINEUP_HELP,
    QUIT_WORDS,
    add_option_flags,
    console,
    game_from_flags,
    say,
)
from chuko.core.errors import ConfigError
from chuko.core.numbers import factor_text
from chuko.core.rng import make_rng
from chuko.core.text import Text
from chuko.games.chuko import DESCRIPTOR, Game, State

from .session import Session

HELP = {"chuko": "play Chükö against bots (share a factor, go lower, or reset)"}

RULES = Text("""{game}: be the first to empty your hand. On your turn, either
  • play a card that shares a prime factor with the top card or is lower, or
  • {reset}: draw a card, then play any card (the drawn one included).
An empty draw pile is refilled by shuffling the play pile beneath its top card;
with nothing at all to draw, a reset plays any card without drawing.
Type a card (15), a choice's letter (a) or r to reset.
Type help for the commands, rules for the full rules.""", game="[bold]Chükö[/]",
             reset="[bold]reset[/]")

MOVES_HELP = (
    ("15", Text("play the card 15 (a card is typed by its number)")),
    ("a", Text("the choice with that letter")),
    ("r", Text("reset: draw a card, then play any card")),
)


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    add_option_flags(parser, DESCRIPTOR)
    parser.add_argument("--vs", default="easy", help="bot levels of the others, e.g. "
                        f"easy,hard; {LINEUP_HELP} (default easy)")
    parser.add_argument("--seed", type=int, help="seed for a reproducible deal and bots")
    parser.add_argument("--first", type=int,
                        help="who starts: 0 you, 1 the player after you, and so on "
                        "(random if unset)")
    parser.add_argument(
        "--hard-time", type=float, default=0.2, help="hard bots' seconds per move (default 0.2)"
    )


class ChukoSession(Session[State]):
    """Chükö's screen: the top card, the hand with its playable cards marked, and the
    choices under letters; a reset is a move of its own, so the card after it is a turn
    of its own too."""

    help_text = MOVES_HELP

    def labels(self, moves: Sequence[Any], reserved: Collection[str]) -> list[str]:
        """Letters for the plays (a card's own number could be mistaken for a list
        number); 'r' is always the reset."""
        letters = (c for c in ascii_lowercase
                   if c != "r" and c not in reserved and c not in QUIT_WORDS)
        return [next(letters) if move.card is not None else "r" for move in moves]

    def show(self, seat: int, listed: Mapping[str, Any]) -> None:
        view = self.state.view(seat)
        playable = {m.card for m in listed.values() if m.card is not None}
        you = say(Text("You"))
        sizes = ", ".join(f"{you if s == seat else self.names[s]} {n}"
                          for s, n in enumerate(view["hand_sizes"]))
        top = view["top"]
        top_card = f"[bold yellow]{top}[/] ({factor_text(top)})"
        console.print("\n" + say(Text("Top card: {top}   Draw pile: {pile}   Hands: {sizes}",
                                      top=top_card, pile=view["draw_size"], sizes=sizes)))
        cards = []
        for card in view["hand"]:
            mark = "[green]✓[/]" if card in playable else " "
            style = "bold green" if card in playable else "white"
            cards.append(f"[{style}]{card}[/] ({factor_text(card)}){mark}")
        console.print(say(Text("Your hand: {cards}", cards="  ".join(cards))))
        if view["phase"] == "reset":  # what the reset drew was just told
            console.print(say(Text("Play any card: {choices}",
                                   choices="  ".join(f"{k}) {m}" for k, m in listed.items()))))
            return
        plays = [f"{k}) " + say(Text("play {card}", card=m))
                 for k, m in listed.items() if k != "r"]
        if not plays:
            console.print(say(Text("No card fits on {top}: reset.", top=top)))
        console.print("  ".join([*plays, "r) " + say(Text("reset: draw, then play any card"))]))


def screen(state: State, bots: Mapping[int, Bot]) -> ChukoSession:
    """This screen on a given position, such as a lesson's; `bots` hold the other seats."""
    return ChukoSession(state, bots)


def run(args: argparse.Namespace, you: int = 0) -> int:
    configured = game_from_flags(args)
    assert isinstance(configured, Game)  # the flags are Chükö's (add_arguments)
    game = replace(configured, first=args.first)
    levels = parse_levels(args.vs, Game.id, game.players - 1)
    if args.hard_time <= 0:
        raise ConfigError(Text("--hard-time must be a positive number of seconds."))
    rng = make_rng(args.seed)
    state = game.new(rng=rng)
    bots: dict[int, Bot] = {}
    for seat, level in zip((s for s in range(game.players) if s != you), levels, strict=True):
        options = {"time_limit": args.hard_time} if level == "hard" else {}
        bots[seat] = make_bot(Game.id, level, Random(rng.getrandbits(64)), **options)
    session = ChukoSession(state, bots)
    console.print(say(RULES))
    console.print("\n" + say(Text("{players} players, pack {pack}, {cards} cards each.",
                                  players=game.players, pack=", ".join(map(str, game.pack)),
                                  cards=game.hand_size)))
    console.print(say(Text("You start.") if state.first == you
                      else Text("{name} starts.", name=session.names[state.first])))
    return session.run()
