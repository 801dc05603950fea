"""Compare resolved rulesets parameter by parameter and by meaning; classify each finding.

Which pairs are compared, and how a difference is classified, follows from
how the rulesets relate:

* each source's **base game** (``specs/comparison.yaml`` names the preferred
  one; otherwise its root ruleset) is compared with the other sources' base
  games: a difference is a ``contradiction`` (they present the same game);
* a ruleset that extends another, an overlay stacked on the default ruleset,
  and any further mode of the same source are compared with their nearest
  ancestor (or their source's base game): a difference is a ``variant``;
* a side that is ``silent`` where another cites an answer gives ``silent``;
* two parameters one source defines as the same quantity with different
  meanings give ``internal``; a clause implied by other rulings (z3) gives
  ``redundancy``; an entry that records other readings of its quote gives
  ``ambiguous`` (``verify.compare.ambiguities``).

Values are compared in proportion to each ruleset's ``money.scale``, and a
difference counts only when some situation makes the outcomes differ (z3);
differences in words only are listed as ``equivalent``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ErrorList, SpecError, VerifyError
from ..spec.registry import DEFAULT_RULESET, Registry
from ..spec.ruleset import Entry, Ruleset
from ..spec.sources import fold
from ..expr import evaluate
from . import witness as wit
from .ambiguities import ambiguous_findings
from .declared import Declared, load_declared
from .credit import by_chain as _by_chain, stated_by
from .model import Comparison, Finding, Side, Witness, primary_source
from .outcomes import BY_ID, BY_PARAM
from .proofs import prove
from .values import key, normalize, same, show

DECIDED = ("cited", "assumed")
#: Parameters that are bookkeeping, not rules: never a finding of their own.
NOT_RULES = {"money.scale"}
LANG_BY_SOURCE_PREFIX = {"000": "tr", "001": "pl", "002": "vi", "003": "sr"}


@dataclass(frozen=True)
class Plan:
    base_games: tuple[str, ...]
    variants: tuple[tuple[str, str], ...]    # (anchor, ruleset)


def load_registry() -> Registry:
    """The bundled rulesets; a broken file is left out (``lint`` reports it), not fatal."""
    return Registry.load(strict=False)


def default_members(reg: Registry) -> list[str]:
    """Every complete ruleset, and every overlay stacked on the default ruleset."""
    plain = [rid for rid in reg.ids() if reg.files[rid].kind != "overlay"]
    base = DEFAULT_RULESET if DEFAULT_RULESET in plain else (plain[0] if plain else None)
    overlays = [f"{base}+{rid}" for rid in reg.ids() if reg.files[rid].kind == "overlay" and base]
    return plain + overlays


def _stack_overlay(reg: Registry, name: str) -> str:
    """A bare overlay id is compared as stacked on the default ruleset (an overlay alone is no game)."""
    f = reg.files.get(name)
    if f is not None and f.kind == "overlay":
        base = DEFAULT_RULESET if DEFAULT_RULESET in reg.files else None
        if base:
            return f"{base}+{name}"
    return name


def resolve_all(reg: Registry, names: list[str], strict: bool) -> tuple[list[Ruleset], list[VerifyError]]:
    out, errors = [], []
    for n in names:
        try:
            out.append(reg.resolve(n))
        except VerifyError as exc:
            if strict:
                raise
            errors.append(exc)
    return out, errors


def ordered(reg: Registry, names: list[str] | None = None, strict: bool = False) -> list[Ruleset]:
    """Resolved rulesets in reading order: base games first, then each mode or overlay."""
    rs, _ = resolve_all(reg, list(names) if names else default_members(reg), strict)
    pl = plan(rs, load_declared())
    rank = {rid: i for i, rid in enumerate(pl.base_games)}
    anchor = {rid: a for a, rid in pl.variants}

    def root(rid):
        while rid in anchor:
            rid = anchor[rid]
        return rid
    return sorted(rs, key=lambda r: (rank.get(root(r.id), 99), r.id not in rank, r.is_overlay, "+" in r.id,
                                     r.id))


def plan(rulesets: list[Ruleset], declared: Declared) -> Plan:
    pref = {rid: i for i, rid in enumerate(declared.base_games)}
    order = sorted(rulesets, key=lambda r: (r.id not in pref, pref.get(r.id, 0), len(r.chain), len(r.id),
                                            r.id))
    placed: list[Ruleset] = []
    bases: dict[str | None, Ruleset] = {}
    variants = []
    for r in order:
        ancestors = [m for m in placed if m.id in r.chain[:-1] or (m.id in r.chain and m.id != r.id)]
        if ancestors:
            anchor = max(ancestors, key=lambda m: r.chain.index(m.id) if m.id in r.chain else -1)
            variants.append((anchor.id, r.id))
        elif primary_source(r) in bases:
            variants.append((bases[primary_source(r)].id, r.id))
        else:
            bases[primary_source(r)] = r
        placed.append(r)
    return Plan(tuple(b.id for b in bases.values()), tuple(variants))


class _Ctx:
    def __init__(self, reg: Registry, declared: Declared | None = None):
        self.reg = reg
        self.cat = reg.catalogue
        self.declared = declared

    def applies(self, r: Ruleset, guard) -> bool:
        """Whether the guard's condition holds in ``r`` (an undecidable condition counts as holding)."""
        try:
            return bool(evaluate(guard.expr, r.values()))
        except Exception:  # noqa: BLE001 - a condition on a host-set value: keep the parameter
            return True

    def getter(self, r: Ruleset, override: dict | None = None):
        """A ruleset's values, normalised; an open value nobody supplied reads as the catalogue's
        fallback and is logged in ``get.assumed`` so that a witness says which value it assumed."""
        cat, scale = self.cat, r.money_scale
        override = override or {}

        def get(pid: str) -> Any:
            if pid in override:
                return override[pid]
            value = normalize(cat[pid], r.value(pid), scale)
            e = r.entries.get(pid)
            if e is not None and e.kind == "open":
                get.assumed.append((r.id, pid, value))
            return value
        get.assumed = []
        return get

    def language(self, entry: Entry | None, r: Ruleset) -> str | None:
        rid = entry.ruleset if entry else r.chain[-1]
        f = self.reg.files.get(rid)
        if f and f.language:
            return f.language
        src = (entry.source if entry else None) or (f.source if f else None)
        if entry is None:
            src = src or primary_source(r)
        return LANG_BY_SOURCE_PREFIX.get((src or "")[:3])

    def side(self, r: Ruleset, pid: str) -> Side:
        e = r.entries.get(pid)
        scale = r.money_scale
        if e is None:
            return Side(r.id, primary_source(r), None, "undecided: no ruleset file rules on this", None,
                        kind="undecided", scale=scale, param=pid, language=self.language(None, r))
        f = self.reg.files.get(e.ruleset)
        # the rulebook behind an entry is the one its own file names: a user's table that names
        # none rules by itself, and its assumed values are never credited to a rulebook
        source = e.source or (f.source if f else None)
        gloss = e.gloss if e.kind in ("cited", "open") else e.reason
        gloss = gloss.strip() if isinstance(gloss, str) else gloss
        if e.kind == "open" and e.reason:
            gloss = f"open ({e.reason}): {e.gloss}" if e.gloss else e.reason     # a table's own words
        value = e.value if e.has_value else None
        return Side(r.id, source, e.quotes[0] if e.quotes else None, gloss, value, kind=e.kind,
                    quotes=tuple(e.quotes), normalized=normalize(self.cat[pid], value, scale) if e.has_value
                    else None, scale=scale, param=pid, language=self.language(e, r),
                    origin=e.ruleset)

    def witness(self, pid: str, reps: list[Ruleset], question: str,
                everyone: list[Ruleset] | None = None) -> tuple[Witness | None, bool]:
        """(witness, differs): differs is False when no situation separates the rulings.

        ``reps`` holds one ruleset per distinct value; ``everyone`` all rulesets that decide.
        """
        fam = BY_PARAM.get(pid)
        if fam is None:
            return wit.direct(question, [(r.id, r.value(pid)) for r in reps], pid), True
        # 1. vary only this parameter, everything else as in the first ruleset: the difference
        #    is then this parameter's alone
        ctxs = [wit.Context(r.id, r.money_scale, self.getter(reps[0], {pid: self.getter(r)(pid)}))
                for r in reps]
        w = wit.find(fam, ctxs)
        if w is None:
            # 2. each ruleset with its own values for the whole family (the parameter may matter
            #    only together with another one, e.g. a rent tax needs its start minute)
            ctxs = [wit.Context(r.id, r.money_scale, self.getter(r)) for r in (everyone or reps)]
            w = wit.find(fam, ctxs)
        return w, w is not None


def _summary_values(sides: list[Side]) -> str:
    groups: dict[str, list[Side]] = {}
    for s in sides:
        groups.setdefault(key(s.normalized) if s.kind in DECIDED else "~" + s.kind, []).append(s)
    parts = []
    for g in groups.values():
        s = g[0]
        if s.kind in DECIDED:
            val = show(s.value)
            if s.scale != 1 and s.value != s.normalized:
                val += f" (= {show(s.normalized)} classic)"
        else:
            val = s.kind
        parts.append(f"{', '.join(x.ruleset for x in g)}: {val}")
    return "; ".join(parts)


def _rep(rs: list[Ruleset], sides: list[Side]) -> list[Ruleset]:
    """One ruleset per distinct (normalised) value, in order."""
    seen, out = set(), []
    for r, s in zip(rs, sides):
        k = key(s.normalized)
        if k not in seen:
            seen.add(k)
            out.append(r)
    return out


def compare_group(ctx: _Ctx, rs: list[Ruleset], kind: str, id_prefix: str,
                  equivalent: list[str], modes: list[Ruleset] | None = None,
                  params: set[str] | None = None, answers: tuple[str, ...] = ("cited",)) -> list[Finding]:
    """Findings among rulesets that should agree (base games, or an anchor and its variant).

    For a contradiction, a parameter that only applies with some feature (a speed die, a rent
    tax...) is compared among the first ruleset of each source that has the feature, taken
    from ``modes`` (base games first): the official Speed Die game against the platform's Fast
    mode, not two base games that have no speed die at all. ``params`` limits the parameters
    compared; ``answers`` are the kinds of entry that count as a ruling of their own (a user's
    table rules by assuming: its assumed values count).
    """
    out = []
    for pid, p in ctx.cat.parameters.items():
        if pid in NOT_RULES or (params is not None and pid not in params):
            continue
        guard = ctx.declared.guard(pid) if ctx.declared else None
        if guard is not None:
            pool = rs if kind == "variant" or modes is None else _one_per_source(
                [r for r in modes if ctx.applies(r, guard)])
            live = [r for r in pool if ctx.applies(r, guard)]
            if kind == "variant" and len(live) < 2:
                continue          # the mode switches the feature on or off: reported on the switch
            if kind != "variant":
                rs_p = live
            else:
                rs_p = rs
        else:
            rs_p = rs
        if len(rs_p) < 2:
            continue
        sides = [ctx.side(r, pid) for r in rs_p]
        deciders = [(r, s) for r, s in zip(rs_p, sides) if s.kind in DECIDED]
        cited = [s for s in sides if s.kind in answers]
        silent = [s for s in sides if s.kind in ("silent", "undecided")]
        opened = [s for s in sides if s.kind == "open"]
        values = {key(s.normalized) for _, s in deciders}
        if len(values) > 1 and cited:
            reps = _rep([r for r, _ in deciders], [s for _, s in deciders])
            w, differs = ctx.witness(pid, reps, p.question, [r for r, _ in deciders])
            if not differs:
                equivalent.append(f"{id_prefix}{pid}")
            else:
                out.append(Finding(f"{kind}:{id_prefix}{pid}", p.area, kind,
                                   f"{p.question} {_summary_values([s for _, s in deciders])}",
                                   tuple(s for _, s in deciders), w, (pid,)))
        if kind == "variant" and sides[0].kind in ("silent", "undecided") and sides[1].kind in answers:
            out.append(Finding(f"variant:{id_prefix}{pid}", p.area, "variant",
                               f"{p.question} {rs_p[0].id} is silent; {rs_p[1].id} adds a ruling: "
                               f"{show(sides[1].value)}.", (sides[1], sides[0]), None, (pid,)))
            continue
        if silent and cited:
            out.append(Finding(f"silent:{id_prefix}{pid}", p.area, "silent",
                               f"{p.question} Left open by {', '.join(s.ruleset for s in silent)}; "
                               f"answered by {', '.join(s.ruleset for s in cited)}.",
                               tuple(cited + silent), None, (pid,)))
        if opened and kind == "variant" and (cited or deciders):
            out.append(Finding(f"variant:{id_prefix}{pid}", p.area, "variant",
                               f"{p.question} Set by the table's host in "
                               f"{', '.join(s.ruleset for s in opened)}; "
                               f"fixed elsewhere ({_summary_values([s for _, s in deciders])}).",
                               tuple([s for _, s in deciders] + opened), None, (pid,)))
    return out


def _one_per_source(rs: list[Ruleset]) -> list[Ruleset]:
    seen, out = set(), []
    for r in rs:
        src = primary_source(r)
        if src not in seen:
            seen.add(src)
            out.append(r)
    return sorted(out, key=lambda r: primary_source(r) or "")


def internal_findings(ctx: _Ctx, rs: list[Ruleset], declared: Declared) -> list[Finding]:
    out: dict[str, Finding] = {}
    for named in _by_chain(rs):
        for pair in declared.same_quantity:
            ea, eb = named.entries.get(pair.a.param), named.entries.get(pair.b.param)
            if not (ea and eb and ea.kind == "cited" and eb.kind == "cited" and ea.source == eb.source):
                continue
            r = stated_by(ctx, named, [ea, eb], rs)
            target = pair.b.as_param or pair.b.param
            ma, mb = pair.a.meaning(ea.value), pair.b.meaning(eb.value)
            scale = r.money_scale
            ma, mb = normalize(ctx.cat[target], ma, scale), normalize(ctx.cat[target], mb, scale)
            if same(ma, mb):
                continue
            fid = f"internal:{(ea.source or '')[:3]}:{pair.id}"
            if fid in out:
                continue
            fam = BY_ID[pair.family]
            label_a, label_b = f"{r.id} ({pair.a.param})", f"{r.id} ({pair.b.param})"
            w = wit.find(fam, [wit.Context(label_a, scale, ctx.getter(r, {target: ma})),
                               wit.Context(label_b, scale, ctx.getter(r, {target: mb}))])
            sides = (ctx.side(r, pair.a.param), ctx.side(r, pair.b.param))
            out[fid] = Finding(fid, pair.topic, "internal",
                               f"{pair.question} {ea.source} says both: {pair.a.param} = {show(ea.value)} "
                               f"and {pair.b.param} = {show(eb.value)}.", sides, w,
                               (pair.a.param, pair.b.param))
    return list(out.values())


def redundancy_findings(ctx: _Ctx, rs: list[Ruleset], declared: Declared) -> list[Finding]:
    out: dict[str, Finding] = {}
    for red in declared.redundancies:
        for named in _by_chain(rs):
            entries = [named.entries.get(p) for p in red.premise]
            if not all(e is not None and e.kind == "cited" for e in entries):
                continue
            stating = entries + [e for e in [named.entries.get(red.conclusion_param)] if e is not None] \
                if red.conclusion_param else entries
            r = stated_by(ctx, named, stating, rs)
            src = red.source or entries[0].source
            if red.source and any(e.source != red.source for e in entries):
                continue
            args = dict(red.args, premise_param=red.premise[0])
            if red.conclusion_param:
                ce = r.entries.get(red.conclusion_param)
                if ce is None or ce.kind != "cited" or ce.source != entries[0].source:
                    continue
            fid = f"redundancy:{(src or '')[:3]}:{red.id}"
            if fid in out:
                continue
            proved = prove(red.proof, ctx.getter(r), args)
            if proved is None:
                continue
            sides = [ctx.side(r, p) for p in red.premise]
            if red.quote:
                q = fold(red.quote)
                sides = [s if q not in [fold(x) for x in s.quotes] else
                         Side(**{**s.__dict__, "quotes": tuple(x for x in s.quotes if fold(x) != q),
                                 "quote": next((x for x in s.quotes if fold(x) != q), None)})
                         for s in sides]
                if all(s.quote is None for s in sides):
                    continue          # the premise is cited only by the implied clause itself
                lang = sides[0].language
                sides.append(Side(r.id, red.source, red.quote, red.gloss, None, kind="clause",
                                  quotes=(red.quote,), language=lang))
            else:
                sides.append(ctx.side(r, red.conclusion_param))
            w = Witness(family=red.proof, method="proof", question=red.summary, verdict=proved[0],
                        detail=f"z3: premise ∧ ¬conclusion is unsatisfiable — {proved[1]}")
            out[fid] = Finding(fid, red.topic, "redundancy", red.summary, tuple(sides), w,
                               tuple(red.premise) + ((red.conclusion_param,) if red.conclusion_param else ()))
    return list(out.values())


def compare(names: list[str] | None = None, reg: Registry | None = None,
            declared: Declared | None = None) -> Comparison:
    """Compare the named rulesets (default: every bundled ruleset and overlay)."""
    reg = reg or load_registry()
    declared = declared or load_declared()
    strict = bool(names)
    names = [_stack_overlay(reg, n) for n in names] if names else default_members(reg)
    rs, _errors = resolve_all(reg, names, strict)
    if strict and not rs:
        raise SpecError("E011", "no ruleset to compare")
    ctx = _Ctx(reg, declared)
    pl = plan(rs, declared)
    by_id = {r.id: r for r in rs}
    findings: list[Finding] = []
    equivalent: list[str] = []
    if len(pl.base_games) > 1:
        modes = [by_id[b] for b in pl.base_games] + [by_id[rid] for _, rid in pl.variants if "+" not in rid]
        findings += compare_group(ctx, [by_id[b] for b in pl.base_games], "contradiction", "", equivalent,
                                  modes)
    for anchor, rid in pl.variants:
        findings += compare_group(ctx, [by_id[anchor], by_id[rid]], "variant", f"{rid}:", equivalent)
    findings += internal_findings(ctx, rs, declared)
    findings += ambiguous_findings(ctx, ordered(reg, [r.id for r in rs]) if rs else [])
    findings += redundancy_findings(ctx, rs, declared)
    order = {a.id: i for i, a in enumerate(ctx.cat.areas)}
    kinds = {"contradiction": 0, "internal": 1, "ambiguous": 2, "silent": 3, "variant": 4, "redundancy": 5}
    findings.sort(key=lambda f: (order.get(f.topic, 99), kinds[f.kind], f.id))
    return Comparison(tuple(r.id for r in rs), tuple(findings), pl.base_games, tuple(equivalent))


__all__ = ["compare", "plan", "Plan", "load_registry", "default_members", "ErrorList"]
