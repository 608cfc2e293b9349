import io
import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# A toy fifth game, packaged as a separate project with its entry point (tests/plugins), is
# installed for the whole test session and for every process the tests start: the suite
# shows that a game from another package appears everywhere without naming it anywhere.
PLUGINS = str(Path(__file__).parent / "plugins")
sys.path.insert(0, PLUGINS)
# The benchmarks' tools (a PostgreSQL server of one's own, say) serve the tests too.
sys.path.insert(1, str(Path(__file__).parents[1]))
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (PLUGINS, os.environ.get("PYTHONPATH")) if p
)

from chuko.cli import main as cli  # noqa: E402

# Derandomised: every run tries the same examples, so the suite passes or fails the same way.
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# The long differential runs (a compiled twin against its engine over a million random
# actions) play a seeded tenth of their actions by default; whole with --full or this set to 1.
FULL_DIFFERENTIAL = "CHUKO_FULL_DIFFERENTIAL"
SAMPLED_SHARE = 10


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true",
                     help="run the long differential tests whole rather than a seeded tenth "
                          f"(also {FULL_DIFFERENTIAL}=1)")


@pytest.fixture(scope="session")
def differential_actions(pytestconfig):
    """`differential_actions(whole)`: how many of a long differential run's `whole` random
    actions to play: all of them with --full (or CHUKO_FULL_DIFFERENTIAL=1), else a tenth."""
    full = pytestconfig.getoption("--full") or os.environ.get(FULL_DIFFERENTIAL) == "1"
    return lambda whole: whole if full else whole // SAMPLED_SHARE


@pytest.fixture
def run_chuko(monkeypatch, capsys):
    """Run `chuko ARGS` in-process with the given standard input; (status, stdout, stderr)."""

    def run(*argv, stdin=""):
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        try:
            status = cli.main(list(argv))
        except SystemExit as exit_:  # argparse's own errors
            status = exit_.code
        out = capsys.readouterr()
        return status, out.out, out.err

    return run


def pytest_collection_modifyitems(items):
    """Every browser test is an e2e test (make test-fast leaves them out), and they run last.

    Last, because a worker's browser (`tests/web/conftest.py`, for the session) keeps
    playwright's event loop set as the running loop of the main thread: a test after it on
    the same worker could not `asyncio.run`. xdist hands each worker its tests in this
    order, so once a worker starts a browser test it runs no other kind."""
    for item in items:
        if "tests/web/" in item.nodeid or item.nodeid.startswith("web/"):
            item.add_marker(pytest.mark.e2e)
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
