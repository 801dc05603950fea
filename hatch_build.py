"""Install hook: compile the engine (``verify/engine/native.py``) when the package is installed.

``pip install -e .`` (or building a wheel) runs this hook, so a fresh clone plays the compiled
engine from its first game. A build that fails (no C compiler, mypyc missing) never fails the
install: it is reported, and the engine plays the readable modules, saying why, until
``python -m verify.engine.native --build`` succeeds. ``VERIFY_ENGINE_BUILD=never`` skips it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompileEngine(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if os.environ.get("VERIFY_ENGINE_BUILD") == "never":
            return
        path = Path(self.root) / "verify" / "engine" / "native.py"
        try:
            spec = importlib.util.spec_from_file_location("_verify_engine_builder", path)
            assert spec is not None and spec.loader is not None
            builder = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(builder)       # the standard library only: no toolkit import here
            where = builder.build()
            print(f"verify: compiled engine ready in {where}", file=sys.stderr)
        except Exception as exc:                    # never fail an install over the fast path
            print(f"verify: the compiled engine was not built ({exc}); the engine will play the readable "
                  "modules until 'python -m verify.engine.native --build' succeeds", file=sys.stderr)
