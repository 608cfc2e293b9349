"""The language a request is answered in: its `lang` cookie when it names a shipped
language, else the best of its Accept-Language (`chuko.i18n.negotiate`)."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from chuko.i18n import LANGUAGES, negotiate

COOKIE = "lang"


def request_language(connection: HTTPConnection) -> str:
    """The shipped language `connection` (a request or a socket's handshake) is answered
    in; English when it names none. Headers are the client's: anything malformed is
    passed over, never an error."""
    chosen = connection.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return negotiate(connection.headers.get("accept-language"))
