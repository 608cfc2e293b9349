"""The middleware around FastAPI's routes (`Guard`): security headers on every response, and a
sentence for a route that fails unexpectedly."""

from __future__ import annotations

import logging
from html import escape

from fastapi.responses import HTMLResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chuko.core.text import Text
from chuko.server.web.answers import said_to
from chuko.server.web.headers import SECURITY_HEADERS
from chuko.server.web.http_errors import FAILED, error_response
from chuko.server.web.redaction import redact

log = logging.getLogger("chuko.server")

_GUARDED = {name for name, _ in SECURITY_HEADERS}


class Guard:
    """ASGI middleware: every response of FastAPI's routes carries SECURITY_HEADERS (the bare
    routes of `App` add them themselves), and a route that fails unexpectedly answers 500
    with a sentence, JSON under /api/ (Starlette's own answer, outside this middleware, is
    plain text without the headers)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = message.get("headers", ())
                message["headers"] = [*(h for h in headers if h[0] not in _GUARDED),
                                      *SECURITY_HEADERS]
            await send(message)

        try:
            await self.app(scope, receive, secured)
        except Exception:
            if started:  # too late for an answer: uvicorn closes the connection
                raise
            log.exception("%s %s failed", scope["method"], redact(scope["path"]))
            page = said_to(scope, {"title": Text("Error"), "sentence": FAILED})
            failed = (error_response(500, FAILED) if scope["path"].startswith("/api/") else
                      HTMLResponse(f"<!doctype html><title>{escape(page['title'])}</title>"
                                   f"<p>{escape(page['sentence'])}</p>", status_code=500))
            await failed(scope, receive, secured)
