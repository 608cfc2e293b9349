"""`chuko advise chuchula`: the grouping of a hand with the most expected points (the
command Chuchula's descriptor names; the advisor is the solvers').

With --hand, one hand; without it, one hand per line of standard input and one JSON
object per line of output (an `error` object for a line that is not a hand).
"""

from __future__ import annotations

import argparse
import json
import sys

from chuko.console import add_option_flags, console, decimal, game_from_flags, say
from chuko.core.deck52 import cards_text, parse_cards
from chuko.core.errors import ChukoError
from chuko.core.protocol import Json
from chuko.core.text import Plural, Text
from chuko.games.chuchula import DESCRIPTOR, Game, group_type
from chuko.solvers.chuchula_advisor import Advice, advise, check_hand

HELP = {Game.id: "suggest the grouping of a Chuchula hand with the most expected points"}


def add_arguments(parser: argparse.ArgumentParser, game_id: str) -> None:
    parser.add_argument(
        "--hand", help='13 cards, e.g. "As 4s 5s Kd Qd Jd 2d 9c 8c Jh 7h 4h 3h"; '
        "without it, hands are read from standard input, one per line",
    )
    # The advice depends on the table's size alone, not on how long the game lasts.
    add_option_flags(parser, DESCRIPTOR,
                     leave_out=[o.name for o in DESCRIPTOR.options if o.name != "players"])
    parser.add_argument("--json", action="store_true", help="print JSON")


def _advice_json(hand_text: str, players: int) -> Json:
    hand = check_hand(parse_cards(hand_text))
    return {"hand": cards_text(hand), "players": players, **advise(hand, players).to_json()}


def _describe(advice: Advice, players: int) -> str:
    lines = []
    pairs = zip(advice.grouping.groups, advice.expected, strict=True)
    for number, (group, points) in enumerate(pairs, 1):
        cards = " ".join(c.symbol_text for c in group)
        kind = say(group_type(group).label)
        lines.append(say(Text("Group {number}: {cards}", number=number, cards=cards.ljust(12)))
                     + f" {kind:<16} {decimal(points, 3)}")
    lines.append(say(Text("Left out: {card}", card=advice.grouping.leftover.symbol_text)))
    lines.append(say(Text("Expected points: {points} of 4 against {opponents}",
                          points=decimal(advice.total, 3),
                          opponents=Plural("{n} opponent", "{n} opponents", n=players - 1))))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    players = game_from_flags(args).players  # the engine's limits, in its words
    if args.hand is not None:
        if args.json:
            print(json.dumps(_advice_json(args.hand, players)))
        else:
            hand = check_hand(parse_cards(args.hand))
            console.print(_describe(advise(hand, players), players), markup=False,
                          soft_wrap=True)
        return 0
    status = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            print(json.dumps(_advice_json(line, players)), flush=True)
        except ChukoError as error:
            print(json.dumps({"hand": line.strip(), "error": str(error)}), flush=True)
            status = 2
    return status
