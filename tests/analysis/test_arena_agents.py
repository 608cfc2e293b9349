"""`chuko arena` for any agent: `module:callable`, `file.py:callable` and saved policies
beside the built-in levels, each refused in one sentence when it cannot play, and an illegal
move during play forfeiting the game, counted and reported."""

import json
import re
import sys
from pathlib import Path
from random import Random
from types import ModuleType

import pytest

from chuko.analysis.agents import Agent, judged_move, read_agents
from chuko.analysis.arena import arena
from chuko.bots import RandomBot
from chuko.games import game_class

HERE = Path(__file__).parent
AGENTS = HERE / "arena_agents.py"


@pytest.fixture(autouse=True)
def importable(monkeypatch):
    monkeypatch.syspath_prepend(str(HERE))


def crossroads():
    return game_class("crossroads").from_options({}, bots_only=True)


def test_a_callable_making_the_easy_bot_plays_exactly_as_the_easy_level():
    # the same seeds reach the callable as the level: only the name differs
    by_level = arena(crossroads(), ["random", "easy"], 6, 11, resamples=20)
    by_callable = arena(crossroads(), ["random", "arena_agents:easy"], 6, 11, resamples=20)
    assert by_callable.pairings[0].results == by_level.pairings[0].results
    assert by_callable.ratings.elo == by_level.ratings.elo


def test_an_agent_from_a_python_file_or_a_nested_name_is_seated_under_its_spec():
    agents = read_agents([f"{AGENTS}:first_move", "arena_agents:Factories.first_move",
                          "hard"], crossroads())
    assert [a.kind for a in agents] == ["callable", "callable", "level"]
    assert agents[0].name == f"{AGENTS}:first_move" and agents[2].name == "Hard bot"


def test_arena_rates_a_callable_agent_beside_the_levels_with_draws_in_every_cell(run_chuko):
    status, out, err = run_chuko("arena", "crossroads", "--agents", "random,easy",
                                 "--agent", "arena_agents:first_move", "--games", "6",
                                 "--seed", "2", "--json")
    assert status == 0, err
    result = json.loads(out)
    assert result["levels"] == ["random", "easy", "arena_agents:first_move"]
    assert [a["kind"] for a in result["agents"]] == ["level", "level", "callable"]
    for rating in result["ratings"]:
        assert rating["games"] == 12 and rating["low"] <= rating["elo"] <= rating["high"]
        assert rating["draws"] == sum(p["draws"] for p in result["pairings"]
                                      if rating["level"] in (p["a"], p["b"]))


def test_the_text_matrix_shows_wins_draws_losses_and_n_in_every_cell(run_chuko):
    status, out, err = run_chuko("arena", "crossroads", "--agents",
                                 "random,arena_agents:first_move", "--games", "6", "--seed",
                                 "2")
    assert status == 0, err
    assert "wins–draws–losses" in out and "Draws" in out and "Games" in out
    cells = [line for line in out.splitlines() if " of 6" in line]
    assert len(cells) == 2
    for line in cells:
        wins, draws, losses = line.split()[-3].split("–")
        assert int(wins) + int(draws) + int(losses) == 6


def test_an_illegal_move_during_play_forfeits_the_game_and_is_reported(run_chuko):
    status, out, err = run_chuko("arena", "crossroads", "--agents",
                                 "random,arena_agents:sloppy", "--games", "4", "--seed", "3",
                                 "--json")
    assert status == 0, err
    result = json.loads(out)
    pairing = result["pairings"][0]
    # its second move of each game is illegal: every game is forfeited, and lost
    assert pairing["forfeits_b"] == 4 and pairing["wins_a"] == 4 and pairing["forfeits_a"] == 0
    assert [r["forfeits"] for r in result["ratings"]] == [0, 4]
    assert [(f["level"], f["games"]) for f in result["forfeits"]] == [("arena_agents:sloppy", 4)]
    assert result["forfeits"][0]["first"].startswith("'nonsense' is not a move")
    status, out, err = run_chuko("arena", "crossroads", "--agents",
                                 "random,arena_agents:sloppy", "--games", "4", "--seed", "3")
    assert "arena_agents:sloppy forfeited 4 games by an illegal move" in out
    assert "the first: 'nonsense' is not a move" in " ".join(out.split())  # the engine's words


def test_a_forfeited_solitaire_deal_is_lost():
    game = game_class("caravan").from_options({}, bots_only=True)
    result = arena(game, ["random", "arena_agents:sloppy"], 3, 1, resamples=10)
    assert result.win_rates is not None and result.win_rates["arena_agents:sloppy"] == [False] * 3
    assert len(result.forfeits["arena_agents:sloppy"]) == 3


def test_a_saved_policy_is_loaded_by_policy_bot_with_its_path_the_game_and_a_seeded_rng(
        monkeypatch, tmp_path):
    path = tmp_path / "policy.npz"
    path.write_bytes(b"weights")
    calls = []
    fake = ModuleType("chuko.bots.policy")

    def policy_bot(spec, game, rng):
        calls.append((spec, game.id, type(rng)))
        return RandomBot(rng)

    fake.policy_bot = policy_bot
    monkeypatch.setitem(sys.modules, "chuko.bots.policy", fake)
    result = arena(crossroads(), ["random", str(path)], 2, 4, resamples=10)
    assert result.agents[1] == Agent(str(path), "policy", result.agents[1].make)
    # once for the first-move check, once for its seat at the table
    assert calls == [(str(path), "crossroads", Random)] * 2
    assert len(result.pairings[0].results) == 2


@pytest.mark.parametrize(("spec", "says"), [
    ("no_such_module:make", "There is no module no_such_module for the agent"),
    ("arena_agents:nothing", "The module arena_agents has no nothing for the agent"),
    ("arena_agents:NOT_CALLABLE", "NOT_CALLABLE in arena_agents is not callable"),
    ("arena_agents:not_a_bot", "returned str, not a bot"),
    ("arena_agents:broken", "could not be made (ValueError: no weights)"),
    ("arena_agents:raising", "raised RuntimeError: the network is unreachable"),
    ("arena_agents:illegal_at_once", "played an illegal move on its first turn"),
    ("missing.py:make", "There is no file missing.py for the agent"),
    ("missing.npz", "There is no saved policy missing.npz"),
    ("clever", "There is no 'clever' bot"),
])
def test_a_bad_agent_is_one_sentence_and_status_2(run_chuko, spec, says):
    status, out, err = run_chuko("arena", "crossroads", "--agent", spec, "--games", "2")
    assert status == 2 and out == ""
    assert err.startswith("chuko: ") and err.count("\n") == 1 and says in err


def test_an_agent_that_raises_during_play_stops_the_arena_in_one_sentence(run_chuko,
                                                                          monkeypatch):
    import arena_agents

    class LateRaising(arena_agents.FirstMove):
        moves = 0

        def choose(self, view, legal_moves):
            type(self).moves += 1
            if type(self).moves > 1:
                raise KeyError("weights")
            return legal_moves[0]

    monkeypatch.setattr(arena_agents, "late", lambda game, rng: LateRaising(rng),
                        raising=False)
    status, out, err = run_chuko("arena", "crossroads", "--agents", "random,arena_agents:late",
                                 "--games", "2")
    assert status == 2 and err.count("\n") == 1
    assert "The agent arena_agents:late raised KeyError: 'weights'." in err


def test_a_move_value_outside_the_legal_list_is_refused_and_the_state_left_unchanged():
    game = crossroads()
    state = game.new(5)
    seat = state.to_move[0]
    agent = Agent("arena_agents:odd", "callable")

    class Odd:
        level = "odd"

        def choose(self, view, legal_moves):
            return object()

    before = state.view(seat)
    refusal = judged_move(agent, Odd(), state, seat)
    assert refusal is not None and refusal.endswith("is not a legal move.")
    assert state.view(seat) == before and list(state.to_move) == [seat]


def test_in_a_game_that_does_not_list_its_moves_the_engine_judges_an_agents_move(run_chuko):
    status, out, err = run_chuko("arena", "chuchula", "--agent",
                                 "arena_agents:illegal_at_once", "--games", "1")
    assert status == 2 and err.count("\n") == 1
    assert "arena_agents:illegal_at_once played an illegal move on its first turn" in err


def test_the_agent_module_the_lab_guide_shows_plays_in_the_arena(run_chuko, tmp_path,
                                                                 monkeypatch):
    guide = (HERE.parents[1] / "docs" / "lab.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", guide, re.S) if "mybots" in b)
    (tmp_path / "mybots.py").write_text(block)
    monkeypatch.syspath_prepend(str(tmp_path))
    status, out, err = run_chuko("arena", "crossroads", "--agents", "random,mybots:make_bot",
                                 "--games", "4", "--seed", "1", "--json")
    assert status == 0, err
    assert json.loads(out)["ratings"][1]["games"] == 4


@pytest.mark.parametrize(("missing_module", "says"), [
    ("torch", "its loader needs torch, which is not installed"),
    ("chuko.bots.policy", "this chuko has no saved-policy support"),
])
def test_a_policy_that_cannot_be_loaded_for_want_of_a_module_is_one_sentence(
        run_chuko, monkeypatch, tmp_path, missing_module, says):
    path = tmp_path / "policy.npz"
    path.write_bytes(b"weights")

    def missing(name, *args, **kwargs):
        if name == "chuko.bots.policy":
            raise ModuleNotFoundError(f"No module named {missing_module!r}",
                                      name=missing_module)
        return real(name, *args, **kwargs)

    import chuko.analysis.agents as agents

    real = agents.import_module
    monkeypatch.setattr(agents, "import_module", missing)
    status, out, err = run_chuko("arena", "crossroads", "--agent", str(path))
    assert status == 2 and err.count("\n") == 1
    assert says in err


def test_a_shipped_trained_policy_is_rated_in_the_arena_beside_the_levels(run_chuko):
    policy = Path(__file__).parents[2] / "src/chuko/data/policies/chuko.npz"
    status, out, err = run_chuko("arena", "chuko", "--players", "2", "--agents",
                                 f"random,{policy}", "--games", "40", "--seed", "3", "--json")
    assert status == 0, err
    result = json.loads(out)
    ratings = {entry["level"]: entry for entry in result["ratings"]}
    assert set(ratings) == {"random", str(policy)}
    # The trained policy beats random play clearly: its interval lies above random's 0.
    assert ratings[str(policy)]["low"] > 0
    assert ratings[str(policy)]["games"] == 40


LAST_MOVE_BOT = '''
class LastMove:
    level = "last"

    def __init__(self, rng):
        self.rng = rng

    def choose(self, view, legal_moves):
        return legal_moves[-1]


def make_bot(game, rng):
    return LastMove(rng)
'''


@pytest.fixture
def folder_with_a_bot(tmp_path, monkeypatch):
    """A folder holding walker_bots.py, the command run in it as the `chuko` script runs:
    with neither the folder nor "" on the import path."""
    (tmp_path / "walker_bots.py").write_text(LAST_MOVE_BOT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [entry for entry in sys.path
                                      if entry not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "walker_bots", raising=False)
    return tmp_path


@pytest.mark.parametrize("spec", ["walker_bots:make_bot", "walker_bots.py:make_bot"])
def test_an_agent_in_the_current_folder_is_found_as_a_module_or_a_file(folder_with_a_bot,
                                                                       spec):
    (agent,) = read_agents([spec], crossroads())
    assert agent.kind == "callable" and agent.name == spec
    state = crossroads().new(1)
    seat = state.to_move[0]
    bot = agent.bot(state.game, Random(1), {})
    assert judged_move(agent, bot, state, seat) is None
