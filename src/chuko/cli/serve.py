"""`chuko serve`: the browser app on uvicorn (`make serve` runs it on 127.0.0.1:8000 with
SQLite under var/).

Seat tokens and invite codes are secrets: the app redacts them in uvicorn's logs itself
(`chuko.server.web.redaction.redact`), so a log never hands anyone a seat.

What a connection may hold (timeouts for a request's headers and body, caps on connections
per client address and in all) is set by the options and enforced in each process that
serves (`chuko.server.web.connections`); `X-Forwarded-For` counts only from the proxies named by
`--forwarded-allow-ips` (docs/deploy.md).

Anyone may play as a guest; visitors may also make accounts unless
`--no-open-registration` says otherwise (`chuko accounts` lists and deletes them).

With `--redis` the server is one worker of a cluster sharing a PostgreSQL database's rooms
(docs/deploy.md); `--workers N` runs N of them behind the one port (uvicorn's workers, each a
process that builds its app with `worker_app` from the settings in `CHUKO_SERVE`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import signal
import sys
import time
from typing import Any

from chuko.cli.lifetime import end_with_parent
from chuko.console import refusal, say
from chuko.core.errors import ConfigError
from chuko.core.text import Text
from chuko.server.shared.limits import Edge
from chuko.server.store.reader import READ_TIMEOUT
from chuko.server.store.writer import WRITE_TIMEOUT

HELP = {"": "start the browser app: rooms, live play, replays (http://HOST:PORT)"}
SETTINGS = "CHUKO_SERVE"  # the app's settings, as JSON, for each worker process


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument("--db", default="sqlite:///var/chuko.db",
                        help="database URL: sqlite:///path or postgresql://user@host/name")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds a bot waits before each move, so people can follow")
    parser.add_argument("--round-pause", type=float, default=4.0,
                        help="seconds bots wait when a round ends, so people can read how it "
                        "ended (a player may end the wait sooner)")
    parser.add_argument("--waiting-hours", type=float, default=24.0,
                        help="hours a room may wait for its players before it closes "
                        "(default 24)")
    parser.add_argument("--workers", type=int, default=1,
                        help="worker processes on this port (more than 1 needs --redis)")
    parser.add_argument("--redis", metavar="URL",
                        help="redis://host:6379/0: share the rooms of a PostgreSQL --db with "
                        "every other worker on this Redis (docs/deploy.md)")
    parser.add_argument("--cluster-name", default=None,
                        help="prefix of the cluster's keys and channels in Redis, so that "
                        "clusters on other databases can share one Redis")
    parser.add_argument("--open-registration", action=argparse.BooleanOptionalAction,
                        default=True,
                        help="let visitors make accounts (default); with "
                        "--no-open-registration only guests play")
    parser.add_argument("--schedule", metavar="FILE", default=None,
                        help="a TOML file of recurring tournaments the server makes (e.g. an "
                        "hourly arena; docs/club.md, Tournaments)")
    parser.add_argument("--read-timeout", type=float, metavar="SECONDS", default=READ_TIMEOUT,
                        help="seconds a read of the database may take before the request is "
                        f"refused with a sentence (default {READ_TIMEOUT:g})")
    parser.add_argument("--write-timeout", type=float, metavar="SECONDS",
                        default=WRITE_TIMEOUT,
                        help="seconds a write (a move) may take before it is refused as not "
                        f"saved (default {WRITE_TIMEOUT:g})")
    edge = Edge()
    parser.add_argument("--forwarded-allow-ips", metavar="IPS", default=None,
                        help="addresses or networks of reverse proxies, separated by commas "
                        "(* for any), whose X-Forwarded-For names the client (default: none; "
                        "the client is the connection's address)")
    parser.add_argument("--header-timeout", type=float, metavar="SECONDS",
                        default=edge.header_timeout,
                        help="seconds for a request's line and headers to arrive "
                        f"(default {edge.header_timeout:g})")
    parser.add_argument("--body-timeout", type=float, metavar="SECONDS", default=edge.body_timeout,
                        help="seconds for a request's body to arrive after its headers "
                        f"(default {edge.body_timeout:g})")
    parser.add_argument("--max-connections-per-address", type=int, metavar="N",
                        default=edge.connections_per_address,
                        help="connections one client address may hold open, per worker "
                        f"(default {edge.connections_per_address})")
    parser.add_argument("--max-connections", type=int, metavar="N", default=None,
                        help="connections open at once, per worker (default: the limit on "
                        f"open files less {edge.reserved_files})")


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from chuko.server import create_app
    from chuko.server.web.app import SERVING
    from chuko.server.web.connections import configure

    if not 0 < args.port < 65536:
        raise ConfigError(Text("The port must be from 1 to 65535, not {port}.", port=args.port))
    if not 0 <= args.bot_delay <= 600:  # NaN too
        raise ConfigError(Text("The bot delay is 0 to 600 seconds."))
    if not 0 <= args.round_pause <= 600:
        raise ConfigError(Text("The round pause is 0 to 600 seconds."))
    if not 0 < args.waiting_hours < math.inf:
        raise ConfigError(Text("Rooms must be given some hours to fill: --waiting-hours above "
                               "0."))
    if not (0 < args.read_timeout <= 600 and 0 < args.write_timeout <= 600):
        raise ConfigError(Text("--read-timeout and --write-timeout must be above 0 and at "
                               "most 600 seconds."))
    if args.workers < 1:
        raise ConfigError(Text("--workers must be 1 or more."))
    if args.workers > 1 and not args.redis:
        raise ConfigError(Text("Several workers share their rooms through Redis: give --redis "
                               "redis://host:6379/0 (and --db postgresql://…)."))
    if args.redis:
        check_cluster(args.db, args.redis)
    check_database(args.db)
    if args.schedule is not None:
        from chuko.server.tournament.schedule import load_schedule

        load_schedule(args.schedule, time.time())  # a wrong file is refused before serving
    edge = edge_of(args)
    settings = app_settings(args)
    address = f"http://{args.host}:{args.port}"
    serving_on = "chuko: " + say(
        Text("serving on {address} with {workers} workers (Ctrl-C to stop)", address=address,
             workers=args.workers) if args.workers > 1
        else Text("serving on {address} (Ctrl-C to stop)", address=address))
    # Proxy headers only from the proxies named: otherwise any client (even one on the
    # loopback, which uvicorn trusts by default) could name any address for its limits.
    serving = {**SERVING, **({"proxy_headers": True, "forwarded_allow_ips": edge.proxies}
                             if edge.proxies else {})}
    if args.workers > 1:
        # The worker processes inherit it; each bounds its own connections (`worker_app`).
        os.environ[SETTINGS] = json.dumps({**settings, "edge": dataclasses.asdict(edge),
                                           "supervisor": os.getpid()})
        print(serving_on, flush=True)
        uvicorn.run("chuko.cli.serve:worker_app", factory=True, workers=args.workers,
                    host=args.host, port=args.port, log_level="info", **serving)
        return 0
    config = uvicorn.Config(create_app(**settings), host=args.host, port=args.port,
                            log_level="info", **serving)
    print(serving_on, flush=True)  # the app is made: its database opened and migrated
    configure(edge)  # once uvicorn's logging is set up, which shows what it says
    uvicorn.Server(config).run()
    return 0


def app_settings(args: argparse.Namespace) -> dict[str, Any]:
    """`create_app`'s keyword arguments from the options."""
    return {"db_url": args.db, "bot_delay": args.bot_delay, "round_pause": args.round_pause,
            "waiting_ttl": args.waiting_hours * 3600, "redis_url": args.redis,
            "cluster_name": args.cluster_name, "open_registration": args.open_registration,
            "timeouts": (args.read_timeout, args.write_timeout), "schedule": args.schedule}


def edge_of(args: argparse.Namespace) -> Edge:
    """The bounds on connections that the options ask for; ConfigError if one makes no
    sense."""
    from chuko.server.web.connections import proxy_networks

    if not (args.header_timeout > 0 and args.body_timeout > 0):
        raise ConfigError(Text("--header-timeout and --body-timeout must be above 0 seconds."))
    if args.max_connections_per_address < 1:
        raise ConfigError(Text("--max-connections-per-address must be 1 or more."))
    if args.max_connections is not None and args.max_connections < 1:
        raise ConfigError(Text("--max-connections must be 1 or more."))
    proxy_networks(args.forwarded_allow_ips or "")
    return Edge(header_timeout=args.header_timeout, body_timeout=args.body_timeout,
                connections_per_address=args.max_connections_per_address,
                connections=args.max_connections, proxies=args.forwarded_allow_ips or "")


def check_cluster(db_url: str, redis_url: str) -> None:
    """A cluster's database is PostgreSQL, and its Redis answers: otherwise one sentence."""
    import redis

    if not db_url.startswith("postgresql"):
        raise ConfigError(Text("Workers share their rooms through a PostgreSQL database: give "
                               "--db postgresql://user@host/name with --redis."))
    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=5).ping()
    except ValueError:
        raise ConfigError(Text("{url} is not a Redis URL: use redis://host:6379/0.",
                               url=repr(redis_url))) from None
    except redis.RedisError as error:
        # (the URL may hold a password: not repeated)
        reason = str(error).rstrip(".")
        raise ConfigError(Text("The Redis of --redis does not answer: {reason}.",
                               reason=reason)) from None


def check_database(db_url: str) -> None:
    """The database of --db answers: otherwise one sentence (and no traceback)."""
    from sqlalchemy.exc import SQLAlchemyError

    from chuko.server.store.database import reason
    from chuko.server.store.engine import make_engine

    engine = make_engine(db_url)
    try:
        with engine.connect():
            pass
    except SQLAlchemyError as error:
        # The driver's reason; the URL is not repeated (it may hold a password).
        raise ConfigError(Text("The database of --db cannot be reached: {reason}.",
                               reason=reason(error))) from None
    finally:
        engine.dispose()


def worker_app() -> Any:
    """One worker's app, from the settings `run` left in the environment."""
    from chuko.server import create_app
    from chuko.server.web.connections import configure

    settings = json.loads(os.environ[SETTINGS])
    supervisor = settings.pop("supervisor", None)  # None: called in-process (tests)
    if supervisor is not None:
        # A worker whose supervisor was killed ends too, rather than serve unsupervised; at
        # once, since a graceful stop may wait on a database or Redis that went down with
        # the supervisor, and each move it acknowledged is committed already.
        end_with_parent(supervisor, signal.SIGKILL)
    configure(Edge(**settings.pop("edge")))
    try:
        return create_app(**settings)
    except ConfigError as error:
        # A worker restarted while the database is away: one sentence, as at the start.
        print(f"chuko: {refusal(error)}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
