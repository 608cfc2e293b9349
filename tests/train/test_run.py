"""A recipe run end to end writes its policy, curve and plot; the policy it saves plays as a
bot and, on Caravan, a short run already beats the masked random policy on held-out deals."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from chuko.bots import make_bot  # noqa: E402
from chuko.bots.policy import load_policy, policy_bot  # noqa: E402
from chuko.envs.common import make_game  # noqa: E402
from chuko.train.evaluate import EVALUATION_SEEDS, evaluate, play_one  # noqa: E402
from chuko.train.recipes import RECIPES  # noqa: E402
from chuko.train.run import main, train_recipe  # noqa: E402
from chuko.train.trainer import Trainer  # noqa: E402


def test_a_recipe_writes_its_policy_curve_and_plot(tmp_path: Path) -> None:
    lines: list[str] = []
    base = RECIPES["chuko"]
    recipe = replace(base, num_envs=2, settings=replace(base.settings, steps=8))
    summary = train_recipe(recipe, seed=0, minutes=None, updates=1, out=tmp_path, every=1,
                           games=4, final_games=6, say=lines.append)
    assert {p.name for p in tmp_path.iterdir()} >= {"chuko.npz", "chuko.json"}
    written = json.loads((tmp_path / "chuko.json").read_text())
    assert written["final"]["easy"]["games"] == 6
    assert set(written["final"]) == {"easy", "random"}
    assert [p["update"] for p in written["curve"]] == [0, 1] and summary["actions"] == 2 * 8
    assert any(line.startswith("held out, against easy") for line in lines)
    game = make_game("chuko", {"players": 2})
    bot = policy_bot(str(tmp_path / "chuko.npz"), game, Random(0))
    state = game.new(1)
    move = bot.choose(state.view(state.to_move[0]), state.legal_moves(state.to_move[0]))
    assert move in state.legal_moves(state.to_move[0])


def test_self_play_recipes_train_on_every_seat() -> None:
    recipe = RECIPES["crossroads-self-play"]
    source = recipe.source(seed=0, num_envs=2)
    assert source.players == 2
    trainer = Trainer(source, replace(recipe.settings, steps=16), seed=0)
    trainer.run(updates=1)
    assert trainer.steps == 2 * 16


def test_the_command_refuses_an_unknown_recipe_or_no_games_with_status_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["no-such-recipe"])
    assert stopped.value.code == 2
    assert main(["caravan", "--envs", "0"]) == 2
    assert capsys.readouterr().err.endswith("not 0.\n")


def test_evaluation_deals_are_fixed_and_seats_rotate() -> None:
    game = make_game("chuko", {"players": 2})

    def results() -> list[float]:
        return [play_one(game, make_bot("chuko", "random", Random(k)), "easy",
                         EVALUATION_SEEDS + k, k % 2) for k in range(6)]

    assert results() == results()


@pytest.mark.slow
def test_a_short_caravan_run_beats_the_masked_random_policy(tmp_path: Path) -> None:
    recipe = RECIPES["caravan"]
    game = make_game("caravan", {})
    trainer = Trainer(recipe.source(seed=0), recipe.settings, seed=0)
    untrained = evaluate(trainer.snapshot(game, {}), game, None, 400, greedy=False)
    trainer.run(updates=10)  # about 20,000 actions
    trainer.save(str(tmp_path / "c.npz"), game, {})
    trained = evaluate(load_policy(str(tmp_path / "c.npz")), game, None, 400)
    assert trained.win_rate.low > untrained.win_rate.high


def test_the_example_script_trains_and_saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    import runpy
    import sys

    script = Path(__file__).resolve().parents[2] / "examples" / "train.py"
    monkeypatch.setattr(sys, "argv", [str(script), "caravan", "--updates", "1", "--every", "1",
                                      "--games", "3", "--final-games", "3",
                                      "--envs", "2", "--out", str(tmp_path)])
    with pytest.raises(SystemExit) as finished:
        runpy.run_path(str(script), run_name="__main__")
    assert finished.value.code == 0
    assert (tmp_path / "caravan.npz").is_file()
    assert "held out, against alone: wins" in capsys.readouterr().out


@pytest.mark.parametrize("flag", ["--minutes", "--updates", "--every", "--games",
                                  "--final-games"])
@pytest.mark.parametrize("value", ["-1", "0", "x"])
def test_a_count_or_time_that_is_not_above_zero_is_refused_with_status_2(
        flag: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["caravan", flag, value])
    assert stopped.value.code == 2
    assert f"a number above 0 is needed, not '{value}'" in capsys.readouterr().err
