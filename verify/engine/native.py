"""The compiled engine: the engine's own source files compiled by mypyc into the package, at build time.

The rules are written once, in ``verify/engine/rules/`` (with the state, the tables, the bots
and the game loop beside them). This module compiles exactly those files (``MODULES``),
unchanged but for their imports, into C extensions with mypyc: the type annotations they carry
become native types (the game state and the tables are native classes, a call from one rule to
another is a C call). The extensions are the package ``verify._compiled`` (``verify/_compiled/``),
beside the readable modules, which stay importable: the tests play both and compare.

When it is built: never while the toolkit runs. Building a wheel (``pip install .``, ``pip wheel
.``) or an editable install (``pip install -e .``) runs ``hatch_build.py``, which calls
``build()``; a wheel then carries the extensions and is tagged for its platform. By hand:
``python -m verify.engine.native --build`` (a source checkout without an install, or after
editing the engine). mypy (mypyc) and setuptools are build requirements only.

Which source a build is of: ``verify/_compiled/BUILD.json`` records the ``key()`` of the source it
was compiled from (a hash of the compiled files, the toolkit modules they import, this builder and
the interpreter's ABI). ``modules()`` loads the build only when that key is the key of the source
now beside it: after an edit of the engine, an editable install plays the readable modules (and
``verify.engine.engines`` says so once per process) until it is built again.

This file is also run by the build hook outside the installed package, so it imports only the
standard library at module level.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.machinery
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# (``subprocess`` and ``argparse``, which only building needs, are imported where it builds: every command
# that plays loads this module, and a one-game run is mostly start-up)

#: the modules compiled (relative to ``verify``): the config's model and tables (so that the rules read the
#: config's values and the tables derived from them as native attributes), the engine's state, rules, bots
#: and game loop, and what a checked game runs after every action (the state's slices, the invariants'
#: incremental bookkeeping)
MODULES = ("config.board", "config.model", "config.tables", "engine.state", "engine.rules.common",
           "engine.rules.base", "engine.rules.cards", "engine.rules.construction", "engine.rules.movement",
           "engine.rules.flow", "engine.rules.auctions", "engine.rules.building", "engine.rules.mortgages",
           "engine.rules.trades", "engine.rules.debts", "engine.rules.turns", "engine.rules.extras", "engine.rules",
           "engine.policies", "engine.screen_predicates", "engine.screen", "engine.loop", "incremental",
           "engine.slices")
#: what a build is made of, bumped when the way of building changes
BUILDER_VERSION = "2"
PACKAGE_DIR = Path(__file__).resolve().parent.parent
ROOT = PACKAGE_DIR.parent
#: the compiled package: its name (fixed in the extensions) and its folder
PACKAGE = "verify._compiled"
TARGET = PACKAGE_DIR / "_compiled"
#: the build's record: the key of the source it was compiled from (or why it failed)
RECORD = "BUILD.json"
BUILD_ENV = "VERIFY_ENGINE_BUILD"


class Unavailable(Exception):
    """No compiled engine of the current source can be loaded (why, in words)."""


# ---------------------------------------------------------------------------- what a build is of
def _file(module: str) -> Path:
    rel = module.replace(".", "/")
    path = PACKAGE_DIR / (rel + ".py")
    return path if path.exists() else PACKAGE_DIR / rel / "__init__.py"


def _is_package(module: str) -> bool:
    return _file(module).name == "__init__.py"


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The absolute name a relative import of ``verify.<module>`` refers to."""
    parts = ("verify." + module).split(".")
    package = parts if _is_package(module) else parts[:-1]
    base = package[:len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str) -> list[tuple[int, str]]:
    """(line, absolute module) of every relative import of a compiled module."""
    tree = ast.parse(_file(module).read_text(encoding="utf-8"))
    return [(node.lineno, _absolute(module, node)) for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level]


#: a relative import, as the key reads it: by a pattern, not a parse (a process computes the key at start-up; a
#: line it takes wrongly for an import only adds a file to what the key hashes)
_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.+)([\w.]*)[ \t]+import\b", re.M)


def _targets(module: str) -> list[str]:
    """The absolute modules the relative imports of ``verify.<module>`` name (see ``_IMPORT``)."""
    parts = ("verify." + module).split(".")
    package = parts if _is_package(module) else parts[:-1]
    out = []
    for dots, name in _IMPORT.findall(_file(module).read_text(encoding="utf-8")):
        base = package[:len(package) - (len(dots) - 1)]
        out.append(".".join(base + ([name] if name else [])))
    return out


def _inputs() -> list[Path]:
    """The files a build depends on: the compiled modules, the toolkit modules they import, this file."""
    files = {_file(m) for m in MODULES}
    for target in sorted({t for m in MODULES for t in _targets(m)}):       # (each module named once)
        if target.startswith("verify."):
            rel = target[len("verify."):].replace(".", "/")
            for cand in (PACKAGE_DIR / (rel + ".py"), PACKAGE_DIR / rel / "__init__.py"):
                if cand.exists():
                    files.add(cand)
                    break
    files.add(Path(__file__).resolve())
    return sorted(files)


_KEY: list[str] = []


def key() -> str:
    """The key of the current source: its inputs' content, the builder's version and the interpreter's ABI
    (computed once per process)."""
    if not _KEY:
        h = hashlib.sha256()
        h.update(f"{BUILDER_VERSION}|{sys.implementation.cache_tag}|{_ext()}"
                 .encode())
        for path in _inputs():
            h.update(str(path.relative_to(PACKAGE_DIR)).encode() + b"\0" + path.read_bytes() + b"\0")
        _KEY.append(h.hexdigest()[:16])
    return _KEY[0]


def record(target: Path = TARGET) -> dict | None:
    """The build's record in ``target`` (None when there is none)."""
    try:
        return json.loads((target / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def built(target: Path = TARGET) -> bool:
    """Whether ``target`` holds a finished build of the current source."""
    doc = record(target)
    return doc is not None and doc.get("key") == key() and not doc.get("error")


# ---------------------------------------------------------------------------- building
def _rewrite(module: str) -> str:
    """The module's source with its relative imports made absolute: into ``verify._compiled`` for a compiled
    module, into ``verify`` for the others. Lines are kept, so tracebacks point at the rules."""
    lines = _file(module).read_text(encoding="utf-8").splitlines(True)
    for lineno, target in _imports(module):
        rel = target[len("verify."):] if target.startswith("verify.") else None
        new = f"{PACKAGE}.{rel}" if rel is not None and rel in MODULES else target
        lines[lineno - 1] = re.sub(r"from\s+\.+[\w.]*\s+import", f"from {new} import", lines[lineno - 1], count=1)
    return "".join(lines)


#: the compiler's run: one group, whose shared library lies inside the package (``verify/_compiled/lib__mypyc``)
_SETUP = r"""
import sys
from setuptools import setup
from mypyc.build import mypycify
files = sys.argv[1:]
setup(name="verify-engine-native", script_args=["build_ext", "--inplace"],
      ext_modules=mypycify(["--follow-imports=silent", "--ignore-missing-imports", "--python-version",
                            "%d.%d" % sys.version_info[:2], *files], opt_level="3", debug_level="0",
                           group_name="verify._compiled.lib"))
"""

_DOC = '"""The compiled engine: verify/engine/native.py compiled these from the readable modules (key {key})."""\n'


def build(force: bool = False, quiet: bool = False, target: Path = TARGET) -> Path:
    """Compile the current source into ``target`` (unless it holds a build of it already); ``target``.

    The modules are compiled in a temporary copy of the package and moved into ``target`` once built, so
    a failed or stopped build leaves the previous one as it was. Raises ``Unavailable`` (with the end of
    the compiler's log) when the build fails."""
    import subprocess
    k = key()
    if built(target) and not force:
        return target
    with tempfile.TemporaryDirectory(prefix="verify-engine-build-") as tmp:
        work = Path(tmp)
        shutil.copytree(PACKAGE_DIR, work / "verify", ignore=shutil.ignore_patterns(
            "__pycache__", "_compiled", "_compiled.*", "_bundled", "*.so"))
        pkg = work / "verify" / "_compiled"
        files = []
        for m in MODULES:
            rel = m.replace(".", "/")
            dst = pkg / (rel + "/__init__.py" if _is_package(m) else rel + ".py")
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_text(_rewrite(m), encoding="utf-8")
            files.append(str(dst.relative_to(work)))
        for folder in sorted({dst.parent for dst in pkg.rglob("*.py")}):
            init = folder / "__init__.py"
            while not init.exists() and init.parent != pkg.parent:     # a package not compiled: empty
                init.write_text("", encoding="utf-8")
                init = init.parent.parent / "__init__.py"
        (pkg / "__init__.py").write_text(_DOC.format(key=k), encoding="utf-8")
        # the copy's modules, then where this interpreter finds mypyc (a build hook's isolated environment puts
        # it on sys.path, not in the interpreter's own site-packages); never the tree built from
        path = [str(work), *(p for p in sys.path if p and Path(p).resolve() != ROOT)]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), MYPY_CACHE_DIR=str(work / ".mypy_cache"))
        env.pop("MYPYPATH", None)
        if not quiet:
            print(f"verify: compiling the engine with mypyc into {target} (a minute or two of one core)",
                  file=sys.stderr, flush=True)
        t0 = time.monotonic()
        log = work / "build.log"
        with open(log, "w", encoding="utf-8") as out:
            done = subprocess.run([sys.executable, "-c", _SETUP, *files], cwd=work, env=env, stdout=out,
                                  stderr=subprocess.STDOUT)
        if done.returncode != 0:
            tail = "".join(log.read_text(encoding="utf-8", errors="replace").splitlines(True)[-15:])
            raise Unavailable(f"compiling the engine failed (exit {done.returncode}):\n{tail}")
        new = target.with_name(target.name + ".new")
        shutil.rmtree(new, ignore_errors=True)
        for src in pkg.rglob("*"):
            if src.suffix == ".so" or src.suffix == ".pyd" or (src.name == "__init__.py" and not
                                                                 (src.parent / ("__init__" + _ext())).exists()):
                dst = new / src.relative_to(pkg)
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)
        doc = {"key": k, "python": sys.version.split()[0], "seconds": round(time.monotonic() - t0, 1),
               "modules": list(MODULES)}
        (new / RECORD).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        old = target.with_name(target.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if target.exists():
            target.rename(old)
        new.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    return target


def _ext() -> str:
    """The file suffix of this interpreter's extension modules (sysconfig's ``EXT_SUFFIX``, without loading
    sysconfig's data)."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def files(target: Path = TARGET) -> list[Path]:
    """The files of the build in ``target`` (what a wheel carries)."""
    return sorted(p for p in target.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


# ---------------------------------------------------------------------------- loading
_LOADED: dict[str, Any] = {}


def modules() -> dict[str, Any]:
    """The compiled modules of the current source, by their name in ``MODULES``. Raises ``Unavailable``
    (saying why and how to build it) when this install holds no build of the current source. Never
    builds: building is the install's (or ``--build``'s) business."""
    if "loaded" in _LOADED:
        return _LOADED["loaded"]
    doc = record()
    how = "python -m verify.engine.native --build (or pip install -e . again) builds it"
    if doc is None:
        raise Unavailable(f"this install has no compiled engine ({TARGET} holds none); {how}")
    if doc.get("error"):
        raise Unavailable(f"its build failed when the package was built ({doc['error']}); {how}")
    if doc.get("key") != key():
        raise Unavailable(f"the one in {TARGET} was built from another version of the engine's source (a file "
                          f"changed since); {how}")
    try:
        loaded = {m: importlib.import_module(f"{PACKAGE}.{m}") for m in MODULES}
    except ImportError as exc:
        raise Unavailable(f"the build in {TARGET} does not load: {exc}; {how}") from None
    _LOADED["loaded"] = loaded
    return loaded


def status() -> dict:
    doc = record()
    return {"key": key(), "folder": str(TARGET), "built": built(), "record": doc}


def main(argv: list[str] | None = None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m verify.engine.native", description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="store_true", help="compile the engine of the current source into the package")
    ap.add_argument("--force", action="store_true", help="with --build: build again even when built")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.build:
        try:
            build(force=args.force)
        except Unavailable as exc:
            print(f"verify: {exc}", file=sys.stderr)
            return 1
    doc = status()
    if args.json:
        print(json.dumps(doc))
    else:
        rec = doc["record"] or {}
        state = ("built" if doc["built"] else "built from another source" if rec.get("key") and not rec.get("error")
                 else "failed: " + rec["error"] if rec.get("error") else "not built")
        print(f"compiled engine of this source (key {doc['key']}): {state} ({doc['folder']})")
    return 0 if doc["built"] else 1


if __name__ == "__main__":
    sys.exit(main())
