"""Session set-up shared by every test module.

The tests play the engine ``rules_for`` gives: the compiled one where the install holds a build
of this source (the README's install does), else the readable modules (saying so once).
``VERIFY_ENGINE=readable`` plays the readable modules only: the tests marked ``compiled`` (they
compare the compiled build with the readable one, and fail without it) are then left out, said in
the run's header; CI runs the suite both ways.

A test process may start with SIGINT ignored (a background job of a non-interactive shell inherits
it so, and passes it on to every command a test starts): the Ctrl-C tests would then see no signal at
all. The session restores what a terminal gives a program, Python's ``KeyboardInterrupt`` handler
(children started by tests then get the default action, as from a terminal).

``one_bundled_comparison`` lets the report tests share one comparison of the bundled rulesets.
"""

from __future__ import annotations

import importlib
import os
import signal

import pytest

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

_BUNDLED_COMPARISON: list = []
_LEFT_OUT: list[str] = []


def pytest_collection_modifyitems(config, items):
    if os.environ.get("VERIFY_ENGINE") != "readable":
        return
    kept = [item for item in items if item.get_closest_marker("compiled") is None]
    left = [item for item in items if item.get_closest_marker("compiled") is not None]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept
        _LEFT_OUT.append(f"VERIFY_ENGINE=readable: {len(left)} tests comparing the compiled engine with the "
                         "readable one left out (run without it to include them)")


def pytest_report_collectionfinish(config, start_path, items):
    return _LEFT_OUT


@pytest.fixture(scope="module")
def one_bundled_comparison():
    """For report tests: every report without a table compares the same bundled rulesets, so that
    comparison (about ten seconds) is made once per session and handed to each such report. The
    comparison itself is tested in test_compare_*; a report with tables compares afresh."""
    report_build = importlib.import_module("verify.report.build")    # (the package exports a function `build`)
    real = report_build.compare

    def compare(names=None, reg=None, **kw):
        if names is not None or kw:
            return real(names, reg=reg, **kw)
        if not _BUNDLED_COMPARISON:
            _BUNDLED_COMPARISON.append(real(reg=reg))
        return _BUNDLED_COMPARISON[0]
    patch = pytest.MonkeyPatch()
    patch.setattr(report_build, "compare", compare)
    yield
    patch.undo()
