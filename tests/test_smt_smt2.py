"""The SMT-LIB 2 export re-checked by a second solver (cvc5, an optional extra)."""

from __future__ import annotations

from pathlib import Path

import pytest

from verify.smt.to_smt2 import queries, to_smt2
from verify.spec import load_ruleset

FIXTURE = Path(__file__).parent / "fixtures" / "negative" / "hotel-at-three-houses.yaml"


def _cvc5_answers(text: str, millis: int = 20000) -> list[str]:
    cvc5 = pytest.importorskip("cvc5", reason="cvc5 is not installed (pip install 'monopoly-verify[cvc5]')")
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("tlimit-per", str(millis))
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, sm)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "export")
    out = []
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        answer = cmd.invoke(solver, sm)
        answer = (answer or "").strip()
        if answer in ("sat", "unsat") or answer.startswith("unknown"):
            out.append(answer)
    return out


def test_export_blocks_are_self_contained_and_carry_z3s_answer():
    r = load_ruleset(str(FIXTURE))
    qs = queries(r, only={"build_hotel"})
    statuses = {q.name: q.status for q in qs}
    assert statuses["build_hotel / hotel-after-full-houses"] == "sat"  # the broken table's counterexample
    assert statuses["build_hotel / cash-nonnegative"] == "unsat"  # proved
    for q in qs:
        assert "(declare-fun" in q.smt2 and "(assert" in q.smt2 and "(check-sat)" in q.smt2


def test_cvc5_agrees_with_z3_on_an_exported_proof_and_counterexample():
    r = load_ruleset(str(FIXTURE))
    picked = {q.name: q for q in queries(r, only={"build_hotel"})}
    for name in ("build_hotel / hotel-after-full-houses", "build_hotel / cash-nonnegative", "build_hotel / hotel-supply"):
        q = picked[name]
        answers = _cvc5_answers("(set-logic ALL)\n" + q.smt2.replace("(set-info :status unknown)", ""))
        assert answers == [q.status], (name, answers, q.status)


def test_compile_target_writes_one_block_per_action_and_invariant(monkeypatch):
    from verify.smt import to_smt2 as mod
    r = load_ruleset(str(FIXTURE))
    monkeypatch.setattr(mod, "queries", lambda ruleset: queries(ruleset, only={"build_hotel", "mortgage"}))
    text = to_smt2(r)
    assert text.count("(reset)") == text.count("(check-sat)") == 2 * 12  # two actions x every invariant
    assert "(set-info :status sat)" in text and "(set-info :status unsat)" in text


def test_a_query_named_by_the_former_name_of_its_transition_is_found_with_a_notice():
    from verify.smt.transitions import DeprecatedName
    r = load_ruleset(str(FIXTURE))
    with pytest.warns(DeprecatedName, match="'build-hotel' is deprecated"):
        qs = queries(r, only={"build-hotel"})
    assert qs and all(q.name.startswith("build_hotel / ") for q in qs)
