"""Session set-up shared by every test module.

The compiled engine is found in the user's cache (``verify.engine.native.cache_root``), which
follows ``$HOME``. pytester (the plugin's tests) points ``$HOME`` at a temporary folder, where no
build exists: each such run would start a background build of its own (minutes of CPU, outliving
the test). The cache is pinned here, before any test changes ``$HOME``; a test that wants an empty
cache sets ``VERIFY_CACHE_DIR`` itself.

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

from verify.engine.native import cache_root

os.environ.setdefault("VERIFY_CACHE_DIR", str(cache_root()))
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

_BUNDLED_COMPARISON: list = []


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
