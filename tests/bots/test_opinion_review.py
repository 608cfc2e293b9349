"""The post-game review of Chükö and Chuchula, which have no exact solver: one verdict per
move of a record, in words, from the hard bot's trial games (Chükö) and the advisor's
model (Chuchula), each marked as the bots' opinion, found through the game's descriptor
and bounded in work however long the game."""

import re
from random import Random

import pytest

from chuko import bots
from chuko.bots import chuchula as chuchula_bots
from chuko.bots import chuko as chuko_bots
from chuko.bots import make_bot
from chuko.games import chuchula, chuko, game_class
from chuko.solvers.chuchula_advisor import advise

TRIALS = r"\d+ trial games"
CHUKO_VERDICT = re.compile(
    r"the only move(: no card fitted)?"
    r"|(reset on purpose here(: the next player held one card)?; )?"
    r"the hard bot would (reset|play \d+)"
    rf"( too \(it won \d+% of {TRIALS} from here\)"
    rf"|: it won \d+% of {TRIALS} from here, this move \d+%"
    rf"|, but this move did about as well in its {TRIALS} \(\d+% against \d+%\))")
CHUKO_MISTAKE = re.compile(rf".*the hard bot would (reset|play \d+): it won (\d+)% of {TRIALS} "
                           r"from here, this move (\d+)%")


def finished(game, levels, seed):
    """`game` played to its end by bots of `levels`, seeded."""
    state = game.new(seed=seed)
    players = [make_bot(game.id, level, Random(seed * 7 + k)) for k, level in enumerate(levels)]
    while state.outcome is None:
        seat = state.to_move[0]
        legal = state.legal_moves(seat) if game.lists_moves else []
        state.play(seat, players[seat].choose(state.view(seat), legal))
    return state


def moves_of(state) -> list:
    """Every move of the finished game, in the order its replay shows them."""
    moves = []
    type(state.game).replay(state.record(),
                            lambda _s, seat, move: moves.append(move) if seat is not None else 0)
    return moves


def test_a_chuko_review_gives_each_move_the_hard_bots_opinion_in_words():
    state = finished(chuko.Game(players=2), ["easy", "random"], seed=1)
    record = state.record()
    verdicts = bots.review(state.game, record)
    assert len(verdicts) == len(moves_of(state))
    for verdict in verdicts:
        assert set(verdict) == {"text", "mistake", "opinion"} and verdict["opinion"] is True
        assert CHUKO_VERDICT.fullmatch(verdict["text"]), verdict["text"]
        # A mistake is a move the hard bot's choice beat in its trial games.
        found = CHUKO_MISTAKE.fullmatch(verdict["text"])
        assert verdict["mistake"] == bool(found)
        if found:
            assert int(found[2]) >= int(found[3]) + 10
    assert any(v["mistake"] for v in verdicts)  # the random bot slips somewhere
    assert bots.review(state.game, record) == verdicts  # the same record, the same review


def test_a_chuko_review_says_why_a_reset_was_on_purpose_or_forced():
    # Seeded games of easy bots: move 9 of the first resets with a card that fitted while
    # the next player held one card; move 8 of the second resets because none fitted.
    deliberate = finished(chuko.Game(players=2), ["easy", "easy"], seed=0)
    move = moves_of(deliberate)[8]
    assert move.is_reset
    verdict = chuko_bots.review(deliberate.record())[8]["text"]
    assert verdict.startswith("reset on purpose here: the next player held one card; "
                              "the hard bot would ")
    forced = finished(chuko.Game(players=2), ["easy", "easy"], seed=1)
    assert moves_of(forced)[7].is_reset
    assert chuko_bots.review(forced.record())[7]["text"] == "the only move: no card fitted"


def test_a_long_chuko_game_is_reviewed_within_its_budget_of_trial_deals(monkeypatch):
    monkeypatch.setattr(chuko_bots, "REVIEW_BUDGET", 40)
    monkeypatch.setattr(chuko_bots, "REVIEW_FLOOR", 10)
    played = []
    real = chuko_bots.greedy_playout

    def counted(state, rng, epsilon=0.1):
        played.append(1)
        return real(state, rng, epsilon)

    monkeypatch.setattr(chuko_bots, "greedy_playout", counted)
    state = finished(chuko.Game(players=3), ["random"] * 3, seed=2)
    verdicts = chuko_bots.review(state.record())
    assert len(verdicts) == len(moves_of(state))
    only = ("the only move", "the only move: no card fitted")
    choices = [k for k, v in enumerate(verdicts) if v is not None and v["text"] not in only]
    # Four moves with a choice get 10 deals each; the next says the review stops there,
    # and the moves after it get no verdict.
    reviewed, stop = choices[:4], choices[4]
    assert all(" 10 trial games" in verdicts[k]["text"] for k in reviewed)
    assert verdicts[stop] == {"text": "not reviewed from here on: the bots look at the first 4 "
                              "moves with a choice of a game this long", "mistake": False,
                              "opinion": True}
    assert stop + 1 < len(verdicts) and verdicts[stop + 1:] == [None] * (len(verdicts) - stop - 1)
    # Each deal plays every legal move once: at most 6 (a hand of 5 and the reset).
    assert 0 < len(played) <= 40 * 6


def test_a_chuchula_review_sets_each_grouping_beside_the_advisors():
    game = chuchula.Game(players=3, mode="rounds", length=2)
    state = finished(game, ["hard", "random", "easy"], seed=3)
    groupings = moves_of(state)
    verdicts = bots.review(game, state.record())
    assert len(verdicts) == len(groupings) == 6
    for grouping, verdict in zip(groupings, verdicts, strict=True):
        assert set(verdict) == {"text", "mistake", "opinion"} and verdict["opinion"] is True
        advice = advise(list(grouping.cards), 3)
        mine = chuchula_bots.expected_points(grouping, 3)
        if grouping == advice.grouping:  # the hard bot plays the advisor's grouping
            assert verdict == {"text": f"the advisor's grouping: {chuchula_bots.about(mine)} "
                               "expected", "mistake": False, "opinion": True}
        elif not verdict["text"].startswith("as good as"):
            assert verdict["text"] == (
                f"this grouping expected {chuchula_bots.about(mine)}; the advisor's "
                f"{chuchula_bots.about(advice.total)}: "
                f"{chuchula.grouping_words(advice.grouping)}")
            assert verdict["mistake"] == (advice.total - mine >= chuchula_bots.MISTAKE_GAP)
    seats = [seat for round_ in state.record()["rounds"] for seat, _ in round_["moves"]]
    by_seat = {seat: [v for s, v in zip(seats, verdicts, strict=True) if s == seat]
               for seat in range(3)}
    assert all(v["text"].startswith("the advisor's grouping") for v in by_seat[0])
    assert all(v["mistake"] for v in by_seat[1])  # random groupings fall far short


def test_a_long_chuchula_game_is_reviewed_only_so_far(monkeypatch):
    monkeypatch.setattr(chuchula_bots, "REVIEW_HANDS", 3)
    game = chuchula.Game(players=2, mode="rounds", length=3)
    verdicts = chuchula_bots.review(finished(game, ["easy", "random"], seed=4).record())
    assert len(verdicts) == 6
    assert all(verdict["text"] for verdict in verdicts[:3])
    assert verdicts[3:] == [{"text": "not reviewed from here on: the bots look at the first 3 "
                             "groupings of a game", "mistake": False, "opinion": True},
                            None, None]


@pytest.mark.parametrize("game_id", ["chuko", "chuchula", "crossroads", "caravan"])
def test_every_game_of_chuko_names_its_review_in_its_descriptor(game_id):
    assert game_class(game_id).descriptor.integrations.review == f"chuko.bots.{game_id}:review"
