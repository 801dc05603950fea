"""All checks on ruleset files: structure, quotes, resolution and constraints.

``lint`` collects every problem instead of stopping at the first, so a user
fixing a file sees the whole list at once; each problem names file and line.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import SpecError, VerifyError
from .applicability import unfounded_marks
from .constraints import broken_at, check_constraints, setters
from .invariants import invariant_ids
from .registry import Registry
from .silence import contradicting_silences


def lint(paths: list[Path] | None = None) -> tuple[list[str], list[VerifyError]]:
    """Lint the bundled rulesets, or only ``paths`` (resolved against the bundled ones).

    Returns the ruleset ids checked and the problems found.
    """
    reg = Registry.load(extra=paths, strict=False)
    errors: list[VerifyError] = list(reg.errors)
    if paths:
        wanted = {str(Path(p).resolve()) for p in paths}
        ids = [f.id for f in reg.files.values() if str(f.path.resolve()) in wanted]
    else:
        ids = reg.ids()
    invariants = set(invariant_ids())
    for rid in ids:
        f = reg.files[rid]
        try:
            r = reg.resolve(rid)
        except VerifyError as exc:
            errors.append(exc)
            continue
        for inv in f.promises:
            if inv not in invariants:
                errors.append(SpecError("E013", f"{rid} promises unknown invariant {inv!r}",
                                        f.loc("promises", inv)))
        if f.kind == "overlay":
            continue
        for res in check_constraints(r):
            if res.status == "broken":
                where = broken_at(r, res.constraint.params) or f.loc("rules")
                errors.append(SpecError("E004", f"{rid}: constraint {res.constraint.id} is broken: "
                                        f"{res.constraint.message} ({res.constraint.text}; set by "
                                        f"{setters(r, res.constraint.params)})", where))
        errors.extend(contradicting_silences(r, reg.inherited(rid)))
        errors.extend(unfounded_marks(r, {x for x in r.chain if not reg.is_bundled(x)}))
        undecided = r.undecided()
        if undecided:
            errors.append(SpecError("E012", f"{rid}: {len(undecided)} parameter(s) neither cited, "
                                    f"assumed, silent nor open: {', '.join(undecided[:12])}"
                                    + (" ..." if len(undecided) > 12 else ""), f.loc("rules")))
    return ids, errors


