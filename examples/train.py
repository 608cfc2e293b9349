"""Train a masked PPO policy (numpy only) by one of the recipes, with its learning curve.

    python examples/train.py caravan --seed 0 --minutes 15 --out runs/
    python examples/train.py chuko --seed 0 --minutes 15 --out runs/
    python examples/train.py chuko-self-play --seed 0 --minutes 15 --out runs/
    python examples/train.py crossroads-self-play --seed 0 --minutes 15 --out runs/

Each line of progress is an evaluation of the policy as it stands (200 games against each
level the recipe is measured against); at the end the saved policy plays 1,000 held-out
deals per level, whose win rates and intervals are printed and kept in `<out>/<recipe>.json`
beside the policy (`.npz`) and the curve (`.svg`). docs/training.md has the recipes and the
figures. Needs the `rl` extra (and `lab` for the plot).
"""

from __future__ import annotations

import os

# numpy's BLAS would start a thread per core for these tiny matrices and spin them; one
# thread is several times faster here, and leaves the other cores to other work.
for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(name, "1")

from chuko.train.run import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
