"""The conformance suite (`chuko.testing`) on every game in the registry, whichever package
it comes from (the plug-ins in tests/plugins included): the same checks a plug-in's own
tests run on its game."""

import pytest

from chuko.core.conformance import broke
from chuko.games import game_ids
from chuko.testing import conformance_tests
from chuko.testing.play import check_views, configurations

TestConformance = conformance_tests(*game_ids())


@pytest.mark.parametrize(("changed", "rule"), [
    (lambda view: {}, "full views keep the view's shape"),
    (lambda view: {**view, "left": view["left"] + 1}, "hidden values are null"),
])
def test_a_game_that_breaks_a_rule_fails_with_the_rules_name_and_sentence(changed, rule):
    state = configurations("takeaway")[0].new(seed=1)
    state.full_view = lambda seat: changed(state.view(seat))
    with pytest.raises(AssertionError) as failure:
        check_views(state)
    assert str(failure.value).startswith(broke(rule))
