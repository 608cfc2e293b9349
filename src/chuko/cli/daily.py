"""`chuko daily`: the day's Caravan deal, the same for everyone (chuko.daily), played at the
terminal with free undo; then the line to share and the solver's facts about the deal.
With --json, the day's deal and par for programs (the web API gives the same)."""

from __future__ import annotations

import argparse
import datetime
import json
import time

from chuko.console import console, warn
from chuko.core.words import count
from chuko.daily import LIMIT, deal_for, facts_for, playable, read_day, share_line, today
from chuko.games.caravan import CaravanState
from chuko.tui.caravan import RULES, CaravanSession

HELP = {"": "play the day's Caravan deal, the same for everyone, and share the result"}


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.add_argument("--date", help="the day to play, YYYY-MM-DD (today in UTC without it; "
                        "past days are the archive)")
    parser.add_argument("--json", action="store_true",
                        help='the day\'s deal as one JSON object: {"date", "deal", "par", ...}')


class DailySession(CaravanSession):
    """The Caravan session on the day's deal: no hints (the day is a puzzle), undo free,
    and after the end the share line and what the solver knows."""

    def __init__(self, state: CaravanState, day: datetime.date, par: int) -> None:
        super().__init__(state)
        self.day, self.par = day, par
        self.started = time.monotonic()

    def hint(self, seat: int) -> None:
        warn("The daily gives no hints; undo is free.")

    def after_end(self) -> None:
        outcome = self.state.outcome
        assert outcome is not None
        seconds = round(time.monotonic() - self.started)
        console.print(share_line(self.day, bool(outcome.winners), self.state.bridges_used,
                                 self.par, seconds), markup=False, highlight=False)
        facts = facts_for(self.day)
        allowed = count(self.par, "bridge") if self.par else "no bridge"
        console.print(f"{facts.winning_starts} of {facts.starts} first moves keep a win with "
                      f"{allowed} possible.")
        console.print("A winning line with the fewest bridges: "
                      + " ".join(map(str, facts.line)))


def document(day: datetime.date) -> dict[str, object]:
    """The day's deal as programs read it (the web API's `/api/daily` says the same)."""
    daily = deal_for(day)
    return {"date": day.isoformat(), "game": "caravan", "deal": daily.deal,
            "layout": list(daily.layout), "bridges": LIMIT, "par": daily.par}


def run(args: argparse.Namespace) -> int:
    day = playable(read_day(args.date) if args.date else today())
    if args.json:
        print(json.dumps(document(day)))
        return 0
    daily = deal_for(day)
    console.print(f"[bold]The daily Caravan of {day.isoformat()}[/]: par {daily.par} "
                  f"(the fewest bridges that win; {LIMIT} allowed). Undo is free.")
    console.print(RULES)
    return DailySession(daily.start(), day, daily.par).run()
