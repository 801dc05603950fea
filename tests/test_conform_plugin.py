"""The pytest plugin: an engine author's one fixture turns into conformance tests in their own run,
with the shrunk scenario in the failure message (the README's example, run here with pytester)."""

from __future__ import annotations

from importlib.metadata import entry_points

pytest_plugins = ["pytester"]

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


def test_a_command_engine_runs_over_the_subprocess_transport(pytester):
    source = EXAMPLE.replace("return ReferenceEngine ", "return 'python -m verify.conform.reference' ")
    assert source != EXAMPLE
    result = _run(pytester, source)
    result.assert_outcomes(passed=1)


def test_modules_without_the_fixture_get_no_conformance_test(pytester):
    pytester.makepyfile(test_other="def test_plain():\n    assert True\n")
    result = pytester.runpytest_subprocess(*PLUGIN_ARGS)
    result.assert_outcomes(passed=1)
