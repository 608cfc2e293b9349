"""`chuko accounts list|delete`: the admin's view of a server's accounts, straight from its
database; bad input is one sentence and exit status 2."""

from __future__ import annotations

import json

import pytest

from chuko.server.shared.players import Player
from chuko.server.store import migrations
from chuko.server.store.engine import make_engine
from chuko.server.store.player_rows import make_account, new_guest
from chuko.server.store.schema import RoomRow, SeatRow, players, sessions
from chuko.server.store.writes import insert_room

CREATED = 1_767_225_600.0  # 2026-01-01 00:00 UTC


@pytest.fixture
def db(tmp_path) -> str:
    """A server's database with two accounts (one of them in a game) and a guest."""
    url = f"sqlite:///{tmp_path}/chuko.db"
    engine = make_engine(url)
    migrations.upgrade(engine)
    with engine.begin() as conn:
        for n, (player_id, username) in enumerate([("p1", "Zoe"), ("p2", "adam"),
                                                   ("p3", None)]):
            new_guest(Player(player_id, f"Guest 100{n}", None), f"{n}" * 64, CREATED)(conn)
            if username:
                make_account(player_id, username, username.casefold(), "$argon2id$…",
                             username)(conn)
        insert_room(RoomRow("r1", "crossroads", {}, "over", 0, {}, [
            SeatRow(0, "human", None, None, None, True, "Zoe", "p1"),
            SeatRow(1, "bot", "easy", None, None, True)], created=CREATED))(conn)
    engine.dispose()
    return url


def test_list_shows_each_account_with_when_it_was_made_and_its_games(run_chuko, db):
    status, out, _ = run_chuko("accounts", "list", "--db", db)
    assert status == 0
    assert out.splitlines() == ["username  created               games",
                                "adam      2026-01-01 00:00 UTC  0",
                                "Zoe       2026-01-01 00:00 UTC  1"]
    status, out, _ = run_chuko("accounts", "list", "--db", db, "--json")
    assert json.loads(out) == [
        {"username": "adam", "created": "2026-01-01 00:00 UTC", "games": 0},
        {"username": "Zoe", "created": "2026-01-01 00:00 UTC", "games": 1}]


def test_delete_ends_the_sessions_and_keeps_the_row_and_its_games(run_chuko, db):
    status, out, _ = run_chuko("accounts", "delete", "ZOE", "--db", db, "--json")
    assert status == 0 and json.loads(out) == {"deleted": "ZOE"}
    engine = make_engine(db)
    with engine.connect() as conn:
        zoe = conn.execute(players.select().where(players.c.id == "p1")).one()
        left = {row.player for row in conn.execute(sessions.select())}
    engine.dispose()
    assert zoe.deleted and zoe.password_hash is None and zoe.username == "Zoe"
    assert left == {"p2", "p3"}
    _, out, _ = run_chuko("accounts", "list", "--db", db, "--json")
    assert [a["username"] for a in json.loads(out)] == ["adam"]


@pytest.mark.parametrize(("argv", "said"), [
    (["delete", "nobody"], "chuko: There is no account named 'nobody'.\n"),
    (["delete", "p3"], "chuko: There is no account named 'p3'.\n"),
    (["list", "--db", "sqlite:////nowhere/chuko.db"],
     "chuko: There is no database at 'sqlite:////nowhere/chuko.db'.\n"),
    (["list", "--db", "mysql://x"], "chuko: The database must be sqlite or postgresql, not "
                                    "'mysql'.\n"),
    (["remove", "x"], None),
    ([], None),
])
def test_bad_input_is_one_sentence_and_exit_status_2(run_chuko, db, argv, said):
    if argv[:1] == ["delete"]:
        argv = [*argv, "--db", db]
    status, out, err = run_chuko("accounts", *argv)
    assert status == 2 and out == ""
    if said is not None:
        assert err == said
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(("flags", "open_registration"), [
    ([], True), (["--open-registration"], True), (["--no-open-registration"], False)])
def test_serve_takes_accounts_unless_told_not_to(flags, open_registration):
    from chuko.cli.main import build_parser, commands
    from chuko.cli.serve import app_settings

    argv = ["serve", *flags]
    settings = app_settings(build_parser(argv, commands()).parse_args(argv))
    assert settings["open_registration"] is open_registration
