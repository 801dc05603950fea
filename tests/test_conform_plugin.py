"""The pytest plugin: an engine author's one fixture turns into conformance tests in their own run,
with the shrunk scenario in the failure message (the README's example, run here with pytester)."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def _this_tree(monkeypatch):
    """pytester's subprocesses import the plugin and the harness of this tree (not another install)."""
    from pathlib import Path
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parents[1]))

PLUGIN_ARGS = [] if any(ep.value == "verify.conform.plugin" for ep in entry_points(group="pytest11")) \
    else ["-p", "verify.conform.plugin"]

# The README's example, verbatim: an engine author's test module.
EXAMPLE = '''
import pytest
from verify.conform.reference import ReferenceEngine   # your engine class here


@pytest.fixture
def conform_engine():
    return ReferenceEngine                                # or "python my_engine.py", or "pkg.mod:Engine"
'''


def _run(pytester, source: str, *args):
    pytester.makepyfile(test_my_engine=source)
    return pytester.runpytest_subprocess(*PLUGIN_ARGS, "-p", "no:cacheprovider", "--conform-examples", "8", *args)


def test_the_readme_example_runs_as_a_passing_conformance_test(pytester):
    result = _run(pytester, EXAMPLE)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*test_my_engine.py*"])


def test_a_broken_engine_fails_with_its_shrunk_scenario(pytester):
    source = EXAMPLE.replace("from verify.conform.reference import ReferenceEngine",
                             "from tests.conform_engines.faults import ShortMover as ReferenceEngine")
    pytester.syspathinsert(str(__import__("pathlib").Path(__file__).parents[1]))
    result = _run(pytester, source, "--conform-rulesets", "official,classic-pl")
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    assert "test_conformance[official]" in out and "test_conformance[classic-pl]" in out
    assert "successor broken at step 1" in out and "State diff:" in out and "Replay: verify conform --replay" in out


#: an engine author's own broken engine, defined in the test module itself
OWN_ENGINE = '''
import pytest
from verify.conform.reference import ReferenceEngine


class LateMover(ReferenceEngine):
    name = "late-mover"

    def apply(self, action):
        new = super().apply(action)
        if action["type"] == "roll":
            new = dict(new, players=[dict(p) for p in new["players"]])
            p = new["players"][action["seat"]]
            p["position"] = (p["position"] + 1) % 40
            self._state = new
        return new


@pytest.fixture
def conform_engine():
    return LateMover
'''


def test_the_printed_replay_command_runs_as_printed(pytester):
    """The failure message's Replay line names the engine and re-runs the deviation when copied."""
    import os
    import shlex
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).parents[1]
    result = _run(pytester, OWN_ENGINE, "--conform-examples", "20")
    result.assert_outcomes(failed=1)
    lines = [line for line in result.stdout.lines if line.startswith("Replay: verify conform --replay")]
    assert lines and "--engine test_my_engine:LateMover" in lines[0]
    argv = shlex.split(lines[0][len("Replay: "):])
    assert argv[0] == "verify"
    env = dict(os.environ, PYTHONPATH=str(root))          # `verify` of this tree (the console script's module)
    done = subprocess.run([sys.executable, "-m", "verify.cli", *argv[1:]], cwd=pytester.path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "successor broken at step 1" in done.stdout and "late-mover" in done.stdout


def test_a_command_engine_runs_over_the_subprocess_transport(pytester):
    source = EXAMPLE.replace("return ReferenceEngine ", "return 'python -m verify.conform.reference' ")
    assert source != EXAMPLE
    result = _run(pytester, source)
    result.assert_outcomes(passed=1)


def test_modules_without_the_fixture_get_no_conformance_test(pytester):
    pytester.makepyfile(test_other="def test_plain():\n    assert True\n")
    result = pytester.runpytest_subprocess(*PLUGIN_ARGS)
    result.assert_outcomes(passed=1)


def test_a_baseline_turns_the_conformance_test_into_a_regression_test(pytester):
    from verify.conform import baseline
    from verify.conform.harness import run
    from verify.conform.transport import EngineSpec
    known = run(EngineSpec("tests.conform_engines.faults:ShortMover"), "official", seed=0, examples=8)
    baseline.write(pytester.path / "accepted.json", known)
    source = EXAMPLE.replace("from verify.conform.reference import ReferenceEngine",
                             "from tests.conform_engines.faults import ShortMover as ReferenceEngine")
    pytester.syspathinsert(str(__import__("pathlib").Path(__file__).parents[1]))
    _run(pytester, source, "--conform-baseline", "accepted.json").assert_outcomes(passed=1)
    (pytester.path / "empty.json").write_text('{"schema": "verify.conform-baseline/2", "causes": []}')
    failed = _run(pytester, source, "--conform-baseline", "empty.json")
    failed.assert_outcomes(failed=1)
    assert "Status: a deviation" in failed.stdout.str()
    # a path given on the command line is the user's, from where pytest runs (not pytest's rootdir)
    sub = pytester.mkdir("sub")
    (sub / "accepted.json").write_text((pytester.path / "accepted.json").read_text())
    (pytester.path / "accepted.json").unlink()
    import os
    os.chdir(sub)
    from_sub = pytester.runpytest_subprocess(*PLUGIN_ARGS, "--rootdir", str(pytester.path), str(pytester.path),
                                             "--conform-examples", "8", "--conform-baseline", "accepted.json")
    from_sub.assert_outcomes(passed=1)
    os.chdir(pytester.path)
    # a missing or old baseline is one line, not a traceback
    missing = _run(pytester, source, "--conform-baseline", "nowhere.json")
    missing.assert_outcomes(failed=1)
    text = missing.stdout.str()
    assert "[E026]" in text and "nowhere.json" in text and "Traceback" not in text and "During handling" not in text
