"""The Dask path of the execution layer on a real LocalCluster: a scheduler and two worker processes on
loopback. The same campaign gives the same merged result as --jobs 1 and --jobs 2; a worker killed
mid-campaign has its chunk re-run. Dask is the optional `dask` extra (`.ci/run` installs it): without it
these tests fail, saying so, rather than pass or skip.
"""

from __future__ import annotations

import json
import multiprocessing
import sys

import pytest
from click.testing import CliRunner

from verify.cli import main

TIMING = ("elapsed_s", "player_turns_per_s", "cpu_s")


def _distributed():
    try:
        import distributed
    except ImportError as exc:
        pytest.fail(f"Dask distributed is not installed ({exc}): pip install -e '.[dask]' (CI installs it)")
    return distributed


@pytest.fixture(scope="module")
def cluster():
    distributed = _distributed()
    import logging

    from verify.execute.backends import _sigint_ignored
    with _sigint_ignored():
        lc = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address=":0", silence_logs=logging.ERROR)
    try:
        yield lc
    finally:
        lc.close()


def _json(*args: str) -> dict:
    res = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    for k in TIMING:
        doc.pop(k, None)
    return doc


def test_a_campaign_on_the_local_cluster_equals_jobs_1_and_jobs_2(cluster):
    args = ["simulate", "official", "--games", "150", "--seed", "21", "--json"]
    dask = _json(*args, "--scheduler", cluster.scheduler_address)
    assert dask == _json(*args) == _json(*args, "--jobs", "2")
    assert dask["finished"] + dask["hit_limit"] == 150


def test_a_study_on_the_local_cluster_equals_one_process(cluster, tmp_path):
    args = ["study", "official", "official+house-no-auction", "--games", "60", "--seed", "2", "--json"]
    on_dask = _json(*args, "--scheduler", cluster.scheduler_address, "--out", str(tmp_path / "a"))
    here = _json(*args, "--out", str(tmp_path / "b"))
    for d in (on_dask, here):
        for r in d["rows"]:
            r.pop("cpu_s")
    assert on_dask == here and [r["games"] for r in here["rows"]] == [60, 60]


def test_a_killed_dask_worker_has_its_chunk_run_again(cluster, tmp_path):
    import cloudpickle

    import test_execute as toys
    cloudpickle.register_pickle_by_value(toys)          # the workers need not import the test module
    from verify.execute import DaskBackend, InProcess, run
    whole = run(toys.toy(), InProcess()).result
    out = run(toys.toy(markers=str(tmp_path), kill=4), DaskBackend(cluster.scheduler_address))
    assert out.result == whole
    assert (tmp_path / "ran-4").read_text() == "xx"      # the first worker died in it, another finished it


def test_scheduler_local_starts_and_stops_its_own_cluster():
    _distributed()
    before = {p.pid for p in multiprocessing.active_children()}
    args = ["simulate", "official-short", "--games", "60", "--seed", "5", "--json"]
    assert _json(*args, "--scheduler", "local", "--jobs", "2") == _json(*args)
    left = [p for p in multiprocessing.active_children() if p.is_alive() and p.pid not in before]
    assert not left, f"a worker outlived its cluster: {left}"


def test_a_conformance_run_on_the_cluster_gives_what_one_process_gives(cluster, tmp_path):
    """`verify conform` on Dask: the same JSON as --jobs 1 (deviations, counts, verdicts, the shrunk scenarios'
    file names) and the same saved scenarios, byte for byte: scenarios are drawn from their seeds alone."""
    args = ["conform", "--engine", "tests.conform_engines.broken:CardBackOnTop", "--examples", "150", "--seed", "3",
            "--json"]
    runs = []
    for extra, folder in (([], "one"), (["--scheduler", cluster.scheduler_address], "dask")):
        res = CliRunner().invoke(main, [*args, *extra, "--scenarios", str(tmp_path / folder)], catch_exceptions=False)
        assert res.exit_code == 1, res.output
        doc = json.loads(res.stdout)
        files = [v.pop("scenario_file") for v in doc["violations"]]
        runs.append((doc, [(f.split("/")[-1], open(f).read()) for f in files]))
    (here, here_files), (dask, dask_files) = runs
    assert {v["rule"] for v in here["violations"]} == {"successor"} and here["scenarios"] == 150
    assert sum(v["count"] for v in here["violations"]) > len(here["violations"]) >= 1
    assert max(len(v["contexts"]) for v in here["violations"]) >= 3      # one cause met on many cards
    assert dask == here
    assert dask_files == here_files


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
