"""`chuko play chuchula`: you (seat 0) against bots, in the terminal.

Each round you split your 13 cards into four groups, strongest first, typing a group's
cards (or their numbers in the hand) or taking the advisor's suggestion; the engine
refuses a group that is stronger than the one before it. Then all groups are shown
position by position.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from chuko.bots import Bot, make_bot, parse_levels
from chuko.console import ask, console, warn
from chuko.core.deck52 import Card, parse_cards
from chuko.core.errors import ChukoError, IllegalMove, ParseError
from chuko.core.numbers import whole_number
from chuko.core.rng import make_rng
from chuko.core.words import who
from chuko.games.chuchula import (
    Game,
    Grouping,
    State,
    group_type,
    grouping_problem,
    order_problem,
    parse_mode,
)
from chuko.solvers.chuchula_advisor import advise

from .session import Session

HELP = {"chuchula": "play Chuchula against bots"}

COMMANDS_HELP = """[bold]Four groups of three, strongest first; the 13th card is out of play.[/]
  [cyan]As Ks Qs[/] or [cyan]1 2 3[/]  a group: its cards, or their numbers in your hand
  [cyan]Kd Qd Jd | As 2d 3h | 9c 8c 7h | 4h 4s Jh ; 5s[/]  a whole grouping at once
  [cyan]hint[/]   the advisor's grouping and its expected points
  [cyan]take[/]   take the advisor's grouping
  [cyan]undo[/]   take back the last group      [cyan]clear[/]  start the grouping again
  [cyan]hand[/]   show your hand                [cyan]scores[/] show the scores
  [cyan]quit[/]   leave the game
Groups, strongest kind first: trial (three of a rank), double sequence (three in a row,
one suit), sequence, color (one suit), pair, individual. A-K-Q and A-2-3 are in a row."""


def card_markup(card: Card) -> str:
    """A card for the screen: 'A♠' in bold, hearts and diamonds in red."""
    return f"[bold red]{card.symbol_text}[/]" if card.red else f"[bold]{card.symbol_text}[/]"


def cards_markup(cards: Sequence[Card]) -> str:
    return " ".join(card_markup(c) for c in cards)


def group_markup(cards: Sequence[Card]) -> str:
    return f"{cards_markup(cards)}  [italic]{group_type(cards).label}[/]"


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.add_argument("--players", type=int, default=4, help="players, you included (2-4)")
    parser.add_argument("--vs", default="easy", help="bot levels, e.g. hard,easy,easy (or one)")
    parser.add_argument("--mode", default="rounds:5", help="rounds:N or points:N")
    parser.add_argument("--seed", type=int, help="seed for a reproducible game")


class ChuchulaSession(Session[State]):
    """A Chuchula game at the terminal: the person groups a hand each round, the bots
    commit theirs, then every group is revealed position by position."""

    help_text = COMMANDS_HELP

    def __init__(self, state: State, bots: Mapping[int, Bot]) -> None:
        super().__init__(state, bots)
        self.game = state.game

    def name(self, seat: int) -> str:
        return who(seat, self.names, self.reader)

    def scores_line(self) -> str:
        scores = self.state.scores
        return "   ".join(f"{self.name(s)}: [bold]{scores[s]}[/]" for s in range(len(scores)))

    def show_hand(self, hand: Sequence[Card], used: set[Card]) -> None:
        shown = [
            f"[dim]{n}:[/]{card_markup(c)}" if c not in used else f"[dim]{n}:{c.symbol_text}[/]"
            for n, c in enumerate(hand, 1)
        ]
        console.print("Your hand: " + "  ".join(shown))

    def human_turn(self, seat: int) -> None:
        view = self.state.view(seat)
        console.rule(f"Round {view['round']}  ·  {self.game.mode_text}")
        console.print(f"Dealer: {self.name(view['dealer'])}.   " + self.scores_line())
        self.commit_grouping(seat, parse_cards(" ".join(view["hand"])))

    def played(self, seat: int, move: Any) -> None:
        revealed = len(self.state.view(self.reader)["rounds"])
        super().played(seat, move)
        rounds = self.state.view(self.reader)["rounds"]
        if len(rounds) > revealed:  # that was the last grouping of the round
            self.show_reveal(rounds[-1])

    def commit_grouping(self, seat: int, hand: tuple[Card, ...]) -> None:
        """Ask for groups until the player commits a grouping the engine accepts."""
        groups: list[tuple[Card, ...]] = []
        self.show_hand(hand, set())
        console.print("[dim]Type a group of three cards, or 'help'.[/]")
        while True:
            used = {c for g in groups for c in g}
            if len(groups) == 4:
                leftover = next(c for c in hand if c not in used)
                grouping = Grouping(tuple(groups), leftover)
                console.print(f"Left out: {card_markup(leftover)}")
                if ask("Commit this grouping? [y/n]").lower() in {"y", "yes"}:
                    try:
                        self.played(seat, grouping)  # the engine has the last word (H4)
                    except IllegalMove as error:
                        warn(str(error))
                        groups.clear()
                        continue
                    return
                groups.pop()
                continue
            text = ask(f"Group {len(groups) + 1}>")
            command = text.lower()
            if command in {"help", "?", "h"}:
                self.show_help(seat)
            elif command == "hand":
                self.show_hand(hand, used)
            elif command == "scores":
                console.print(self.scores_line())
            elif command in {"undo", "u"}:
                if groups:
                    groups.pop()
                self.show_groups(groups)
            elif command == "clear":
                groups.clear()
                self.show_hand(hand, set())
            elif command in {"hint", "take"}:
                advice = advise(hand, self.game.players)
                for number, (g, points) in enumerate(
                    zip(advice.grouping.groups, advice.expected, strict=True), 1
                ):
                    console.print(f"  {number}. {group_markup(g)}   [dim]{points:.2f} expected[/]")
                console.print(
                    f"  left out {card_markup(advice.grouping.leftover)}; "
                    f"[bold]{advice.total:.2f}[/] points expected of 4"
                )
                if command == "take":
                    groups[:] = advice.grouping.groups
            elif "|" in text or ";" in text:
                self.try_whole(text, hand, groups)
            elif text:
                self.try_group(text, hand, groups, used)

    def try_whole(self, text: str, hand: tuple[Card, ...], groups: list) -> None:
        try:
            grouping = Grouping.parse(text)
        except ChukoError as error:
            warn(str(error))
            return
        problem = grouping_problem(hand, grouping)
        if problem:
            warn(problem)
            return
        groups[:] = grouping.groups
        self.show_groups(groups)

    def try_group(self, text: str, hand: tuple[Card, ...], groups: list, used: set) -> None:
        words = text.replace(",", " ").split()
        try:
            numbers = [n for n in map(whole_number, words) if n is not None]
            if words and len(numbers) == len(words):
                if any(not 1 <= n <= len(hand) for n in numbers):
                    raise ParseError(f"Card numbers go from 1 to {len(hand)}.")
                cards = tuple(hand[n - 1] for n in numbers)
            else:
                cards = parse_cards(text)
            if len(cards) != 3 or len(set(cards)) != 3:
                raise ParseError("A group is three different cards.")
            for card in cards:
                if card not in hand:
                    raise ParseError(f"You do not hold {card.symbol_text}.")
                if card in used:
                    raise ParseError(f"{card.symbol_text} is already in a group.")
            problem = order_problem([*groups, cards])
            if problem:
                raise ParseError(problem)
        except ChukoError as error:
            warn(str(error))
            return
        groups.append(cards)
        console.print(f"  Group {len(groups)}: {group_markup(cards)}")

    def show_groups(self, groups: Sequence[Sequence[Card]]) -> None:
        for number, group in enumerate(groups, 1):
            console.print(f"  Group {number}: {group_markup(group)}")
        if not groups:
            console.print("  [dim]No groups yet.[/]")

    def show_reveal(self, result: dict) -> None:
        console.print("[bold]All groups are in. The reveal:[/]")
        for position, outcome in enumerate(result["positions"]):
            console.print(f"[bold]Position {position + 1}[/]")
            for seat in result["show_order"]:
                cards = parse_cards(result["groups"][seat][position])
                console.print(f"  {self.name(seat):<16} {group_markup(cards)}")
            if outcome["winner"] is not None:
                winner = outcome["winner"]
                verb = "score" if winner == self.reader else "scores"
                console.print(f"  [green]→ {self.name(winner)} {verb}.[/]")
            else:
                tied = " and ".join(self.name(s) for s in outcome["tied"])
                console.print(f"  [yellow]→ Point cancelled: {tied} tie.[/]")
        console.print("Scores: " + self.scores_line())

    def show_end(self) -> None:
        console.rule("Final ranking")
        for place, seat in enumerate(self.state.ranking, 1):
            console.print(f"  {place}. {self.name(seat):<16} {self.state.scores[seat]} point(s)")


def run(args: argparse.Namespace) -> int:
    mode, length = parse_mode(args.mode)
    game = Game(args.players, mode, length)
    levels = parse_levels(args.vs, Game.id, args.players - 1)
    seed = args.seed
    bots = {seat: make_bot(Game.id, level, make_rng(None if seed is None else seed + seat))
            for seat, level in enumerate(levels, 1)}
    console.print(f"[bold]Chuchula[/], {game.players} players, {game.mode_text}. "
                  "Type 'help' at any prompt.")
    return ChuchulaSession(game.new(seed), bots).run()
