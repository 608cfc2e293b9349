"""The club installs as an app: its manifest and icons are served, and after one visit its
service worker has kept the rules, which open with the network cut while the home page
says in one line that it is offline."""

from __future__ import annotations

import json
import struct
import urllib.request

import pytest

pytestmark = pytest.mark.e2e

KEPT = """async (path) => {
  await navigator.serviceWorker.ready;
  for (const key of await caches.keys()) {
    if (await (await caches.open(key)).match(path)) return true;
  }
  return false;
}"""


def fetch(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url) as response:
        return response.headers["content-type"], response.read()


def test_the_manifest_names_icons_that_are_served_at_their_size(base_url):
    kind, body = fetch(f"{base_url}/manifest.webmanifest")
    manifest = json.loads(body)
    assert kind.startswith("application/manifest+json")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        kind, png = fetch(base_url + icon["src"])
        width, height = struct.unpack(">II", png[16:24])
        assert kind == "image/png" and f"{width}x{height}" == icon["sizes"]


def test_the_service_worker_keeps_the_home_page_and_every_rules_page(base_url):
    kind, script = fetch(f"{base_url}/sw.js")
    assert kind.startswith("text/javascript")
    assert '"/rules/chuko"' in script.decode() and '"/static/style.css"' in script.decode()


def test_offline_after_one_visit_the_rules_open_and_home_says_it_is_offline(pages, shot):
    page = pages.new(width=390, height=844, service_workers="allow")
    page.goto("/")
    page.wait_for_function(f"({KEPT})('/rules/chuko')", polling=100)
    page.context.set_offline(True)
    page.goto("/rules/chuko")
    page.locator("#rules h2").first.wait_for()
    assert "prime factor" in page.locator("#rules").inner_text()
    page.goto("/")
    line = page.locator("#offline-line")
    line.wait_for()
    assert line.inner_text().startswith("You are offline")
    shot(page, "offline-home-phone", full_page=False)
    page.goto("/lobby")  # a page not kept: the home page stands in, saying it is offline
    page.locator("#offline-line").wait_for()
    page.context.set_offline(False)
