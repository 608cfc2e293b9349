"""`chuko serve`: the browser app on uvicorn (`make serve` runs it on 127.0.0.1:8000 with
SQLite under var/).

Seat tokens and invite codes are secrets: the app redacts them in uvicorn's logs itself
(`chuko.server.app.redact`), so a log never hands anyone a seat.
"""

from __future__ import annotations

import argparse

from chuko.core.errors import ConfigError

HELP = {"": "start the browser app: rooms, live play, replays (http://HOST:PORT)"}

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


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from chuko.server import create_app
    from chuko.server.app import SERVING

    if not 0 < args.port < 65536:
        raise ConfigError(f"The port must be from 1 to 65535, not {args.port}.")
    if args.bot_delay < 0:
        raise ConfigError("The bot delay cannot be negative.")
    if args.round_pause < 0:
        raise ConfigError("The round pause cannot be negative.")
    if not args.waiting_hours > 0:
        raise ConfigError("Rooms must be given some hours to fill: --waiting-hours above 0.")
    app = create_app(args.db, bot_delay=args.bot_delay, round_pause=args.round_pause,
                     waiting_ttl=args.waiting_hours * 3600)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="info",
                            **SERVING)
    print(f"chuko: serving on http://{args.host}:{args.port} (Ctrl-C to stop)", flush=True)
    uvicorn.Server(config).run()
    return 0
