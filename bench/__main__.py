"""`make bench`: run every bench/bench_*.py, or those named (`python -m bench layout`). A name
picks the bench of exactly that name, or else every bench whose name holds it. Options after
the names go to the named benches (`python -m bench server --quick`): each bench module has
`parser()`, its options, and `main(argv)`. `ONLY_NAMED` run only when named
(`python -m bench soak --minutes 10`)."""

from __future__ import annotations

import sys
from importlib import import_module
from pathlib import Path

ONLY_NAMED = {"soak": "bench.soak", "rated_kill": "bench.rated_kill",
              "tournament_kill": "bench.tournament_kill"}
NAMES = sorted(p.stem.removeprefix("bench_") for p in Path(__file__).parent.glob("bench_*.py"))


class UnknownBench(ValueError):
    """A name that no bench has or holds."""


def plan(argv: list[str]) -> list[tuple[str, list[str]]]:
    """The (module, options) each bench named in `argv` runs with; every bench but the
    `ONLY_NAMED` when none is named."""
    first_option = next((i for i, a in enumerate(argv) if a.startswith("-")), len(argv))
    wanted, options = argv[:first_option], argv[first_option:]
    if not wanted:
        return [(f"bench.bench_{name}", options) for name in NAMES]
    modules: list[str] = []
    for word in wanted:
        if word in ONLY_NAMED:
            found = [ONLY_NAMED[word]]
        else:
            names = [word] if word in NAMES else [name for name in NAMES if word in name]
            found = [f"bench.bench_{name}" for name in names]
        if not found:
            raise UnknownBench(f"No bench is named {word!r}: the benches are "
                               f"{', '.join([*NAMES, *ONLY_NAMED])}.")
        modules += [module for module in found if module not in modules]
    return [(module, options) for module in modules]


def main(argv: list[str]) -> int:
    try:
        planned = plan(argv)
    except UnknownBench as error:
        print(f"python -m bench: {error}", file=sys.stderr)
        return 2
    for module, options in planned:
        print(f"\n== {module.removeprefix('bench.').removeprefix('bench_')} ==", flush=True)
        import_module(module).main(options)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
