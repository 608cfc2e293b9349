"""What the environments draw for `render()`: the table as an onlooker reads it, drawn by
the terminal's own view table (`console.view_table`) into text. An onlooker sees every
seat's cards (`State.full_view`), each field of the view a row, the lists kept per seat
under their agents' names, then whose turn it is or how the game ended.

`render_mode="ansi"` returns that text; `"human"` prints it and returns None (PettingZoo's
and Gymnasium's conventions); None draws nothing.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console

from chuko.console import view_table
from chuko.core.errors import ConfigError
from chuko.core.protocol import State

RENDER_MODES = ("human", "ansi")
# The width the table is drawn to: wide enough for a hand of 13 cards on one line.
WIDTH = 100


def check_render_mode(render_mode: str | None) -> None:
    """ConfigError in one sentence unless `render_mode` is one of RENDER_MODES or None."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ConfigError(f"The render mode is 'human', 'ansi' or None, not {render_mode!r}.")


def status(state: State, names: Sequence[str]) -> str:
    """The line under the table: the result, or who acts next."""
    outcome = state.outcome
    if outcome is not None:
        return outcome.describe(names, None)
    if state.is_chance:
        return "Chance acts next."
    return "To move: " + ", ".join(names[seat] for seat in state.to_move) + "."


def table_text(state: State, names: Sequence[str]) -> str:
    """The game's title, its full view as a table and `status`, as plain text."""
    game = state.game
    drawn = Console(file=io.StringIO(), width=WIDTH, color_system=None, highlight=False,
                    force_terminal=False)
    drawn.rule(game.title)
    drawn.print(view_table(state.full_view(None), game.descriptor.traits.seat_lists, names, None))
    drawn.print(status(state, names))
    text: str = drawn.file.getvalue()  # type: ignore[attr-defined]
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


def render(state: State, names: Sequence[str], render_mode: str | None) -> str | None:
    """`render()` for an environment in `render_mode` (the module docstring)."""
    if render_mode is None:
        return None
    text = table_text(state, names)
    if render_mode == "ansi":
        return text
    print(text, end="")
    return None
