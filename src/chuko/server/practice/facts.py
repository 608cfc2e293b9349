"""The facts for the Lab page: those shipped in `chuko/data/facts/` (written by `chuko
study`), and those a game from another package ships with it (its descriptor's `facts`).

Each file holds one study, a list of studies, or {"studies": [...]}; a study is JSON with
its game, title, method, findings, tables and plots (analysis/study/__init__.py). The
server only reads and groups them, by registered game in the registry's order, so it needs
nothing of the analysis layer. A game's own file speaks for that game alone. A file that
cannot be read is logged and left out: the Lab shows what there is.
"""

from __future__ import annotations

import json
import logging
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from chuko.core.descriptor import Descriptor
from chuko.games import descriptors

log = logging.getLogger("chuko.server")
FACTS = Path(__file__).resolve().parent.parent.parent / "data" / "facts"


def _studies(path: Traversable) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        log.exception("The facts file %s cannot be read.", path.name)
        return []
    if isinstance(data, dict) and isinstance(data.get("studies"), list):
        data = data["studies"]
    found = data if isinstance(data, list) else [data]
    return [s for s in found if isinstance(s, dict) and isinstance(s.get("game"), str)]


def _own_studies(described: Descriptor) -> list[dict[str, Any]]:
    """The studies of the game in the file its own package ships (`Integrations.facts`)."""
    if described.integrations.facts is None:
        return []
    package, _, path = described.integrations.facts.partition(":")
    try:
        resource = files(package).joinpath(path)
    except ModuleNotFoundError:
        log.exception("The facts of %s name a package that is missing.", described.id)
        return []
    return [s for s in _studies(resource) if s["game"] == described.id]


def shipped_facts(directory: Path | None = None) -> dict[str, Any]:
    """{"games": [{"id", "title", "studies": [...]}, ...]} for every registered game, in
    the registry's order, with the studies of the files under `directory` (sorted by name),
    then those of the game's own file."""
    directory = directory or FACTS
    by_game: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(directory.glob("*.json")) if directory.is_dir() else []:
        for study in _studies(path):
            by_game.setdefault(study["game"], []).append(study)
    return {"games": [{"id": d.id, "title": d.title,
                       "studies": by_game.get(d.id, []) + _own_studies(d)}
                      for d in descriptors()]}
