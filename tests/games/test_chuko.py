"""Chükö rules (K1–K8), records, views and the fast playout path."""

import json
import random
import re

import pytest
from chance_helpers import play_with_chance
from hypothesis import given
from hypothesis import strategies as st

from chuko.core.errors import ChukoError, ConfigError, IllegalMove, ParseError
from chuko.core.packs import PACKS
from chuko.games.chuko import (
    MAX_TURN_LIMIT,
    TURN_LIMIT,
    Game,
    Move,
    State,
    deal_size,
    may_follow,
    sampler,
)


def position(hands, top, draw=(), first=0, turn_limit=1000, seed=0):
    """A state dealt exactly these hands, top card and draw pile (next card first); the pack
    is every card used."""
    cards = [c for h in hands for c in h] + [top] + list(draw)
    game = Game(players=len(hands), pack=tuple(cards), first=first, turn_limit=turn_limit)
    assert all(len(h) == game.hand_size for h in hands), "not a deal that K3 allows"
    return State(game, [list(h) for h in hands], top, list(draw), first, random.Random(seed))


def recycling(seed=3):
    """A game with no draw pile where seat 0, after six plays, must reset on a 7: the six
    cards beneath the top are recycled and seat 0 draws one; its reset is pending."""
    state = position([[22, 9, 8, 30], [14, 7, 6, 2]], top=15, seed=seed)
    for seat, card in ((0, "9"), (1, "6"), (0, "8"), (1, "14"), (0, "22"), (1, "7")):
        state.play(seat, card)
    assert [str(m) for m in state.legal_moves(0)] == ["reset"]
    state.play(0, "reset")
    return state


def random_games(players=2, count=50, pack=PACKS["standard"], seed=0):
    """Finished random games, played through the public protocol."""
    rng = random.Random(seed)
    game = Game(players=players, pack=pack)
    for index in range(count):
        state = game.new(seed * 1000 + index)
        while state.outcome is None:
            seat = state.to_move[0]
            state.play(seat, state.random_move(seat, rng))
        yield state


def snapshot(state):
    return json.dumps([state.record(), [state.view(s) for s in range(state.game.players)]])


# -- K1 and the rule text's example ------------------------------------------------------


def test_rule_text_example_on_15_21_and_11_may_be_played_but_not_22():  # ruling K1
    assert may_follow(21, 15)  # shares the factor 3
    assert may_follow(11, 15)  # lower
    assert not may_follow(22, 15)
    state = position([[11, 21, 22], [2, 6, 7]], top=15)
    assert [str(m) for m in state.legal_moves(0)] == ["11", "21", "reset"]
    with pytest.raises(IllegalMove) as error:
        state.play(0, "22")
    assert str(error.value) == (
        "22 cannot follow 15: it shares no prime factor with it and is not lower; reset to play "
        "it anyway.")


def test_one_matches_nothing_but_is_lower_than_any_other_card():  # rulings G1, K1
    assert may_follow(1, 2)
    assert not may_follow(7, 1)
    assert not may_follow(1, 1)
    assert may_follow(7, 7)  # equal cards above 1 match


def test_on_a_1_only_a_reset_is_legal():  # ruling K1, K2
    state = position([[2, 3], [4, 5]], top=1, draw=[6])
    assert state.legal_moves(0) == [Move(None)]


# -- K3 the deal ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", range(1, 25))
def test_deal_sizes_follow_k3_for_packs_of_every_size(size):  # ruling K3
    pack = tuple(range(2, 2 + size))
    for players in range(2, size + 2):
        h = min(5, (size - 1) // players)
        if h < 1:
            with pytest.raises(ConfigError, match="cannot be dealt"):
                Game(players=players, pack=pack)
            continue
        state = Game(players=players, pack=pack).new(seed=size * 100 + players)
        assert deal_size(size, players) == h
        assert state.view(None)["hand_sizes"] == [h] * players
        assert state.view(None)["draw_size"] == size - players * h - 1
        assert len(state.view(None)["pile"]) == 1


def test_configurations_that_cannot_play_are_refused_with_a_sentence():
    for bad in (
        {"players": 1},
        {"players": 12},  # the standard pack of 12 serves at most 11 players
        {"pack": "2,x"},
        {"pack": [2, 0, 3]},
        {"first": 2},
        {"turn_limit": 0},
    ):
        with pytest.raises(ChukoError) as error:
            Game(**bad)
        assert str(error.value).endswith(".")


def one_sentence(text):
    return text.endswith(".") and not re.search(r"[.!?] [A-Z]", text)


def test_options_default_to_two_players_the_standard_pack_and_no_turn_limit():  # G5, K8
    game = Game.from_options()
    assert (game.players, game.pack, game.turn_limit) == (2, PACKS["standard"], None)
    assert Game.from_options({"players": "", "pack": None, "turn_limit": 0}) == game


def test_options_read_a_pack_range_and_numbers_given_as_text():
    game = Game.from_options({"players": "3", "pack": "2-30", "turn_limit": "500"})
    assert (game.players, game.pack, game.turn_limit) == (3, tuple(range(2, 31)), 500)


def test_a_game_of_bots_alone_gets_the_turn_limit_unless_one_is_given():  # ruling K8
    assert Game.from_options(bots_only=True).turn_limit == TURN_LIMIT
    assert Game.from_options({"turn_limit": 0}, bots_only=True).turn_limit == TURN_LIMIT
    assert Game.from_options({"turn_limit": 50}, bots_only=True).turn_limit == 50


@pytest.mark.parametrize("options", [
    {"players": "x"},
    {"players": 1},
    {"players": True},
    {"players": 2.5},
    {"pack": "2,x"},
    {"pack": "9-2"},
    {"pack": [2, 0, 3]},
    {"turn_limit": -1},
    {"turn_limit": MAX_TURN_LIMIT + 1},
    {"turn_limit": "ten"},
    {"colour": "red"},
])
def test_bad_options_are_refused_in_one_sentence(options):
    with pytest.raises(ChukoError) as error:
        Game.from_options(options)
    assert one_sentence(str(error.value)), str(error.value)


def test_more_players_than_the_pack_serves_are_refused_by_ruling_k3():  # ruling K3
    assert Game.from_options({"players": 11}).hand_size == 1
    with pytest.raises(ConfigError) as error:
        Game.from_options({"players": 12})
    assert str(error.value) == (
        "A pack of 12 cards cannot be dealt to 12 players: each needs at least one card and "
        "one more must start the play pile, so it serves at most 11 players."
    )
    with pytest.raises(ConfigError, match="serves at most 3 players"):
        Game.from_options({"players": 4, "pack": "2-5"})
    with pytest.raises(ConfigError, match="serves at most 1 player[.]"):
        Game.from_options({"players": 2, "pack": "2,3"})


def test_a_seed_deals_the_same_game_and_the_first_seat_can_be_given():  # ruling K4
    assert Game(players=3).new(7).record() == Game(players=3).new(7).record()
    assert {Game(players=3).new(s).first for s in range(30)} == {0, 1, 2}
    assert Game(players=3, first=2).new(1).to_move == (2,)


# -- playing, K2 resets, recycling, K5 ending ------------------------------------------------


def test_play_passes_clockwise_and_the_played_card_goes_on_top():  # ruling K4
    state = position([[14, 9], [6, 7], [8, 3]], top=15, draw=[2])
    state.play(0, "9")
    assert state.top == 9 and state.to_move == (1,)
    state.play(1, "6")
    state.play(2, "3")
    assert state.to_move == (0,)


def test_a_reset_draws_then_plays_any_card_including_the_drawn_one():  # ruling K2
    state = position([[22, 9], [6, 7]], top=15, draw=[8])
    state.play(0, "reset")
    assert state.to_move == (0,) and state.pending_reset
    assert state.view(0)["drawn"] == 8 and state.view(0)["hand"] == [8, 9, 22]
    assert [str(m) for m in state.legal_moves(0)] == ["8", "9", "22"]
    state.play(0, "22")  # could not follow 15 normally
    assert state.top == 22 and state.to_move == (1,)
    assert state.record()["turns"] == [{"seat": 0, "kind": "reset", "card": 22, "drew": 8}]


def test_a_reset_is_allowed_even_when_a_normal_play_exists():  # ruling K2
    state = position([[9], [6]], top=15, draw=[8])
    state.play(0, "r")
    state.play(0, "8")
    assert state.view(None)["hand_sizes"] == [1, 1]


def test_an_empty_draw_pile_is_refilled_from_the_pile_beneath_the_top():  # ruling K2
    state = recycling()
    turn = state.record()["turns"][-1]
    assert sorted(turn["recycled"]) == [6, 8, 9, 14, 15, 22]
    assert turn["drew"] == turn["recycled"][0]  # the next card is the one drawn
    assert state.view(None)["pile"] == [7]
    assert state.view(None)["draw_size"] == 5
    state.play(0, str(turn["drew"]))
    assert Game.replay(state.record()).record() == state.record()


def test_a_free_reset_draws_nothing_and_can_win():  # ruling K2, K5
    state = position([[22], [6]], top=15)
    state.play(0, "reset")
    assert state.view(0)["drawn"] is None and state.view(0)["hand"] == [22]
    state.play(0, "22")
    assert state.winner == 0
    assert state.outcome.winners == (0,) and state.outcome.scores == (1.0, 0.0)
    assert state.to_move == () and state.legal_moves(1) == []
    assert state.view(1)["recent"][0]["free"] is True
    assert Game.replay(state.record()).winner == 0


def test_emptying_the_hand_with_a_normal_play_wins_at_once():  # ruling K5
    state = position([[9, 2], [6, 7]], top=15, draw=[8])
    state.play(0, "9")
    state.play(1, "6")
    state.play(0, "2")
    assert state.winner == 0 and state.view(None)["hand_sizes"] == [0, 1]


def test_chuko_is_marked_when_a_hand_goes_down_to_one_card():  # ruling K7
    state = position([[9, 2], [6, 7]], top=15, draw=[8])
    state.play(0, "9")
    state.play(1, "r")
    state.play(1, "8")
    assert [t["chuko"] for t in state.view(0)["recent"]] == [True, False]


def test_the_turn_limit_ends_the_game_with_no_winner():  # ruling K8
    state = position([[9, 8, 2], [6, 7, 3]], top=15, draw=[10], turn_limit=3)
    for seat, card in ((0, "9"), (1, "7"), (0, "2")):
        state.play(seat, card)
    assert state.outcome is not None and state.winner is None
    assert state.outcome.winners == () and "turn limit" in state.outcome.reason
    assert state.record()["winner"] is None


def test_every_random_game_ends_under_the_default_turn_limit():  # ruling K8
    for players in (2, 3, 5):
        for state in random_games(players, count=40, pack=PACKS["large"], seed=players):
            assert state.turns_played <= 1000


# -- illegal moves ----------------------------------------------------------------------------


def test_every_kind_of_illegal_move_is_refused_and_changes_nothing():
    state = position([[22, 9], [6, 7]], top=15, draw=[8])
    before = snapshot(state)
    for seat, move, error in (
        (1, "6", IllegalMove),  # not this seat's turn
        (0, "7", IllegalMove),  # not in the hand
        (0, "22", IllegalMove),  # cannot follow 15
        (0, "fifteen", ParseError),
        (0, "0", ParseError),
        (0, Move(30), IllegalMove),
        (0, 22, IllegalMove),  # not a move value
    ):
        with pytest.raises(error):
            state.play(seat, move)
        assert snapshot(state) == before
    state.play(0, "reset")
    pending = snapshot(state)
    with pytest.raises(IllegalMove, match="already drawn"):
        state.play(0, "reset")
    assert snapshot(state) == pending
    with pytest.raises(IllegalMove):
        state.reset([1, 2])  # a recycle that did not happen
    assert snapshot(state) == pending


def test_no_move_after_the_game_is_over():
    state = position([[22], [6]], top=15)
    state.play(0, "r")
    state.play(0, "22")
    over = snapshot(state)
    for move in ("6", "reset"):
        with pytest.raises(IllegalMove, match="over"):
            state.play(1, move)
    assert snapshot(state) == over


# -- moves ---------------------------------------------------------------------------------------


@given(st.one_of(st.none(), st.integers(1, 10**6)))
def test_move_text_round_trips(card):
    move = Move(card)
    assert Move.parse(str(move)) == move
    assert Move.parse(f"  PLAY {move} ") == move


@given(st.text(max_size=12))
def test_any_text_is_a_move_or_a_parse_error(text):
    try:
        assert isinstance(Game.parse_move(text), Move)
    except ParseError as error:
        assert str(error)


def test_legal_moves_are_distinct_and_sorted_with_duplicate_cards():  # ruling G2
    state = position([[6, 6, 4, 35], [6, 9, 2, 3]], top=8, draw=[10])
    assert [str(m) for m in state.legal_moves(0)] == ["4", "6", "reset"]
    state.play(0, "r")
    assert [str(m) for m in state.legal_moves(0)] == ["4", "6", "10", "35"]


def test_legal_moves_are_in_sorted_order():
    for state in random_games(3, count=10, seed=4):
        replay = Game.replay({**state.record(), "turns": [], "winner": None})
        moves = replay.legal_moves(replay.to_move[0])
        assert moves == sorted(moves) and moves[-1] == Move(None)


# -- records ----------------------------------------------------------------------------------


def test_a_record_holds_the_issue_fields_and_replays_exactly():
    for players in (2, 4):
        for state in random_games(players, count=30, seed=players):
            record = json.loads(json.dumps(state.record()))
            assert {"game", "pack", "players", "first", "deal", "turns", "winner"} <= set(record)
            assert set(record["deal"]) == {"hands", "top", "draw"}
            replayed = Game.replay(record)
            assert replayed.record() == record
            assert replayed.outcome == state.outcome


def test_an_unfinished_game_with_a_pending_reset_replays():
    state = recycling()
    replayed = Game.replay(state.record())
    assert replayed.pending_reset and replayed.view(0) == state.view(0)


def test_a_tampered_record_is_refused_with_a_reason():
    state = recycling()
    state.play(0, "30")
    good = state.record()

    def tampered(change):
        record = json.loads(json.dumps(good))
        change(record)
        with pytest.raises(ChukoError) as error:
            Game.replay(record)
        return str(error.value)

    assert "not a Chükö" in tampered(lambda r: r.update(game="caravan"))
    assert "Turn 7" in tampered(lambda r: r["turns"][6].update(drew=99))
    assert "Turn 7" in tampered(lambda r: r["turns"][6].update(recycled=[2, 2]))
    assert "Turn 7" in tampered(lambda r: r["turns"][6].pop("recycled"))
    assert "Turn 1" in tampered(lambda r: r["turns"][0].update(seat=1))
    assert "Turn 1" in tampered(lambda r: r["turns"][0].update(card=22))
    assert "winner" in tampered(lambda r: r.update(winner=1))
    assert "deal" in tampered(lambda r: r["deal"].update(top=31))
    assert tampered(lambda r: r["deal"].update(hands=[[22, 9, 8, 30]]))
    assert tampered(lambda r: r.update(turns=[{"seat": 0, "kind": "play", "card": 9.5}]))
    assert tampered(lambda r: r.update(players=1))


# -- views (ruling K6) ----------------------------------------------------------------------------


def scrambled(state, seat):
    """The same position with every card `seat` may not know replaced by other numbers:
    other hands, the draw pile, the undrawn deal, cards others drew and a recycle's order."""
    other = state.copy()
    fake = iter(range(10**6, 10**7))
    other._hands = [h if s == seat else [next(fake) for _ in h] for s, h in enumerate(other._hands)]
    other._draw = [next(fake) for _ in other._draw]
    other._turns = [
        (
            who,
            kind,
            card,
            drew if who == seat or drew is None else next(fake),
            None if recycled is None else tuple(reversed(recycled)),  # the order is secret
            chuko,
        )
        for who, kind, card, drew, recycled, chuko in other._turns
    ]
    other._since = [drawn if s == seat else [next(fake) for _ in drawn]
                    for s, drawn in enumerate(other._since)]
    return other


def test_no_view_holds_a_card_its_seat_may_not_know():  # ruling K6
    rng = random.Random(11)
    for players in (2, 3, 4):
        game = Game(players=players)
        for index in range(25):
            state = game.new(index)
            while state.outcome is None:
                mover = state.to_move[0]
                state.play(mover, state.random_move(mover, rng))
                for seat in [None, *range(players)]:
                    view = state.view(seat)
                    blind = scrambled(state, seat).view(seat)
                    if state.outcome is None:
                        assert "hands" not in view
                    else:  # the end shows every hand, and nothing more
                        assert view.pop("hands") == [state.hand(s) for s in range(players)]
                        blind.pop("hands")
                    assert blind == view
                    assert view["hand"] == (None if seat is None else state.hand(seat))
                    assert "deal" not in view and "draw" not in view


NAMES = ["Ann", "Hard bot", "Easy bot"]


def test_a_replay_shows_the_deal_and_every_move_a_reset_and_its_card_apart():
    for players in (2, 3):
        for state in random_games(players, count=15, seed=20 + players):
            record = state.record()
            moves = sum(1 + (t["kind"] == "reset" and "card" in t) for t in record["turns"])
            for seat in [None, *range(players)]:
                frames = Game.frames(record, NAMES[:players], seat)
                assert len(frames) == 1 + moves
                assert frames[0]["caption"] == "The deal."
                assert frames[-1]["view"] == state.view(seat)


def test_a_replay_observes_moves_as_values_with_the_seat_that_moved():
    state = recycling()
    state.play(0, "30")
    seen = []
    Game.replay(state.record(), lambda s, seat, move: seen.append((seat, move, s.top)))
    assert seen[0] == (None, None, 15)
    assert seen[1:3] == [(0, Move(9), 9), (1, Move(6), 6)]
    assert seen[-2:] == [(0, Move(None), 7), (0, Move(30), 30)]


def test_a_pending_reset_replays_as_its_own_last_frame():
    state = recycling()
    frames = Game.frames(state.record(), NAMES[:2], 0)
    assert len(frames) == 8
    assert frames[-1]["view"] == state.view(0) and frames[-1]["view"]["phase"] == "reset"


def test_no_frame_of_a_replay_shows_a_seat_a_card_it_may_not_know():  # ruling K6
    for players in (2, 3):
        # Eleven cards: recycles and free resets are frequent.
        for state in random_games(players, count=10, pack="2-12", seed=30 + players):
            record = state.record()
            for seat in [None, *range(players)]:
                expected = []

                def observe(now, mover, move, seat=seat, expected=expected):
                    blind = scrambled(now, seat)
                    caption = ("The deal." if mover is None
                               else blind.describe(mover, move, NAMES, seat))
                    view = blind.view(seat)
                    if now.outcome is not None:  # the last frame shows every hand
                        view["hands"] = [now.hand(s) for s in range(now.game.players)]
                    expected.append({"view": view, "caption": caption})

                Game.replay(record, observe)
                assert Game.frames(record, NAMES, seat) == expected


def test_the_end_of_the_game_shows_every_seat_every_hand():
    for players in (2, 3):
        for state in random_games(players, count=5, seed=40 + players):
            hands = [state.hand(s) for s in range(players)]
            assert hands[state.winner] == [] and all(hands[s] for s in range(players)
                                                     if s != state.winner)
            for seat in [None, *range(players)]:
                assert state.view(seat)["hands"] == hands


def test_a_full_view_shows_every_hand_and_every_drawn_card_at_any_position():
    rng = random.Random(5)
    state = Game(players=3, pack="2-12").new(seed=5)
    resets = 0
    while state.outcome is None:
        mover = state.to_move[0]
        state.play(mover, state.random_move(mover, rng))
        turns = state.record()["turns"]
        drawn = [t.get("drew") for t in turns if t["kind"] == "reset"]
        resets = len(drawn)
        for seat in [None, *range(3)]:
            view, full = state.view(seat), state.full_view(seat)
            assert full.pop("hands") == [state.hand(s) for s in range(3)]
            for turn in full["recent"]:
                assert turn.get("drew") == turns[turn["number"] - 1].get("drew")
            if state.pending_reset:
                assert full["drawn"] == drawn[-1]
            hidden = ("recent", "drawn", "hands")
            assert {k: v for k, v in full.items() if k not in hidden} == {
                k: v for k, v in view.items() if k not in hidden}
    assert resets > 3  # the game drew cards the full views had to show


def test_frames_with_reveal_show_every_hand_at_every_position():
    state = next(random_games(3, count=1, seed=8))
    record = state.record()
    hands = []
    Game.replay(record, lambda now, *_: hands.append([now.hand(s) for s in range(3)]))
    for seat in (None, 0):
        frames = Game.frames(record, NAMES, seat, reveal=True)
        assert [frame["view"]["hands"] for frame in frames] == hands
        hidden = Game.frames(record, NAMES, seat)
        assert [f["caption"] for f in frames] == [f["caption"] for f in hidden]
        assert ["hands" in f["view"] for f in hidden] == [False] * (len(hidden) - 1) + [True]


def test_a_recycle_shows_which_cards_but_not_their_order():  # ruling K6
    state = recycling()
    order = state.record()["turns"][-1]["recycled"]
    assert order != sorted(order)  # this seed shuffles them out of order
    assert state.view(1)["recent"][-1]["recycled"] == sorted(order)
    assert state.view(1)["recycled"] == sorted(order)
    assert "drew" not in state.view(1)["recent"][-1]
    assert state.view(1)["drawn_since"] == []
    assert state.view(0)["recent"][-1]["drew"] == order[0]
    assert state.view(0)["drawn_since"] == [order[0]]


def test_a_view_of_a_seat_that_does_not_exist_is_refused():
    with pytest.raises(ConfigError):
        Game().new(1).view(2)


# -- the fast path and copies -----------------------------------------------------------


def test_playout_plays_the_same_game_as_random_moves_through_play():
    for players in (2, 3, 4):
        for seed in range(30):
            fast = Game(players=players).new(seed)
            slow = fast.copy()
            fast.playout(random.Random(seed))
            rng = random.Random(seed)
            while slow.outcome is None:
                seat = slow.to_move[0]
                slow.play(seat, slow.random_move(seat, rng))
            assert fast.record() == slow.record()


def test_a_copy_is_independent_of_its_original():
    state = Game(players=3).new(4)
    before = snapshot(state)
    state.copy().playout(random.Random(1))
    assert snapshot(state) == before


def test_copies_recycle_as_the_original_would_each_with_its_own_generator():
    # Copies share the generator until one shuffles; whoever shuffles first takes its own.
    state = Game(players=2).new(5)
    rng = random.Random(3)
    while state.outcome is None and not (state._draw == [] and len(state._pile) > 1
                                         and not state.pending_reset):
        seat = state.to_move[0]
        state.play(seat, state.random_move(seat, rng))
    assert state.outcome is None, "the seed must reach a recycle"
    first, second = state.copy(), state.copy()
    first.play(first.to_move[0], "reset")  # recycles, so shuffles
    later = first.copy()
    for other in (state, second):
        other.play(other.to_move[0], "reset")
        assert other._draw == first._draw and other._pile == first._pile
    for again in (first, later, state):  # the generators went on alike, from the same state
        assert again._rng.getstate() == second._rng.getstate()
    assert first._rng is not state._rng is not second._rng


# -- sampling hidden cards for search ----------------------------------------------------


def test_sampled_positions_agree_with_the_view_they_come_from():  # ruling K6
    rng = random.Random(2)
    for state in random_games(3, count=20, seed=9):
        record = state.record()
        replay = Game.replay({**record, "turns": [], "winner": None})
        for turn in record["turns"]:
            seat = replay.to_move[0]
            view = replay.view(seat)
            world = sampler(view)(rng)
            # The whole view, public summaries included (plays, resets, the last recycle):
            # a world that shows the seat anything else is not one it could be in.
            assert world.view(seat) == view
            hidden = sorted(c for s in range(3) if s != seat for c in world.hand(s))
            hidden += world._draw
            assert sorted(hidden + view["hand"] + view["pile"]) == sorted(record["pack"])
            if turn["kind"] == "play":
                replay.play(turn["seat"], str(turn["card"]))
            else:
                replay.reset(turn.get("recycled"))
                if "card" in turn:
                    replay.play(turn["seat"], str(turn["card"]))


@pytest.mark.parametrize("explicit", [False, True])
def test_a_sampled_world_shows_the_seat_its_own_view_until_the_end(explicit):  # ruling K6
    game, rng = Game(players=3, pack="1-20"), random.Random(4)
    for deal in range(40):
        order = game.deck()
        rng.shuffle(order)
        state = game.from_order(order, [deal % 3], rng=random.Random(deal),
                                explicit_chance=explicit)
        while True:
            for seat in range(3):
                view = state.view(seat)
                world = sampler(view, explicit_chance=explicit)(rng)
                assert world.view(seat) == view and world.is_chance == state.is_chance
                if world.outcome is None:  # and it plays on by the rules
                    assert world.playout(rng) is not None
            if state.outcome is not None:
                break
            if state.is_chance:
                state.apply_chance(rng.choice(state.chance_outcomes())[0])
            else:
                state.play(state.to_move[0], state.random_move(state.to_move[0], rng))


def test_after_a_recycle_the_sampled_draw_pile_holds_only_recycled_cards_not_drawn_since():
    state = recycling()
    drew = state.view(0)["drawn"]
    state.play(0, "30")
    recycled = {6, 8, 9, 14, 15, 22}
    for seed in range(20):
        world = sampler(state.view(0))(random.Random(seed))
        assert set(world._draw) == recycled - {drew}  # seat 0 knows what it drew
        world = sampler(state.view(1))(random.Random(seed))
        assert set(world._draw) <= recycled and len(world._draw) == 5
        assert world.hand(1) == state.hand(1)


def test_a_sampled_position_is_for_search_and_has_no_record():
    world = sampler(Game().new(1).view(0))(random.Random(1))
    with pytest.raises(ChukoError, match="no game record"):
        world.record()


# -- views of bounded size -------------------------------------------------------


def resetting_forever(players=2, pack=PACKS["standard"], moves=2001, seed=1):
    """A game where every turn is a reset and a random card: hands keep their size, so it
    never ends, recycling the pile again and again. Yields the state after each move."""
    rng = random.Random(seed)
    state = Game(players=players, pack=pack, turn_limit=None).new(seed)
    for _ in range(moves):
        seat = state.to_move[0]
        move = Move(None) if not state.pending_reset else state.random_move(seat, rng)
        state.play(seat, move)
        yield state


def view_sizes(state):
    return [len(json.dumps(state.view(seat))) for seat in [None, *range(state.game.players)]]


@pytest.mark.parametrize("players", [2, 4])
def test_a_view_at_move_2000_is_as_small_as_at_move_20(players):
    sizes = {}
    for moves, state in enumerate(resetting_forever(players), 1):
        if moves in (20, 21, 2000, 2001):
            sizes[moves] = max(view_sizes(state))
            assert max(len(json.dumps(state.full_view(s))) for s in range(players)) < 2_000
    assert state.turns_played == 1000 and state.view(0)["turns_total"] == 1001
    # Was 94 KB at move 2,000: every view carried every turn.
    assert max(sizes.values()) < 1_500
    assert max(sizes[2000], sizes[2001]) <= max(sizes[20], sizes[21]) + 40  # digits only


def test_recent_turns_run_from_the_seats_previous_turn_and_are_numbered():
    rng = random.Random(3)
    for players in (2, 3, 4):
        state = Game(players=players, pack="2-30").new(players)
        while state.outcome is None:
            mover = state.to_move[0]
            state.play(mover, state.random_move(mover, rng))
            turns = state.record()["turns"]
            for seat in [None, *range(players)]:
                view = state.view(seat)
                recent = view["recent"]
                assert view["turns_total"] == len(turns)
                assert [t["number"] for t in recent] == list(
                    range(len(turns) - len(recent) + 1, len(turns) + 1))
                for turn in recent:
                    whole = turns[turn["number"] - 1]
                    assert (turn["seat"], turn["kind"], turn.get("card")) == (
                        whole["seat"], whole["kind"], whole.get("card"))
                if seat is None:
                    assert len(recent) == min(players, len(turns))
                    continue
                # From its previous turn on (a reset under way is not yet a previous turn).
                own = [i for i, t in enumerate(turns) if t["seat"] == seat]
                if state.pending_reset and mover == seat:
                    own.pop()
                assert recent[0]["number"] == (own[-1] + 1 if own else 1)
                assert len(recent) <= players + 1
                assert view["plays"] == [
                    sum(t["seat"] == s and t["kind"] == "play" for t in turns)
                    for s in range(players)]
                assert view["resets"] == [
                    sum(t["seat"] == s and t["kind"] == "reset" for t in turns)
                    for s in range(players)]


def test_after_a_recycle_a_view_lists_its_cards_and_the_seats_own_draws_since():  # K6
    for state in resetting_forever(3, pack="2-12", moves=300, seed=4):
        turns = state.record()["turns"]
        last = max((i for i, t in enumerate(turns) if "recycled" in t), default=None)
        for seat in range(3):
            view = state.view(seat)
            if last is None:
                assert view["recycled"] is None and view["drawn_since"] is None
                continue
            assert view["recycled"] == sorted(turns[last]["recycled"])
            assert view["drawn_since"] == [t["drew"] for t in turns[last:]
                                           if t["seat"] == seat and "drew" in t]
        assert state.view(None)["drawn_since"] is None
    assert last is not None


# -- chance made explicit -------------------------------------------------------------------


def test_seeded_games_deal_as_they_always_have():
    # Pinned from the engine before chance was made explicit: stored seeds keep their games.
    state = Game(players=3).new(7)
    assert state.record()["deal"] == {"hands": [[14, 30, 8], [22, 15, 9], [21, 6, 2]],
                                      "top": 11, "draw": [7, 10]}
    assert state.first == 2


def test_new_is_the_shuffle_then_the_first_player_through_from_order():
    for game in (Game(players=3), Game(players=2, pack="2-30", first=1)):
        rng = random.Random(7)
        order = game.deck()
        rng.shuffle(order)
        choices = [rng.randrange(3)] if game.first is None else []
        assert game.from_order(order, choices).record() == game.new(7).record()
    assert Game(players=3).deal_choices() == (3,)
    assert Game(players=3, first=0).deal_choices() == ()
    assert Game(pack="2,2,3").deck() == [2, 2, 3]


def replay_turns(state, turns):
    """Play a record's turns on `state` through the public moves."""
    for turn in turns:
        if turn["kind"] == "play":
            state.play(turn["seat"], str(turn["card"]))
        else:
            state.reset(turn.get("recycled"))
            if "card" in turn:
                state.play(turn["seat"], str(turn["card"]))
    return state


def test_from_deal_of_a_records_deal_gives_the_same_game():
    for players in (2, 3):
        for state in random_games(players, count=10, pack="2-12", seed=50 + players):
            record = state.record()
            game = Game(players=players, pack="2-12", first=record["first"])
            again = replay_turns(game.from_deal(record["deal"]), record["turns"])
            assert again.record() == record
            free = Game(players=players, pack="2-12")  # the first player given in the deal
            dealt = free.from_deal({**record["deal"], "first": record["first"]})
            assert replay_turns(dealt, record["turns"]).record() == record


@pytest.mark.parametrize("deal, words", [
    (None, "object"),
    ({"hands": [[2, 6]], "top": 7, "draw": []}, "2 hands"),
    ({"hands": [[2, 6, 7, 8, 9], [10, 11, 14, 15, 21]], "top": 22, "draw": "30"}, "draw pile"),
    ({"hands": [[2, 6, 7, 8, 9], [10, 11, 14, 15, 21]], "top": True, "draw": [30]}, "top card"),
    ({"hands": [[2, 6, 7, 8], [9, 10, 11, 14, 15, 21]], "top": 22, "draw": [30]}, "5 cards"),
    ({"hands": [[2, 6, 7, 8, 9], [10, 11, 14, 15, 21]], "top": 22, "draw": [31]}, "pack"),
    ({"hands": [[2, 6, 7, 8, 9], [10, 11, 14, 15, 21]], "top": 22, "draw": [30]}, "first"),
    ({"hands": [[2, 6, 7, 8, 9], [10, 11, 14, 15, 21]], "top": 22, "draw": [30], "first": 2},
     "first"),
])
def test_a_bad_deal_is_refused_in_one_sentence(deal, words):
    with pytest.raises(ConfigError, match=words) as error:
        Game(players=2).from_deal(deal)
    assert one_sentence(str(error.value)), str(error.value)


@pytest.mark.parametrize("order, choices, words", [
    (list(PACKS["standard"])[:11], [0], "12 cards"),
    ([*list(PACKS["standard"])[:11], 2], [0], "12 cards"),
    ([*list(PACKS["standard"])[:11], "30"], [0], "12 cards"),
    ("2 6 7", [0], "12 cards"),
    (list(PACKS["standard"]), [2], "first player"),
    (list(PACKS["standard"]), [], "first player"),
    (list(PACKS["standard"]), [True], "first player"),
])
def test_from_order_refuses_what_is_no_shuffle_in_one_sentence(order, choices, words):
    with pytest.raises(ConfigError, match=words) as error:
        Game(players=2).from_order(order, choices)
    assert one_sentence(str(error.value)), str(error.value)
    with pytest.raises(ConfigError, match="chooses nothing"):
        Game(players=2, first=0).from_order(list(PACKS["standard"]), [0])


def test_explicit_chance_games_end_and_replay_with_every_draw_from_a_recycle_a_chance_node():
    nodes = 0
    for players, pack in ((2, "2-12"), (3, "1,1,2,3,4,6,9,9,15,35,49"), (4, "large")):
        game = Game(players=players, pack=pack, turn_limit=300)
        for seed in range(15):
            state = game.new(seed)
            state = game.from_deal({**state.record()["deal"], "first": state.first},
                                   explicit_chance=True)

            def check(node):
                nonlocal nodes
                nodes += 1
                outcomes = node.chance_outcomes()
                assert node.to_move == () and node.view(0)["phase"] == "chance"
                assert sum(p for _, p in outcomes) == pytest.approx(1)
                # The pile is held unordered: the outcomes are the counts of its cards.
                assert [c for c, _ in outcomes] == sorted(set(node._draw))
                assert all(p == node._draw.count(c) / len(node._draw) for c, p in outcomes)
                if nodes % 5 == 0:  # a record taken at a chance node replays to it
                    record = json.loads(json.dumps(node.record()))
                    again = Game.replay(record)
                    assert again.is_chance and again.chance_outcomes() == outcomes
                    assert again.record() == record

            play_with_chance(state, random.Random(seed), check)
            record = json.loads(json.dumps(state.record()))
            assert record["explicit_chance"] is True
            assert Game.replay(record).record() == record
            assert Game.replay(record).outcome == state.outcome
    assert nodes > 100


def test_at_a_chance_node_only_a_card_of_the_draw_pile_is_accepted_and_nothing_else_moves():
    state = position([[22, 9, 8, 30], [14, 7, 6, 2]], top=15)
    state = state.game.from_deal({**state.record()["deal"], "first": 0}, explicit_chance=True)
    with pytest.raises(IllegalMove, match="Nothing is left to chance"):
        state.apply_chance(9)
    for seat, card in ((0, "9"), (1, "6"), (0, "8"), (1, "14"), (0, "22"), (1, "7")):
        state.play(seat, card)
    state.play(0, "reset")
    assert state.is_chance and state.to_move == () and state.legal_moves(0) == []
    assert state.chance_outcomes() == [(c, 1 / 6) for c in (6, 8, 9, 14, 15, 22)]
    before = snapshot(state)
    for wrong in (7, 30, "9", None, True):
        with pytest.raises(IllegalMove):
            state.apply_chance(wrong)
    for move in ("reset", "30"):
        with pytest.raises(IllegalMove):
            state.play(0, move)
    with pytest.raises(IllegalMove, match="waiting"):
        state.put(30)
    assert snapshot(state) == before
    state.apply_chance(14)
    assert state.to_move == (0,) and state.view(0)["drawn"] == 14
    assert state.view(0)["drawn_since"] == [14] and state.view(1)["recycled"] == [
        6, 8, 9, 14, 15, 22]


def test_reseeding_draws_the_chance_to_come_from_the_seed():
    game = Game(players=3, pack="2-12", turn_limit=60)
    for seed in range(10):
        live = game.new(seed)
        live.reseed(1234)
        rng = random.Random(seed)
        while live.outcome is None:  # resets mostly, so the pile is recycled again and again
            seat = live.to_move[0]
            live.play(seat, "reset" if rng.random() < 0.8 and not live.pending_reset
                      else live.random_move(seat, rng))
        record = live.record()
        assert sum("recycled" in t for t in record["turns"]) > 3
        # The server's storage: the dealt record, the seed, then the moves.
        rebuilt = Game.replay({**record, "turns": [], "winner": None})
        rebuilt.reseed(1234)
        for turn in record["turns"]:
            if turn["kind"] == "reset":
                rebuilt.play(turn["seat"], "reset")
            rebuilt.play(turn["seat"], str(turn["card"]))
        assert rebuilt.record() == record
