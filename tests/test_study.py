"""verify study: the observe hook, the collected statistics, Wilson intervals, the JSON document and its page."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.config import EngineConfig
from verify.engine.policies import make_policies
from verify.engine.engines import rules_for
from verify.engine.simulate import game_seed, play_game
from verify.spec import load_ruleset
from verify.study.analysis import wilson
from verify.study.collect import EVERY, StudyCollector

USER_TABLE = """\
id: study-test-table
title: "My <b>table</b> & co"
extends: official
rules:
  go.salary:
    value: 400
    assumed: "A house rule of ours: double salary."
"""


def test_wilson_interval_matches_the_textbook_values():
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 4) == 0.2775
    assert round(wilson(10, 10)[0], 4) == 0.7225 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(250, 1000)
    assert lo < 0.25 < hi and hi - lo < 0.06


@pytest.mark.parametrize("rid", ["official", "platform-fast", "official-speed-die"])
def test_observing_a_game_does_not_change_it_and_sees_every_turn(rid):
    cfg = EngineConfig.from_ruleset(load_ruleset(rid))
    rules = rules_for(cfg)
    for i in range(3):
        s = game_seed(8, i)
        seen = []
        plain = play_game(rules, make_policies("heuristic", 4, "leave", s), s, 300)
        watched = play_game(rules, make_policies("heuristic", 4, "leave", s), s, 300,
                            observe=lambda g, seen=seen: seen.append(g.player_turns))
        assert watched == plain
        assert seen[:-1] == list(range(len(seen) - 1))       # each player-turn once, in order, then the end
        assert seen[-1] == plain.player_turns


def test_the_collector_samples_the_board_the_bank_and_the_money():
    r = load_ruleset("official")
    cfg = EngineConfig.from_ruleset(r)
    rules = rules_for(cfg)
    col = StudyCollector(rules, 4)
    results = []
    for i in range(8):
        s = game_seed(1, i)
        res = play_game(rules, make_policies("heuristic", 4, "leave", s), s, observe=col.observe)
        col.game_over(res)
        results.append(res)
    doc = col.to_json()
    assert doc["alive"][0] == 8 and doc["houses"][0] == 0 and doc["bank_houses"][0] == 8 * 32
    assert doc["money"][0] == 8 * 4 * cfg.setup.starting_cash
    longest = max(r.player_turns for r in results)
    assert len(doc["alive"]) == (longest - 1) // EVERY + 1
    assert all(h + b <= 32 * a for h, b, a in zip(doc["houses"], doc["bank_houses"], doc["alive"]))
    assert max(doc["houses"]) > 0                          # the bots do build
    groups = sum(int(k) for k in doc["first_group"]) if doc["first_group"] else 0
    assert sum(doc["first_group"].values()) + doc["no_group"] == 8 and groups >= 0


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("study")
    table = tmp / "study-test-table.yaml"
    table.write_text(USER_TABLE, encoding="utf-8")
    res = CliRunner().invoke(main, ["study", "official", "house-no-auction", str(table), "--games", "40",
                                    "--seed", "3", "--out", str(tmp / "out"), "--json"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return tmp, json.loads(res.stdout)


def test_study_document_compares_every_ruleset(study):
    tmp, doc = study
    assert doc["schema"] == "verify.study/1" and doc["games"] == 40
    assert [r["ruleset"] for r in doc["rows"]] == ["official", "official+house-no-auction", "study-test-table"]
    for r in doc["rows"]:
        o = r["outcomes"]
        assert o["last_standing"]["count"] + o["rule_limit"]["count"] + o["stalled"]["count"] == 40
        seats = r["seats"]
        decided = seats[0]["of"]
        assert len(seats) == 4 and sum(s["count"] for s in seats) == decided <= 40
        assert all(s["lo"] <= s["share"] <= s["hi"] for s in seats) and r["fair_share"] == 0.25
        ln = r["length"]
        assert ln["p10"] <= ln["p25"] <= ln["median"] <= ln["p75"] <= ln["p90"] <= ln["max"]
        assert sum(json.loads(json.dumps(ln["histogram"])).values()) == 40
        s = r["series"]
        assert s["turn"][:3] == [0, EVERY, 2 * EVERY] and s["running"][0] == 1.0
        assert len(s["houses"]) == len(s["money"]) == len(s["turn"])
        assert r["bankruptcies"]["total"] == sum(r["bankruptcies"]["by_seat"])
    # a double salary puts more money in play by mid-game than the official rules
    mid = 10
    assert doc["rows"][2]["series"]["money"][mid] > doc["rows"][0]["series"]["money"][mid]
    saved = json.loads((tmp / "out" / "study.json").read_text())
    saved.pop("elapsed_s"), doc.pop("elapsed_s")
    assert saved == doc


def test_study_page_draws_every_chart_and_escapes_what_it_did_not_write(study):
    tmp, doc = study
    html = (tmp / "out" / "study.html").read_text()
    for chart in ("chart-outcomes", "chart-length", "chart-seats", "chart-houses", "chart-bank", "chart-money",
                  "chart-running", "chart-first-group"):
        assert f'id="{chart}"' in html, chart
    assert html.count("<svg") >= 8 and html.count('class="legend"') >= 7
    assert "My &lt;b&gt;table&lt;/b&gt; &amp; co" in html and "<b>table</b>" not in html
    assert 'href="index.html"' not in html                    # standalone: no links to report pages
    assert not list((tmp / "out").glob(".*.tmp"))             # atomic writes leave no temporary file


def test_study_refuses_bad_input_clearly(tmp_path):
    res = CliRunner().invoke(main, ["study", "official", "--players", "9", "--games", "2", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "--players" in res.output and "2 to 8 players" in res.output
    res = CliRunner().invoke(main, ["study", "official", "official", "--games", "2", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "named twice" in res.output
    res = CliRunner().invoke(main, ["study", "no-such-ruleset", "--games", "2", "--out", str(tmp_path)])
    assert res.exit_code == 1 and "[E011]" in res.output
    assert not list(tmp_path.iterdir())


def test_the_main_report_links_the_study_page(study, tmp_path):
    from verify.report import ReportOptions, build
    from verify.report.runs import CheckRun, Simulation
    src, _ = study
    out = tmp_path / "reports"
    summary = build(ReportOptions(out=out, study=src / "out"),
                    hooks={"check": lambda ids: CheckRun("not run", reason="not needed here"),
                           "simulate": lambda t, g, s: Simulation("not run", g, "—", s, reason="not needed")})
    assert "study.html" in summary["pages"] and (out / "study.json").exists()
    index = (out / "index.html").read_text()
    assert re.search(r'<a href="study.html"><span class="num">', index)      # its card on the index
    page = (out / "study.html").read_text()
    assert 'href="index.html"' in page and 'id="chart-seats"' in page      # the report's navigation
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "something else"}')
    from verify.errors import VerifyError
    with pytest.raises(VerifyError, match="not a study document: expected a verify.study/1 document"):
        build(ReportOptions(out=tmp_path / "r2", study=bad, run_check=False, run_simulation=False))
