"""The studies word their sampled findings by their intervals (analysis/wording.py): a
sample where every deal was won says so of the sample and gives a lower bound for all
deals; an edge whose interval includes zero is not detected; the advisor's lead in
Chuchula carries its interval and the rounds it rests on."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numba", reason="the study's solving needs the fast extra")

from chuko.cli.main import main  # noqa: E402


def study(capsys, *argv: str) -> dict:
    assert main(["study", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_sample_where_every_deal_is_won_never_says_every_deal(capsys):
    (finding,) = study(capsys, "caravan", "--sample", "300", "--seed", "1")["findings"]
    assert finding.startswith("Every one of the 300 sampled deals can be won with the "
                              "standard 2 bridges, so at least 99.01% of deals")


def test_sampled_unwinnable_deals_are_told_with_their_share_and_interval(capsys):
    (finding,) = study(capsys, "caravan", "--pack", "plain", "--sample", "300", "--seed",
                       "1")["findings"]
    assert finding == ("4 of 300 sampled deals cannot be won with the standard 2 bridges: "
                       "1.33% [0.52%, 3.38%] of deals.")


@pytest.mark.slow
def test_a_crossroads_edge_whose_interval_includes_zero_is_not_detected(capsys):
    (finding,) = study(capsys, "crossroads", "--sample", "1000", "--seed", "1")["findings"]
    assert finding == ("No edge detected at this sample size: the first player's edge under "
                       "perfect play is -0.010 [-0.063, +0.043] points per round over 1,000 "
                       "sampled deals, an interval that includes 0.")


def test_the_chuchula_advisors_lead_has_its_interval_and_rounds(capsys):
    found = study(capsys, "chuchula", "--rounds", "10", "--seed", "1")
    gain = found["data"]["gain"]
    assert gain["n"] == 10 and gain["low"] < gain["estimate"] < gain["high"]
    (finding,) = found["findings"]
    assert "over 10 sampled rounds" in finding and "[" in finding
    assert finding.startswith("No difference between the advisor and a greedy player "
                              "detected at this sample size")
