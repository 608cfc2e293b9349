"""The session cookie, `chuko_session`: read from a request, and set or cleared on its
response.

A part that sets the cookie (`accounts.py`) queues its Set-Cookie header in the request's
scope (`set_session`); the router's bare POST answers add what is queued to their headers
(`queued`), and every other HTTP response gets it through `sending`, so FastAPI's routes
and the bare ones set cookies the same way. A socket cannot set one (its handshake has been
answered by the time it asks), so sockets only read it.
"""

from __future__ import annotations

import re

from starlette.types import Message, Scope, Send

SESSION = "chuko_session"
# Browsers keep a cookie at most 400 days: a guest's identity lasts that long unless used
# again (each use of an old session renews it), an account's session a month.
GUEST_AGE = 400 * 86400
ACCOUNT_AGE = 30 * 86400
_QUEUED = "chuko.cookies"  # the scope's key for the Set-Cookie headers to send
_SECRET = re.compile(r"[A-Za-z0-9_-]{16,64}")


def session_secret(scope: Scope) -> str | None:
    """The session cookie's secret the request carries, if it is one the server could have
    made (anything else is no session)."""
    for name, value in scope["headers"]:
        if name != b"cookie":
            continue
        for pair in value.decode("latin-1").split(";"):
            key, _, secret = pair.strip().partition("=")
            if key == SESSION and _SECRET.fullmatch(secret):
                return secret
    return None


def set_session(scope: Scope, secret: str, max_age: int) -> None:
    """Queue the cookie that carries `secret` for `max_age` seconds on the response: only
    for this site's own requests (SameSite=Lax), never to scripts (HttpOnly), and only over
    https when the request came that way."""
    secure = "; Secure" if scope.get("scheme") in ("https", "wss") else ""
    _queue(scope, f"{SESSION}={secret}; Max-Age={max_age}; Path=/; HttpOnly; "
                  f"SameSite=Lax{secure}")


def clear_session(scope: Scope) -> None:
    """Queue the cookie's removal on the response (a session ended)."""
    _queue(scope, f"{SESSION}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax")


def _queue(scope: Scope, cookie: str) -> None:
    headers = scope.setdefault(_QUEUED, [])
    headers[:] = [(b"set-cookie", cookie.encode())]  # the last word on the cookie counts


def queued(scope: Scope) -> list[tuple[bytes, bytes]]:
    """The Set-Cookie headers queued for the request's response."""
    return list(scope.get(_QUEUED, ()))


def sending(scope: Scope, send: Send) -> Send:
    """`send`, adding the queued Set-Cookie headers to the response's start."""

    async def send_with_cookies(message: Message) -> None:
        if message["type"] == "http.response.start" and scope.get(_QUEUED):
            message["headers"] = [*message.get("headers", ()), *queued(scope)]
        await send(message)

    return send_with_cookies
