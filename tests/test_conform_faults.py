"""Engines that crash, hang, print garbage or break protocol 1 are reported as rule `protocol` with the
step; the run finishes, the engine is restarted for other scenarios, and no child process survives."""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

import pytest

from verify.conform.harness import Session, run
from verify.conform.scenarios import Scenario
from verify.conform.transport import EngineSpec, Subprocess

FAULTS = Path(__file__).parent / "conform_engines" / "faults.py"


def _cmd(kind: str) -> str:
    return f"{sys.executable} {FAULTS} {kind}"


def _dead(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ")[1][0] in "ZX"      # a zombie waiting for init is dead
    except FileNotFoundError:
        return True


_BEFORE: list[int] = []


@pytest.fixture(autouse=True)
def _earlier_children():
    """The children this test process had before the test: a long-lived helper another test started in the
    same process (multiprocessing's resource tracker, say) is not the engine's child, whatever ran before."""
    _BEFORE[:] = _children_of(os.getpid())
    yield


def _new_children() -> list[int]:
    """This process's children that the test left (none: the engine and its children are gone)."""
    return [p for p in _children_of(os.getpid()) if p not in _BEFORE]


def _children_of(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.split(") ")[1].split()[1]) == pid and not _dead(int(d.name)):
                out.append(int(d.name))
    return out


@pytest.mark.parametrize("kind, fault", [("crash", "crash"), ("garbage", "garbage"), ("chatty", "garbage")])
def test_a_faulty_subprocess_engine_is_a_protocol_violation_and_the_run_finishes(kind, fault):
    # a seed whose scenarios are not all three steps or longer: one that passes after a restart shows the
    # run going on (three faulting scenarios in a row end a chunk, by design)
    r = run(EngineSpec(cmd=_cmd(kind), step_timeout=5), "official", seed=2, examples=12)
    assert r.violations, "the fault was not reported"
    v = r.violations[0]["violation"]
    assert v["rule"] == "protocol" and v["actual"].startswith(fault)
    assert v["step"] == len(r.violations[0]["actions"])
    assert r.scenarios > 3                  # restarted and went on with other scenarios
    assert _new_children() == []
    if kind == "crash":
        assert "fatal error" in v["log"]    # the engine's stderr is kept for the report


def test_a_hanging_engine_times_out_and_its_children_are_killed(tmp_path, monkeypatch):
    pids = tmp_path / "pids"
    monkeypatch.setenv("FAULTS_CHILD_PIDS", str(pids))
    t0 = time.monotonic()
    r = run(EngineSpec(cmd=_cmd("hang"), step_timeout=3), "official", seed=1, examples=50)
    assert time.monotonic() - t0 < 60
    v = r.violations[0]["violation"]
    assert v["rule"] == "protocol" and v["actual"].startswith("timeout") and v["step"] >= 1
    grandchildren = [int(x) for x in pids.read_text().split()]
    assert grandchildren
    deadline = time.monotonic() + 5
    while not all(_dead(p) for p in grandchildren) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_dead(p) for p in grandchildren), "a child of the hung engine survived"
    assert _new_children() == []


@pytest.mark.parametrize("slow_at", ["hello", "load"])
def test_the_step_timeout_covers_hello_and_load(slow_at):
    """--step-timeout is every request's limit, the first ones too (an engine slow to start or to load)."""
    script = ("import json, sys, time\n"
              "from verify.conform.reference import ReferenceEngine\n"
              "from verify.conform.serve import handle\n"
              "e = ReferenceEngine()\n"
              "for line in sys.stdin:\n"
              "    req = json.loads(line)\n"
              f"    if req['op'] == {slow_at!r}: time.sleep(5)\n"
              "    print(json.dumps(handle(e, req)), flush=True)\n")
    t0 = time.monotonic()
    r = run(EngineSpec(cmd=f"{sys.executable} -c {shlex.quote(script)}", step_timeout=1.5), "official", seed=1,
            examples=5)
    assert time.monotonic() - t0 < 4.5                  # one timeout, and the chunk stops
    v = r.violations[0]["violation"]
    assert v["rule"] == "protocol" and v["actual"] == f"timeout: {slow_at}: no answer within 1.5 s"
    assert r.deviations[0]["signature"] == f"protocol at {slow_at}: timeout" and r.stopped


def test_an_engine_that_speaks_another_protocol_is_refused_at_hello():
    r = run(EngineSpec(cmd=_cmd("wrong-protocol")), "official", seed=1, examples=10)
    v = r.violations[0]["violation"]
    assert (v["rule"], v["step"]) == ("protocol", 0) and "protocol 2" in v["actual"]
    from verify.conform.harness import replay
    again = replay(EngineSpec(cmd=_cmd("wrong-protocol")), r.violations[0])     # its scenario replays
    assert [d["violation"]["actual"] for d in again.violations] == [v["actual"]]


def test_an_engine_that_does_not_start_is_a_protocol_violation():
    r = run(EngineSpec(cmd=f"{sys.executable} -c 'import sys; sys.exit(4)'"), "official", seed=1, examples=5)
    v = r.violations[0]["violation"]
    assert v["rule"] == "protocol" and v["step"] == 0 and "exit status 4" in v["actual"]


def test_an_in_process_crash_is_a_protocol_violation_with_its_traceback():
    r = run(EngineSpec("tests.conform_engines.faults:Crashing"), "official", seed=1, examples=25)
    v = r.violations[0]["violation"]
    assert v["rule"] == "protocol" and "RuntimeError: simulated crash" in v["actual"]
    assert "Traceback" in v["log"]


def test_a_session_restarts_the_engine_after_a_fault():
    s = Session(EngineSpec(cmd=_cmd("crash"), step_timeout=5), "official")
    try:
        from verify.engine.step import new_game
        state = new_game(s.config, 2, 1)
        roll = [{"type": "roll", "seat": state["current"], "dice": [1, 2]},
                {"type": "buy", "seat": state["current"]}, {"type": "end_turn", "seat": state["current"]}]
        v = s.run(Scenario(state, roll)).violation
        assert v is not None and v.rule == "protocol" and v.step == 3 and not s.running
        assert v.signature == "protocol at end_turn: crash"
        first = s.engine
        got = s.run(Scenario(state, roll[:2]))      # a fresh engine: two applies are fine
        assert got.violation is None and got.steps == 2 and s.running and s.engine is first
    finally:
        s.close()
    assert _new_children() == []


def _descendants(pid: int) -> list[int]:
    out, todo = [], _children_of(pid)
    while todo:
        p = todo.pop()
        out.append(p)
        todo += _children_of(p)
    return out


def test_close_kills_an_engine_that_ignores_bye():
    eng = Subprocess(f"{sys.executable} -c \"import signal,sys,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                     f"sys.stdin.readline(); print('{{\\\"ok\\\": true, \\\"engine\\\": \\\"x\\\", \\\"version\\\": 1, "
                     f"\\\"protocol\\\": 1}}', flush=True); time.sleep(60)\"", step_timeout=2)
    hello = eng.start()
    assert hello.engine == "x"
    pid = eng.proc.pid
    eng.close()
    assert _dead(pid)


@pytest.mark.parametrize("sig, jobs", [("SIGINT", 1), ("SIGTERM", 1), ("SIGINT", 2)])
def test_stopping_the_harness_leaves_no_engine_or_child_behind(sig, jobs, tmp_path):
    import signal
    import subprocess
    pids = tmp_path / "pids"
    env = dict(os.environ, FAULTS_CHILD_PIDS=str(pids), PYTHONPATH=str(Path(__file__).parents[1]))
    proc = subprocess.Popen([sys.executable, "-m", "verify.cli", "conform", "--engine-cmd", _cmd("hang"),
                             "--step-timeout", "60", "--examples", "10", "--scenarios", str(tmp_path / "sc"),
                             "--jobs", str(jobs)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while not (pids.exists() and pids.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.1)
        grandchild = int(pids.read_text().split()[0])
        engines = _descendants(proc.pid)          # with --jobs 2: the workers and their engines
        assert engines and not _dead(grandchild)
        proc.send_signal(getattr(signal, sig))
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            for p in (int(x) for x in (pids.read_text().split() if pids.exists() else [])):
                os.kill(p, 9)               # a failed test must not leave its own children behind
    assert proc.returncode in (128 + getattr(signal, sig), 130, 1)
    deadline = time.monotonic() + 5
    while not all(_dead(p) for p in [grandchild, *engines]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_dead(p) for p in [grandchild, *engines])
