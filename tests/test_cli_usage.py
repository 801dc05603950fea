"""Every argument is validated (usage error, exit 2); every error is one line (exit 1); no traceback."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.output import atomic_dir

# arguments -> a fragment of the usage message (exit status 2)
USAGE = [
    (["report", "--games", "-1"], "-1 is not in the range x>=1"),
    (["report", "--games", "0"], "0 is not in the range x>=1"),
    (["check", "--jobs", "0"], "at least 1 is needed"),
    (["check", "--timeout", "-1"], "above 0"),
    (["check", "--timeout", "nan"], "above 0"),
    (["simulate", "--jobs", "1000"], "per CPU"),
    (["simulate", "--players", "9"], "2 to 8 players"),
    (["simulate", "platform-teams", "--players", "3"], "4 to 4 players"),
    (["show", "official", "--area", "bogus"], "unknown area 'bogus'"),
    (["show", "official", "--area", "jale"], "did you mean 'jail'"),
    (["ask", "--limit", "0", "jail"], "0 is not in the range x>=1"),
    (["ask", " "], "the question is empty"),
    (["compile", "official", "--target", "nope"], "unknown target"),
    (["simulate", "house-no-auction"], "is an overlay"),
]


@pytest.mark.parametrize("args, fragment", USAGE, ids=[" ".join(a) for a, _ in USAGE])
def test_bad_arguments_are_usage_errors(args, fragment):
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    assert fragment in res.output and "Traceback" not in res.output


def test_a_bad_games_count_leaves_the_previous_report(tmp_path):
    out = tmp_path / "reports"
    with atomic_dir(out) as tmp:
        (tmp / "index.html").write_text("good report")
    res = CliRunner().invoke(main, ["report", "--out", str(out), "--games", "0"])
    assert res.exit_code == 2 and (out / "index.html").read_text() == "good report"


def _check_json(tmp_path, doc) -> str:
    path = tmp_path / "check.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    res = CliRunner().invoke(main, ["report", "--out", str(tmp_path / "r"), "--no-simulate",
                                    "--check-json", str(path)])
    assert res.exit_code == 1, res.output
    assert not (tmp_path / "r").exists()
    assert "comparing" not in res.output        # refused before the comparison's minute of work
    return res.output


ROW = {"ruleset": "official", "invariant": "even-build", "action": "build_house", "promised": True,
       "verdict": "PROVED", "counterexample": None, "reason": None}


@pytest.mark.parametrize("doc, code, fragment", [
    ("", "E031", "Expecting value"),
    ({}, "E031", 'no "results" list'),
    ({"results": []}, "E031", "holds no result"),
    ({"results": [dict(ROW, verdict="FINE")]}, "E031", "verdict 'FINE'"),
    ({"results": [dict(ROW, promised="yes")]}, "E031", "no valid 'promised'"),
    ({"results": [dict(ROW, ruleset="my-table")]}, "E032", "ruleset 'my-table', which this report does not include"),
    ({"results": [ROW], "summary": {"checks": 4913}}, "E031", "counts 4913 checks but it holds 1"),
    ({"results": [ROW]}, "E032", "saved for an unrecorded config"),                  # written before the hashes
    ({"results": [dict(ROW, config="0123456789abcdef")]}, "E032", "saved for config 0123456789abcdef, but 'official'"),
])
def test_an_empty_or_fake_check_json_is_never_shown(tmp_path, doc, code, fragment):
    out = _check_json(tmp_path, doc)
    assert f"[{code}]" in out and fragment in out


def test_replay_with_a_ruleset_that_checks_no_step(tmp_path):
    trace = tmp_path / "t.jsonl"
    res = CliRunner().invoke(main, ["simulate", "--games", "1", "--max-turns", "20", "--trace", str(trace)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["replay", str(trace), "--ruleset", "classic-pl"])
    assert res.exit_code == 2 and "no step can be checked" in res.output
    header = trace.read_text().splitlines()[0]
    (tmp_path / "h.jsonl").write_text(header + "\n")
    res = CliRunner().invoke(main, ["replay", str(tmp_path / "h.jsonl")])
    assert res.exit_code == 1 and "[E016] no step was checked" in res.output


def test_errors_are_exit_1_and_one_line():
    res = CliRunner().invoke(main, ["show", "no-such-ruleset"])
    assert res.exit_code == 1 and res.output.strip().splitlines() == [
        "[E011] unknown ruleset 'no-such-ruleset'; `verify rulesets` lists them"]


def test_an_unexpected_error_is_one_line_not_a_traceback(monkeypatch):
    def bug(*a, **k):
        raise TypeError("a bug in the toolkit")
    monkeypatch.setattr("verify.commands.show.load_ruleset", bug)
    res = CliRunner().invoke(main, ["show", "official"])
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert res.output.strip().splitlines() == [
        "verify: internal error (TypeError: a bug in the toolkit); please report it, "
        "with VERIFY_DEBUG=1 for the traceback"]
