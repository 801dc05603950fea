"""The pytest plugin (entry point ``pytest11``): the conformance suite inside an engine author's own tests.

Define one fixture named ``conform_engine`` in a test module; it returns the
engine: an in-process class (or ``"module:Class"``), a command line that
speaks protocol 1 (``"node engine.js"``, or a list of arguments), or an
``EngineSpec``. The module then holds one test per ruleset,
``test_conformance[RULESET]``, which runs ``verify conform`` on it and fails
with every violation's shrunk scenario (and where its replayable file was
saved) as the message::

    # test_my_engine.py
    import pytest
    from my_engine import Engine

    @pytest.fixture
    def conform_engine():
        return Engine

Options (command line or ini): ``--conform-rulesets official,classic-pl``
(ini ``conform_rulesets``), ``--conform-examples N``, ``--conform-seed S``,
``--conform-step-timeout T``, ``--conform-baseline FILE`` (ini ``conform_baseline``:
accepted deviations fail nothing) and ``--conform-strict`` (ini ``conform_strict``). Importing this module costs nothing until such a
fixture exists: the harness is imported when a conformance test runs.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

import pytest

FIXTURE = "conform_engine"
_MODULE_CLASS = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


def pytest_addoption(parser) -> None:
    group = parser.getgroup("verify-conform", "engine conformance (verify conform)")
    group.addoption("--conform-rulesets", default=None, help="Comma-separated rulesets (default: official).")
    group.addoption("--conform-examples", type=int, default=None, help="Scenarios per ruleset (default 500).")
    group.addoption("--conform-seed", type=int, default=None, help="Seed of the scenarios (default 0).")
    group.addoption("--conform-step-timeout", type=float, default=None,
                    help="Seconds a subprocess engine may take per request (default 10).")
    group.addoption("--conform-baseline", default=None,
                    help="Accepted deviations (a file `verify conform --write-baseline` wrote): only new or "
                         "changed ones fail.")
    group.addoption("--conform-strict", action="store_true", default=None,
                    help="Deviations unstated by the rulebook (silent or assumed values) fail too.")
    parser.addini("conform_rulesets", "Rulesets the conformance tests check (comma-separated)", default="official")
    parser.addini("conform_examples", "Scenarios per ruleset", default="500")
    parser.addini("conform_seed", "Seed of the conformance scenarios", default="0")
    parser.addini("conform_baseline", "Accepted deviations (verify conform --write-baseline FILE)", default="")
    parser.addini("conform_strict", "Deviations unstated by the rulebook fail too", type="bool", default=False)


def _option(config, name: str, ini: str | None = None) -> Any:
    v = config.getoption(f"--conform-{name.replace('_', '-')}")
    if v is None and ini is not None:
        v = config.getini(ini)
    return v


def engine_spec(engine: Any, step_timeout: float | None = None):
    """An ``EngineSpec`` from what a ``conform_engine`` fixture returns."""
    from .transport import DEFAULT_STEP_TIMEOUT, EngineSpec
    t = step_timeout or DEFAULT_STEP_TIMEOUT
    if isinstance(engine, EngineSpec):
        return engine
    if isinstance(engine, (list, tuple)):
        return EngineSpec(cmd=shlex.join(str(a) for a in engine), step_timeout=t)
    if isinstance(engine, str):
        if _MODULE_CLASS.match(engine):
            return EngineSpec(target=engine, step_timeout=t)
        return EngineSpec(cmd=engine, step_timeout=t)
    if isinstance(engine, type):
        return EngineSpec(target=engine, step_timeout=t)
    raise TypeError(f"{FIXTURE} must return an engine class, 'module:Class', a command or an EngineSpec, "
                    f"not {type(engine).__name__}")


def _conformance_test(ruleset: str):
    def test_conformance(conform_engine, request) -> None:
        from .harness import run
        from .render import scenario_text, status_line
        from .scenario_file import save

        config = request.config
        spec = engine_spec(conform_engine, _option(config, "step_timeout"))
        examples = int(_option(config, "examples", "conform_examples"))
        seed = int(_option(config, "seed", "conform_seed"))
        result = run(spec, ruleset, seed=seed, examples=examples)
        baseline = _option(config, "baseline", "conform_baseline") or None
        if baseline:
            from pathlib import Path
            from . import ConformInputError
            from .baseline import load
            path = Path(baseline)
            # a path on the command line is the user's, from where pytest was run; one in the ini file is
            # the ini file's, from its folder
            given = config.getoption("--conform-baseline") is not None
            base = config.invocation_params.dir if given else (config.inipath.parent if config.inipath
                                                                 else config.rootpath)
            try:
                baseline = load(path if path.is_absolute() else Path(base) / path)
            except ConformInputError as exc:
                error = f"verify conform: {exc}"
            else:
                error = None
            if error is not None:
                pytest.fail(error, pytrace=False)
        result.judged(baseline, bool(_option(config, "strict", "conform_strict")))
        if result.ok:
            return
        folder = config.cache.mkdir("verify-conform") if getattr(config, "cache", None) else config.rootpath
        texts = []
        failing = result.failing
        for dev in failing:
            path = save(dev["doc"], folder)
            texts.append(scenario_text(dev["doc"], result.engine, str(path), spec.cli_args, dev["count"],
                                       result.scenarios, dev.get("contexts")) + "\n" + status_line(result, dev))
        pytest.fail(f"{result.engine} departs from {ruleset} in {len(failing)} way(s) "
                    f"({result.scenarios} scenarios, {result.steps} steps; {len(result.deviations) - len(failing)} "
                    "more accepted or unstated by the rulebook):\n\n" + "\n\n".join(texts), pytrace=False)

    return test_conformance


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name: str, obj: Any):
    """A module that defines the ``conform_engine`` fixture gets the conformance tests."""
    if name != FIXTURE or not isinstance(collector, pytest.Module):
        return None
    raw = _option(collector.config, "rulesets", "conform_rulesets")
    rulesets = [r.strip() for r in str(raw).split(",") if r.strip()] or ["official"]
    return [pytest.Function.from_parent(collector, name=f"test_conformance[{r}]", callobj=_conformance_test(r))
            for r in rulesets]


__all__ = ["engine_spec", "FIXTURE"]
