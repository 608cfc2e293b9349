"""Cross-site request forgery: a request that changes something (any method but GET, HEAD
and OPTIONS) must come from the app's own pages, as its Origin header says (or its Referer
when it has no Origin). docs/web-protocol.md, "Accounts", says the rule:

- an Origin (or else a Referer) naming another host, or the opaque origin "null", is
  refused with 403;
- a request with neither is a program's, not a page's (every browser sends an Origin with
  a POST): it may go on without a session cookie, and with one only when it says
  `X-Chuko: 1` (a header no other site can make a browser send without the server's
  leave).

Sockets are checked too: a socket opened from another site's page never counts as the
player of the cookie it carries (`accounts.py`).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.types import Scope

from chuko.core.text import Text
from chuko.server.web.cookies import session_secret

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}
FOREIGN = Text("This request comes from another site, so it was refused.")
UNSAID = Text("A request that carries a session must come from the app's pages (with an Origin "
              "header) or say X-Chuko: 1.")


def _header(scope: Scope, wanted: bytes) -> str | None:
    for name, value in scope["headers"]:
        if name == wanted:
            return str(value.decode("latin-1"))
    return None


def _host_of(url: str) -> str | None:
    """`url`'s host and port, the scheme's default port left out; None when it has none."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname:
        return None
    if port is None or str(port) == _DEFAULT_PORTS.get(parts.scheme):
        return parts.hostname
    return f"{parts.hostname}:{port}"


def _own_host(scope: Scope) -> str | None:
    host = _header(scope, b"host")
    if host is None:
        return None
    return _host_of(f"{scope.get('scheme', 'http')}://{host}".lower())


def same_site(scope: Scope) -> bool | None:
    """True when the request's Origin (or else Referer) names the host it was sent to, False
    when it names another (or is "null"), None when it has neither."""
    given = _header(scope, b"origin") or _header(scope, b"referer")
    if given is None:
        return None
    if given == "null":
        return False
    own = _own_host(scope)
    return own is not None and _host_of(given.lower()) == own


def forgery(scope: Scope) -> str | None:
    """Why a state-changing request must be refused (its sentence), or None when it may go
    on."""
    if scope["method"] in SAFE:
        return None
    found = same_site(scope)
    if found is False:
        return FOREIGN
    if found is None and session_secret(scope) is not None and \
            _header(scope, b"x-chuko") is None:
        return UNSAID
    return None
