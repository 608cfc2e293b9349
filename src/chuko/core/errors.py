"""Typed errors whose messages are one sentence a player understands."""


class ChukoError(Exception):
    """Base of every error the project raises on purpose."""


class ConfigError(ChukoError, ValueError):
    """A game configuration the rules cannot use (a pack too small, 5 Chuchula players…)."""


class ParseError(ChukoError, ValueError):
    """Text that is not a card, a pack, a deal or a move."""


class IllegalMove(ChukoError, ValueError):
    """A well-formed move the rules do not allow now; the state is unchanged."""


class Stopped(KeyboardInterrupt):
    """Ctrl-C stopped a long run; the message says what of its work is kept. Not a
    ChukoError: the command exits with status 130, as after any Ctrl-C."""
