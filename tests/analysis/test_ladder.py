"""Fixed, versioned ladders: `chuko arena GAME --ladder NAME` plays what the ladder pins and
names it with every version, the same numbers on every run; each built-in bot's version is
held to a fingerprint of its play."""

import json

import pytest

import chuko
from chuko.analysis import arena as arena_module
from chuko.analysis.ladder import fingerprint, load_ladder, recorded_bots
from chuko.games import game_class


def write_ladder(path, **pinned):
    entry = {"options": {"pack": "standard"}, "levels": {"random": 1, "easy": 1}, "games": 4,
             "seed": 7, "budget": {}, "resamples": 50}
    entry.update(pinned)
    path.write_text(json.dumps({"ladder": "tiny-1", "chuko_version": chuko.__version__,
                                "games": {"crossroads": entry}}))
    return str(path)


def test_two_runs_of_a_ladder_give_identical_results_and_name_its_versions(run_chuko,
                                                                           tmp_path):
    ladder = write_ladder(tmp_path / "tiny.json")
    status, out, err = run_chuko("arena", "crossroads", "--ladder", ladder, "--json")
    assert status == 0, err
    assert run_chuko("arena", "crossroads", "--ladder", ladder, "--json")[1] == out
    result = json.loads(out)
    assert result["ladder"]["ladder"] == "tiny-1" and result["ladder"]["as_pinned"]
    assert result["ladder"]["chuko_version"] == chuko.__version__
    assert result["ladder"]["bots"] == [{"level": "random", "version": 1, "running": 1},
                                        {"level": "easy", "version": 1, "running": 1}]
    assert (result["games"], result["seed"], result["levels"]) == (4, 7, ["random", "easy"])
    assert result["ladder"]["resamples"] == 50 and "over 50 resamples" in result["rating"]


def test_a_ladder_adds_the_agents_given_and_prints_its_name_and_versions(run_chuko, tmp_path,
                                                                        monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "my_bots.py").write_text(
        "from chuko.bots import make_bot\n"
        "def mine(game, rng):\n    return make_bot(game.id, 'random', rng)\n")
    ladder = write_ladder(tmp_path / "tiny.json")
    status, out, err = run_chuko("arena", "crossroads", "--ladder", ladder, "--agent",
                                 "my_bots:mine")
    assert status == 0, err
    said = " ".join(out.split())
    assert "Ladder tiny-1: seed 7. Cite as: chuko arena crossroads --ladder tiny-1" in said
    assert f"(ladder made with chuko {chuko.__version__}; bots random v1, easy v1;" in said
    assert "my_bots:mine" in out


def test_a_ladder_run_with_other_bot_versions_says_so(run_chuko, tmp_path):
    ladder = write_ladder(tmp_path / "old.json", levels={"random": 1, "easy": 2})
    status, out, err = run_chuko("arena", "crossroads", "--ladder", ladder)
    assert status == 0, err
    assert "pins the easy bot at version 2; this chuko's is version 1" in " ".join(out.split())
    found = json.loads(run_chuko("arena", "crossroads", "--ladder", ladder, "--json")[1])
    assert found["ladder"]["as_pinned"] is False


def test_ladder_v1_plays_what_it_pins(run_chuko, monkeypatch):
    played = {}

    def fake_arena(game, agents, games, seed, **options):
        played.update(game=game.id, agents=[a.spec for a in agents], games=games, seed=seed,
                      budget=options["budget"], ladder=options["ladder"].name,
                      resamples=options["resamples"])
        raise SystemExit(0)

    monkeypatch.setattr(arena_module, "arena", fake_arena)
    run_chuko("arena", "chuko", "--ladder", "v1")
    pinned = load_ladder("v1", "chuko")
    assert played == {"game": "chuko", "agents": list(pinned.levels), "games": pinned.games,
                      "seed": pinned.seed, "budget": pinned.budget, "ladder": "v1",
                      "resamples": pinned.resamples}


def test_ladder_v1_covers_every_level_of_every_built_in_game_at_a_recorded_version():
    for game_id, bots in recorded_bots().items():
        ladder = load_ladder("v1", game_id)
        assert list(ladder.levels) == list(game_class(game_id).descriptor.levels)
        assert all(1 <= ladder.levels[level] <= bots[level]["version"] for level in bots)


@pytest.mark.parametrize("argv", [
    ("--ladder", "v0"),
    ("--ladder", "v1", "--games", "5"),
    ("--ladder", "v1", "--seed", "5"),
    ("--ladder", "v1", "--agents", "easy,hard"),
    ("--ladder", "v1", "--bot-simulations", "5"),
    ("--ladder", "v1", "--pack", "primes"),
    ("--ladder", "missing.json"),
])
def test_a_bad_ladder_request_is_one_sentence_and_status_2(run_chuko, argv):
    status, out, err = run_chuko("arena", "crossroads", *argv)
    assert status == 2 and out == ""
    assert err.startswith("chuko: ") and err.count("\n") == 1


def test_a_game_the_ladder_does_not_cover_is_one_sentence(run_chuko):
    status, _, err = run_chuko("arena", "takeaway", "--ladder", "v1")
    assert status == 2 and "Ladder v1 has no" in err and "it covers chuko, crossroads" in err


def test_every_built_in_level_has_a_recorded_bot_version():
    bots = recorded_bots()
    for game_id, levels in bots.items():
        assert list(levels) == list(game_class(game_id).descriptor.levels)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "level"), [
    (game_id, level) for game_id, levels in recorded_bots().items() for level in levels])
def test_each_bot_plays_as_its_recorded_version_does(game_id, level):
    recorded = recorded_bots()[game_id][level]
    assert fingerprint(game_id, level) == recorded["fingerprint"], (
        f"The {level} {game_id} bot plays differently: if its play changed, raise its version "
        f"in chuko/data/bot-versions.json and record the new fingerprint (and let the next "
        f"ladder pin it); if only the deals changed, record the new fingerprint.")
