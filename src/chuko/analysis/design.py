"""`chuko design`: search packs for a target profile.

A profile is a set of measured figures, each with a target:

- `--caravan 1:25-40 2:75-90 3:97-100`: the percentage of Caravan deals winnable with each
  bridge limit;
- `--crossroads-edge 0±0.1`: the first player's mean perfect-play value of a Crossroads
  round, in points; `--crossroads-draws max`: the percentage of deals drawn under perfect play;
- `--chuko-first 2:50±3 4:25±3`: the first player's win percentage in Chükö, per number of
  players, with bots (`--chuko-bots`).

Packs are numbers from a range (`--cards 2-40`), 12 for the layout games, any size for Chükö
alone (`--size 8-20`). The search screens each candidate on a small sample, climbs from the
best ones by changing a card, then measures the best few again on a large sample and ranks
them by what that shows. It goes by generations of packs measured together, on local
processes (`--jobs`) or Ray (`--backend ray`, `--address`), through the study's runner.
Every measurement is seeded by the run's seed and the pack, so a run is reproducible
however it runs, and the measurements go to a checkpoint file: a run started again with the
same settings replays the search from it without measuring again.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from random import Random

from chuko.analysis.progress import progress_bar
from chuko.analysis.stats import Interval, mean_interval, proportion_interval
from chuko.analysis.study.command import positive
from chuko.bots import parse_levels
from chuko.console import console, numeral, print_table, say
from chuko.core.errors import ChukoError, ConfigError
from chuko.core.numbers import MAX_CARD
from chuko.core.packs import as_pack, pack_text
from chuko.core.protocol import Json
from chuko.core.text import Plural, Text

HELP = {"": "search packs for a target profile: a Caravan ladder, a fair Crossroads, a fair "
            "Chükö"}
LAYOUT_SIZE = 12
MAX_BRIDGES = 11
MAX_CHUKO_PLAYERS = 10

Pack = tuple[int, ...]


# -- targets --------------------------------------------------------------------------------

_NUMBER = r"-?\d+(?:\.\d+)?"
_RANGE = re.compile(rf"^({_NUMBER})-({_NUMBER})$")
_AROUND = re.compile(rf"^({_NUMBER})(?:±|\+-|\+/-)(\d+(?:\.\d+)?)$")
_EXACT = re.compile(rf"^({_NUMBER})$")


@dataclass(frozen=True)
class Spec:
    """What a figure should be: within [low, high], or as high or as low as possible."""

    low: float = -math.inf
    high: float = math.inf
    goal: str | None = None  # "max" or "min"

    def text(self) -> str:
        if self.goal:
            return self.goal
        return f"{self.low:g}–{self.high:g}"

    def miss(self, value: float, scale: float) -> float:
        """How far `value` lies outside the range, in units of the range's half width (at
        least `scale`), so narrow and wide targets weigh alike; 0 inside it."""
        gap = max(self.low - value, value - self.high, 0.0)
        return gap / max((self.high - self.low) / 2, scale) if math.isfinite(gap) else 0.0

    def gain(self, value: float) -> float:
        """Larger is better, for `max` and `min` goals; 0 for ranges."""
        return {"max": value, "min": -value}.get(self.goal or "", 0.0)


def parse_spec(text: str, what: str) -> Spec:
    """'25-40', '50±3' (or 50+-3), '100', 'max' or 'min'; ConfigError naming `what`."""
    word = text.strip().lower().replace(" ", "")
    if word in ("max", "min"):
        return Spec(goal=word)
    if span := _RANGE.match(word):
        low, high = float(span[1]), float(span[2])
        if low > high:
            raise ConfigError(Text("The target {target} for {what} runs backwards: write the "
                                   "low end first.", target=repr(text), what=what))
        return Spec(low, high)
    if around := _AROUND.match(word):
        centre, tolerance = float(around[1]), float(around[2])
        return Spec(centre - tolerance, centre + tolerance)
    if exact := _EXACT.match(word):
        return Spec(float(exact[1]), float(exact[1]))
    raise ConfigError(Text("{target} is not a target for {what}: write a range (25-40), a "
                           "value with a tolerance (50±3 or 50+-3), a value, max or min.",
                           target=repr(text), what=what))


@dataclass(frozen=True)
class Target:
    """One figure of the profile (`figure`, e.g. 'caravan:2') and what it should be."""

    figure: str
    label: str
    unit: str  # "%" or " points"
    spec: Spec

    @property
    def scale(self) -> float:
        # a percentage point, or a twentieth of a point, is the least width that counts
        return 1.0 if self.unit == "%" else 0.05


def _keyed(items: Sequence[str], flag: str, key_name: str, low: int, high: int,
           label: Callable[[int], str]) -> list[Target]:
    targets = []
    for item in items:
        key, colon, spec = item.partition(":")
        if not colon or not key.strip().isdigit() or not low <= int(key) <= high:
            raise ConfigError(Text("{item} is not a target for --{flag}: write {key}:TARGET "
                                   "with {key} from {low} to {high}, e.g. {example}.",
                                   item=repr(item), flag=flag, key=key_name, low=low,
                                   high=high, example=str(low + 1) + ":25-40"))
        number = int(key)
        targets.append(Target(f"{flag}:{number}", label(number), "%",
                              parse_spec(spec, f"--{flag} {number}")))
    return targets


def read_targets(args: argparse.Namespace) -> list[Target]:
    """The profile the options ask for; ConfigError with one sentence when a target is
    malformed, repeated or missing, or a percentage lies outside 0–100."""
    targets = _keyed(args.caravan or [], "caravan", "LIMIT", 0, MAX_BRIDGES,
                     lambda n: Plural("Caravan, {n} bridge", "Caravan, {n} bridges", n=n))
    targets += _keyed(args.chuko_first or [], "chuko-first", "PLAYERS", 2, MAX_CHUKO_PLAYERS,
                      lambda n: Text("Chükö first, {n} players", n=n))
    if args.crossroads_edge is not None:
        targets.append(Target("crossroads-edge", Text("Crossroads edge"), " points",
                              parse_spec(args.crossroads_edge, "--crossroads-edge")))
    if args.crossroads_draws is not None:
        targets.append(Target("crossroads-draws", Text("Crossroads draws"), "%",
                              parse_spec(args.crossroads_draws, "--crossroads-draws")))
    if not targets:
        raise ConfigError(Text("Name at least one target: --caravan, --crossroads-edge, "
                               "--crossroads-draws or --chuko-first."))
    seen: set[str] = set()
    for target in targets:
        if target.figure in seen:
            raise ConfigError(Text("The target {figure} is given twice.", figure=target.figure))
        seen.add(target.figure)
        spec = target.spec
        if target.unit == "%" and not spec.goal and not 0 <= spec.low <= spec.high <= 100:
            raise ConfigError(Text("The target for {figure} is a percentage: keep it within "
                                   "0–100.", figure=target.figure))
    return targets


# -- measuring ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Figure:
    """A measured figure: its estimate and 95% interval (percentages for rates), and how
    many deals or games it rests on."""

    interval: Interval
    n: int

    def to_json(self) -> Json:
        return {**self.interval.to_json(), "n": self.n}

    @classmethod
    def from_json(cls, data: Json) -> Figure:
        return cls(Interval(data["estimate"], data["low"], data["high"]), data["n"])


def _percent(successes: int, n: int) -> Interval:
    found = proportion_interval(successes, n)
    return Interval(100 * found.estimate, 100 * found.low, 100 * found.high)


def measure_caravan(pack: Pack, limits: Sequence[int], n: int, rng: Random) -> dict[str, Figure]:
    """Winnable percentage per bridge limit over `n` sampled deals, from the study's count
    of each deal's least limit (analysis/study/caravan.py)."""
    from chuko.analysis.study import caravan
    from chuko.analysis.study.deals import Pack as Layout

    weights = caravan.sampled(Layout(pack), n, rng.getrandbits(64), lambda k: None)["weights"]
    return {f"caravan:{limit}": Figure(_percent(sum(weights[:limit + 1]), n), n)
            for limit in limits}


def measure_crossroads(pack: Pack, n: int, rng: Random) -> dict[str, Figure]:
    """The first player's perfect-play value of a round (its mean: the edge, in points) and
    the percentage of drawn deals, over `n` sampled deals, from the study's count of values
    (analysis/study/crossroads.py)."""
    from chuko.analysis.study import crossroads
    from chuko.analysis.study.deals import Pack as Layout

    weights = crossroads.sampled(Layout(pack), n, rng.getrandbits(64), lambda k: None)["weights"]
    values = [bucket - crossroads.OFFSET for bucket, w in enumerate(weights) for _ in range(w)]
    return {"crossroads-edge": Figure(mean_interval(values), n),
            "crossroads-draws": Figure(_percent(weights[crossroads.OFFSET], n), n)}


def measure_chuko(pack: Pack, players: Sequence[int], n: int, rng: Random,
                  bots: str) -> dict[str, Figure]:
    """The first player's win percentage over `n` games per number of players, the bots of
    `bots` (a lineup, repeated to fill the seats) rotating through the seats, from the
    study's cell of bot games (analysis/study/play.py)."""
    from chuko.analysis.study.play import cell

    found = {}
    for count in players:
        options = {"pack": pack_text(pack), "players": count}
        first = cell("chuko", options, bots, n, rng.getrandbits(64))["first_player"]
        found[f"chuko-first:{count}"] = Figure(Interval(100 * first["estimate"],
                                                        100 * first["low"], 100 * first["high"]),
                                               n)
    return found


def _keys(targets: Sequence[Target], family: str) -> list[int]:
    return sorted(int(t.figure.partition(":")[2]) for t in targets
                  if t.figure.startswith(family + ":"))


def measure(pack: Pack, targets: Sequence[Target], n: int, seed: int,
            chuko_bots: str) -> dict[str, Figure]:
    """Every figure the targets name, each family from its own generator seeded by `seed`."""
    found: dict[str, Figure] = {}
    if limits := _keys(targets, "caravan"):
        found |= measure_caravan(pack, limits, n, Random(seed))
    if any(t.figure.startswith("crossroads") for t in targets):
        found |= measure_crossroads(pack, n, Random(seed + 1))
    if players := _keys(targets, "chuko-first"):
        found |= measure_chuko(pack, players, n, Random(seed + 2), chuko_bots)
    return {t.figure: found[t.figure] for t in targets}


# -- the search space -----------------------------------------------------------------------

@dataclass(frozen=True)
class Space:
    """Packs of `sizes` cards (a range, both ends included) drawn from `low`..`high`,
    with equal cards only when `repeats`."""

    low: int
    high: int
    sizes: tuple[int, int]
    repeats: bool = False

    def random_pack(self, rng: Random) -> Pack:
        size = rng.randint(*self.sizes)
        numbers = range(self.low, self.high + 1)
        cards = ([rng.choice(numbers) for _ in range(size)] if self.repeats
                 else rng.sample(numbers, size))
        return tuple(sorted(cards))

    def neighbour(self, pack: Pack, rng: Random) -> Pack:
        """`pack` with a card changed (now and then two or three, to leave a local best), or
        (when sizes allow) a card added or removed."""
        extra = 1 + (rng.random() < 0.3) if rng.random() < 0.3 else 0
        for _ in range(extra):
            pack = self._step(pack, rng)
        return self._step(pack, rng)

    def _step(self, pack: Pack, rng: Random) -> Pack:
        cards = list(pack)
        choice = rng.random()
        if choice < 0.2 and len(cards) > self.sizes[0]:
            cards.pop(rng.randrange(len(cards)))
            return tuple(sorted(cards))
        free = [c for c in range(self.low, self.high + 1) if self.repeats or c not in cards]
        if not free:
            return pack
        if choice < 0.4 and len(cards) < self.sizes[1]:
            cards.append(rng.choice(free))
        else:
            cards[rng.randrange(len(cards))] = rng.choice(free)
        return tuple(sorted(cards))

    def to_json(self) -> Json:
        return {"cards": [self.low, self.high], "sizes": list(self.sizes),
                "repeats": self.repeats}


def read_space(cards: str, size: str | None, repeats: bool, targets: Sequence[Target]) -> Space:
    """The search space from `--cards LOW-HIGH` and `--size N` or `N-M`; the layout games
    take exactly 12 cards, so with their targets the size is 12."""
    span = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", cards)
    if not span or not 1 <= int(span[1]) <= int(span[2]) <= MAX_CARD:
        raise ConfigError(Text("--cards {cards} is not a range of cards such as 2-40 (from 1 "
                               "to {most}).", cards=repr(cards), most=numeral(MAX_CARD)))
    low, high = int(span[1]), int(span[2])
    layout = any(not t.figure.startswith("chuko") for t in targets)
    if size is None:
        sizes = (LAYOUT_SIZE, LAYOUT_SIZE)
    else:
        found = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", size)
        if not found:
            raise ConfigError(Text("--size {size} is not a number of cards (12) or a range "
                                   "(8-20).", size=repr(size)))
        sizes = (int(found[1]), int(found[2] or found[1]))
    if layout and sizes != (LAYOUT_SIZE, LAYOUT_SIZE):
        raise ConfigError(Text("Caravan and Crossroads are dealt from exactly 12 cards, so "
                               "with their targets --size is 12."))
    if not 2 <= sizes[0] <= sizes[1] <= 1000:
        raise ConfigError(Text("--size is a number of cards from 2 to 1,000, the low end "
                               "first."))
    if not repeats and high - low + 1 < sizes[1]:
        raise ConfigError(Text("--cards {cards} holds {numbers} different numbers, fewer than "
                               "{size} cards: widen it or allow --repeats.",
                               cards=cards.strip(), numbers=high - low + 1, size=sizes[1]))
    return Space(low, high, sizes, repeats)


# -- the search -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Candidate:
    pack: Pack
    figures: dict[str, Figure]
    miss: float  # 0 when every range target is met by the estimates
    gain: float  # the max/min goals, larger is better

    @property
    def meets(self) -> bool:
        return self.miss == 0

    def rank(self) -> tuple[float, float]:
        return (round(self.miss, 9), -self.gain)

    def to_json(self, targets: Sequence[Target]) -> Json:
        return {
            "pack": list(self.pack),
            "pack_text": pack_text(self.pack),
            "meets": self.meets,
            "miss": self.miss,
            "figures": {t.figure: {**self.figures[t.figure].to_json(), "unit": t.unit.strip(),
                                   "target": t.spec.text(),
                                   "met": t.spec.miss(self.figures[t.figure].interval.estimate,
                                                      t.scale) == 0}
                        for t in targets},
        }


def judge(pack: Pack, figures: dict[str, Figure], targets: Sequence[Target]) -> Candidate:
    values = {t.figure: figures[t.figure].interval.estimate for t in targets}
    miss = sum(t.spec.miss(values[t.figure], t.scale) for t in targets)
    gain = sum(t.spec.gain(values[t.figure]) for t in targets)
    return Candidate(pack, figures, miss, gain)


def stable_seed(*parts: object) -> int:
    """A seed from the run's seed and a pack, the same in every process and run (Python's
    own hash of text changes between runs)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2


class Checkpoint:
    """Measurements by stage and pack, kept in a JSON file (written whole, then renamed, so
    an interruption never leaves half a file) for the same settings only."""

    def __init__(self, path: Path | None, settings: Json) -> None:
        self.path = path
        self.settings = settings
        self.measured: dict[str, dict[str, Json]] = {}
        self.written = time.monotonic()
        if path is not None and path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                raise ConfigError(f"The checkpoint {path} cannot be read; remove it or name "
                                  "another file.") from None
            if not isinstance(data, dict) or data.get("settings") != settings:
                raise ConfigError(f"The checkpoint {path} was written for another search; "
                                  "remove it or name another file.")
            self.measured = data["measured"]

    def get(self, key: str) -> dict[str, Figure] | None:
        found = self.measured.get(key)
        return None if found is None else {f: Figure.from_json(v) for f, v in found.items()}

    def put(self, key: str, figures: dict[str, Figure]) -> None:
        self.measured[key] = {f: v.to_json() for f, v in figures.items()}
        if time.monotonic() - self.written > 5:
            self.save()

    def save(self) -> None:
        if self.path is None:
            return
        part = self.path.with_name(self.path.name + ".part")
        try:
            part.write_text(json.dumps({"settings": self.settings, "measured": self.measured}),
                            encoding="utf-8")
            os.replace(part, self.path)
        except OSError as error:
            raise ChukoError(f"Cannot write the checkpoint {self.path}: {error.strerror}.") \
                from None
        self.written = time.monotonic()


@dataclass(frozen=True)
class PackWork:
    """Packs to measure, as the study's runner takes work (analysis/study/backends.py): shard
    i is pack i, and a part is {"measured": {key: figures as JSON, or {} when a game cannot
    be dealt from the pack}, "done": packs}. Each pack's generator is seeded from the run's
    seed and the pack, so where it is measured changes nothing."""

    packs: tuple[Pack, ...]
    stage: str
    n: int
    targets: tuple[Target, ...]
    seed: int
    chuko_bots: str

    def key(self) -> Json:
        return {"stage": self.stage, "packs": [list(p) for p in self.packs]}

    def selected(self) -> list[int]:
        return list(range(len(self.packs)))

    def total(self) -> int:
        return len(self.packs)

    def solve(self, shards: Sequence[int]) -> Json:
        measured: dict[str, Json] = {}
        for shard in shards:
            pack = self.packs[shard]
            try:
                figures = measure(pack, self.targets, self.n,
                                  stable_seed(self.seed, self.stage, pack), self.chuko_bots)
            except ConfigError:
                figures = {}
            measured[f"{self.stage}:{pack_text(pack)}"] = {f: v.to_json()
                                                           for f, v in figures.items()}
        return {"measured": measured, "done": len(shards)}

    def merge(self, a: Json, b: Json) -> Json:
        return {"measured": a["measured"] | b["measured"], "done": a["done"] + b["done"]}


@dataclass
class Search:
    """A pack search; `run()` gives the confirmed candidates, best first.

    The search goes by generations: the first screens `candidates // 5` random packs (and
    `start`), each later one `batch` packs, each a card or so away from one of the best ten
    so far. A generation's packs depend only on earlier generations, so they are measured
    together, on `jobs` local processes or on Ray, and the result is the same however they
    run."""

    targets: list[Target]
    space: Space
    seed: int
    candidates: int = 200
    screen: int = 1000
    confirm: int = 20_000
    top: int = 5
    start: Pack | None = None
    chuko_bots: str = "easy"
    checkpoint: Path | None = None
    batch: int = 20
    jobs: int = 1
    backend: str = "local"
    address: str | None = None
    screened: int = 0
    refused: int = 0  # packs a game cannot be dealt from (too few cards for the players)
    pool: tuple[Candidate, ...] = ()  # every screened pack a game could be dealt from

    def settings(self) -> Json:
        return {"targets": [[t.figure, t.spec.low, t.spec.high, t.spec.goal]
                            for t in self.targets],
                "space": self.space.to_json(), "seed": self.seed,
                "candidates": self.candidates, "screen": self.screen, "confirm": self.confirm,
                "top": self.top, "start": list(self.start) if self.start else None,
                "chuko_bots": self.chuko_bots, "batch": self.batch}

    def _measure(self, store: Checkpoint, stage: str, packs: list[Pack], n: int,
                 advance: Callable[[int], None]) -> dict[Pack, Candidate | None]:
        """Each pack judged on `n` deals or games; what the checkpoint holds is not measured
        again. None for a pack a game cannot be dealt from."""
        from chuko.analysis.study import backends

        missing = tuple(p for p in packs if store.get(f"{stage}:{pack_text(p)}") is None)
        advance(len(packs) - len(missing))
        if missing:
            work = PackWork(missing, stage, n, tuple(self.targets), self.seed, self.chuko_bots)
            found = backends.run(work, jobs=self.jobs, backend=self.backend,
                                 address=self.address, advance=advance)
            for key, figures in found["measured"].items():
                store.put(key, {f: Figure.from_json(v) for f, v in figures.items()})
        judged: dict[Pack, Candidate | None] = {}
        for pack in packs:
            figures = store.get(f"{stage}:{pack_text(pack)}")
            judged[pack] = judge(pack, figures, self.targets) if figures else None
        return judged

    def _propose(self, count: int, explore: bool, screened: dict[Pack, Candidate | None],
                 rng: Random) -> list[Pack]:
        best = sorted((c for c in screened.values() if c), key=Candidate.rank)[:max(self.top,
                                                                                     10)]
        packs: list[Pack] = []
        for _ in range(count):
            if self.start and not screened and not packs:
                pack = self.start
            elif explore or not best:
                pack = self.space.random_pack(rng)
            else:
                pack = self.space.neighbour(rng.choice(best).pack, rng)
            for _ in range(20):  # a few tries for a pack not seen yet
                if pack not in screened and pack not in packs:
                    break
                pack = self.space.neighbour(pack, rng)
            if pack not in screened and pack not in packs:
                packs.append(pack)
        return packs

    @contextmanager
    def _session(self) -> Iterator[None]:
        """Ray started once for the whole search (the runner reuses it), not per generation."""
        if self.backend != "ray":
            yield
            return
        try:
            import ray
        except ImportError:
            raise ConfigError("--backend ray needs Ray: pip install 'chuko[lab]'.") from None
        started = not ray.is_initialized()
        if started:
            ray.init(address=self.address, num_cpus=None if self.address else self.jobs,
                     include_dashboard=False, log_to_driver=False, configure_logging=False)
        try:
            yield
        finally:
            if started:
                ray.shutdown()

    def run(self, advance: Callable[[int], None] = lambda n: None) -> list[Candidate]:
        store = Checkpoint(self.checkpoint, self.settings())
        with self._session():
            return self._search(store, advance)

    def _search(self, store: Checkpoint, advance: Callable[[int], None]) -> list[Candidate]:
        rng = Random(self.seed)
        screened: dict[Pack, Candidate | None] = {}
        proposed = 0
        try:
            while proposed < self.candidates:
                first = proposed == 0
                count = min(max(self.top, self.candidates // 5) if first else self.batch,
                            self.candidates - proposed)
                packs = self._propose(count, first, screened, rng)
                advance(count - len(packs))  # proposals already screened
                proposed += count
                screened |= self._measure(store, "screen", packs, self.screen, advance)
            self.screened = len(screened)
            self.refused = sum(c is None for c in screened.values())
            self.pool = tuple(c for c in screened.values() if c)
            best = sorted((c for c in screened.values() if c), key=Candidate.rank)[:self.top]
            advance(self.top - len(best))
            confirmed = self._measure(store, "confirm", [c.pack for c in best], self.confirm,
                                      advance)
        finally:
            store.save()
        return sorted((c for c in confirmed.values() if c), key=Candidate.rank)


# -- how close a search came ---------------------------------------------------------------

def _admitted(target: Target, spec: Spec, pool: Sequence[Candidate],
              targets: Sequence[Target]) -> int:
    """How many packs of `pool` meet every target, `target` read as `spec`."""
    def met(c: Candidate, t: Target) -> bool:
        value = c.figures[t.figure].interval.estimate
        return (spec if t is target else t.spec).miss(value, t.scale) == 0
    return sum(all(met(c, t) for t in targets) for c in pool)


def _relaxed(target: Target, pool: Sequence[Candidate],
             targets: Sequence[Target]) -> tuple[Spec, int] | None:
    """The least widening of `target` (both ends, by whole percentage points or twentieths
    of a point) that admits a screened pack meeting every other target, and how many it
    admits; None when no pack meets the others."""
    spec = target.spec
    gaps = []
    for c in pool:
        if all(t is target or t.spec.miss(c.figures[t.figure].interval.estimate, t.scale) == 0
               for t in targets):
            value = c.figures[target.figure].interval.estimate
            gaps.append(max(spec.low - value, value - spec.high, 0.0))
    if not gaps:
        return None
    wider = _widened(target, min(gaps))
    return wider, _admitted(target, wider, pool, targets)


def _widened(target: Target, gap: float) -> Spec:
    """`target`'s range widened at both ends by `gap`, rounded up to whole percentage
    points or twentieths of a point, a percentage kept within 0–100."""
    step = target.scale
    widen = max(step, math.ceil(round(gap / step, 9)) * step)
    low, high = target.spec.low - widen, target.spec.high + widen
    if target.unit == "%":
        low, high = max(0.0, low), min(100.0, high)
    return Spec(round(low, 6), round(high, 6))


def _spec_words(spec: Spec, unit: str, was: Spec) -> str:
    """'46–54% (50 ± 4%)': a range, with its centre and tolerance where it is still centred
    where `was` was."""
    centre, half = (spec.low + spec.high) / 2, (spec.high - spec.low) / 2
    around = (f" ({round(centre, 6):g} ± {round(half, 6):g}{unit})"
              if math.isclose(centre, (was.low + was.high) / 2) else "")
    return f"{spec.low:g}–{spec.high:g}{unit}{around}"


def closeness(targets: Sequence[Target], pool: Sequence[Candidate]) -> list[Json]:
    """For a search where no pack met every target: each range target's measure among the
    screened packs (lowest and highest estimate), how many screened packs met it, and the
    least relaxation of it alone that admits a pack meeting the others."""
    found = []
    for target in targets:
        if target.spec.goal:
            continue
        values = [c.figures[target.figure].interval.estimate for c in pool]
        relaxed = _relaxed(target, pool, targets)
        found.append({
            "figure": target.figure, "label": target.label, "unit": target.unit.strip(),
            "target": target.spec.text(), "low": min(values, default=None),
            "high": max(values, default=None),
            "met": sum(target.spec.miss(v, target.scale) == 0 for v in values),
            "relax_to": None if relaxed is None else [relaxed[0].low, relaxed[0].high],
            "admits": 0 if relaxed is None else relaxed[1]})
    return found


def closeness_words(targets: Sequence[Target], pool: Sequence[Candidate],
                    screen: int) -> list[str]:
    """`closeness` in sentences, ending with the target to relax first: the one whose least
    relaxation, in units of its own width, is smallest."""
    units = {t.figure: t.unit for t in targets}
    lines, best = [], None
    for near in closeness(targets, pool):
        unit = units[near["figure"]]
        if near["low"] is None:
            continue
        digits = 1 if unit == "%" else 3
        spread = (f"{near['label']}: ranged {near['low']:.{digits}f}{unit}–"
                  f"{near['high']:.{digits}f}{unit} "
                  f"over {len(pool):,} screened packs ({screen:,} deals or games each), "
                  f"{near['met']:,} within the target {near['target']}{unit}")
        if near["relax_to"] is None:
            lines.append(f"{spread}; relaxing it alone admits no pack, as none meets the "
                         "other targets.")
            continue
        wider = Spec(*near["relax_to"])
        target = next(t for t in targets if t.figure == near["figure"])
        lines.append(f"{spread}; relaxing it to {_spec_words(wider, unit, target.spec)} "
                     f"would admit {near['admits']:,} "
                     f"pack{'s' if near['admits'] != 1 else ''}.")
        cost = ((wider.high - wider.low) - (target.spec.high - target.spec.low)) / max(
            target.spec.high - target.spec.low, 2 * target.scale)
        if best is None or cost < best[0]:
            best = (cost, near["label"])
    if best is not None and len(lines) > 1:
        lines.append(f"The target to relax first: {best[1]}.")
    elif best is None and pool:
        lines.append(_together(targets, min(pool, key=Candidate.rank)))
    return lines


def _together(targets: Sequence[Target], closest: Candidate) -> str:
    """What relaxing several targets at once would take to admit the closest screened pack
    (the least total miss), when relaxing any one alone admits none."""
    parts = []
    for target in targets:
        spec, value = target.spec, closest.figures[target.figure].interval.estimate
        gap = max(spec.low - value, value - spec.high, 0.0)
        if target.spec.goal or gap == 0:
            continue
        parts.append(f"{target.label} to "
                     f"{_spec_words(_widened(target, gap), target.unit, spec)}")
    return (f"Relaxing {', and '.join(parts)} together would admit the closest screened "
            f"pack, {pack_text(closest.pack)}.")


# -- the command ----------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser, _game_id: str) -> None:
    parser.description = (
        "Search packs for a target profile: screen many packs on small samples, climb from "
        "the best by changing a card, and measure the best few again on large samples. "
        "A target is a range (25-40), a value with a tolerance (50±3 or 50+-3), max or min; "
        "percentages for rates.")
    parser.epilog = ("example: chuko design --caravan 1:25-40 2:75-90 3:97-100 --cards 2-40 "
                     "--seed 1")
    parser.add_argument("--caravan", nargs="+", metavar="LIMIT:TARGET",
                        help="Caravan: %% of deals winnable with LIMIT bridges")
    parser.add_argument("--crossroads-edge", metavar="TARGET",
                        help="Crossroads: the first player's mean perfect-play value, points")
    parser.add_argument("--crossroads-draws", metavar="TARGET",
                        help="Crossroads: %% of deals drawn under perfect play")
    parser.add_argument("--chuko-first", nargs="+", metavar="PLAYERS:TARGET",
                        help="Chükö: %% of games the first player wins, by number of players")
    parser.add_argument("--chuko-bots", default="easy", metavar="LEVELS",
                        help="Chükö bots, a lineup repeated to fill the seats (default easy)")
    parser.add_argument("--cards", default="2-30", metavar="LOW-HIGH",
                        help="the numbers a pack is drawn from (default 2-30)")
    parser.add_argument("--size", metavar="N",
                        help="cards per pack, or a range such as 8-20 for Chükö alone "
                             "(default 12)")
    parser.add_argument("--repeats", action="store_true", help="allow equal cards in a pack")
    parser.add_argument("--start", metavar="PACK",
                        help="a pack to start from (a name, a list or a range)")
    parser.add_argument("--candidates", type=positive, default=200, metavar="N",
                        help="packs to screen (default 200)")
    parser.add_argument("--screen", type=positive, default=1000, metavar="N",
                        help="deals or games per pack when screening (default 1000)")
    parser.add_argument("--confirm", type=positive, default=20_000, metavar="N",
                        help="deals or games per pack when confirming (default 20000)")
    parser.add_argument("--top", type=positive, default=5, metavar="K",
                        help="packs to confirm and report (default 5)")
    parser.add_argument("--batch", type=positive, default=20, metavar="N",
                        help="packs per generation after the first, measured together "
                             "(default 20)")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="seed of the search (default 0)")
    parser.add_argument("--jobs", type=positive, default=1, metavar="N",
                        help="processes (or Ray workers) measuring packs (default 1)")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="local processes (default) or Ray")
    parser.add_argument("--address", metavar="HOST:PORT",
                        help="a Ray cluster to use with --backend ray (default: local Ray)")
    parser.add_argument("--checkpoint", metavar="FILE",
                        help="keep measurements here; run again with the same settings to "
                             "resume")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def search_from(args: argparse.Namespace) -> Search:
    """The search the command line asks for; ConfigError in one sentence otherwise."""
    targets = read_targets(args)
    space = read_space(args.cards, args.size, args.repeats, targets)
    if any(t.figure.startswith("chuko") for t in targets):
        parse_levels(args.chuko_bots, "chuko", 2, "--chuko-bots")
    start = None
    if args.start:
        start = tuple(sorted(as_pack(args.start)))
        if not space.sizes[0] <= len(start) <= space.sizes[1]:
            raise ConfigError(f"The starting pack has {len(start)} cards, outside --size.")
    if args.address and args.backend != "ray":
        raise ConfigError("--address names a Ray cluster: use it with --backend ray.")
    return Search(targets, space, args.seed, args.candidates, args.screen, args.confirm,
                  args.top, start, args.chuko_bots,
                  Path(args.checkpoint) if args.checkpoint else None, args.batch, args.jobs,
                  args.backend, args.address)


def print_result(search: Search, found: list[Candidate], seconds: float) -> None:
    met = sum(c.meets for c in found)
    screened = dict(screened=numeral(search.screened), screen=numeral(search.screen),
                    best=len(found), confirm=numeral(search.confirm),
                    seconds=f"{seconds:.0f}", seed=search.seed, met=met)
    console.print(say(
        Text("Screened {screened} packs ({refused} could not be dealt for every target) on "
             "{screen} deals or games each, confirmed the best {best} on {confirm} ({seconds} "
             "s, seed {seed}); {met} meet every target.", refused=numeral(search.refused),
             **screened) if search.refused else
        Text("Screened {screened} packs on {screen} deals or games each, confirmed the best "
             "{best} on {confirm} ({seconds} s, seed {seed}); {met} meet every target.",
             **screened)))
    columns = [say(Text("Pack")),
               *(f"{say(target.label)}\n{target.spec.text()}{target.unit}"
                 for target in search.targets), say(Text("Meets"))]
    rows = []
    for candidate in found:
        cells = []
        for target in search.targets:
            interval = candidate.figures[target.figure].interval
            ok = target.spec.miss(interval.estimate, target.scale) == 0
            digits = 1 if target.unit == "%" else 2
            cells.append(f"[{'green' if ok else 'red'}]{interval.estimate:.{digits}f} "
                         f"[{interval.low:.{digits}f}, {interval.high:.{digits}f}][/]")
        # spaces after the commas, so a long pack wraps between cards, not inside one
        rows.append([pack_text(candidate.pack).replace(",", ", "), *cells,
                     say(Text("yes") if candidate.meets else Text("no"))])
    print_table("", columns, rows, right=range(1, len(columns) - 1))
    console.print(say(Text("Figures are estimates with 95% intervals (Wilson for rates); a "
                           "target is met when the estimate lies within it.")))
    loose = [say(target.label) for candidate in found if candidate.meets
             for target in search.targets if not target.spec.goal and not (
                 target.spec.low <= candidate.figures[target.figure].interval.low
                 and candidate.figures[target.figure].interval.high <= target.spec.high)]
    if loose:
        console.print(say(Text("A pack that meets a target by its estimate may still miss it: "
                               "the interval reaches outside the target for {targets}; a larger "
                               "--confirm narrows it.", targets=", ".join(dict.fromkeys(loose)))))
    if not met:
        console.print(say(Text("No pack met every target. How close the screened packs came:")))
        for line in closeness_words(search.targets, search.pool, search.screen):
            console.print(f"• {say(line)}")


def run(args: argparse.Namespace) -> int:
    search = search_from(args)
    started = time.perf_counter()
    with progress_bar(search.candidates + search.top, "Designing packs") as advance:
        found = search.run(advance)
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({"targets": [{"figure": t.figure, "label": t.label,
                                       "unit": t.unit.strip(), "target": t.spec.text()}
                                      for t in search.targets],
                          "space": search.space.to_json(), "seed": search.seed,
                          "screened": search.screened, "refused": search.refused,
                          "screen": search.screen, "confirm": search.confirm,
                          "seconds": round(seconds, 1),
                          "best": [c.to_json(search.targets) for c in found],
                          "closeness": (None if any(c.meets for c in found) else
                                        closeness(search.targets, search.pool))}))
    else:
        print_result(search, found, seconds)
    return 0
