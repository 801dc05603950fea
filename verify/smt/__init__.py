"""The SMT half of the toolkit: every ruleset compiled to z3 and its invariants proved or refuted.

Pipeline (data flows one way, each stage its own module)::

    Ruleset --EngineConfig--> model.from_config   (the rule values the formulas read, and the
                 |                                 config's Tables: verify.config.tables)
                 v
    state.fresh            symbolic state: 28 deeds, players, bank stock, bank ledger, pot
    to_z3.formula          the expression language (verify.expr AST) as z3 terms
    transitions            one transition per engine action, or step of one, in the engine's
                           words (verify.vocabulary): guard + effect, from the config; one module
                           per rule family, beside verify/engine/rules/; the registry
                           (TRANSITIONS, BY_NAME, canonical, modelling, NOT_MODELLED)
    oracle                 a transition on a concrete state (the differential test against the engine)
                 |
                 v
    proofs                 inductive step per action x invariant, vacuity, bounded runs,
                           cross-parameter constraints; a query cache keyed by a canonical hash
    scenario               counterexamples minimised and told as scenarios
    to_smt2                SMT-LIB 2 export for other solvers

Every check ends in a :class:`~verify.smt.verdict.Verdict`: PROVED, VIOLATED
(with a counterexample) or UNKNOWN (with the reason). UNKNOWN is never success.
"""

from ..interrupt import quiet_solver
from .verdict import CheckResult, Verdict

quiet_solver()     # Ctrl-C during a z3 query stops the run (verify.interrupt)

__all__ = ["Verdict", "CheckResult"]
