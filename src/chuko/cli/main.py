"""The `chuko` command: `chuko <verb> <game> [options]`.

Each (verb, game) pair is served by a module with `add_arguments(parser)` and
`run(args) -> int`; this file only builds the parser and dispatches. Errors the
project raises on purpose become one line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from chuko.core.errors import ChukoError
from chuko.games import game_module

COMMANDS: dict[str, dict[str, str]] = {
    "play": {
        "chuko": "chuko.tui.chuko",
        "crossroads": "chuko.tui.crossroads",
        "caravan": "chuko.tui.caravan",
        "chuchula": "chuko.tui.chuchula",
    },
    "solve": {
        "crossroads": "chuko.cli.solve",
        "caravan": "chuko.cli.solve",
    },
    "simulate": {
        "chuko": "chuko.analysis.simulate",
        "chuchula": "chuko.analysis.simulate_chuchula",
    },
    "advise": {
        "chuchula": "chuko.cli.advise",
    },
    "serve": {
        "": "chuko.cli.serve",  # "": the verb takes no game
    },
}

VERB_HELP = {
    "play": "play a game in the terminal",
    "solve": "solve layout deals exactly",
    "simulate": "play many bot games and report win rates",
    "advise": "suggest the best grouping of a hand",
    "serve": "start the browser app",
}


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit status 2) instead of a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"chuko: {message[0].upper() + message[1:]}. Try --help.\n")


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    """The parser; only the module of the (verb, game) named in argv is imported, so one
    game's front end never slows or breaks another's."""
    parser = _Parser(
        prog="chuko",
        description="Play and study the Chükö card games and Chuchula.",
        epilog="Run `chuko play` for a menu of the games.",
    )
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    for verb, games in COMMANDS.items():
        verb_parser = verbs.add_parser(verb, help=VERB_HELP[verb])
        if "" in games:
            if argv[:1] == [verb]:
                module = import_module(games[""])
                verb_parser.description = module.HELP[""]
                module.add_arguments(verb_parser, "")
                verb_parser.set_defaults(handler=module.run)
            continue
        per_game = verb_parser.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
        for game, module_name in games.items():
            rules = game_module(game).Game
            game_parser = per_game.add_parser(game, help=f"{rules.title} — {rules.summary}")
            if argv[:2] == [verb, game]:
                module = import_module(module_name)
                game_parser.description = module.HELP[game]
                module.add_arguments(game_parser, game)
                game_parser.set_defaults(handler=module.run)
    return parser


def _normalise(argv: list[str]) -> list[str]:
    """Accept `chuko <game> <verb>` as well as `chuko <verb> <game>`."""
    if len(argv) >= 2 and argv[1] in COMMANDS and argv[0] not in COMMANDS:
        return [argv[1], argv[0], *argv[2:]]
    return argv


def main(argv: list[str] | None = None) -> int:
    argv = _normalise(list(sys.argv[1:] if argv is None else argv))
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        if args.verb is None:
            parser.print_help()
            return 0
        if getattr(args, "handler", None) is None:
            if args.verb == "play":
                from chuko.tui.menu import run_menu

                return run_menu()
            parser.error(f"{args.verb} needs a game: one of {', '.join(COMMANDS[args.verb])}")
        return args.handler(args)
    except ChukoError as error:
        print(f"chuko: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
