"""`chuko play chuchula`: you (seat 0) against bots, in the terminal.

Each round you split your 13 cards into four groups, strongest first, typing a group's
cards (or their numbers in the hand) or taking the advisor's suggestion; a group stronger
than the one before it is refused in the engine's words. Then all groups are shown
position by position. Cards are shown one way throughout, with suit symbols (`A♠`).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from chuko.bots import Bot, make_bot, parse_levels
from chuko.console import (
    LINEUP_HELP,
    add_option_flags,
    ask,
    console,
    game_from_flags,
    listing,
    say,
    warn,
)
from chuko.core.deck52 import Card, parse_cards
from chuko.core.errors import ChukoError, IllegalMove, ParseError
from chuko.core.numbers import whole_number
from chuko.core.protocol import Json
from chuko.core.rng import make_rng
from chuko.core.text import Plural, Text
from chuko.games.chuchula import (
    DESCRIPTOR,
    GROUPS,
    Game,
    Grouping,
    State,
    group_type,
    grouping_problem,
    order_problem,
)

from .session import HELP_WORDS, Command, Session

HELP = {"chuchula": "play Chuchula against bots"}

MOVES_HELP = (
    ("", Text("Four groups of three, strongest first; the 13th card is left out.")),
    ("A♠ K♠ Q♠", Text("a group: its cards")),
    ("1 2 3", Text("a group: the cards' numbers in your hand")),
    ("K♦ Q♦ J♦ | A♠ 2♦ 3♥ | 9♣ 8♣ 7♥ | 4♥ 4♠ J♥ ; 5♠", Text("a whole grouping at once")),
    ("", Text("A card is typed with its suit as a letter or a symbol: As or A♠, 10h or T♥.")),
    ("", Text("Groups, strongest kind first: trial (three of a rank), double sequence (three "
              "in a row, one suit), sequence, colour (one suit), pair, individual. A-K-Q and "
              "A-2-3 are in a row.")),
)

YES, NO = frozenset({"y", "yes"}), frozenset({"n", "no"})

def card_markup(card: Card) -> str:
    """A card for the screen: 'A♠' in bold, hearts and diamonds in red."""
    return f"[bold red]{card.symbol_text}[/]" if card.red else f"[bold]{card.symbol_text}[/]"


def cards_markup(cards: Sequence[Card]) -> str:
    return " ".join(card_markup(c) for c in cards)


def group_markup(cards: Sequence[Card]) -> str:
    return f"{cards_markup(cards)}  [italic]{say(group_type(cards).label)}[/]"


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    add_option_flags(parser, DESCRIPTOR)
    parser.add_argument("--vs", default="easy", help="bot levels of the others, e.g. "
                        f"hard,easy,easy; {LINEUP_HELP} (default easy)")
    parser.add_argument("--seed", type=int, help="seed for a reproducible game")


class ChuchulaSession(Session[State]):
    """A Chuchula game at the terminal: the person groups a hand each round, the bots
    commit theirs, then every group is revealed position by position."""

    help_text = MOVES_HELP
    command_help = {
        "hint": Text("the advisor's grouping and the points it expects"),
        "undo": Text("take back your last group; with none, your last grouping"),
        "take": Text("take the advisor's grouping"),
        "clear": Text("start the grouping again"),
        "hand": Text("the cards not yet in a group"),
        "scores": Text("the scores"),
    }

    def __init__(self, state: State, bots: Mapping[int, Bot]) -> None:
        super().__init__(state, bots)
        self.game = state.game
        # The grouping being built: the hand of the round and the groups placed so far.
        self.hand: tuple[Card, ...] = ()
        self.groups: list[tuple[Card, ...]] = []

    def commands(self) -> dict[str, Command]:
        return {**super().commands(), "take": self.take, "clear": self.clear,
                "hand": self.show_hand, "scores": self.show_scores}

    def name(self, seat: int) -> str:
        return say(Text("You")) if seat == self.reader else self.names[seat]

    def scores_line(self) -> str:
        scores = self.state.scores
        return "   ".join(f"{self.name(s)}: [bold]{scores[s]}[/]" for s in range(len(scores)))

    def show_scores(self, seat: int) -> None:
        console.print(self.scores_line())

    def left(self) -> list[Card]:
        used = {c for g in self.groups for c in g}
        return [c for c in self.hand if c not in used]

    def redraw(self, seat: int) -> None:
        """The groups placed so far and the cards left, after a long text."""
        self.show_groups()
        self.show_hand(seat)

    def show_hand(self, seat: int) -> None:
        """The cards not yet in a group, each with its number in the whole hand."""
        left = set(self.left())
        shown = [f"[dim]{n}:[/]{card_markup(c)}" for n, c in enumerate(self.hand, 1)
                 if c in left]
        cards = "  ".join(shown)
        console.print(say(Text("Your hand: {cards}", cards=cards) if len(left) == len(self.hand)
                          else Text("Left in your hand: {cards}", cards=cards)))

    def human_turn(self, seat: int) -> None:
        """Groups until the player commits a grouping the engine takes; commands between."""
        view = self.state.view(seat)
        console.rule(say(self.game.round_heading(view["round"])))
        dealer = say(Text("Dealer: {name}.", name=self.name(view["dealer"])))
        console.print(f"{dealer}   {self.scores_line()}")
        self.hand = parse_cards(" ".join(view["hand"]))
        self.groups = []
        shown = self.state
        self.show_hand(seat)
        console.print(say(Text("Type a group of three cards, or help.")), style="dim")
        while True:
            if len(self.groups) == GROUPS:
                if self.confirm(seat):
                    return
                continue
            text = ask(Text("Group {number} of {groups}:", number=len(self.groups) + 1,
                            groups=GROUPS))
            if not text or self.command(text, seat):
                if self.state is not shown:
                    return  # undo took back the last grouping: its round starts afresh
                continue
            placed = len(self.groups)
            if "|" in text or ";" in text:
                self.try_whole(text)
            else:
                self.try_group(text)
            if placed < len(self.groups) < GROUPS:
                self.show_hand(seat)

    def confirm(self, seat: int) -> bool:
        """Ask until a yes (commit: True) or a no (the last group back in the hand)."""
        leftover = self.left()[0]
        self.show_groups()
        console.print("  " + say(Text("Left out: {card}", card=card_markup(leftover))))
        while True:
            answer = ask(Text("Commit this grouping? (y/n)")).casefold()
            if answer in YES:
                try:
                    self.push(seat, Grouping(tuple(self.groups), leftover))
                except IllegalMove as error:  # the engine has the last word (H4)
                    warn(error)
                    self.clear(seat)
                    return False
                return True
            if answer in NO:
                self.undo_group()
                return False
            if answer == "rules":
                self.show_rules(seat)
                continue
            commit_or_not = Text("Type y to commit this grouping, or n to take back its last "
                                 "group.")
            if answer in HELP_WORDS:
                console.print(say(commit_or_not))
            else:
                warn(commit_or_not)

    def played(self, seat: int, move: Any) -> None:
        revealed = len(self.state.view(self.reader)["rounds"])
        super().played(seat, move)
        rounds = self.state.view(self.reader)["rounds"]
        if len(rounds) > revealed:  # that was the last grouping of the round
            self.show_reveal(rounds[-1])

    def undo(self, seat: int) -> None:
        if self.groups:
            self.undo_group()
        else:
            super().undo(seat)

    def undo_group(self) -> None:
        group = self.groups.pop()
        console.print("  " + say(Text("Group {number} ({cards}) is back in your hand.",
                                      number=len(self.groups) + 1, cards=cards_markup(group))))

    def clear(self, seat: int) -> None:
        self.groups.clear()
        self.show_hand(seat)

    def show_advice(self, advice: Json) -> None:
        """The advisor's grouping, group by group, and what it expects."""
        for text, value in advice.get("values", {}).items():
            grouping = self.game.parse_move(text)
            for number, group in enumerate(grouping.groups, 1):
                console.print(f"  {number}. {group_markup(group)}")
            console.print("  " + say(Text("Left out: {card}; {value}",
                                          card=card_markup(grouping.leftover),
                                          value=say(value))))
        if advice.get("note"):
            console.print(say(advice["note"]))

    def take(self, seat: int) -> None:
        advice = self.advice(seat)
        if advice is not None:  # the confirmation shows the groups taken
            self.groups[:] = self.game.parse_move(next(iter(advice["values"]))).groups
            console.print(say(advice.get("note") or Text("The advisor's grouping:")))

    def try_whole(self, text: str) -> None:
        try:
            grouping = Grouping.parse(text)
        except ChukoError as error:
            warn(error)
            return
        problem = grouping_problem(self.hand, grouping)
        # A lesson words a wrong order its own way, so its judge sees the grouping.
        if problem and (self.referee is None or order_problem(grouping.groups) is None):
            warn(problem)
            return
        self.groups[:] = grouping.groups

    def try_group(self, text: str) -> None:
        words = text.replace(",", " ").split()
        try:
            numbers = [n for n in map(whole_number, words) if n is not None]
            if words and len(numbers) == len(words):
                if any(not 1 <= n <= len(self.hand) for n in numbers):
                    raise ParseError(Text("Card numbers go from 1 to {last}.",
                                          last=len(self.hand)))
                cards = tuple(self.hand[n - 1] for n in numbers)
            else:
                cards = parse_cards(text)
            if len(cards) != 3 or len(set(cards)) != 3:
                raise ParseError(Text("A group is three different cards."))
            left = self.left()
            for card in cards:
                if card not in self.hand:
                    raise ParseError(Text("You do not hold {card}.", card=card.symbol_text))
                if card not in left:
                    raise ParseError(Text("{card} is already in a group.",
                                          card=card.symbol_text))
            problem = order_problem([*self.groups, cards])
            if problem:
                raise ParseError(problem)
        except ChukoError as error:
            warn(error)
            return
        self.groups.append(cards)
        self.show_group(len(self.groups), cards)

    def show_group(self, number: int, cards: Sequence[Card]) -> None:
        console.print("  " + say(Text("Group {number}: {group}", number=number,
                                      group=group_markup(cards))))

    def show_groups(self) -> None:
        for number, group in enumerate(self.groups, 1):
            self.show_group(number, group)

    def show_reveal(self, result: dict) -> None:
        console.print(say(Text("All groups are in. The reveal:")), style="bold")
        for position, outcome in enumerate(result["positions"]):
            console.print(say(Text("Position {number}", number=position + 1)), style="bold")
            for seat in result["show_order"]:
                cards = parse_cards(result["groups"][seat][position])
                console.print(f"  {self.name(seat):<16} {group_markup(cards)}")
            if outcome["winner"] is not None:
                winner = outcome["winner"]
                scored = (Text("→ You score.") if winner == self.reader
                          else Text("→ {name} scores.", name=self.name(winner)))
                console.print("  " + say(scored), style="green")
            else:
                tied = listing([self.name(s) for s in outcome["tied"]])
                console.print("  " + say(Text("→ Point cancelled: {players} tie.",
                                              players=tied)), style="yellow")
        console.print(say(Text("Scores: {scores}", scores=self.scores_line())))

    def show_end(self) -> None:
        console.rule(say(Text("Final ranking")))
        for place, seat in enumerate(self.state.ranking, 1):
            points = Plural("{n} point", "{n} points", n=self.state.scores[seat])
            console.print(f"  {place}. {self.name(seat):<16} {say(points)}")


def screen(state: State, bots: Mapping[int, Bot]) -> ChuchulaSession:
    """This screen on a given position, such as a lesson's; `bots` hold the other seats."""
    return ChuchulaSession(state, bots)


def run(args: argparse.Namespace) -> int:
    game = game_from_flags(args)
    assert isinstance(game, Game)  # the flags are Chuchula's (add_arguments)
    levels = parse_levels(args.vs, Game.id, game.players - 1)
    seed = args.seed
    bots = {seat: make_bot(Game.id, level, make_rng(None if seed is None else seed + seat))
            for seat, level in enumerate(levels, 1)}
    console.print(say(Text("{game}, {players} players, {mode}. Type 'help' at any prompt.",
                           game="[bold]Chuchula[/]", players=game.players,
                           mode=game.mode_text)))
    return ChuchulaSession(game.new(seed), bots).run()
