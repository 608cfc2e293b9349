"""Which language a request is answered in: the one the visitor chose (the `lang`
cookie), else the best shipped language for the browser's Accept-Language, else English."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from chuko.i18n import LANGUAGES, negotiate

COOKIE = "lang"


def request_language(connection: HTTPConnection) -> str:
    """A shipped language's code for the request or socket `connection`; a cookie naming
    a language chuko does not ship is ignored (it is the client's text)."""
    chosen = connection.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return negotiate(connection.headers.get("accept-language"))
