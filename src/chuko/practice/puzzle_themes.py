"""The themes a player may choose puzzles by: each a name in words and the theme codes of
`puzzles.THEMES` it gathers (the three kinds of quiet move make one)."""

from __future__ import annotations

from dataclasses import dataclass

from chuko.core.errors import ConfigError
from chuko.core.text import Text


@dataclass(frozen=True)
class Theme:
    id: str
    name: Text
    codes: tuple[str, ...]


CHOICES = (
    Theme("quiet", Text("Quiet moves"), ("quiet-loss", "quiet-draw", "quiet-cost")),
    Theme("deny", Text("Denying a point"), ("deny",)),
    Theme("build", Text("Building a trail"), ("build",)),
    Theme("end", Text("Which end"), ("end",)),
    Theme("point", Text("The right point"), ("point",)),
    Theme("take", Text("Taking the point"), ("take",)),
    Theme("start", Text("The first card"), ("start",)),
)
BY_ID = {theme.id: theme for theme in CHOICES}


def read_theme(value: object) -> Theme | None:
    """A client's choice of theme: None for any; a ConfigError naming the choices."""
    if value is None or value == "":
        return None
    found = BY_ID.get(value) if isinstance(value, str) else None
    if found is None:
        raise ConfigError(Text("Choose a theme among {themes}, or none for any.",
                               themes=", ".join(BY_ID)))
    return found
