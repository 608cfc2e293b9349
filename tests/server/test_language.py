"""The server's sentences reach each reader in their language: the API's answers and
refusals in the request's (its `lang` cookie, else its Accept-Language), a socket's
messages in the language its handshake asked for. The shipped catalogues are the
translators' and may not hold these sentences yet, so the tests read a German catalogue of
their own (`german`)."""

from __future__ import annotations

import pytest

from chuko.i18n import catalogues, words

# Test entries, each the English sentence → the test's own German.
GERMAN = {
    "The request body is not JSON.": "Der Rumpf der Anfrage ist kein JSON.",
    "There is no such address.": "Diese Adresse gibt es nicht.",
    "There is no room {room_id!r}.": "Es gibt keinen Raum {room_id!r}.",
    "Unknown message: send {kinds}.": "Unbekannte Nachricht: sende {kinds}.",
}


def po_entries(entries: dict[str, str]) -> str:
    header = ('msgid ""\nmsgstr ""\n"Language: de\\n"\n'
              '"Content-Type: text/plain; charset=utf-8\\n"\n'
              '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n')
    return header + "".join(f'msgid "{english}"\nmsgstr "{german}"\n\n'
                            for english, german in entries.items())


@pytest.fixture
def german(tmp_path, monkeypatch):
    """German read from a catalogue of the test's own (`GERMAN`), in a locale folder under
    tmp; the shipped catalogues are read again afterwards."""
    folder = tmp_path / "locale" / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "server.po").write_text(po_entries(GERMAN), encoding="utf-8")
    monkeypatch.setattr(catalogues, "LOCALE_DIR", tmp_path / "locale")
    catalogues.catalogue.cache_clear()
    words.cache_clear()
    yield
    catalogues.catalogue.cache_clear()
    words.cache_clear()


def test_a_bare_post_refusal_arrives_in_the_lang_cookies_language(make_client, german):
    client = make_client()
    client.cookies.set("lang", "de")
    answer = client.post("/api/rooms", content=b"{not json")
    assert answer.status_code == 400
    assert answer.json() == {"error": "Der Rumpf der Anfrage ist kein JSON."}


def test_a_route_refusal_arrives_in_the_accept_languages_language(make_client, german):
    client = make_client()
    answer = client.get("/api/rooms/nowhere", headers={"Accept-Language": "fr, de;q=0.8"})
    assert answer.status_code == 404
    assert answer.json() == {"error": "Es gibt keinen Raum 'nowhere'."}
    # The answer's length is the German one's, not the English sentence's.
    assert int(answer.headers["content-length"]) == len(answer.content)
    unknown = client.get("/api/no-such-thing", headers={"Accept-Language": "de"})
    assert unknown.json() == {"error": "Diese Adresse gibt es nicht."}


def test_the_cookie_comes_before_accept_language_and_english_stays_byte_identical(
        make_client, german):
    client = make_client()
    client.cookies.set("lang", "en")
    answer = client.get("/api/rooms/nowhere", headers={"Accept-Language": "de"})
    assert answer.json() == {"error": "There is no room 'nowhere'."}
    client.cookies.set("lang", "xx")  # not a shipped language: the header decides
    answer = client.get("/api/rooms/nowhere", headers={"Accept-Language": "de"})
    assert answer.json() == {"error": "Es gibt keinen Raum 'nowhere'."}


HOSTILE = ["de;q=NaN", "de;q=inf, *;q=-1", "x" * 100_000, ";;;,,,;q=", "\u00e9\u00e8;q=0.5",
           ",".join(["de-DE-x-private;q=0.1"] * 5_000), "de;q=1e999", "*", "q=1;de"]


@pytest.mark.parametrize("header", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_accept_language_never_fails(make_client, german, header):
    client = make_client()
    answer = client.get("/api/rooms/nowhere",
                        headers={"Accept-Language": header.encode("utf-8")})
    assert answer.status_code == 404
    assert answer.json()["error"] in ("There is no room 'nowhere'.",
                                      "Es gibt keinen Raum 'nowhere'.")
