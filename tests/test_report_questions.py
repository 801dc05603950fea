"""The questions, the rulings sheet and the findings agree, and the first page measures what answers change.

A question is disputed exactly when a finding between stated rules touches one of its parameters
(tested on every question); the sheet offers every bundled ruleset's answer, marks the assumed ones,
and shows a value that does not apply as not applicable; each answer's effect on the base game is
played by the engine, with its interval, or said to be the base's or unplayable.
"""

from __future__ import annotations

import importlib
import math
import random

import pytest

from verify.compare.from_rulesets import _Ctx, load_registry, ordered
from verify.compare.model import KINDS, Finding, Side
from verify.compare.questions import load_questions
from verify.compare.values import key
from verify.report import questions
from verify.report.decisions import decisions, difference_text
from verify.report.effects import Effect, Effects, measure, paired
from verify.report.findings import STATED_KINDS, stated_disagreement

pytestmark = pytest.mark.usefixtures("one_bundled_comparison")


@pytest.fixture(scope="module")
def bundled():
    reg = load_registry()
    rs = ordered(reg)
    comparison = importlib.import_module("verify.report.build").compare(reg=reg)   # shared with the report tests
    return reg, rs, comparison, questions.question_rows(reg, rs, (), comparison.findings)


def test_a_question_is_disputed_exactly_when_a_finding_between_stated_rules_touches_it(bundled):
    _, _, comparison, rows = bundled
    assert len(rows) == len(load_questions())
    as_json = comparison.to_json()["findings"]          # read apart from the code under test
    for row in rows:
        q = row["q"]
        expected = sorted(f["id"] for f in as_json if f["kind"] in ("contradiction", "internal")
                          and set(q.params) & {p for g in [f, *f.get("consequences", [])] for p in g["params"]})
        assert sorted(d["id"] for d in row["disputes"]) == expected, q.id
        assert row["disputed"] == bool(expected), q.id
    assert {r["disputed"] for r in rows} == {True, False}
    # the questions the first page leads with: disputed, or changed by a bundled house rule
    by_id = {r["q"].id: r for r in rows}
    assert by_id["free-parking-money"]["house"] == ["house-free-parking-pot"]
    assert by_id["auction-or-not"]["house"] == ["house-no-auction"] and by_id["auction-or-not"]["to_decide"]
    assert all(r["to_decide"] == (r["disputed"] or bool(r["house"])) for r in rows)


def _side(ruleset, value, source="000_91979e7e1d6b8ee6.txt", evidence="cited"):
    return Side(ruleset, source, "q", "g", value, kind=evidence, normalized=value, param="rent.jailed_owner_collects",
                evidence=evidence)


def test_only_a_disagreement_between_stated_rules_disputes_a_question():
    q = next(q for q in load_questions() if q.id == "rent-while-jailed")
    sides = (_side("official", True), _side("platform-classic", False, "003_12a896ad6461c82f.txt"))
    for kind in KINDS:
        f = Finding(f"{kind}:x", "rent", kind, "s", sides, params=("rent.jailed_owner_collects",))
        assert (questions.disputes(q, [f]) == [f]) == (kind in STATED_KINDS), kind
        assert stated_disagreement(f) == (kind in STATED_KINDS)
    assert set(STATED_KINDS) <= set(KINDS)
    # a user's table rules in its own words (no source): its difference with a rulebook is its choice
    table = Finding("contradiction:our-table:rent.jailed_owner_collects", "rent", "contradiction", "s",
                    (_side("our-table", False, None, "assumed"), _side("official", True)),
                    params=("rent.jailed_owner_collects",))
    assert questions.disputes(q, [table]) == []
    other = Finding("contradiction:go.salary", "movement", "contradiction", "s", sides, params=("go.salary",))
    assert questions.disputes(q, [other]) == []
    # one disagreement that also decides the question's parameter (a merged finding's consequence)
    if "consequences" in Finding.__dataclass_fields__:
        merged = Finding("contradiction:go.salary", "movement", "contradiction", "s", sides, params=("go.salary",),
                         consequences=(Finding("contradiction:rent.jailed_owner_collects", "rent", "contradiction",
                                               "s", sides, params=("rent.jailed_owner_collects",)),))
        assert questions.disputes(q, [merged]) == [merged]


def test_the_sheet_offers_every_bundled_rulesets_answer_on_every_question(bundled):
    reg, rs, _, rows = bundled
    ctx = _Ctx(reg)
    for row in rows:
        q = row["q"]
        for r, cell in zip(rs, row["cells"]):
            rd = row["readings"][cell["reading"]]
            sides = [ctx.side(r, p) for p in q.params]
            decided = [s.kind in ("cited", "assumed") and s.evidence != "not_applicable" for s in sides]
            assert rd["offered"] == any(decided), (q.id, r.id)
            assert r.id in rd["rulesets"]
            for s, d, v, o in zip(sides, decided, rd["values"], rd["open"]):
                assert (key(v) == key(s.normalized)) if d else v is None, (q.id, r.id, s.param)
                assert o == (s.kind == "open"), (q.id, r.id, s.param)
    by_id = {r["q"].id: r for r in rows}

    def offered(qid):
        return {tuple(map(key, rd["values"])): rd for rd in by_id[qid]["readings"] if rd["offered"]}
    fp = offered("free-parking-money")
    assert "official" in fp[(key(False), key(None), key(False))]["rulesets"]          # the official "no pot"
    assert "official+house-free-parking-pot" in fp[(key(True), key(True), key(False))]["rulesets"]
    auction = {rd["values"][0] for rd in offered("auction-or-not").values()}
    assert {"auction", "stays_unowned"} <= auction                                    # official and the house rule
    assert len(offered("game-end")) >= 4 and len(offered("turn-timer")) >= 4


def test_a_value_that_does_not_apply_is_never_called_silent(bundled):
    reg, rs, _, rows = bundled
    row = next(r for r in rows if r["q"].id == "free-parking-money")
    cell = row["cells"][[r.id for r in rs].index("official")]
    assert cell["short"] == "pot: no · pot card payments: not applicable · reward: no"
    for row in rows:
        for rd in row["readings"]:
            for part in rd["parts"]:
                assert (part["text"] == "not applicable") == (part["status"] == "not_applicable")
                assert (part["text"] == "silent") == (part["status"] == "silent")


def test_an_answer_a_ruleset_only_assumes_says_so(bundled):
    _, _, _, rows = bundled
    row = next(r for r in rows if r["q"].id == "turn-timer")
    rd = next(rd for rd in row["readings"] if "official" in rd["rulesets"])
    official = next(w for w in rd["who"] if w["id"] == "official")
    assert official["assumed"] and rd["offered"]
    env = importlib.import_module("verify.report.site").environment()
    who = env.from_string('{% import "macros.html" as m %}{{ m.who(rd) }}').render(rd=rd)
    assert "assumed, not stated, by official" in who


def test_paired_differences_and_their_interval():
    rnd = random.Random(4)
    base = [rnd.gauss(200, 60) for _ in range(400)]
    same = paired(base, base)
    assert same.identical and not same.measurable and same.mean == 0
    longer = paired([b + 30 + rnd.gauss(0, 20) for b in base], base)
    assert longer.measurable and longer.lo > 0 and abs(longer.mean - 30) < 5
    noisy = paired([b + rnd.gauss(0, 200) for b in base], base)
    assert not noisy.measurable and noisy.lo < 0 < noisy.hi
    assert math.isclose(noisy.hi - noisy.mean, noisy.mean - noisy.lo)
    assert difference_text(noisy, "game length", "player-turns", "official").startswith(
        "game length: no measurable difference at 400 games (95 % interval")
    assert difference_text(longer, "game length", "player-turns", "official").startswith("game length +3")


def test_each_answer_is_played_on_the_base_or_says_why_not(bundled):
    reg, _, _, rows = bundled
    wanted = {"free-parking-money", "turn-timer", "casino", "game-end"}
    few = [r for r in rows if r["q"].id in wanted]
    e = measure(reg.resolve("official"), few, games=6, progress=False, jobs=1)
    assert e.status == "ran" and e.games == 6 and e.players == 4 and e.base_means["turns"] > 0
    got = {}
    for row in few:
        for i, rd in enumerate(row["readings"]):
            if rd["offered"]:
                got[(row["q"].id, rd["short"])] = e.by_answer[(row["q"].id, i)]
    pot = got[("free-parking-money", "pot: yes · pot card payments: yes · reward: no")]
    assert pot.status == "measured" and pot.length.games == 6
    assert got[("free-parking-money", "pot: no · pot card payments: not applicable · reward: no")].status == "as_base"
    timers = [v for (q, _), v in got.items() if q == "turn-timer" and v.status == "measured"]
    assert timers and all(v.length.identical and v.money.identical for v in timers)    # the engine plays no clock
    casino = [v for (q, s), v in got.items() if q == "casino" and s.startswith("enabled: yes")]
    assert casino and all(v.status == "not_played" and "casino" in v.why for v in casino)
    timed = [v for (q, s), v in got.items() if q == "game-end" and "set by the host" in s]
    assert timed and all(v.status == "not_played" and "set by the host" in v.why for v in timed)
    # the first page: the house-rule classics lead; an unmeasured report says why
    order = decisions(rows, e)
    assert {d["q"].id for d in order[:5]} == {"free-parking-money", "auction-or-not", "exact-go-bonus",
                                             "first-round-buying", "rent-while-jailed"}
    assert all(d["classic"] for d in order[:5]) and not any(d["classic"] for d in order[5:])
    assert len(order) == sum(1 for r in rows if r["to_decide"])
    none = decisions(rows, Effects("official", 0, 0, {}, {}, "not run", "skipped (--no-simulate)"))
    assert all(a["texts"] == ["not measured (skipped (--no-simulate))"] for d in none for a in d["answers"]
               if not a["base"])
    assert Effect("as_base").size({"turns": 200}) == 0.0
