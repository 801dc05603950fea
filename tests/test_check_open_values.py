"""verify check and the comparison over open values: every value where the checks never read it, each
value of a small domain otherwise, or the assumed value said out loud; the report shows which."""

from __future__ import annotations

import json

from click.testing import CliRunner

from verify.cli import main
from verify.compare import witness as wit
from verify.compare.declared import load_declared
from verify.compare.from_rulesets import _Ctx, load_registry
from verify.compare.probes import BY_ID
from verify.report import matrix
from verify.report.site import environment
from verify.report.runs import CheckRun
from verify.spec import load_ruleset


def _check(*args):
    res = CliRunner().invoke(main, ["check", "--json", *args])
    assert res.exit_code in (0, 1), res.output
    # the constraints say for themselves what a host's choice could break; the proofs carry open_values
    return [r for r in json.loads(res.output)["results"] if not r["invariant"].startswith("constraint:")]


def test_an_unread_open_value_holds_for_every_value():
    rows = _check("official-timed", "--action", "build_house")
    assert rows and all(r["open_values"] == ["end.time_limit_minutes: every value (the checks never read it)"]
                        for r in rows)


def test_a_read_open_value_is_checked_for_each_value_of_its_domain():
    rows = _check("platform-custom", "--action", "build_house")
    notes = set(rows[0]["open_values"])
    assert "building.even_build: each value (true, false) checked" in notes
    assert "setup.starting_cash: every value (the checks never read it)" in notes
    assert any(n.startswith("mortgage.expiry_rounds: assumed never") for n in notes) or \
        "mortgage.expiry_rounds: every value (the checks never read it)" in notes
    even = next(r for r in rows if r["invariant"] == "even-build")
    # the fallback (even building) proves it; a host who lifts evenness breaks it, and the verdict says so
    assert even["verdict"] == "VIOLATED" and "building.even_build = false" in even["reason"]
    assert not even["promised"]


def test_supplied_values_leave_nothing_open():
    rows = _check("official-timed", "--action", "build_house", "--set", "end.time_limit_minutes=90")
    assert rows and not any(r.get("open_values") for r in rows)


def test_a_witness_names_the_open_value_it_assumed():
    reg = load_registry()
    ctx = _Ctx(reg, load_declared())
    classic, custom = load_ruleset("platform-classic"), load_ruleset("platform-custom")
    w, differs = wit.witness(BY_ID["go_salary"], [ctx.party(classic), ctx.party(custom)])
    assert differs and ("platform-custom", "go.salary_stop_minute", "never") in w.assumed
    # the engine played the custom table at that value, and its replay file supplies it again
    assert w.games[1][0]["set"]["go.salary_stop_minute"] == "never"
    assumed = w.to_json()["assumed"]
    assert {"ruleset": "platform-custom", "param": "go.salary_stop_minute", "value": "never"} in assumed
    assert all(a["ruleset"] == "platform-custom" for a in assumed)      # platform-classic has none open


def test_the_matrix_page_shows_how_open_values_were_checked():
    rows = ({"ruleset": "platform-custom", "invariant": "even-build", "action": "build_house", "promised": False,
             "verdict": "PROVED", "open_values": ["setup.starting_cash: every value (the checks never read it)"]},)
    m = dict(matrix.view(CheckRun("ran", rows).results, ["platform-custom"]), status="ran", elapsed=1.0,
             source=None, slugs={})
    html = environment().get_template("matrix.html").render(
        page="matrix.html", m=m, rulesets=[], ruleset_ids=set(), kinds=(), kind_text={}, languages={},
        generated="now", nav=[], cards=[], tables=[])
    assert 'id="open-values"' in html and "setup.starting_cash: every value" in html
