"""The language a request is answered in, and the visitor's choice of it.

The choice lives in a cookie, `chuko_lang`: set by the header's switch (`POST
/api/me/language`, kept on an account too) and, at log-in, from the account's saved choice,
so no request reads the database to know its language. Without the cookie the browser's
Accept-Language decides. `qps`, the translators' pseudo-language (`chuko.i18n.pseudo`), is
accepted from the cookie but never offered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import HTTPConnection
from starlette.types import Scope

from chuko.i18n import LANGUAGES, negotiate
from chuko.i18n.pseudo import CODE as PSEUDO
from chuko.server.web.cookies import set_cookie

COOKIE = "chuko_lang"
COOKIE_AGE = 400 * 86400  # as long as a browser keeps anything
ACCEPTED = frozenset(LANGUAGES) | {PSEUDO}


def request_language(connection: HTTPConnection | Scope) -> str:
    """The language to answer `connection` (a request, a socket, or a bare scope) in."""
    scope = connection.scope if isinstance(connection, HTTPConnection) else connection
    chosen = _cookie(scope)
    if chosen is not None:
        return chosen
    return negotiate(_header(scope, b"accept-language"))


def remember_language(scope: Scope, lang: str) -> None:
    """Queue the cookie that keeps `lang` (a shipped language) on the response."""
    set_cookie(scope, COOKIE, lang, COOKIE_AGE)


def read_language(value: Any) -> str | None:
    """A client's choice of language, if it is a shipped one."""
    return value if isinstance(value, str) and value in LANGUAGES else None


def _cookie(scope: Mapping[str, Any]) -> str | None:
    header = _header(scope, b"cookie") or ""
    for pair in header[:4096].split(";"):
        name, _, value = pair.strip().partition("=")
        if name == COOKIE and value in ACCEPTED:
            return value
    return None


def _header(scope: Mapping[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None
