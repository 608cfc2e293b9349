"""What every terminal game screen shares: whose turn it is, a person's turn or a bot's,
the engine's sentence after every move, undo against bots, quit, and the ending.

A screen subclasses `Session` and keeps only what is its own: how it draws the position
and lists the moves (`show`), how a typed line reads besides the listed labels
(`read_move`), its extra commands, and anything more it says at the end. A screen whose
turn is not a pick from a list (Chuchula's grouping) replaces `human_turn` whole.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from string import ascii_lowercase
from typing import Any, Generic, TypeVar, cast

from chuko.bots import Bot
from chuko.console import QUIT_WORDS, Quit, ask, console, warn
from chuko.core.errors import ChukoError
from chuko.core.protocol import State
from chuko.core.words import bot_name, seat_names

PERSON = "Player"  # a second person at the keyboard; the one playing is "You"

Command = Callable[[int], None]  # does its thing for the seat whose turn it is

S = TypeVar("S", bound=State)


def labels(moves: Sequence[Any], reserved: Collection[str] = ()) -> list[str]:
    """A label per move: numbers, or letters where a move is written as a number, so a
    label never reads as another move, nor as a `reserved` word; none when both would."""
    texts = {str(move).casefold() for move in moves}
    letters = [letter for letter in ascii_lowercase
               if letter not in reserved and letter not in QUIT_WORDS]
    for scheme in ([str(n) for n in range(1, len(moves) + 1)], letters):
        chosen = scheme[:len(moves)]
        if len(chosen) == len(moves) and not texts & set(chosen):
            return chosen
    return []


class Session(Generic[S]):
    """One game at the terminal: the state, the bots, the seats' names, and the states
    before each of the person's moves (for undo). Every seat without a bot is a person."""

    help_text = ""
    # Put after "Your move" at the prompt.
    prompt_tail = "?"
    # Screens that keep the position before each of the person's moves offer `undo`.
    offers_undo = False

    def __init__(self, state: S, bots: Mapping[int, Bot]) -> None:
        self.state = state
        self.bots = dict(bots)
        players = range(state.game.players)
        self.humans = [seat for seat in players if seat not in self.bots]
        self.names = seat_names([bot_name(self.bots[seat].level) if seat in self.bots
                                 else PERSON for seat in players])
        # One person reads the game as "You"; people sharing a keyboard read it as
        # onlookers, and undo is fair only for the one person against bots.
        self.reader: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.history: list[S] = []

    def run(self) -> int:
        try:
            while self.state.outcome is None:
                waiting = self.state.to_move
                # In a simultaneous turn the person commits before any bot has moved.
                people = [seat for seat in waiting if seat in self.humans]
                seat = people[0] if people else waiting[0]
                if seat in self.humans:
                    self.human_turn(seat)
                else:
                    self.bot_turn(seat)
        except Quit:
            console.print("Goodbye.")
            return 0
        outcome = self.state.outcome
        assert outcome is not None  # the loop ends only with the game
        self.show_end()
        console.print(f"[bold]{outcome.describe(self.names, self.reader)}[/]")
        self.after_end()
        return 0

    def bot_turn(self, seat: int) -> None:
        # A game whose moves are too many to list leaves its bots to find their own.
        moves = self.state.legal_moves(seat) if self.state.game.lists_moves else []
        self.played(seat, self.bots[seat].choose(self.state.view(seat), moves))

    def played(self, seat: int, move: Any) -> None:
        self.state.play(seat, move)  # raises before anything changes
        console.print(f"  {self.state.describe(seat, move, self.names, self.reader)}")

    def human_turn(self, seat: int) -> None:
        """The position and the listed moves, then lines until one is a move the engine
        takes; a bad line gets one sentence and the prompt again."""
        commands = self.commands()
        moves = self.state.legal_moves(seat)
        keys = self.labels(moves, commands)
        listed = dict(zip(keys, moves, strict=True)) if keys else {}  # none: typed in full
        self.show(seat, listed)
        shown = self.state
        while True:
            text = ask(self.prompt(seat))
            word = text.casefold()
            if not text:
                continue
            if word in commands:
                commands[word](seat)
                if self.state is not shown:  # undo went back: that turn starts afresh
                    return
                continue
            try:
                self.push(seat, listed[word] if word in listed else self.read_move(text, listed))
            except ChukoError as error:
                warn(str(error))
                continue
            return

    def commands(self) -> dict[str, Command]:
        """The words the prompt takes besides moves; screens add their own."""
        found: dict[str, Command] = dict.fromkeys(("help", "?", "h"), self.show_help)
        if self.offers_undo:
            found |= dict.fromkeys(("undo", "u"), self.undo)
        return found

    def labels(self, moves: Sequence[Any], reserved: Collection[str]) -> list[str]:
        return labels(moves, reserved)

    def show(self, seat: int, listed: Mapping[str, Any]) -> None:
        """The position as `seat` sees it and the moves under their labels."""
        raise NotImplementedError

    def read_move(self, text: str, listed: Mapping[str, Any]) -> Any:
        """A typed line that is neither a label nor a command, as a move."""
        return self.state.game.parse_move(text)

    def prompt(self, seat: int) -> str:
        mover = "Your move" if seat == self.reader else f"{self.names[seat]}, your move"
        return mover + self.prompt_tail

    def push(self, seat: int, move: Any) -> None:
        before = cast(S, self.state.copy())  # a copy is of the state's own class
        self.played(seat, move)
        self.history.append(before)

    def show_help(self, seat: int) -> None:
        console.print(self.help_text)

    def undo(self, seat: int) -> None:
        if self.reader is None:
            warn("Undo is for games against bots only.")
        elif not self.history:
            warn("There is nothing to undo yet.")
        else:
            self.state = self.history.pop()
            console.print("[yellow]Your last move is taken back.[/]")

    def show_end(self) -> None:
        """What is shown above the result."""
        console.rule("Game over")

    def after_end(self) -> None:
        """What more a screen says after the result."""
