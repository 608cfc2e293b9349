"""`chuko study … --until WIDTH` samples in batches until every interval the study reports
is at most WIDTH wide (rates in percentage points, means in their unit), and says so when
its cap stops it first; bad widths are one-sentence errors (exit 2)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numba", reason="the study's solving needs the fast extra")

from chuko.cli.main import main  # noqa: E402


def study(capsys, *argv: str) -> dict:
    assert main(["study", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_until_samples_caravan_deals_until_every_share_is_narrow_enough(capsys):
    found = study(capsys, "caravan", "--pack", "plain", "--sample", "300", "--until", "2%",
                  "--seed", "1")
    data = found["data"]
    assert data["deals"] > 300 and data["until"]["reached"]
    widths = [100 * (w["share"]["high"] - w["share"]["low"]) for w in data["winnable"]]
    assert max(widths) <= 2
    assert "sampled until every rate's interval was at most 2 percentage points wide" in (
        found["method"])


def test_until_says_when_its_cap_stopped_it(capsys):
    found = study(capsys, "caravan", "--pack", "plain", "--sample", "100", "--until", "0.1%",
                  "--cap", "500", "--seed", "1")
    assert found["data"]["deals"] == 500 and not found["data"]["until"]["reached"]
    assert found["findings"][0].startswith("The sample stopped at the cap of 500 deals before "
                                           "every rate's interval was at most 0.1 percentage "
                                           "points wide")


def test_until_plays_more_games_in_each_configuration_that_is_too_wide(capsys):
    found = study(capsys, "chuko", "--players", "2", "--pack", "standard", "--games", "20",
                  "--until", "30%", "--seed", "1")
    (cell,) = found["data"]["cells"]
    assert cell["games"] > 20
    assert all(100 * (f["high"] - f["low"]) <= 30 for f in [cell["first_player"],
                                                             *cell["seats"]])


@pytest.mark.parametrize(("argv", "said"), [
    (["caravan", "--until", "wide"], "--until takes a positive width"),
    (["caravan", "--until", "0%"], "--until takes a positive width"),
    (["caravan", "--sample", "10", "--cap", "100"], "--cap goes with --until"),
    (["caravan", "--exact", "--until", "1%"], "does not go with --exact"),
])
def test_a_bad_until_is_a_one_sentence_error(capsys, argv, said):
    assert main(["study", *argv]) == 2
    assert said in capsys.readouterr().err
