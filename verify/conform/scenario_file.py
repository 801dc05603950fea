"""Replayable scenario files: a shrunk failing scenario as a JSON document any engine can be re-run on.

``{"schema": "verify.conform-scenario/1", "ruleset", "origin", "state", "actions", "violation",
"found": {"seed", "chunk"}}``, plus ``"set"`` when values were supplied with ``--set`` (a replay
supplies them again): the loaded state (verify.state/1), the actions after it (random
fields filled), and the violation it showed when it was saved. ``verify conform --replay FILE``
loads the state into an engine, applies the actions and checks every step again.
Files are written atomically (``verify.output``: a temporary file renamed into place).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..jsondoc import read_doc
from ..output import file_stem, write_text
from . import ConformInputError
from .harness import SCENARIO_SCHEMA


def file_name(doc: dict) -> str:
    digest = hashlib.sha256(json.dumps([doc["state"], doc["actions"]], sort_keys=True).encode()).hexdigest()[:10]
    ruleset = file_stem(Path(doc["ruleset"]).stem if doc["ruleset"].endswith((".yaml", ".yml")) else doc["ruleset"])
    return f"{ruleset}-{file_stem(doc['violation']['rule'])}-{digest}.json"


def save(doc: dict, folder: Path) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name(doc)
    write_text(path, json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    return path


def load(path: Path) -> dict:
    """Read and check a scenario file; a malformed one is E026 naming the file (and line)."""
    doc, where = read_doc(path, "scenario file", SCENARIO_SCHEMA, ConformInputError,
                          written_by="`verify conform` (on a violation)")
    for key, typ in (("ruleset", str), ("state", dict), ("actions", list)):
        if not isinstance(doc.get(key), typ):
            raise ConformInputError(f"the scenario file needs {key!r} ({typ.__name__})", where)
    if not isinstance(doc.get("set", {}), dict):
        raise ConformInputError("the scenario file's \"set\" (values supplied with --set) must be an object",
                                where)
    for i, a in enumerate(doc["actions"], 1):
        if not isinstance(a, dict) or not isinstance(a.get("type"), str):
            raise ConformInputError(f"action {i} must be an object with a \"type\"", where)
    if doc["state"].get("schema") != "verify.state/1":
        raise ConformInputError("the scenario's state is not a verify.state/1 state", where)
    return doc


__all__ = ["save", "load", "file_name"]
