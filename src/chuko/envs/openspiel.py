"""Every game with an encoding as an OpenSpiel game: `import chuko.envs.openspiel`, then
`pyspiel.load_game("python_chuko_<game_id>", {option: value})`, the options being the
game's descriptor's (as OpenSpiel parameters: whole numbers or text).

Chance is explicit (docs/envs.md, 'Chance'):
- the deal is one chance node per card of `Game.deck()`, each outcome a card still in the
  deck (a card held twice is one outcome with twice the probability), then one node per
  uniform choice of `Game.deal_choices()` (outcome i picks i); the state is then
  `Game.from_order(order, choices, explicit_chance=True)`;
- later chance (a recycled draw pile's cards, a new round's deal, a tie draw) is the engine
  state's own chance node (`is_chance`, `chance_outcomes`, `apply_chance`). An outcome that
  is a card of the deck keeps its deal number; any other (a seat in a tie draw) is
  numbered by its place in the node's list.

A chance action is read at the node it is applied to, so numbers are reused across kinds
of node. Player actions are the encoding's; a move built in steps (Chuchula's grouping) is
one OpenSpiel decision per step, the seats acting at once taking their turns one after
another. Returns are `common.returns`: zero-sum between seats, a lone seat's score in a
one-seat game; a game stopped by a limit (Chükö's turn limit) pays 0 to every seat.
Information states are the encoding's strings; observation tensors are its arrays (float);
observation strings list the observation's non-zero entries. A state serializes as its
history (OpenSpiel's default): replaying the actions rebuilds it exactly.
"""

from __future__ import annotations

import json
from collections import Counter
from copy import deepcopy
from random import Random
from typing import Any

import numpy as np
import pyspiel

from chuko.core.descriptor import Descriptor, Option
from chuko.core.encoding import Encoding
from chuko.core.packs import PACKS, as_pack, pack_text
from chuko.core.protocol import Game
from chuko.games import descriptors

from .common import Builder, load_encoding, make_game, return_bounds, returns

PREFIX = "python_chuko_"
# OpenSpiel wants a ceiling on the number of seats; a game whose seats are limited only by
# its pack (Chükö) gets this one.
MOST_SEATS = 100
# The length OpenSpiel is told for a game whose encoding gives no bound (a game without a
# limit may be endless; OpenSpiel uses the figure only to size what it preallocates).
FALLBACK_LENGTH = 10**6


def _key(outcome: Any) -> str:
    """An outcome or a card as one comparable text (cards are JSON-ready as their text).
    Texts and whole numbers, the usual outcomes, skip JSON: a chance node lists dozens."""
    plain = outcome if isinstance(outcome, (int, float, str, list, dict, bool)) else str(outcome)
    if isinstance(plain, str):
        return "'" + plain
    if type(plain) is int:
        return str(plain)
    return json.dumps(plain, sort_keys=True)


def _spiel_value(option: Option, given: Any) -> int | str:
    """An option's value as an OpenSpiel parameter, which must survive OpenSpiel's game
    strings: those split on commas and read digits as numbers. So a pack is its name or its
    cards separated by spaces, and a choice of texts is its label ("the first seat" rather
    than "0"), which may also be given."""
    if option.kind == "pack":
        cards = as_pack(given)
        name = pack_text(cards)
        return name if name in PACKS else " ".join(map(str, cards))
    if option.kind == "choice" and option.choice_labels:
        labels = dict(zip(option.choice_labels, option.choices or (), strict=True))
        chosen = option.value(labels.get(given, given))
        if isinstance(chosen, str):
            return option.choice_labels[(option.choices or ()).index(chosen)]
        return int(chosen)
    value = option.value(given)
    return value if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _option_value(option: Option, spiel: int | str) -> Any:
    """The option's value from its OpenSpiel parameter (`_spiel_value` undone)."""
    if option.kind == "choice" and option.choice_labels and spiel in option.choice_labels:
        return (option.choices or ())[option.choice_labels.index(spiel)]
    return spiel


def _parameters(described: Descriptor) -> dict[str, Any]:
    """The game's options as OpenSpiel parameters, with their defaults."""
    return {option.name: _spiel_value(option, option.default) for option in described.options}


def _game_type(described: Descriptor) -> pyspiel.GameType:
    """The game's type, from its descriptor's traits."""
    traits = described.traits
    alone = traits.max_players == 1
    information = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=PREFIX + described.id,
        long_name=f"{described.title} (chuko)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if traits.chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(information.PERFECT_INFORMATION if traits.information == "perfect"
                     else information.IMPERFECT_INFORMATION),
        utility=(pyspiel.GameType.Utility.GENERAL_SUM if alone
                 else pyspiel.GameType.Utility.ZERO_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=traits.max_players or MOST_SEATS,
        min_num_players=traits.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(described),
    )


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """One configuration of a chuko game, for OpenSpiel."""

    described: Descriptor

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        described = self.described
        given = params or {}
        spiel = {option.name: _spiel_value(option, given.get(option.name, option.default))
                 for option in described.options}
        self.chuko: Game = make_game(described.id, {
            option.name: _option_value(option, spiel[option.name])
            for option in described.options})
        self.encoding: Encoding = load_encoding(self.chuko)
        deck = self.chuko.deck()
        # The deal's outcomes: each distinct card of the deck, numbered in deck order.
        self.cards: list[Any] = []
        self.card_number: dict[str, int] = {}
        for card in deck:
            if _key(card) not in self.card_number:
                self.card_number[_key(card)] = len(self.cards)
                self.cards.append(card)
        self.deck_counts = Counter(self.card_number[_key(card)] for card in deck)
        self.deck_size = len(deck)
        self.choices = tuple(self.chuko.deal_choices())
        players = self.chuko.players
        low, high = return_bounds(self.encoding, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=max(len(self.cards), players, *self.choices),
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=None if players == 1 else 0.0,
            max_game_length=self._longest(),
        )
        super().__init__(_game_type(described), info, spiel)

    def _longest(self) -> int:
        """A ceiling on the nodes of one game: the deal's, then the encoding's bound on the
        decisions and chance events after it (`max_game_length`) where it has one, else
        FALLBACK_LENGTH."""
        known = self.encoding.max_game_length
        after = int(known) if known is not None else FALLBACK_LENGTH
        return self.deck_size + len(self.choices) + after

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self, information_state=recall)


class _Position:
    """Everything a SpielState holds: the deal so far, then the engine's state and the moves
    being built. OpenSpiel clones a Python state by deep-copying its attributes, so this
    one copies with the engine's cheap `copy()` and shares the encoding."""

    __slots__ = ("order", "left", "chosen", "engine", "builder", "memo")

    def __init__(self, game: SpielGame) -> None:
        self.order: list[Any] = []  # the deal so far, card by card
        self.left = Counter(game.deck_counts)
        self.chosen: list[int] = []
        self.engine: Any = None  # the chuko state once dealt
        self.builder = Builder(game.encoding, game.chuko.players)
        # What has been worked out about this node (its chance outcomes, a seat's view,
        # observation and legal actions, its text), as OpenSpiel asks for each many times;
        # any action forgets it. Nothing in it is changed once there.
        self.memo: dict[Any, Any] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        twin = _Position.__new__(_Position)
        twin.order, twin.left, twin.chosen = list(self.order), Counter(self.left), list(self.chosen)
        twin.engine = None if self.engine is None else self.engine.copy()
        twin.builder = Builder(self.builder.encoding, len(self.builder.partial))
        twin.builder.partial = deepcopy(self.builder.partial, memo)
        twin.memo = dict(self.memo)
        return twin


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A chuko state behind OpenSpiel's interface: the deal first, then the engine's."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self.at = _Position(game)
        self._deal_if_complete()

    # The game is OpenSpiel's to keep: an attribute would be deep-copied with every clone.
    @property
    def spiel(self) -> SpielGame:
        game: SpielGame = self.get_game()
        return game

    @property
    def engine(self) -> Any:
        return self.at.engine

    @property
    def builder(self) -> Builder:
        return self.at.builder

    @property
    def order(self) -> list[Any]:
        return self.at.order

    @property
    def chosen(self) -> list[int]:
        return self.at.chosen

    # -- whose turn ----------------------------------------------------------------------------

    def current_player(self) -> int:
        memo = self.at.memo
        if "player" not in memo:
            engine = self.engine
            if engine is None or engine.is_chance:
                memo["player"] = int(pyspiel.PlayerId.CHANCE)
            elif engine.outcome is not None:
                memo["player"] = int(pyspiel.PlayerId.TERMINAL)
            else:
                memo["player"] = int(engine.to_move[0])
        player: int = memo["player"]
        return player

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.outcome is not None

    def _legal_actions(self, player: int) -> list[int]:
        memo = self.at.memo
        key = ("legal", player)
        if key not in memo:
            mask = self.builder.mask(self.engine, player)
            memo[key] = [int(a) for a in np.flatnonzero(mask)]
        return list(memo[key])

    def seat_view(self, player: int) -> Any:
        """The engine's view for `player` (None while dealing), once per node."""
        if self.engine is None:
            return None
        memo = self.at.memo
        key = ("view", player)
        if key not in memo:
            memo[key] = self.engine.view(player)
        return memo[key]

    # -- chance --------------------------------------------------------------------------------

    def _engine_outcomes(self) -> list[tuple[int, Any, float]]:
        """The engine's chance node as (action, outcome, probability), worked out once per
        node (OpenSpiel names every outcome of a node, each through this list)."""
        memo = self.at.memo
        if "outcomes" in memo:
            found: list[tuple[int, Any, float]] = memo["outcomes"]
            return found
        listed = self.engine.chance_outcomes()
        cards = self.spiel.card_number
        keys = [_key(outcome) for outcome, _ in listed]
        if all(key in cards for key in keys):
            found = [(cards[key], outcome, p)
                     for key, (outcome, p) in zip(keys, listed, strict=True)]
        else:
            found = [(i, outcome, p) for i, (outcome, p) in enumerate(listed)]
        memo["outcomes"] = found
        return found

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.engine is not None:
            return sorted((n, p) for n, _, p in self._engine_outcomes())
        if len(self.order) < self.spiel.deck_size:
            left = self.spiel.deck_size - len(self.order)
            return [(n, k / left) for n, k in sorted(self.at.left.items()) if k]
        size = self.spiel.choices[len(self.chosen)]
        return [(i, 1 / size) for i in range(size)]

    def _apply_chance(self, action: int) -> None:
        if self.engine is not None:
            outcome = next(o for n, o, _ in self._engine_outcomes() if n == action)
            self.engine.apply_chance(outcome)
            return
        if len(self.order) < self.spiel.deck_size:
            if not self.at.left[action]:
                raise pyspiel.SpielError(f"Card {action} is no longer in the deck.")
            self.at.left[action] -= 1
            self.order.append(self.spiel.cards[action])
        else:
            self.chosen.append(action)
        self._deal_if_complete()

    def _deal_if_complete(self) -> None:
        """Start the engine once the deal's chance is all drawn (at once for a fixed deal,
        which has none)."""
        if len(self.order) == self.spiel.deck_size and len(self.chosen) == len(
                self.spiel.choices):
            # With explicit chance the engine never draws; a generator of its own (not the
            # system's, which has no state) lets OpenSpiel pickle the state.
            self.at.engine = self.spiel.chuko.from_order(self.order, self.chosen, rng=Random(0),
                                                         explicit_chance=True)

    # -- moves ---------------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        try:
            if self.is_chance_node():
                self._apply_chance(action)
            else:
                self.builder.step(self.engine, self.current_player(), action)
        finally:  # the node the memo was of is left (or may be, after a refusal)
            self.at.memo = {}

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self._chance_text(action)
        try:
            return str(self.spiel.encoding.move(action))
        except ValueError:
            return f"action {action}"

    def _chance_text(self, action: int) -> str:
        if self.engine is not None:
            found = [o for n, o, _ in self._engine_outcomes() if n == action]
            return f"chance: {found[0]}" if found else f"chance {action}"
        if len(self.order) < self.spiel.deck_size and action < len(self.spiel.cards):
            return f"deal {self.spiel.cards[action]}"
        return f"choice {action}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state `player_id` cannot tell from this one, its hidden cards drawn at random
        (what IS-MCTS searches over). The encoding draws it, where it offers `resample(state,
        seat, rng)`; its history is not this state's, as the draw need not have one."""
        resample = getattr(self.spiel.encoding, "resample", None)
        if resample is None or self.engine is None:
            raise pyspiel.SpielError(f"{self.spiel.chuko.title} cannot be resampled here.")
        twin = SpielState(self.spiel)
        twin.at = deepcopy(self.at)
        twin.at.engine = resample(self.engine, player_id, Random(probability_sampler()))
        twin.at.memo = {}
        return twin

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.spiel.chuko.players
        return returns(self.engine.outcome.scores)

    def __str__(self) -> str:
        if self.engine is None:
            dealt = " ".join(map(str, self.order))
            return f"dealing: {dealt} | choices {self.chosen}"
        memo = self.at.memo
        if "text" not in memo:
            memo["text"] = json.dumps(self.engine.full_view(None), sort_keys=True,
                                      default=str) + f" | building {self.builder.partial!r}"
        text: str = memo["text"]
        return text


class Observer:
    """OpenSpiel's observer for python games: the encoding's observation array (as float32)
    for both tensors, and as strings the encoding's information state or the array's
    non-zero entries.

    The information-state tensor is the observation array: a summary of what the seat has
    seen that decides everything still to come (each encoding's docstring), equal for two
    histories that leave the same summary, so it is Markov rather than perfect recall; the
    information-state string keeps what the summary drops where the encoding's does."""

    def __init__(self, game: SpielGame, *, information_state: bool) -> None:
        self.encoding = game.encoding
        self.information_state = information_state
        self.tensor = np.zeros(int(np.prod(self.encoding.observation_shape)), np.float32)
        self.dict = {"information_state" if information_state else "observation": self.tensor}

    def set_from(self, state: SpielState, player: int) -> None:
        view = state.seat_view(player)
        if view is None:
            self.tensor.fill(0)
            return
        memo = state.at.memo
        key = ("array", player)
        if key not in memo:
            array = self.encoding.observation(view, state.builder.partial[player])
            memo[key] = np.asarray(array, np.float32).ravel()
        self.tensor[:] = memo[key]

    def string_from(self, state: SpielState, player: int) -> str:
        view = state.seat_view(player)
        if view is None:
            return f"dealing: {len(state.order)} cards, {len(state.chosen)} choices"
        memo = state.at.memo
        key = ("text", self.information_state, player)
        if key not in memo:
            memo[key] = self._text(state, player, view)
        text: str = memo[key]
        return text

    def _text(self, state: SpielState, player: int, view: Any) -> str:
        partial = state.builder.partial[player]
        if self.information_state:
            text = self.encoding.information_state(view)
            return text if partial is None else f"{text} | building {partial!r}"
        self.set_from(state, player)
        values = self.tensor.tolist()
        return " ".join(f"{i}:{values[i]:g}" for i in np.flatnonzero(self.tensor).tolist())


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for described in descriptors():
        if described.integrations.encoding is None or PREFIX + described.id in registered:
            continue

        # A class per game: OpenSpiel keeps what it registers until the interpreter ends, and
        # a registered function (rather than a class) aborts Python as it shuts down. It is
        # a name of this module, so that pickling finds it.
        name = f"Spiel_{described.id}"
        game = type(name, (SpielGame,), {"described": described, "__module__": __name__})
        globals()[name] = game
        pyspiel.register_game(_game_type(described), game)


_register()
