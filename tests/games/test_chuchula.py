"""Chuchula's group ranking and engine (rulings H1–H8) and the rule text's examples."""

import itertools
import json
import random
import re
from collections import Counter

import pytest
from chance_helpers import play_with_chance
from hypothesis import given
from hypothesis import strategies as st

from chuko.core.deck52 import DECK, parse_cards
from chuko.core.errors import ConfigError, IllegalMove, ParseError
from chuko.games.chuchula import (
    FinalRanking,
    Game,
    Grouping,
    GroupType,
    group_strength,
    group_type,
    random_grouping,
    score_position,
)

# The rule text's example hand. Its grouping prints the pair's odd card as ♦J, which is
# already in the first group; the hand holds ♥J, which is what the example means.
EXAMPLE_HAND = "♠A ♠4 ♠5 ♦K ♦Q ♦J ♦2 ♣9 ♣8 ♥J ♥7 ♥4 ♥3"
EXAMPLE_GROUPING = "♦K♦Q♦J | ♠A♦2♥3 | ♣9♣8♥7 | ♥4♠4♥J ; ♠5"
NAMES = ["Ann", "Hard bot", "Bob", "Cy"]  # seats as front ends name them


def play_random(state, rng):
    while state.to_move:
        for seat in state.to_move:
            state.play(seat, state.random_move(seat, rng))
    return state


def test_all_22100_groups_split_into_the_six_types_as_counted():  # ruling H2
    counts = Counter(group_type(g) for g in itertools.combinations(DECK, 3))
    assert counts == {
        GroupType.TRIAL: 52,
        GroupType.DOUBLE_SEQUENCE: 48,
        GroupType.SEQUENCE: 720,
        GroupType.COLOR: 1096,
        GroupType.PAIR: 3744,
        GroupType.INDIVIDUAL: 16440,
    }


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("♠3♦3♣3", GroupType.TRIAL),
        ("♦4♦3♦2", GroupType.DOUBLE_SEQUENCE),
        ("♠A♠K♠Q", GroupType.DOUBLE_SEQUENCE),
        ("♠A♠2♠3", GroupType.DOUBLE_SEQUENCE),
        ("♠6♦5♣4", GroupType.SEQUENCE),
        ("♠A♦K♠Q", GroupType.SEQUENCE),
        ("♠A♦2♠3", GroupType.SEQUENCE),
        ("♠K♠2♠3", GroupType.COLOR),
        ("♠3♦3♠K", GroupType.PAIR),
        ("♠Q♠9♦4", GroupType.INDIVIDUAL),
        ("♠K♦A♣2", GroupType.INDIVIDUAL),  # ruling H2: K-A-2 is not consecutive
    ],
)
def test_rule_text_group_examples_have_their_type(text, kind):
    assert group_type(parse_cards(text)) is kind


def test_rule_text_trial_of_aces_beats_a_double_sequence_and_a_lower_trial():
    assert group_strength("♠A♦A♣A") > group_strength("♠10♠9♠8")
    assert group_strength("♠A♦A♣A") > group_strength("♠J♦J♣J")


def test_ace_king_queen_beats_ace_two_three_beats_king_queen_jack():  # ruling H3
    aqk, a23, kqj, four = (group_strength(t) for t in ("As Kd Qc", "Ah 2s 3d", "Ks Qh Jd",
                                                        "4s 3h 2d"))
    assert aqk > a23 > kqj > four


def test_a_pair_meets_a_pair_by_the_pairs_rank_then_the_odd_card():  # ruling H3
    assert group_strength("5s 5h 2d") > group_strength("4s 4h Ad")
    assert group_strength("5s 5h 3d") > group_strength("5c 5d 2d")
    assert group_strength("5s 5h 3d") == group_strength("5c 5d 3h")


def test_color_and_individual_compare_highest_then_second_then_third():  # ruling H3
    assert group_strength("Ks 9s 2s") > group_strength("Kh 8h 7h")
    assert group_strength("Ks 9s 3s") > group_strength("Kh 9h 2h")
    assert group_strength("Ks 9h 3d") > group_strength("Qs Jh 9d")


@given(st.permutations(DECK))
def test_a_higher_type_always_beats_a_lower_one_and_suits_never_break_ties(deck):
    a, b = deck[:3], deck[3:6]
    if group_type(a) > group_type(b):
        assert group_strength(a) > group_strength(b)
    suits = {"s": "h", "h": "d", "d": "c", "c": "s"}
    relabelled = parse_cards(" ".join(f"{c.rank if c.rank <= 10 else 'JQKA'[c.rank - 11]}"
                                      f"{suits[c.suit]}" for c in a))
    assert group_strength(relabelled) == group_strength(a)


def test_rule_text_example_hand_takes_its_example_grouping():  # ruling H4
    hand = parse_cards(EXAMPLE_HAND)
    move = Grouping.parse(EXAMPLE_GROUPING)
    assert [group_type(g).name for g in move.groups] == [
        "DOUBLE_SEQUENCE", "SEQUENCE", "SEQUENCE", "PAIR"]
    assert str(move) == "Kd Qd Jd | As 3h 2d | 9c 8c 7h | 4s 4h Jh ; 5s"
    state = _state_with_hands(Game(players=2, mode="rounds", length=1), hand)
    state.play(0, move)
    assert state.to_move == (1,)


def _state_with_hands(game, first_hand):
    """A state whose seat 0 holds `first_hand`, built through a replayed record."""
    rest = [c for c in DECK if c not in set(first_hand)]
    hands = [first_hand] + [rest[i * 13 : (i + 1) * 13] for i in range(game.players - 1)]
    aside = rest[(game.players - 1) * 13 :]
    record = {**game.config_json(), "draw": None, "rounds": [{
        "dealer": 0, "hands": [" ".join(map(str, h)) for h in hands],
        "aside": " ".join(map(str, aside)), "moves": []}]}
    return Game.replay(record)


def test_rule_text_first_competition_is_won_by_the_king_queen_jack_of_diamonds():  # H5
    groups = [parse_cards(t) for t in ("♦K♦Q♦J", "♦A♠2♠3", "♠8♠9♣7", "♥K♥J♥10")]
    result = score_position(groups)
    assert result.winner == 0 and result.tied == ()


def test_rule_text_second_competition_cancels_the_point():  # ruling H5
    groups = [parse_cards(t) for t in ("♦K♦Q♦J", "♦A♠2♠3", "♠8♠9♣7", "♥K♥Q♥J")]
    result = score_position(groups)
    assert result.winner is None and result.tied == (0, 3)


def test_an_out_of_order_grouping_is_refused_with_the_reason_and_nothing_changes():  # H4
    state = _state_with_hands(Game(), parse_cards(EXAMPLE_HAND))
    before = json.dumps(state.record())
    with pytest.raises(IllegalMove, match="Group 2, K♦ Q♦ J♦ .double sequence., is stronger than "
                       "group 1, A♠ 3♥ 2♦ .sequence.: put the groups strongest first"):
        state.play(0, "♠A♦2♥3 | ♦K♦Q♦J | ♣9♣8♥7 | ♥4♠4♥J ; ♠5")
    assert json.dumps(state.record()) == before and 0 in state.to_move


def test_a_grouping_with_cards_the_player_does_not_hold_is_refused():  # ruling H4
    state = _state_with_hands(Game(), parse_cards(EXAMPLE_HAND))
    with pytest.raises(IllegalMove, match="^You do not hold 6♠.$"):
        state.play(0, "♦K♦Q♦J | ♠A♦2♥3 | ♣9♣8♥7 | ♥4♠4♥J ; ♠6")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Kd Qd Jd | As 2d 3h | 9c 8c 7h | 4h 4s Jh", "card left out"),
        ("Kd Qd Jd | As 2d 3h | 9c 8c 7h ; 5s", "four groups"),
        ("Kd Qd | As 2d 3h | 9c 8c 7h | 4h 4s Jh ; 5s", "three different cards"),
        ("Kd Qd Jd | As 2d 3h | 9c 8c 7h | 4h 4s Jh ; Kd", "repeats"),
        ("Kd Qd Jd | As 2d 3h | 9c 8c 7h | 4h 4s Jh ; 5s 6s", "one card"),
        ("Kd Qd Xd | As 2d 3h | 9c 8c 7h | 4h 4s Jh ; 5s", "not a card"),
    ],
)
def test_malformed_groupings_raise_a_parse_error_saying_what_is_wrong(text, message):
    with pytest.raises(ParseError, match=message):
        Grouping.parse(text)


@given(st.permutations(DECK), st.integers(0, 10**6))
def test_grouping_text_parses_back_to_the_same_move(deck, seed):
    move = random_grouping(deck[:13], random.Random(seed))
    assert Grouping.parse(str(move)) == move


def test_no_view_shows_a_grouping_before_every_player_has_committed():  # ruling H4
    state = Game(players=3).new(seed=5)
    move = state.random_move(0, random.Random(1))
    state.play(0, move)
    assert state.to_move == (1, 2)
    assert state.view(0)["grouping"] == str(move)
    for seat in (1, 2, None):
        text = json.dumps(state.view(seat))
        assert not any(group in text for group in str(move).split(" ; ")[0].split(" | "))
    assert state.view(1)["grouping"] is None
    assert "hand" not in state.view(None)
    assert state.view(None)["committed"] == [True, False, False]


def test_a_commit_is_final():  # ruling H4
    state = Game().new(seed=2)
    state.play(0, state.random_move(0, random.Random(0)))
    with pytest.raises(IllegalMove, match="not your turn"):
        state.play(0, state.random_move(1, random.Random(0)))


def test_the_deal_passes_anticlockwise_and_groups_show_from_the_dealers_right():  # H6
    state = play_random(Game(players=4, length=6).new(seed=11), random.Random(3))
    rounds = state.view(None)["rounds"]
    dealers = [r["dealer"] for r in rounds]
    assert all((a - 1) % 4 == b for a, b in itertools.pairwise(dealers))
    assert rounds[0]["show_order"] == [(dealers[0] - k) % 4 for k in (1, 2, 3, 4)]


def test_three_players_get_13_cards_each_and_13_are_set_aside():  # ruling H1
    record = Game(players=3).new(seed=4).record()
    deal = record["rounds"][0]
    assert [len(parse_cards(h)) for h in deal["hands"]] == [13, 13, 13]
    assert len(parse_cards(deal["aside"])) == 13


@pytest.mark.parametrize("length", [1, 3, 5])
def test_a_round_game_ends_after_its_rounds(length):  # ruling H7
    state = play_random(Game(mode="rounds", length=length).new(seed=length), random.Random(0))
    assert state.round_number == length and state.to_move == ()


@pytest.mark.parametrize("target", [3, 10])
def test_a_point_game_ends_after_the_round_where_someone_reaches_the_target(target):  # H7
    state = play_random(Game(mode="points", length=target).new(seed=target), random.Random(9))
    rounds = state.view(None)["rounds"]
    totals = [0] * 4
    for number, entry in enumerate(rounds, 1):
        for position in entry["positions"]:
            if position["winner"] is not None:
                totals[position["winner"]] += 1
        assert (max(totals) >= target) == (number == len(rounds))
    assert list(state.scores) == totals


def test_players_level_on_points_are_ranked_by_the_recorded_draw():  # ruling H8
    for seed in range(200):
        state = play_random(Game(players=4, length=1).new(seed=seed), random.Random(seed))
        scores, draw = state.scores, state.record()["draw"]
        if scores.count(max(scores)) > 1:
            break
    else:
        pytest.fail("no tie at the top in 200 one-round games")
    top = [s for s in draw if scores[s] == max(scores)]
    assert state.ranking[: len(top)] == top
    assert state.outcome.winners == (top[0],)
    assert state.outcome.describe(NAMES, top[0]).endswith(", first in the draw.")
    record = state.record()
    record["draw"] = list(reversed(draw))
    assert Game.replay(record).outcome.winners == (top[-1],)


def test_a_scored_round_shows_every_seats_groups_with_their_types_and_the_winners():  # H5
    state = play_random(Game(players=3, length=2).new(seed=21), random.Random(21))
    record = state.record()
    for number, entry in enumerate(state.view(None)["rounds"]):
        moves = sorted(record["rounds"][number]["moves"])
        assert entry["groups"] == [text.split(" ; ")[0].split(" | ") for _, text in moves]
        for place, position in enumerate(entry["positions"]):
            groups = [parse_cards(seat_groups[place]) for seat_groups in entry["groups"]]
            assert position["types"] == [group_type(g).name for g in groups]
            assert position["winner"] == score_position(groups).winner


@pytest.mark.parametrize("seed", range(4))
def test_replaying_the_record_rebuilds_the_same_game(seed):
    game = Game(players=2 + seed % 3, mode="points", length=5)
    state = play_random(game.new(seed=seed), random.Random(seed))
    again = Game.replay(json.loads(json.dumps(state.record())))
    assert again.record() == state.record() and again.outcome == state.outcome
    assert again.view(1) == state.view(1)


def test_replay_of_an_unfinished_game_resumes_where_it_stopped():
    state = Game().new(seed=8)
    state.play(2, state.random_move(2, random.Random(0)))
    again = Game.replay(state.record())
    assert again.to_move == (0, 1, 3) and again.view(2) == state.view(2)


def test_replay_refuses_a_tampered_record_with_a_sentence():
    state = play_random(Game(length=2).new(seed=3), random.Random(3))
    record = state.record()
    bad_move = json.loads(json.dumps(record))
    seat, text = bad_move["rounds"][0]["moves"][0]
    groups, leftover = text.split(" ; ")
    first, *rest = groups.split(" | ")
    bad_move["rounds"][0]["moves"][0][1] = " | ".join([*rest, first]) + " ; " + leftover
    bad_dealer = json.loads(json.dumps(record))
    bad_dealer["rounds"][1]["dealer"] = (record["rounds"][0]["dealer"] + 1) % 4
    bad_deal = json.loads(json.dumps(record))
    bad_deal["rounds"][0]["hands"][1] = bad_deal["rounds"][0]["hands"][0]
    not_a_list = json.loads(json.dumps(record))
    not_a_list["rounds"][0]["moves"] = 5
    odd_draw = {**record, "draw": [0, "a", 2, 3]}
    unfinished_with_a_draw = {**record, "rounds": [{**record["rounds"][0], "moves": []}]}
    for broken in (bad_move, bad_dealer, bad_deal, not_a_list, odd_draw, unfinished_with_a_draw,
                   {"game": "chuko"}, {"game": "chuchula"}, {"game": "chuchula", "rounds": [3]}):
        with pytest.raises(ParseError):
            Game.replay(broken)


def test_copy_is_independent_of_the_original():
    state = Game().new(seed=6)
    twin = state.copy()
    play_random(twin, random.Random(1))
    assert state.round_number == 1 and state.to_move == (0, 1, 2, 3)
    assert twin.outcome is not None


@pytest.mark.slow
def test_legal_moves_list_every_valid_grouping_once_sorted_and_random_moves_are_among_them():
    state = Game().new(seed=1)
    moves = state.legal_moves(0)
    texts = [str(m) for m in moves]
    assert len(moves) >= 200_200  # 13 leftovers × 15,400 splits, more where groups tie
    assert texts == sorted(texts) and len(set(texts)) == len(texts)
    members = set(moves)
    rng = random.Random(2)
    assert all(state.random_move(0, rng) in members for _ in range(50))
    assert state.legal_moves(0) is moves  # cached for the round


@pytest.mark.parametrize(
    "config",
    [{"players": 1}, {"players": 5}, {"mode": "laps"}, {"length": 0}, {"players": "4"},
     {"players": True}, {"length": 101}],
)
def test_a_bad_configuration_is_refused_with_a_sentence(config):
    with pytest.raises(ConfigError):
        Game(**config)


def test_options_left_out_take_the_descriptors_defaults():
    assert Game.from_options({}) == Game.from_options(None) == Game(players=4, mode="rounds",
                                                                    length=5)
    assert Game.from_options({"players": "3", "mode": "Points", "length": " 10 "}) == Game(
        players=3, mode="points", length=10)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 5}, "Players must be a whole number from 2 to 4, not 5."),
        ({"mode": "laps"}, "Game length must be one of rounds, points, not 'laps'."),
        ({"length": 0}, "Rounds or points must be a whole number from 1 to 100, not 0."),
        ({"length": 101}, "Rounds or points must be a whole number from 1 to 100, not 101."),
    ],
)
def test_bad_options_are_refused_with_one_sentence(options, message):
    with pytest.raises(ConfigError) as refused:
        Game.from_options(options)
    assert str(refused.value) == message


def test_the_descriptors_limits_are_the_constructors():
    descriptor = Game.descriptor
    players = descriptor.option("players")
    assert (players.min, players.max) == (Game.min_players, Game.max_players)
    for option in descriptor.options:
        if option.kind == "int":
            for good in (option.min, option.max):
                assert getattr(Game(**{option.name: good}), option.name) == good
            for bad in (option.min - 1, option.max + 1):
                with pytest.raises(ConfigError):
                    Game(**{option.name: bad})
        else:
            chosen = {getattr(Game(**{option.name: c}), option.name) for c in option.choices}
            assert chosen == set(option.choices)
        assert getattr(Game(), option.name) == option.default


# --- replays: the record read back position by position ------------------------------------

RECORD_CARD = re.compile(r"(?:10|[2-9JQKA])[shdc]")
SHOWN_CARD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")


def _commits(record):
    """(round index, seat, whether it completed the round) for every commit, in order."""
    return [(number, seat, count == len(entry["hands"]))
            for number, entry in enumerate(record["rounds"])
            for count, (seat, _) in enumerate(entry["moves"], 1)]


def _record_cards(text):
    return set(RECORD_CARD.findall(text))


def test_frames_are_the_deal_then_one_per_commit_and_end_on_the_final_view():
    record = play_random(Game(players=3, length=2).new(seed=7), random.Random(7)).record()
    for seat in (0, 2, None):
        frames = Game.frames(record, NAMES[:3], seat)
        assert len(frames) == 1 + len(_commits(record)) == 7
        assert frames[0]["caption"] == "The deal."
        assert frames[-1]["view"] == Game.replay(record).view(seat)


@pytest.mark.parametrize("seat", [0, 1, 2, None])
def test_frames_show_a_seat_only_its_own_hand_and_grouping_until_the_round_is_scored(seat):
    record = play_random(Game(players=3, length=3).new(seed=12), random.Random(4)).record()
    rounds = record["rounds"]
    frames = Game.frames(record, NAMES[:3], seat)
    for frame, (number, mover, completed) in zip(frames[1:], _commits(record), strict=True):
        view = frame["view"]
        assert len(view["rounds"]) == number + completed
        for entry in view["rounds"]:  # scored rounds: everyone's groups, one's own leftover
            own = [text for s, text in rounds[entry["round"] - 1]["moves"] if s == seat]
            assert entry["leftover"] == (own[0].split(" ; ")[1] if own else None)
        if view["outcome"] is not None:  # the end shows every hand of the last round
            assert [" ".join(h) for h in view.pop("hands")] == rounds[-1]["hands"]
        # Everything else names only cards of the seat's own hand, as the record dealt it.
        hand = "" if seat is None else rounds[view["round"] - 1]["hands"][seat]
        unscored = json.dumps({k: v for k, v in view.items() if k != "rounds"})
        assert _record_cards(unscored) <= _record_cards(hand)
        if seat is not None and view["outcome"] is None:
            assert " ".join(view["hand"]) == hand
        # The caption shows cards only to the seat that committed them.
        held = rounds[number]["hands"][mover] if seat == mover else ""
        shown = " ".join(c[:-1] + "shdc"["♠♥♦♣".index(c[-1])]
                         for c in SHOWN_CARD.findall(frame["caption"]))
        assert _record_cards(shown) <= _record_cards(held)
        assert (seat == mover) == bool(shown)


def test_the_end_of_the_game_shows_every_seat_every_hand_of_the_last_round():
    state = Game(players=3, length=2).new(seed=9)
    rng = random.Random(9)
    while state.to_move:
        assert not any("hands" in state.view(seat) for seat in (None, 0, 1, 2))
        seat = state.to_move[0]
        state.play(seat, state.random_move(seat, rng))
    last = state.record()["rounds"][-1]["hands"]
    for seat in (None, 0, 1, 2):
        assert [" ".join(hand) for hand in state.view(seat)["hands"]] == last


def test_a_full_view_shows_every_hand_and_the_groupings_committed_so_far():
    state = Game(players=3).new(seed=6)
    move = state.random_move(1, random.Random(6))
    state.play(1, move)
    dealt = state.record()["rounds"][0]["hands"]
    for seat in (None, 0, 1, 2):
        full = state.full_view(seat)
        assert [" ".join(hand) for hand in full.pop("hands")] == dealt
        assert full.pop("groupings") == [None, str(move), None]
        assert full == state.view(seat)


def test_frames_with_reveal_show_every_hand_and_grouping_at_every_step():
    record = play_random(Game(players=3, length=2).new(seed=13), random.Random(13)).record()
    rounds = record["rounds"]
    frames = Game.frames(record, NAMES[:3], 2, reveal=True)
    # Every commit is named, where the seat read only its own live; the rest reads the same.
    hidden = [f["caption"] for f in Game.frames(record, NAMES[:3], 2)]
    named = 0
    for revealed, secret in zip([f["caption"] for f in frames], hidden, strict=True):
        head, secret_commit, tail = secret.partition(" committed a grouping.")
        if secret_commit:
            named += 1
            assert revealed.startswith(f"{head} committed: ") and revealed.endswith(tail)
        else:
            assert revealed == secret
    assert named == sum(seat != 2 for entry in rounds for seat, _ in entry["moves"])
    # (round, commits in it) each frame shows: a round's last commit deals the next round.
    playing = [(0, 0)]
    for number, entry in enumerate(rounds):
        for committed in range(1, len(entry["moves"]) + 1):
            dealt = committed == 3 and number + 1 < len(rounds)
            playing.append((number + 1, 0) if dealt else (number, committed))
    for frame, (number, committed) in zip(frames, playing, strict=True):
        view = frame["view"]
        assert [" ".join(hand) for hand in view["hands"]] == rounds[number]["hands"]
        moves = dict(rounds[number]["moves"][:committed])
        assert view["groupings"] == [moves.get(seat) for seat in range(3)]


def test_a_round_has_ended_from_its_last_commit_until_the_next_rounds_first():
    state = Game(players=3, length=3).new(seed=2)
    rng = random.Random(2)
    ended = [state.round_ended]
    while state.to_move:
        seat = state.to_move[-1]
        state.play(seat, state.random_move(seat, rng))
        ended.append(state.round_ended)
    # The deal, then three commits a round: rounds 1 and 2 end while the game goes on.
    assert ended == [False, False, False, True, False, False, True, False, False, False]
    one_round = play_random(Game(players=2, length=1).new(seed=1), rng)
    assert one_round.outcome is not None and not one_round.round_ended


def test_a_hundred_round_game_is_replayed_in_one_pass_each_deal_read_once(monkeypatch):
    from chuko.games import chuchula

    state = play_random(Game(players=2, length=100).new(seed=100), random.Random(100))
    record = state.record()
    work = Counter()

    def counted(name, function):
        def wrapper(*args, **kwargs):
            work[name] += 1
            return function(*args, **kwargs)
        monkeypatch.setattr(chuchula, name, wrapper)

    counted("_deal_from_record", chuchula._deal_from_record)
    counted("grouping_problem", chuchula.grouping_problem)
    counted("score_position", chuchula.score_position)
    frames = Game.frames(record, NAMES[:2], 0)
    assert len(frames) == 1 + 200
    assert work == {"_deal_from_record": 100, "grouping_problem": 200, "score_position": 400}
    assert frames[-1]["view"] == state.view(0)


def test_a_replay_never_deals_a_round_its_record_does_not_hold():
    record = play_random(Game(players=2, length=2).new(seed=2), random.Random(2)).record()
    cut = {**record, "rounds": record["rounds"][:1], "draw": None}
    with pytest.raises(ParseError, match="ends before the deal of round 2"):
        Game.replay(cut)


# --- words: each commit as a seat may know it ------------------------------------------------

SECOND_GROUPING = "♠K♠Q♠J | ♠10♠9♠8 | ♠7♠6♠3 | ♥6♥5♥2 ; ♠2"  # the second seat's hand


def _example_round(length):
    """Two seats commit: Ann the rule text's example, Hard bot SECOND_GROUPING. Position 1
    is a tie (K-Q-J against K-Q-J), 2 and 4 go to Hard bot, 3 to Ann."""
    state = _state_with_hands(Game(players=2, length=length), parse_cards(EXAMPLE_HAND))
    first, second = Grouping.parse(EXAMPLE_GROUPING), Grouping.parse(SECOND_GROUPING)
    state.play(0, first)
    return state, first, second


def test_a_commit_is_secret_to_the_others_and_shown_to_its_author_in_suit_symbols():
    state, first, _ = _example_round(length=2)
    names = NAMES[:2]
    assert state.describe(0, first, names, 0) == (
        "You committed: K♦ Q♦ J♦ · A♠ 3♥ 2♦ · 9♣ 8♣ 7♥ · 4♠ 4♥ J♥, leaving out 5♠.")
    assert state.describe(0, first, names, 1) == "Ann committed a grouping."
    assert state.describe(0, first, names, None) == "Ann committed a grouping."


def test_the_commit_that_completes_a_round_adds_its_points_and_the_cancelled_one():  # H5
    state, _, second = _example_round(length=2)
    state.play(1, second)
    names = NAMES[:2]
    result = "Position 1: Ann and you tied, so its point was cancelled."
    assert state.describe(1, second, names, 1) == (
        "You committed: K♠ Q♠ J♠ · 10♠ 9♠ 8♠ · 7♠ 6♠ 3♠ · 6♥ 5♥ 2♥, leaving out 2♠. "
        f"Round 1: you took 2 points; Ann took 1. {result}")
    assert state.describe(1, second, names, 0) == (
        "Hard bot committed a grouping. Round 1: Hard bot took 2 points; you took 1. "
        "Position 1: you and Hard bot tied, so its point was cancelled.")
    assert state.describe(1, second, names, None) == (
        "Hard bot committed a grouping. Round 1: Hard bot took 2 points; Ann took 1. "
        "Position 1: Ann and Hard bot tied, so its point was cancelled.")


def test_the_commit_that_ends_the_game_adds_the_outcome():
    state, _, second = _example_round(length=1)
    state.play(1, second)
    caption = state.describe(1, second, NAMES[:2], 0)
    assert caption.startswith("Hard bot committed a grouping. Round 1: Hard bot took 2 points")
    assert caption.endswith(" " + state.outcome.describe(NAMES[:2], 0))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_round_result_names_each_player_once_with_points_that_add_up(players):
    record = play_random(Game(players=players, length=4).new(seed=players),
                         random.Random(players)).record()
    names = NAMES[:players]
    for seat in (*range(players), None):
        frames = Game.frames(record, names, seat)
        results = [f["caption"] for f in frames if "Round " in f["caption"]]
        assert len(results) == 4
        for number, caption in enumerate(results, 1):
            assert "seat" not in caption.lower()
            head = re.search(rf"Round {number}: (.*?)\.", caption)[1]
            taken = {}
            for part in head.split("; "):
                if part == "nobody took a point":
                    continue
                found = re.fullmatch(r"(.+?) (?:took (\d+)(?: points?)?(?: each)?|none)", part)
                for player in re.split(", | and ", found[1]):
                    taken[player] = int(found[2] or 0)
            if taken:
                assert set(taken) == {"you" if s == seat else n for s, n in enumerate(names)}
                assert list(taken.values()) == sorted(taken.values(), reverse=True)
            cancelled = caption.count("its point was cancelled")
            assert sum(taken.values()) + cancelled == 4


# --- the outcome: the final ranking (H7, H8) -------------------------------------------------


def _ranking(scores, ranking, rounds):
    return FinalRanking(tuple(map(float, scores)), ranking[:1], "Over.", rounds, ranking)


@pytest.mark.parametrize(
    ("scores", "ranking", "rounds", "for_seat", "sentence"),
    [
        ((4, 2), (0, 1), 3, 0, "You win with 4 points after 3 rounds."),
        ((4, 2), (0, 1), 3, 1, "Ann wins with 4 points after 3 rounds; you have 2 points."),
        ((4, 2), (0, 1), 3, None, "Ann wins with 4 points after 3 rounds."),
        ((4, 4), (1, 0), 3, 1,
         "You win with 4 points after 3 rounds, level with Ann, first in the draw."),
        ((4, 4), (1, 0), 3, 0,
         "Hard bot wins with 4 points after 3 rounds, level with you, first in the draw."),
        ((1, 0, 0), (0, 1, 2), 1, 0, "You win with 1 point after 1 round."),
        ((5, 3, 1), (0, 1, 2), 5, 1, "Ann wins with 5 points after 5 rounds; you have 3 points."),
        ((2, 2, 0), (1, 0, 2), 2, 2,
         "Hard bot wins with 2 points after 2 rounds, level with Ann, first in the draw; "
         "you have 0 points."),
        ((3, 3, 3, 1), (2, 0, 1, 3), 4, 2,
         "You win with 3 points after 4 rounds, level with Ann and Hard bot, first in the draw."),
        ((3, 3, 3, 1), (2, 0, 1, 3), 4, 0,
         "Bob wins with 3 points after 4 rounds, level with you and Hard bot, first in the "
         "draw."),
        ((3, 3, 3, 1), (2, 0, 1, 3), 4, 3,
         "Bob wins with 3 points after 4 rounds, level with Ann and Hard bot, first in the "
         "draw; you have 1 point."),
        ((6, 2, 1, 1), (0, 1, 3, 2), 4, None, "Ann wins with 6 points after 4 rounds."),
    ],
)
def test_the_outcome_names_the_winner_the_players_level_with_them_and_the_readers_points(
        scores, ranking, rounds, for_seat, sentence):
    names = NAMES[: len(scores)]
    assert _ranking(scores, ranking, rounds).describe(names, for_seat) == sentence


def test_a_played_game_ends_with_its_ranking_and_a_reason_naming_no_seat():
    state = play_random(Game(players=3, mode="points", length=3).new(seed=9), random.Random(9))
    outcome = state.outcome
    assert outcome.ranking == tuple(state.ranking) and outcome.winners == outcome.ranking[:1]
    assert outcome.rounds == state.round_number
    assert outcome.reason == "A player reached the target of 3 points."
    assert outcome.to_json()["ranking"] == state.ranking
    again = Game.replay(json.loads(json.dumps(state.record())))
    assert again.outcome == outcome


# --- chance made explicit (H6 deals, H8 tie draw) ----------------------------------------------


def test_seeded_games_deal_as_they_always_have():
    # Pinned from the engine before chance was made explicit: stored seeds keep their games.
    record = Game(players=2).new(seed=0).record()
    assert record["deal"]["dealer"] == 1
    assert record["deal"]["hands"][0] == "As Kc 10d 9s 9d 7s 6s 5d 5c 4c 3s 2s 2c"


def test_new_is_the_seeded_dealer_then_the_shuffle_through_from_order():
    game = Game(players=3)
    rng = random.Random(7)
    dealer = rng.randrange(3)
    order = game.deck()
    rng.shuffle(order)
    assert game.from_order(order, [dealer]).record() == game.new(seed=7).record()
    assert game.deal_choices() == (3,) and sorted(game.deck()) == sorted(DECK)


def test_from_order_deals_thirteen_cards_a_seat_in_seat_order_and_sets_the_rest_aside():
    order = [str(card) for card in reversed(DECK)]
    deal = Game(players=3).from_order(order, [2]).record()["deal"]
    assert deal["dealer"] == 2
    assert [h.split() for h in deal["hands"]] == [
        sorted(order[i * 13 : (i + 1) * 13], key=lambda t: parse_cards(t)[0], reverse=True)
        for i in range(3)
    ]
    assert len(deal["aside"].split()) == 13


@pytest.mark.parametrize("order, choices, words", [
    (list(DECK)[:51], [0], "52 cards"),
    ([*list(DECK)[:51], DECK[0]], [0], "52 cards"),
    ([*list(DECK)[:51], "Zz"], [0], "not a card"),
    ("As Ks", [0], "list of cards"),
    (list(DECK), [4], "first dealer"),
    (list(DECK), [], "first dealer"),
    (list(DECK), [True], "first dealer"),
])
def test_from_order_refuses_what_is_no_shuffle_in_one_sentence(order, choices, words):
    with pytest.raises(ConfigError, match=words) as refused:
        Game(players=4).from_order(order, choices)
    assert str(refused.value).count(".") == 1


def test_from_deal_starts_from_a_records_deal_and_refuses_another_games():
    record = play_random(Game(players=2, length=1).new(seed=5), random.Random(5)).record()
    again = Game(players=2, length=1).from_deal(record["deal"], rng=random.Random(1))
    assert again.record() == {**record, "rounds": [{**record["rounds"][0], "moves": []}],
                              "draw": None}
    # The dealer is the deal's, never drawn: a deal without one is refused in a sentence.
    unnamed = {key: value for key, value in record["deal"].items() if key != "dealer"}
    with pytest.raises(ConfigError, match='^The deal must say who deals: add "dealer", a seat '
                                          r"from 0 to 1\.$"):
        Game(players=2, length=1).from_deal(unnamed)
    stolen = {**record["deal"], "hands": [record["deal"]["hands"][0]] * 2}
    for deal in (stolen, {**record["deal"], "dealer": 2}, {"hands": []}, "As", None):
        with pytest.raises(ConfigError):
            Game(players=2, length=1).from_deal(deal)
    with pytest.raises(ConfigError, match="each of the 3 players"):
        Game(players=3).from_deal(record["deal"])


def test_explicit_chance_deals_each_later_round_card_by_card_and_the_draw_seat_by_seat():
    game = Game(players=3, length=2)
    state = game.from_order(game.deck(), [0], explicit_chance=True)
    seen = []
    play_with_chance(state, random.Random(3), lambda s: seen.append(
        (s.round_number, s.to_move, len(s.chance_outcomes()), s.outcome)))
    # Round 2's 39 hand cards one by one (52 down to 14 left), then the draw (3, then 2 seats).
    assert [n for _, _, n, _ in seen] == [*range(52, 13, -1), 3, 2]
    assert {(r, m, o) for r, m, _, o in seen} == {(1, (), None), (2, (), None)}
    record = state.record()
    assert record["explicit_chance"] is True and sorted(record["draw"]) == [0, 1, 2]
    assert len(record["rounds"]) == 2 and record["rounds"][1]["dealer"] == 2  # H6
    assert Game.replay(json.loads(json.dumps(record))).record() == record


def test_a_record_taken_at_any_chance_node_replays_to_that_node():
    state = Game(players=4, length=2).new(seed=1)
    explicit = Game(players=4, length=2).from_deal(state.record()["deal"], explicit_chance=True)
    checked = []

    def check(state):
        if len(checked) % 7 == 0 or len(state.chance_outcomes()) <= 4:
            record = json.loads(json.dumps(state.record()))
            again = Game.replay(record)
            assert again.record() == record and again.is_chance
            assert again.chance_outcomes() == state.chance_outcomes()
        checked.append(1)

    play_with_chance(explicit, random.Random(1), check)
    assert len(checked) == 51 + 3  # the 52nd card and the last seat of the draw are forced


def test_chance_outcomes_are_uniform_and_anything_else_is_refused_unchanged():
    game = Game(players=2, length=2)
    state = game.from_order(game.deck(), [0], explicit_chance=True)
    with pytest.raises(IllegalMove, match="Nothing is left to chance"):
        state.apply_chance("As")
    assert state.chance_outcomes() == [] and not state.is_chance
    for seat in (0, 1):
        state.play(seat, state.random_move(seat, random.Random(seat)))
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and {p for _, p in outcomes} == {1 / 52}
    state.apply_chance("As")
    before = state.record()
    for wrong in ("As", "Zz", 5, None):
        with pytest.raises(IllegalMove):
            state.apply_chance(wrong)
    with pytest.raises(IllegalMove, match="not your turn"):
        state.play(0, random_grouping(DECK[:13], random.Random(0)))
    assert state.record() == before and state.round_ended


def test_reseed_makes_the_rest_of_a_game_the_same_from_its_dealt_record_and_moves():
    state = Game(players=2, length=3).new(seed=2)
    rebuilt = Game.replay(state.record())
    state.reseed(9)
    rebuilt.reseed(9)
    moves = random.Random(2)
    for _ in range(3):
        for seat in (0, 1):
            move = state.random_move(seat, moves)
            state.play(seat, move)
            rebuilt.play(seat, move)
    assert rebuilt.record() == state.record() and state.outcome is not None


def test_a_records_deal_must_be_its_first_rounds():
    record = Game(players=2).new(seed=4).record()
    assert record["deal"] == {k: record["rounds"][0][k] for k in ("dealer", "hands", "aside")}
    with pytest.raises(ParseError, match="first round"):
        Game.replay({**record, "deal": {**record["deal"], "dealer": 1 - record["deal"]["dealer"]}})
    for pending in (["As"], 3):  # no chance is pending in this record
        with pytest.raises(ParseError):
            Game.replay({**record, "pending_chance": pending})
