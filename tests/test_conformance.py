"""The conformance suite: every game in the registry keeps the protocol, whichever package
it comes from (the plug-ins in tests/plugins included).

Each game declares its example configurations in its descriptor. Every check words its
failure with the rule it broke, from the table in chuko.core.conformance, which
docs/architecture.md lists in full.
"""

import itertools
import json
import random
from collections import Counter
from contextlib import contextmanager
from importlib import import_module

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chuko.bots import make_bot, parse_levels
from chuko.core.conformance import broke, keeps_shape, reveals
from chuko.core.errors import ChukoError, ConfigError, IllegalMove, ParseError
from chuko.core.protocol import Game, State
from chuko.games import descriptor, game_class, game_ids

MAX_STEPS = 5_000
# The notation check tries every string up to this many per position.
MAX_STRINGS = 20_000


def configurations(game_id):
    """The game's declared examples, bot-only: a game of bots must always end."""
    game = game_class(game_id)
    return [game.from_options(o, bots_only=True) for o in game.descriptor.examples]


GAMES = game_ids()
CASES = [(gid, i) for gid in GAMES for i in range(len(configurations(gid)))]


@contextmanager
def refused(kind, rule):
    """Like `pytest.raises(kind)`, failing with the rule's sentence when nothing is raised."""
    try:
        yield
    except kind:
        return
    pytest.fail(broke(rule))


def seat_lists(value, keys):
    """Every value under one of `keys`, at any depth of a view."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in keys:
                yield item
            yield from seat_lists(item, keys)
    elif isinstance(value, list):
        for item in value:
            yield from seat_lists(item, keys)


def check_views(state: State):
    """Every seat's and a spectator's view and full view, against the view rules: the full
    view has the view's shape, and differs from it only where the view holds null."""
    players = state.game.players
    for seat in (*range(players), None):
        view, full = state.view(seat), state.full_view(seat)
        assert keeps_shape(full, view), broke("full views keep the view's shape")
        assert reveals(full, view), broke("hidden values are null")
        for held in seat_lists(full, state.game.descriptor.traits.seat_lists):
            assert isinstance(held, list) and len(held) == players, \
                broke("seat lists have a value per seat")


def check_sentences(state: State, seat: int, move):
    """Both wordings of the move just played, for every seat and a spectator."""
    names = [f"Player {k + 1}" for k in range(state.game.players)]
    for reader in (*range(state.game.players), None):
        for word in (state.describe, state.describe_revealed):
            text = word(seat, move, names, reader)
            assert isinstance(text, str) and text.strip(), broke("moves are described")
            if state.outcome is not None:
                assert text.endswith(state.outcome.describe(names, reader)), \
                    broke("moves are described")


def wrong_move(state: State, rng: random.Random):
    """A move that must be refused now: another seat's legal move, or one not legal at all."""
    waiting = [s for s in range(state.game.players) if s not in state.to_move]
    if waiting:
        seat = state.to_move[0]
        return waiting[0], state.random_move(seat, rng)
    return None


def check_position(state: State, rng: random.Random, steps: int):
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
    seen = []
    replayed = type(state.game).replay(
        json.loads(json.dumps(before)), lambda *step, into=seen: into.append(step[1:]))
    assert replayed.record() == before, broke("replays rebuild the game")
    assert seen[0] == (None, None) and len(seen) == steps + 1, broke("replays rebuild the game")


def playout(state: State, rng: random.Random, check_every: int):
    steps = 0  # moves so far; the game starts from a deal
    cards = Counter(map(str, state.cards()))
    while state.to_move:
        assert state.outcome is None, broke("games end")
        for seat in (*range(state.game.players), None):
            try:
                json.dumps(state.view(seat))
            except (TypeError, ValueError):
                pytest.fail(broke("views are JSON"))
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
        if state.game.id != "chuchula":  # Chuchula deals a fresh deck each round
            assert Counter(map(str, state.cards())) == cards, broke("cards are conserved")
    check_views(state)
    return steps


@pytest.mark.parametrize("game_id, index", CASES)
def test_random_games_keep_the_protocol(game_id, index):
    game = configurations(game_id)[index]
    assert isinstance(game, Game) and game.id == game_id
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


@pytest.mark.parametrize("game_id", GAMES)
def test_seeded_deals_are_reproducible_and_differ_by_seed(game_id):
    game = configurations(game_id)[0]
    assert game.new(seed=1).view(None) == game.new(seed=1).view(None), broke("seeded deals")
    assert len({json.dumps(game.new(seed=s).view(None)) for s in range(6)}) > 1, \
        broke("seeded deals")


@pytest.mark.parametrize("game_id", GAMES)
def test_moves_have_canonical_text_that_parses_back(game_id):
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


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=40))
def test_any_text_is_a_move_or_a_sentence_never_a_crash(game_id, text):
    state = configurations(game_id)[0].new(seed=1)
    before = state.record()
    try:
        state.play(state.to_move[0], text)
    except ChukoError as error:
        assert str(error).strip(), broke("any text is a move or a sentence")
        assert state.record() == before, broke("refused moves change nothing")


@pytest.mark.parametrize("game_id", GAMES)
def test_descriptor_options_defaults_and_examples_make_games(game_id):
    described = descriptor(game_id)
    game = game_class(game_id)
    rule = broke("descriptors make games")
    assert described.id == game_id == game.id and game.title == described.title, rule
    json.dumps(described.to_json())
    default = game.from_options({})
    assert game.min_players <= default.players <= (game.max_players or 10**6), rule
    for option in described.options:
        assert option.value(None) == option.default, rule
    with refused(ChukoError, "descriptors make games"):
        game.from_options({"no_such_option": 1})
    assert described.levels and described.examples, rule


@pytest.mark.parametrize("game_id", GAMES)
def test_every_bot_level_plays_a_move_the_engine_accepts(game_id):
    game = configurations(game_id)[0]
    state = game.new(seed=3)
    seat = state.to_move[0]
    for level in descriptor(game_id).levels:
        bot = make_bot(game_id, level, random.Random(1))
        legal = state.legal_moves(seat) if game.lists_moves else []
        move = bot.choose(state.view(seat), legal)
        try:
            state.copy().play(seat, move)
        except ChukoError as error:
            pytest.fail(f"{broke('bots play legal moves')} The {level} bot: {error}")


@pytest.mark.parametrize("game_id", GAMES)
def test_what_the_study_varies_makes_games_and_its_turn_counts_are_whole(game_id):
    """Every combination of the values the descriptor's study tries is a game its bot
    lineups can seat, and the game's count of turns by kind reads a finished record."""
    study = descriptor(game_id).integrations.study
    names = [varied.option for varied in study.varies]
    for values in itertools.product(*(varied.values for varied in study.varies)):
        options = dict(zip(names, values, strict=True))
        game = game_class(game_id).from_options(options, bots_only=True)
        for lineup in study.lineups:
            parse_levels(lineup, game_id, game.players)
    if study.turn_kinds:
        module, _, function = study.turn_kinds.partition(":")
        state, rng = configurations(game_id)[0].new(seed=5), random.Random(5)
        while state.to_move:
            seat = state.to_move[0]
            state.play(seat, state.random_move(seat, rng))
        counts = getattr(import_module(module), function)(state.record())
        assert counts and all(type(n) is int and n >= 0 for n in counts.values())


def _strings(alphabet, most):
    """Every string over `alphabet` up to the longest length that keeps the count bounded."""
    length, total = 0, 0
    while length < most and total + len(alphabet) ** (length + 1) <= MAX_STRINGS:
        length += 1
        total += len(alphabet) ** length
    for size in range(1, length + 1):
        yield from map("".join, itertools.product(alphabet, repeat=size))


@pytest.mark.parametrize("game_id", [g for g in GAMES if descriptor(g).notation])
def test_play_accepts_exactly_the_legal_moves_texts(game_id):
    """On small states, every string of the game's notation is tried: those `play` accepts
    are exactly the legal moves (by their canonical text), and no other string is."""
    game = configurations(game_id)[0]
    alphabet = descriptor(game_id).notation
    state, rng = game.new(seed=5), random.Random(5)
    for step in range(8):
        if not state.to_move:
            break
        if step in (0, 1, 2, 4, 7):
            seat = state.to_move[0]
            legal = {str(m) for m in state.legal_moves(seat)}
            accepted = set()
            for text in _strings(alphabet, max(map(len, legal))):
                trial = state.copy()
                try:
                    trial.play(seat, text)
                except ChukoError:
                    continue
                accepted.add(str(game.parse_move(text)))
            assert accepted == legal, \
                f"{broke('play accepts exactly the legal moves')} Position after {step} moves."
        seat = state.to_move[0]
        state.play(seat, state.random_move(seat, rng))


# --- chance made explicit (core/protocol.py: deck, deal_choices, from_order, from_deal) --------


def shuffled_deal(game, rng):
    order = game.deck()
    rng.shuffle(order)
    return order, [rng.randrange(n) for n in game.deal_choices()]


def one_sentence(error):
    text = str(error).strip()
    return bool(text) and "\n" not in text and text.endswith(".")


@pytest.mark.parametrize("game_id, index", CASES)
def test_from_deal_of_a_records_deal_reproduces_the_game(game_id, index):
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
    for junk in (None, "no deal", 7, [], {}):
        with pytest.raises(ConfigError) as error:
            game.from_deal(junk)
        assert one_sentence(error.value), broke("deals rebuild the game")


@pytest.mark.parametrize("game_id, index", CASES)
def test_from_order_deals_a_permutation_of_the_deck_and_refuses_anything_else(game_id, index):
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
        with pytest.raises(ConfigError) as error:
            game.from_order(bad_order, bad_choice)
        assert one_sentence(error.value), broke("orders are permutations of the deck")


def play_with_chance(state, rng):
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


@pytest.mark.parametrize("game_id, index", CASES)
def test_explicit_chance_games_end_and_replay_from_their_records(game_id, index):
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


# --- encodings for research environments (core/encoding.py) ------------------------------------

# A stepwise encoding builds every move from a dozen masks: seconds per game, so slow.
ENCODED = [pytest.param(gid, i, marks=() if game_class(gid).lists_moves else pytest.mark.slow)
           for gid, i in CASES if descriptor(gid).integrations.encoding]


def load_encoding(game):
    module, _, factory = game.descriptor.integrations.encoding.partition(":")
    return getattr(import_module(module), factory)(game)


def encoded_move(encoding, state, seat, rng, np):
    """A random legal move built from the masks, step by step for a stepwise encoding; each
    observation along the way (with the partial move) has the declared shape."""
    partial = None
    rule = broke("encodings number the legal moves")
    while True:
        mask = encoding.legal_mask(state, seat, partial)
        assert mask.shape == (encoding.num_actions,) and mask.dtype == np.int8, rule
        observed = encoding.observation(state.view(seat), partial)
        assert observed.shape == encoding.observation_shape, rule
        action = int(rng.choice(np.flatnonzero(mask)))
        assert encoding.action(encoding.move(action)) == action, rule
        partial, move = encoding.step_move(partial, action)
        if move is not None:
            return move


@pytest.mark.parametrize("game_id, index", ENCODED)
def test_encodings_number_the_legal_moves_and_observe_only_the_view(game_id, index):
    np = pytest.importorskip("numpy")
    game = configurations(game_id)[index]
    encoding = load_encoding(game)
    rule = broke("encodings number the legal moves")
    for action in range(encoding.num_actions):
        try:
            move = encoding.move(action)
        except ParseError:
            continue
        assert encoding.action(move) == action, rule
    rng = random.Random(index)
    for seed in range(3):
        state = game.new(seed=seed)
        views_of = {}  # information state -> the one view it stands for
        while state.to_move:
            assert encoding.truncated(state) is False, rule
            for seat in state.to_move:
                view = state.view(seat)
                observed = encoding.observation(view)
                assert observed.shape == encoding.observation_shape, rule
                assert observed.dtype == np.dtype(encoding.observation_dtype), rule
                # Built from the view alone: the same view, however obtained, observes the same.
                again = encoding.observation(json.loads(json.dumps(view)))
                assert np.array_equal(observed, again), rule
                text = json.dumps(view, sort_keys=True)
                assert views_of.setdefault(encoding.information_state(view), text) == text, rule
                if game.lists_moves:
                    mask = encoding.legal_mask(state, seat)
                    legal = state.legal_moves(seat)
                    assert sorted(np.flatnonzero(mask)) == sorted(map(encoding.action, legal)), \
                        rule
                    assert all(encoding.move(encoding.action(m)) == m for m in legal), rule
            seat = rng.choice(state.to_move)
            state.play(seat, encoded_move(encoding, state, seat, rng, np))
        outcome = state.outcome
        assert all(encoding.min_utility <= s <= encoding.max_utility for s in outcome.scores), \
            rule
        assert encoding.truncated(state) is outcome.truncated, rule


# --- the suite's own wording ----------------------------------------------------------------


@pytest.mark.parametrize(("changed", "rule"), [
    (lambda view: {}, "full views keep the view's shape"),
    (lambda view: {**view, "left": view["left"] + 1}, "hidden values are null"),
])
def test_a_game_that_breaks_a_rule_fails_with_the_rules_name_and_sentence(changed, rule):
    state = configurations("takeaway")[0].new(seed=1)
    state.full_view = lambda seat: changed(state.view(seat))
    with pytest.raises(AssertionError) as failure:
        check_views(state)
    assert str(failure.value).startswith(broke(rule))
