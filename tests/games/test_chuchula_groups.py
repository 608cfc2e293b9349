"""Chuchula's group rules (H2–H4) as one table of cases, chuchula_groups.json, that the engine
answers and the screen's copy of the group types (src/chuko/web/js/groups.js, run by Node.js)
names alike. How strong a group is the screen takes from the engine (`hand_strengths`).

The table holds the engine's answers, so the screen has a fixed target and a change to the
rules shows in the diff of the table. After a deliberate change, regenerate it with

    .venv/bin/python tests/games/test_chuchula_groups.py
"""

import itertools
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from chuko.core.deck52 import parse_cards
from chuko.games.chuchula import (
    Game,
    GroupType,
    _display_order,
    group_strength,
    group_type,
    hand_strengths,
    order_problem,
)

TABLE = Path(__file__).with_name("chuchula_groups.json")
RUNNER = Path(__file__).parents[1] / "web" / "groups_table.mjs"
COMMAND = ".venv/bin/python tests/games/test_chuchula_groups.py"

# Each group pins down an edge of rulings H2–H3; some are written out of order on purpose.
GROUPS = [
    ("As Ad Ac", "the strongest trial"),
    ("3s 3d 3c", "a trial compares by rank alone"),
    ("3h 3d 3c", "ties with the other trial of threes: suits never count"),
    ("2s 2h 2d", "the weakest trial beats every double sequence"),
    ("As Ks Qs", "the strongest double sequence: A-K-Q is consecutive"),
    ("2h Ah 3h", "A-2-3 is consecutive, the ace compared high: below A-K-Q, above K-Q-J"),
    ("Kd Qd Jd", "a double sequence below A-2-3"),
    ("Jc Kc Qc", "ties with K-Q-J of diamonds, written out of order"),
    ("Qs Js 10s", "a ten written as 10"),
    ("4d 3d 2d", "the weakest double sequence beats every sequence"),
    ("As Kd Qc", "the strongest sequence"),
    ("Ah 2s 3d", "an ace-low sequence"),
    ("Ks Qh Jd", "a sequence below A-2-3"),
    ("4s 3h 2d", "the weakest sequence beats every color"),
    ("2c 4h 3s", "ties with 4-3-2, written out of order"),
    ("Ah Kh Jh", "the strongest color"),
    ("Ks As 2s", "K-A-2 is not consecutive: one suit makes it a color"),
    ("Ks 9s 3s", "colors compare the highest card, then the second, then the third"),
    ("Kh 9h 2h", "below K-9-3 on the third card"),
    ("Kc 8c 7c", "below K-9-2 on the second card"),
    ("5c 3c 2c", "the weakest color beats every pair"),
    ("As Ad Kc", "the strongest pair"),
    ("Ks Kd 3s", "a pair above its odd card"),
    ("5s 5h 3d", "pairs compare the pair's rank first"),
    ("5c 5d 3h", "ties with the other 5-5-3"),
    ("5s 5h 2d", "then the odd card"),
    ("4s 4h Ad", "a lower pair loses whatever its odd card"),
    ("3h 3c As", "a pair below its odd card"),
    ("3s 3d Ks", "below 3-3-A on the odd card"),
    ("2s 2h 3d", "the weakest pair beats every individual"),
    ("As Kd Jc", "the strongest individual"),
    ("Ks Ad 2c", "K-A-2 is not consecutive: an individual"),
    ("As Qd Jc", "A-Q-J is not consecutive"),
    ("Ks 9h 3d", "individuals compare the highest card, then the second, then the third"),
    ("Kd 9s 3h", "ties with the other K-9-3"),
    ("Qs Jh 9d", "below K-9-3 on the highest card"),
    ("5s 3h 2d", "the weakest individual"),
]

# Four groups as a player lays them out (ruling H4: each at least as strong as the next).
ORDERINGS = [
    (["As Ad Ac", "Kd Qd Jd", "5s 5h 3d", "Ks 9h 3d"], "strongest first"),
    (["5s 5h 3d", "5c 5d 3h", "Kd 9s 3h", "Ks 9h 3d"], "equal groups may come in either order"),
    (["Kd Qd Jd", "As Ad Ac", "5s 5h 3d", "Ks 9h 3d"], "a stronger second group"),
    (["As Ad Ac", "Kd Qd Jd", "Ks 9h 3d", "5s 5h 3d"], "a stronger last group"),
]


def dense_ranks(strengths: list[int]) -> list[int]:
    """Each strength's place among the distinct ones, weakest 0; equal strengths share it."""
    distinct = sorted(set(strengths))
    return [distinct.index(strength) for strength in strengths]


def engine_table() -> dict:
    """The table as the engine answers it: each group's type and rank among the groups, and
    whether each ordering is strongest first."""
    ranks = dense_ranks([group_strength(cards) for cards, _ in GROUPS])
    return {
        "generated_by": COMMAND,
        "groups": [
            {"cards": cards, "why": why, "type": group_type(cards).name, "rank": rank}
            for (cards, why), rank in zip(GROUPS, ranks, strict=True)
        ],
        "orderings": [
            {"groups": groups, "why": why,
             "in_order": order_problem([parse_cards(g) for g in groups]) is None}
            for groups, why in ORDERINGS
        ],
    }


def table_text(table: dict) -> str:
    """The table as JSON with one case a line, so that a change to the rules changes lines."""
    entries = []
    for key, value in table.items():
        if isinstance(value, list):
            rows = ",\n    ".join(json.dumps(row, ensure_ascii=False) for row in value)
            entries.append(f"  {json.dumps(key)}: [\n    {rows}\n  ]")
        else:
            entries.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(entries) + "\n}\n"


@pytest.fixture(scope="module")
def table() -> dict:
    return json.loads(TABLE.read_text(encoding="utf-8"))


def test_the_engine_gives_the_tables_answers(table):
    assert table == engine_table(), (
        f"{TABLE.name} is not the engine's answers: after a deliberate change to the rules, "
        f"regenerate it with {COMMAND}"
    )


def test_the_table_has_every_group_type_ties_and_both_verdicts_on_order(table):
    assert {g["type"] for g in table["groups"]} == {t.name for t in GroupType}
    ranks = [g["rank"] for g in table["groups"]]
    assert len(set(ranks)) < len(ranks)
    assert {o["in_order"] for o in table["orderings"]} == {True, False}


def test_groups_js_gives_the_tables_answers(table):
    node = shutil.which("node")
    if node is None:
        pytest.skip("groups.js is checked with Node.js, and `node` is not on the PATH")
    run = subprocess.run([node, str(RUNNER), str(TABLE)], capture_output=True, text=True,
                         timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    shown = json.loads(run.stdout)
    assert [(g["cards"], info["type"], info["label"], info["written"])
            for g, info in zip(table["groups"], shown["groups"], strict=True)] == [
        (g["cards"], g["type"], GroupType[g["type"]].label,
         [str(card) for card in _display_order(parse_cards(g["cards"]))])
        for g in table["groups"]
    ]


def test_a_hands_strengths_are_the_engines_for_every_group_it_can_make(table):
    """The strengths a screen orders groups by (the view's `group_strengths`) are
    `group_strength`'s, listed by the hand's places; the table's groups keep their order."""
    cards = [parse_cards(g["cards"]) for g in table["groups"]]
    for group, entry in zip(cards, table["groups"], strict=True):
        assert hand_strengths(group) == [group_strength(group)], entry["why"]
    by_rank = sorted(zip(table["groups"], cards, strict=True), key=lambda pair: pair[0]["rank"])
    strengths = [hand_strengths(group)[0] for _, group in by_rank]
    assert strengths == sorted(strengths)
    hand = Game(players=2).new(seed=7).hand(0)
    assert hand_strengths(hand) == [group_strength(t) for t in itertools.combinations(hand, 3)]


def test_the_view_measures_the_hand_while_its_seat_has_yet_to_commit():
    state = Game(players=2, length=2).new(seed=3)
    view = state.view(0)
    assert view["group_strengths"] == hand_strengths(state.hand(0))
    assert len(view["group_strengths"]) == 286
    state.play(0, state.random_move(0, random.Random(1)))
    assert state.view(0)["group_strengths"] is None  # committed: nothing left to arrange
    assert state.view(1)["group_strengths"] == hand_strengths(state.hand(1))
    assert "group_strengths" not in state.view(None)


if __name__ == "__main__":
    TABLE.write_text(table_text(engine_table()), encoding="utf-8")
    print(f"wrote {TABLE}")
