"""Baselines: the causes of an engine's deviations accepted as known, so a run becomes a regression test for CI.

In the manner of mypy's or ESLint's suppression files, known deviations are
data: ``--write-baseline FILE`` records every cause of a run (``cause.py``);
``--baseline FILE`` accepts those, so a run exits 0 when only they appear,
with any seed or number of scenarios, and 1 when a cause appears that the
baseline lacks (**new**) or an accepted cause shows another effect: the same
link, other fields or other directions (**changed**). Accepted causes that a
run did not meet are listed (``--prune-baseline`` drops them from the file).

``{"schema": "verify.conform-baseline/2", "engine", "ruleset", "causes":
[{"cause", "count", "contexts", "note"?}]}``: ``cause`` is the cause's text
(its identity, stable across toolkit versions of this schema); ``count`` and
``contexts`` are informational (how often, and where, the run that wrote it
met the cause); ``note`` is a free comment, kept when the baseline is written
again. A baseline of deviation signatures (``verify.conform-baseline/1``,
written by earlier versions) is refused with the command that writes it
again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Location
from ..jsondoc import read_doc
from ..output import write_text
from . import ConformInputError
from .cause import identity
from .signature import matches

SCHEMA = "verify.conform-baseline/2"
#: The signature-keyed baselines of earlier versions.
OLD_SCHEMAS = ("verify.conform-baseline/1",)
WRITTEN_BY = "`verify conform ... --write-baseline FILE`"


@dataclass
class Baseline:
    """The accepted causes of a baseline file."""

    path: str
    causes: dict[str, dict] = field(default_factory=dict)     # cause -> its entry

    def accepts(self, cause: str) -> bool:
        """Whether the baseline accepts ``cause`` (itself, or a ``card *`` form of it)."""
        return cause in self.causes or any(matches(p, cause) for p in self.causes if "*" in p)

    def changed_from(self, cause: str) -> str | None:
        """The accepted cause of the same link whose effect ``cause`` changes (None: none, or accepted)."""
        if self.accepts(cause):
            return None
        ident = identity(cause)
        if ident == cause:
            return None
        return next((c for c in sorted(self.causes) if identity(c) == ident), None)


def load(path: Path | str) -> Baseline:
    """Read a baseline file; a malformed one is E026 naming the file (one line)."""
    path = Path(path)
    try:
        doc, where = read_doc(path, "conformance baseline", SCHEMA, ConformInputError, written_by=WRITTEN_BY)
    except ConformInputError as exc:
        if _old(path):
            raise ConformInputError(
                "a baseline of deviation signatures (verify.conform-baseline/1), which this version no longer "
                f"reads: write it again from a run of the engine with {WRITTEN_BY.replace('FILE', str(path))}",
                Location(str(path), 1)) from None
        raise exc from None
    items = doc.get("causes")
    if not isinstance(items, list):
        raise ConformInputError("the baseline needs \"causes\" (a list)", where)
    out: dict[str, dict] = {}
    for i, it in enumerate(items, 1):
        if not isinstance(it, dict) or not isinstance(it.get("cause"), str) or not it["cause"]:
            raise ConformInputError(f"cause {i} of the baseline needs a \"cause\" (a string)", where)
        out[it["cause"]] = it
    return Baseline(str(path), out)


def _old(path: Path) -> bool:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("schema") in OLD_SCHEMAS
    except (OSError, ValueError, AttributeError):
        return False


def document(result, keep: Baseline | None = None) -> dict:
    """The baseline accepting every cause of ``result`` (what ``--write-baseline`` writes); the notes of
    ``keep`` (the file written over) stay with their causes."""
    notes = {c: it["note"] for c, it in (keep.causes.items() if keep else ()) if it.get("note")}
    causes = []
    for d in sorted(result.deviations, key=lambda d: d["signature"]):
        item = {"cause": d["signature"], "count": d["count"], "contexts": list(d.get("contexts") or {})}
        if d["signature"] in notes:
            item["note"] = notes[d["signature"]]
        causes.append(item)
    return {"schema": SCHEMA, "engine": result.engine, "ruleset": result.ruleset, "causes": causes}


def write(path: Path | str, result) -> int:
    """Write the baseline of ``result`` atomically (the project's output writer); the causes recorded."""
    path = Path(path)
    old = None
    if path.is_file():
        try:
            old = load(path)
        except ConformInputError:
            old = None
    doc = document(result, old)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    return len(doc["causes"])


def prune(baseline: Baseline, seen: list[str]) -> int:
    """Drop from the baseline's file the accepted causes ``seen`` does not hold; how many were dropped."""
    path = Path(baseline.path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    kept = [it for it in doc["causes"] if any(matches(it["cause"], s) for s in seen)]
    dropped = len(doc["causes"]) - len(kept)
    if dropped:
        write_text(path, json.dumps(dict(doc, causes=kept), indent=1, ensure_ascii=False) + "\n")
    return dropped


def compare(baseline: Baseline | None, seen: list[str]) -> tuple[dict[str, str], list[str]]:
    """For the causes ``seen`` in a run: each one that *changed* from an accepted one (the same link, another
    effect) with the accepted one, and the accepted causes not seen."""
    if baseline is None:
        return {}, []
    missing = sorted(p for p in baseline.causes if not any(matches(p, s) for s in seen))
    changed = {}
    for s in seen:
        was = baseline.changed_from(s)
        if was is not None:
            changed[s] = was
    return changed, missing


__all__ = ["Baseline", "load", "document", "write", "prune", "compare", "SCHEMA"]
