"""A Swiss round's pairing: the best of the stated objective (against every pairing of small
rounds), no repeated game, the bye's rule, and a round too played out to pair."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

import pytest

from chuko.server.tournament.swiss import (
    Entrant,
    NoPairing,
    SwissRound,
    bye_order,
    fold,
    pair_round,
    round_order,
)


def entrant(id: str, score: float = 0.0, rating: float = 1500.0, met: str = "",
            had_bye: bool = False) -> Entrant:
    return Entrant(id, score, rating, frozenset(met.split()), had_bye)


def matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of `players`."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, other in enumerate(rest):
        for found in matchings(rest[:k] + rest[k + 1:]):
            yield [(first, other), *found]


def cost(ordered: list[Entrant], pairs: list[tuple[int, int]]) -> tuple[int, int]:
    """The objective of the module's docstring: the squared score differences in half
    points, then each player's distance from their partner in the fold."""
    halves = [round(2 * e.score) for e in ordered]
    partner = fold(halves, lambda a, b: repeats(ordered, a, b))
    squares = sum((halves[a] - halves[b]) ** 2 for a, b in pairs)
    deviation = sum(abs(b - partner[a]) + abs(a - partner[b]) for a, b in pairs)
    return squares, deviation


def repeats(ordered: list[Entrant], a: int, b: int) -> bool:
    return ordered[b].id in ordered[a].opponents


def best_by_brute_force(entrants: list[Entrant]) -> tuple[str | None, tuple[int, int]] | None:
    """The bye and the least cost over every pairing; None when none avoids a repeat."""
    byes = bye_order(entrants) if len(entrants) % 2 else [None]
    for bye in byes:
        ordered = round_order([e for e in entrants if bye is None or e.id != bye.id])
        costs = [cost(ordered, pairs) for pairs in matchings(list(range(len(ordered))))
                 if not any(repeats(ordered, a, b) for a, b in pairs)]
        if costs:
            return (None if bye is None else bye.id), min(costs)
    return None


def cost_of(entrants: list[Entrant], found: SwissRound) -> tuple[int, int]:
    ordered = round_order([e for e in entrants if e.id != found.bye])
    place = {e.id: k for k, e in enumerate(ordered)}
    return cost(ordered, [(place[a], place[b]) for a, b in found.pairs])


def random_round(rng: Random, players: int, rounds: int) -> list[Entrant]:
    """`players` after `rounds` random rounds: random opponents, results and byes."""
    ids = [f"p{k}" for k in range(players)]
    met: dict[str, set[str]] = {p: set() for p in ids}
    score = dict.fromkeys(ids, 0.0)
    bye: set[str] = set()
    for _ in range(rounds):
        order = rng.sample(ids, players)
        if players % 2:
            bye.add(order[-1])
            score[order.pop()] += 1.0
        for a, b in zip(order[0::2], order[1::2], strict=True):
            met[a].add(b)
            met[b].add(a)
            result = rng.choice((0.0, 0.5, 1.0))
            score[a] += result
            score[b] += 1.0 - result
    return [Entrant(p, score[p], float(rng.choice((1400, 1500, 1600, rng.randrange(2000)))),
                    frozenset(met[p]), p in bye) for p in ids]


def test_the_round_is_the_best_of_every_pairing_on_random_small_rounds():
    rng = Random(2024)
    checked = unpairable = 0
    for _ in range(400):
        entrants = random_round(rng, rng.randrange(1, 11), rng.randrange(0, 6))
        best = best_by_brute_force(entrants)
        if best is None:
            with pytest.raises(NoPairing):
                pair_round(entrants)
            unpairable += 1
            continue
        found = pair_round(entrants)
        assert (found.bye, cost_of(entrants, found)) == best
        checked += 1
    assert checked > 300 and unpairable > 5  # both kinds were met


def swiss_history(rng: Random, players: int, rounds: int) -> list[Entrant]:
    """`players` after up to `rounds` rounds paired by `pair_round` itself, with random
    results: the repeats its folds meet are those of a real event."""
    entrants = [entrant(f"p{k}", 0.0, float(rng.choice((1400, 1500, rng.randrange(2000)))))
                for k in range(players)]
    for _ in range(rounds):
        try:
            found = pair_round(entrants)
        except NoPairing:
            break
        gained = {p: rng.choice((0.0, 0.5, 1.0)) for p, _ in found.pairs}
        gained |= {b: 1.0 - gained[a] for a, b in found.pairs}
        opponent = {a: b for a, b in found.pairs} | {b: a for a, b in found.pairs}
        entrants = [Entrant(e.id, e.score + gained.get(e.id, 1.0), e.rating,
                            e.opponents | {opponent[e.id]} if e.id in opponent else e.opponents,
                            e.had_bye or e.id == found.bye) for e in entrants]
    return entrants


def test_the_round_is_the_best_of_every_pairing_after_rounds_it_paired_itself():
    rng = Random(77)
    for _ in range(200):
        players = rng.randrange(2, 11)
        entrants = swiss_history(rng, players, rng.randrange(1, players + 1))
        best = best_by_brute_force(entrants)
        if best is None:
            with pytest.raises(NoPairing):
                pair_round(entrants)
        else:
            found = pair_round(entrants)
            assert (found.bye, cost_of(entrants, found)) == best


def test_no_two_players_meet_twice_and_everyone_but_the_bye_plays():
    entrants = random_round(Random(7), 41, 4)
    found = pair_round(entrants)
    played = [p for pair in found.pairs for p in pair]
    assert sorted([*played, found.bye]) == sorted(e.id for e in entrants)
    met = {e.id: e.opponents for e in entrants}
    assert not any(b in met[a] for a, b in found.pairs)


def test_without_repeats_each_score_group_is_folded_top_half_against_bottom_half():
    # The group at 2 folds a-c, b-d; the group of three at 1 floats its lowest, g, down to
    # h, and e meets f.
    entrants = [entrant("a", 2, 1900), entrant("b", 2, 1800), entrant("c", 2, 1700),
                entrant("d", 2, 1600), entrant("e", 1, 1900), entrant("f", 1, 1800),
                entrant("g", 1, 1700), entrant("h", 0, 1500)]
    found = pair_round(entrants)
    assert found == SwissRound((("a", "c"), ("b", "d"), ("e", "f"), ("g", "h")), None)


def test_a_repeated_pair_of_the_fold_is_transposed_with_the_next():
    entrants = [entrant("a", 1, 1900, "c"), entrant("b", 1, 1800), entrant("c", 1, 1700, "a"),
                entrant("d", 1, 1600)]
    assert pair_round(entrants).pairs == (("a", "d"), ("b", "c"))


def test_an_odd_group_floats_its_lowest_to_the_next_group():
    entrants = [entrant("a", 2, 1900), entrant("b", 2, 1800), entrant("c", 2, 1700),
                entrant("d", 1, 1600), entrant("e", 1, 1500), entrant("f", 1, 1400)]
    # c floats on top of d, e, f: the halves are (c, d) and (e, f).
    assert pair_round(entrants).pairs == (("a", "b"), ("c", "e"), ("d", "f"))


def test_the_bye_goes_to_the_lowest_scored_then_lowest_rated_player_without_one():
    entrants = [entrant("a", 2, 1500), entrant("b", 1, 1600), entrant("c", 1, 1400, had_bye=True),
                entrant("d", 1, 1450), entrant("e", 2, 1300)]
    assert pair_round(entrants).bye == "d"


def test_once_everyone_has_had_a_bye_the_lowest_has_another():
    entrants = [entrant(p, 1, r, had_bye=True) for p, r in (("a", 1500), ("b", 1400),
                                                            ("c", 1600))]
    assert pair_round(entrants).bye == "b"


def test_the_bye_passes_to_the_next_player_when_the_others_could_not_all_be_paired():
    # c is first for the bye, but a and b have met: with c out they could not be paired.
    entrants = [entrant("a", 1, 1600, "b"), entrant("b", 1, 1500, "a"), entrant("c", 0, 1400)]
    assert pair_round(entrants) == SwissRound((("a", "c"),), "b")


def test_a_round_where_every_pairing_repeats_a_game_says_so():
    entrants = [entrant("a", met="b c d"), entrant("b", met="a c d"), entrant("c", met="a b"),
                entrant("d", met="a b")]
    with pytest.raises(NoPairing, match="avoids a repeated game"):
        pair_round(entrants)


def test_a_lone_player_has_the_bye_and_no_one_has_no_round():
    assert pair_round([entrant("a")]) == SwissRound((), "a")
    assert pair_round([]) == SwissRound((), None)


@pytest.mark.parametrize(("entrants", "sentence"), [
    ([entrant("a"), entrant("a")], "once"),
    ([entrant("a", score=0.3)], "whole or half point"),
    ([entrant("a", score=float("nan"))], "whole or half point"),
    ([entrant("a", score=-1.0)], "whole or half point"),
    ([entrant("a", rating=float("inf"))], "rating must be a number"),
])
def test_entrants_that_cannot_be_paired_as_given_get_a_sentence(entrants, sentence):
    with pytest.raises(ValueError, match=sentence):
        pair_round(entrants)


def test_a_big_round_with_repeats_in_its_fold_is_still_paired_without_them():
    rng = Random(3)
    entrants = random_round(rng, 300, 6)
    found = pair_round(entrants)
    met = {e.id: e.opponents for e in entrants}
    assert len(found.pairs) == 150 and not any(b in met[a] for a, b in found.pairs)
