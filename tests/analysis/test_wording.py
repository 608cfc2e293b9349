"""The lab's wording rules (analysis/wording.py): a sampled finding never says more than its
interval shows, and every figure is told with its interval and sample size."""

from __future__ import annotations

import pytest

from chuko.analysis.stats import Interval, mean_interval
from chuko.analysis.wording import (
    DEALS,
    GAMES,
    Overstated,
    Width,
    at_least,
    at_most,
    check,
    every,
    parse_width,
    rate,
    score_cell,
    versus,
)

BRIDGES = "can be won with the standard 2 bridges"


def test_a_sampled_every_deal_is_refused():
    with pytest.raises(Overstated, match="(?i)every deal"):
        check(["Every deal can be won with the standard 2 bridges."], exact=False)
    with pytest.raises(Overstated):
        check(["Perfect play shows no edge for either player."], exact=False)
    said = "No difference between the two bots detected at this sample size: …"
    assert check([said], exact=False) == [said]


def test_an_exact_every_deal_is_allowed():
    assert check(["Every deal can be won."], exact=True) == ["Every deal can be won."]


def test_every_sampled_deal_is_worded_as_the_sample_and_an_exact_lower_bound():
    text = every(2000, 2000, exact=False, noun=DEALS, predicate=BRIDGES)
    assert text.startswith("Every one of the 2,000 sampled deals can be won")
    assert "at least 99.85% of deals can be won" in text
    assert check([text], exact=False) == [text]


def test_every_deal_only_when_every_deal_was_counted():
    assert every(10, 10, exact=True, noun=DEALS, predicate=BRIDGES) == (
        "Every deal can be won with the standard 2 bridges.")
    assert every(0, 10, exact=True, noun=DEALS, predicate=BRIDGES).startswith("No deal can")


def test_no_sampled_deal_is_worded_with_an_exact_upper_bound():
    text = every(0, 1000, exact=False, noun=DEALS, predicate="is lost")
    assert text.startswith("None of the 1,000 sampled deals is lost, so at most 0.30%")
    check([text], exact=False)


def test_some_sampled_deals_are_told_with_the_share_and_its_interval():
    text = every(12, 2000, exact=False, noun=DEALS, predicate="cannot be won")
    assert text.startswith("12 of 2,000 sampled deals cannot be won: 0.60% [")


def test_the_exact_lower_bound_of_all_successes_is_the_rule_of_three_roughly():
    assert at_least(2000, 2000) == pytest.approx(0.05 ** (1 / 2000))
    assert at_least(2000, 2000) == pytest.approx(1 - 3 / 2000, abs=1e-5)
    assert at_most(0, 2000) == pytest.approx(1 - at_least(2000, 2000))


def test_the_exact_lower_bound_matches_a_clopper_pearson_table_value():
    # 95 of 100: the one-sided 95% Clopper–Pearson lower bound is 0.8977 (to 4 places).
    assert at_least(95, 100) == pytest.approx(0.8977, abs=1e-4)
    assert at_least(0, 100) == 0.0


def test_an_interval_that_includes_zero_is_worded_as_not_detected():
    text = versus(Interval(-0.010, -0.063, 0.043), 0.0, 1000, exact=False, noun=DEALS,
                  subject="the first player's edge under perfect play", effect="edge",
                  unit=" points a round")
    assert text.startswith("No edge detected at this sample size: the first player's edge")
    assert "-0.010 [-0.063, +0.043] points a round over 1,000 sampled deals" in text
    assert text.endswith("an interval that includes 0.")
    check([text], exact=False)


def test_an_interval_that_excludes_zero_is_told_with_its_sample_size():
    text = versus(Interval(0.048, 0.021, 0.075), 0.0, 4000, exact=False, noun=DEALS,
                  subject="the first player's edge", effect="edge", unit=" points")
    assert text == ("The first player's edge is +0.048 [+0.021, +0.075] points over 4,000 "
                    "sampled deals, an interval that excludes 0.")


def test_a_rate_against_a_fair_share_is_not_detected_when_its_interval_holds_it():
    text = versus(Interval(0.533, 0.502, 0.564), 0.5, 1000, exact=False, noun=GAMES,
                  subject="the first player's win rate", effect="first-player edge",
                  percent=True)
    assert "53.3% [50.2%, 56.4%]" in text and "over 1,000 sampled games" in text
    assert text.endswith("excludes a fair 50%.")
    assert not text.startswith("No")
    fair = versus(Interval(0.51, 0.48, 0.54), 0.5, 1000, exact=False, noun=GAMES,
                  subject="the first player's win rate", effect="first-player edge",
                  percent=True)
    assert fair.startswith("No first-player edge detected at this sample size")


def test_a_rate_carries_its_interval_and_sample_size():
    assert rate(540, 1000) == "54.0% [50.9%, 57.1%] of 1,000"


def test_an_arena_cell_tells_its_interval_games_and_draws():
    cell = score_cell([1, 1, 0.5, 0, 1, 0.5, 1, 0])
    assert cell["games"] == 8 and cell["draws"] == 2
    found = mean_interval([1, 1, 0.5, 0, 1, 0.5, 1, 0])
    assert cell["estimate"] == pytest.approx(found.estimate)
    assert cell["text"] == "62% [32%, 93%] (8 games, 2 drawn)"


def test_until_reads_rates_in_percentage_points_and_means_in_their_unit():
    assert parse_width(["2%"]) == Width(rate=2.0)
    assert parse_width(["2%", "0.05"]) == Width(rate=2.0, mean=0.05)
    for bad in ("0%", "-1", "wide", "nan"):
        with pytest.raises(ValueError, match="--until"):
            parse_width([bad])


def test_until_measures_the_widest_interval_against_its_bound():
    width = Width(rate=2.0, mean=0.1)
    rates = [{"estimate": 0.5, "low": 0.49, "high": 0.51}]  # 2 points wide: done
    assert width.wide(rates, []) == pytest.approx(1.0)
    assert width.wide(rates, [{"estimate": 1, "low": 0.9, "high": 1.3}]) == pytest.approx(4.0)
