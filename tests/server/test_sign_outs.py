"""A session that ends takes its sockets with it: after a new password, a log-out or an
account's deletion, the room and lobby sockets opened in the sessions ended are sent one
sentence and closed (4401), and can neither move nor post a seek; the browser that changed
its password goes on in its new session."""

from __future__ import annotations

import asyncio
import uuid
import warnings

import pytest
from server_helpers import new_room, random_chooser
from test_cluster import URL as CLUSTER_URL
from test_login_limits_cluster import two_workers  # noqa: F401 (a fixture)

from chuko.server.club.sign_outs import Watch
from chuko.server.web.sign_out_sockets import CLOSED, SIGNED_OUT

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.websockets import WebSocketDisconnect

PASSWORD = "correct horse battery"
BOTS = [{"kind": "me"}, {"kind": "bot", "level": "easy"}]


@pytest.fixture
def browser(make_client):
    client = make_client()
    client.headers.update({"origin": "http://testserver"})
    made = client.post("/api/account/signup", json={"username": "alice", "password": PASSWORD})
    assert made.status_code == 201, made.text
    return client


def use_session(client, secret: str) -> None:
    client.cookies.clear()
    client.cookies.set("chuko_session", secret, domain="testserver.local")


def second_session(client) -> tuple[str, str]:
    """The account's session so far, and a second one of a browser of its own."""
    first = client.cookies["chuko_session"]
    client.cookies.clear()
    logged = client.post("/api/account/login", json={"username": "alice", "password": PASSWORD})
    assert logged.status_code == 200, logged.text
    return first, client.cookies["chuko_session"]


def my_turn_state(ws) -> dict:
    while True:
        message = ws.receive_json()
        if message["type"] == "state" and message["status"] == "playing" and \
                message["seat"] in message["view"]["to_move"]:
            return message


def signed_out(ws) -> None:
    """Read the socket to its end: the sentence (the lobby's lists aside, nothing else
    first: no state of a move played, no answer to a seek or a ping), then the close."""
    while (message := ws.receive_json())["type"] == "lobby":
        pass
    assert message == {"type": "error", "message": SIGNED_OUT}
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == CLOSED


def test_a_new_password_closes_the_old_sessions_room_socket_which_cannot_move(browser):
    room = new_room(browser, "crossroads", BOTS)
    old, new = second_session(browser)
    use_session(browser, old)
    with browser.websocket_connect(f"/ws/{room['room']}") as ws:  # the session's seat
        state = my_turn_state(ws)
        assert state["seat"] == 0
        use_session(browser, new)
        changed = browser.post("/api/account/password",
                               json={"password": PASSWORD, "new_password": "a new one 123"})
        assert changed.status_code == 200, changed.text
        ws.send_json({"type": "move", "move": random_chooser(1)(state)})
        signed_out(ws)
    assert browser.get(f"/api/rooms/{room['room']}").json()["version"] == state["version"]
    # The browser that changed the password plays on in its new session.
    with browser.websocket_connect(f"/ws/{room['room']}") as ws:
        assert my_turn_state(ws)["version"] == state["version"]


def test_a_deleted_accounts_lobby_socket_is_closed_and_posts_no_seek(browser):
    old, new = second_session(browser)
    use_session(browser, old)
    with browser.websocket_connect("/lobby/ws") as ws:
        while ws.receive_json()["type"] != "you":
            pass
        use_session(browser, new)
        deleted = browser.post("/api/account/delete", json={"password": PASSWORD})
        assert deleted.status_code == 200, deleted.text
        ws.send_json({"type": "seek", "game": "crossroads", "rated": True})
        signed_out(ws)
    assert browser.get("/api/lobby").json()["seeks"] == []


def test_a_log_out_closes_its_sessions_sockets_and_no_other(browser):
    room = new_room(browser, "crossroads", BOTS)
    old, new = second_session(browser)
    use_session(browser, old)
    with browser.websocket_connect(f"/ws/{room['room']}") as kept:
        my_turn_state(kept)
        use_session(browser, new)
        with browser.websocket_connect("/lobby/ws") as lobby:
            while lobby.receive_json()["type"] != "you":
                pass
            assert browser.post("/api/account/logout", json={}).status_code == 200
            lobby.send_json({"type": "ping"})
            signed_out(lobby)
        kept.send_json({"type": "ping"})
        assert kept.receive_json() == {"type": "pong"}


@pytest.mark.skipif(not CLUSTER_URL, reason="CHUKO_TEST_POSTGRES is not set")
def test_a_session_ended_on_one_worker_closes_its_sockets_on_the_other(two_workers):  # noqa: F811
    pytest.importorskip("redis")
    here, there = two_workers()
    made = here.post("/api/account/signup", json={"username": f"ann{uuid.uuid4().hex[:10]}",
                                                  "password": PASSWORD})
    assert made.status_code == 201, made.text
    use_session(there, here.cookies["chuko_session"])
    with there.websocket_connect("/lobby/ws") as ws:
        while ws.receive_json()["type"] != "you":
            pass
        assert here.post("/api/account/logout", json={}).status_code == 200
        signed_out(ws)


def test_a_browsers_sockets_follow_it_into_its_new_session_and_close_at_its_log_out(browser):
    with browser.websocket_connect("/lobby/ws") as ws:
        while ws.receive_json()["type"] != "you":
            pass
        changed = browser.post("/api/account/password",
                               json={"password": PASSWORD, "new_password": "a new one 123"})
        assert changed.status_code == 200, changed.text
        ws.send_json({"type": "ping"})  # its own browser's: kept open
        while (message := ws.receive_json())["type"] == "lobby":
            pass
        assert message == {"type": "pong"}
        assert browser.post("/api/account/logout", json={}).status_code == 200
        ws.send_json({"type": "ping"})
        signed_out(ws)


def test_a_watched_wait_ends_with_no_message_at_its_sessions_end_and_a_cancel_still_cancels():
    async def run():
        never = asyncio.Event()

        async def receive():
            await never.wait()

        watch = Watch("player", "session")
        waiting = asyncio.create_task(watch.wait(receive))
        await asyncio.sleep(0)
        watch.end()
        assert await waiting is None  # ended while it waited
        assert await watch.wait(receive) is None  # ended before: at once
        other = asyncio.create_task(Watch("player", "other").wait(receive))
        await asyncio.sleep(0)
        other.cancel()  # the server's cancel, not a session's end
        with pytest.raises(asyncio.CancelledError):
            await other

    asyncio.run(run())
