"""The conformance suite: every game in the registry keeps the protocol, whichever package
it comes from (the toy plug-in in tests/plugins included).

Each game declares its example configurations in its descriptor. Random playouts check that
cards are conserved, views are JSON and stable, replaying the record reproduces the state
and shows every position, a refused move changes nothing, copies are independent, and every
game ends. The descriptor itself is checked: its options' defaults make a game, its bot
levels play legal moves, and `play` accepts exactly the legal moves' texts.
"""

import itertools
import json
import random
from collections import Counter
from importlib import import_module

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chuko.bots import make_bot, parse_levels
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


def wrong_move(state: State, rng: random.Random):
    """A move that must be refused now: another seat's legal move, or one not legal at all."""
    waiting = [s for s in range(state.game.players) if s not in state.to_move]
    if waiting:
        seat = state.to_move[0]
        return waiting[0], state.random_move(seat, rng)
    return None


def playout(state: State, rng: random.Random, check_every: int):
    steps = 0  # moves so far; the game starts from a deal
    cards = Counter(map(str, state.cards()))
    while state.to_move:
        assert state.outcome is None
        for seat in (*range(state.game.players), None):
            json.dumps(state.view(seat))
        if steps % check_every == 0:
            before = state.record()
            refused = wrong_move(state, rng)
            if refused:
                with pytest.raises(IllegalMove):
                    state.play(*refused)
            with pytest.raises(ChukoError):
                state.play(state.to_move[0], "not a move at all")
            assert state.record() == before
            clone = state.copy()
            seat = clone.to_move[0]
            clone.play(seat, clone.random_move(seat, rng))
            assert state.record() == before
            seen = []
            replayed = type(state.game).replay(
                json.loads(json.dumps(before)), lambda *step, into=seen: into.append(step[1:]))
            assert replayed.record() == before
            assert seen[0] == (None, None) and len(seen) == steps + 1
        seat = rng.choice(state.to_move)
        state.play(seat, state.random_move(seat, rng))
        steps += 1
        assert steps < MAX_STEPS, "the game did not end"
        if state.game.id != "chuchula":  # Chuchula deals a fresh deck each round
            assert Counter(map(str, state.cards())) == cards, "cards appeared or vanished"
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
        assert outcome is not None and len(outcome.scores) == game.players
        assert state.to_move == () and state.legal_moves(0) == []
        record = json.loads(json.dumps(state.record()))
        assert record["game"] == game_id
        assert type(game).replay(record).record() == state.record()


@pytest.mark.parametrize("game_id", GAMES)
def test_seeded_deals_are_reproducible_and_differ_by_seed(game_id):
    game = configurations(game_id)[0]
    assert game.new(seed=1).view(None) == game.new(seed=1).view(None)
    assert len({json.dumps(game.new(seed=s).view(None)) for s in range(6)}) > 1


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
        assert game.parse_move(str(move)) == move
        assert str(game.parse_move(str(move))) == str(move)
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
        assert str(error).strip() and state.record() == before


@pytest.mark.parametrize("game_id", GAMES)
def test_descriptor_options_defaults_and_examples_make_games(game_id):
    described = descriptor(game_id)
    game = game_class(game_id)
    assert described.id == game_id == game.id and game.title == described.title
    json.dumps(described.to_json())
    default = game.from_options({})
    assert described.min_players <= default.players <= (described.max_players or 10**6)
    for option in described.options:
        assert option.value(None) == option.default
    with pytest.raises(ChukoError, match="no option"):
        game.from_options({"no_such_option": 1})
    assert described.levels and described.examples


@pytest.mark.parametrize("game_id", GAMES)
def test_every_bot_level_plays_a_move_the_engine_accepts(game_id):
    game = configurations(game_id)[0]
    state = game.new(seed=3)
    seat = state.to_move[0]
    for level in descriptor(game_id).levels:
        bot = make_bot(game_id, level, random.Random(1))
        legal = state.legal_moves(seat) if game.lists_moves else []
        move = bot.choose(state.view(seat), legal)
        state.copy().play(seat, move)


@pytest.mark.parametrize("game_id", GAMES)
def test_what_the_study_varies_makes_games_and_its_turn_counts_are_whole(game_id):
    """Every combination of the values the descriptor's study tries is a game its bot
    lineups can seat, and the game's count of turns by kind reads a finished record."""
    study = descriptor(game_id).study
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
            assert accepted == legal, f"position after {step} moves"
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
        assert fixed.from_deal(record["deal"]).record() == record
        # A deal always starts the same game: who starts is the deal's or the
        # configuration's, never drawn; a deal that names neither is refused in a sentence.
        try:
            starts = [game.from_deal(record["deal"], rng=random.Random(s)).record()
                      for s in range(4)]
        except ConfigError as refused:
            assert one_sentence(refused)
        else:
            assert all(start == starts[0] for start in starts)
    for junk in (None, "no deal", 7, [], {}):
        with pytest.raises(ConfigError) as refused:
            game.from_deal(junk)
        assert one_sentence(refused.value)


@pytest.mark.parametrize("game_id, index", CASES)
def test_from_order_deals_a_permutation_of_the_deck_and_refuses_anything_else(game_id, index):
    game = configurations(game_id)[index]
    rng = random.Random(index)
    order, choices = shuffled_deal(game, rng)
    state = game.from_order(order, choices)
    assert Counter(map(str, state.cards())) <= Counter(map(str, game.deck())) or not game.deck()
    playout(state, rng, check_every=5)
    assert state.outcome is not None
    wrong = [order[:-1], [*order, order[0]]] if order else [["?"]]
    bad_choices = [[*choices, 0]] + [[*choices[:k], n, *choices[k + 1:]]
                                     for k, n in enumerate(game.deal_choices())]
    for bad_order, bad_choice in [*((o, choices) for o in wrong), ("text", choices),
                                  *((order, c) for c in bad_choices)]:
        with pytest.raises(ConfigError) as refused:
            game.from_order(bad_order, bad_choice)
        assert one_sentence(refused.value)


def play_with_chance(state, rng):
    """Random moves and random chance outcomes to the end; checks every chance node."""
    steps = nodes = 0
    while state.outcome is None:
        if state.is_chance:
            assert state.to_move == ()
            outcomes = state.chance_outcomes()
            json.dumps([o for o, _ in outcomes])
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert all(p > 0 for _, p in outcomes)
            state.apply_chance(rng.choice(outcomes)[0])
            nodes += 1
        else:
            assert state.to_move and state.chance_outcomes() == []
            seat = rng.choice(state.to_move)
            state.play(seat, state.random_move(seat, rng))
        steps += 1
        assert steps < 20 * MAX_STEPS, "the game did not end"
    return nodes


@pytest.mark.parametrize("game_id, index", CASES)
def test_explicit_chance_games_end_and_replay_from_their_records(game_id, index):
    game = configurations(game_id)[index]
    rng = random.Random(100 + index)
    for _ in range(2):
        order, choices = shuffled_deal(game, rng)
        state = game.from_order(order, choices, explicit_chance=True)
        play_with_chance(state, rng)
        assert not state.is_chance and state.chance_outcomes() == []
        with pytest.raises(IllegalMove):
            state.apply_chance(None)
        record = json.loads(json.dumps(state.record()))
        assert type(game).replay(record).record() == record


# --- encodings for research environments (core/encoding.py) ------------------------------------

# A stepwise encoding builds every move from a dozen masks: seconds per game, so slow.
ENCODED = [pytest.param(gid, i, marks=() if descriptor(gid).lists_moves else pytest.mark.slow)
           for gid, i in CASES if descriptor(gid).encoding]


def load_encoding(game):
    module, _, factory = game.descriptor.encoding.partition(":")
    return getattr(import_module(module), factory)(game)


def encoded_move(encoding, state, seat, rng, np):
    """A random legal move built from the masks, step by step for a stepwise encoding; each
    observation along the way (with the partial move) has the declared shape."""
    partial = None
    while True:
        mask = encoding.legal_mask(state, seat, partial)
        assert mask.shape == (encoding.num_actions,) and mask.dtype == np.int8
        observed = encoding.observation(state.view(seat), partial)
        assert observed.shape == encoding.observation_shape
        action = int(rng.choice(np.flatnonzero(mask)))
        assert encoding.action(encoding.move(action)) == action
        partial, move = encoding.step_move(partial, action)
        if move is not None:
            return move


@pytest.mark.parametrize("game_id, index", ENCODED)
def test_encodings_number_the_legal_moves_and_observe_only_the_view(game_id, index):
    np = pytest.importorskip("numpy")
    game = configurations(game_id)[index]
    encoding = load_encoding(game)
    for action in range(encoding.num_actions):
        try:
            move = encoding.move(action)
        except ParseError:
            continue
        assert encoding.action(move) == action
    rng = random.Random(index)
    for seed in range(3):
        state = game.new(seed=seed)
        views_of = {}  # information state -> the one view it stands for
        while state.to_move:
            assert encoding.truncated(state) is False
            for seat in state.to_move:
                view = state.view(seat)
                observed = encoding.observation(view)
                assert observed.shape == encoding.observation_shape
                assert observed.dtype == np.dtype(encoding.observation_dtype)
                # Built from the view alone: the same view, however obtained, observes the same.
                assert np.array_equal(observed, encoding.observation(json.loads(json.dumps(view))))
                text = json.dumps(view, sort_keys=True)
                assert views_of.setdefault(encoding.information_state(view), text) == text
                if game.lists_moves:
                    mask = encoding.legal_mask(state, seat)
                    legal = state.legal_moves(seat)
                    assert sorted(np.flatnonzero(mask)) == sorted(map(encoding.action, legal))
                    assert all(encoding.move(encoding.action(m)) == m for m in legal)
            seat = rng.choice(state.to_move)
            state.play(seat, encoded_move(encoding, state, seat, rng, np))
        outcome = state.outcome
        assert all(encoding.min_utility <= s <= encoding.max_utility for s in outcome.scores)
        assert encoding.truncated(state) is outcome.truncated
