"""The server loads (or compiles) the solvers' kernels as it starts, in a thread of its own,
so the first hint does not wait for them; requests are answered meanwhile."""

from __future__ import annotations

import threading

import pytest

from chuko.server.web import app as app_module
from chuko.solvers import load_kernels, warm_up


def test_starting_the_app_warms_the_solvers_in_the_background(make_client, monkeypatch):
    started, release = threading.Event(), threading.Event()

    def slow_warm_up() -> None:
        started.set()
        release.wait(30)

    monkeypatch.setattr(app_module, "warm_solvers", slow_warm_up)
    client = make_client()
    assert started.wait(30), "the app's start did not begin warming the solvers"
    warming = client.app.state.warming
    assert warming.is_alive()
    # Pages, the API and sockets are answered while it warms.
    assert client.get("/api/games").status_code == 200
    seats = [{"kind": "me"}, {"kind": "bot", "level": "easy"}]
    made = client.post("/api/rooms", json={"game": "crossroads", "options": {"first": "0"},
                                           "seats": seats})
    assert made.status_code == 201, made.text
    with client.websocket_connect(f"/ws/{made.json()['room']}") as ws:
        assert ws.receive_json()["type"] == "log"
        assert ws.receive_json()["type"] == "state"
    assert warming.is_alive()
    release.set()
    warming.join(30)
    assert not warming.is_alive()


def test_a_warm_up_that_fails_is_logged_and_the_server_goes_on(make_client, caplog,
                                                                 monkeypatch):
    def broken() -> None:
        raise RuntimeError("no compiler here")

    monkeypatch.setattr(app_module, "warm_solvers", broken)
    client = make_client()
    client.app.state.warming.join(30)
    assert "no compiler here" in caplog.text
    assert client.get("/api/games").status_code == 200


def test_what_the_app_warms_is_the_solvers(make_client):
    assert app_module.warm_solvers is warm_up
    client = make_client()
    client.app.state.warming.join(300)
    assert not client.app.state.warming.is_alive()


def test_warming_up_compiles_every_kernel_a_hint_uses():
    kernels = load_kernels()
    if kernels is None:
        pytest.skip("numba (the `fast` extra) is not installed")
    warm_up()
    for name in ("crossroads_position", "caravan_position", "_crossroads_batch",
                 "_caravan_batch"):
        assert getattr(kernels, name).signatures, f"{name} is not compiled"
