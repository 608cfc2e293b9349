"""`make bench`: run every bench/bench_*.py (or those named: `python -m bench caravan`)."""

import sys
from importlib import import_module
from pathlib import Path

names = sorted(p.stem for p in Path(__file__).parent.glob("bench_*.py"))
wanted = sys.argv[1:]
for name in names:
    if wanted and not any(w in name for w in wanted):
        continue
    print(f"\n== {name} ==", flush=True)
    import_module(f"bench.{name}").main()
