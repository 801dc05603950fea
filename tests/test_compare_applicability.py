"""Applicability as data, kinds that say what a finding rests on, and the evidence of every side.

A parameter that only means something with a mechanism declares its condition once, in the catalogue
(``applies_when``); a side where it does not hold is shown as not applicable and never compared; a
ruleset may call a value "not applicable" only where the catalogue agrees (lint E034). A difference
between stated rules is a ``contradiction``; one that rests on an assumed side is ``assumed``, or
``medium`` for a feature of one medium (board or online).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.compare import compare
from verify.compare import witness as wit
from verify.compare.declared import load_declared
from verify.compare.from_rulesets import load_registry
from verify.compare.search import Found
from verify.errors import SpecError
from verify.spec.applicability import applies, not_applicable, unfounded_marks
from verify.spec.catalogue import _load_catalogue, load_catalogue
from verify.spec.played import table_values
from verify.spec.registry import Registry

A = """
id: a-game
title: A (from 000)
source: 000_91979e7e1d6b8ee6.txt
rules:
  money.scale: {value: 1, assumed: classic amounts}
  jail.fine: {value: 50, quote: "50 birim ceza ödemek", gloss: pay a fine of 50}
  casino.enabled: {value: false, assumed: "a board game has no casino"}
  casino.stake: {value: 100, assumed: "Not applicable: there is no casino."}
  pause.allowed: {value: false, assumed: "a physical board game has no pause procedure"}
  trade.max_value_ratio: {value: none, assumed: "the test pretends the rulebook sets no limit"}
"""
B = """
id: b-game
title: B (from 003)
source: 003_12a896ad6461c82f.txt
rules:
  money.scale: {value: 10, assumed: the platform's amounts are ten times the classic board's}
  jail.fine: {value: 600, quote: "kaznu od $500", gloss: "a fine of $500 [derived: the test's own number]"}
  casino.enabled:
    value: true
    quote: "otvara mini-igru opklada"
    gloss: opens a betting mini-game
  casino.stake: {value: 1000, quote: "i uloži $1,000", gloss: "and stake $1,000"}
  pause.allowed:
    value: true
    quote: "Сваки активни играч може тражити паузу"
    gloss: every active player may ask for a pause
  trade.max_value_ratio:
    value: 2
    quote: "и једна страна не сме премашити другу више од два пута"
    gloss: no side more than twice the other
"""


def _registry(tmp_path, **files) -> Registry:
    paths = []
    for name, text in files.items():
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
        paths.append(tmp_path / f"{name}.yaml")
    return Registry.load(extra=paths, bundled=False)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    reg = _registry(tmp_path_factory.mktemp("two"), a=A, b=B)
    return {f.id: f for f in compare(reg=reg).findings}


def test_the_catalogue_declares_conditions_once():
    cat = load_catalogue()
    assert cat["casino.stake"].applies_when == "casino.enabled"
    assert cat["speed_die.activation_round"].applies_when.startswith("speed_die.enabled")
    assert cat["timer.turn_seconds"].medium == "online" and cat["setup.banker_may_play"].medium == "board"
    # the comparison's own declarations no longer carry conditions
    assert not hasattr(load_declared(), "guards")


def test_a_not_applicable_side_is_shown_and_never_compared(small):
    f = small["assumed:casino.enabled"]                 # the switch itself: stated on one side only
    assert {s.ruleset: s.evidence for s in f.sides} == {"a-game": "assumed", "b-game": "cited"}
    # the stake means nothing where there is no casino: no finding compares it
    assert not [x for x in small.values() if "casino.stake" in x.params]


def test_a_difference_resting_on_an_assumed_side_is_not_a_contradiction(small):
    assert small["assumed:trade.max_value_ratio"].kind == "assumed"
    assert "contradiction:trade.max_value_ratio" not in small
    assert "(assumed)" in small["assumed:trade.max_value_ratio"].summary
    # a difference of medium: a board game's assumed absence of an online feature
    assert small["medium:pause.allowed"].kind == "medium"
    # stated against stated: a contradiction (600 at scale 10 is 60 classic, not 50)
    f = small["contradiction:jail.fine"]
    assert all(s.evidence == "cited" for s in f.sides)


def test_an_unknown_witness_is_reported_never_counted_as_agreement(tmp_path, monkeypatch):
    """A search that neither finds a witness nor proves agreement leaves the finding in, UNKNOWN, with
    the reason; the values are not listed as equivalent."""
    monkeypatch.setattr(wit, "find", lambda probe, parties: Found("unknown", "smt", reason="z3 gave up (timeout)"))
    result = compare(reg=_registry(tmp_path, a=A, b=B))
    f = {x.id: x for x in result.findings}["contradiction:jail.fine"]
    assert f.witness.verdict == "UNKNOWN" and "timeout" in f.witness.detail
    assert not [e for e in result.equivalent if "jail.fine" in e]
    res = CliRunner().invoke(main, ["contradictions", str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml"),
                                    "--kind", "contradiction"])
    assert res.exit_code == 0, res.output                  # shown on the finding, with the reason
    assert "contradiction:jail.fine" in res.output and "UNKNOWN: z3 gave up (timeout)" in res.output
    monkeypatch.setattr(wit, "find", lambda probe, parties: Found("same", "smt"))
    result = compare(reg=_registry(tmp_path, a=A, b=B))
    assert "contradiction:jail.fine" not in {x.id for x in result.findings}
    assert "jail.fine" in result.equivalent                # only a proof makes the values equivalent


def test_lint_refuses_not_applicable_without_a_condition(tmp_path):
    f = tmp_path / "t.yaml"
    f.write_text("id: t\ntitle: t\nextends: official\nrules:\n"
                 "  jail.fine:\n    value: 50\n    assumed: \"Not applicable: no jail here.\"\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["lint", str(f)])
    assert res.exit_code == 1
    assert f"{f}:5: [E034]" in res.output and "jail.fine" in res.output and "applies_when" in res.output


def test_lint_refuses_not_applicable_where_the_condition_holds(tmp_path):
    f = tmp_path / "t.yaml"
    f.write_text("id: t\ntitle: t\nextends: official\nrules:\n"
                 "  casino.enabled:\n    value: true\n    assumed: a casino table\n"
                 "  casino.stake:\n    value: 100\n    assumed: \"Not applicable: no bets here.\"\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["lint", str(f)])
    assert res.exit_code == 1 and f"{f}:8: [E034] t: casino.stake is marked not applicable, but its condition" in res.output
    # a mode of the toolkit that switches a mechanism on must not keep its parent's marks: each is named
    # where it is written
    r = Registry.load(extra=[f], bundled=True).resolve("t")
    inherited = unfounded_marks(r)
    assert "casino.payout_numerator" in " ".join(e.message for e in inherited)
    assert all("official.yaml" in str(e) for e in inherited if "casino.stake" not in e.message)
    # a user's table is not blamed for what it inherits: it plays the kept value and says so
    assert [e.message for e in unfounded_marks(r, {"t"})] == [e.message for e in inherited
                                                              if "casino.stake" in e.message]


def test_a_table_that_switches_a_mechanism_on_says_which_values_it_kept(tmp_path):
    f = tmp_path / "pot.yaml"
    f.write_text("id: pot\ntitle: pot\nextends: official\nrules:\n"
                 "  free_parking.pot:\n    value: true\n    assumed: taxes and fines go to the middle\n",
                 encoding="utf-8")
    assert CliRunner().invoke(main, ["lint", str(f)]).exit_code == 0
    kept = [v for v in table_values(Registry.load(extra=[f]).resolve("pot")) if v.how == "kept"]
    assert [(v.param, v.value, v.file) for v in kept] == [("free_parking.pot_card_payments", False, "official")]
    assert "marks it not applicable" in kept[0].text()


def test_an_open_value_in_a_condition_may_hold():
    reg = load_registry()
    vn = reg.resolve("online-vn")
    assert vn.entries["timer.turn_seconds"].kind == "open"
    assert applies(vn, "timer.reset_by_management")       # the timer's length is open: its details apply
    official = reg.resolve("official")
    assert "timer.reset_by_management" in not_applicable(official)


@pytest.mark.parametrize("text, code", [
    ("  jail.fine:\n    type: money\n    question: q?\n    fallback: 1\n    applies_when: no_such.param\n", "E002"),
    ("  jail.fine:\n    type: money\n    question: q?\n    fallback: 1\n    applies_when: jail.fine > 1\n", "E030"),
    ("  jail.fine:\n    type: money\n    question: q?\n    fallback: 1\n    medium: radio\n", "E030"),
])
def test_bad_catalogue_conditions_are_refused(tmp_path, text, code):
    (tmp_path / "x.yaml").write_text("area: x\nparameters:\n" + text, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        _load_catalogue(str(tmp_path))
    assert err.value.code == code and "x.yaml" in str(err.value)


def test_comparison_yaml_conditions_moved_to_the_catalogue(tmp_path):
    path = tmp_path / "comparison.yaml"
    path.write_text("applies_when:\n  casino.*: casino.enabled\n", encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_declared(path)
    assert err.value.code == "E030" and "catalogue" in err.value.message


def test_json_gives_each_side_its_evidence():
    res = CliRunner().invoke(main, ["contradictions", "--json"])
    assert res.exit_code == 0, res.output
    findings = json.loads(res.output)["findings"]
    seen = set()
    for f in findings:
        for s in f["sides"]:
            assert s["evidence"] in ("cited", "assumed", "silent", "open", "not_applicable")
            seen.add(s["evidence"])
        if f["kind"] == "contradiction":
            # a contradiction differs between stated rules: two sides with different values, each stated
            # exactly where they part (its point of difference)
            stated = {json.dumps(s["value"]) for s in f["sides"] if (s.get("point") or {}).get("evidence") == "stated"}
            assert len(stated) > 1, f["id"]
        if f["kind"] in ("assumed", "medium", "inferred"):
            # a side rests on something weaker than a statement where the values part
            assert any((s.get("point") or {}).get("evidence") not in (None, "stated") for s in f["sides"]), f["id"]
    assert {"cited", "assumed", "not_applicable"} <= seen


def test_the_bundled_report_compares_no_not_applicable_side():
    """Audit row AR: no contradiction or variant sets a side where the parameter is not applicable against
    a statement (such a side is shown, never one of the values compared)."""
    reg = load_registry()
    for f in compare(reg=reg).findings:
        if f.kind not in ("contradiction", "variant", "assumed", "medium"):
            continue
        compared = [s for s in f.sides if s.kind in ("cited", "assumed")]
        for s in compared:
            r = reg.resolve(s.ruleset)
            assert applies(r, s.param), (f.id, s.ruleset)
