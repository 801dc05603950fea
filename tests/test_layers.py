"""The layers of the package hold, and every import inside a function says why it is there.

The layer order is declared once, in ``pyproject.toml`` (``[tool.importlinter]``), and explained in
docs/architecture.md: a module imports only from layers below its own, top-level or inside a function.
An import inside a function is allowed only where it defers something heavy that the importing module
does not load anyway (``HEAVY``: z3, hypothesis, jinja2, rich, dask...), directly or through the
module it imports, or where ``ALLOWED`` gives the reason. Anything else is either a back-edge in
disguise (the contract catches it now that it is visible) or an import that belongs at the top.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Third-party and standard modules worth deferring, with what they cost or why they may be missing.
HEAVY = {
    "z3": "the solver, ~20 ms and a native library",
    "hypothesis": "~120 ms",
    "jinja2": "~35 ms, only for pages",
    "rich": "~25 ms, only for terminal tables and bars",
    "click": "~16 ms, the command line's framework: not loaded by workers or library use",
    "dask": "optional (the dask extra)",
    "distributed": "optional (the dask extra)",
    "numpy": "optional (GNOME's adapter)",
    "monopoly_simulator": "optional (GNOME, installed for the conformance adapter)",
    "playwright": "optional (the browser extra)",
    "cvc5": "optional (the cvc5 extra)",
    "multiprocessing": "~6 ms, only where a process is started",
    "concurrent.futures.process": "~15 ms, only where a process pool is started",
    "importlib.metadata": "~14 ms, only for a version string",
    "logging": "~5 ms, only to quiet dask's loggers",
}

#: (importing module, imported module) -> why the import is inside a function although it defers nothing
#: heavy. "*" stands for any imported module.
ALLOWED = {
    ("verify.config.model", "verify.config.from_ruleset"):
        "EngineConfig.from_ruleset: the compiler builds EngineConfig objects, so it imports this module",
    ("verify.config.model", "verify.config.from_json"):
        "EngineConfig.from_json: the reader builds EngineConfig objects, so it imports this module",
    ("verify.engine.bound", "verify.engine.loop"):
        "the game loop calls the step API, which builds engines with this module: the readable loop is "
        "imported when the readable code is first asked for",
    ("verify.engine.engines", "verify.engine.native"):
        "the builder runs as `python -m verify.engine.native`: imported by the package at its import, runpy "
        "would load it twice (and warn)",
    ("verify.engine.campaign", "verify.engine.trace"):
        "the invariants' evaluators (expr, invariant_code, incremental) load only for a checked run: a run "
        "without checks starts sooner (a one-game `verify simulate`)",
    ("verify.commands.simulate", "verify.engine.trace"):
        "the invariants' evaluators and the trace writer load only for a traced or checked run: a run "
        "without them starts sooner (a one-game `verify simulate`)",
    ("verify.engine.native", "subprocess"):
        "only building starts the compiler; every command that plays loads this module to find the build, "
        "and a one-game `verify simulate` is mostly start-up",
    ("verify.engine.native", "argparse"):
        "only `python -m verify.engine.native` parses a command line; a command that plays loads this module",
    ("verify.conform.plugin", "*"):
        "a pytest11 entry point, loaded by every pytest run where the toolkit is installed: it imports the "
        "harness only when a conformance test runs",
}


def _lint_imports(root: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(root))
    code = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True, no_logo=True))"
    return subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)


def test_the_layer_contract_holds():
    run = _lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 kept, 0 broken" in run.stdout


def test_the_layer_contract_catches_a_back_edge(tmp_path):
    """The same contract over a copy of the package in which the spec stage reads a command's option."""
    shutil.copytree(ROOT / "verify", tmp_path / "verify", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    assert _lint_imports(tmp_path).returncode == 0
    target = tmp_path / "verify" / "spec" / "catalogue.py"
    target.write_text(target.read_text() + "\n\ndef _back():\n    from ..commands import options\n    return options\n")
    run = _lint_imports(tmp_path)
    assert run.returncode != 0
    assert "verify.spec is not allowed to import verify.commands" in run.stdout
    assert "verify.spec.catalogue -> verify.commands.options" in run.stdout


# ---- imports inside functions ------------------------------------------------------------------------

def _module_name(package: Path, path: Path) -> str:
    parts = (package.name,) + path.relative_to(package).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(module: str, is_package: bool, node: ast.AST, known: set[str]) -> list[str]:
    """The modules an import statement loads (for ``from x import y``, ``x`` and ``x.y`` when a module)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    return [source] + [f"{source}.{a.name}" for a in node.names if f"{source}.{a.name}" in known]


def _imports(node: ast.AST, in_function: bool = False):
    """Every import statement under ``node``, and whether it is inside a function."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield from _imports(child, True)
        elif isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child, in_function
        else:
            yield from _imports(child, in_function)


def import_table(package: Path) -> tuple[dict[str, set[str]], list[tuple[str, int, list[str]]]]:
    """Each module's top-level imports, and every import inside a function: (module, line, modules)."""
    files = {_module_name(package, p): p for p in package.rglob("*.py")}
    known = set(files)
    top: dict[str, set[str]] = {}
    inner: list[tuple[str, int, list[str]]] = []
    for module, path in files.items():
        top[module] = set()
        for node, in_function in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            names = _imported(module, path.name == "__init__.py", node, known)
            if in_function:
                inner.append((module, node.lineno, names))
            else:
                top[module].update(names)
    return top, inner


def _loads(module: str, top: dict[str, set[str]], seen: set[str]) -> set[str]:
    """Every module importing ``module`` loads (its packages' ``__init__`` included), from top-level imports."""
    parts = module.split(".")
    for i in range(1, len(parts) + 1):
        name = ".".join(parts[:i])
        if name not in seen:
            seen.add(name)
            for target in top.get(name, ()):
                _loads(target, top, seen)
    return seen


def _heavy(modules: set[str]) -> set[str]:
    return {h for h in HEAVY for m in modules if m == h or m.startswith(h + ".")}


def unjustified(package: Path) -> list[str]:
    """The imports inside functions that defer nothing heavy and are not in ``ALLOWED``."""
    top, inner = import_table(package)
    out = []
    for module, line, names in inner:
        if any((module, n) in ALLOWED for n in names + ["*"]):
            continue
        already = _heavy(_loads(module, top, set()))
        deferred = set().union(*(_heavy(_loads(n, top, set())) for n in names)) - already
        if not deferred:
            out.append(f"{module}:{line} imports {names[-1]} inside a function, deferring nothing heavy")
    return sorted(out)


def test_imports_inside_functions_defer_something_heavy():
    assert unjustified(ROOT / "verify") == []


def test_an_import_inside_a_function_that_defers_nothing_is_named(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "light.py").write_text("import json\n")
    (pkg / "solver.py").write_text("import z3\n")
    (pkg / "uses.py").write_text("import z3\n\ndef f():\n    from . import solver\n")
    (pkg / "user.py").write_text(
        "def f():\n    from . import light\n\ndef g():\n    from .solver import x\n\ndef h():\n    import hypothesis\n")
    assert unjustified(pkg) == ["pkg.user:2 imports pkg.light inside a function, deferring nothing heavy",
                                "pkg.uses:4 imports pkg.solver inside a function, deferring nothing heavy"]
