"""A stored game move by move: the positions from the deal to the end, rebuilt from the record
through the engine, and one public sentence per move.

The replay endpoint turns each position into `view(seat)`, so a replay shows a seat exactly
what it saw while playing. The sentences never name a secret (a Chuchula grouping, the card
a Chükö reset drew): every seat and spectator may read them.
"""

from __future__ import annotations

from collections.abc import Iterator

from chuko.core.protocol import Json, State
from chuko.games import game_module


def caption(game_id: str, seat: int, move: str, after: State) -> str:
    """'Seat 1 played BR', said so that anyone may read it."""
    if game_id == "chuchula":
        text = f"Seat {seat} committed a grouping."
        committed = after.view(None).get("committed", [])
        if after.outcome is not None or not any(committed):
            text += f" Round {len(after.view(None)['rounds'])} is shown."
    elif game_id == "chuko" and move == "reset":
        free = after.view(None)["turns"][-1]["free"]
        text = f"Seat {seat} reset" + (" with nothing to draw." if free else " and drew a card.")
    else:
        text = f"Seat {seat} played {move}."
        if game_id == "chuko" and after.outcome is None and len(after.hand(seat)) == 1:
            text += " Chükö!"  # ruling K7
    if after.outcome is not None:
        text += " " + after.outcome.reason
    return text


def positions(record: Json) -> Iterator[tuple[State, int | None, str | None]]:
    """(position, seat that moved, move text) from the deal, (deal, None, None), to the end.
    The yielded state may change after the next step: read it before going on."""
    game_id = record.get("game")
    Game = game_module(game_id).Game
    if game_id in ("crossroads", "caravan"):
        state = Game.replay({**record, "moves": []})
        yield state, None, None
        for move in record.get("moves", []):
            seat = state.to_move[0]
            state.play(seat, move)
            yield state, seat, move
    elif game_id == "chuko":
        start = {k: v for k, v in record.items() if k != "winner"}
        state = Game.replay({**start, "turns": []})
        yield state, None, None
        for turn in record.get("turns", []):
            seat, card = turn["seat"], turn.get("card")
            if turn["kind"] == "reset":
                state.reset(turn.get("recycled"))
                yield state, seat, "reset"
            if card is not None:
                state.put(card)
                yield state, seat, str(card)
    else:
        yield from _chuchula_positions(Game, record)


def _chuchula_positions(Game: type, record: Json) -> Iterator[tuple[State, int | None, str]]:
    """A Chuchula record's positions: its prefixes replayed. A prefix that ends a round keeps
    the next round's recorded deal, so that round is dealt as it was, never afresh."""
    rounds = record["rounds"]

    def prefix(number: int, count: int) -> Json:
        kept = [*rounds[:number], {**rounds[number], "moves": rounds[number]["moves"][:count]}]
        if count == len(rounds[number]["moves"]) and number + 1 < len(rounds):
            kept.append({**rounds[number + 1], "moves": []})
        return {**record, "rounds": kept}

    yield Game.replay(prefix(0, 0)), None, None
    for number, entry in enumerate(rounds):
        for count, (seat, move) in enumerate(entry["moves"], 1):
            yield Game.replay(prefix(number, count)), seat, move
