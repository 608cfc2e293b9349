"""Ratings: openskill's updates for 2 to 8 seats with ties, the shown scale and its
provisional rule, and the write that applies a finished room's result once, only for a
rated room of people (who counts: test_who_is_rated.py)."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select, update

from chuko.server.club.ratings import (
    PROVISIONAL_GAMES,
    Rating,
    Shown,
    apply_result,
    class_of,
    ranks_of,
    rate,
    won,
)
from chuko.server.store.database import Store
from chuko.server.store.schema import rating_history, ratings, seats
from club_seed import add_player, add_room, postgres_schema

# openskill 6's Plackett-Luce results for newcomers (mu 25, sigma 25/3), worked out by the
# library itself: a duel won by the first seat, and four seats placed 1st, 2nd, 2nd, 4th.
DUEL_WINNER, DUEL_LOSER, DUEL_SIGMA = 27.635389493140497, 22.364610506859503, 8.06590141354368
FOUR = [(27.795252672501135, 8.263571791259416), (24.689416369722096, 8.17961798837266),
        (24.689416369722096, 8.17961798837266), (22.825914588054673, 8.17961798837266)]


def test_a_duel_between_newcomers_moves_both_by_openskills_amounts():
    winner, loser = rate([None, None], [0, 1])
    assert (winner.mu, winner.sigma) == pytest.approx((DUEL_WINNER, DUEL_SIGMA))
    assert (loser.mu, loser.sigma) == pytest.approx((DUEL_LOSER, DUEL_SIGMA))
    assert (winner.games, winner.wins, loser.games, loser.wins) == (1, 1, 1, 0)


def test_a_drawn_duel_leaves_equal_players_level_and_counts_no_win():
    first, second = rate([None, None], [0, 0])
    assert first.mu == pytest.approx(25.0) and second.mu == pytest.approx(25.0)
    assert first.sigma == pytest.approx(DUEL_SIGMA)
    assert (first.wins, second.wins) == (0, 0)


def test_four_seats_with_a_tie_for_second_share_their_update():
    after = rate([None] * 4, [0, 1, 1, 3])
    assert [x for r in after for x in (r.mu, r.sigma)] == pytest.approx(
        [x for pair in FOUR for x in pair])
    assert [r.wins for r in after] == [1, 0, 0, 0]


def test_existing_ratings_are_rated_as_the_library_rates_them():
    before = [Rating(30.0, 4.0, 12, 8), Rating(20.0, 6.0, 3, 1), Rating(25.0, 2.0, 40, 20)]
    model = PlackettLuce()
    expected = model.rate([[model.rating(mu=r.mu, sigma=r.sigma)] for r in before],
                          ranks=[2.0, 0.0, 1.0])
    after = rate(before, [2, 0, 1])
    assert [x for r in after for x in (r.mu, r.sigma)] == pytest.approx(
        [x for team in expected for x in (team[0].mu, team[0].sigma)])
    assert [(r.games, r.wins) for r in after] == [(13, 8), (4, 2), (41, 20)]


def test_eight_seats_in_order_come_out_in_order():
    after = rate([None] * 8, list(range(8)))
    assert [r.mu for r in after] == sorted((r.mu for r in after), reverse=True)
    assert after[0].mu > 25 > after[-1].mu


@pytest.mark.parametrize("seats", [1, 9])
def test_a_game_outside_two_to_eight_seats_is_not_rated(seats):
    with pytest.raises(ValueError):
        rate([None] * seats, [0] * seats)
    assert class_of(seats) is None


def test_classes_and_places():
    assert (class_of(2), class_of(3), class_of(8)) == ("duel", "multi", "multi")
    assert ranks_of([5, 5, 3]) == [0, 0, 2]
    assert ranks_of([0.0, 1.0, 0.0, 0.0]) == [1, 0, 1, 1]
    assert won(0, [0, 1]) and not won(0, [0, 0]) and not won(1, [0, 1])


def test_the_shown_rating_is_1500_centred_with_two_sigma_and_provisional_at_first():
    newcomer = Rating().shown
    assert newcomer == Shown(1500, 1000, True) and newcomer.text() == "1500?"
    settled = Rating(27.5, 4.0, PROVISIONAL_GAMES, 6).shown
    assert settled == Shown(1650, 480, False) and settled.text() == "1650"
    assert Rating(27.5, 4.0, PROVISIONAL_GAMES - 1, 6).shown.provisional
    assert Rating(27.5, 7.0, 50, 6).shown.provisional  # still too uncertain


# -- the write -----------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    """A store on SQLite, and on PostgreSQL (in a schema of its own, dropped after) when
    CHUKO_TEST_POSTGRES names a database."""
    if request.param == "sqlite":
        opened = Store(f"sqlite:///{tmp_path}/club.db")
        yield opened
        opened.close()
        return
    with postgres_schema(request.node.name) as url:
        opened = Store(url)
        yield opened
        opened.close()


def held(store, player):
    with store.engine.connect() as conn:
        return conn.execute(select(ratings).where(ratings.c.player == player)).all()


def history(store, room_id):
    with store.engine.connect() as conn:
        return conn.execute(select(rating_history).where(rating_history.c.room == room_id)).all()


def test_a_rated_duel_rates_both_players_and_records_the_history(store):
    ann, bob = add_player(store.engine, "ann"), add_player(store.engine, "bob")
    room_id, places = add_room(store.engine, "crossroads", [ann, bob], seed=2, ended=1000.0)
    assert places == [0, 1]
    winner, loser = ann, bob
    (won_row,), (lost_row,) = held(store, winner), held(store, loser)
    assert (won_row.game, won_row._mapping["class"]) == ("crossroads", "duel")
    assert (won_row.mu, lost_row.mu) == pytest.approx((DUEL_WINNER, DUEL_LOSER))
    assert (won_row.games, won_row.wins, lost_row.games, lost_row.wins) == (1, 1, 1, 0)
    points = history(store, room_id)
    assert sorted(p.player for p in points) == sorted([ann, bob])
    assert {p.at for p in points} == {1000.0}


def test_a_drawn_rated_duel_counts_a_game_and_no_win(store):
    ann, bob = add_player(store.engine, "ann"), add_player(store.engine, "bob")
    _, places = add_room(store.engine, "crossroads", [ann, bob], seed=3)
    assert places == [0, 0]
    for player in (ann, bob):
        (row,) = held(store, player)
        assert (row.mu, row.games, row.wins) == (pytest.approx(25.0), 1, 0)


def test_applying_a_result_twice_changes_nothing_the_second_time(store):
    ann, bob = add_player(store.engine, "ann"), add_player(store.engine, "bob")
    room_id, places = add_room(store.engine, "chuko", [ann, bob], seed=2)
    before = held(store, ann) + held(store, bob)
    with store.engine.begin() as conn:
        assert apply_result(room_id, "chuko", places, 5.0)(conn) is None
    assert held(store, ann) + held(store, bob) == before
    assert len(history(store, room_id)) == 2


def test_a_casual_room_changes_no_rating(store):
    ann, bob = add_player(store.engine, "ann"), add_player(store.engine, "bob")
    room_id, _ = add_room(store.engine, "chuko", [ann, bob], rated=False)
    assert held(store, ann) == held(store, bob) == history(store, room_id) == []


def test_a_room_with_a_bot_seat_is_never_rated_even_if_marked_rated(store, caplog):
    ann, bob = add_player(store.engine, "ann"), add_player(store.engine, "bob")
    room_id, _ = add_room(store.engine, "chuko", [ann, bob, None], bots=(2,), rated=True)
    assert held(store, ann) == held(store, bob) == history(store, room_id) == []
    assert "cannot be rated" in caplog.text


def test_a_seat_without_a_known_player_keeps_the_room_unrated(store):
    ann = add_player(store.engine, "ann")
    room_id, _ = add_room(store.engine, "chuko", [ann, None], rated=True)
    assert held(store, ann) == history(store, room_id) == []


def test_four_players_are_rated_in_the_multiplayer_class(store):
    four = [add_player(store.engine, name) for name in ("ann", "bob", "cy", "dee")]
    room_id, places = add_room(store.engine, "chuko", four, seed=5)
    rows = [held(store, player)[0] for player in four]
    assert {row._mapping["class"] for row in rows} == {"multi"}
    expected = rate([None] * 4, places)
    assert [row.mu for row in rows] == pytest.approx([r.mu for r in expected])


def test_a_seat_a_bot_took_over_keeps_the_room_rated_with_its_player(store):
    ann, bob = add_player(store.engine, "ann"), add_player(store.engine, "bob")
    room_id, _ = add_room(store.engine, "chuko", [ann, bob], seed=2, apply=False)
    with store.engine.begin() as conn:
        conn.execute(update(seats).where(seats.c.room == room_id, seats.c.seat == 1)
                     .values(kind="bot", level="easy", gone="timeout"))
        # The room's places put the player who timed out last, whatever the bot did.
        assert apply_result(room_id, "chuko", [0, 1], 7.0)(conn) is None  # rated
    (ann_row,), (bob_row,) = held(store, ann), held(store, bob)
    assert (ann_row.mu, bob_row.mu) == pytest.approx((DUEL_WINNER, DUEL_LOSER))

