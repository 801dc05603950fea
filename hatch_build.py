"""Build hook: compile the engine into the package (``verify/engine/native.py``) when a wheel is built.

``pip install .`` and ``pip wheel .`` build a wheel: the engine's modules are compiled by mypyc into
``verify/_compiled/`` and the wheel carries them, tagged for this platform and interpreter; its
installs play the compiled engine with nothing built or written at run time. ``pip install -e .``
compiles into the source tree's ``verify/_compiled/`` (ignored by git), which the editable install
imports from; after an edit of the engine, that install plays the readable modules (saying so)
until it is installed again or ``python -m verify.engine.native --build`` is run.

mypy (mypyc) and setuptools are build requirements only (``[build-system]`` in pyproject.toml).
A build that fails (no C compiler) is reported and gives a wheel without the compiled engine, which
plays the readable modules and says why; ``VERIFY_ENGINE_BUILD=require`` fails the build instead
(for wheels that must carry it), ``VERIFY_ENGINE_BUILD=never`` skips it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _builder(root: str):
    """``verify/engine/native.py`` of the tree being built, loaded by path (the standard library only)."""
    path = Path(root) / "verify" / "engine" / "native.py"
    spec = importlib.util.spec_from_file_location("_verify_engine_builder", path)
    assert spec is not None and spec.loader is not None
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    return builder


class CompileEngine(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        mode = os.environ.get("VERIFY_ENGINE_BUILD", "")
        if mode == "never" or self.target_name != "wheel":
            return
        builder = _builder(self.root)
        try:
            target = builder.build()
        except Exception as exc:                    # a wheel without the compiled engine still plays
            if mode == "require":
                raise
            print(f"verify: the compiled engine was not built ({exc}); this install will play the readable "
                  "engine, about 4 times slower", file=sys.stderr)
            return
        print(f"verify: compiled engine in {target}", file=sys.stderr)
        if version == "editable":
            return                                  # imported from the source tree itself
        root = Path(self.root)
        for path in builder.files(target):
            build_data["force_include"][str(path)] = path.relative_to(root).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
