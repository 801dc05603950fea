"""Comparison verdicts the fidelity audit (2026-11-30) showed wrong, fixed at their cause, on the real
rulesets; and ambiguity as data: every entry with readings is an ``ambiguous`` finding with a witness."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.compare import compare
from verify.compare.declared import load_declared
from verify.compare.from_rulesets import _Ctx, load_registry
from verify.compare.probes import BY_ID
from verify.compare.search import _play_all
from verify.config import EngineConfig
from verify.errors import SpecError
from verify.spec import load_ruleset


@pytest.fixture(scope="module")
def bundled():
    return {f.id: f for f in compare(reg=load_registry()).findings}


def test_R_two_worths_are_not_one_quantity(bundled):
    stated = [{st.param for st in q.statements} for q in load_declared().quantities]
    assert not [q for q in stated if {"networth.mortgaged_property", "tax.worth_counts_mortgaged_at_printed"} <= q]
    assert not [f for f in bundled.values() if f.kind == "internal" and "networth.mortgaged_property" in f.params]
    # the one declared pair that is one quantity reports source 003; source 000's two interest sentences
    # agree under a reading the ruleset records, so they are an ambiguity, not an internal contradiction
    assert "internal:003:custom-table-experience" in bundled
    assert "internal:000:mortgage-interest-base" not in bundled


def test_Q_short_game_income_tax_is_not_overruled(bundled):
    assert not [f for f in bundled.values() if f.kind == "redundancy" and "tax.income" in f.params]
    f = bundled["ambiguous:official-short:tax.luxury"]
    assert [(o.ruleset, o.classic) for o in f.witness.outcomes] == [
        ("official-short", 100), ("official-short@short-game-on-pre2008", 75)]


def _outcome(probe, ruleset, **situation):
    """What the engine plays for ``ruleset`` in the probe's situation."""
    ctx = _Ctx(load_registry(), load_declared())
    got = _play_all(probe, [ctx.party(load_ruleset(ruleset))], situation)
    assert got is not None
    return got[1][0]


def test_S_a_general_rule_is_read_with_its_stated_exception(bundled):
    assert not [f for f in bundled.values() if f.kind == "internal" and f.id.startswith("internal:002")]
    # online-vn: only before rolling, except to raise the money due at a payment (debt.raise_cash_first)
    for probe in ("sell_allowed_now", "mortgage_allowed_now"):
        assert _outcome(BY_ID[probe], "online-vn", phase=1) is True
        assert _outcome(BY_ID[probe], "online-vn", phase=2) is False
    # the real difference with the official game stays, witnessed where it is one
    w = bundled["inferred:building.sell_timing"].witness
    assert w.situation["phase"] != 1


def test_AA_an_option_is_not_a_threshold(bundled):
    assert not [f for f in bundled.values() if f.kind == "internal" and "bankruptcy.threshold" in f.params]
    probe = BY_ID["bankrupt"]
    # owing 250 with 100 in cash and a street of price 200 (its mortgage raises 100): the official debtor
    # cannot raise it and is bankrupt; on the platform the street's value covers the debt: not bankrupt,
    # but free to give up (what the engine plays)
    situation = {"debt": 250, "cash": 100, "deed": "median"}
    assert _outcome(probe, "platform-classic", **situation) == 1
    assert _outcome(probe, "official", **situation) == 2
    f = bundled["ambiguous:platform-classic:bankruptcy.threshold"]
    assert f.witness.plays
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
        if f["witness"]["method"] == "direct":                          # no probe plays the parameter
            assert "No witness plays this parameter" in f["summary"]
            continue
        # a reading is recorded because it plays differently: the engine plays it so
        assert f["witness"]["verdict"] == "DIFFERS", (f["id"], f["witness"].get("detail"))
        values = [o["classic"] for o in f["witness"]["outcomes"]]
        assert len({json.dumps(v) for v in values}) > 1, f["id"]
        assert "The engine plays the readings differently" in f["summary"]
        assert f.get("related"), f["id"]                                  # what the other rulebooks say
        assert all(s["ruleset"] != own["ruleset"] for s in f["related"])
    played = [f["id"] for f in findings if f["witness"]["method"] in ("smt", "engine")]
    assert {"ambiguous:platform-classic:bankruptcy.threshold", "ambiguous:online-vn:rent.station_schedule",
            "ambiguous:official-short:tax.luxury"} <= set(played)


def test_a_reading_plays_in_the_engine():
    plain = EngineConfig.from_ruleset(load_ruleset("online-vn"))
    read = EngineConfig.from_ruleset(load_ruleset("online-vn@stations-printed-doubling"))
    assert plain.hash() != read.hash()
    res = CliRunner().invoke(main, ["simulate", "official-speed-die@triples-not-doubles", "-n", "2", "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["ruleset"] == "official-speed-die@triples-not-doubles"
