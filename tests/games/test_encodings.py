"""Each game's encoding for research environments (games/encodings/): action numbers, masks
that agree with the engine, observations from the view alone. The contract for every game
is checked by the conformance suite; these tests pin what is particular to each game."""

import functools
import itertools
import json
import random

import pytest

np = pytest.importorskip("numpy")

from chuko.core.errors import IllegalMove, ParseError  # noqa: E402
from chuko.core.layout import LayoutMove, parse_layout  # noqa: E402
from chuko.games.caravan import Caravan  # noqa: E402
from chuko.games.chuchula import Game as Chuchula  # noqa: E402
from chuko.games.chuchula import (  # noqa: E402
    HandGrouping,
    all_groupings,
    group_strength,
    random_grouping,
)
from chuko.games.crossroads import Crossroads  # noqa: E402
from chuko.games.encodings import caravan, chuchula, crossroads  # noqa: E402


def test_layout_moves_are_numbered_by_position_then_placement():
    cross, cara = crossroads.encoding(Crossroads()), caravan.encoding(Caravan())
    assert cross.num_actions == 36 and cara.num_actions == 60
    assert [cross.action(LayoutMove.parse(t)) for t in ("A", "AL", "AR", "BR", "LR")] == [
        0, 1, 2, 5, 35]
    assert [cara.action(LayoutMove.parse(t)) for t in ("A", "BR", "BL*", "LR*")] == [
        0, 7, 8, 59]
    with pytest.raises(ParseError):
        cross.action(LayoutMove.parse("BR*"))  # Crossroads has no bridges
    for wrong in (-1, 36, "3", None):
        with pytest.raises(ParseError):
            cross.move(wrong)


def test_a_crossroads_observation_reads_the_rule_texts_example():
    state = Crossroads(deal=parse_layout("6 10 30 30 / 15 7 30 30 / 1 1 9 30"), first=0).new()
    for seat, move in ((0, "A"), (1, "I"), (0, "ER"), (1, "JL")):
        state.play(seat, move)
    seen = crossroads.encoding(state.game).observation(state.view(0))
    mine_left, mine_right = seen[168:180], seen[180:192]
    # My trail is 6 — 15: 10 (B) matches both ends, 7 (F) neither, 9 (K) only 15's 3... and 6's.
    assert mine_left[[1, 5, 10]].tolist() == [1, 0, 1] and mine_right[[1, 5, 10]].tolist() == [
        1, 0, 1]
    assert seen[[12, 13, 16, 17, 20, 21]].tolist() == [0, 1, 0, 1, 0, 0]  # B, F, K available
    assert seen[224] == 1 and seen[216] == 0


def test_crossroads_utilities_span_a_rounds_points_or_a_matchs():
    assert (crossroads.encoding(Crossroads()).max_utility,
            crossroads.encoding(Crossroads(rounds=2)).max_utility) == (5, 10)


# --- Chuchula: a grouping a card at a time ---------------------------------------------------


def build(encoding, state, seat, rng):
    """A grouping built from the masks with random legal steps."""
    partial = None
    while True:
        mask = encoding.legal_mask(state, seat, partial)
        partial, move = encoding.step_move(partial, int(rng.choice(np.flatnonzero(mask))))
        if move is not None:
            return move


def test_steps_taken_from_the_masks_always_complete_a_grouping_the_engine_accepts():
    game = Chuchula(players=3, length=1)
    encoding, rng = chuchula.encoding(game), random.Random(4)
    state = game.new(seed=4)
    for seat in (0, 1, 2):
        move = build(encoding, state, seat, rng)
        assert isinstance(move, HandGrouping)
        state.play(seat, move)
    record = state.record()
    assert state.outcome is not None and Chuchula.replay(record).record() == record


def labels_of(grouping, hand):
    """A grouping as the encoding's labels: each card's group 1–4, 0 for the card left out."""
    return tuple(0 if card == grouping.leftover else 1 + next(
        k for k, group in enumerate(grouping.groups) if card in group) for card in hand)


def partials(hand, rng, count, least=0):
    """Partial groupings with `least` or more places set: parts of valid groupings, and
    groups drawn at random (often parts of none)."""
    for number in range(count):
        size = rng.randrange(least, 12)
        places = rng.sample(range(13), size)
        if number % 3:
            labels = labels_of(random_grouping(hand, rng), hand)
            yield tuple(labels[p] if p in places and labels[p] else 0 for p in range(13))
        else:
            groups = [g for g in (1, 2, 3, 4) for _ in range(3)]
            rng.shuffle(groups)
            yield tuple(groups[places.index(p)] if p in places else 0 for p in range(13))


@functools.cache
def strengths(hand):
    return {t: group_strength([hand[p] for p in t]) for t in itertools.combinations(range(13), 3)}


def exact_mask(hand, partial):
    """The steps taken by some valid grouping that agrees with `partial`, found by listing
    every completion and checking its order with the engine's strengths (ruling H4)."""
    strength = strengths(hand)
    placed = [[p for p in range(13) if partial[p] == g] for g in (1, 2, 3, 4)]
    free = [p for p in range(13) if not partial[p]]
    mask = np.zeros(52, dtype=np.int8)

    def fill(group, rest, chosen):
        if group == 4:
            values = [strength[tuple(sorted(c))] for c in chosen]
            if values == sorted(values, reverse=True):
                for k, cards in enumerate(chosen):
                    mask[[4 * p + k for p in cards if not partial[p]]] = 1
            return
        for extra in itertools.combinations(rest, max(3 - len(placed[group]), 0)):
            if len(placed[group]) + len(extra) == 3:
                fill(group + 1, [p for p in rest if p not in extra],
                     [*chosen, placed[group] + list(extra)])

    for left in free:
        fill(0, [p for p in free if p != left], [])
    return mask


@pytest.mark.slow  # seconds: in make test, not make test-fast
def test_the_masks_equal_a_listing_of_every_completion_over_many_hands_and_partials():
    game = Chuchula(players=4)
    encoding, rng = chuchula.encoding(game), random.Random(11)
    for seed in range(10):
        state = game.new(seed=seed)
        seat = seed % 4
        hand = state.hand(seat)
        # Steps as an environment takes them (each mask builds on the last's findings) ...
        partial = None
        for _ in range(12):
            mask = encoding.legal_mask(state, seat, partial)
            labels = partial or (0,) * 13
            if labels.count(0) <= 8:
                assert mask.tolist() == exact_mask(hand, labels).tolist(), (seed, labels)
            partial, move = encoding.step_move(partial, int(rng.choice(np.flatnonzero(mask))))
        # ... and partial groupings in any order, some of them parts of no valid grouping.
        for labels in partials(hand, rng, 8, least=5):
            assert encoding.legal_mask(state, seat, labels).tolist() == exact_mask(
                hand, labels).tolist(), (seed, labels)


@pytest.mark.slow  # lists each hand's 200,000 groupings to compare
def test_the_masks_allow_exactly_the_steps_some_valid_grouping_takes():
    for seed in (3, 8, 21):
        state = Chuchula(players=2).new(seed=seed)
        hand, encoding, rng = state.hand(0), chuchula.encoding(state.game), random.Random(seed)
        labels = np.array([labels_of(g, hand) for g in all_groupings(hand)], dtype=np.int8)
        for partial in partials(hand, rng, 40):
            places = [p for p in range(13) if partial[p]]
            agree = labels[(labels[:, places] == np.array(partial)[places]).all(axis=1)]
            want = np.zeros(52, dtype=np.int8)
            for place in set(range(13)) - set(places):
                for group in set(agree[:, place].tolist()) - {0}:
                    want[place * 4 + group - 1] = 1
            assert encoding.legal_mask(state, 0, partial).tolist() == want.tolist(), partial


def test_a_partial_grouping_that_is_not_one_is_refused_in_a_sentence():
    encoding, state = chuchula.encoding(Chuchula()), Chuchula().new(seed=2)
    for wrong in ((0,) * 12, (5,) + (0,) * 12, ("a",) * 13, 7):
        with pytest.raises(ParseError, match="not a partial grouping"):
            encoding.legal_mask(state, 0, wrong)


def test_a_step_onto_a_placed_card_and_a_malformed_grouping_are_refused_in_a_sentence():
    encoding = chuchula.encoding(Chuchula())
    partial, _ = encoding.step_move(None, encoding.action((0, 1)))
    with pytest.raises(IllegalMove, match="already in group 1"):
        encoding.step_move(partial, encoding.action((0, 2)))
    state = Chuchula().new(seed=1)
    before = state.record()
    with pytest.raises(IllegalMove, match="three of the 13 cards"):
        state.play(0, HandGrouping((1,) * 13))
    assert state.record() == before


def test_the_chuchula_observation_holds_the_hand_and_the_partial_grouping_and_nothing_hidden():
    game = Chuchula(players=2, length=2)
    state = game.new(seed=6)
    deal = state.record()["deal"]
    # The other seat's hand exchanged with cards set aside: seat 0 cannot tell the difference.
    aside = deal["aside"].split()
    other = {**deal, "hands": [deal["hands"][0], " ".join(aside[:13])],
             "aside": " ".join(aside[13:] + deal["hands"][1].split())}
    twin = game.from_deal(other)
    encoding = chuchula.encoding(game)
    partial, _ = encoding.step_move(None, encoding.action((12, 3)))
    seen = encoding.observation(state.view(0), partial)
    assert np.array_equal(seen, encoding.observation(twin.view(0), partial))
    assert encoding.information_state(state.view(0)) == encoding.information_state(twin.view(0))
    assert seen[221 + 5 * 12 + 3] == 1 and seen[221:286].sum() == 13
    assert seen[:221].sum() == 26  # 13 cards, a rank and a suit each
    assert not np.array_equal(encoding.observation(state.view(1)),
                              encoding.observation(twin.view(1)))  # seat 1 holds other cards
    json.dumps(encoding.information_state(state.view(1)))
