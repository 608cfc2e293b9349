"""chuko study: distinct deals and their weights, exact Caravan and Crossroads figures
against the plain per-deal solvers over the same deals, checkpoints and resume, the
sampled figures' intervals, the command's JSON and its refusals."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from math import factorial

import pytest

pytest.importorskip("numba", reason="the study's exact solving needs the fast extra")

from chuko.analysis.study import backends, caravan, crossroads  # noqa: E402
from chuko.analysis.study.deals import ALL_DEALS  # noqa: E402
from chuko.analysis.study.layout import read_pack  # noqa: E402
from chuko.cli.main import main  # noqa: E402
from chuko.solvers.caravan import CaravanSolver  # noqa: E402
from chuko.solvers.crossroads import CrossroadsSolver  # noqa: E402

# Many equal cards: 1,980 arrangements, 356 distinct deals, least limits 0 and 1.
EQUAL = "2,2,2,2,2,2,2,2,3,3,3,6"


def arrangements(cards: tuple[int, ...]):
    """Every distinct order of a multiset of cards."""
    counts = Counter(cards)

    def place(prefix: list[int]):
        if len(prefix) == len(cards):
            yield tuple(prefix)
            return
        for card in sorted(counts):
            if counts[card]:
                counts[card] -= 1
                yield from place([*prefix, card])
                counts[card] += 1

    yield from place([])


def least_limit(layout: tuple[int, ...]) -> int:
    """The plain per-deal solver's answer: the first limit under which the deal wins."""
    return next((b for b in range(12) if CaravanSolver(layout, b).fresh()), caravan.NEVER)


def canonical(pack, layout: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """A layout's class rows, rows in order: the distinct deal it is."""
    classes = [pack.cards_of_class(card) for card in layout]
    return tuple(sorted(tuple(classes[r * 4:(r + 1) * 4]) for r in range(3)))


def test_weights_of_every_pack_add_up_to_all_deals():
    for text in ("plain", EQUAL):
        pack = read_pack(text)
        orders = sum(int(pack.deals(s)[1].sum()) for s in range(len(pack.shards)))
        assert orders == factorial(12) // pack.deal_weight  # class sequences
        assert pack.weight(orders) == ALL_DEALS == factorial(12) // 6


def test_distinct_deals_are_the_arrangements_up_to_row_order_and_equal_cards():
    pack = read_pack(EQUAL)
    seen = Counter(canonical(pack, layout) for layout in arrangements(pack.cards))
    enumerated = {}
    for shard in range(len(pack.shards)):
        deals, orders = pack.deals(shard)
        for deal, count in zip(deals, orders, strict=True):
            rows = tuple(tuple(int(c) for c in deal[r * 4:(r + 1) * 4]) for r in range(3))
            enumerated[rows] = int(count)
    assert enumerated == dict(seen)  # each distinct deal once, with its number of orders


def test_exact_caravan_on_a_pack_of_equal_cards_matches_the_per_deal_solver():
    pack = read_pack(EQUAL)
    result = backends.run(caravan.exact_work(pack))
    layouts = list(arrangements(pack.cards))
    by_solver = Counter(least_limit(layout) for layout in layouts)
    for limit in range(caravan.SIZE):
        assert Fraction(result["weights"][limit], ALL_DEALS) == Fraction(by_solver[limit],
                                                                           len(layouts))
    assert result["weights"][0] and result["weights"][1]  # the test sees two limits
    assert sum(result["distinct"]) == len({canonical(pack, lay) for lay in layouts})


@pytest.mark.slow  # seconds: in make test, not make test-fast
def test_exact_caravan_on_a_shard_of_standard_matches_the_per_deal_solver():
    pack = read_pack("standard")
    shard = 5275  # 360 distinct deals
    deals, orders = pack.deals(shard)
    first = tuple(int(c) for c in pack.shards[shard])
    # the shard holds exactly the deals whose smallest row is `first`: brute force over the
    # other eight cards' arrangements
    rest = list(pack.cards)
    for card in pack.cards_of(list(first)):
        rest.remove(card)
    brute = {canonical(pack, pack.cards_of(list(first)) + tail)
             for tail in itertools.permutations(rest)}
    brute = {rows for rows in brute if rows[0] == first}
    assert {tuple(tuple(int(c) for c in d[r * 4:(r + 1) * 4]) for r in range(3))
            for d in deals} == brute
    result = backends.run(caravan.exact_work(pack, shard=(shard, len(pack.shards))))
    expected = Counter()
    for deal, count in zip(deals, orders, strict=True):
        expected[least_limit(pack.cards_of(deal))] += pack.weight(int(count))
    assert {b: w for b, w in enumerate(result["weights"]) if w} == dict(expected)


def test_exact_crossroads_on_a_shard_matches_the_per_deal_solver():
    pack = read_pack("standard")
    shard = 5275
    result = backends.run(crossroads.exact_work(pack, shard=(shard, len(pack.shards))))
    deals, orders = pack.deals(shard)
    expected = Counter()
    for deal, count in zip(deals, orders, strict=True):
        value = CrossroadsSolver(pack.cards_of(deal)).fresh_value()
        expected[value + crossroads.OFFSET] += pack.weight(int(count))
    assert {b: w for b, w in enumerate(result["weights"]) if w} == dict(expected)


def test_an_interrupted_run_resumes_to_the_same_result(tmp_path):
    work = caravan.exact_work(read_pack(EQUAL))
    whole = backends.run(work)
    path = tmp_path / "checkpoint.json"
    calls = 0

    def interrupt(n: int) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        backends.run(work, checkpoint=path, advance=interrupt)
    saved = json.loads(path.read_text())
    assert 0 < len(saved["done"]) < len(work.selected())
    resumed = backends.run(work, checkpoint=path)
    assert resumed == whole
    assert json.loads(path.read_text())["done"] == sorted(work.selected())


def test_a_checkpoint_of_another_study_is_refused(tmp_path):
    pack = read_pack(EQUAL)
    path = tmp_path / "checkpoint.json"
    backends.run(caravan.exact_work(pack), checkpoint=path)
    with pytest.raises(ValueError, match="another study"):
        backends.run(crossroads.exact_work(pack), checkpoint=path)


@pytest.mark.slow
def test_two_processes_give_what_one_gives():
    pack = read_pack(EQUAL)
    work = caravan.exact_work(pack)
    assert backends.run(work, jobs=2) == backends.run(work, jobs=1)


def test_sampled_caravan_is_seeded_and_carries_wilson_intervals(capsys):
    assert main(["study", "caravan", "--pack", "plain", "--sample", "400", "--seed", "7",
                 "--json"]) == 0
    study = json.loads(capsys.readouterr().out)
    assert main(["study", "caravan", "--pack", "plain", "--sample", "400", "--seed", "7",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == study
    data = study["data"]
    assert (data["exact"], data["deals"], data["seed"]) == (False, 400, 7)
    assert [w["limit"] for w in data["winnable"]] == [0, 1, 2, 3]
    for figure in data["winnable"]:
        share = figure["share"]
        assert share["low"] <= share["estimate"] <= share["high"]
        assert share["estimate"] == figure["deals"] / 400
    assert "Wilson" in study["method"]
    assert study["plots"][0]["series"][0]["low"]  # the plot carries the intervals


def test_exact_caravan_json_says_exact_and_lists_examples(capsys, tmp_path):
    assert main(["study", "caravan", "--pack", EQUAL, "--exact", "--jobs", "1",
                 "--checkpoint", str(tmp_path / "c.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["data"]
    assert data["exact"] and data["deals"] == ALL_DEALS and data["distinct"] == 356
    least = {entry["limit"]: entry for entry in data["least"]}
    assert least[0]["share"] == {"estimate": least[0]["deals"] / ALL_DEALS, "exact": True}
    for limit in (0, 1):
        for text in least[limit]["examples"]:
            layout = tuple(int(c) for c in text.replace("/", " ").split())
            assert least_limit(layout) == limit


def test_crossroads_sample_reports_edge_and_draws(capsys):
    assert main(["study", "crossroads", "--sample", "60", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["data"]
    shares = [data[k]["estimate"] for k in ("first_wins", "draws", "second_wins")]
    assert sum(shares) == pytest.approx(1)
    assert data["edge"]["low"] <= data["edge"]["estimate"] <= data["edge"]["high"]
    assert sum(d["deals"] for d in data["distribution"]) == 60


def test_chuko_study_covers_the_grid_with_intervals(capsys):
    assert main(["study", "chuko", "--pack", "standard", "--pack", "plain", "--players", "2,3",
                 "--games", "30", "--seed", "1", "--json"]) == 0
    study = json.loads(capsys.readouterr().out)
    cells = study["data"]["cells"]
    assert [(c["options"], c["players"]) for c in cells] == [
        ({"pack": pack, "players": n}, n) for pack in ("standard", "plain") for n in (2, 3)]
    assert study["tables"][0]["columns"][:3] == ["Pack", "Players", "Bots"]
    for c in cells:
        first = c["first_player"]
        assert first["low"] <= first["estimate"] <= first["high"]
        assert c["moves"]["estimate"] > 0 and "reset" in c["per_game"]
    assert {p["title"] for p in study["plots"]} >= {
        "First player's win rate against the number of players", "First player's win rate by pack"}


def test_chuchula_group_types_are_exact_over_all_groups(capsys):
    assert main(["study", "chuchula", "--rounds", "10", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["data"]
    counts = {t["type"]: t["groups"] for t in data["group_types"]}
    assert sum(counts.values()) == 22_100
    assert counts["trial"] == 52 and counts["double sequence"] == 48
    assert set(data["points"]) == {"hard", "easy"}


@pytest.mark.parametrize("argv", [
    ["study", "caravan", "--exact", "--shard", "5/3"],
    ["study", "caravan", "--sample", "0"],
    ["study", "caravan", "--exact", "--sample", "5"],
    ["study", "caravan", "--exact", "--rows-prefix", "99"],
    ["study", "caravan", "--shard", "1/2"],
    ["study", "caravan", "--pack", "2-9"],
    ["study", "caravan", "--sample", "5", "--report", "out.txt"],
    ["study", "crossroads", "--exact", "--jobs", "0"],
    ["study", "chuko", "--players", "two"],
    ["study", "chuchula", "--players", "9"],
])
def test_bad_options_exit_2_with_one_sentence(argv, capsys):
    with pytest.raises(SystemExit) as stopped:
        code = main(argv)
        raise SystemExit(code)
    assert stopped.value.code == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("chuko: ") and "\n" not in error and "Traceback" not in error
