"""Comparison: classification, money in proportion, witnesses and redundancy proofs.

Small rulesets written to a temporary folder (quotes verbatim from the real
rulebooks) make the expected classification independent of the bundled data;
the last tests check invariants of the comparison over the bundled rulesets.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from verify.compare import compare
from verify.compare.from_rulesets import load_registry
from verify.compare.model import KINDS
from verify.config.board import load_deeds
from verify.spec.catalogue import load_catalogue
from verify.spec.registry import Registry
from verify.spec.sources import load_source

A = """
id: a-game
title: A (from 000)
source: 000_91979e7e1d6b8ee6.txt
language: tr
rules:
  money.scale: {value: 1, assumed: classic amounts}
  jail.fine: {value: 50, quote: "50 birim ceza ödemek", gloss: pay a fine of 50}
  mortgage.interest_base:
    value: mortgage_value
    quote: "İpoteği kaldırmak için bankaya ipotek değeri artı yüzde 10 faiz ödenir."
    gloss: to lift the mortgage pay the mortgage value plus 10 % interest
  bankruptcy.mortgage_interest_base:
    value: price
    quote: "mülk değerinin yüzde 10'u kadar faiz ödemek zorundadır"
    gloss: must pay interest of 10 % of the property's value
  rent.jailed_owner_collects: {value: true, quote: "ve KİRA TOPLAYABİLİR", gloss: and may collect rent}
  auction.opening_bid: {value: any, quote: "herhangi bir fiyattan açılabilir", gloss: may open at any price}
  go.exact_landing_bonus: {value: 0, quote: "Tam üzerine düşmek EKSTRA para kazandırmaz",
                           gloss: "no extra money [derived: no extra is a bonus of 0]"}
"""
B = """
id: b-game
title: B (from 003)
source: 003_12a896ad6461c82f.txt
language: sr
rules:
  money.scale: {value: 10, assumed: the platform's amounts are ten times the classic board's}
  jail.fine: {value: 500, quote: "kaznu od $500", gloss: a fine of $500}
  mortgage.interest_base:
    value: price
    quote: "вредност хипотеке плус накнада од 10% цене"
    gloss: the mortgage value plus a fee of 10 % of the price
  rent.jailed_owner_collects:
    value: false
    quote: "Док сте у затвору, други играчи вам не плаћају кирију за ваша поља."
    gloss: while you are in jail nobody pays you rent
  auction.opening_bid: {value: printed_price, quote: "Понуде почињу од пуне цене некретнине", gloss: bids start at the full price}
  trade.max_value_gap: {value: 0.5, quote: "разлика у вредности не сме прећи 50% веће стране", gloss: gap at most 50 % of the larger side}
  trade.max_value_ratio: {value: 2, quote: "и једна страна не сме премашити другу више од два пута", gloss: no side more than twice the other}
  go.exact_landing_bonus: {silent: the test pretends the page says nothing}
"""
C = """
id: c-short
title: C, a declared mode of A
source: 000_91979e7e1d6b8ee6.txt
extends: a-game
rules:
  jail.fine_after_failed_roll_same_turn:
    value: true
    quote: "aynı turda hem çift atmayı deneyip hem de tutmazsa 50 birim ödeyebilir"
    gloss: may try doubles and, failing, pay 50 in the same turn
"""
D = """
id: d-no-rent-in-jail
title: D, a house rule
kind: overlay
source: 000_91979e7e1d6b8ee6.txt
rules:
  rent.jailed_owner_collects: {value: false, quote: "hapisteyken kira alamamak", gloss: no rent while in jail}
"""


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    d = tmp_path_factory.mktemp("rulesets")
    paths = []
    for name, text in {"a.yaml": A, "b.yaml": B, "c.yaml": C, "d.yaml": D}.items():
        (d / name).write_text(text, encoding="utf-8")
        paths.append(d / name)
    reg = Registry.load(extra=paths, bundled=False)
    return compare(reg=reg)


def by_id(result):
    return {f.id: f for f in result.findings}


def test_classification(result):
    f = by_id(result)
    assert result.base_games == ("a-game", "b-game")
    assert f["contradiction:mortgage.interest_base"].kind == "contradiction"
    assert f["contradiction:rent.jailed_owner_collects"].topic == "rent"
    assert f["internal:000:mortgage-interest-base"].kind == "internal"
    assert f["silent:go.exact_landing_bonus"].kind == "silent"
    assert f["variant:c-short:jail.fine_after_failed_roll_same_turn"].kind == "variant"
    assert f["variant:a-game+d-no-rent-in-jail:rent.jailed_owner_collects"].kind == "variant"
    assert f["redundancy:003:trade-gap-implies-ratio"].witness.verdict == "PROVED"


def test_money_compared_in_proportion(result):
    # 500 at scale 10 is the classic 50: no finding about the jail fine
    assert not [f for f in result.findings if "jail.fine" in f.params]


def _deed(w, index: int = 0):
    """The deed the witness is about (the one its last action names, else the one mortgaged in its
    situation), from the board data (classic money)."""
    square = w.script[index]["actions"][-1].get("square")
    if square is None:
        state = w.games[index][1]["state"]
        square = next(p["square"] for p in state["properties"] if p["mortgaged"])
    return next(d for d in load_deeds("us-2008") if d.square == square)


def test_unmortgage_witness_numbers(result):
    w = by_id(result)["contradiction:mortgage.interest_base"].witness
    # each side its own game: a-game at scale 1, b-game at scale 10 (the SMT layer looks for a situation
    # only among sides of one money scale; the probe's situations find this one)
    assert w.plays and w.method in ("smt", "engine") and w.one_value is None
    price = _deed(w).price
    a, b = w.outcomes
    assert (a.ruleset, b.ruleset) == ("a-game", "b-game")
    assert a.classic == pytest.approx(price / 2 + price / 20, abs=0.5)   # mortgage value + 10 % of it
    assert b.classic == pytest.approx(price / 2 + price / 10, abs=0.5)   # mortgage value + 10 % of the price
    assert b.outcome == pytest.approx(b.classic * 10)               # shown in b's own money
    assert a.classic != b.classic


def test_internal_witness_is_the_inherited_interest(result):
    w = by_id(result)["internal:000:mortgage-interest-base"].witness
    assert w.plays
    p = _deed(w).price        # the creditor's interest on the inherited deed: 10 % of the mortgage value or price
    assert [o.classic for o in w.outcomes] == [pytest.approx(p / 20, abs=0.5), pytest.approx(p / 10, abs=0.5)]


def test_jail_rent_witness_puts_the_owner_in_jail(result):
    w = by_id(result)["contradiction:rent.jailed_owner_collects"].witness
    assert w.situation["owner_jailed"] is True
    outcomes = {o.ruleset: o.classic for o in w.outcomes}
    assert outcomes["b-game"] == 0 and outcomes["a-game"] > 0


def test_sides_quote_verbatim_with_source(result):
    for f in result.findings:
        for s in f.sides:
            if s.quote:
                assert load_source(s.source).contains(s.quote), (f.id, s.quote)


def test_no_redundancy_when_the_clause_does_not_follow(tmp_path):
    text = B.replace("trade.max_value_ratio: {value: 2,", "trade.max_value_ratio: {value: 1,")
    (tmp_path / "b.yaml").write_text(text, encoding="utf-8")
    reg = Registry.load(extra=[tmp_path / "b.yaml"], bundled=False)
    assert not [f for f in compare(reg=reg).findings if f.kind == "redundancy"]


# --- over the bundled rulesets -------------------------------------------------------------

@pytest.fixture(scope="module")
def bundled():
    reg = load_registry()
    if not reg.files:
        pytest.fail("no bundled rulesets")
    return compare(reg=reg)


def test_bundled_findings_are_well_formed(bundled):
    areas = {a.id for a in load_catalogue().areas}
    ids = [f.id for f in bundled.findings]
    assert len(ids) == len(set(ids))
    for f in bundled.findings:
        assert f.topic in areas
        assert f.kind in KINDS
        assert len(f.sides) >= 2 or f.kind == "redundancy"
        for s in f.sides:
            if s.quote:
                assert load_source(s.source).contains(s.quote), (f.id, s.ruleset)
        if f.witness and f.witness.plays:
            w = f.witness
            texts = {o.text for o in w.outcomes}
            # the witness really separates the rulings: in the sides' own games, or else with the values
            # alone in one game (then shown beside the own games, never in their place)
            own = {repr(o.classic) for o in w.outcomes if o.arises}
            alone = {repr(o.classic) for o in w.one_value.outcomes} if w.one_value else set()
            assert len(own) > 1 or len(alone) > 1, f.id
            assert texts


def test_contradictions_json_format():
    res = CliRunner().invoke(__import__("verify.cli", fromlist=["main"]).main, ["contradictions", "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert set(doc) == {"schema", "findings"} and doc["schema"] == "verify.contradictions/2"
    for f in doc["findings"]:
        assert {"id", "topic", "kind", "summary", "sides", "witness"} <= set(f)
        for s in f["sides"]:
            assert {"ruleset", "source", "quote", "gloss", "value"} <= set(s)
            assert s["source"] is None or Path(s["source"]).suffix == ".txt"
        assert f["witness"] is None or isinstance(f["witness"], dict)
