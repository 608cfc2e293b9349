"""`chuko export`: records of every built-in game that match the shipped JSON Schema and
replay move for move, in JSON lines and Parquet; solved positions whose labels are the exact
solver's; and one-sentence refusals (exit 2) for what cannot be done."""

import json
import sys
from importlib.resources import files

import pytest
from jsonschema import Draft202012Validator

from chuko.cli.export import labeller
from chuko.games import BUILT_IN, game_class, game_ids, registry

BUILT_IN_IDS = [game.id for game in registry().values() if game.__module__ in BUILT_IN]
SOLVED = [game for game in game_ids() if labeller(game) is not None]


def validator(name):
    schema = json.loads(files("chuko").joinpath(f"data/{name}.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


RECORD = validator("record")
POSITION = validator("position")


def lines(text):
    return [json.loads(line) for line in text.splitlines()]


def assert_replayable(record):
    """The record matches the schema and the engine rebuilds exactly it, re-checking every
    move."""
    RECORD.validate(record)
    game = record["game"]
    without_bots = {k: v for k, v in record.items() if k != "bots"}
    assert game_class(game).replay(without_bots).record() == without_bots


def test_the_four_built_in_games_are_the_ones_the_schema_covers():
    covered = [ref["$ref"].rpartition("/")[2] for ref in RECORD.schema["oneOf"]]
    assert sorted(covered) == sorted(BUILT_IN_IDS) and len(BUILT_IN_IDS) == 4


@pytest.mark.parametrize("game", BUILT_IN_IDS)
def test_jsonl_records_of_every_game_match_the_schema_and_replay(run_chuko, game):
    status, out, err = run_chuko("export", game, "--games", "3", "--seed", "5",
                                 "--bots", "random")
    assert status == 0, err
    records = lines(out)
    assert len(records) == 3
    for record in records:
        assert record["bots"] == ["random"] * len(record["bots"])
        assert_replayable(record)


# One wrong field per game: the schema must refuse each.
SPOILERS = {
    "chuko": lambda r: r["turns"].append({"seat": 0, "kind": "fly"}),
    "crossroads": lambda r: r["moves"].append("Z9"),
    "caravan": lambda r: r.update(bridges=-1),
    "chuchula": lambda r: r["rounds"][0]["hands"].__setitem__(0, "1x 2y"),
}


@pytest.mark.parametrize("game", BUILT_IN_IDS)
def test_the_schema_refuses_a_record_with_a_wrong_field(run_chuko, game):
    _, out, _ = run_chuko("export", game, "--games", "1", "--seed", "1", "--bots", "random")
    (record,) = lines(out)
    RECORD.validate(record)
    SPOILERS[game](record)
    assert not RECORD.is_valid(record)
    assert not RECORD.is_valid({**lines(out)[0], "game": "chess"})


@pytest.mark.parametrize("game", BUILT_IN_IDS)
def test_parquet_rows_hold_the_same_records_as_jsonl(run_chuko, game, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "games.parquet"
    args = ("export", game, "--games", "2", "--seed", "9", "--bots", "random")
    status, _, err = run_chuko(*args, "--format", "parquet", "--out", str(path))
    assert status == 0, err
    rows = pq.read_table(path).to_pylist()
    _, out, _ = run_chuko(*args)
    expected = lines(out)
    assert [r["index"] for r in rows] == [0, 1] and {r["game"] for r in rows} == {game}
    for row, line in zip(rows, expected, strict=True):
        record = {**json.loads(row["record"]), "bots": row["bots"]}
        assert record == line
        assert_replayable(record)


def test_the_same_seed_exports_the_same_games(run_chuko, tmp_path):
    game = BUILT_IN_IDS[0]
    path = tmp_path / "out.jsonl"
    first = run_chuko("export", game, "--games", "4", "--seed", "11", "--out", str(path))
    assert first[0] == 0 and first[1] == ""
    again = run_chuko("export", game, "--games", "4", "--seed", "11")
    assert path.read_text() == again[1]


def test_the_games_with_an_exact_solver_label_positions():
    assert sorted(SOLVED) == ["caravan", "crossroads"]


@pytest.mark.parametrize("game", SOLVED)
def test_positions_are_every_move_labelled_by_the_solver(run_chuko, game):
    """The perfect bot plays by the solver, so the move played always has the best label;
    the positions of a game are its record's moves in order."""
    args = ("export", game, "--games", "2", "--seed", "3")
    status, out, err = run_chuko(*args, "--bots", "perfect", "--positions")
    assert status == 0, err
    rows = lines(out)
    for row in rows:
        POSITION.validate(row)
        assert row["game"] == game and len(row["values"]) == len(row["moves"])
        assert row["values"][row["moves"].index(row["played"])] == max(row["values"])
        assert row["view"]["to_move"] == [row["seat"]]
    _, games, _ = run_chuko(*args, "--bots", "perfect")
    for index, record in enumerate(lines(games)):
        played = [r["played"] for r in rows if r["game_index"] == index]
        assert played == record["moves"]
        assert [r["ply"] for r in rows if r["game_index"] == index] == list(range(len(played)))


@pytest.mark.parametrize("game", SOLVED)
def test_weaker_bots_make_mistakes_the_labels_show(run_chuko, game):
    status, out, err = run_chuko("export", game, "--games", "6", "--seed", "2", "--bots",
                                 "random", "--positions")
    assert status == 0, err
    rows = lines(out)
    assert any(r["values"][r["moves"].index(r["played"])] < max(r["values"]) for r in rows)
    assert any(min(r["values"]) < max(r["values"]) for r in rows)


def test_positions_in_parquet_keep_the_labels(run_chuko, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    game = SOLVED[0]
    path = tmp_path / "positions.parquet"
    args = ("export", game, "--games", "1", "--seed", "4", "--positions")
    status, _, err = run_chuko(*args, "--format", "parquet", "--out", str(path))
    assert status == 0, err
    _, out, _ = run_chuko(*args)
    rows = pq.read_table(path).to_pylist()
    assert [{**r, "view": json.loads(r["view"])} for r in rows] == lines(out)


def refused(result):
    status, out, err = result
    assert status == 2 and out == "", (status, err)
    assert err.startswith("chuko: ") and err.count("\n") == 1, err
    return err


def test_positions_of_a_game_without_a_solver_are_refused_naming_the_games_with_one(run_chuko):
    unsolved = next(i for i in BUILT_IN_IDS if i not in SOLVED)
    err = refused(run_chuko("export", unsolved, "--games", "1", "--positions"))
    assert all(game_class(g).title in err for g in SOLVED)


def test_parquet_without_pyarrow_names_the_extra(run_chuko, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    path = tmp_path / "never.parquet"
    err = refused(run_chuko("export", BUILT_IN_IDS[0], "--games", "1", "--format", "parquet",
                            "--out", str(path)))
    assert "pyarrow" in err and "pip install 'chuko[rl]'" in err
    assert not path.exists()


@pytest.mark.parametrize("argv", [
    ["--games", "0"],
    ["--bots", "wizard"],
    ["--format", "csv"],
    ["--out", "/no/such/directory/games.jsonl"],
])
def test_bad_arguments_are_one_sentence_and_status_2(run_chuko, argv):
    refused(run_chuko("export", BUILT_IN_IDS[0], *argv))


@pytest.mark.parametrize("game", BUILT_IN_IDS)
def test_steps_in_parquet_are_columns_of_observations_masks_actions_and_rewards(
        run_chuko, game, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    np = pytest.importorskip("numpy")
    from chuko.envs.common import load_encoding, make_game, returns

    options = ("--players", "2", "--length", "1") if game == "chuchula" else ()
    args = ("export", game, "--games", "2", "--seed", "6", "--bots", "random", "--steps",
            *options)
    path = tmp_path / "steps.parquet"
    status, _, err = run_chuko(*args, "--format", "parquet", "--out", str(path))
    assert status == 0, err
    table = pq.read_table(path)
    assert table.column_names == ["game", "game_index", "step", "seat", "observation", "mask",
                                  "action", "reward", "terminated", "truncated"]
    encoding = load_encoding(make_game(game, {"players": 2, "length": 1}
                                       if game == "chuchula" else {}))
    observations = np.array(table["observation"].to_pylist(), np.float32)
    masks = np.array(table["mask"].to_pylist(), np.int8)
    actions = table["action"].to_numpy()
    assert observations.shape == (table.num_rows, *encoding.observation_shape)
    assert masks.shape == (table.num_rows, encoding.num_actions)
    assert (masks[np.arange(table.num_rows), actions] == 1).all()  # every action was legal
    low, high = encoding.observation_bounds
    assert low <= observations.min() and observations.max() <= high
    rows = table.to_pylist()
    _, out, _ = run_chuko(*args[:-1 - len(options)], *options)  # the same games' records
    for index, record in enumerate(lines(out)):
        mine = [r for r in rows if r["game_index"] == index]
        assert [r["step"] for r in mine] == list(range(len(mine)))
        final = game_class(game).replay({k: v for k, v in record.items() if k != "bots"})
        paid = returns(final.outcome.scores)
        for seat in {r["seat"] for r in mine}:
            last = [r for r in mine if r["seat"] == seat][-1]
            assert last["reward"] == pytest.approx(paid[seat]) and last["terminated"]
        assert sum(r["terminated"] for r in mine) == len({r["seat"] for r in mine})


def test_steps_in_json_lines_are_the_parquet_rows(run_chuko, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    args = ("export", "crossroads", "--games", "2", "--seed", "8", "--steps")
    path = tmp_path / "steps.parquet"
    assert run_chuko(*args, "--format", "parquet", "--out", str(path))[0] == 0
    _, out, _ = run_chuko(*args)
    assert lines(out) == pq.read_table(path).to_pylist()


def test_a_chuchula_grouping_is_one_step_a_card_but_the_last(run_chuko):
    status, out, err = run_chuko("export", "chuchula", "--games", "1", "--seed", "2", "--steps",
                                 "--players", "3", "--length", "1", "--bots", "easy")
    assert status == 0, err
    rows = lines(out)
    assert [sum(r["seat"] == s for r in rows) for s in range(3)] == [12, 12, 12]
    for seat in range(3):
        placed = [divmod(r["action"], 4)[0] for r in rows if r["seat"] == seat]
        assert placed == sorted(placed) and len(set(placed)) == 12


def test_steps_of_a_game_without_an_environment_are_refused_in_a_sentence(run_chuko):
    bare = [g for g in game_ids() if game_class(g).descriptor.integrations.encoding is None]
    if not bare:
        pytest.skip("every installed game has an environment")
    err = refused(run_chuko("export", bare[0], "--games", "1", "--steps"))
    assert "offers no research environment" in err
