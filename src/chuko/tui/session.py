"""What every terminal game screen shares: whose turn it is, a person's turn or a bot's,
the engine's sentence after every move, the commands every game has (`hint`, `undo`,
`rules`, `help`, `quit`) and the ending.

A screen subclasses `Session` and keeps only what is its own: how it draws the position
and lists the moves (`show`), how a typed line reads besides the listed labels
(`read_move`), how it shows a hint (`show_advice`), its extra commands, and anything more
it says at the end. A screen whose turn is not a pick from a list (Chuchula's grouping)
replaces `human_turn` whole and still takes the shared commands (`command`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cached_property
from string import ascii_lowercase
from typing import Any, Generic, TypeVar, cast

from rich.markdown import Markdown
from rich.markup import escape

from chuko.bots import Adviser, Bot, make_adviser
from chuko.console import (
    QUIT_WORDS,
    Quit,
    ask,
    console,
    drop_type_ahead,
    read_rules,
    say,
    show_long,
    warn,
)
from chuko.core.errors import ChukoError
from chuko.core.protocol import Json, State
from chuko.core.text import Text
from chuko.core.words import bot_name, seat_names

PERSON = Text("Player")  # a second person at the keyboard; the one playing is "You"
HUMAN = "human"  # the word --vs takes for a person instead of a bot

Command = Callable[[int], None]  # does its thing for the seat whose turn it is

# The commands every game takes, listed by `help` after the screen's lines on moves.
COMMANDS = {
    "hint": Text("what the game's adviser makes of your moves"),
    "undo": Text("take back your last move and any bots' replies (not between people)"),
    "rules": Text("the game's rules"),
    "help": Text("this list"),
    "quit": Text("leave the game"),
}
HINT = "hint"
HELP_WORDS = ("help", "?", "h")

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

    # How the screen's moves are typed, above the commands in `help`: (what is typed, what
    # it does) rows; a row with nothing typed is a line of its own.
    help_text: Sequence[tuple[str, Text]] = ()
    # The screen's own commands, and shared ones it words its own way.
    command_help: Mapping[str, str] = {}
    # What the prompt says it takes, in brackets after "Your move"; nothing: "Your move?"
    accepts: str = ""
    # Whether `hint` is offered: a puzzle-like screen leaves it out.
    hints = True
    # A lesson's judge of the person's moves, called instead of playing them: it raises
    # IllegalMove with a sentence for a move the lesson does not take.
    referee: Callable[[int, Any], None] | None = None

    def __init__(self, state: S, bots: Mapping[int, Bot]) -> None:
        self.state = state
        self.bots = dict(bots)
        players = range(state.game.players)
        self.humans = [seat for seat in players if seat not in self.bots]
        self.names = seat_names([bot_name(self.bots[seat].level) if seat in self.bots
                                 else say(PERSON) for seat in players])
        # One person reads the game as "You"; people sharing a keyboard read it as
        # onlookers, and undo is fair only for the one person against bots.
        self.reader: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.history: list[S] = []
        self.listed: dict[str, Any] = {}  # the moves on screen, by label

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
            console.print(say(Text("Goodbye.")))
            return 0
        self.show_result()
        self.after_end()
        return 0

    def bot_turn(self, seat: int) -> None:
        # A game whose moves are too many to list leaves its bots to find their own.
        moves = self.state.legal_moves(seat) if self.state.game.lists_moves else []
        self.played(seat, self.bots[seat].choose(self.state.view(seat), moves))

    def played(self, seat: int, move: Any) -> None:
        self.state.play(seat, move)  # raises before anything changes
        console.print(f"  {say(self.state.describe(seat, move, self.names, self.reader))}")

    def human_turn(self, seat: int) -> None:
        """The position and the listed moves, then lines until one is a move the engine
        takes; a bad line gets one sentence and the prompt again."""
        commands = self.commands()
        moves = self.state.legal_moves(seat)
        keys = self.labels(moves, commands)
        self.listed = dict(zip(keys, moves, strict=True)) if keys else {}  # none: typed
        self.show(seat, self.listed)
        shown = self.state
        while True:
            text = ask(self.prompt(seat))
            if not text or self.command(text, seat):
                if self.state is not shown:
                    return  # undo went back: that turn starts afresh
                continue
            try:
                word = text.casefold()
                self.push(seat, self.listed[word] if word in self.listed
                          else self.read_move(text, self.listed))
            except ChukoError as error:
                warn(error)
                continue
            return

    def command(self, text: str, seat: int) -> bool:
        """Run `text` if it names a command; whether it did."""
        found = self.commands().get(text.casefold())
        if found is not None:
            found(seat)
        return found is not None

    def commands(self) -> dict[str, Command]:
        """The words the prompt takes besides moves; screens add their own."""
        found: dict[str, Command] = {**dict.fromkeys(HELP_WORDS, self.show_help),
                                     **dict.fromkeys(("undo", "u"), self.undo),
                                     "rules": self.show_rules}
        if self.hints:
            found[HINT] = self.hint
        return found

    def labels(self, moves: Sequence[Any], reserved: Collection[str]) -> list[str]:
        return labels(moves, reserved)

    def show(self, seat: int, listed: Mapping[str, Any]) -> None:
        """The position as `seat` sees it and the moves under their labels."""
        raise NotImplementedError

    def read_move(self, text: str, listed: Mapping[str, Any]) -> Any:
        """A typed line that is neither a label nor a command, as a move."""
        return self.state.game.parse_move(text)

    def prompt(self, seat: int) -> Text:
        name, accepts = self.names[seat], self.accepts
        if seat == self.reader:
            return Text("Your move ({accepts}):", accepts=accepts) if accepts else Text(
                "Your move?")
        return (Text("{name}, your move ({accepts}):", name=name, accepts=accepts) if accepts
                else Text("{name}, your move?", name=name))

    def push(self, seat: int, move: Any) -> None:
        if self.referee is not None:
            self.referee(seat, move)
            return
        before = cast(S, self.state.copy())  # a copy is of the state's own class
        self.played(seat, move)
        self.history.append(before)

    def show_help(self, seat: int) -> None:
        rows = [*self.help_text, *((word, text) for word, text
                                   in {**COMMANDS, **self.command_help}.items()
                                   if word != HINT or self.hints)]
        width = max(len(word) for word, _ in rows)
        for word, text in rows:
            console.print(f"[cyan]{escape(word):<{width}}[/]  {say(text)}" if word
                          else say(text))

    def show_rules(self, seat: int) -> None:
        """The rules, paged on a terminal, then the position they scrolled away."""
        try:
            show_long(Markdown(read_rules(self.state.game.id)))
        except ChukoError as error:
            warn(error)
            return
        self.redraw(seat)

    def redraw(self, seat: int) -> None:
        """The position and the moves again, after a long text."""
        self.show(seat, self.listed)

    @cached_property
    def adviser(self) -> Adviser | None:
        return make_adviser(self.state.game)

    def advice(self, seat: int) -> Json | None:
        """The game's adviser on this position for `seat` (`{"values", "note"}`); None,
        said in a sentence, when the game gives no hints. Keys typed while it thinks are
        dropped: a move typed before the advice shows is not the move it would advise."""
        if self.adviser is None:
            warn(Text("{game} gives no hints.", game=self.state.game.title))
            return None
        advice = self.adviser.hint(self.state, seat)
        drop_type_ahead()
        return advice

    def hint(self, seat: int) -> None:
        advice = self.advice(seat)
        if advice is not None:
            self.show_advice(advice)

    def show_advice(self, advice: Json) -> None:
        """Each move the adviser values, under its label where it is listed, and its note."""
        label_of = {str(move): label for label, move in self.listed.items()}
        for move, value in advice.get("values", {}).items():
            label = f"[cyan]{label_of[move]})[/] " if move in label_of else ""
            console.print(f"  {label}[bold]{move}[/]  {say(value)}")
        if advice.get("note"):
            console.print(say(advice["note"]))

    def undo(self, seat: int) -> None:
        if self.reader is None:
            warn(Text("Undo is for games against bots only."))
        elif not self.history:
            warn(Text("There is nothing to undo yet."))
        else:
            self.state = self.history.pop()
            console.print(say(Text("Your last move is taken back.")), style="yellow")

    def show_result(self) -> None:
        """The end of the game: what the screen shows of it (`show_end`), then the result."""
        outcome = self.state.outcome
        assert outcome is not None  # called only once the game is over
        self.show_end()
        console.print(f"[bold]{say(outcome.describe(self.names, self.reader))}[/]")

    def show_end(self) -> None:
        """What is shown above the result."""
        console.rule(say(Text("Game over")))

    def after_end(self) -> None:
        """What more a screen says after the result."""
