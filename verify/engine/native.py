"""The compiled engine: the engine's own source files compiled by mypyc, built once per source.

The rules are written once, in ``verify/engine/rules/`` (with the state, the tables, the bots
and the game loop beside them). This module compiles exactly those files, unchanged but for
their imports, into C extensions with mypyc (the type annotations they carry become native
types: the game state and the tables are native classes, a call from one rule to another is a
C call). The build is a package of its own, ``_verify_engine_<key>``, in a cache folder named
by ``key``: a hash of the compiled files, of the modules they import from the rest of the
toolkit, of this builder and of the interpreter. A changed rule has another key, so a stale
build is never loaded; the readable modules stay importable beside the compiled ones (the
tests play both and compare).

When it is built:

* at install: ``pip install -e .`` runs ``hatch_build.py``, which calls ``build()``;
* on first use, when no build of the current source exists (``modules()``): in a process of its
  own, in the background (one to three minutes of one core), said on stderr; the runs meanwhile play
  the readable modules. A failed build is remembered (its log in the cache), and the engine runs the
  readable modules, saying why, until ``python -m verify.engine.native --build`` succeeds;
* explicitly: ``python -m verify.engine.native --build [--force]``; without ``--build`` it reports
  the state of the build (``--json``).

The cache is ``$VERIFY_CACHE_DIR/engine`` (default ``$XDG_CACHE_HOME/monopoly-verify`` or
``~/.cache/monopoly-verify``). ``VERIFY_ENGINE=readable`` never loads a build;
``VERIFY_ENGINE_BUILD=never`` loads an existing build but never starts one, ``wait`` builds on
first use in the foreground (``VERIFY_ENGINE=compiled`` also waits for it).

This file is also run by the install hook outside the installed package, so it imports only
the standard library at module level.
"""

from __future__ import annotations

import argparse
import ast
import fcntl
import hashlib
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

#: the modules compiled (relative to ``verify``): the config's model and tables (so that the rules read the
#: config's values and the tables derived from them as native attributes), the engine's state, rules, bots
#: and game loop, and what a checked game runs after every action (the state's slices, the invariants'
#: incremental bookkeeping)
MODULES = ("config.board", "config.model", "config.tables", "engine.state", "engine.rules.common",
           "engine.rules.base", "engine.rules.flow", "engine.rules.movement", "engine.rules.cards",
           "engine.rules.auctions", "engine.rules.building", "engine.rules.mortgages", "engine.rules.trades",
           "engine.rules.debts", "engine.rules.extras", "engine.rules", "engine.policies", "engine.loop",
           "incremental", "engine.slices")
#: what a build is made of, bumped when the way of building changes
BUILDER_VERSION = "1"
PACKAGE_DIR = Path(__file__).resolve().parent.parent
ROOT = PACKAGE_DIR.parent
BUILD_ENV = "VERIFY_ENGINE_BUILD"


class Unavailable(Exception):
    """No compiled engine can be loaded (why, in words)."""


# ---------------------------------------------------------------------------- where and what
def cache_root() -> Path:
    env = os.environ.get("VERIFY_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "monopoly-verify"


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
    for m in MODULES:
        for target in _targets(m):
            rel = target[len("verify."):].replace(".", "/") if target.startswith("verify.") else None
            if rel is None:
                continue
            for cand in (ROOT / "verify" / (rel + ".py"), ROOT / "verify" / rel / "__init__.py"):
                if cand.exists():
                    files.add(cand)
                    break
    files.add(Path(__file__).resolve())
    return sorted(files)


_KEY: list[str] = []


def key() -> str:
    """The build's key: its inputs' content, the builder's version and the interpreter's ABI (computed once
    per process)."""
    if not _KEY:
        _KEY.append(_key())
    return _KEY[0]


def _key() -> str:
    h = hashlib.sha256()
    h.update(f"{BUILDER_VERSION}|{sys.implementation.cache_tag}|{sysconfig.get_config_var('EXT_SUFFIX')}".encode())
    for path in _inputs():
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def package(k: str) -> str:
    return f"_verify_engine_{k}"


def build_dir(k: str | None = None) -> Path:
    return cache_root() / "engine" / (k or key())


# ---------------------------------------------------------------------------- building
def _rewrite(module: str, pkg: str) -> str:
    """The module's source with its relative imports made absolute: into the build's package for a
    compiled module, into ``verify`` for the others. Lines are kept, so tracebacks point at the rules."""
    lines = _file(module).read_text(encoding="utf-8").splitlines(True)
    for lineno, target in _imports(module):
        rel = target[len("verify."):] if target.startswith("verify.") else None
        if rel is not None and rel in MODULES:
            new = f"{pkg}.{rel}"
        else:
            new = target
        lines[lineno - 1] = re.sub(r"from\s+\.+[\w.]*\s+import", f"from {new} import", lines[lineno - 1], count=1)
    return "".join(lines)


_SETUP = r"""
import sys
from setuptools import setup
from mypyc.build import mypycify
files = sys.argv[1:]
setup(name="verify-engine-native", script_args=["build_ext", "--inplace"],
      ext_modules=mypycify(["--follow-imports=silent", "--ignore-missing-imports", "--python-version",
                            "%d.%d" % sys.version_info[:2], *files], opt_level="3", debug_level="0"))
"""


def build(force: bool = False, quiet: bool = False) -> Path:
    """Build the compiled engine of the current source (unless it is built); its folder. Raises
    ``Unavailable`` (with the log's place) when the build fails."""
    k = key()
    final = build_dir(k)
    if (final / "ok").exists() and not force:
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    with open(final.parent / f"{k}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)           # another process may be building the same key
        if (final / "ok").exists() and not force:
            return final
        failed = final.parent / f"{k}.failed"
        for leftover in final.parent.glob(f"{k}.*/"):      # a build of this key killed midway (we hold the lock)
            shutil.rmtree(leftover, ignore_errors=True)
        work = Path(tempfile.mkdtemp(prefix=f"{k}.", dir=final.parent))
        try:
            pkg = package(k)
            files = []
            for m in MODULES:
                rel = m.replace(".", "/")
                dst = work / pkg / (rel + "/__init__.py" if _is_package(m) else rel + ".py")
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_text(_rewrite(m, pkg), encoding="utf-8")
                files.append(str(dst.relative_to(work)))
            for folder in sorted({Path(f).parent for f in files}):
                init = work / folder / "__init__.py"
                while not init.exists() and init.parent != work:      # a package not compiled: empty
                    init.write_text("", encoding="utf-8")
                    init = init.parent.parent / "__init__.py"
            (work / pkg / "__init__.py").write_text(
                f'"""The compiled engine (built by verify.engine.native from verify/, key {k})."""\n',
                encoding="utf-8")
            # the build's modules, the toolkit, and where this interpreter finds mypyc (an install's isolated
            # build environment puts it on sys.path, not in the interpreter's own site-packages)
            path = [str(work), str(ROOT), *os.environ.get("PYTHONPATH", "").split(os.pathsep), *sys.path]
            env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in path if p), MYPYPATH=str(ROOT),
                       MYPY_CACHE_DIR=str(work / ".mypy_cache"))
            if not quiet:
                print(f"verify: compiling the engine with mypyc (once per change of its source; about a "
                      f"minute or two) into {final}", file=sys.stderr, flush=True)
            t0 = time.monotonic()
            with open(work / "build.log", "w", encoding="utf-8") as log:
                done = subprocess.run([sys.executable, "-c", _SETUP, *files], cwd=work, env=env, stdout=log,
                                      stderr=subprocess.STDOUT)
            if done.returncode != 0:
                failed.write_text((work / "build.log").read_text(encoding="utf-8", errors="replace"),
                                  encoding="utf-8")
                raise Unavailable(f"compiling the engine failed (log: {failed})")
            shutil.rmtree(work / "build", ignore_errors=True)
            shutil.rmtree(work / ".mypy_cache", ignore_errors=True)
            for src in (work / pkg).rglob("*.c"):
                src.unlink()
            (work / "ok").write_text(json.dumps({"key": k, "seconds": round(time.monotonic() - t0, 1),
                                                 "python": sys.version.split()[0]}) + "\n", encoding="utf-8")
            if final.exists():
                shutil.rmtree(final)
            work.rename(final)
            failed.unlink(missing_ok=True)
            prune(keep=k)
            return final
        finally:
            if work.exists():
                shutil.rmtree(work, ignore_errors=True)


#: a build of another source not loaded for this long is removed when a new one is made
STALE_SECONDS = 7 * 24 * 3600


def prune(keep: str) -> list[Path]:
    """Remove the builds of other sources not loaded for ``STALE_SECONDS`` (each load touches its ``ok``)."""
    gone = []
    now = time.time()
    for ok in (cache_root() / "engine").glob("*/ok"):
        folder = ok.parent
        if folder.name != keep and now - ok.stat().st_mtime > STALE_SECONDS:
            shutil.rmtree(folder, ignore_errors=True)
            (folder.parent / f"{folder.name}.lock").unlink(missing_ok=True)
            gone.append(folder)
    return gone


# ---------------------------------------------------------------------------- loading
_LOADED: dict[str, Any] = {}


def modules(wait: bool = False) -> dict[str, Any]:
    """The compiled modules of the current source, by their name in ``MODULES``. Raises ``Unavailable``
    when there is no build of this source: ``wait`` builds it first (waiting for a build in progress);
    otherwise a build is started in the background (unless ``VERIFY_ENGINE_BUILD`` says ``never`` or
    ``wait``, or the last build of this source failed) and this process plays without it."""
    k = key()
    if k in _LOADED:
        return _LOADED[k]
    where = build_dir(k)
    if not (where / "ok").exists():
        failed = where.parent / f"{k}.failed"
        mode = os.environ.get(BUILD_ENV) or "background"
        if wait or mode == "wait":
            build()
        else:
            if failed.exists():
                raise Unavailable(f"the last build of this source failed (log: {failed}); "
                                  "build it with: python -m verify.engine.native --build")
            if mode == "never":
                raise Unavailable("no build of the current source; build it with: python -m verify.engine.native "
                                  "--build")
            raise Unavailable(f"it is being compiled in the background ({start_background(k)}); "
                              "the next runs play it")
    if str(where) not in sys.path:
        sys.path.append(str(where))
    pkg = package(k)
    try:
        loaded = {m: importlib.import_module(f"{pkg}.{m}") for m in MODULES}
    except ImportError as exc:
        raise Unavailable(f"the build in {where} does not load: {exc}") from None
    _LOADED[k] = loaded
    try:
        os.utime(where / "ok")       # in use: not stale
    except OSError:
        pass
    return loaded


def building(k: str) -> bool:
    """Whether a build of key ``k`` is in progress (its lock is held)."""
    path = cache_root() / "engine" / f"{k}.lock"
    if not path.exists():
        return False
    with open(path) as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        fcntl.flock(lock, fcntl.LOCK_UN)
    return False


def start_background(k: str) -> str:
    """Start a build of the current source in a process of its own (it outlives the caller, which may be
    a short-lived or time-limited engine process), unless one is in progress; where its log goes."""
    log = cache_root() / "engine" / f"{k}.log"
    if not building(k):
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "w", encoding="utf-8") as out:
            subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--build"], stdin=subprocess.DEVNULL,
                             stdout=out, stderr=subprocess.STDOUT, start_new_session=True, close_fds=True)
    return f"log: {log}"


def status() -> dict:
    k = key()
    where = build_dir(k)
    ok = where / "ok"
    failed = where.parent / f"{k}.failed"
    return {"key": k, "folder": str(where), "built": ok.exists(),
            "failed_log": str(failed) if failed.exists() else None,
            "build": json.loads(ok.read_text(encoding="utf-8")) if ok.exists() else None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m verify.engine.native", description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="store_true", help="build the compiled engine of the current source")
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
        print(f"compiled engine {doc['key']}: {'built' if doc['built'] else 'not built'} ({doc['folder']})"
              + (f"; last build failed: {doc['failed_log']}" if doc["failed_log"] else ""))
    return 0 if doc["built"] else 1


if __name__ == "__main__":
    sys.exit(main())
