"""Baselines: the deviations of an engine accepted as known, so a run becomes a regression test for CI.

In the manner of mypy's or ESLint's suppression files, known deviations are
data: ``--write-baseline FILE`` records every deviation of a run by its
signature; ``--baseline FILE`` accepts those, so the run exits 0 when only
they appear and 1 on a new one. A deviation whose signature is not in the
baseline but whose rule and action type are, while the accepted one did not
appear, is reported as **changed** (the engine now deviates there in another
way). Accepted deviations that no longer appear are listed (the baseline can
be tightened).

``{"schema": "verify.conform-baseline/1", "engine", "ruleset", "deviations":
[{"signature", "count", "note"?}]}``; ``count`` is informational (how often
the run that wrote it met the deviation) and ``note`` a free comment.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..jsondoc import read_doc
from ..output import write_text
from . import ConformInputError
from .signature import matches, parse

SCHEMA = "verify.conform-baseline/1"


@dataclass
class Baseline:
    """The accepted deviations of a baseline file."""

    path: str
    signatures: dict[str, dict] = field(default_factory=dict)     # signature -> its entry

    def accepts(self, signature: str) -> bool:
        """Whether the baseline accepts ``signature`` (itself, or a ``card *`` form of it)."""
        return signature in self.signatures or any(matches(p, signature) for p in self.signatures if "*" in p)


def load(path: Path | str) -> Baseline:
    """Read a baseline file; a malformed one is E026 naming the file."""
    doc, where = read_doc(path, "conformance baseline", SCHEMA, ConformInputError,
                          written_by="`verify conform --write-baseline FILE`")
    items = doc.get("deviations")
    if not isinstance(items, list):
        raise ConformInputError("the baseline needs \"deviations\" (a list)", where)
    out: dict[str, dict] = {}
    for i, it in enumerate(items, 1):
        if not isinstance(it, dict) or not isinstance(it.get("signature"), str) or not it["signature"]:
            raise ConformInputError(f"deviation {i} of the baseline needs a \"signature\" (a string)", where)
        out[it["signature"]] = it
    return Baseline(str(path), out)


def document(result) -> dict:
    """The baseline accepting every deviation of ``result`` (what ``--write-baseline`` writes)."""
    devs = sorted(result.deviations, key=lambda d: d["signature"])
    return {"schema": SCHEMA, "engine": result.engine, "ruleset": result.ruleset,
            "deviations": [{"signature": d["signature"], "count": d["count"]} for d in devs]}


def write(path: Path | str, result) -> None:
    """Write the baseline of ``result`` atomically (the project's output writer)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(document(result), indent=1, ensure_ascii=False) + "\n")


def compare(baseline: Baseline | None, seen: list[str]) -> tuple[dict[str, str], list[str]]:
    """For the signatures ``seen`` in a run: each new one that *changed* from an accepted one (same rule and
    action type; the accepted one not seen) with the one it replaces, and the accepted ones not seen."""
    if baseline is None:
        return {}, []
    missing = sorted(p for p in baseline.signatures if not any(matches(p, s) for s in seen))
    changed: dict[str, str] = {}
    for s in seen:
        if baseline.accepts(s):
            continue
        rule, action, _ = parse(s)
        was = [m for m in missing if parse(m)[:2] == (rule, action)]
        if was:
            changed[s] = was[0]
    return changed, missing


__all__ = ["Baseline", "load", "document", "write", "compare", "SCHEMA"]
