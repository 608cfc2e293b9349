"""What speaking a language costs the server, English (the sentences as built) against
German in the same run, medians of `--runs`:

- a page: translating one of the front end's pages unit by unit (the first request for a
  page and language; every later one is a cached lookup, timed too);
- a socket message like a room's state: a Chükö position's view for a seat, its legal
  moves and the sentences of its last 20 moves (`Text`s), worded for the reader
  (`shared/messages.worded`) and serialized (`dumps`), as the outbox does once per
  language among a room's sockets.

    python -m bench languages [--runs 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from random import Random
from typing import Any

from chuko.games import game_class
from chuko.i18n import words
from chuko.server.shared.messages import dumps, worded
from chuko.server.web.html_pages import web_dir
from chuko.server.web.page_language import _translated, translated_page

LANGS = ("en", "de")
PAGES = ("index.html", "room.html", "lobby.html", "tournaments.html")
LOG = 20  # sentences of moves a state message carries


def parser() -> argparse.ArgumentParser:
    found = argparse.ArgumentParser(prog="python -m bench languages", description=__doc__)
    found.add_argument("--runs", type=int, default=200)
    found.add_argument("--json", action="store_true")
    return found


def median_us(run: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e6)
    return statistics.median(times)


def state_message(seed: int = 3) -> dict[str, Any]:
    """A Chükö position 30 moves in, as a seat's state message holds it."""
    rules = game_class("chuko")
    state = rules.from_options({"players": 4, "pack": "large"}).new(seed)
    rng, names, lines = Random(seed), ["Ann", "Bea", "Cy", "Dan"], []
    for _ in range(30):
        seat = state.to_move[0]
        move = state.random_move(seat, rng)
        state.play(seat, move)
        lines.append(state.describe(seat, move, names, 0))  # called right after the move
    seat = state.to_move[0]
    return {"type": "state", "seat": 0, "view": state.view(0),
            "legal": [str(move) for move in state.legal_moves(seat)] if seat == 0 else [],
            "log": lines[-LOG:], "version": 30}


def measure(runs: int) -> dict[str, Any]:
    message = state_message()
    words("de").say(message["log"][0])  # the catalogue read once, as a server's first use
    figures: dict[str, Any] = {"runs": runs, "pages": {}, "state": {}}
    for lang in LANGS:
        figures["pages"][lang], figures["state"][lang] = speaking(lang, message, runs)
    return figures


def speaking(lang: str, message: dict[str, Any], runs: int) -> tuple[dict[str, Any],
                                                                     dict[str, Any]]:
    """The page's and the state message's figures in `lang`."""
    static = web_dir()
    pages = [median_us(lambda page=page: _translated.__wrapped__(static / page, 0, 0, lang),
                       max(runs // 10, 5)) for page in PAGES]
    cached = median_us(lambda: translated_page(static / "index.html", lang), runs)
    state = {"worded_us": round(median_us(lambda: worded(message, lang), runs), 1),
             "worded_and_dumped_us": round(median_us(lambda: dumps(worded(message, lang)),
                                                     runs), 1),
             "bytes": len(dumps(worded(message, lang)).encode())}
    return {"translate_us": round(statistics.median(pages)), "cached_us": round(cached, 1)}, state


def main(argv: list[str]) -> int:
    options = parser().parse_args(argv)
    figures = measure(max(options.runs, 10))
    if options.json:
        print(json.dumps(figures))
        return 0
    print(f"medians of {figures['runs']} runs (pages: of the four pages' medians)")
    print(f"{'':28}{'English':>12}{'German':>12}")
    rows = [("page translated (µs)", "pages", "translate_us"),
            ("page, cached (µs)", "pages", "cached_us"),
            ("state worded (µs)", "state", "worded_us"),
            ("state worded + JSON (µs)", "state", "worded_and_dumped_us"),
            ("state message (bytes)", "state", "bytes")]
    for label, part, key in rows:
        print(f"{label:28}" + "".join(f"{figures[part][lang][key]:>12}" for lang in LANGS))
    return 0
