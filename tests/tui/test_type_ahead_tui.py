"""Keys typed while a hint is worked out are dropped, not played afterwards: a real terminal
(a pseudo-terminal) gets `hint` and, before the hint is shown, a move; the move is never
played and the prompt asks again. Piped input, a script, keeps every line."""

from __future__ import annotations

import os
import re
import select
import sys
from pathlib import Path

import pytest
from bench.children import popen

SRC = Path(__file__).resolve().parents[2] / "src"
ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")
PROMPT = "Your move (number, notation, hint, help):"
DEADLINE = 120  # seconds a step may take at most (the first hint may compile the kernels)

pty = pytest.importorskip("pty")


class Terminal:
    """`chuko ARGS` on a pseudo-terminal: what it printed so far, and keys to type."""

    def __init__(self, *argv: str) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "100", "TERM": "xterm"}
        self.process = popen(
            [sys.executable, "-c", "from chuko.cli.main import main; raise SystemExit(main())",
             *argv], stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.text = ""

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def wait_for(self, needle: str, count: int = 1) -> str:
        """Read until `needle` has been printed `count` times; all the text so far."""
        while self.text.count(needle) < count:
            ready, _, _ = select.select([self.master], [], [], DEADLINE)
            assert ready, f"waited for {needle!r}; the terminal shows:\n{self.text}"
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the program ended
                chunk = b""
            assert chunk, f"ended before {needle!r}:\n{self.text}"
            self.text += ANSI.sub("", chunk.decode(errors="replace")).replace("\r", "")
        return self.text

    def close(self) -> int:
        try:
            return self.process.wait(timeout=DEADLINE)
        finally:
            os.close(self.master)


@pytest.mark.slow  # seconds: in make test, not make test-fast
def test_a_move_typed_while_the_hint_is_worked_out_is_dropped():
    terminal = Terminal("play", "caravan", "--seed", "1")
    try:
        terminal.wait_for(PROMPT)
        # "hint", then a move typed before the hint is shown: both lines are in the
        # terminal's input at once, the move after the hint was asked for.
        terminal.type("hint\n1\n")
        terminal.wait_for(PROMPT, 2)
        terminal.type("quit\n")
        text = terminal.wait_for("Goodbye.")
    finally:
        status = terminal.close()
    assert status == 0
    after_hint = text.split(PROMPT)[2]
    assert "You laid" not in text, text
    assert after_hint.strip().startswith("quit"), after_hint


def test_piped_input_keeps_every_line_after_a_hint(run_chuko):
    status, out, _ = run_chuko("play", "caravan", "--seed", "1", stdin="hint\n1\nquit\n")
    assert status == 0
    assert "  You laid " in out
