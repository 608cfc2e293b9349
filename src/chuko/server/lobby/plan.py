"""A pool's wave worked out (`plan`): pure work over the pool's entries as stored, run in a
thread of its own (its time for ten thousand players: docs/performance.md, "The lobby").

A pool's players are paired only with players who chose the same clock and who play alike:
accounts among accounts, into rated rooms; guests among guests, into casual ones (rated play
needs an account, docs/web-protocol.md, "The lobby"). Each such part is paired on its own:
heads-up through `pair`, larger tables through `fill` (bots complete a table, which makes it
casual). Every table is checked before it is recorded.
"""

from __future__ import annotations

import base64
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from chuko.core.descriptor import Pool
from chuko.server.lobby.pairing import waves as pairing
from chuko.server.shared.messages import loads

log = logging.getLogger("chuko.server")

Json = dict[str, Any]
# A heads-up wave: its pairs, or a `pairing.Wave` that also says whether it is the best.
PairHeadsUp = Callable[[Sequence[pairing.Waiting], float],
                       list[tuple[str, str]] | pairing.Wave]
FillTables = Callable[[Sequence[pairing.Waiting], float, int], list[tuple[list[str], int]]]


def plan(pool_id: str, game_id: str, pool: Pool, stored: dict[str, str], now: float, *,
         pair: PairHeadsUp, fill: FillTables, maker: str) -> list[Json]:
    """The records of a wave's tables, from its pool's entries as stored (player → text),
    made by worker `maker`."""
    # One parse of them all: ten thousand calls cost several times more.
    entries = dict(zip(stored, loads(f"[{','.join(stored.values())}]"), strict=True))
    parts: dict[tuple[Any, ...], list[pairing.Waiting]] = {}
    clocks: dict[tuple[Any, ...], Mapping[str, Any]] = {}
    for player, entry in entries.items():
        clock = entry.get("clock") or pool.clocks[0]  # an entry of before there were choices
        part = (clock["kind"], clock.get("seconds"), clock.get("reserve"), clock.get("days"),
                bool(entry.get("rated")))
        clocks.setdefault(part, clock)
        parts.setdefault(part, []).append(pairing.Waiting(
            player, float(entry["rating"]), float(entry["since"]), entry["bots_after"]))
    tables: list[Json] = []
    for part, waiting in parts.items():
        groups = _groups(pool_id, pool, waiting, now, pair, fill)
        base = {"maker": maker, "at": now, "game": game_id, "options": dict(pool.options),
                "clock": dict(clocks[part])}
        tables += _tables(pool_id, base, part[-1], groups, entries)
    return tables


def _groups(pool_id: str, pool: Pool, waiting: list[pairing.Waiting], now: float,
            pair: PairHeadsUp, fill: FillTables) -> list[tuple[list[str], int]]:
    """The part's tables as (players, bots); a heads-up wave that fell back from the best
    pairing (`pairing.pair_wave`) is logged."""
    if pool.players != 2:
        return fill(waiting, now, pool.players)
    found = pair(waiting, now)
    if isinstance(found, pairing.Wave):
        if not found.exact:
            log.warning("The heads-up wave of %s (%d waiting) paired %d part(s) in runs "
                        "apart: not the best pairing.", pool_id, len(waiting),
                        found.fallen_back)
        found = found.pairs
    return [([a, b], 0) for a, b in found]


def _tables(pool_id: str, base: Json, rated: bool, groups: list[tuple[list[str], int]],
            entries: dict[str, Json]) -> list[Json]:
    """The records of a part's tables, each checked: never a player twice in a wave, never
    with oneself, never a player not waiting here. A table is rated when its part is (its
    players all have accounts) and no bot sits at it."""
    # Each id as secrets.token_urlsafe(9) makes it (12 characters for 9 random bytes),
    # the wave's in one draw: one system call, not thousands.
    ids_text = base64.urlsafe_b64encode(secrets.token_bytes(9 * len(groups))).decode()
    tables, seated = [], set[str]()
    for n, (ids, bots) in enumerate(groups):
        unique = set(ids)
        if len(unique) != len(ids) or not seated.isdisjoint(unique) \
                or not entries.keys() >= unique:  # not issubset: it copies the dict
            log.error("The pairing of %s gave a table it should not: %s", pool_id, ids)
            continue
        seated |= unique
        tables.append({"id": ids_text[12 * n:12 * n + 12], **base,
                       "rated": rated and bots == 0, "bots": bots,
                       "players": [{"player": p, "name": entries[p]["name"]} for p in ids]})
    return tables
