"""`make bench`: run every bench/bench_*.py (or those named: `python -m bench caravan`).
Options after the names go to the named benchmarks' `main(argv)`
(`python -m bench server --quick`). `ONLY_NAMED` run only when named
(`python -m bench soak --minutes 10`)."""

import sys
from importlib import import_module
from pathlib import Path

ONLY_NAMED = {"soak": "bench.soak"}
names = sorted(p.stem for p in Path(__file__).parent.glob("bench_*.py"))
args = sys.argv[1:]
first_option = next((i for i, a in enumerate(args) if a.startswith("-")), len(args))
wanted, options = args[:first_option], args[first_option:]
modules = [f"bench.{n}" for n in names if not wanted or any(w in n for w in wanted)]
modules += [module for name, module in ONLY_NAMED.items() if name in wanted]
for module in modules:
    print(f"\n== {module.removeprefix('bench.')} ==", flush=True)
    main = import_module(module).main
    main(options) if options else main()
