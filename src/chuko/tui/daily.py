"""The daily Caravan at the terminal (`chuko daily`): the Caravan session on the day's deal,
with no hints (the day is a puzzle) and free undo; after the end, the line to share and what
the exact solver knows about the deal."""

from __future__ import annotations

import datetime
import time
from typing import Any

from chuko.console import console, warn
from chuko.core.words import count
from chuko.games.caravan import CaravanState
from chuko.practice.daily import LIMIT, deal_for, facts_for, share_line

from .caravan import RULES, CaravanSession


class DailySession(CaravanSession):
    """The Caravan session on the day's deal: no hints (the day is a puzzle), undo free,
    and after the end the share line and what the solver knows."""

    def __init__(self, state: CaravanState, day: datetime.date, par: int) -> None:
        super().__init__(state)
        self.day, self.par = day, par
        self.started: float | None = None  # the clock starts with the first card laid

    def hint(self, seat: int) -> None:
        warn("The daily gives no hints; undo is free.")

    def push(self, seat: int, move: Any) -> None:
        super().push(seat, move)
        if self.started is None:
            self.started = time.monotonic()

    def after_end(self) -> None:
        outcome = self.state.outcome
        assert outcome is not None
        seconds = round(time.monotonic() - (self.started or time.monotonic()))
        console.print(share_line(self.day, bool(outcome.winners), self.state.bridges_used,
                                 self.par, seconds), markup=False, highlight=False)
        facts = facts_for(self.day)
        allowed = count(self.par, "bridge") if self.par else "no bridge"
        console.print(f"{facts.winning_starts} of {facts.starts} first moves keep a win with "
                      f"{allowed} possible.")
        console.print("A winning line with the fewest bridges: "
                      + " ".join(map(str, facts.line)))


def play_daily(day: datetime.date) -> int:
    """Play the deal of `day` (out already) at the terminal."""
    daily = deal_for(day)
    console.print(f"[bold]The daily Caravan of {day.isoformat()}[/]: par {daily.par} "
                  f"(the fewest bridges that win; {LIMIT} allowed). Undo is free.")
    console.print(RULES)
    return DailySession(daily.start(), day, daily.par).run()
