"""The server's sentences reach each reader in their language: the API's answers and
refusals in the request's (its `chuko_lang` cookie, else its Accept-Language), a socket's
messages in the language its handshake asked for. The shipped catalogues are the
translators' and may not hold these sentences yet, so the tests read a German catalogue of
their own (`german`)."""

from __future__ import annotations

import pytest
from server_helpers import new_room

from chuko.core.errors import IllegalMove
from chuko.core.text import Plural, Text
from chuko.games import game_class
from chuko.i18n import catalogues, words
from chuko.server.lobby.feed import LobbyClient
from chuko.server.notify.channel import Channel
from chuko.server.shared.messages import wire_dumps, wire_loads

# Test entries, each the English sentence → the test's own German.
GERMAN = {
    "The request body is not JSON.": "Der Rumpf der Anfrage ist kein JSON.",
    "There is no such address.": "Diese Adresse gibt es nicht.",
    "There is no room {room_id!r}.": "Es gibt keinen Raum {room_id!r}.",
    "Spectators cannot move.": "Zuschauer können nicht ziehen.",
    "Unknown message: send {kinds}.": "Unbekannte Nachricht: sende {kinds}.",
    "{card} does not fit at either end.": "{card} passt an kein Ende.",
    "You resigned": "Du hast aufgegeben",
    "There is no such page.": "Diese Seite gibt es nicht.",
    "{forfeit}: {winner} wins.": "{forfeit}: {winner} gewinnt.",
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


def test_a_bare_post_refusal_arrives_in_the_cookies_language(make_client, german):
    client = make_client()
    client.cookies.set("chuko_lang", "de")
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
    page = client.get("/no-such-page", headers={"Accept-Language": "de"})
    assert page.status_code == 404 and "<p>Diese Seite gibt es nicht. " in page.text


def test_the_cookie_comes_before_accept_language_and_english_stays_byte_identical(
        make_client, german):
    client = make_client()
    client.cookies.set("chuko_lang", "en")
    answer = client.get("/api/rooms/nowhere", headers={"Accept-Language": "de"})
    assert answer.json() == {"error": "There is no room 'nowhere'."}
    client.cookies.set("chuko_lang", "xx")  # not a shipped language: the header decides
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


def test_a_room_sockets_refusal_of_an_illegal_move_is_worded_in_its_language(
        make_client, german, monkeypatch):
    def refuse(text: str):  # the rules' refusal, as an engine words it: a Text
        raise IllegalMove(Text("{card} does not fit at either end.", card=text))

    monkeypatch.setattr(game_class("caravan"), "parse_move", staticmethod(refuse))
    client = make_client()
    room = new_room(client, "caravan", [{"kind": "me"}])
    url = f"/ws/{room['room']}?token={room['token']}"
    with client.websocket_connect(url, headers={"Accept-Language": "de"}) as german_seat, \
            client.websocket_connect(url) as english_seat:
        for ws in (german_seat, english_seat):
            ws.receive_json(), ws.receive_json()  # the log, the state
        german_seat.send_json({"type": "move", "move": "KS"})
        english_seat.send_json({"type": "move", "move": "KS"})
        assert german_seat.receive_json() == {"type": "error",
                                              "message": "KS passt an kein Ende."}
        assert english_seat.receive_json() == {"type": "error",
                                               "message": "KS does not fit at either end."}


def test_a_spectators_refused_move_follows_the_language_cookie(make_client, german):
    client = make_client()
    room = new_room(client, "caravan", [{"kind": "me"}])
    client.cookies.set("chuko_lang", "de")
    with client.websocket_connect(f"/ws/{room['room']}") as watcher:
        watcher.receive_json(), watcher.receive_json()
        watcher.send_json({"type": "move", "move": "KS"})
        assert watcher.receive_json() == {"type": "error",
                                          "message": "Zuschauer können nicht ziehen."}
        watcher.send_json({"type": "dance"})
        assert watcher.receive_json()["message"] == (
            'Unbekannte Nachricht: sende {"type": "move" | "hint" | "next" | "resign" | "claim" '
            '| "say" | "ping" | "log", …}.')


def test_a_notice_fanned_out_is_worded_once_per_language_of_its_pages(german):
    channel = Channel(shared=None)  # delivering needs no store
    pages = [LobbyClient("ann", "de"), LobbyClient("ann", "en"), LobbyClient("ann", "de")]
    for page in pages:
        channel.pages.setdefault("ann", set()).add(page)
    channel.deliver("ann", {"type": "notice", "text": Text("Spectators cannot move.")})
    texts = [page._queue[0] for page in pages]
    assert texts[0] == texts[2] == '{"type":"notice","text":"Zuschauer können nicht ziehen."}'
    assert texts[1] == '{"type":"notice","text":"Spectators cannot move."}'
    assert texts[0] is texts[2]  # one serialization for both German pages


def test_texts_cross_the_clusters_channels_translatable():
    message = {"type": "you", "note": [Text("{what} for {days}", what=Text("Spectators cannot "
               "move."), days=Plural("{n} day", "{n} days", n=3))], "n": 1}
    back = wire_loads(wire_dumps(message))
    assert back == message
    note = back["note"][0]
    assert isinstance(note, Text) and note.msgid == "{what} for {days}"
    assert isinstance(note.params["days"], Plural) and note.params["days"].plural == "{n} days"
    assert words("de").say(note.params["what"]) == words("de").say(message["note"][0].params[
        "what"])


def test_a_rooms_state_says_its_result_in_the_readers_language(make_client, german):
    client = make_client()
    room = new_room(client, "crossroads", [{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    url = f"/ws/{room['room']}?token={room['token']}"
    with client.websocket_connect(url, headers={"Accept-Language": "de"}) as ws:
        ws.send_json({"type": "resign"})
        state = ws.receive_json()
        while state.get("status") != "over":
            state = ws.receive_json()
    assert state["result"] == "Du hast aufgegeben: Easy bot gewinnt."
    path = f"/api/rooms/{room['room']}?token={room['token']}"
    assert client.get(path).json()["result"] == "You resigned: Easy bot wins."
    german_state = client.get(path, headers={"Accept-Language": "de"}).json()
    assert german_state["result"] == "Du hast aufgegeben: Easy bot gewinnt."


@pytest.mark.parametrize("header", HOSTILE[:4], ids=range(4))
def test_a_socket_with_a_hostile_accept_language_opens_in_english(make_client, german, header):
    client = make_client()
    room = new_room(client, "caravan", [{"kind": "me"}])
    with client.websocket_connect(f"/ws/{room['room']}",
                                  headers={"Accept-Language": header}) as watcher:
        watcher.receive_json(), watcher.receive_json()
        watcher.send_json({"type": "move", "move": "KS"})
        assert watcher.receive_json()["message"] in ("Spectators cannot move.",
                                                     "Zuschauer können nicht ziehen.")
