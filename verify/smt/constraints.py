"""Cross-parameter constraints (``specs/constraints.yaml``) decided with z3 for one ruleset.

The values the engine plays by (the ruleset's, or the catalogue fallback
where the source is silent) must satisfy every constraint: PROVED or
VIOLATED with the offending values. For parameters the source leaves
undecided, z3 also answers the designer's question "does this hold whatever
the host picks?": numeric ones become variables over their domain, symbols
and enum values are enumerated; the answer goes in the reason.
The Python checker of ``verify.spec.constraints`` must agree, or the verdict
is UNKNOWN.
"""

from __future__ import annotations

import itertools
from typing import Any

import z3

from ..interrupt import raise_if_interrupted
from ..spec.constraints import check_constraints, load_constraints
from .to_z3 import as_bool, formula
from .verdict import CheckResult, Verdict


def _choices(param, var_name: str) -> tuple[list[Any], list]:
    """The values an undecided parameter may take: Python values, and z3 variables with their domain."""
    t = param.type
    if t == "bool":
        return [True, False], []
    if t == "enum":
        return list(param.values), []
    out: list[Any] = list(param.symbols)
    doms = []
    if t in ("int", "money", "int_or", "money_or"):
        v = z3.Int(var_name)
    elif t in ("ratio", "ratio_or"):
        v = z3.Real(var_name)
    else:
        return out or [param.fallback], []
    lo = param.min if param.min is not None else (0 if t.startswith("ratio") else None)
    hi = param.max if param.max is not None else (1 if t.startswith("ratio") else None)
    if lo is not None:
        doms.append(v >= lo)
    if hi is not None:
        doms.append(v <= hi)
    return out + [v], doms


def _breaking(c, r) -> str | None:
    """A value of the undecided parameters that breaks ``c`` (text), or None when none does."""
    undecided = [p for p in c.params if not r.decided(p)]
    fixed = {p: r.value(p) for p in c.params if r.decided(p)}
    options, domains = [], []
    for p in undecided:
        vals, doms = _choices(r.catalogue[p], f"param:{p}")
        options.append(vals)
        domains += doms
    for combo in itertools.product(*options):
        env = dict(fixed)
        env.update(zip(undecided, combo))
        f = formula(c.expr, env)
        if f is False:
            return ", ".join(f"{p} = {'any number' if isinstance(v, z3.ExprRef) else v}"
                             for p, v in zip(undecided, combo))
        if f is True:
            continue
        s = z3.Solver()
        s.set("timeout", 2000)
        s.add(domains)
        s.add(z3.Not(as_bool(f)))
        if s.check() == z3.sat:
            model = s.model()
            shown = [f"{p} = {model.eval(v, model_completion=True) if isinstance(v, z3.ExprRef) else v}"
                     for p, v in zip(undecided, combo)]
            return ", ".join(shown)
    return None


def check(r) -> list[CheckResult]:
    """One result per constraint for resolved ruleset ``r``."""
    python = {res.constraint.id: res.status for res in check_constraints(r)}
    out = []
    for c in load_constraints():
        env = {p: r.value(p) for p in c.params}
        try:
            f = formula(c.expr, env)
            if isinstance(f, bool):
                holds = f
            else:
                s = z3.Solver()
                s.add(z3.Not(as_bool(f)))
                holds = s.check() == z3.unsat
        except (TypeError, z3.Z3Exception) as exc:
            raise_if_interrupted()
            out.append(CheckResult(r.id, f"constraint:{c.id}", "(parameters)", True, Verdict.UNKNOWN, None,
                                   f"cannot encode {c.text!r}: {exc}"))
            continue
        values = {p: env[p] for p in c.params}
        undecided = [p for p in c.params if not r.decided(p)]
        if python.get(c.id) == "broken" and holds:
            out.append(CheckResult(r.id, f"constraint:{c.id}", "(parameters)", True, Verdict.UNKNOWN, None,
                                   "the z3 and Python checkers disagree"))
            continue
        note = None
        if undecided:
            breaks = _breaking(c, r)
            note = (f"{', '.join(undecided)} undecided in the source (fallback used); "
                    + (f"a host choice could break it: {breaks}" if breaks else "holds for any choice"))
        # a constraint is the ruleset's promise only where the ruleset decides every value it names
        promised = not undecided
        if holds:
            out.append(CheckResult(r.id, f"constraint:{c.id}", "(parameters)", promised, Verdict.PROVED, None,
                                   note))
        else:
            out.append(CheckResult(r.id, f"constraint:{c.id}", "(parameters)", promised, Verdict.VIOLATED,
                                   {"values": values, "scenario": [f"{c.message}: {c.text}",
                                                                   "with " + ", ".join(f"{k} = {v!r}" for k, v in
                                                                                       values.items())]},
                                   c.message + (f" ({note})" if note else "")))
    return out
