"""The front end's files are served from the package directory: each page path maps to its
HTML file (docs/web-protocol.md), assets under /static, and a missing page says so."""

from __future__ import annotations

import pytest

from chuko.server.web.html_pages import web_dir
from chuko.server.web.redaction import redact

PAGES = {"index.html": "home", "room.html": "room", "replay.html": "replay",
         "rules.html": "rules"}


@pytest.fixture
def site(tmp_path, make_client):
    for name, word in PAGES.items():
        (tmp_path / name).write_text(f"<!doctype html><title>{word}</title>")
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "app.js").write_text("export const ok = 1;")
    return make_client(static_dir=tmp_path)


@pytest.mark.parametrize(("path", "page"), [
    ("/", "home"), ("/rules/chuchula", "rules"), ("/room/abc", "room"), ("/watch/abc", "room"),
    ("/join/abc/def", "room"), ("/replay/abc", "replay"),
])
def test_each_path_serves_its_page(site, path, page):
    response = site.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert f"<title>{page}</title>" in response.text


def test_assets_are_served_under_static(site):
    response = site.get("/static/js/app.js")
    assert response.status_code == 200 and "export const ok" in response.text
    assert site.get("/static/nothing.js").status_code == 404


def test_a_page_not_built_yet_says_so(make_client, tmp_path):
    client = make_client(static_dir=tmp_path / "empty")
    response = client.get("/")
    assert response.status_code == 404 and "not built yet" in response.text
    assert client.get("/api/games").status_code == 200  # the API works without pages


def test_the_package_ships_its_web_directory():
    assert web_dir().name == "web" and web_dir().parent.name == "chuko"


def test_logs_never_show_tokens_or_invites():
    line = '127.0.0.1 - "GET /api/rooms/abc?token=s3cr3t&x=1 HTTP/1.1" 200 /join/abc/inv1te'
    assert redact(line) == '127.0.0.1 - "GET /api/rooms/abc?token=…&x=1 HTTP/1.1" 200 /join/abc/…'


def test_serve_refuses_a_bad_database_url_with_one_line(run_chuko):
    status, out, err = run_chuko("serve", "--db", "mysql://x/y", "--port", "8999")
    assert status == 2
    assert err.strip() == "chuko: The database must be sqlite or postgresql, not 'mysql'."


def test_serve_refuses_a_room_lifetime_of_no_hours_with_one_line(run_chuko):
    status, _, err = run_chuko("serve", "--waiting-hours", "0", "--port", "8999")
    assert status == 2
    assert err.strip() == ("chuko: Rooms must be given some hours to fill: --waiting-hours "
                           "above 0.")


def test_create_app_passes_the_waiting_time_to_its_rooms(db_url):
    from chuko.server import create_app

    app = create_app(db_url, waiting_ttl=90)
    assert app.state.hub.waiting_ttl == 90
