"""What a username, a password and a guest's display name may be (docs/web-protocol.md,
"Accounts"): each read from a request, or refused with one sentence.

A username is 3 to 20 letters (ASCII), digits, `_` and `-`, starting with a letter, and is
compared case-insensitively through its key (`username_key`, casefolded), so "Alice" and
"alice" are one name. Names that could pass for the server, a bot or a guest are reserved,
and so are display names that pass for the server's labels (`labels.py`).
"""

from __future__ import annotations

import re
from typing import Any

from chuko.core.errors import ChukoError, ConfigError
from chuko.core.text import Text
from chuko.games import descriptors
from chuko.server.club.labels import passes_for_a_label
from chuko.server.rooms.opening import read_name

MIN_USERNAME, MAX_USERNAME = 3, 20
MIN_PASSWORD, MAX_PASSWORD = 8, 128
_USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
# With every game's id (the program's own name among them: "chuko"), and every name that
# passes for one of the server's labels (`labels.py`: "you", "host", the bots' names, …).
RESERVED = frozenset({"admin", "administrator", "root", "system", "deleted",
                      "moderator", "server", "anonymous"})


class BadCredentials(ChukoError):
    """HTTP 401: the username and password do not match an account (the same sentence
    whether the name is unknown or the password wrong)."""


def username_key(username: str) -> str:
    """The key usernames are compared by: casefolded."""
    return username.casefold()


def read_username(value: Any) -> str:
    """A username to sign up with, as given; ConfigError (one sentence) when it may not be
    one."""
    if not isinstance(value, str):
        raise ConfigError(Text("A username must be text."))
    if not MIN_USERNAME <= len(value) <= MAX_USERNAME:
        raise ConfigError(Text("A username has {low} to {high} characters.",
                               low=MIN_USERNAME, high=MAX_USERNAME))
    if not _USERNAME.fullmatch(value):
        raise ConfigError(Text("A username starts with a letter and holds only letters (a to z), "
                               "digits, _ and -."))
    key = username_key(value)
    if (key in RESERVED or key in {g.id for g in descriptors()} or key.startswith("guest")
            or passes_for_a_label(value)):
        raise ConfigError(Text("The username {username!r} is reserved: choose another.",
                               username=value))
    return value


def login_key(value: Any) -> str:
    """The key of a username given at log-in: any text is looked up (a name that cannot be
    one is simply not found), so the answer never says which names exist."""
    if not isinstance(value, str) or len(value) > MAX_USERNAME:
        return ""
    return username_key(value)


def read_password(value: Any, what: str = Text("A password")) -> str:
    """A new password; ConfigError unless it is text of MIN_PASSWORD to MAX_PASSWORD
    characters. Never repeated in a sentence."""
    if not isinstance(value, str):
        raise ConfigError(Text("{what} must be text.", what=what))
    if not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        raise ConfigError(Text("{what} has {low} to {high} characters.", what=what,
                                low=MIN_PASSWORD, high=MAX_PASSWORD))
    return value


def given_password(value: Any) -> str:
    """A password given to be checked: any text up to MAX_PASSWORD characters (longer is
    refused before any hashing, which it would slow down)."""
    if not isinstance(value, str) or not value:
        raise ConfigError(Text("Give your password."))
    if len(value) > MAX_PASSWORD:
        raise ConfigError(Text("A password has at most {most} characters.",
                               most=MAX_PASSWORD))
    return value


def read_display_name(value: Any) -> str:
    """A display name a player chooses: the rules of a seat's name (`lobby.read_name`)."""
    name = read_name(value, passes_for_a_label)
    if name is None:
        raise ConfigError(Text("Give the name to show."))
    return name
