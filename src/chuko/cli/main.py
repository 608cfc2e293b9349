"""The `chuko` command: `chuko <verb> <game> [options]`.

Each (verb, game) pair is served by a reference "module:run" to `run(args) -> int`, whose
module has `add_arguments(parser, game_id)` (and optionally `HELP`, game id →
description). The verbs a game serves come from its descriptor's `commands`; a verb it
leaves out falls back to a generic front end where one exists. This file names no game:
it builds the parser from the registry, imports only the module of the pair asked for,
and dispatches. Errors the project raises on purpose become one line on standard error and
exit status 2, and so does a module of an optional extra that is not installed (the
package's own metadata says which extra).

The terminal speaks the language of `--lang CODE` (before the verb), else the locale's
(LC_ALL, LC_MESSAGES, LANG), else English: every sentence it shows is a Text said through
`chuko.console.say`. Machine output (`--json`) and argparse's help stay as they are.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
from collections.abc import Callable
from importlib import import_module
from importlib.metadata import PackageNotFoundError, requires
from types import ModuleType

import chuko
from chuko.console import locale_language, refusal, say, speaking, spoken
from chuko.core import references
from chuko.core.descriptor import Descriptor
from chuko.core.errors import ChukoError
from chuko.core.text import Text
from chuko.games import descriptors
from chuko.i18n import LANGUAGES

# The command is named after the package (a game shares the name, so it is not spelt out).
PROG = chuko.__name__
MENU = "chuko.tui.menu"
# verb → (command, which games it serves): the front end for games that name none of their own
GENERIC: dict[str, tuple[str, Callable[[Descriptor], bool]]] = {
    "play": ("chuko.tui.generic:run", lambda described: described.traits.lists_moves),
    "simulate": ("chuko.analysis.simulate:run", lambda described: True),
    "rules": ("chuko.cli.rules:run", lambda described: True),
    "arena": ("chuko.analysis.arena:run", lambda described: True),
    "export": ("chuko.cli.export:run", lambda described: True),
    "study": ("chuko.analysis.study.command:run", lambda described: True),
    "learn": ("chuko.cli.learn:run",
              lambda described: described.integrations.lessons is not None),
}
NO_GAME = {"serve": "chuko.cli.serve:run", "design": "chuko.analysis.design:run",
           "accounts": "chuko.cli.accounts:run", "puzzle": "chuko.cli.puzzle:run",
           "daily": "chuko.cli.daily:run"}  # take no game

VERB_HELP = {
    "play": "play a game in the terminal (with no game named: a menu)",
    "rules": "show a game's rules",
    "learn": "learn a game step by step",
    "solve": "solve positions exactly",
    "simulate": "play many bot games and report win rates",
    "advise": "suggest the best move for a hand",
    "serve": "start the browser app",
    "accounts": "list or delete the browser app's accounts",
    "arena": "rate bots and any agent against each other, or play a fixed ladder",
    "design": "search packs for a target profile",
    "export": "write bot games (or solved positions) as data: JSON lines or Parquet",
    "daily": "play the day's Caravan deal, the same for everyone",
    "study": "facts about a game: exact where feasible, else sampled; tables, JSON, plots",
    "puzzle": "solve a Crossroads puzzle: find the one move that keeps your best result",
}
LANG_FLAG = "--lang"
# Distributions whose module has another name.
IMPORT_NAMES = {"open_spiel": "pyspiel"}


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit status 2) instead of a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse's own message stays English, as its help does
        say_error(Text("{problem}. Try --help.", problem=message[0].upper() + message[1:]))
        self.exit(2)


def say_error(sentence: str) -> None:
    """`chuko: SENTENCE` on standard error, the sentence in the terminal's language: one
    line for programs, and on a terminal, lines broken between words at its width (the
    terminal itself would break inside a word)."""
    line = f"{PROG}: {say(sentence)}"
    if sys.stderr.isatty():
        try:
            width = os.get_terminal_size(sys.stderr.fileno()).columns
        except OSError:
            width = 80
        line = textwrap.fill(line, width=max(width, 20), break_long_words=False,
                             break_on_hyphens=False)
    print(line, file=sys.stderr)


def commands() -> dict[str, dict[str, str]]:
    """verb → {game id → command} over every registered game, the verbs this file knows
    first; a verb that takes no game maps "" to its command."""
    found: dict[str, dict[str, str]] = {verb: {} for verb in VERB_HELP}
    for described in descriptors():
        own = described.integrations.commands
        for verb, command in own.items():
            found.setdefault(verb, {})[described.id] = command
        for verb, (command, serves) in GENERIC.items():
            if verb not in own and serves(described):
                found[verb][described.id] = command
    for verb, command in NO_GAME.items():
        found[verb] = {"": command}
    return {verb: games for verb, games in found.items() if games}


def missing_extras(error: ModuleNotFoundError) -> list[str]:
    """The extras of this package that bring the module `error` could not import, read from
    the installed package's requirements; none when no extra does (then it is a bug)."""
    wanted = (error.name or "").partition(".")[0]
    try:
        required = requires(PROG) or []
    except PackageNotFoundError:
        return []
    extras = []
    for requirement in required:
        found = re.match(r"([A-Za-z0-9._-]+).*;.*extra == \"([^\"]+)\"", requirement)
        if found:
            module = re.sub(r"[-.]", "_", found[1]).lower()
            if IMPORT_NAMES.get(module, module) == wanted:
                extras.append(found[2])
    return extras


def _missing(error: ModuleNotFoundError, verb: str) -> int:
    """One sentence naming the extra to install, status 2; re-raised if no extra brings the
    module."""
    extras = missing_extras(error)
    if not extras:
        raise error
    command, install = f"{PROG} {verb}", f"pip install '{PROG}[{extras[0]}]'"
    say_error(Text("`{command}` needs {module}, which comes with the {extras} extra: "
                   "{install}.", command=command, module=error.name,
                   extras=" or ".join(extras), install=install))
    return 2


def _describe(module: ModuleType, key: str, fallback: str) -> str:
    helps = getattr(module, "HELP", {})
    return str(helps.get(key) or fallback)


def _serve(parser: argparse.ArgumentParser, command: str, game: str, line: str) -> None:
    """Give `parser` the command's arguments, description and handler (its module
    imported)."""
    module_name, entry = references.split(command)
    module = import_module(module_name)
    parser.description = _describe(module, game, line)
    module.add_arguments(parser, game)
    parser.set_defaults(handler=getattr(module, entry))


def _games_epilog() -> str:
    width = max(len(d.id) for d in descriptors())
    lines = [f"  {d.id:<{width}}  {d.title} — {d.summary}" for d in descriptors()]
    return ("games:\n" + "\n".join(lines) + "\n\nRun `chuko play` for a menu of the games, "
            "`chuko rules GAME` for a game's rules.")


def build_parser(argv: list[str], table: dict[str, dict[str, str]]) -> argparse.ArgumentParser:
    """The parser; only the module of the (verb, game) named in argv is imported, so one
    game's front end never slows or breaks another's."""
    parser = _Parser(
        prog=PROG,
        description="Play and study card games in the terminal, the browser and by simulation.",
        epilog=_games_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(LANG_FLAG, metavar="CODE", help=(
        "the language of what the terminal says, before the verb: one of "
        f"{', '.join(LANGUAGES)} (default: the locale's, else en)"))
    described_by = {d.id: d for d in descriptors()}
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    for verb, games in table.items():
        said = VERB_HELP.get(verb, f"the {verb} command")
        verb_parser = verbs.add_parser(verb, help=said, description=said[0].upper() + said[1:])
        if "" in games:
            if argv[:1] == [verb]:
                _serve(verb_parser, games[""], "", said)
            continue
        per_game = verb_parser.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
        for game, command in games.items():
            described = described_by[game]
            line = f"{described.title} — {described.summary}"
            game_parser = per_game.add_parser(game, help=line)
            if argv[:2] == [verb, game]:
                _serve(game_parser, command, game, line)
    return parser


def language(argv: list[str]) -> tuple[str | None, list[str]]:
    """The code of a leading `--lang CODE` (or `--lang=CODE`), in small letters, and the
    arguments after it; None when there is none."""
    if argv[:1] == [LANG_FLAG]:
        return (argv[1].lower() if len(argv) > 1 else ""), argv[2:]
    if argv and argv[0].startswith(LANG_FLAG + "="):
        return argv[0].partition("=")[2].lower(), argv[1:]
    return None, argv


def _normalise(argv: list[str], table: dict[str, dict[str, str]]) -> list[str]:
    """Accept `chuko <game> <verb>` as well as `chuko <verb> <game>`."""
    if len(argv) >= 2 and argv[1] in table and argv[0] not in table:
        return [argv[1], argv[0], *argv[2:]]
    return argv


def main(argv: list[str] | None = None) -> int:
    code, argv = language(list(sys.argv[1:] if argv is None else argv))
    if code is not None and code not in LANGUAGES:
        with speaking(spoken() or locale_language()):
            say_error(Text("There is no language {code}: --lang takes one of {codes}.",
                           code=repr(code), codes=", ".join(LANGUAGES)))
        return 2
    with speaking(code or spoken() or locale_language()):
        try:
            return _run(argv)
        except KeyboardInterrupt as stopped:  # Ctrl-C, even while the command's modules load
            print(file=sys.stderr)  # off the line where the terminal echoed ^C
            if str(stopped):  # a Stopped that says what was kept
                say_error(refusal(stopped))
            return 130


def _run(argv: list[str]) -> int:
    table = commands()
    argv = _normalise(argv, table)
    try:
        parser = build_parser(argv, table)  # imports the module of the command asked for
    except ModuleNotFoundError as error:
        return _missing(error, argv[0])
    args = parser.parse_args(argv)
    try:
        if args.verb is None:
            parser.print_help()
            return 0
        if getattr(args, "handler", None) is None:
            games = table[args.verb]
            if args.verb == "play":
                menu: Callable[..., int] = import_module(MENU).run_menu
                return menu(list(games), lambda game: main(["play", game]))
            say_error(Text("The {verb} command needs a game: one of {games}. Try --help.",
                           verb=args.verb, games=", ".join(games)))
            return 2
        handler: Callable[[argparse.Namespace], int] = args.handler
        return handler(args)
    except ChukoError as error:
        say_error(refusal(error))
        return 2
    except ModuleNotFoundError as error:
        return _missing(error, args.verb)
    except BrokenPipeError:
        # The reader went away (`chuko export ... | head`): stop quietly, and point stdout at
        # nothing so the interpreter's last flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
