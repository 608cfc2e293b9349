"""`chuko design`, the pack designer: targets read in one sentence or refused, measured
figures that agree with the per-deal solvers, and a search that is seeded and resumes from
its checkpoint without measuring again."""

import json
from dataclasses import astuple
from random import Random

import pytest

from chuko.analysis import design
from chuko.analysis.design import Search, Space, Spec, Target, judge, parse_spec
from chuko.analysis.stats import mean_interval, proportion_interval
from chuko.core.errors import ConfigError
from chuko.core.packs import PACKS
from chuko.solvers.caravan import CaravanSolver
from chuko.solvers.crossroads import solve_layout

LADDER = ("--caravan", "1:25-40", "2:75-90", "3:97-100")


@pytest.mark.parametrize(("text", "spec"), [
    ("25-40", Spec(25, 40)),
    ("50±3", Spec(47, 53)),
    ("50+-3", Spec(47, 53)),
    ("-0.2-0.2", Spec(-0.2, 0.2)),
    ("0±0.1", Spec(-0.1, 0.1)),
    ("100", Spec(100, 100)),
    ("MAX", Spec(goal="max")),
    ("min", Spec(goal="min")),
])
def test_a_target_is_a_range_a_value_with_a_tolerance_a_value_or_a_goal(text, spec):
    assert parse_spec(text, "x") == spec


@pytest.mark.parametrize("argv", [
    ("--caravan", "1:25-4x"),
    ("--caravan", "12:50"),
    ("--caravan", "25-40"),
    ("--caravan", "1:40-25"),
    ("--caravan", "1:90-120"),
    ("--caravan", "1:20", "1:30"),
    ("--chuko-first", "1:50"),
    ("--crossroads-edge", "zero"),
    (),
    (*LADDER, "--size", "13"),
    ("--chuko-first", "2:50", "--size", "8-x"),
    ("--chuko-first", "2:50", "--cards", "2-5", "--size", "10"),
    ("--chuko-first", "2:50", "--chuko-bots", "clever"),
    (*LADDER, "--cards", "40-2"),
    (*LADDER, "--start", "2-30"),
])
def test_a_bad_target_or_space_is_one_sentence_and_status_2(run_chuko, argv):
    status, out, err = run_chuko("design", *argv)
    assert status == 2 and out == ""
    assert err.startswith("chuko: ") and err.count("\n") == 1 and err.rstrip().endswith(".")


def overlap(a, b):
    return a.low <= b.high and b.low <= a.high


def test_caravan_winnable_shares_agree_with_the_per_deal_solver_on_other_deals():
    pack = PACKS["composite"]
    found = design.measure_caravan(pack, [0, 1], 300, Random(1))
    rng, cards, wins = Random(9), list(pack), [0, 0]
    for _ in range(300):
        rng.shuffle(cards)
        for limit in (0, 1):
            wins[limit] += CaravanSolver(tuple(cards), limit).fresh()
    for limit in (0, 1):
        solver = design.Interval(*(100 * x for x in astuple(proportion_interval(wins[limit],
                                                                                300))[:3]))
        assert overlap(found[f"caravan:{limit}"].interval, solver)


def test_caravan_winnable_shares_rise_with_the_limit_and_standard_is_always_won_with_two():
    found = design.measure_caravan(PACKS["standard"], [0, 1, 2, 3], 500, Random(1))
    shares = [found[f"caravan:{limit}"].interval.estimate for limit in range(4)]
    assert shares == sorted(shares) and shares[0] < 100 and shares[2] == 100
    assert found["caravan:0"].n == 500


def test_crossroads_edge_and_draws_agree_with_the_per_deal_solver_on_other_deals():
    found = design.measure_crossroads(PACKS["plain"], 300, Random(2))
    rng, cards, values = Random(8), list(PACKS["plain"]), []
    for _ in range(300):
        rng.shuffle(cards)
        values.append(solve_layout(tuple(cards)))
    assert overlap(found["crossroads-edge"].interval, mean_interval(values))
    draws = proportion_interval(values.count(0), 300)
    assert overlap(found["crossroads-draws"].interval,
                   design.Interval(100 * draws.estimate, 100 * draws.low, 100 * draws.high))
    assert found["crossroads-draws"].n == 300


def test_chuko_first_player_share_is_measured_per_number_of_players():
    found = design.measure_chuko(PACKS["standard"], [2, 3], 40, Random(3), "easy")
    assert set(found) == {"chuko-first:2", "chuko-first:3"}
    assert all(0 <= f.interval.low <= f.interval.estimate <= f.interval.high <= 100
               for f in found.values())


def test_a_pack_meets_its_targets_only_when_every_estimate_lies_within_them():
    targets = [Target("a", "A", "%", Spec(25, 40)), Target("b", "B", "%", Spec(goal="max"))]

    def figures(a, b):
        return {name: design.Figure(design.Interval(v, v, v), 100) for name, v in (("a", a),
                                                                                   ("b", b))}

    inside, outside = judge((2,), figures(30, 10), targets), judge((3,), figures(50, 90), targets)
    assert inside.meets and not outside.meets
    assert outside.miss == pytest.approx(10 / 7.5)  # ten points past a half width of 7.5
    better = judge((4,), figures(35, 20), targets)
    assert sorted([outside, inside, better], key=design.Candidate.rank) == [better, inside,
                                                                           outside]


def test_neighbours_stay_in_the_space_and_keep_cards_distinct():
    space, rng = Space(2, 20, (12, 12)), Random(5)
    pack = space.random_pack(rng)
    for _ in range(200):
        pack = space.neighbour(pack, rng)
        assert len(pack) == 12 == len(set(pack)) and all(2 <= c <= 20 for c in pack)
        assert list(pack) == sorted(pack)


def small_search(path=None, seed=7):
    targets = [Target("caravan:1", "C1", "%", Spec(25, 40)),
               Target("caravan:2", "C2", "%", Spec(75, 90))]
    return Search(targets, Space(2, 30, (12, 12)), seed, candidates=12, screen=40, confirm=80,
                  top=2, checkpoint=path)


def test_a_search_is_reproducible_and_resumes_from_its_checkpoint_without_measuring(
        tmp_path, monkeypatch):
    path = tmp_path / "search.json"
    first = small_search(path).run()
    assert first == small_search().run()  # the same seed, no checkpoint: the same packs
    calls = []
    monkeypatch.setattr(design, "measure", lambda *a: calls.append(a))
    assert small_search(path).run() == first and calls == []


def test_a_checkpoint_of_other_settings_is_refused(tmp_path):
    path = tmp_path / "search.json"
    small_search(path).run()
    with pytest.raises(ConfigError, match="another search"):
        small_search(path, seed=8).run()


def test_packs_a_game_cannot_deal_are_counted_as_refused_not_fatal():
    targets = [Target("chuko-first:4", "C", "%", Spec(20, 30))]
    search = Search(targets, Space(2, 9, (3, 4)), 1, candidates=6, screen=10, confirm=10,
                    top=1)
    assert search.run() == [] and search.refused == search.screened > 0


def test_design_prints_json_with_the_best_packs_and_their_measured_profile(run_chuko):
    status, out, err = run_chuko("design", *LADDER, "--candidates", "8", "--screen", "30",
                                 "--confirm", "60", "--top", "2", "--json")
    assert status == 0, err
    result = json.loads(out)
    assert [t["figure"] for t in result["targets"]] == ["caravan:1", "caravan:2", "caravan:3"]
    best = result["best"]
    assert 1 <= len(best) <= 2 and [b["miss"] for b in best] == sorted(b["miss"] for b in best)
    for found in best:
        assert len(found["pack"]) == 12 and found["figures"]["caravan:3"]["n"] == 60
        assert found["meets"] == all(f["met"] for f in found["figures"].values())


@pytest.mark.slow
def test_a_search_on_two_processes_finds_what_one_finds():
    one = small_search().run()
    two = small_search()
    two.jobs = 2
    assert two.run() == one


@pytest.mark.slow
def test_a_search_on_local_ray_finds_what_one_process_finds():
    pytest.importorskip("ray")
    one = small_search().run()
    on_ray = small_search()
    on_ray.backend, on_ray.jobs = "ray", 2
    assert on_ray.run() == one


def pool_of(targets, *rows):
    """Screened candidates with the given estimates, one per row of (figure, value)."""
    return [judge((k,), {name: design.Figure(design.Interval(v, v, v), 1000) for name, v in row},
                  targets) for k, row in enumerate(rows)]


def test_a_failed_search_says_the_range_of_each_target_and_the_relaxation_that_admits_packs():
    fair = Target("chuko-first:2", "Chükö first, 2 players", "%", parse_spec("50±3", "x"))
    pool = pool_of([fair], *([("chuko-first:2", v)] for v in (53.6, 54.0, 61.0, 55.2)))
    (near,) = design.closeness([fair], pool)
    assert (near["low"], near["high"], near["met"]) == (53.6, 61.0, 0)
    assert (near["relax_to"], near["admits"]) == ([46.0, 54.0], 2)
    (line,) = design.closeness_words([fair], pool, 1000)
    assert line == ("Chükö first, 2 players: ranged 53.6%–61.0% over 4 screened packs (1,000 "
                    "deals or games each), 0 within the target 47–53%; relaxing it to 46–54% "
                    "(50 ± 4%) would admit 2 packs.")


def test_a_failed_search_names_the_target_to_relax_first():
    two = Target("chuko-first:2", "Chükö first, 2 players", "%", Spec(47, 53))
    four = Target("chuko-first:4", "Chükö first, 4 players", "%", Spec(22, 28))
    pool = pool_of([two, four], [("chuko-first:2", 50), ("chuko-first:4", 35)],
                   [("chuko-first:2", 56), ("chuko-first:4", 25)])
    lines = design.closeness_words([two, four], pool, 500)
    assert "relaxing it to 44–56% (50 ± 6%) would admit 1 pack." in lines[0]
    assert "relaxing it to 15–35% (25 ± 10%) would admit 1 pack." in lines[1]
    assert lines[-1] == "The target to relax first: Chükö first, 2 players."


def test_when_no_single_relaxation_helps_the_closest_pack_is_named_with_what_it_needs():
    a = Target("caravan:0", "Caravan, 0 bridges", "%", Spec(90, 100))
    b = Target("caravan:1", "Caravan, 1 bridge", "%", Spec(99, 100))
    pool = pool_of([a, b], [("caravan:0", 0), ("caravan:1", 93)],
                   [("caravan:0", 0), ("caravan:1", 80)])
    lines = design.closeness_words([a, b], pool, 100)
    assert "relaxing it alone admits no pack" in lines[0]
    assert lines[-1] == ("Relaxing Caravan, 0 bridges to 0–100%, and Caravan, 1 bridge to "
                         "93–100% together would admit the closest screened pack, 0.")


def test_design_that_meets_no_target_prints_how_close_it_came(run_chuko):
    argv = ("design", "--caravan", "1:3±2", "--cards", "2-30", "--candidates", "10",
            "--screen", "100", "--confirm", "200", "--top", "2", "--seed", "1")
    status, out, _ = run_chuko(*argv)
    said = " ".join(out.split())
    assert status == 0 and "0 meet every target" in said
    assert "Caravan, 1 bridge: ranged 0.0%–100.0% over 10 screened packs" in said
    assert "relaxing it to 0–6% (3 ± 3%) would admit 4 packs." in said
    status, out, _ = run_chuko(*argv, "--json")
    (near,) = json.loads(out)["closeness"]
    assert near["relax_to"] == [0.0, 6.0] and near["admits"] == 4


def test_a_pack_met_by_its_estimate_alone_is_said_to_have_a_wider_interval(run_chuko):
    status, out, _ = run_chuko("design", "--caravan", "1:50±3", "--cards", "2-30",
                               "--candidates", "10", "--screen", "100", "--confirm", "200",
                               "--top", "2", "--seed", "1")
    said = " ".join(out.split())
    assert status == 0 and "1 meet every target" in said
    assert ("the interval reaches outside the target for Caravan, 1 bridge; a larger "
            "--confirm narrows it.") in said
