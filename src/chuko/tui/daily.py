"""The daily Caravan at the terminal (`chuko daily`): the Caravan session on the day's deal,
with no hints (the day is a puzzle) and free undo; after the end, the line to share and what
the exact solver knows about the deal."""

from __future__ import annotations

import datetime
import time
from typing import Any

from chuko.console import console, say, warn
from chuko.core.text import Plural, Text
from chuko.games.caravan import CaravanState
from chuko.practice.daily import LIMIT, deal_for, facts_for, share_line

from .caravan import RULES, CaravanSession
from .session import Command


class DailySession(CaravanSession):
    """The Caravan session on the day's deal: no hints offered (the day is a puzzle), undo
    free, and after the end the share line and what the solver knows."""

    accepts = Text("number, notation, help")
    hints = False

    def __init__(self, state: CaravanState, day: datetime.date, par: int) -> None:
        super().__init__(state)
        self.day, self.par = day, par
        self.started: float | None = None  # the clock starts with the first card laid

    def commands(self) -> dict[str, Command]:
        # Not offered, but a person who types it anyway is told why there is none.
        return {**super().commands(), "hint": self.no_hint}

    def no_hint(self, seat: int) -> None:
        warn(Text("The daily gives no hints; undo is free."))

    def push(self, seat: int, move: Any) -> None:
        super().push(seat, move)
        if self.started is None:
            self.started = time.monotonic()

    def after_end(self) -> None:
        outcome = self.state.outcome
        assert outcome is not None
        seconds = round(time.monotonic() - (self.started or time.monotonic()))
        console.print(say(share_line(self.day, bool(outcome.winners), self.state.bridges_used,
                                     self.par, seconds)), markup=False, highlight=False)
        facts = facts_for(self.day)
        allowed = Plural("{n} bridge", "{n} bridges", n=self.par) if self.par else Text(
            "no bridge")
        console.print(say(Text("{winning} of {starts} first moves keep a win with {allowed} "
                               "possible.", winning=facts.winning_starts, starts=facts.starts,
                               allowed=allowed)))
        console.print(say(Text("A winning line with the fewest bridges: {line}",
                               line=" ".join(map(str, facts.line)))))


def play_daily(day: datetime.date) -> int:
    """Play the deal of `day` (out already) at the terminal."""
    daily = deal_for(day)
    title = "[bold]" + say(Text("The daily Caravan of {day}", day=day.isoformat())) + "[/]"
    console.print(say(Text("{title}: par {par} (the fewest bridges that win; {allowed} "
                           "allowed). Undo is free.", title=title, par=daily.par,
                           allowed=LIMIT)))
    console.print(say(RULES))
    return DailySession(daily.start(), day, daily.par).run()
