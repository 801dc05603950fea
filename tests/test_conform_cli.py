"""`verify conform`: the JSON shape and exit codes of the issue, scenario files and --replay, JUnit and
HTML reports (escaped, atomic), clear errors for bad input."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from verify.cli import main

pytestmark = pytest.mark.usefixtures("one_bundled_comparison")

REF = ["--engine", "verify.conform.reference:ReferenceEngine"]
BUG = ["--engine", "tests.conform_engines.faults:ShortMover"]


def _run(args, tmp_path):
    return CliRunner().invoke(main, ["conform", *args, "--scenarios", str(tmp_path / "sc")],
                              catch_exceptions=False)


def test_a_conforming_engine_exits_0_with_the_run_json(tmp_path):
    r = _run([*REF, "--examples", "20", "--seed", "3", "--json"], tmp_path)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert set(doc) == {"engine", "ruleset", "scenarios", "steps", "ok", "strict", "skipped", "violations",
                        "stopped"}
    assert doc["engine"] == "verify-reference" and doc["ruleset"] == "official" and doc["ok"] is True
    assert doc["scenarios"] == 20 and doc["steps"] > 0 and doc["violations"] == []
    assert not (tmp_path / "sc").exists()


def test_the_default_run_checks_500_scenarios(tmp_path):
    r = _run([*REF, "--json"], tmp_path)
    assert r.exit_code == 0 and json.loads(r.output)["scenarios"] == 500


def test_a_violation_exits_1_saves_a_scenario_that_replays(tmp_path):
    r = _run([*BUG, "--examples", "10", "--json"], tmp_path)
    assert r.exit_code == 1
    doc = json.loads(r.output)
    v = doc["violations"][0]
    assert set(v) == {"signature", "rule", "link", "effect", "count", "contexts", "chain", "status", "step",
                      "expected", "actual", "unstated", "scenario_file"}
    assert v["rule"] == "successor" and v["step"] == 1 and v["link"] == "roll" and v["status"] == "new"
    assert v["signature"] == "successor at roll: players[actor].position -" and v["count"] >= 2
    assert v["effect"] == "players[actor].position -" and v["chain"] == "roll"
    assert sum(v["contexts"].values()) == v["count"] and all(c.startswith("roll") for c in v["contexts"])
    assert doc["scenarios"] == 10 and doc["ok"] is False
    saved = json.loads(open(v["scenario_file"]).read())
    assert saved["schema"] == "verify.conform-scenario/1" and len(saved["actions"]) == 1
    again = _run([*BUG, "--replay", v["scenario_file"], "--json"], tmp_path)
    assert again.exit_code == 1 and json.loads(again.output)["violations"][0]["rule"] == "successor"
    fixed = _run([*REF, "--replay", v["scenario_file"]], tmp_path)
    assert fixed.exit_code == 0 and "no deviation; passed" in fixed.output
    sub = _run(["--engine-cmd", "python -m verify.conform.reference", "--replay", v["scenario_file"]], tmp_path)
    assert sub.exit_code == 0, sub.output


def test_the_text_output_is_a_step_list_with_board_lines(tmp_path):
    r = _run([*BUG, "--examples", "10"], tmp_path)
    assert r.exit_code == 1
    out = r.output
    assert "successor broken at step 1 of 1" in out and "Loaded state" in out and "player 0: cash" in out
    assert "Step 1: player" in out and "State diff:" in out and "position: ruleset" in out
    assert "Deviation: successor at roll: players[actor].position - — seen in" in out and " of 10 scenario(s)" in out
    assert "on square" in out and "next cards: chance" in out          # what a roll's deviation turns on
    assert "Replay: verify conform --replay" in out and "--engine tests.conform_engines.faults:ShortMover" in out
    (replay_line,) = [line for line in out.splitlines() if line.startswith("Replay: ")]
    assert replay_line.split()[4].startswith(str(tmp_path / "sc") + "/")   # the --scenarios folder used
    assert "1 cause(s) (1 new); FAILED" in out


def test_junit_and_html_reports(tmp_path):
    junit, html = tmp_path / "out.xml", tmp_path / "html"
    r = _run([*BUG, "--examples", "10", "--junit", str(junit), "--html", str(html)], tmp_path)
    assert r.exit_code == 1
    suite = ET.parse(junit).getroot()
    assert suite.tag == "testsuite" and suite.get("failures") == "1"
    assert "successor" in suite.find("testcase/failure").text
    assert suite.find("testcase").get("name").startswith("successor at roll: players[actor].position - (")
    page = (html / "index.html").read_text()
    assert "Engine conformance" in page and "successor" in page and 'id="violation-count-1">1<' in page
    assert "<code>successor at roll: players[actor].position -</code>" in page and " of 10</td>" in page
    files = list((html / "scenarios").glob("*.json"))
    assert len(files) == 1 and f'href="scenarios/{files[0].name}"' in page
    saved = json.loads((html / "conform.json").read_text())      # what `verify report --conform` shows
    assert saved["schema"] == "verify.conform-run/1" and saved["engine"] == "short-mover"
    [v] = saved["violations"]
    assert v["rule"] == "successor" and "Step 1: player" in v["text"] and v["file"] == f"scenarios/{files[0].name}"
    assert v["count"] >= 2 and v["status"] == "new" and saved["ok"] is False
    assert v["scenario"] == json.loads(files[0].read_text())
    ok = _run([*REF, "--examples", "5", "--junit", str(junit), "--html", str(html)], tmp_path)
    assert ok.exit_code == 0
    assert ET.parse(junit).getroot().get("failures") == "0"
    assert 'id="violation-count-1">0<' in (html / "index.html").read_text()
    assert not list((html / "scenarios").glob("*.json"))          # the folder was replaced as a whole


def test_html_escapes_what_the_engine_says(tmp_path):
    html = tmp_path / "html"
    r = _run(["--engine", "tests.conform_engines.faults:Named", "--examples", "3", "--html", str(html)], tmp_path)
    assert r.exit_code == 0
    page = (html / "index.html").read_text()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_html_folder_is_never_one_with_foreign_files(tmp_path):
    html = tmp_path / "mine"
    html.mkdir()
    (html / "notes.txt").write_text("keep me")
    r = CliRunner().invoke(main, ["conform", *REF, "--examples", "2", "--html", str(html)])
    assert r.exit_code != 0 and (html / "notes.txt").read_text() == "keep me"


@pytest.mark.parametrize("args, needle", [
    ([], "--engine"),
    ([*REF, "--engine-cmd", "x"], "one of them"),
    ([*REF, "--examples", "0"], "examples"),
    ([*REF, "--step-timeout", "0"], "step-timeout"),
])
def test_usage_errors_exit_2(args, needle, tmp_path):
    r = CliRunner().invoke(main, ["conform", *args])
    assert r.exit_code == 2 and needle in r.output


@pytest.mark.parametrize("content, message", [
    ("{not json", "not JSON"),
    ('{"schema": "other"}', "not a scenario file"),
    ('{"schema": "verify.conform-scenario/1", "ruleset": "official", "state": {}, "actions": []}',
     "verify.state/1"),
    ('{"schema": "verify.conform-scenario/1", "ruleset": "official", "state": {"schema": "verify.state/1"}, '
     '"actions": [1]}', "action 1"),
])
def test_a_malformed_scenario_file_is_e026(content, message, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    r = CliRunner().invoke(main, ["conform", *REF, "--replay", str(bad)])
    assert r.exit_code == 1                     # bad input: one line, exit 1 (verify.cli, for every command)
    assert "[E026]" in r.output and message in r.output and str(bad) in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("args, code, needle", [
    (["--engine", "no_such_module:Engine"], "E015", "cannot import"),
    (["--engine", "not-a-spec"], "E026", "module:Class"),
    (["--engine-cmd", "'unbalanced"], "E026", "--engine-cmd"),
    ([*REF, "--ruleset", "no-such-ruleset"], "E011", "no-such-ruleset"),
])
def test_bad_engine_specs_and_rulesets_are_named(args, code, needle):
    r = CliRunner().invoke(main, ["conform", *args, "--examples", "2"])
    assert r.exit_code == 1 and f"[{code}]" in r.output and needle in r.output


def test_the_main_report_links_saved_conformance_runs(tmp_path):
    bug, ok = tmp_path / "bug", tmp_path / "ok"
    assert _run([*BUG, "--examples", "10", "--html", str(bug)], tmp_path).exit_code == 1
    assert _run([*REF, "--ruleset", "official-timed", "--set", "end.time_limit_minutes=45", "--examples", "3",
                 "--html", str(ok)], tmp_path).exit_code == 0
    out = tmp_path / "report"
    r = CliRunner().invoke(main, ["report", "--no-check", "--no-simulate", "--out", str(out),
                                  "--conform", str(bug), "--conform", str(ok / "conform.json")])
    assert r.exit_code == 0, r.output
    page = (out / "conformance.html").read_text()
    assert 'href="#run-1">short-mover<' in page and 'href="#run-2">verify-reference<' in page
    assert 'id="violation-count-1">1<' in page and 'id="violation-count-2">0<' in page
    assert "Step 1: player" in page and "--set end.time_limit_minutes=45" in page
    assert "&#34;schema&#34;: &#34;verify.conform-scenario/1&#34;" in page     # the scenario, inline
    index = (out / "index.html").read_text()
    assert '<a href="conformance.html">Conformance</a>' in index.split("</nav>")[0]
    assert 'href="conformance.html"><span class="num">1</span>' in index
    without = tmp_path / "plain"
    assert CliRunner().invoke(main, ["report", "--no-check", "--no-simulate", "--out", str(without)]).exit_code == 0
    assert not (without / "conformance.html").exists() and "conformance.html" not in (without / "index.html").read_text()
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "verify.conform-run/1", "engine": "x"}')
    r = CliRunner().invoke(main, ["report", "--no-check", "--no-simulate", "--out", str(tmp_path / "r2"),
                                  "--conform", str(bad)])
    assert r.exit_code == 1 and "[E026]" in r.output and str(bad) in r.output and not (tmp_path / "r2").exists()


def test_a_baseline_accepts_known_causes_and_names_new_changed_and_vanished_ones(tmp_path):
    base = tmp_path / "baseline.json"
    r = _run([*BUG, "--examples", "10", "--write-baseline", str(base)], tmp_path)
    assert r.exit_code == 0, r.output                 # today's behaviour accepted: the step succeeds under set -e
    assert f"wrote 1 cause(s) to {base} as accepted" in r.output
    assert "1 cause(s) (1 accepted); passed" in r.output and "FAILED" not in r.output   # as the file now says
    written = json.loads(base.read_text())
    assert written["schema"] == "verify.conform-baseline/2" and written["engine"] == "short-mover"
    assert [c["cause"] for c in written["causes"]] == ["successor at roll: players[actor].position -"]
    assert written["causes"][0]["contexts"] and written["causes"][0]["count"] >= 2
    again = _run([*BUG, "--examples", "10", "--baseline", str(base), "--json"], tmp_path)
    assert again.exit_code == 0, again.output
    doc = json.loads(again.output)
    assert doc["ok"] and [v["status"] for v in doc["violations"]] == ["accepted"]
    assert doc["baseline"]["no_longer_seen"] == []
    # a baseline from another engine: its cause is new, the accepted one no longer appears
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"schema": "verify.conform-baseline/2", "engine": "x", "ruleset": "official",
                                 "causes": [{"cause": "legality at build_house: accepted: build evenly"}]}))
    text = _run([*BUG, "--examples", "10", "--baseline", str(other)], tmp_path)
    assert text.exit_code == 1
    assert "Accepted in the baseline, no longer seen: legality at build_house: accepted: build evenly" in text.output
    assert "Status: a deviation" in text.output
    # the same link with another effect: changed, and named with the one it replaces
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps({"schema": "verify.conform-baseline/2", "engine": "x", "ruleset": "official",
                                   "causes": [{"cause": "successor at roll: players[actor].cash +"}]}))
    c = json.loads(_run([*BUG, "--examples", "10", "--baseline", str(changed), "--json"], tmp_path).output)
    assert c["violations"][0]["status"] == "changed"
    assert c["violations"][0]["was"] == "successor at roll: players[actor].cash +" and not c["ok"]
    junit = tmp_path / "j.xml"
    assert _run([*BUG, "--examples", "10", "--baseline", str(base), "--junit", str(junit)], tmp_path).exit_code == 0
    suite = ET.parse(junit).getroot()
    assert suite.get("failures") == "0" and suite.get("skipped") == "1"
    # causes no longer seen are dropped from the file on request, notes of the others kept
    both = tmp_path / "both.json"
    both.write_text(json.dumps({"schema": "verify.conform-baseline/2", "engine": "x", "ruleset": "official",
                                "causes": [{"cause": "successor at roll: players[actor].position -", "note": "ours"},
                                           {"cause": "legality at build_house: accepted: build evenly"}]}))
    pruned = _run([*BUG, "--examples", "10", "--baseline", str(both), "--prune-baseline"], tmp_path)
    assert pruned.exit_code == 0 and f"dropped 1 cause(s) no longer seen from {both}" in pruned.output
    assert json.loads(both.read_text())["causes"] == [{"cause": "successor at roll: players[actor].position -",
                                                       "note": "ours"}]
    assert CliRunner().invoke(main, ["conform", *BUG, "--prune-baseline"]).exit_code == 2


def test_a_malformed_baseline_is_e026(tmp_path):
    bad = tmp_path / "b.json"
    bad.write_text('{"schema": "verify.conform-baseline/2", "causes": [{"count": 3}]}')
    r = CliRunner().invoke(main, ["conform", *REF, "--examples", "2", "--baseline", str(bad)])
    assert r.exit_code == 1 and "[E026]" in r.output and '"cause"' in r.output and str(bad) in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_a_signature_baseline_of_earlier_versions_is_refused_with_how_to_write_it_again(tmp_path):
    old = tmp_path / "old.json"
    old.write_text('{"schema": "verify.conform-baseline/1", "engine": "x", "ruleset": "official", '
                   '"deviations": [{"signature": "successor on roll: players[actor].position -"}]}')
    r = CliRunner().invoke(main, ["conform", *REF, "--examples", "2", "--baseline", str(old)])
    assert r.exit_code == 1 and len(r.output.strip().splitlines()) == 1, r.output
    assert "[E026]" in r.output and "--write-baseline" in r.output and str(old) in r.output


def test_paths_are_the_users_own_relative_to_where_the_command_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["conform", *BUG, "--examples", "10", "--write-baseline", "known.json",
                                  "--scenarios", "found"])
    assert r.exit_code == 0 and (tmp_path / "known.json").is_file() and list((tmp_path / "found").glob("*.json"))
    again = CliRunner().invoke(main, ["conform", *BUG, "--examples", "10", "--baseline", "known.json",
                                      "--scenarios", "found"])
    assert again.exit_code == 0, again.output


def test_an_unstated_deviation_passes_unless_strict(tmp_path):
    args = ["--engine", "tests.conform_engines.broken:OverCashBidder", "--json"]
    doc = json.loads(_run(args, tmp_path).output)
    dev = next(v for v in doc["violations"] if v["link"] == "bid")
    assert dev["status"] == "unstated" and dev["unstated"]["param"] == "auction.bid_above_cash"
    assert dev["unstated"]["kind"] == "assumed" and dev["unstated"]["value"] is True and doc["ok"] is True
    strict = _run([*args, "--strict"], tmp_path)
    assert strict.exit_code == 1 and json.loads(strict.output)["violations"][0]["status"] == "new"
