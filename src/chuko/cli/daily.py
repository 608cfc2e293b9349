"""`chuko daily`: the day's Caravan deal, the same for everyone (chuko.practice.daily),
played at the terminal with free undo; then the line to share and the solver's facts about the deal.
With --json, the day's deal and par for programs (the web API gives the same)."""

from __future__ import annotations

import argparse
import datetime
import json

from chuko.practice.daily import GAME, LIMIT, deal_for, playable, read_day, today
from chuko.tui.daily import play_daily

HELP = {"": "play the day's Caravan deal, the same for everyone, and share the result"}


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.add_argument("--date", help="the day to play, YYYY-MM-DD (today in UTC without it; "
                        "past days are the archive)")
    parser.add_argument("--json", action="store_true",
                        help='the day\'s deal as one JSON object: {"date", "deal", "par", ...}')


def document(day: datetime.date) -> dict[str, object]:
    """The day's deal as programs read it (the web API's `/api/daily` says the same)."""
    daily = deal_for(day)
    return {"date": day.isoformat(), "game": GAME.id, "deal": daily.deal,
            "layout": list(daily.layout), "bridges": LIMIT, "par": daily.par}


def run(args: argparse.Namespace) -> int:
    day = playable(read_day(args.date) if args.date else today())
    if args.json:
        print(json.dumps(document(day)))
        return 0
    return play_daily(day)
