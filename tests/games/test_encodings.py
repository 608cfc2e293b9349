"""Each game's encoding for research environments (games/encodings/): action numbers, masks
that agree with the engine, observations from the view alone. The contract for every game
is checked by the conformance suite; these tests pin what is particular to each game."""

import json
import random

import pytest

np = pytest.importorskip("numpy")

from chuko.core.errors import IllegalMove, ParseError  # noqa: E402
from chuko.core.layout import LayoutMove, parse_layout  # noqa: E402
from chuko.games.caravan import Caravan  # noqa: E402
from chuko.games.chuchula import Game as Chuchula  # noqa: E402
from chuko.games.chuchula import HandGrouping, all_groupings  # noqa: E402
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


@pytest.mark.slow  # lists the hand's 200,000 groupings to compare
def test_the_masks_allow_exactly_the_steps_some_valid_grouping_takes():
    state = Chuchula(players=2).new(seed=3)
    hand, encoding, rng = state.hand(0), chuchula.encoding(state.game), random.Random(0)
    labels = np.array([[0 if card == g.leftover else 1 + next(
        k for k, group in enumerate(g.groups) if card in group) for card in hand]
        for g in all_groupings(hand)], dtype=np.int8)
    for _ in range(40):
        row = labels[rng.randrange(len(labels))]
        places = rng.sample([p for p in range(13) if row[p]], rng.randrange(12))
        partial = tuple(int(row[p]) if p in places else 0 for p in range(13))
        agree = labels[(labels[:, places] == row[places]).all(axis=1)]
        want = np.zeros(52, dtype=np.int8)
        for place in set(range(13)) - set(places):
            for group in set(agree[:, place].tolist()) - {0}:
                want[place * 4 + group - 1] = 1
        assert encoding.legal_mask(state, 0, partial).tolist() == want.tolist()


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
