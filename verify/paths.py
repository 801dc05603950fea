"""Where the bundled data lives: the repository's top-level folders.

The toolkit ships its data (``rulesets/``, ``specs/``) beside the package. In
a checkout (``pip install -e .``) they are read in place; in a wheel they are
bundled under ``verify/_bundled``. ``VERIFY_HOME`` overrides both.
"""

from __future__ import annotations

import os
from pathlib import Path

_PKG = Path(__file__).resolve().parent


def home() -> Path:
    env = os.environ.get("VERIFY_HOME")
    if env:
        return Path(env)
    if not _FOUND:                 # (looked for once: a command asks for it once per file it reads)
        _FOUND.append(next((c for c in (_PKG.parent, _PKG / "_bundled") if (c / "specs" / "catalogue").is_dir()),
                           _PKG.parent))
    return _FOUND[0]


_FOUND: list[Path] = []


def specs_dir() -> Path:
    return home() / "specs"


def rulesets_dir() -> Path:
    return home() / "rulesets"


def sources_dir() -> Path:
    return rulesets_dir() / "sources"


def reference_dir() -> Path:
    return rulesets_dir() / "reference"


def schemas_dir() -> Path:
    return _PKG / "schemas"


def display(path: Path | str) -> str:
    """A path as users should see it: relative to the working directory when inside it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)
