"""The club as an app a phone installs: its manifest, its icons, and its service worker
(`chuko/web/sw.js`), which keeps the static files, the home page and the rules for when
there is no connection. The rules stay in the engines: the worker only keeps pages."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from chuko.core.text import Text
from chuko.games import registry
from chuko.i18n import words
from chuko.server.web.app_icon import FELT, icon_png
from chuko.server.web.language import request_language

ICON_SIZES = (192, 512)
_STATIC_KINDS = (".js", ".css")


def add_installable(app: FastAPI, static: Path) -> None:
    """The manifest, the icons and the service worker, routed by `app`."""

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest(request: Request) -> Response:
        return JSONResponse(manifest_of(request_language(request)),
                            media_type="application/manifest+json")

    @app.get("/icons/{size}.png", include_in_schema=False)
    async def icon(size: int) -> Response:
        if size not in ICON_SIZES:
            raise HTTPException(404)
        return Response(icon_png(size), media_type="image/png",
                        headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        return Response(worker_script(static), media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


def manifest_of(lang: str) -> dict[str, object]:
    said = words(lang)
    felt = "#{:02x}{:02x}{:02x}".format(*FELT)
    return {
        "name": "chükö", "short_name": "chükö", "lang": said.lang,
        "description": said.say(Text("Card games to play alone, against bots or with friends.")),
        "start_url": "/", "scope": "/", "display": "standalone",
        "background_color": felt, "theme_color": felt,
        "icons": [{"src": f"/icons/{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
                   "purpose": "any maskable"} for size in ICON_SIZES],
    }


def offline_paths(static: Path, game_ids: Iterable[str]) -> list[str]:
    """What the worker keeps: the static files, the home page, and each game's rules (the
    page, the games' list it links with, and the rules' text)."""
    files = sorted(f"/static/{path.relative_to(static).as_posix()}"
                   for path in static.rglob("*") if path.suffix in _STATIC_KINDS)
    rules = [path for game in sorted(game_ids)
             for path in (f"/rules/{game}", f"/api/games/{game}/rules")]
    icons = [f"/icons/{size}.png" for size in ICON_SIZES]
    return ["/", "/api/games", "/manifest.webmanifest", *icons, *rules, *files]


def worker_script(static: Path) -> str:
    return _worker_script(static, _version(static))


@cache
def _worker_script(static: Path, version: str) -> str:
    template = (static / "sw.js").read_text(encoding="utf-8")
    kept = json.dumps(offline_paths(static, registry()))
    return template.replace("__VERSION__", version).replace("__OFFLINE__", kept)


def _version(static: Path) -> str:
    """A hash of the static files' names, sizes and times: a release changes it."""
    digest = hashlib.sha256()
    for path in sorted(static.rglob("*")):
        if path.is_file():
            stat = path.stat()
            digest.update(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()[:16]
