"""Refusals over HTTP: the status of each of the project's errors, the JSON answer that
carries its sentence, and FastAPI's handlers that give them (JSON under /api/, a page
elsewhere)."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException

from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.server.club.usernames import BadCredentials
from chuko.server.rooms.room import Forbidden, NotFound
from chuko.server.shared.limits import Full, TooLarge, TooMany
from chuko.server.shared.messages import sentence
from chuko.server.store.database import RETRY_AFTER, Conflict, Unavailable
from chuko.server.web.answers import Answer, said_to

FAILED = Text("The server could not do that just now. Try again.")

# The HTTP status of each refusal; any other error of the project's is a bad request.
_STATUSES: tuple[tuple[type[ChukoError], int], ...] = (
    (NotFound, 404), (Forbidden, 403), (BadCredentials, 401), (Conflict, 409),
    (TooLarge, 413), (TooMany, 429), (Full, 503), (Unavailable, 503),
)
# Told with a 503 while the database is away: when to ask again.
RETRY = (b"retry-after", str(RETRY_AFTER).encode())


def status_of(error: ChukoError) -> int:
    return next((status for kind, status in _STATUSES if isinstance(error, kind)), 400)


def error_response(status: int, message: str,
                   headers: Mapping[str, str] | None = None) -> Answer:
    """A refusal's JSON, {"error": message}, in its reader's language (`Answer`)."""
    return Answer({"error": message}, status_code=status, headers=headers)


async def chuko_error(request: Request, error: ChukoError) -> Answer:
    """A refusal of one of FastAPI's routes: its sentence, with its status."""
    return error_response(status_of(error), sentence(error), retry_after(error))


def retry_after(error: ChukoError) -> dict[str, str] | None:
    """The Retry-After header of a refusal that knows when to ask again: the database away,
    or a rate's bucket empty."""
    if isinstance(error, Unavailable):
        return {"Retry-After": str(RETRY_AFTER)}
    if isinstance(error, TooMany) and error.retry_after is not None:
        return {"Retry-After": str(error.retry_after)}
    return None


async def http_error(request: Request, error: HTTPException) -> Response:
    """Starlette's own refusals (no such address, a method not taken) as a sentence: JSON
    under /api/, a page with a link home elsewhere."""
    if request.url.path.startswith("/api/") or error.status_code != 404:
        message = error.detail if isinstance(error.detail, str) else Text("Bad request.")
        if error.status_code == 404:
            message = Text("There is no such address.")
        elif error.status_code == 405:  # Starlette's detail is the bare phrase
            message = Text("This address does not take {method} requests.",
                           method=request.method)
        return error_response(error.status_code, message, error.headers)
    said = said_to(request.scope, {"title": Text("Not found"),
                                   "sentence": Text("There is no such page."),
                                   "link": Text("Go to the games")})
    return HTMLResponse(f"<!doctype html><title>{escape(said['title'])}</title><p>"
                        f"{escape(said['sentence'])} "
                        f'<a href="/">{escape(said["link"])}</a>.</p>', status_code=404)


async def invalid_parameter(request: Request, error: RequestValidationError) -> Answer:
    """FastAPI's refusal of a parameter of the wrong type (a lesson's step that is no whole
    number: "NaN", "1e308", "true") as a 400 with one sentence, not its own 422 list."""
    found = error.errors()
    first = found[0] if found else {}
    name = first.get("loc", ("", "request"))[-1]
    if str(first.get("type", "")).startswith("int"):
        return error_response(400, Text("The request's {name} must be a whole number.",
                                        name=name))
    return error_response(400, Text("The request's {name} must be valid.", name=name))


def add_refusals(app: FastAPI) -> None:
    """The handlers that answer `app`'s refusals with a sentence."""
    app.exception_handler(ChukoError)(chuko_error)
    app.exception_handler(HTTPException)(http_error)
    app.exception_handler(RequestValidationError)(invalid_parameter)
