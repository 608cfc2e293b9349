"""A command run in a pseudo-terminal of a given size, as a person runs it in a terminal
window: what it writes (escape codes removed) is read as it comes, keys are typed into it,
and Ctrl-C reaches it as a real SIGINT from the terminal. Standard input is the terminal
too, so a program sees a person at the keyboard (a pager pages, prompts echo)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

from chuko.cli.lifetime import end_with_parent

ROOT = Path(__file__).resolve().parents[1]
CHUKO = [sys.executable, "-c", "import sys; from chuko.cli.main import main; sys.exit(main())"]
# CSI and OSC sequences, and the few of two or three characters
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]"
                      r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>()][0-9A-B]?")
WAIT = 60.0  # seconds before a session that never shows what is awaited fails


def plain(raw: str) -> str:
    """Terminal output as text: escape codes gone, each line ended by a bare newline."""
    text = _ESCAPES.sub("", raw)
    return re.sub(r"\r+\n", "\n", text).replace("\r", "\n")


class Terminal:
    """`argv` in a pseudo-terminal `columns` wide and `rows` high, with `env` added."""

    def __init__(self, argv: list[str], *, columns: int = 80, rows: int = 24,
                 env: dict[str, str] | None = None, cwd: Path = ROOT) -> None:
        # This checkout's chuko first, whichever is installed
        path = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
        environment = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns),
                       "LINES": str(rows), "PYTHONPATH": path, **(env or {})}
        parent = os.getpid()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the terminal's size is set before anything runs
            end_with_parent(parent)  # a test killed outright takes its terminal with it
            # The program starts as a shell starts it, whatever the test process left set:
            # Ctrl-C and the other keys' signals at their defaults, none of them held back.
            for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP):
                signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, ())
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
            os.chdir(cwd)
            os.execvpe(argv[0], argv, environment)
        self.raw = ""
        self.status: int | None = None

    def _read(self, timeout: float) -> bool:
        """Read what is there within `timeout`; False once the terminal is closed."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # every writer has gone
            return False
        self.raw += data.decode("utf-8", "replace")
        return bool(data)

    @property
    def text(self) -> str:
        return plain(self.raw)

    def expect(self, pattern: str, *, after: int = 0) -> int:
        """Read until `pattern` (a regular expression) shows in the text from `after` on;
        where it ends. Fails the test if it never shows."""
        deadline = time.monotonic() + WAIT
        while True:
            found = re.compile(pattern).search(self.text, after)
            if found:
                return found.end()
            if time.monotonic() > deadline or not self._read(0.1):
                raise AssertionError(f"{pattern!r} never showed; the screen:\n{self.text}")

    def type(self, line: str) -> None:
        """A line typed and Enter pressed."""
        os.write(self.fd, line.encode() + b"\r")

    def interrupt(self) -> None:
        """Ctrl-C at the keyboard: the terminal sends SIGINT to every process of the job."""
        os.write(self.fd, b"\x03")

    def wait(self) -> int:
        """Read to the end; the exit status (130 for a SIGINT that killed it)."""
        deadline = time.monotonic() + WAIT
        while self._read(0.1):
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                break
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        self.status = os.waitstatus_to_exitcode(status)
        if self.status < 0:
            self.status = 128 - self.status
        return self.status


def chuko(*args: str, **options) -> Terminal:
    """`chuko ARGS` in a terminal."""
    return Terminal([*CHUKO, *args], **options)
