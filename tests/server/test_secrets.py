"""Every message one seat receives during whole games of Chükö and Chuchula, checked against
the engine's truth at that moment: until the game is over nothing in them is a card the seat
may not know (ruling K6: other hands, the draw pile's order, undrawn cards; ruling H4:
others' groupings before all have committed). Once it is over every hand is shown, and only
the hands. Also: no seed, RNG or record ever leaves the server."""

from __future__ import annotations

import json
import re

import pytest
from server_helpers import new_room, play_out, random_chooser, stored_record, whole_replay

from chuko.games import game_class

SNAPSHOT_KEYS = {"type", "room", "game", "title", "seat", "spectator", "status", "seats",
                 "version", "view", "legal", "last", "result", "round_ended", "bots_wait",
                 "rematch", "simultaneous", "hints", "hintable", "rated", "unrated",
                 "clock", "claimable", "watchers"}


def play_and_listen(client, game: str, seats: list, **options) -> tuple[list[dict], dict]:
    """Seat 0's messages over a whole game, and the game's full record (engine side)."""
    room = new_room(client, game, seats, **options)
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        received = play_out(ws, random_chooser(5))
    record = stored_record(client, room["room"])
    return [m for m in received if m["type"] == "state"], record


def positions(record: dict, read) -> list:
    """`read(state, seat, move)` at every position of the record, the deal first: the
    engine's truth at each version."""
    found = []
    game_class(record["game"]).replay(record, lambda *position: found.append(read(*position)))
    return found


def numbers(value, path=()):
    """(key path, number) for every number inside a JSON value; list indices are skipped."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from numbers(item, (*path, key))
    elif isinstance(value, list):
        for item in value:
            yield from numbers(item, path)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield path, value


# Numbers that are counts, seats or scores, never cards.
COUNTS = {"version", "seat", "players", "first", "turn_limit", "to_move", "hand_sizes",
          "draw_size", "turns_played", "winner", "scores", "winners", "number", "turns_total",
          "plays", "resets", "watchers"}
# Where a Chükö card may stand in a seat's message: its own hand and draw, and the public
# cards (K6): the pack's list, the play pile, the cards played and the recycled piles' contents.
PUBLIC_CARDS = {("view", "pack"), ("view", "pile"), ("view", "top"), ("view", "recent", "card"),
                ("view", "recent", "recycled"), ("view", "recycled")}
OWN_CARDS = {("view", "hand"), ("view", "drawn"), ("view", "recent", "drew"),
             ("view", "drawn_since")}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_chuko_seat_never_receives_a_card_it_may_not_know(make_client, seed):
    client = make_client(seed=seed)
    messages, record = play_and_listen(
        client, "chuko",
        [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "easy"}],
        players=3, turn_limit=400,
    )
    names = [seat["name"] for seat in messages[0]["seats"]]

    def read(state, seat, move):
        """Seat 0's view, every hand, the draw pile next card first, and the sentence about
        the move as seat 0 may know it."""
        hands = [state.hand(s) for s in range(3)]
        said = None if seat is None else state.describe(seat, move, names, 0)
        return state.view(0), hands, list(reversed(state._draw)), said

    truth = positions(record, read)
    assert any("recycled" in t for t in record["turns"]), "the game should recycle the pile"
    assert len(messages) >= len(truth) // 3

    assert messages[-1]["status"] == "over"
    for message in messages:
        assert set(message) == SNAPSHOT_KEYS
        view, hands, draw, said = truth[message["version"]]
        over = message["status"] == "over"
        # Every hand is shown once the game is over (and then the engine's view says so),
        # never before.
        assert ("hands" in message["view"]) == over
        if over:
            assert message["view"]["hands"] == hands
        # The sentence about the last move is the engine's, worded for seat 0 (the engine
        # tells a seat only what it may know, e.g. never the card another seat drew).
        assert message["last"] == said
        # The seat gets exactly the engine's view of its seat, nothing added.
        assert message["view"] == view
        assert message["view"]["hand"] == hands[0]
        assert set(message["legal"]) <= {str(c) for c in hands[0]} | {"reset"}
        # Draws are shown only to the seat that drew (K6).
        for turn in message["view"]["recent"]:
            if turn["seat"] != 0:
                assert "drew" not in turn
            if "recycled" in turn:
                assert turn["recycled"] == sorted(turn["recycled"])  # contents, not order
        if message["view"]["drawn"] is not None:
            assert message["view"]["to_move"] == [0]
        # Every number is a count, a public card or one of the seat's own: other hands and
        # the draw pile have no place to appear.
        for path, number in numbers(message):
            if over and path == ("view", "hands"):
                continue
            assert path[-1] in COUNTS or path in PUBLIC_CARDS or path in OWN_CARDS, path
            if path == ("view", "hand"):
                assert number in hands[0]
            if path in PUBLIC_CARDS:
                assert number in message["view"]["pack"]


# A card as views write it (Kd) or as sentences do (K♦).
CARD = re.compile(r"\b(10|[2-9AKQJ])([shdc♠♥♦♣])(?!\w)")
SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def cards_in(value) -> set[str]:
    text = json.dumps(value, ensure_ascii=False)
    return {rank + SUITS.get(suit, suit) for rank, suit in CARD.findall(text)}


@pytest.mark.parametrize("seed", [1, 2])
def test_chuchula_seat_never_sees_another_hand_or_grouping_before_the_reveal(make_client, seed):
    client = make_client(seed=seed)
    messages, record = play_and_listen(
        client, "chuchula",
        [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "hard"}],
        players=3, length=3,
    )
    truth = positions(record, lambda state, seat, move: state.view(0))
    rounds = record["rounds"]
    assert len(rounds) == 3 and len(messages) > 3

    def grouped(number: int) -> set[str]:
        """Every card the reveal of round `number` (from 1) shows: all seats' groups."""
        shown = set()
        for _, text in rounds[number - 1]["moves"]:
            shown |= cards_in(text.split(";")[0])
        return shown

    def own_leftover(number: int) -> str:
        own = next(m for s, m in rounds[number - 1]["moves"] if s == 0)
        return own.split(";")[1].strip()

    for message in messages:
        assert set(message) == SNAPSHOT_KEYS - {"legal"}
        view = message["view"]
        assert view == truth[message["version"]]
        number = view["round"]
        hand = set(rounds[number - 1]["hands"][0].split())
        # Every seat's hand of the last round is shown once the game is over, never before.
        over = message["status"] == "over"
        assert ("hands" in view) == over
        if over:
            assert view["hands"] == [dealt.split() for dealt in rounds[number - 1]["hands"]]
        # Outside the revealed rounds and hands and the sentences about them, only the seat's
        # own hand (and own grouping) appears.
        outside = {**message, "view": {k: v for k, v in view.items()
                                       if k not in ("rounds", "hands")},
                   "last": None, "result": None}
        assert cards_in(outside) <= hand
        # The sentences may name the seat's own cards of this round or earlier ones, and the
        # groups of the rounds revealed.
        own = set().union(*(set(r["hands"][0].split()) for r in rounds[:number]))
        revealed = set().union(*(grouped(shown["round"]) for shown in view["rounds"]))
        assert cards_in([message["last"], message["result"]]) <= own | revealed
        if view.get("grouping"):
            assert cards_in(view["grouping"]) <= hand
        # A round is shown only once every seat has committed, and never the others' left-out
        # cards nor the cards set aside.
        for shown in view["rounds"]:
            assert shown["leftover"] == own_leftover(shown["round"])
            assert cards_in(shown) <= grouped(shown["round"]) | {own_leftover(shown["round"])}
            assert len(rounds[shown["round"] - 1]["moves"]) == 3


def test_spectators_see_no_hand(make_client):
    client = make_client()
    room = new_room(client, "chuko", [{"kind": "me"}, {"kind": "bot", "level": "easy"}])
    state = client.get(f"/api/rooms/{room['room']}").json()
    assert state["seat"] is None and state["view"]["hand"] is None
    assert state["view"]["drawn"] is None and state["legal"] == []


def test_records_seeds_and_rng_never_leave_the_server(make_client):
    """Nothing sent names the deal, the draw pile or the generator: only views go out, and
    they show other hands only once the game is over (the replay, then, at every move)."""
    client = make_client()
    room = new_room(client, "chuko", [{"kind": "me"}, {"kind": "bot", "level": "easy"}],
                    turn_limit=60)
    with client.websocket_connect(f"/ws/{room['room']}?token={room['token']}") as ws:
        received = play_out(ws, random_chooser(1))
    replay = whole_replay(client, room["room"], room["token"])
    for message in [*received, replay, client.get("/api/games").json()]:
        text = json.dumps(message)
        for secret in ('"deal"', '"draw"', '"seed"', '"rng"', '"record"'):
            assert secret not in text
    assert received[-1]["status"] == "over" and '"hands"' in json.dumps(received[-1])
    for message in received[:-1]:
        assert '"hands"' not in json.dumps(message)
    assert all(len(frame["view"]["hands"]) == 2 for frame in replay["frames"])
