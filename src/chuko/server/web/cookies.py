"""The session cookie, `chuko_session`, and the proof that an account logged in from a
browser, `chuko_device` (`club/login_limits.py`): read from a request, and set or cleared on
its response.

A part that sets a cookie (`accounts.py`, `accounts_api.py`) queues its Set-Cookie header
in the request's scope (`set_cookie`); the router's bare POST answers add what is queued
to their headers (`queued`), and every other HTTP response gets it through `sending`, so
FastAPI's routes and the bare ones set cookies the same way. A socket cannot set one (its
handshake has been answered by the time it asks), so sockets only read it.
"""

from __future__ import annotations

import re

from starlette.types import Message, Scope, Send

SESSION = "chuko_session"
# The proof that an account logged in from this browser (`login_limits.device_proof`),
# kept across log-outs.
DEVICE = "chuko_device"
# Browsers keep a cookie at most 400 days: a session's cookie lasts as long as the session
# (`club/sessions.py`); a browser is known to an account for as long as a browser keeps
# anything.
DEVICE_AGE = 400 * 86400
_QUEUED = "chuko.cookies"  # the scope's key for the Set-Cookie headers to send, by name
_SECRET = re.compile(r"[A-Za-z0-9_-]{16,64}")  # a session's secret or a device's proof


def session_secret(scope: Scope) -> str | None:
    """The session cookie's secret the request carries, if it is one the server could have
    made (anything else is no session)."""
    return cookie_value(scope, SESSION)


def cookie_value(scope: Scope, name: str) -> str | None:
    """The value of the request's cookie `name` (the session's, or `DEVICE`), if it is
    one the server could have made."""
    for header, value in scope["headers"]:
        if header != b"cookie":
            continue
        for pair in value.decode("latin-1").split(";"):
            key, _, secret = pair.strip().partition("=")
            if key == name and _SECRET.fullmatch(secret):
                return secret
    return None


def set_session(scope: Scope, secret: str, max_age: int) -> None:
    """Queue the cookie that carries `secret` for `max_age` seconds on the response."""
    set_cookie(scope, SESSION, secret, max_age)


def set_cookie(scope: Scope, name: str, value: str, max_age: int) -> None:
    """Queue the cookie `name` on the response: only for this site's own requests
    (SameSite=Lax), never to scripts (HttpOnly), and only over https when the request came
    that way."""
    secure = "; Secure" if scope.get("scheme") in ("https", "wss") else ""
    _queue(scope, name, f"{name}={value}; Max-Age={max_age}; Path=/; HttpOnly; "
                        f"SameSite=Lax{secure}")


def clear_session(scope: Scope) -> None:
    """Queue the cookie's removal on the response (a session ended)."""
    _queue(scope, SESSION, f"{SESSION}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax")


def _queue(scope: Scope, name: str, cookie: str) -> None:
    queued = scope.setdefault(_QUEUED, {})
    queued[name] = (b"set-cookie", cookie.encode())  # the last word on a cookie counts


def queued(scope: Scope) -> list[tuple[bytes, bytes]]:
    """The Set-Cookie headers queued for the request's response."""
    return list(scope.get(_QUEUED, {}).values())


def sending(scope: Scope, send: Send) -> Send:
    """`send`, adding the queued Set-Cookie headers to the response's start."""

    async def send_with_cookies(message: Message) -> None:
        if message["type"] == "http.response.start" and scope.get(_QUEUED):
            message["headers"] = [*message.get("headers", ()), *queued(scope)]
        await send(message)

    return send_with_cookies
