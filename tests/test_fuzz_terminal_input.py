"""Bad input never crashes: random lines at every game's prompt and random option values
get a sentence (or are taken as a move), never a traceback."""

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chuko.games import descriptors

LINES = st.lists(
    st.one_of(
        st.text(max_size=12),
        st.sampled_from(["", " ", "0", "-1", "99", "r", "AL*", "BR", "15", "As Ks Qs", "hint",
                         "undo", "help", "take", "y", "n", "²", "∞", "a" * 200]),
    ),
    max_size=8,
)
GAMES = {
    "crossroads": ["--seed", "1", "--vs", "random"],
    "caravan": ["--seed", "1"],
    "chuko": ["--seed", "1", "--players", "2", "--vs", "random"],
    "chuchula": ["--seed", "1", "--players", "2", "--vs", "random", "--length", "1"],
}
# Every other registered game is played by the generic terminal player, with its options.
GENERIC = [d for d in descriptors() if d.id not in GAMES and "play" not in d.integrations.commands
           and d.traits.lists_moves]
GAMES.update({d.id: ["--seed", "1", "--vs", d.levels[0]] for d in GENERIC})
# CHUKO_FUZZ=500 runs a longer search than the suite's default.
FUZZ = settings(max_examples=int(os.environ.get("CHUKO_FUZZ", "25")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(game=st.sampled_from(sorted(GAMES)), lines=LINES)
def test_random_lines_at_the_prompt_never_crash(run_chuko, game, lines):
    script = "".join(line.replace("\n", " ").replace("\r", " ") + "\n" for line in lines)
    status, out, err = run_chuko("play", game, *GAMES[game], stdin=script + "quit\n")
    assert status == 0, err
    assert "Traceback" not in out + err


OPTION_VALUES = st.one_of(st.text(max_size=10), st.sampled_from(["0", "-3", "1-1", "2-1000000",
                                                                 "1,1", "x", "²", "99999999999"]))


@FUZZ
@given(
    argv=st.sampled_from([
        ["play", "crossroads", "--pack"], ["play", "caravan", "--bridges"],
        ["play", "caravan", "--deal"], ["play", "chuko", "--players"],
        ["play", "chuko", "--pack"], ["play", "chuchula", "--mode"],
        ["solve", "crossroads", "--deal"], ["solve", "caravan", "--bridges"],
        ["advise", "chuchula", "--hand"], ["simulate", "chuko", "--bots"],
        *(["play", d.id, "--" + o.name.replace("_", "-")] for d in GENERIC for o in d.options),
    ]),
    value=OPTION_VALUES,
)
def test_random_option_values_exit_with_status_2_or_run(run_chuko, argv, value):
    status, out, err = run_chuko(*argv, value, stdin="quit\n")
    assert status in (0, 2)
    assert "Traceback" not in out + err
    if status == 2:
        assert err.startswith("chuko:") and err.count("\n") == 1
