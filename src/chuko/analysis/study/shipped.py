"""The facts that ship with chuko (chuko/data/facts, made by `facts.py`), read without
importing any study: `load` for the Lab, `shipped_exact` for `chuko study` answering a
named pack from them instead of solving it again."""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

from chuko.core.protocol import Json

COMMAND = "python -m chuko.analysis.study.facts"
SHIPPED = (f"These are the exact figures shipped with chuko ({COMMAND} made them), so nothing "
           "was solved now: --sample N samples deals afresh, --exact solves them again.")


def load(game: str) -> Json:
    """A game's shipped facts: {"game", "command", "studies": [study, …]}."""
    text = files("chuko").joinpath("data", "facts", f"{game}.json").read_text(encoding="utf-8")
    facts: Json = json.loads(text)
    return facts


def shipped_exact(game: str, cards: Sequence[int], **options: Any) -> Json | None:
    """The exact study of every deal of the pack `cards` (in any order) that ships with
    chuko, its data holding `options` too, marked as shipped; None when none does."""
    try:
        studies = load(game)["studies"]
    except FileNotFoundError:
        return None
    for study in studies:
        data = study["data"]
        if (data.get("exact") and data.get("selection", {}).get("complete")
                and sorted(data["pack"]) == sorted(cards)
                and all(data.get(name) == value for name, value in options.items())):
            shipped = copy.deepcopy(study)
            shipped["data"]["shipped"] = True
            shipped["findings"].insert(0, SHIPPED)
            return shipped
    return None
