"""A descriptor's study names options of its own game, with values they take: a slip is
refused where the game is declared, not halfway through a study."""

import pytest

from chuko.core.descriptor import Descriptor, Integrations, Option, Study, Traits, Varied
from chuko.core.errors import ConfigError

STONES = Option("stones", "Stones", "int", 15, min=1, max=99)


def declare(*varies: Varied) -> Descriptor:
    return Descriptor("toy", "Toy", "a toy", Traits(2, 2), options=(STONES,),
                      integrations=Integrations(study=Study(varies=varies)))


def test_a_study_may_vary_its_games_options():
    assert declare(Varied("stones", (5, 10))).integrations.study.varies[0].values == (5, 10)


@pytest.mark.parametrize("varied", [Varied("pack", ("standard",)), Varied("stones", ())])
def test_a_study_varying_no_option_of_the_game_or_no_value_is_refused(varied):
    with pytest.raises(ValueError, match=repr(varied.option)):
        declare(varied)


def test_a_study_trying_a_value_its_option_refuses_is_refused():
    with pytest.raises(ConfigError, match="Stones must be a whole number from 1 to 99"):
        declare(Varied("stones", (5, 100)))
