"""End-to-end fixtures: the real app on a free loopback port with a temporary SQLite
database, and Debian's Chromium driven by playwright (never a downloaded browser)."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "web"
TIMEOUT_MS = 10_000
ROUND_PAUSE = 3
LEAVE_GRACE = 5.0  # long enough for a table's pages to open its sockets, under load too

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's chromium at /usr/bin/chromium (apt-get install chromium; "
        ".ci/run installs it)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(db: Path, **options):
    """The app on a free loopback port, served by uvicorn in a thread: (url, server, thread)."""
    try:
        from chuko.server import create_app
    except ModuleNotFoundError as error:
        if error.name != "chuko.server":
            raise
        pytest.skip("the server half of the browser app (chuko.server) is not in this tree yet")
    return serve_app(create_app(f"sqlite:///{db}", **options))


def serve_app(app):
    """`app` on a free loopback port, served by uvicorn in a thread: (url, server, thread)."""
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the app did not start within 15 s")
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server, thread


def _one_address(limits=None):
    """Limits for an app whose every browser comes from one address (127.0.0.1), as many
    players behind one network's address would: the session's tests, one after another,
    load pages that count against that address's page budget (a replay, a game list, each
    home page's list of your games), which a real address's players spread over time, and
    leave rooms unfinished (a test stops when it has seen what it checks), which count
    against the address's cap on open rooms."""
    from dataclasses import replace

    from chuko.server.shared.limits import Limits, Rate

    return replace(limits or Limits(), replay_pages=Rate(40, 400), open_rooms_per_address=1_000)


def _app(tmp_path_factory, name: str, **options):
    """The app on a database of its own, for the session: its url, stopped at the end."""
    options["limits"] = _one_address(options.get("limits"))
    url, server, thread = _serve(tmp_path_factory.mktemp(name) / "chuko.db", **options)
    yield url
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def base_url(tmp_path_factory) -> str:
    """The app, stopped at the end of the session. Bots wait 50 ms instead of the pause that
    lets people follow them, and go straight on after a round."""
    yield from _app(tmp_path_factory, "web", bot_delay=0.05, round_pause=0)


@pytest.fixture(scope="session")
def paused_url(tmp_path_factory) -> str:
    """A second app whose bots wait ROUND_PAUSE seconds after a round, as a real server does."""
    yield from _app(tmp_path_factory, "paused", bot_delay=0.05, round_pause=ROUND_PAUSE)


@pytest.fixture(scope="session")
def brisk_url(tmp_path_factory) -> str:
    """A third app for the club's flows: a player whose sockets are all closed has left after
    LEAVE_GRACE seconds (`Limits.leave_grace`, 60 s on a real server), and sign-ups are not
    rationed, so every test makes the accounts it needs."""
    from chuko.server.shared.limits import Limits, Rate

    yield from _app(tmp_path_factory, "brisk", bot_delay=0.05, round_pause=0,
                    limits=Limits(leave_grace=LEAVE_GRACE, signups=Rate(10, 100)))


@pytest.fixture(scope="session")
def club_url(tmp_path_factory) -> str:
    """A fourth app, for the club's pages: its database seeded with players and their rated
    games (`club_seed.seed_club`)."""
    from club_seed import seed_club

    db = tmp_path_factory.mktemp("club") / "chuko.db"
    seed_club(f"sqlite:///{db}")
    url, server, thread = _serve(db, bot_delay=0.05)
    yield url
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def own_app(tmp_path):
    """Serves an app the test makes and reaches into: `own_app(**options)` makes it on a
    database of its own, as `_app` does, and answers (app, url); stopped at the end."""
    running = []

    def start(**options):
        from chuko.server import create_app

        options["limits"] = _one_address(options.get("limits"))
        app = create_app(f"sqlite:///{tmp_path / 'chuko.db'}", **options)
        url, server, thread = serve_app(app)
        running.append((server, thread))
        return app, url

    yield start
    for server, thread in running:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Pages:
    """New browser contexts (each its own localStorage, like separate people) whose pages
    fail the test on any JavaScript error."""

    def __init__(self, browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.errors: list[str] = []
        self.contexts = []

    def new(self, width: int = 1100, height: int = 900, base_url: str | None = None, *,
            service_workers: str = "block"):
        # The club's service worker (sw.js) fetches every file it keeps when a page first
        # opens: on the shared test servers that would add its requests to every test's.
        # Its own tests allow it.
        context = self.browser.new_context(
            base_url=base_url or self.base_url, viewport={"width": width, "height": height},
            service_workers=service_workers,
        )
        context.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser, base_url):
    made = Pages(browser, base_url)
    yield made
    made.close()
    assert not made.errors, f"JavaScript errors: {made.errors}"


@pytest.fixture
def shot():
    """Save a screenshot under screenshots/web/ (git-ignored): the full page, or with
    full_page=False what the window shows."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str, *, full_page: bool = True) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
