"""The daily Caravan's deal: fixed by the date, never repeated within a year, its par the
exact solver's, and its facts and share line consistent with the engine."""

import datetime

import pytest

from chuko.core.errors import ConfigError
from chuko.games.caravan import Caravan
from chuko.practice.daily import (
    ARRANGEMENTS,
    deal_for,
    facts_for,
    permuted,
    playable,
    read_day,
    share_line,
    standard_form,
)
from chuko.solvers.caravan import CaravanSolver

FIRST = datetime.date(2026, 1, 1)


def test_a_year_of_days_has_the_solvers_pars_and_no_deal_twice():
    days = [deal_for(FIRST + datetime.timedelta(days=n)) for n in range(365)]
    # Rows are interchangeable: a deal is its set of rows.
    assert len({frozenset((d.layout[:4], d.layout[4:8], d.layout[8:])) for d in days}) == 365
    for daily in days:
        assert sorted(daily.layout) == sorted(Caravan().pack)
        assert daily.par in (0, 1) and standard_form(daily.layout)
        assert CaravanSolver(daily.layout, daily.par).fresh()
        assert daily.par == 0 or not CaravanSolver(daily.layout, daily.par - 1).fresh()


def test_the_same_date_gives_the_same_deal_after_the_cache_is_cleared():
    day = datetime.date(2026, 12, 2)
    before = deal_for(day)
    deal_for.cache_clear()
    assert deal_for(day) == before and deal_for(day + datetime.timedelta(days=1)) != before


def test_the_last_date_still_has_its_deal():
    assert deal_for(datetime.date.max).par in (0, 1)


@pytest.mark.slow  # seconds: in make test, not make test-fast
def test_the_permutation_is_one_to_one_on_a_sample():
    sample = range(0, 200_000)
    images = {permuted(i) for i in sample}
    assert len(images) == len(sample) and all(0 <= v < ARRANGEMENTS for v in images)


def test_the_facts_line_wins_with_the_par_and_the_count_is_the_solvers():
    day = datetime.date(2026, 12, 2)
    daily, facts = deal_for(day), facts_for(day)
    state = daily.start()
    for move in facts.line:
        state.play(0, move)
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert state.bridges_used <= daily.par
    options = CaravanSolver(daily.layout, daily.par).options(daily.start())
    assert (facts.winning_starts, facts.starts) == (sum(options.values()), len(options))


def test_the_share_line_says_the_result_against_par_and_the_time():
    day = datetime.date(2026, 12, 2)
    assert share_line(day, True, 1, 1, 192) == (
        "chuko daily Caravan 2026-12-02: won with 1 bridge (par 1) in 3:12")
    assert share_line(day, False, 2, 0, 59).endswith(": not won (par 0) in 0:59")


def test_bad_and_future_dates_are_refused_in_one_sentence():
    with pytest.raises(ConfigError, match="YYYY-MM-DD"):
        read_day("2026-13-40")
    with pytest.raises(ConfigError, match="not out yet"):
        playable(datetime.date(9999, 1, 1))
    with pytest.raises(ConfigError, match="starts on 2026-01-01"):
        playable(datetime.date(2025, 12, 31))
