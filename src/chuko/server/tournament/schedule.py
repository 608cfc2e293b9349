"""The operator's schedule of recurring tournaments (`chuko serve --schedule FILE`): a TOML
file of `[[tournament]]` entries, each a tournament's settings (as `POST /api/tournaments`
takes them, less its start) and when it recurs, every hour at a `minute` or every day at a
`time` (UTC):

    [[tournament]]
    name = "Hourly Chükö arena"
    system = "arena"
    game = "chuko"
    clock = { kind = "move", seconds = 10, reserve = 30 }
    rated = true
    minutes = 30
    every = "hour"
    minute = 0

The leader makes each entry's next tournament once (`due`; its key, the entry's name and
start, is unique in the database), so it is listed as soon as the one before it starts.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chuko.core.errors import ConfigError
from chuko.core.text import Text
from chuko.server.shared.messages import sentence
from chuko.server.tournament.settings import Settings, read_settings

HOUR, DAY = 3600, 86400
_TIME = re.compile(r"([01]\d|2[0-3]):([0-5]\d)")


@dataclass(frozen=True)
class Entry:
    """One recurring tournament: its settings less the start, every `period` seconds at
    `offset` seconds into the period (UTC)."""

    settings: dict[str, Any]
    period: int
    offset: int

    def next_start(self, now: float) -> float:
        """The first start after `now` (at a start, the one after it is next)."""
        base = math.floor(now / self.period) * self.period + self.offset
        return float(base if base > now else base + self.period)

    def instance(self, now: float) -> tuple[str, Settings]:
        """The next tournament of the entry: its schedule key and its settings."""
        start = self.next_start(now)
        settings = read_settings({**self.settings, "starts_at": start}, now, account=True)
        return f"{settings.name}@{int(start)}", settings


def due(schedule: Sequence[Entry], now: float) -> list[tuple[str, Settings]]:
    """Each entry's next tournament."""
    return [entry.instance(now) for entry in schedule]


def read_entry(raw: Any, number: int, now: float) -> Entry:
    """An entry of the file, checked (its settings as a request's are): ConfigError naming
    the entry otherwise."""
    where = Text("The schedule's tournament {number}", number=number)
    if not isinstance(raw, dict):
        raise ConfigError(Text("{where} is not a table.", where=where))
    settings = dict(raw)
    every, minute, at = settings.pop("every", None), settings.pop("minute", None), \
        settings.pop("time", None)
    if every == "hour" and at is None and isinstance(minute, int) \
            and not isinstance(minute, bool) and 0 <= minute <= 59:
        entry = Entry(settings, HOUR, minute * 60)
    elif every == "day" and minute is None and isinstance(at, str) and _TIME.fullmatch(at):
        hours, minutes = map(int, at.split(":"))
        entry = Entry(settings, DAY, hours * HOUR + minutes * 60)
    else:
        raise ConfigError(Text('{where} recurs every = "hour" with a minute (0-59), or every = '
                               '"day" with a time ("18:00", UTC).', where=where))
    try:
        entry.instance(now)
    except ConfigError as error:
        raise ConfigError(Text("{where}: {error}", where=where, error=sentence(error))) from None
    return entry


def load_schedule(path: str | Path, now: float) -> list[Entry]:
    """The schedule in the TOML file at `path`; ConfigError in one sentence when it cannot be
    read or an entry is wrong."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(Text("The schedule {path!r} cannot be read: "
                               "{reason}.",
                               path=str(path), reason=error.strerror or error)) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(Text("The schedule {path!r} is not TOML: {error}.",
                                    path=str(path), error=str(error))) from None
    entries = data.get("tournament", [])
    if set(data) - {"tournament"} or not isinstance(entries, list):
        raise ConfigError(Text("A schedule holds only [[tournament]] entries."))
    return [read_entry(raw, number, now) for number, raw in enumerate(entries, 1)]
