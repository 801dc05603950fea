"""Ctrl-C stops any command promptly: exit 130, one line, earlier outputs intact, no child left.

The subprocess tests do what a terminal does: the command runs in its own
process group and SIGINT goes to the whole group (workers included), at the
moment worker processes exist.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli_process import verify_cmd, verify_env
from verify.cli import main
from verify.interrupt import Interrupted
from verify.output import atomic_dir, write_text


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", encoding="ascii", errors="replace") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(d))
    return out


def _wait_for_handler(p: subprocess.Popen, wait: float = 120) -> None:
    """Until the command's signal handling is in place (it catches SIGTERM: bit 15 of SigCgt);
    a signal during the first imports gets Python's default KeyboardInterrupt."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        assert p.poll() is None, p.communicate()
        with open(f"/proc/{p.pid}/status", encoding="ascii") as fh:
            caught = next(int(line.split()[1], 16) for line in fh if line.startswith("SigCgt:"))
        if caught & (1 << (signal.SIGTERM - 1)):
            return
        time.sleep(0.05)
    raise AssertionError("the command never installed its signal handling")


def _group_gone(pgid: int, wait: float = 5.0) -> bool:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _workers_running(p: subprocess.Popen) -> None:
    deadline = time.monotonic() + 240
    while not _children(p.pid):
        assert p.poll() is None, f"the command ended before starting workers: {p.communicate()}"
        assert time.monotonic() < deadline, "no worker process started"
        time.sleep(0.1)


def interrupt(cmd: list, cwd: Path, ready=_workers_running, signals: int = 1
              ) -> tuple[subprocess.CompletedProcess, int]:
    """Start ``cmd`` in a new process group; once ``ready(process)`` returns, Ctrl-C the group."""
    p = subprocess.Popen(cmd, cwd=cwd, env=verify_env(), start_new_session=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready(p)
        time.sleep(0.5)
        for _ in range(signals):
            os.killpg(p.pid, signal.SIGINT)
            time.sleep(0.01)
        out, err = p.communicate(timeout=60)
    except BaseException:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        raise
    return subprocess.CompletedProcess(p.args, p.returncode, out, err), p.pid


def interrupt_when_workers_run(args, cwd: Path, signals: int = 1) -> tuple[subprocess.CompletedProcess, int]:
    """``verify ARGS``, Ctrl-C'd once it has worker processes."""
    return interrupt(verify_cmd(*args), cwd, signals=signals)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_ctrl_c_during_report_keeps_the_previous_report(tmp_path):
    out = tmp_path / "reports"
    with atomic_dir(out) as tmp:                       # a previous, complete report
        (tmp / "index.html").write_text("<h1>the previous report</h1>")
        (tmp / "matrix.html").write_text("<p>every promised check PROVED</p>")
    before = snapshot(out)
    res, pgid = interrupt_when_workers_run(["report", "--out", out, "--games", "2"], tmp_path)
    assert res.returncode == 130, res.stderr
    progress = [line for line in res.stderr.splitlines() if line.startswith("report: ")]
    assert progress[:2] == ["report: comparing 17 rulesets (findings and their z3 witnesses)",
                            "report: check: every invariant of 17 rulesets with z3"]      # the parts it reached
    assert [line for line in res.stderr.strip().splitlines() if not line.startswith("report: ")] == [
        "verify: interrupted; stopped before finishing, earlier outputs are unchanged"], res.stderr
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]        # no temporary folder left
    assert _group_gone(pgid), "a worker process outlived the command"


def test_ctrl_c_during_check_keeps_the_previous_output(tmp_path):
    saved = tmp_path / "check.json"
    write_text(saved, '{"results": "the previous check"}\n')
    res, pgid = interrupt_when_workers_run(["check", "--json", "-o", saved], tmp_path)
    assert res.returncode == 130, res.stderr
    assert res.stderr.strip().splitlines() == [
        "verify: interrupted; stopped before finishing, earlier outputs are unchanged"], res.stderr
    assert "Traceback" not in res.stderr and res.stdout == ""
    assert saved.read_text() == '{"results": "the previous check"}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["check.json"]
    assert _group_gone(pgid)


def test_repeated_ctrl_c_does_not_hang(tmp_path):
    res, pgid = interrupt_when_workers_run(["simulate", "--games", "100000", "--jobs", "2"], tmp_path, signals=5)
    assert res.returncode == 130, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr, res.stderr
    assert _group_gone(pgid)


def test_ctrl_c_during_a_z3_query_in_the_main_process(tmp_path):
    # every ruleset is checked in this process (about 30 s, so the signal lands during the proofs
    # however loaded the machine): z3 would catch SIGINT itself and answer "unknown"
    p = subprocess.Popen(verify_cmd("check", "--jobs", "1"), cwd=tmp_path, env=verify_env(),
                         start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_handler(p)
        time.sleep(4)                       # resolving and compiling done: proofs under way
        assert p.poll() is None, p.communicate()
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err
    assert "UNKNOWN" not in out and "interrupted" in err


# ------------------------------------------------------------------ in-process: nothing swallows it
def _prior_report(out: Path) -> dict[str, bytes]:
    with atomic_dir(out) as tmp:
        (tmp / "index.html").write_text("previous")
    return snapshot(out)


def test_an_interrupt_in_a_report_stage_is_not_shown_as_a_failed_stage(tmp_path, monkeypatch):
    from verify.report import runs

    def check(*args, **kwargs):
        raise Interrupted()
    monkeypatch.setattr(runs, "check", check)
    out = tmp_path / "reports"
    before = _prior_report(out)
    res = CliRunner().invoke(main, ["report", "--out", str(out), "--no-simulate"])
    assert res.exit_code == 130 and "interrupted" in res.output and "Aborted" not in res.output
    assert snapshot(out) == before


@pytest.mark.parametrize("error", [KeyboardInterrupt, Interrupted])
def test_keyboard_interrupt_anywhere_is_exit_130(monkeypatch, error):
    def boom(*a, **k):
        raise error()
    monkeypatch.setattr("verify.commands.show.load_ruleset", boom)
    res = CliRunner().invoke(main, ["show", "official"])
    assert res.exit_code == 130 and "Aborted" not in res.output and "interrupted" in res.output


@pytest.fixture
def python_sigint_handler():
    """SIGINT as a Python program started from a terminal has it: ``KeyboardInterrupt``. A test process
    may have inherited SIGINT ignored (a background job of a non-interactive shell, a test runner's
    worker), and then no signal reaches Python at all; the test says what it runs under."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield signal.default_int_handler
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_during_a_game_in_this_process_lands_between_two_games(python_sigint_handler):
    """The compiled engine aborts the process when a signal handler raises inside it ("fatal: out of
    memory", exit 134: 2 of 12 Ctrl-C's of `verify simulate --games 100000`): a chunk played in this
    process holds the signal until the game ends. Here the signal comes from inside game 0 (the observe
    hook), and game 0 still counts."""
    from verify.config import EngineConfig
    from verify.engine.campaign import CampaignSpec, GamesChunk, play_chunk
    from verify.spec import load_ruleset
    handler = python_sigint_handler
    chunk = GamesChunk("official", CampaignSpec(EngineConfig.from_ruleset(load_ruleset("official")), 4, 1), 0, 5)
    games, turns = [], []

    def observe(g) -> None:
        turns.append(1)
        if len(turns) == 3:
            os.kill(os.getpid(), signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):           # Python's handler (the command's: Interrupted)
        play_chunk(chunk, games.append, observe)
    assert len(games) == 1 and len(turns) > 3
    assert signal.getsignal(signal.SIGINT) is handler


_SWALLOWED = """
import ctypes, os, signal
import z3
import verify.commands.show as show
from verify.cli import main

def callback():
    os.kill(os.getpid(), signal.SIGINT)   # the handler runs inside the callback: ctypes drops its exception
    sum(range(1000))

def load_ruleset(*a, **k):                # what z3 does: its error callback, then its own error
    ctypes.CFUNCTYPE(None)(callback)()
    raise z3.Z3Exception("push canceled")

show.load_ruleset = load_ruleset
main(["show", "official"])
"""


def test_a_signal_swallowed_by_a_c_callback_is_still_an_interruption(tmp_path):
    """z3 reports a cancelled query through a Python callback: the handler's Interrupted is dropped
    there and z3's own exception follows. That is the interruption, not an internal error."""
    import sys
    res = subprocess.run([sys.executable, "-c", _SWALLOWED], cwd=tmp_path, env=verify_env(),
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 130, res.stderr
    assert res.stderr.strip().splitlines() == [
        "verify: interrupted; stopped before finishing, earlier outputs are unchanged"], res.stderr


# ------------------------------------------------------------------ stopping is bounded in time
_EXECUTOR = """
import concurrent.futures as cf, multiprocessing as mp, sys, time
from verify.interrupt import Interrupted, handling_signals, stop_children, worker_init
def task(x):
    end = time.time() + 120
    while time.time() < end:
        pass
with handling_signals():
    try:
        with cf.ProcessPoolExecutor(2, mp_context=mp.get_context("fork"), initializer=worker_init) as ex:
            list(ex.map(task, range(4)))     # on leaving, the executor waits for its running tasks
    except Interrupted:
        stop_children()
        print("stopped", file=sys.stderr)
        sys.exit(130)
"""

_STUCK = """
import sys, time
from verify.interrupt import handling_signals
print("ready", flush=True)
with handling_signals():
    try:
        time.sleep(120)
    finally:
        time.sleep(120)                      # a clean-up that never ends
"""


def _python(code: str, cwd: Path, ready) -> tuple[subprocess.CompletedProcess, int]:
    import sys
    return interrupt([sys.executable, "-c", code], cwd, ready=ready)


def _ready_line(p: subprocess.Popen) -> None:
    assert p.stdout.readline() == "ready\n"
    _wait_for_handler(p)


def test_a_pool_that_waits_for_its_tasks_is_stopped(tmp_path):
    res, pgid = _python(_EXECUTOR, tmp_path, _workers_running)
    assert res.returncode == 130 and res.stderr.strip() == "stopped", res.stderr
    assert _group_gone(pgid)


def test_a_clean_up_that_hangs_is_cut_short(tmp_path):
    res, pgid = _python(_STUCK, tmp_path, _ready_line)
    assert res.returncode == 130
    assert "the clean-up did not finish in time, stopped at once" in res.stderr


# ------------------------------------------------------------------ Ctrl-C while the command loads
def _loading_z3(p: subprocess.Popen) -> None:
    """Until z3's library is mapped into the process: its imports (half a second of them) are under way."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert p.poll() is None, p.communicate()
        try:
            with open(f"/proc/{p.pid}/maps", encoding="ascii", errors="replace") as fh:
                if "libz3" in fh.read():
                    return
        except FileNotFoundError:
            pass
        time.sleep(0.002)
    raise AssertionError("z3 was never loaded")


@pytest.mark.parametrize("entry", [["verify.cli"], ["verify"]], ids=["-m verify.cli", "-m verify"])
def test_ctrl_c_while_the_command_is_still_importing(tmp_path, entry):
    import sys
    p = subprocess.Popen([sys.executable, "-m", *entry, "check", "official", "--jobs", "1"], cwd=tmp_path,
                         env=verify_env(), start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        _loading_z3(p)
        os.killpg(p.pid, signal.SIGINT)          # at once: the modules are still being imported
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err
    assert "Traceback" not in err and out == ""
    assert err.strip().splitlines() == [
        "verify: interrupted; stopped before finishing, earlier outputs are unchanged"], err


def test_a_signal_is_remembered_only_for_the_command_it_stopped():
    """After a command stopped by a signal, a later command in the same process (a test runner's, a
    library user's) is not taken for interrupted when z3 reports an error."""
    from verify import interrupt
    with interrupt.handling_signals():
        interrupt._RECEIVED[:] = [signal.SIGINT]          # what the handler records
        with pytest.raises(Interrupted):
            interrupt.raise_if_interrupted()
    assert interrupt.received() is None
    interrupt.raise_if_interrupted()                     # nothing to raise
