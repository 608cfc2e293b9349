"""The generic screen, for a game that ships none: a whole game of the toy plug-in (tests/
plugins, registered only through its entry point) against a bot, its result sentence, and
its replay with the engine's captions; and the screen's parts on their own."""

from play_helpers import create_room, room_and_token, snapshot, version, wait_for_new_version

from chuko.games import descriptor

GAME = "takeaway"
SECRET = "goofspiel"
MAX_TURNS = 20


def test_a_plug_in_game_is_played_and_replayed_on_the_generic_screen(pages, shot):
    assert descriptor(GAME).integrations.screen is None  # it ships no screen of its own
    page = pages.new()
    create_room(page, GAME, options={"stones": 9, "most": 3}, seats=[("me",), ("bot", "random")])
    page.wait_for_url("**/room/**#token=*")
    room, token = room_and_token(page)
    page.locator(".gv-turn").wait_for()
    assert page.locator(".seat-chip .name").all_inner_texts() == ["You", "Random bot"]
    assert page.locator("#title").inner_text() == descriptor(GAME).title

    for turn in range(MAX_TURNS):
        page.locator("#status.my-turn, #status.over").first.wait_for()
        state = page.request.get(f"/api/rooms/{room}?token={token}").json()
        if state["status"] == "over":
            break
        left = page.locator(".gv-fields dd[data-key='left']").inner_text()
        assert int(left) == state["view"]["left"]
        moves = page.locator(".gv-move:enabled")
        assert moves.evaluate_all("els => els.map(e => e.dataset.move)") == state["legal"]
        if turn == 1:
            shot(page, "generic-room")
        before = version(page)
        moves.last.click()
        wait_for_new_version(page, before)
    else:
        raise AssertionError(f"take-away did not end in {MAX_TURNS} of my turns")

    state = page.request.get(f"/api/rooms/{room}?token={token}").json()
    status = page.locator("#status > span").inner_text()
    assert status == state["result"] and status.startswith(("You won", "Random bot won"))
    assert page.locator(".gv-turn").inner_text() == state["result"]
    assert page.locator(".log-line").last.inner_text() == state["last"]
    assert page.locator(".gv-move").count() == 0
    shot(page, "generic-over")

    frames = page.request.get(f"/api/rooms/{room}/replay?token={token}").json()["frames"]
    page.locator("#status a", has_text="Replay").click()
    page.wait_for_url("**/replay/**")
    moves = len(frames) - 1
    page.locator("#counter", has_text=f"move {moves} of {moves}").wait_for()
    assert page.locator("#caption").inner_text() == frames[-1]["caption"]
    assert state["result"] in frames[-1]["caption"]
    shot(page, "generic-replay-end")
    page.locator("#first").click()
    page.locator("#counter", has_text="deal").wait_for()
    assert page.locator("#caption").inner_text() == frames[0]["caption"]
    assert page.locator(".gv-fields dd[data-key='left']").inner_text() == "9"
    page.locator("#next").click()
    page.locator("#counter", has_text=f"move 1 of {moves}").wait_for()
    assert page.locator("#caption").inner_text() == frames[1]["caption"]
    shot(page, "generic-replay")


def _wait_for_the_bots_secret_bid(page):
    page.locator("dd[data-key='committed'] dd[data-seat='1']", has_text="yes").wait_for()


def test_a_secret_bid_game_names_the_seats_of_its_lists_per_seat(pages, shot):
    """Goofspiel (a plug-in with a secret simultaneous bid) names its lists per seat: each
    entry of hands, bids, commits and scores, and of each round's bids and points, under its
    seat; the bot's bid stays hidden until the round is complete, and the finished game's
    replay names it."""
    assert descriptor(SECRET).integrations.screen is None and descriptor(SECRET).traits.seat_lists
    page = pages.new()
    create_room(page, SECRET, options={"cards": 4}, seats=[("me",), ("bot", "random")])
    page.wait_for_url("**/room/**#token=*")
    page.locator(".gv-move:enabled").first.wait_for()
    _wait_for_the_bots_secret_bid(page)  # the bot bids first, so its bid is a secret
    top = [key for key in descriptor(SECRET).traits.seat_lists if key in snapshot(page)["view"]]
    assert top == ["hands", "bids", "committed", "scores"]
    for key in top:
        labels = page.locator(f"dd[data-key='{key}'] > .gv-seats > dt").all_inner_texts()
        assert labels == ["You", "Random bot"], key
    hidden = page.locator("dd[data-key='bids'] > .gv-seats > dd[data-seat='1']")
    assert hidden.inner_text() == "—"
    while page.locator(".gv-move:enabled").count():  # the highest card, each round
        _wait_for_the_bots_secret_bid(page)
        before = version(page)
        page.locator(".gv-move:enabled").last.click()
        wait_for_new_version(page, before)
        page.locator("#status.my-turn, #status.over").first.wait_for()
        if before == 1:  # the first round is complete: both bids shown, per seat
            bids = page.locator("dd[data-key='rounds'] dd[data-key='bids'] > .gv-seats")
            assert bids.locator("dt").all_inner_texts() == ["You", "Random bot"]
            assert bids.locator("dd[data-seat='0']").inner_text() == "4"
            points = page.locator("dd[data-key='rounds'] dd[data-key='points'] > .gv-seats")
            assert points.locator("dt").all_inner_texts() == ["You", "Random bot"]
            shot(page, "generic-seat-names")

    room, token = room_and_token(page)
    frames = page.request.get(f"/api/rooms/{room}/replay?token={token}").json()["frames"]
    bid = frames[1]["view"]["bids"][1]
    page.locator("#status a", has_text="Replay").click()
    page.wait_for_url("**/replay/**")
    page.locator("#first").click()
    page.locator("#next").click()
    page.locator("#counter", has_text="move 1 of").wait_for()
    # The replay names the bid the live game kept secret, and shows it in the frame.
    assert page.locator("#caption").inner_text() == f"Random bot bid {bid} in secret."
    assert page.locator("dd[data-key='bids'] > .gv-seats > dd[data-seat='1']").inner_text() \
        == str(bid)
    shot(page, "generic-seat-names-replay")


RENDER = """async ([msg, interactive]) => {
    const { render } = await import("/static/js/generic.js");
    const sent = [];
    const board = document.createElement("section");
    board.id = "test-board";
    document.body.append(board);
    render(board, msg, { interactive, send: (move) => sent.push(move), hint: {"2": "best"} });
    window.sentMoves = sent;
}"""

VIEW = {"game": "toy", "seat": 0, "to_move": [1], "outcome": None, "pile_size": 7,
        "hand": [3, 5], "scores": {"me": 1, "them": 2}, "log": [], "open": True}
SEATS = [{"seat": 0, "name": "Host"}, {"seat": 1, "name": "Hard bot"}]


def test_generic_screen_shows_the_view_as_fields_and_lists(pages):
    page = pages.new()
    page.goto("/")
    msg = {"seat": 0, "seats": SEATS, "status": "playing", "view": VIEW, "legal": []}
    page.evaluate(RENDER, [msg, False])
    board = page.locator("#test-board")
    assert board.locator(".gv-turn").inner_text() == "Hard bot to move."
    fields = dict(zip(board.locator(".gv-fields > dt").all_inner_texts(),
                      board.locator(".gv-fields > dd").all_inner_texts(), strict=True))
    assert fields["Pile size"] == "7" and fields["Log"] == "none" and fields["Open"] == "yes"
    assert board.locator("dd[data-key='hand'] .gv-chip").all_inner_texts() == ["3", "5"]
    assert board.locator("dd[data-key='scores'] dt").all_inner_texts() == ["Me", "Them"]
    assert not {"Game", "Seat", "To move", "Outcome"} & set(fields)


def test_generic_screen_moves_are_buttons_only_on_your_turn(pages):
    page = pages.new()
    page.goto("/")
    view = {**VIEW, "to_move": [0]}
    msg = {"seat": 0, "seats": SEATS, "status": "playing", "legal": ["1", "2"]}
    page.evaluate(RENDER, [{**msg, "view": view}, False])
    assert page.locator(".gv-move:disabled").count() == 2
    page.evaluate("document.getElementById('test-board').remove()")
    page.evaluate(RENDER, [{**msg, "view": view}, True])
    board = page.locator("#test-board")
    assert board.locator(".gv-turn").inner_text() == "Your turn: choose a move."
    assert board.locator(".gv-move[data-move='2'] .hint-label").inner_text() == "best"
    board.locator(".gv-move[data-move='2']").click()
    assert page.evaluate("window.sentMoves") == ["2"]


def test_generic_screen_takes_a_typed_move_where_the_game_lists_none(pages):
    page = pages.new()
    page.goto("/")
    view = {**VIEW, "to_move": [0]}
    page.evaluate(RENDER, [{"seat": 0, "seats": SEATS, "status": "playing", "view": view}, True])
    board = page.locator("#test-board")
    board.locator("input.gv-typed").fill(" 3 5 ")
    board.locator(".gv-type button").click()
    assert page.evaluate("window.sentMoves") == ["3 5"]
