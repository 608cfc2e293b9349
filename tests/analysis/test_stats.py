"""Confidence intervals: Wilson for proportions, normal approximation for means."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chuko.analysis.stats import mean_interval, proportion_interval


def test_wilson_interval_matches_a_worked_value():
    # 81 successes in 263 trials: Wilson 95% interval 0.2553 to 0.3662 (to 4 places).
    interval = proportion_interval(81, 263)
    assert interval.estimate == pytest.approx(81 / 263)
    assert interval.low == pytest.approx(0.2553, abs=1e-4)
    assert interval.high == pytest.approx(0.3662, abs=1e-4)


@given(st.integers(1, 5000), st.data())
def test_wilson_interval_stays_in_bounds_and_holds_the_estimate(n, data):
    k = data.draw(st.integers(0, n))
    interval = proportion_interval(k, n)
    assert 0 <= interval.low <= interval.estimate <= interval.high <= 1


def test_extreme_proportions_and_no_trials():
    assert proportion_interval(0, 10).low == 0 and proportion_interval(0, 10).high > 0
    assert proportion_interval(10, 10).high == 1 and proportion_interval(10, 10).low < 1
    assert math.isnan(proportion_interval(0, 0).estimate)
    with pytest.raises(ValueError):
        proportion_interval(5, 3)
    with pytest.raises(ValueError):
        proportion_interval(1, 3, confidence=1.5)


def test_mean_interval_is_mean_plus_minus_z_times_standard_error():
    interval = mean_interval([1, 2, 3, 4, 5])
    half = 1.959964 * math.sqrt(2.5) / math.sqrt(5)
    assert interval.estimate == 3
    assert interval.low == pytest.approx(3 - half) and interval.high == pytest.approx(3 + half)
    assert mean_interval([7]).low == -math.inf
    with pytest.raises(ValueError):
        mean_interval([])


def test_a_wider_confidence_gives_a_wider_interval():
    narrow, wide = proportion_interval(30, 100, 0.9), proportion_interval(30, 100, 0.99)
    assert wide.low < narrow.low < narrow.high < wide.high
    assert str(proportion_interval(1, 2)) == "0.500 [0.095, 0.905]"
    assert proportion_interval(1, 2).percent() == "50.0% [9.5%, 90.5%]"


def test_json_gives_null_for_an_undefined_figure_since_json_has_no_nan_or_infinity():
    assert proportion_interval(0, 0).to_json() == {"estimate": None, "low": 0.0, "high": 1.0}
    assert mean_interval([7]).to_json() == {"estimate": 7, "low": None, "high": None}
    assert proportion_interval(1, 2).to_json()["low"] == pytest.approx(0.0945, abs=1e-4)
