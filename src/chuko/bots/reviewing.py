"""What every game's post-game review shares (see `Integrations.review`): the engine replays a
finished record and each move is judged at the position it was chosen in.

A review by an exact solver (Crossroads, Caravan) says what a move cost. A review by the
bots (Chükö, Chuchula) is their judgement, not proof: each of its verdicts carries
`"opinion": True`, and the replay says so. Such a review works within a fixed budget, so a
long game's review takes bounded time in the server's pool; the moves past it get no
verdict (None).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from chuko.core.protocol import Game, Json
from chuko.core.text import Text

T = TypeVar("T")

# A verdict on the move played at one position: {"text": words, "mistake": bool, ...}.
Judge = Callable[[Any], Json]


def review_moves(game: type[Game], record: Json,
                 assess: Callable[[Any], Callable[[Any], T]]) -> list[T]:
    """One judgement per move of `record`, in order. The engine replays the record; `assess`
    sees each position that has a move to come and gives the judge of the move played
    there. It must read what the judge needs at once: the engine moves on afterwards."""
    verdicts: list[T] = []
    judge: Callable[[Any], T] | None = None

    def observe(state: Any, seat: int | None, move: Any) -> None:
        nonlocal judge
        if judge is not None:
            verdicts.append(judge(move))
        judge = assess(state) if state.to_move else None

    game.replay(record, observe)
    return verdicts


def opinion(text: str, mistake: bool = False) -> Json:
    """A verdict from the bots' judgement rather than a solver's proof."""
    return {"text": text, "mistake": mistake, "opinion": True}


def not_reviewed(looked_at: str) -> Json:
    """The verdict on the first move past a review's budget; the moves after it get none
    (null: a long game's review stays small in the server's cache)."""
    return opinion(Text("not reviewed from here on: the bots look at {budget}",
                        budget=looked_at))


def percent(share: float) -> Text:
    """"61%": trial games won, to the nearest whole per cent."""
    return Text("{percent}%", percent=round(100 * share))
