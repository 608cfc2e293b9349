"""OpenSpiel's random simulation test (with serialization) on every game, expectiminimax
against the project's Crossroads solver, and the IS-MCTS bot playing whole Chükö games."""

import pickle

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from envs_helpers import GAMES  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts, minimax  # noqa: E402

import chuko.envs.openspiel  # noqa: E402, F401  (registers the games)
from chuko.solvers.crossroads import CrossroadsSolver  # noqa: E402


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_passes_openspiels_random_simulation_test_with_serialization(game_id):
    game = pyspiel.load_game(f"python_chuko_{game_id}", GAMES[game_id])
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def play_randomly(state, rng, stop=lambda state: False):
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_a_state_and_its_game_survive_pickling_and_serialization():
    game = pyspiel.load_game("python_chuko_crossroads", {"pack": "1,1,2,2,3,4,6,6,9,10,25,1"})
    state = play_randomly(game.new_initial_state(), np.random.default_rng(0),
                          stop=lambda s: len(s.history()) > 16)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    new_game, new_state = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert str(new_game) == str(game) and str(new_state) == str(state)


def test_the_deal_is_one_chance_node_per_card_then_one_per_choice():
    game = pyspiel.load_game("python_chuko_crossroads", {"pack": "1,1,2,2,3,4,6,6,9,10,25,1"})
    state = game.new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1)
    assert sorted(outcomes.values())[-1] == pytest.approx(3 / 12)  # the card 1, held thrice
    for _ in range(12):
        assert state.is_chance_node()
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]  # who starts
    state.apply_action(1)
    assert state.current_player() == 1


def small_positions(count, cards_left):
    """Crossroads positions with `cards_left` cards still in the layout, after random play."""
    game = pyspiel.load_game("python_chuko_crossroads")
    rng = np.random.default_rng(11)
    for _ in range(count):
        yield play_randomly(game.new_initial_state(), rng, stop=lambda s: s.engine is not None
                            and sum(s.engine.taken) == 12 - cards_left)


def test_expectiminimax_agrees_with_the_crossroads_solver_on_small_positions():
    for state in small_positions(count=6, cards_left=5):
        engine = state.engine
        solver = CrossroadsSolver(engine.layout)
        player = state.current_player()
        value, best = minimax.expectiminimax(state, 20, None, player)
        assert value == solver.value(engine)
        after = state.child(best)
        move_values = solver.move_values(engine)
        assert move_values[state.spiel.encoding.move(best)] == max(move_values.values())
        assert after.current_player() in (0, 1, pyspiel.PlayerId.TERMINAL)


@pytest.mark.slow
def test_ismcts_plays_whole_chuko_games():
    game = pyspiel.load_game("python_chuko_chuko", {"players": 2})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=rng)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probabilities)))
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_a_resampled_chuko_state_has_the_players_information_state():
    game = pyspiel.load_game("python_chuko_chuko", {"players": 3, "pack": "1-20"})
    rng = np.random.default_rng(5)
    differs = 0
    for _ in range(20):
        state = play_randomly(game.new_initial_state(), rng,
                              stop=lambda s: len(s.history()) > 20 + int(rng.integers(40)))
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        twin = state.resample_from_infostate(player, lambda: int(rng.integers(2**31)))
        assert twin.information_state_string(player) == state.information_state_string(player)
        assert twin.legal_actions() == state.legal_actions()
        differs += str(twin) != str(state)
        play_randomly(twin, rng)  # it plays on to an end
    assert differs  # the hidden cards are dealt anew


def test_chukos_game_length_is_bounded_by_its_turn_limit():
    game = pyspiel.load_game("python_chuko_chuko", {"players": 2, "turn_limit": 7})
    # The deal (12 cards, who starts), then at most a reset, a draw and a card per card played.
    assert game.max_game_length() == 12 + 1 + 3 * 7
    rng = np.random.default_rng(2)
    for _ in range(20):
        assert len(play_randomly(game.new_initial_state(), rng).history()) <= 12 + 1 + 3 * 7


# What each game's views show: in Crossroads and Caravan the whole pack lies face up, so no
# seat ever holds a secret; Chükö's hands and Chuchula's hands and groupings are secret.
INFORMATION = {"crossroads": "PERFECT_INFORMATION", "caravan": "PERFECT_INFORMATION",
               "chuko": "IMPERFECT_INFORMATION", "chuchula": "IMPERFECT_INFORMATION"}


@pytest.mark.parametrize("game_id", GAMES)
def test_each_game_reports_the_information_its_views_give(game_id):
    expected = getattr(pyspiel.GameType.Information, INFORMATION[game_id])
    game = pyspiel.load_game(f"python_chuko_{game_id}", GAMES[game_id])
    assert game.get_type().information == expected
    registered = {t.short_name: t for t in pyspiel.registered_games()}
    assert registered[f"python_chuko_{game_id}"].information == expected


@pytest.mark.parametrize(("game_id", "options", "length"), [
    ("crossroads", {}, 12 + 1 + 12),  # the deal, who starts, a card a move
    ("crossroads", {"rounds": 2, "first": "the first seat"}, 12 + 2 * 12),
    ("caravan", {}, 12 + 12),
    # the first dealer and 52 cards; 12 steps per seat per round; 26 cards dealt for round
    # 2; the tie draw, a node per seat but the last
    ("chuchula", {"players": 2, "length": 2}, 1 + 52 + 2 * 12 * 2 + 26 + 1),
    ("chuchula", {"players": 4, "length": 2}, 1 + 52 + 2 * 12 * 4 + 51 + 3),
])
def test_game_length_is_the_true_bound_of_the_configuration(game_id, options, length):
    game = pyspiel.load_game(f"python_chuko_{game_id}", options)
    assert game.max_game_length() == length
    rng = np.random.default_rng(4)
    lengths = [len(play_randomly(game.new_initial_state(), rng).history()) for _ in range(3)]
    assert max(lengths) <= length
    if game_id == "crossroads":  # every round takes every card of the layout
        assert lengths == [length] * 3


@pytest.mark.parametrize("game_id", GAMES)
def test_information_state_tensors_have_their_declared_shape(game_id):
    game = pyspiel.load_game(f"python_chuko_{game_id}", GAMES[game_id])
    assert game.get_type().provides_information_state_tensor
    shape = game.information_state_tensor_shape()
    state = play_randomly(game.new_initial_state(), np.random.default_rng(1),
                          stop=lambda s: s.engine is not None and not s.is_chance_node())
    player = state.current_player()
    tensor = state.information_state_tensor(player)
    assert [len(tensor)] == shape and any(tensor)
    assert tensor == state.observation_tensor(player)
