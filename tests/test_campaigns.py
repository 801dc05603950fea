"""Campaigns through the commands: the same result for any --jobs, resumed after Ctrl-C or SIGKILL,
no worker left behind, E025 for another campaign's directory; check on the execution layer."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.engine.campaign import chunk_sizes

ROOT = Path(__file__).resolve().parent.parent
TIMING = ("elapsed_s", "player_turns_per_s", "cpu_s")


def _cli(*args: str) -> dict:
    res = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _games(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in TIMING}


def test_simulate_gives_the_same_summary_for_jobs_1_and_2_and_after_resume(tmp_path):
    args = ["simulate", "official-short", "--games", "120", "--seed", "4", "--json"]
    one = _games(_cli(*args))
    two = _games(_cli(*args, "--jobs", "2"))
    assert one == two and one["finished"] + one["hit_limit"] == 120
    store = tmp_path / "run"
    first = _games(_cli(*args, "--jobs", "2", "--resume", str(store)))
    assert first == one and len(list(store.glob("chunk-*.json"))) == len(chunk_sizes(120))
    (store / "chunk-000001.json").unlink()                       # as if killed before chunk 1 was saved
    assert _games(_cli(*args, "--resume", str(store))) == one
    res = CliRunner().invoke(main, ["simulate", "official", "--games", "120", "--seed", "4", "--resume", str(store)])
    assert res.exit_code == 1 and "[E025]" in res.output and "official-short" in res.output


def test_checked_simulate_reports_the_same_first_violation_on_the_layer(tmp_path):
    fixture = ROOT / "tests" / "fixtures" / "negative" / "sold-buildings-vanish.yaml"
    outs = []
    for extra in ([], ["--jobs", "2"]):
        res = CliRunner().invoke(main, ["simulate", str(fixture), "--games", "12", "--check-invariants", "--json",
                                        *extra])
        assert res.exit_code == 1
        outs.append(json.loads(res.stdout))
    assert outs[0] == outs[1] and "house-supply" in " ".join(outs[0]["violation"]["violations"])


def _start(args: list[str], store: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "verify.cli", "simulate", *args, "--resume", str(store),
                             "--json"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True,
                            # as from a terminal: a shell's background job would start with SIGINT ignored
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_for_chunks(proc: subprocess.Popen, store: Path, n: int = 1, timeout: float = 180) -> None:
    t0 = time.monotonic()
    while len(list(store.glob("chunk-*.json"))) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() - t0 < timeout, "no chunk finished in time"
        time.sleep(0.01)


def _group_gone(pgid: int, timeout: float = 20) -> bool:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    os.killpg(pgid, signal.SIGKILL)
    return False


@pytest.mark.parametrize("how", ["SIGINT", "SIGKILL"])
def test_a_killed_campaign_leaves_no_worker_and_resumes_to_the_identical_result(tmp_path, how):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) or SIGKILL of the main process,
    mid-campaign on two worker processes; then --resume finishes it with the uninterrupted result.
    On a loaded machine this test may see a small campaign finish before the signal lands; it then
    tries a larger one."""
    for games in (600, 3000):
        chunks = len(chunk_sizes(games))
        args = ["official", "--games", str(games), "--seed", "3", "--jobs", "2"]
        store = tmp_path / f"run-{games}"
        proc = _start(args, store)
        _wait_for_chunks(proc, store)
        if how == "SIGINT":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=300)
        assert _group_gone(proc.pid), "a worker process outlived the campaign"
        kept = len(list(store.glob("chunk-*.json")))
        if proc.returncode != 0 and kept < chunks:
            break
        # it finished before the signal landed: try a longer one
    assert 1 <= kept < chunks and not (store / "result.json").exists()
    if how == "SIGINT":
        # the robustness lane makes every command exit 130 on Ctrl-C; until then click's Abort gives 1
        assert proc.returncode in (130, 1), err
        assert "Traceback" not in err and f"--resume {store}" in err
        assert f"{kept} of {chunks} chunks finished" in err
    else:
        assert proc.returncode == -signal.SIGKILL
    resumed = _games(_cli("simulate", *args, "--resume", str(store), "--json"))
    assert resumed == _games(_cli("simulate", *args[:-2], "--json"))
    assert json.loads((store / "result.json").read_text())[0]["player_turns"] == resumed["player_turns"]


def test_check_runs_on_the_layer_with_the_same_verdicts_for_any_jobs_and_resumes(tmp_path):
    from verify.smt.run import check
    key = lambda rs: [(r.ruleset, r.invariant, r.action, r.verdict.value, r.promised) for r in rs]  # noqa: E731
    names = ["official", "official-short"]
    one = check(names, jobs=1, actions=("build_house",))
    two = check(names, jobs=2, actions=("build_house",))
    assert key(one) == key(two) and len(one) > 20
    store = tmp_path / "check"
    first = check(names, jobs=1, actions=("build_house",), resume=store)
    assert key(first) == key(one) and (store / "manifest.json").exists()
    again = check(names, jobs=1, actions=("build_house",), resume=store)
    assert key(again) == key(one)
    res = CliRunner().invoke(main, ["check", "official", "--action", "build_house", "--resume", str(store)])
    assert res.exit_code == 1 and "[E025]" in res.output


def test_scheduler_without_dask_or_unreachable_is_a_clear_usage_error(monkeypatch):
    from verify.execute.backends import BackendUnavailable, DaskBackend
    with pytest.raises(BackendUnavailable, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        DaskBackend("tcp://127.0.0.1:9", timeout=1).start()
    monkeypatch.setitem(sys.modules, "distributed", None)        # as if the extra were not installed
    res = CliRunner().invoke(main, ["simulate", "--games", "2", "--scheduler", "local"])
    assert res.exit_code == 2 and "pip install 'monopoly-verify[dask]'" in res.output


def test_trace_stays_in_one_process():
    res = CliRunner().invoke(main, ["simulate", "--games", "2", "--trace", "t.jsonl", "--jobs", "2"])
    assert res.exit_code == 2 and "--trace writes one file" in res.output
