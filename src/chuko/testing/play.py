"""The conformance checks that play games: random playouts with the view, position and
sentence rules checked along the way, seeded deals, move text, any text, deals and orders,
explicit chance. Each failure is worded with the rule it broke (`chuko.core.conformance`).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from chuko.core.conformance import broke, keeps_shape, reveals
from chuko.core.errors import ChukoError, ConfigError, IllegalMove
from chuko.core.protocol import Game, State
from chuko.games import game_class

MAX_STEPS = 5_000


def configurations(game_id: str) -> list[Game]:
    """The game's declared examples, bot-only: a game of bots must always end."""
    game = game_class(game_id)
    return [game.from_options(o, bots_only=True) for o in game.descriptor.examples]


@contextmanager
def refused(kind: type[BaseException], rule: str) -> Iterator[None]:
    """Like `pytest.raises(kind)`, failing with the rule's sentence when nothing is raised."""
    try:
        yield
    except kind:
        return
    raise AssertionError(broke(rule))


def under(value: Any, keys: tuple[str, ...]) -> Iterator[Any]:
    """Every value under one of `keys`, at any depth of a view."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in keys:
                yield item
            yield from under(item, keys)
    elif isinstance(value, list):
        for item in value:
            yield from under(item, keys)


def check_views(state: State) -> None:
    """Every seat's and a spectator's view and full view, against the view rules: the full
    view has the view's shape, and differs from it only where the view holds null; the
    keys the traits name hold a list per seat, or a seat's number."""
    players, traits = state.game.players, state.game.descriptor.traits
    for seat in (*range(players), None):
        view, full = state.view(seat), state.full_view(seat)
        assert keeps_shape(full, view), broke("full views keep the view's shape")
        assert reveals(full, view), broke("hidden values are null")
        if traits.information == "perfect" and seat is not None:
            assert view == full, broke("perfect information hides nothing")
        for held in under(full, traits.seat_lists):
            assert isinstance(held, list) and len(held) == players, \
                broke("seat lists have a value per seat")
        for number in under(view, traits.seat_numbers):
            assert number is None or (type(number) is int and 0 <= number < players), \
                broke("seat numbers name a seat")


def check_sentences(state: State, seat: int, move: Any) -> None:
    """Both wordings of the move just played, for every seat and a spectator."""
    names = [f"Player {k + 1}" for k in range(state.game.players)]
    for reader in (*range(state.game.players), None):
        for word in (state.describe, state.describe_revealed):
            text = word(seat, move, names, reader)
            assert isinstance(text, str) and text.strip(), broke("moves are described")
            if state.outcome is not None:
                assert text.endswith(state.outcome.describe(names, reader)), \
                    broke("moves are described")


def wrong_move(state: State, rng: random.Random) -> tuple[int, Any] | None:
    """A move that must be refused now: another seat's legal move, or one not legal at all."""
    waiting = [s for s in range(state.game.players) if s not in state.to_move]
    if waiting:
        seat = state.to_move[0]
        return waiting[0], state.random_move(seat, rng)
    return None


def check_position(state: State, rng: random.Random, steps: int) -> None:
    """The rules about refused moves, copies and replays, at one position."""
    before = state.record()
    wrong = wrong_move(state, rng)
    if wrong:
        with refused(IllegalMove, "refused moves change nothing"):
            state.play(*wrong)
    with refused(ChukoError, "refused moves change nothing"):
        state.play(state.to_move[0], "not a move at all")
    assert state.record() == before, broke("refused moves change nothing")
    clone = state.copy()
    seat = clone.to_move[0]
    clone.play(seat, clone.random_move(seat, rng))
    assert state.record() == before, broke("copies are independent")
    seen: list[tuple[Any, ...]] = []
    replayed = type(state.game).replay(
        json.loads(json.dumps(before)), lambda *step: seen.append(step[1:]))
    assert replayed.record() == before, broke("replays rebuild the game")
    assert seen[0] == (None, None) and len(seen) == steps + 1, broke("replays rebuild the game")


def playout(state: State, rng: random.Random, check_every: int) -> int:
    """Random moves to the end, checking the rules every `check_every` moves; the moves."""
    steps = 0  # moves so far; the game starts from a deal
    cards = Counter(map(str, state.cards()))
    while state.to_move:
        assert state.outcome is None, broke("games end")
        for seat in (*range(state.game.players), None):
            try:
                json.dumps(state.view(seat))
            except (TypeError, ValueError):
                raise AssertionError(broke("views are JSON")) from None
        checking = steps % check_every == 0
        if checking:
            check_views(state)
            check_position(state, rng, steps)
        seat = rng.choice(state.to_move)
        move = state.random_move(seat, rng)
        state.play(seat, move)
        steps += 1
        if checking or state.outcome is not None:
            check_sentences(state, seat, move)
        assert steps < MAX_STEPS, broke("games end")
        assert Counter(map(str, state.cards())) == cards, broke("cards are conserved")
    check_views(state)
    return steps


def random_games_keep_the_protocol(game_id: str, index: int) -> None:
    """Three random games of the configuration, every rule checked along the way."""
    game = configurations(game_id)[index]
    assert isinstance(game, Game) and game.id == game_id, broke("descriptors make games")
    rng = random.Random(index)
    for seed in range(3):
        state = game.new(seed=seed)
        playout(state, rng, check_every=7)
        outcome = state.outcome
        assert outcome is not None and len(outcome.scores) == game.players, broke("games end")
        assert state.to_move == () and state.legal_moves(0) == [], broke("games end")
        record = json.loads(json.dumps(state.record()))
        assert record["game"] == game_id, broke("replays rebuild the game")
        assert type(game).replay(record).record() == state.record(), \
            broke("replays rebuild the game")


def seeded_deals_are_reproducible(game_id: str) -> None:
    """The same seed deals the same game; different seeds deal different games where the
    traits leave the deal to chance, and the same one where they do not."""
    game = configurations(game_id)[0]
    assert game.new(seed=1).view(None) == game.new(seed=1).view(None), broke("seeded deals")
    deals = {json.dumps(game.new(seed=s).view(None)) for s in range(6)}
    assert (len(deals) > 1) == game.descriptor.traits.chance, broke("seeded deals")


def moves_have_canonical_text(game_id: str) -> None:
    game = configurations(game_id)[0]
    state = game.new(seed=4)
    rng = random.Random(4)
    for _ in range(5):
        if not state.to_move:
            break
        seat = state.to_move[0]
        move = state.random_move(seat, rng)
        assert game.parse_move(str(move)) == move, broke("move text is canonical")
        assert str(game.parse_move(str(move))) == str(move), broke("move text is canonical")
        state.play(seat, str(move))


def any_text_is_a_move_or_a_sentence(game_id: str) -> None:
    """Texts hypothesis makes up, played at the first position: a move or a ChukoError
    with a sentence, never another error."""

    @settings(max_examples=150, deadline=None, database=None)
    @given(text=st.text(max_size=40))
    def play_any(text: str) -> None:
        state = configurations(game_id)[0].new(seed=1)
        before = state.record()
        try:
            state.play(state.to_move[0], text)
        except ChukoError as error:
            assert str(error).strip(), broke("any text is a move or a sentence")
            assert state.record() == before, broke("refused moves change nothing")

    play_any()


def shuffled_deal(game: Game, rng: random.Random) -> tuple[list[Any], list[int]]:
    order = game.deck()
    rng.shuffle(order)
    return order, [rng.randrange(n) for n in game.deal_choices()]


def one_sentence(error: BaseException) -> bool:
    text = str(error).strip()
    return bool(text) and "\n" not in text and text.endswith(".")


def from_deal_reproduces_the_game(game_id: str, index: int) -> None:
    game = configurations(game_id)[index]
    for seed in range(3):
        record = json.loads(json.dumps(game.new(seed=seed).record()))
        # The replayed configuration fixes what the deal left to chance (a first player).
        fixed = type(game).replay(record).game
        assert fixed.from_deal(record["deal"]).record() == record, broke("deals rebuild the game")
        # A deal always starts the same game: who starts is the deal's or the
        # configuration's, never drawn; a deal that names neither is refused in a sentence.
        try:
            starts = [game.from_deal(record["deal"], rng=random.Random(s)).record()
                      for s in range(4)]
        except ConfigError as error:
            assert one_sentence(error), broke("deals rebuild the game")
        else:
            assert all(start == starts[0] for start in starts), broke("deals rebuild the game")
    junks: tuple[Any, ...] = (None, "no deal", 7, [], {})
    for junk in junks:
        try:
            game.from_deal(junk)
        except ConfigError as error:
            assert one_sentence(error), broke("deals rebuild the game")
        else:
            raise AssertionError(broke("deals rebuild the game"))


def from_order_deals_a_permutation_of_the_deck(game_id: str, index: int) -> None:
    game = configurations(game_id)[index]
    rng = random.Random(index)
    order, choices = shuffled_deal(game, rng)
    state = game.from_order(order, choices)
    assert Counter(map(str, state.cards())) <= Counter(map(str, game.deck())) or not game.deck(), \
        broke("cards come from the deck")
    playout(state, rng, check_every=5)
    assert state.outcome is not None, broke("games end")
    wrong = [order[:-1], [*order, order[0]]] if order else [["?"]]
    bad_choices = [[*choices, 0]] + [[*choices[:k], n, *choices[k + 1:]]
                                     for k, n in enumerate(game.deal_choices())]
    for bad_order, bad_choice in [*((o, choices) for o in wrong), ("text", choices),
                                  *((order, c) for c in bad_choices)]:
        try:
            game.from_order(bad_order, bad_choice)
        except ConfigError as error:
            assert one_sentence(error), broke("orders are permutations of the deck")
        else:
            raise AssertionError(broke("orders are permutations of the deck"))


def play_with_chance(state: State, rng: random.Random) -> int:
    """Random moves and random chance outcomes to the end; checks every chance node."""
    steps = nodes = 0
    while state.outcome is None:
        rule = broke("chance nodes list their outcomes")
        if state.is_chance:
            assert state.to_move == (), rule
            outcomes = state.chance_outcomes()
            json.dumps([o for o, _ in outcomes])
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9, rule
            assert all(p > 0 for _, p in outcomes), rule
            state.apply_chance(rng.choice(outcomes)[0])
            nodes += 1
        else:
            assert state.to_move and state.chance_outcomes() == [], rule
            seat = rng.choice(state.to_move)
            state.play(seat, state.random_move(seat, rng))
        steps += 1
        assert steps < 20 * MAX_STEPS, broke("games end")
    return nodes


def explicit_chance_games_end_and_replay(game_id: str, index: int) -> None:
    game = configurations(game_id)[index]
    rng = random.Random(100 + index)
    for _ in range(2):
        order, choices = shuffled_deal(game, rng)
        state = game.from_order(order, choices, explicit_chance=True)
        play_with_chance(state, rng)
        rule = broke("chance nodes list their outcomes")
        assert not state.is_chance and state.chance_outcomes() == [], rule
        with refused(IllegalMove, "chance nodes list their outcomes"):
            state.apply_chance(None)
        record = json.loads(json.dumps(state.record()))
        assert type(game).replay(record).record() == record, broke("replays rebuild the game")
