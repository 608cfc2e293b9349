"""The test kit for games, a plug-in's included: the conformance suite, which checks a
registered game against every rule of the protocol (`chuko.core.conformance.RULES`, listed
in docs/architecture.md) and words each failure with the rule it broke.

In a plug-in's tests, with the plug-in installed (its `chuko.games` entry point):

    from chuko.testing import conformance_tests

    TestConformance = conformance_tests("takeaway")

pytest then runs each check on the game, or on each of its descriptor's examples, as a
test of its own. `check_game("takeaway")` runs every check at once, outside pytest, and
raises AssertionError naming the rule at the first one broken. The kit needs pytest and
hypothesis (`pip install 'chuko[testing]'`), and numpy for a game with an encoding. The
check of a stepwise encoding takes seconds: it is marked `slow`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from chuko.core.errors import ConfigError
from chuko.games import descriptor, game_class, game_ids, left_out

from .described import (
    bots_play_legal_moves,
    descriptor_makes_games,
    encodings_number_the_legal_moves,
    play_accepts_exactly_the_legal_moves,
    study_varies_games_and_counts_whole_turns,
)
from .play import (
    any_text_is_a_move_or_a_sentence,
    configurations,
    explicit_chance_games_end_and_replay,
    from_deal_reproduces_the_game,
    from_order_deals_a_permutation_of_the_deck,
    moves_have_canonical_text,
    random_games_keep_the_protocol,
    seeded_deals_are_reproducible,
)

__all__ = ["check_game", "conformance_tests"]

Check = Callable[..., None]
# The checks of a game as a whole, and those of each of its examples.
PER_GAME: tuple[Check, ...] = (
    descriptor_makes_games, seeded_deals_are_reproducible, moves_have_canonical_text,
    any_text_is_a_move_or_a_sentence, bots_play_legal_moves,
    study_varies_games_and_counts_whole_turns, play_accepts_exactly_the_legal_moves,
)
PER_EXAMPLE: tuple[Check, ...] = (
    random_games_keep_the_protocol, from_deal_reproduces_the_game,
    from_order_deals_a_permutation_of_the_deck, explicit_chance_games_end_and_replay,
    encodings_number_the_legal_moves,
)


def _registered(game_id: str) -> str:
    """The game's id once it is known to be registered; ConfigError says why a plug-in
    that claims it was left out."""
    if game_id in game_ids():
        return game_id
    reasons = " ".join(f"The plug-in {point!r} was left out: {why}"
                       for point, why in left_out().items())
    try:
        game_class(game_id)
    except ConfigError as error:
        raise ConfigError(f"{error} {reasons}".strip()) from None
    return game_id


def _applies(check: Check, game_id: str) -> bool:
    """Whether the game declares what the check checks (a notation, an encoding)."""
    described = descriptor(game_id)
    if check is play_accepts_exactly_the_legal_moves:
        return bool(described.notation)
    if check is encodings_number_the_legal_moves:
        return described.integrations.encoding is not None
    return True


def cases(check: Check, game_ids: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """The arguments the check runs on: each game, or each game's each example."""
    per_example = check in PER_EXAMPLE
    return [(game_id, index) if per_example else (game_id,)
            for game_id in game_ids if _applies(check, game_id)
            for index in (range(len(configurations(game_id))) if per_example else (0,))]


def check_game(game_id: str) -> None:
    """Every conformance check on the registered game, at once, random games first;
    AssertionError names the rule of the first one it breaks."""
    _registered(game_id)
    for check in (*PER_EXAMPLE, *PER_GAME):
        for arguments in cases(check, (game_id,)):
            check(*arguments)


def conformance_tests(*game_ids: str) -> type:
    """A class of tests for pytest to collect (bind it to a name starting with `Test`):
    one test per check, parametrized by game (and example), for the registered games."""
    for game_id in game_ids:
        _registered(game_id)
    tests = {f"test_{check.__name__}": _test(check, cases(check, game_ids))
             for check in (*PER_GAME, *PER_EXAMPLE)}
    return type("Conformance", (), {"__doc__": __doc__, **tests})


def _test(check: Check, arguments: list[tuple[Any, ...]]) -> Callable[..., None]:
    """The check as a method pytest runs once per case, marked `slow` for a stepwise
    encoding (a game that lists no moves)."""
    encoded = check is encodings_number_the_legal_moves

    def run(*case: Any) -> None:
        if encoded:
            pytest.importorskip("numpy")
        check(*case)

    def per_game(self: object, game_id: str) -> None:
        run(game_id)

    def per_example(self: object, game_id: str, index: int) -> None:
        run(game_id, index)

    def param(case: tuple[Any, ...]) -> Any:
        slow = encoded and not game_class(case[0]).lists_moves
        return pytest.param(*case, id="-".join(map(str, case)),
                            marks=(pytest.mark.slow,) if slow else ())

    test = per_example if check in PER_EXAMPLE else per_game
    names = ["game_id", "index"] if check in PER_EXAMPLE else ["game_id"]
    test.__name__, test.__doc__ = f"test_{check.__name__}", check.__doc__
    return pytest.mark.parametrize(names, [param(case) for case in arguments])(test)
