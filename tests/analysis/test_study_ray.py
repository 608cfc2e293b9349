"""chuko study --backend ray: the exhaustive Crossroads work on a shard of the standard
pack, planned on local Ray as on a cluster, gives what local processes give."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numba", reason="the study's exact solving needs the fast extra")
pytest.importorskip("ray", reason="--backend ray needs the lab extra")

from chuko.analysis.study.layout import read_pack  # noqa: E402
from chuko.cli.main import main  # noqa: E402

SHARD = 5275  # 360 distinct deals of the standard pack


@pytest.mark.slow
def test_crossroads_exact_shard_on_local_ray_matches_local_processes(capsys, tmp_path):
    shards = len(read_pack("standard").shards)
    common = ["study", "crossroads", "--exact", "--shard", f"{SHARD}/{shards}", "--jobs", "1",
              "--json"]
    assert main([*common, "--backend", "ray", "--checkpoint", str(tmp_path / "ray.json")]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert main([*common, "--checkpoint", str(tmp_path / "local.json")]) == 0
    local = json.loads(capsys.readouterr().out)
    assert on_ray["data"]["distribution"] == local["data"]["distribution"]
    assert on_ray["data"]["distinct"] == 360
    assert on_ray["data"]["selection"] == {"complete": False, "text": f"shard {SHARD}/{shards}",
                                           "shards": 1, "of": shards}
