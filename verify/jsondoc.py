"""Reading back a JSON document the toolkit wrote: a scenario file, a conformance run, a study.

Each is given as a file (or the folder holding it), must be UTF-8 JSON of an
object with the right ``schema``, and a bad one is one clear error naming the
file (and the line, for broken JSON) in the caller's own error class. The
checks of the document's own fields stay with the caller, which knows them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from .errors import Location, VerifyError


def read_doc(path: Path | str, what: str, schema: str, error: Callable[[str, Location], VerifyError],
             in_folder: str | None = None, written_by: str = "") -> tuple[dict, Location]:
    """The document at ``path`` (``path/in_folder`` when ``path`` is a folder) and where it is; ``what``
    names it in messages ("scenario file"), ``written_by`` says which command writes one."""
    path = Path(path)
    if in_folder is not None and path.is_dir():
        path = path / in_folder
    where = Location(str(path))
    hint = f"; {written_by} writes one" if written_by else ""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"no {what} here{hint}", where) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read the {what}: {exc}", where) from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"the {what} is not JSON: {exc.msg}", Location(str(path), exc.lineno)) from None
    if not isinstance(doc, dict) or doc.get("schema") != schema:
        got = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
        raise error(f"not a {what}: expected a {schema} document, got schema {got!r}{hint}",
                    Location(str(path), 1))
    return doc, where


__all__ = ["read_doc"]
