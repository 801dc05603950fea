"""Ambiguities: the entries that carry other readings of their quote, as findings of kind ``ambiguous``.

Each entry with ``readings`` (``verify.spec.readings``) gives one finding: the
ruling the ruleset plays and every other reading side by side, each with its
value and gloss, and a z3 witness wherever the readings lead to different
outcomes, played by the engine (the same probes and search as any other finding;
a reading that rules several entries at once is applied whole). ``related`` holds what
the other rulebooks say on the same question, so the clarification page can set
the readings beside them.
"""

from __future__ import annotations

from ..spec.readings import apply_reading
from ..spec.ruleset import Ruleset
from . import witness as wit
from .credit import stated_by
from .model import Finding, Side, primary_source
from .probes import BY_PARAM
from .values import normalize, show


def ambiguous_findings(ctx, rs: list[Ruleset]) -> list[Finding]:
    out: dict[str, Finding] = {}
    for r in rs:
        for pid, e in r.entries.items():
            if not e.readings or e.reading:
                continue
            fid = f"ambiguous:{e.ruleset}:{pid}"
            if fid in out:
                continue
            out[fid] = _finding(ctx, fid, stated_by(ctx, r, [e], rs), pid, rs, primary_source)
    return list(out.values())


def _finding(ctx, fid: str, r: Ruleset, pid: str, rs: list[Ruleset], primary_source) -> Finding:
    e = r.entries[pid]
    p = ctx.cat[pid]
    scale = r.money_scale
    own = ctx.side(r, pid)
    sides = [own]
    for rd in e.readings:
        gloss = rd.gloss + (f" (why: {rd.why})" if rd.why else "")
        sides.append(Side(r.id, own.source, own.quote, gloss, rd.value, kind="reading",
                          quotes=own.quotes, normalized=normalize(p, rd.value, scale), scale=scale, param=pid,
                          language=own.language, origin=e.ruleset, reading=rd.name))
    probe = BY_PARAM.get(pid)
    if probe is None:
        w, differs = wit.direct(p.question, [(s.ruleset, s.value) for s in sides], pid), None
        tail = "No witness plays this parameter: the readings are shown side by side."
    else:
        w, differs = wit.witness(probe, [ctx.party(r)] + [ctx.party(apply_reading(r, rd.name))
                                                          for rd in e.readings])
        tail = {True: "The engine plays the readings differently (see the witness).",
                False: "No situation separates the readings (proved by z3 over what the SMT layer models).",
                None: f"Whether the readings play differently is UNKNOWN: {w.detail if w else ''}"}[differs]
    readings = "; ".join(f"@{rd.name}: {show(rd.value)}" for rd in e.readings)
    summary = (f"{p.question} {r.id} plays {show(e.value)} ({e.kind}); the words may also be read "
               f"{readings}. {tail}")
    return Finding(fid, p.area, "ambiguous", summary, tuple(sides), w, (pid,),
                   related=_related(ctx, r, pid, rs, primary_source))


def _related(ctx, r: Ruleset, pid: str, rs: list[Ruleset], primary_source) -> tuple[Side, ...]:
    """One ruling per other rulebook: its first ruleset (base games first) where the question arises, or
    its base game shown as not applicable where none of its games has the mechanism."""
    seen = {primary_source(r)}
    out = {}
    for x in rs:
        src = primary_source(x)
        if src in seen:
            continue
        side = ctx.side(x, pid)
        if side.kind == "undecided":
            continue
        if ctx.applies(x, pid):
            seen.add(src)
            out[src] = side
        else:
            out.setdefault(src, side)
    return tuple(out.values())
