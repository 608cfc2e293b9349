"""`chuko accounts`: a server's accounts, for its admin, straight from its database: `list`
them (username, when made, games played) or `delete` one, as its player deleting it would
(its sessions end at once; its games stay, shown as a deleted player's, and its username
stays taken). Another server process may still honour an ended session for a few seconds
(`chuko.server.club.sessions.CACHE_SECONDS`).
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from chuko.console import say
from chuko.core.errors import ConfigError
from chuko.core.text import Text

if TYPE_CHECKING:
    from sqlalchemy import Engine

HELP = {"": "list or delete the accounts of a server's database"}
DB_HELP = "database URL: sqlite:///path or postgresql://user@host/name"


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True,
                                    parser_class=type(parser))
    listing = actions.add_parser("list", help="every account: username, when made, games")
    deleting = actions.add_parser("delete", help="delete an account and end its sessions")
    deleting.add_argument("username", help="the account's username (any case)")
    for action in (listing, deleting):
        action.add_argument("--db", default="sqlite:///var/chuko.db", help=DB_HELP)
        action.add_argument("--json", action="store_true", help="answer in JSON")


def run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    try:
        return _delete(args) if args.action == "delete" else _list(args)
    except SQLAlchemyError as error:
        reason = str(error).splitlines()[0].rstrip(".")
        raise ConfigError(Text("The database of --db cannot be used: {reason}.",
                               reason=reason)) from None


def _engine(url: str) -> Engine:
    """The database at `url`, brought to the newest schema; ConfigError when there is none
    (a SQLite file that does not exist is not made)."""
    from pathlib import Path

    from sqlalchemy.engine import make_url

    from chuko.server.store import migrations
    from chuko.server.store.engine import make_engine

    engine = make_engine(url)
    database = make_url(url).database
    if engine.dialect.name == "sqlite" and not (database and Path(database).is_file()):
        raise ConfigError(Text("There is no database at {url}.", url=repr(url)))
    migrations.upgrade(engine)
    return engine


def _list(args: argparse.Namespace) -> int:
    from chuko.server.store.player_rows import accounts

    with _engine(args.db).connect() as conn:
        found = accounts(conn)
    if args.json:
        print(json.dumps([{"username": a.username, "created": _when(a.created),
                           "games": a.games} for a in found]))
        return 0
    if not found:
        print(say(Text("No accounts.")))
        return 0
    name, created, games = say(Text("username")), say(Text("created")), say(Text("games"))
    width = max(len(name), *(len(a.username) for a in found))
    print(f"{name:<{width}}  {created:<20}  {games}")
    for account in found:
        print(f"{account.username:<{width}}  {_when(account.created):<20}  {account.games}")
    return 0


def _delete(args: argparse.Namespace) -> int:
    from chuko.server.club.usernames import username_key
    from chuko.server.store.player_rows import account_id, delete_account

    with _engine(args.db).begin() as conn:
        found = account_id(username_key(args.username))(conn)
        if found is None:
            raise ConfigError(Text("There is no account named {name}.",
                                   name=repr(args.username)))
        delete_account(found)(conn)
    print(json.dumps({"deleted": args.username}) if args.json
          else say(Text("Deleted the account {name}; its sessions are ended.",
                        name=repr(args.username))))
    return 0


def _when(stamp: float) -> str:
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M UTC")
