"""Pages come in the visitor's language: the cookie their switch set, else their browser's
Accept-Language; the choice is kept in the browser and on an account, which brings it back
at log-in from any browser."""

from __future__ import annotations

import json
import re

import pytest

PASSWORD = "correct horse battery"


@pytest.fixture
def browser(make_client):
    def make(**options):
        client = make_client(**options)
        client.headers["origin"] = "http://testserver"
        return client

    return make


def catalogue_of(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="catalogue">(.*?)</script>', page)
    assert found, "the page carries its scripts' catalogue"
    return json.loads(found.group(1).replace("<\\/", "</"))


def language_cookie(response) -> str | None:
    return next((value for value in response.headers.get_list("set-cookie")
                 if value.startswith("chuko_lang=")), None)


def test_the_browsers_language_sets_the_pages_lang_and_catalogue(browser):
    page = browser().get("/", headers={"accept-language": "hu-HU,hu;q=0.9,en;q=0.5"})
    assert page.status_code == 200 and page.headers["content-language"] == "hu"
    assert '<html lang="hu" dir="ltr">' in page.text
    assert catalogue_of(page.text)["lang"] == "hu"


def test_the_pseudo_language_shows_every_unit_of_the_page_translated(browser):
    client = browser()
    client.cookies.set("chuko_lang", "qps")
    page = client.get("/lobby").text
    assert '<html lang="qps"' in page
    title = re.search(r"<title>(.*?)</title>", page).group(1)
    assert title.startswith("⟦") and title.endswith("⟧")


def test_an_unknown_cookie_value_falls_back_to_the_browsers_language(browser):
    client = browser()
    client.cookies.set("chuko_lang", "<script>")
    page = client.get("/", headers={"accept-language": "es"})
    assert page.headers["content-language"] == "es"


def test_the_switch_keeps_the_choice_in_a_cookie(browser):
    client = browser()
    chosen = client.post("/api/me/language", json={"lang": "de"})
    assert chosen.status_code == 200 and chosen.json() == {"lang": "de"}
    assert "HttpOnly" in language_cookie(chosen)
    assert client.get("/").headers["content-language"] == "de"


@pytest.mark.parametrize("lang", ["xx", "qps", None, 3, float("nan"), ["de"], "de" * 5000])
def test_a_language_not_shipped_is_refused_with_a_sentence(browser, lang):
    body = json.dumps({"lang": lang}, allow_nan=True)
    refused = browser().post("/api/me/language", content=body,
                             headers={"content-type": "application/json"})
    assert refused.status_code == 400 and language_cookie(refused) is None
    sentence = refused.json()["error"]
    assert sentence.startswith("Choose one of the languages: en, de, es, hu") or (
        lang != lang and sentence.startswith("NaN, Infinity"))  # NaN: refused on reading


def test_an_accounts_language_follows_it_to_another_browser(browser):
    first = browser()
    made = first.post("/api/account/signup", json={"username": "alice", "password": PASSWORD})
    assert made.status_code == 201
    first.post("/api/me/language", json={"lang": "es"})
    other = browser()
    logged = other.post("/api/account/login", json={"username": "alice", "password": PASSWORD})
    assert logged.status_code == 200
    assert language_cookie(logged).startswith("chuko_lang=es;")
    assert other.get("/").headers["content-language"] == "es"


def test_a_guests_choice_stays_in_their_browser_only(browser):
    guest = browser()
    guest.post("/api/me", json={})
    assert guest.post("/api/me/language", json={"lang": "hu"}).status_code == 200
    assert guest.get("/").headers["content-language"] == "hu"
