"""The advisor's win table is regenerated reproducibly from a seed."""

from chuko.analysis.chuchula_table import build


def test_the_same_seed_builds_the_same_table_and_another_seed_another():
    first, again, other = build(150, 0, seed=1), build(150, 0, seed=1), build(150, 0, seed=2)
    assert first.below == again.below and first.below != other.below
    for row in first.below:
        assert row[0] == 0.0 and all(a <= b for a, b in zip(row, row[1:], strict=False))


def test_a_refinement_regroups_hands_with_the_advisor():
    assert build(60, 1, seed=3).description.startswith("advisor players (refinement 1)")
