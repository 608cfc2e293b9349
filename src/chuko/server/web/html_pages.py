"""The front end's pages and static files (`chuko/web/`), as routes of the app."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from chuko.games import registry
from chuko.server.web.installable import add_installable
from chuko.server.web.language import request_language
from chuko.server.web.page_language import translated_page

# The HTTP status of an account's profile page: 200, 404 for a name nobody plays under,
# 429 over the look-ups' budget (`ProfileApi.page_status`).
ProfileStatus = Callable[[Request, str], Awaitable[int]]

PAGES = {"index": "index.html", "rules": "rules.html", "room": "room.html",
         "replay": "replay.html", "lab": "lab.html", "account": "account.html",
         "leaderboard": "leaderboard.html", "profile": "profile.html", "lobby": "lobby.html",
         "puzzles": "puzzles.html", "learn": "learn.html",
         "daily": "daily.html", "people": "people.html", "tournaments": "tournaments.html",
         "tournament": "tournament.html"}


def _page_route(static: Path, name: str) -> Callable[[Request], Awaitable[Response]]:
    async def serve(request: Request) -> Response:
        return page(request, static, name)

    return serve


def web_dir() -> Path:
    """The front end's files, shipped inside the package next to this one."""
    return Path(__file__).resolve().parent.parent.parent / "web"


def page(request: Request, static: Path, name: str, game_id: str | None = None,
         status: int = 200) -> Response:
    """The page `name` from the front end's files in `static`, in the request's language
    (answered with `status`), or a sentence saying it is not built yet; 404 for a page
    about a `game_id` that is not registered."""
    if game_id is not None and game_id not in registry():
        raise HTTPException(404)
    path = static / PAGES[name]
    if not path.is_file():
        return HTMLResponse(f"<!doctype html><title>chuko</title><p>The {name} page is not "
                            "built yet.</p>", status_code=404)
    lang = request_language(request)
    return HTMLResponse(translated_page(path, lang), status_code=status, headers={
        "Cache-Control": "no-cache", "Content-Language": lang,
        "Vary": "Accept-Language, Cookie"})


# Pages whose address has nothing to check: the address → the page.
PLAIN = {
    "/": "index",
    "/lab": "lab",  # the facts `chuko study` shipped, with their plots (server/practice/facts.py)
    "/account": "account",  # sign up, log in and out, a new password, a deleted account
    "/lobby": "lobby",  # quick pairing and open seeks (server/lobby/matchmaking.py)
    "/puzzles": "puzzles",  # Crossroads puzzles, rated (server/web/puzzles_api.py)
    "/people": "people",  # those one follows and blocks (server/web/people_api.py)
    "/tournaments": "tournaments",  # the list, and the form to make one (tournaments_api.py)
}


def add_pages(app: FastAPI, static: Path, profile_status: ProfileStatus) -> None:
    """The pages of the front end in `static`, its files under /static, and what installs
    it as an app (`installable.py`), routed by `app`; a profile's page answers
    `profile_status`."""
    add_installable(app, static)
    for path, name in PLAIN.items():
        app.add_api_route(path, _page_route(static, name), methods=["GET"],
                          include_in_schema=False)

    @app.get("/rules/{game_id}", include_in_schema=False)
    async def rules(request: Request, game_id: str) -> Response:
        return page(request, static, "rules", game_id)

    @app.get("/room/{room_id}", include_in_schema=False)
    @app.get("/watch/{room_id}", include_in_schema=False)
    @app.get("/join/{room_id}/{invite}", include_in_schema=False)
    async def room_page(request: Request, room_id: str, invite: str | None = None) -> Response:
        return page(request, static, "room")

    @app.get("/replay/{room_id}", include_in_schema=False)
    async def replay_page(request: Request, room_id: str) -> Response:
        return page(request, static, "replay")

    # The club's pages: a game's leaderboard (bare, the first game's), and an account's
    # profile (404 when nobody has that name: its script then shows only the API's sentence).
    @app.get("/leaderboard", include_in_schema=False)
    @app.get("/leaderboard/{game_id}", include_in_schema=False)
    async def leaderboard_page(request: Request, game_id: str | None = None) -> Response:
        return page(request, static, "leaderboard", game_id)

    # Lessons: the list, and a game's steps on its own table (server/web/lessons_api.py).
    @app.get("/learn", include_in_schema=False)
    @app.get("/learn/{game_id}", include_in_schema=False)
    async def learn_page(request: Request, game_id: str | None = None) -> Response:
        return page(request, static, "learn", game_id)

    @app.get("/@/{username}", include_in_schema=False)
    async def profile_page(request: Request, username: str) -> Response:
        return page(request, static, "profile", status=await profile_status(request, username))

    # A tournament's page (it says when there is none, from the API's answer).
    @app.get("/tournament/{tournament_id}", include_in_schema=False)
    async def tournament_page(request: Request, tournament_id: str) -> Response:
        return page(request, static, "tournament")

    # The daily Caravan: today's deal, or a past day's (the API refuses a day to come).
    @app.get("/daily", include_in_schema=False)
    @app.get("/daily/{day}", include_in_schema=False)
    async def daily_page(request: Request, day: str | None = None) -> Response:
        return page(request, static, "daily")

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")
