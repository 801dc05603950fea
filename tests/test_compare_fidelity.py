"""Comparison verdicts the fidelity audit (2026-11-30) showed wrong, fixed at their cause, on the real
rulesets; and ambiguity as data: every entry with readings is an ``ambiguous`` finding with a witness."""

from __future__ import annotations

import json

import pytest
import z3
from click.testing import CliRunner

from verify.cli import main
from verify.compare import compare
from verify.compare.declared import load_declared
from verify.compare.from_rulesets import _Ctx, load_registry
from verify.compare.outcomes import BY_ID
from verify.errors import SpecError
from verify.spec import load_ruleset


@pytest.fixture(scope="module")
def bundled():
    return {f.id: f for f in compare(reg=load_registry()).findings}


def test_R_two_worths_are_not_one_quantity(bundled):
    pairs = {frozenset((p.a.param, p.b.param)) for p in load_declared().same_quantity}
    assert frozenset(("networth.mortgaged_property", "tax.worth_counts_mortgaged_at_printed")) not in pairs
    assert not [f for f in bundled.values() if f.kind == "internal" and "networth.mortgaged_property" in f.params]
    # the one declared pair that is one quantity still reports source 000
    assert "internal:000:mortgage-interest-base" in bundled


def test_Q_short_game_income_tax_is_not_overruled(bundled):
    assert not [f for f in bundled.values() if f.kind == "redundancy" and "tax.income" in f.params]
    f = bundled["ambiguous:official-short:tax.luxury"]
    assert [(o.ruleset, o.classic) for o in f.witness.outcomes] == [
        ("official-short", 100), ("official-short@short-game-on-pre2008", 75)]


def _outcome(family, ruleset, **situation):
    reg = load_registry()
    ctx = _Ctx(reg, load_declared())
    env = {v.name: v.make() for v in family.vars}
    term = family.outcome(ctx.getter(load_ruleset(ruleset)), env)
    s = z3.Solver()
    s.add([env[k] == v for k, v in situation.items()])
    assert s.check() == z3.sat
    return z3.simplify(s.model().eval(term, model_completion=True))


def test_S_a_general_rule_is_read_with_its_stated_exception(bundled):
    assert not [f for f in bundled.values() if f.kind == "internal" and f.id.startswith("internal:002")]
    # online-vn: only before rolling, except to raise the money due at a payment (debt.raise_cash_first)
    for fam in ("sell_allowed_now", "mortgage_allowed_now"):
        assert z3.is_true(_outcome(BY_ID[fam], "online-vn", phase=1))
        assert z3.is_false(_outcome(BY_ID[fam], "online-vn", phase=2))
    # the real difference with the official game stays, witnessed where it is one
    w = bundled["contradiction:building.sell_timing"].witness
    assert w.situation["phase"] != 1


def test_AA_an_option_is_not_a_threshold(bundled):
    assert not [f for f in bundled.values() if f.kind == "internal" and "bankruptcy.threshold" in f.params]
    fam = BY_ID["bankrupt"]
    # owing less than total worth on the platform: not bankrupt, but free to give up
    assert _outcome(fam, "platform-classic", debt=500, cash=100, raisable=200, worth=600).as_long() == 1
    assert _outcome(fam, "official", debt=500, cash=100, raisable=200, worth=600).as_long() == 2
    f = bundled["ambiguous:platform-classic:bankruptcy.threshold"]
    assert f.witness.method == "z3"
    assert {o.text for o in f.witness.outcomes} == {"not bankrupt; may give up voluntarily", "bankrupt"}


def test_clause_readings_are_refused_with_their_replacement(tmp_path):
    path = tmp_path / "comparison.yaml"
    path.write_text("clause_readings:\n  - id: x\n", encoding="utf-8")
    with pytest.raises(SpecError) as exc:
        load_declared(path)
    assert exc.value.code == "E030" and "readings:" in exc.value.message


def test_contradictions_kind_ambiguous_lists_every_reading_with_witnesses():
    res = CliRunner().invoke(main, ["contradictions", "--kind", "ambiguous", "--json"])
    assert res.exit_code == 0, res.output
    findings = json.loads(res.output)["findings"]
    reg = load_registry()
    expected = {f"ambiguous:{rid}:{pid}" for rid, f in reg.files.items() for pid, e in f.entries.items()
                if e.readings}
    assert {f["id"] for f in findings} == expected and len(expected) >= 10
    for f in findings:
        assert f["kind"] == "ambiguous"
        own, *others = f["sides"]
        assert own["kind"] in ("cited", "assumed") and others
        assert all(s["kind"] == "reading" and s["reading"] and s["ruleset"] == own["ruleset"] for s in others)
        assert f["witness"] is not None, f["id"]
        values = [o["classic"] for o in f["witness"]["outcomes"]]
        assert len({json.dumps(v) for v in values}) > 1, f["id"]      # the readings really differ in play
        assert f.get("related"), f["id"]                                  # what the other rulebooks say
        assert all(s["ruleset"] != own["ruleset"] for s in f["related"])
    z3_backed = [f["id"] for f in findings if f["witness"]["method"] == "z3"]
    assert {"ambiguous:platform-classic:bankruptcy.threshold", "ambiguous:online-vn:rent.station_schedule",
            "ambiguous:official-short:tax.luxury"} <= set(z3_backed)


def test_a_reading_plays_in_the_engine():
    from verify.config import EngineConfig
    plain = EngineConfig.from_ruleset(load_ruleset("online-vn"))
    read = EngineConfig.from_ruleset(load_ruleset("online-vn@stations-printed-doubling"))
    assert plain.hash() != read.hash()
    res = CliRunner().invoke(main, ["simulate", "official-speed-die@triples-not-doubles", "-n", "2", "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["ruleset"] == "official-speed-die@triples-not-doubles"
