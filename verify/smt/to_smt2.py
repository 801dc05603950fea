"""SMT-LIB 2 export: every inductive query of a ruleset, so that another solver can re-check it.

``verify compile RULESET --target smt2`` writes one script: a block per
action x invariant, each self-contained (``(reset)`` between blocks) with
the invariants assumed before, the guard, the transition and the negated
invariant after. A block is ``unsat`` exactly when the inductive step is
PROVED; z3's own answer is recorded in ``(set-info :status ...)`` and in a
comment, so a second solver's disagreement shows at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from ..invariants import load_invariants
from ..config import EngineConfig
from .model import Model
from .transitions import TRANSITIONS, canonical
from .proofs import instantiate, invariant_after, invariant_before, check_ruleset
from .state import domain


@dataclass(frozen=True)
class Query:
    name: str            # "<transition> / <invariant>"
    status: str          # z3's answer: unsat (PROVED) | sat (VIOLATED) | unknown
    smt2: str


def queries(ruleset, timeout_s: float = 10.0, only: set[str] | None = None) -> list[Query]:
    """The inductive queries of ``ruleset`` (optionally only the transitions named in ``only``; a former
    name of a transition is taken with a ``FutureWarning``)."""
    only = {canonical(n) for n in only} if only else None
    cfg = EngineConfig.from_ruleset(ruleset)
    promised = set(ruleset.promised())
    chosen = tuple(a for a in TRANSITIONS if not only or a.name in only)
    results = check_ruleset(ruleset.id, cfg, promised, timeout_s, actions=chosen)
    broken = {r.invariant for r in results if r.verdict.value == "VIOLATED"}
    m = Model.from_config(cfg)
    state_invs = [i for i in load_invariants() if i.kind == "state"]
    # the assumption of the final round: every state invariant no action breaks
    assumed = [i for i in state_invs if i.id not in broken]
    out = []
    for action in TRANSITIONS:
        if action.disabled(m) or (only and action.name not in only):
            continue
        step = instantiate(m, action)
        pre = domain(m, step.before) + [invariant_before(m, i, step.before) for i in assumed]
        envs: dict = {}
        for inv in load_invariants():
            goal = invariant_after(m, inv, step, envs)
            extra = [invariant_before(m, inv, step.before)] if inv.kind == "state" and inv.id in broken else []
            s = z3.Solver()
            s.set("timeout", int(timeout_s * 1000))
            s.add(pre + extra + [step.guard, z3.Not(goal)])
            text = s.to_smt2()       # before solving: the solver may rewrite what it holds
            # z3 answers like the checker when the query goes through an assumption literal
            # (its incremental core); the exported script asserts the query plainly
            s2 = z3.Solver()
            s2.set("timeout", int(timeout_s * 1000))
            lit = z3.Bool("query")
            s2.add(z3.Implies(lit, z3.And(pre + extra + [step.guard, z3.Not(goal)])))
            res = s2.check(lit)
            status = "unsat" if res == z3.unsat else "sat" if res == z3.sat else "unknown"
            out.append(Query(f"{action.name} / {inv.id}", status, text))
    return out


def to_smt2(ruleset) -> str:
    """The SMT-LIB 2 script of every inductive query (the ``smt2`` target of ``verify compile``)."""
    parts = [f"; verify compile {ruleset.id} --target smt2",
             "; one block per action x invariant: unsat = the inductive step is PROVED",
             "(set-option :produce-models true)"]
    for q in queries(ruleset):
        body = q.smt2.replace("(check-sat)", "").replace("(set-info :status unknown)", "").strip()
        parts += ["(reset)", f"; {q.name}: z3 says {q.status}", "(set-logic ALL)",
                  f"(set-info :status {q.status})", body, "(check-sat)"]
    return "\n".join(parts) + "\n"
