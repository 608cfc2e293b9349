import io
import os

import pytest
from hypothesis import settings

from chuko.cli import main as cli

settings.register_profile("ci", max_examples=60, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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
