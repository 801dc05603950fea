"""One finding per disagreement: findings that the same statements decide are merged.

A rulebook's sentence often settles several parameters at once: the platform's
balance rule gives both the trade gap and the trade ratio; the Vietnamese
handbook's "chỉ TRƯỚC khi tung xúc xắc" (only BEFORE rolling) rules building,
selling, mortgaging and trading. Reported parameter by parameter, one
disagreement would be counted as many. Two findings of the same kind, between
the same group of rulesets, are one disagreement when the same two rulesets part
in both at the finding's own strength (both stated, for a contradiction) and

* both of them quote the same words in both findings (a quote of one holds or
  is held by a quote of the other), or
* one of them quotes, in both, one statement ``specs/comparison.yaml`` declares
  to rule both parameters (six of its words in a row, or all of them) (``statements``: where one rulebook's single rule
  answers several questions, while the other rulebooks answer each apart).

The first finding (in the comparison's order: topic, kind, id) keeps its id, its
sides and its witness, and lists the others as its ``consequences``, each with
its own sides and witness.
"""

from __future__ import annotations

from dataclasses import replace

from ..spec.sources import fold
from .evidence import ORDER, Point, weaker
from .model import Finding, Side
from .values import key

#: The kinds a merge applies to: the differences between rulebooks (or a table and the rulebooks).
MERGED = ORDER


def _quotes(side: Side) -> tuple[str, ...]:
    quotes = list(side.quotes)
    if side.point and side.point.get("quote"):
        quotes += list(side.point["quote"])
    return tuple(fold(q) for q in quotes)


def _overlap(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return any(x in y or y in x for x in a for y in b)


#: A quote shares a declared rule's words when it holds this many of them in a row (it may quote the rule
#: and go on past it).
RUN = 6


def _shares(quotes: tuple[str, ...], rule: str) -> bool:
    words = rule.split()
    runs = {" ".join(words[i:i + RUN]) for i in range(max(1, len(words) - RUN + 1))}
    return _overlap(quotes, (rule,)) or any(r in q for q in quotes for r in runs)


def _group(f: Finding) -> str:
    """What a finding compares: the part of its id between its kind and its parameter."""
    return f.id.split(":", 1)[1].rpartition(":")[0]


def _pairs(f: Finding, medium) -> set[tuple[str, str]]:
    """The ordered pairs of rulesets that part in ``f`` at the finding's own strength."""
    decided = [s for s in f.sides if s.point]
    out = set()
    for a in decided:
        for b in decided:
            if a is b or key(a.normalized) == key(b.normalized):
                continue
            m = medium(a.param)
            if weaker(Point(a.point["evidence"]).kind(m), Point(b.point["evidence"]).kind(m)) == f.kind:
                out.add((a.ruleset, b.ruleset))
    return out


def merge(findings: list[Finding], catalogue, statements=()) -> list[Finding]:
    """``findings`` (in the comparison's order) with each disagreement once (see the module's doc);
    ``statements``: the declared ``verify.compare.declared.Statement`` of one rule ruling several
    parameters."""
    def medium(pid):
        return catalogue[pid].medium if pid in catalogue else None

    cands = [i for i, f in enumerate(findings) if f.kind in MERGED and any(s.point for s in f.sides)]
    info = {i: (_pairs(findings[i], medium), {s.ruleset: s for s in findings[i].sides if s.point})
            for i in cands}
    parent = {i: i for i in cands}

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def declared(fi: Finding, fj: Finding, side_i: Side, side_j: Side) -> bool:
        for st in statements:
            q = fold(st.quote)
            if (fi.params[0] in st.params and fj.params[0] in st.params and side_i.source == st.source
                    and _shares(_quotes(side_i), q) and _shares(_quotes(side_j), q)):
                return True
        return False

    for x, i in enumerate(cands):
        for j in cands[x + 1:]:
            fi, fj = findings[i], findings[j]
            if fi.kind != fj.kind or _group(fi) != _group(fj):
                continue
            (pi, si), (pj, sj) = info[i], info[j]
            for r, o in pi & pj:
                same_r = _overlap(_quotes(si[r]), _quotes(sj[r]))
                same_o = _overlap(_quotes(si[o]), _quotes(sj[o]))
                if (same_r and same_o) or declared(fi, fj, si[r], sj[r]):
                    parent[root(j)] = root(i)
                    break
    clusters: dict[int, list[int]] = {}
    for i in cands:
        clusters.setdefault(root(i), []).append(i)
    out, dropped = [], set()
    for i, f in enumerate(findings):
        if i in dropped:
            continue
        members = clusters.get(root(i), [i]) if i in parent else [i]
        if len(members) == 1:
            out.append(f)
            continue
        rest = [findings[j] for j in members if j != i]
        dropped.update(members)
        also = ", ".join(c.params[0] for c in rest)
        out.append(replace(f, params=tuple(dict.fromkeys(f.params + tuple(p for c in rest for p in c.params))),
                           summary=f"{f.summary} One disagreement: the same statements also rule {also}.",
                           consequences=tuple(rest)))
    return out


__all__ = ["merge", "MERGED"]
