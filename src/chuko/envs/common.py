"""What every environment shares: the game from its id and options, its encoding (named by
the game's descriptor, never by the game's name here), the returns a finished game pays,
and one seat's move built step by step.

Returns. A seat's return is its score minus the mean of the other seats' scores: zero-sum,
ordered like the scores, and in a two-player game own points minus the opponent's, the
value the project's solvers compute (Crossroads ruling C4). A game of one seat (Caravan)
pays its score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from chuko.core import references
from chuko.core.encoding import Encoding
from chuko.core.errors import ConfigError, IllegalMove
from chuko.core.protocol import Game, State
from chuko.games import game_class


def make_game(game_id: str, options: Mapping[str, Any]) -> Game:
    """The configuration `options` make for `game_id`, as a game of machines: a game that
    could go on forever is bounded (Chükö's turn limit), which the environments report as
    truncation."""
    return game_class(game_id).from_options(options, bots_only=True)


def load_encoding(game: Game) -> Encoding:
    """The game's encoding for this configuration, from the factory its descriptor names;
    ConfigError when the game offers none."""
    named = game.descriptor.integrations.encoding
    if named is None:
        raise ConfigError(f"{game.title} offers no research environment.")
    encoding: Encoding = references.load(named)(game)
    return encoding


class Dealer:
    """Random deals of one configuration from one generator, seeded only when asked (a
    seed makes a `Random`, which costs more than a deal): the deck shuffled, then the
    deal's uniform choices, through `Game.from_order` (docs/envs.md, 'Chance'). The state
    shares the generator, for the chance it draws itself."""

    __slots__ = ("game", "deck", "choices", "rng", "swaps")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.deck = list(game.deck())
        self.choices = tuple(game.deal_choices())
        self.rng = Random()
        # Fisher-Yates' places, from the last, and how many cards it chooses among there.
        self.swaps = [(i, i + 1) for i in range(len(self.deck) - 1, 0, -1)]

    def seed(self, seed: int) -> None:
        self.rng = Random(int(seed))

    def deal(self) -> State:
        order, random = self.deck[:], self.rng.random
        # Fisher-Yates with random() rather than Random.shuffle's exact randbelow: half the
        # cost, for a bias of at most n / 2**53 in a draw among n (below 2**-43 for 1,000).
        for i, among in self.swaps:
            j = int(random() * among)
            order[i], order[j] = order[j], order[i]
        choices = [int(random() * size) for size in self.choices]
        return self.game.from_order(order, choices, rng=self.rng)


def returns(scores: Sequence[float]) -> list[float]:
    """Each seat's score minus the mean of the others' (the module docstring)."""
    players = len(scores)
    if players == 1:
        return [float(scores[0])]
    total = float(sum(scores))
    return [s - (total - s) / (players - 1) for s in scores]


def return_bounds(encoding: Encoding, players: int) -> tuple[float, float]:
    """The least and greatest return a seat can get."""
    low, high = float(encoding.min_utility), float(encoding.max_utility)
    if players == 1:
        return low, high
    return low - high, high - low


def agent_names(players: int) -> list[str]:
    """PettingZoo's names for the seats: player_0, player_1..."""
    return [f"player_{seat}" for seat in range(players)]


def action_number(action: Any) -> int:
    """An action as an int; IllegalMove in a sentence when it is no number."""
    try:
        return int(action)
    except (TypeError, ValueError):
        raise IllegalMove(f"{action!r} is not an action number.") from None


class Builder:
    """The moves being built, one per seat: a complete move is played at once; a stepwise
    move (Chuchula's grouping) grows one action at a time, each checked against the mask
    the encoding gives for the steps already taken.

    The fast path. An encoding may offer `tracker(state)`: an object bound to one state
    whose `observe(seat)` (a new array) and `mask()` (for the seat to move: read-only,
    never changed) equal `observation(view)` and `legal_mask`, kept up to date instead of
    rebuilt, whose `play(action)` plays for
    the seat to move, refusing (IllegalMove, state unchanged) exactly what the mask
    excludes, and returns the seat to move next (None at the end or a chance node), and
    whose `track(state)` follows another state with the same arrays (Chükö's, in its
    encoding's docstring). It serves games of one action per move and one seat to move;
    `track(state)` here starts one where the encoding has it, or moves it to `state`."""

    __slots__ = ("encoding", "partial", "tracker")

    def __init__(self, encoding: Encoding, players: int) -> None:
        self.encoding = encoding
        self.partial: list[Any] = [None] * players
        self.tracker: Any = None

    def track(self, state: State) -> None:
        if self.tracker is not None:
            self.tracker.track(state)  # the next game: the same arrays
            return
        make = getattr(self.encoding, "tracker", None)
        self.tracker = None if make is None else make(state)

    def clear(self) -> None:
        for seat in range(len(self.partial)):
            self.partial[seat] = None

    def mask(self, state: State, seat: int) -> Any:
        """The legal actions of `seat` (which must be to move): the encoding's own array,
        or the tracker's, read-only."""
        if self.tracker is not None:
            return self.tracker.mask()
        return self.encoding.legal_mask(state, seat, self.partial[seat])

    def step(self, state: State, seat: int, action: Any, mask: Any = None) -> bool:
        """Fold `action` into `seat`'s move and play the move once complete (True then).
        The action must be in the encoding's mask (`mask`, when the caller has it for this
        position already), whatever the engine would accept: the mask is the action space's
        rule. IllegalMove (state and partial move unchanged) otherwise."""
        number = action_number(action)
        if not 0 <= number < self.encoding.num_actions:
            raise IllegalMove(f"Action {number} is not one of 0 to "
                              f"{self.encoding.num_actions - 1}.")
        partial = self.partial[seat]
        if mask is None:
            mask = self.mask(state, seat)
        if not mask[number]:
            raise IllegalMove(f"Action {number} is not legal here.")
        if self.tracker is not None:
            self.tracker.play(number)
            return True
        folded, move = self.encoding.step_move(partial, number)
        if move is None:
            self.partial[seat] = folded
            return False
        state.play(seat, move)
        self.partial[seat] = None
        return True
