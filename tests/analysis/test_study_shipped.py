"""`chuko study caravan` without --exact or --sample answers a pack whose exact figures ship
with chuko from those figures, and says so; any other pack, or --sample, is sampled afresh.
A study of bot games with a single configuration still gets a plot in its report."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numba", reason="the study's solving needs the fast extra")

from chuko.analysis.study.deals import ALL_DEALS  # noqa: E402
from chuko.analysis.study.shipped import load  # noqa: E402
from chuko.cli.main import main  # noqa: E402


def study(capsys, *argv: str) -> dict:
    assert main(["study", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("given", "shipped"), [
    ([], "standard"),
    (["--pack", "plain"], "plain"),
    (["--pack", "13,12,11,10,9,8,7,6,5,4,3,2"], "plain"),  # the same cards, written out
])
def test_a_pack_whose_exact_figures_ship_is_answered_from_them(capsys, given, shipped):
    found = study(capsys, "caravan", *given)
    expected = next(s for s in load("caravan")["studies"] if s["data"]["pack_name"] == shipped)
    assert found["data"]["exact"] and found["data"]["deals"] == ALL_DEALS
    assert found["data"]["shipped"] is True
    assert found["data"]["winnable"] == expected["data"]["winnable"]
    assert "ship" in found["findings"][0] and "--sample" in found["findings"][0]


def test_the_terminal_says_the_figures_were_shipped_not_solved(capsys):
    assert main(["study", "caravan", "--pack", "plain"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "exact figures shipped with chuko" in out and "nothing was solved now" in out
    assert "1,118,088 of 79,833,600 deals cannot be won" in out


def test_another_pack_or_an_asked_sample_is_sampled(capsys):
    other = study(capsys, "caravan", "--pack", "primes", "--sample", "30", "--seed", "1")
    asked = study(capsys, "caravan", "--sample", "30", "--seed", "1")
    for found in (other, asked):
        assert not found["data"]["exact"] and found["data"]["deals"] == 30
        assert "shipped" not in found["data"]


def test_a_study_of_one_configuration_plots_the_win_rate_by_seat(capsys, tmp_path):
    pytest.importorskip("matplotlib", reason="the report's plots need the lab extra")
    report = tmp_path / "one.html"
    assert main(["study", "chuko", "--players", "3", "--pack", "standard", "--games", "12",
                 "--seed", "1", "--report", str(report)]) == 0
    capsys.readouterr()
    page = report.read_text(encoding="utf-8")
    assert page.count("<svg") == 1 and "Win rate by seat" in page
    found = study(capsys, "chuko", "--players", "3", "--pack", "standard", "--games", "12",
                  "--seed", "1")
    (plot,) = found["plots"]
    assert plot["x"] == ["1", "2", "3"] and len(plot["series"][0]["low"]) == 3
