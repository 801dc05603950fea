"""The HTML report: every page written, honest not-run states, escaping, atomic replacement."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from verify.compare.model import Side
from verify.errors import VerifyError
from verify.report import PAGES, ReportOptions, build
from verify.output import MARKER, atomic_dir
from verify.report.build import environment
from verify.report.runs import CheckRun, SimRun, Simulation


pytestmark = pytest.mark.usefixtures("one_bundled_comparison")


def no_check(ids):
    return CheckRun("not run", reason="not part of this build")


def no_sim(targets, games, seed):
    return Simulation("not run", games, "—", seed, reason="the engine is not part of this build")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("r") / "reports"
    summary = build(ReportOptions(out=out), hooks={"check": no_check, "simulate": no_sim})
    return out, summary


def test_every_page_is_written(report):
    out, summary = report
    optional = {"study.html", "conformance.html"}   # only with --study / --conform (saved documents)
    single = [p.file for p in PAGES if "*" not in p.file and p.file not in optional]
    for name in single:
        assert (out / name).is_file(), name
    assert not any((out / name).exists() for name in optional)
    rulesets = list(out.glob("ruleset-*.html"))
    topics = list(out.glob("findings-*.html"))
    assert len(topics) >= 10 and (out / "findings-rent.html").is_file()
    witnesses = list(out.glob("witnesses/*.jsonl"))             # every witness the engine played, replayable
    assert len(witnesses) >= 20
    assert len(rulesets) + len(topics) == len(summary["pages"]) - len(single) - 1  # - the JSON
    assert sorted(f"witnesses/{w.name}" for w in witnesses) == sorted(summary["witnesses"])
    assert (out / "ruleset-official.html").is_file()
    assert (out / MARKER).is_file()
    doc = __import__("json").loads((out / "contradictions.json").read_text(encoding="utf-8"))
    assert len(doc["findings"]) == sum(summary["counts"].values())


def test_not_run_is_never_proved(report):
    out, _ = report
    html = (out / "matrix.html").read_text(encoding="utf-8")
    assert "Not run." in html and "not part of this build" in html
    assert 'class="v-PROVED"' not in html and "<table" not in html    # no verdict cell at all
    assert "Not run." in (out / "simulation.html").read_text(encoding="utf-8")


def test_quotes_carry_their_language(report):
    out, _ = report
    html = "".join(p.read_text(encoding="utf-8") for p in out.glob("findings-*.html"))
    for lang in ("tr", "pl", "vi", "sr"):
        assert f'<blockquote lang="{lang}">' in html


def test_pages_are_self_contained(report):
    out, _ = report
    for page in out.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert not re.search(r'(src|href)="(https?:)?//', html), page.name
        assert "<script src" not in html


def test_matrix_from_check_results(tmp_path):
    results = [{"ruleset": "official", "invariant": "even-build", "action": "build", "promised": True,
                "verdict": "PROVED", "counterexample": None, "reason": None},
               {"ruleset": "official", "invariant": "house-supply", "action": "sell", "promised": True,
                "verdict": "VIOLATED", "counterexample": {"before": {"<b>": 1}}, "reason": "supply <leak>"}]
    out = tmp_path / "rep"
    build(ReportOptions(out=out), hooks={"check": lambda ids: CheckRun("ran", tuple(results), elapsed_s=0.1),
                                         "simulate": no_sim})
    html = (out / "matrix.html").read_text(encoding="utf-8")
    assert 'class="v-VIOLATED"' in html and 'class="v-PROVED"' in html
    assert "supply &lt;leak&gt;" in html and "<leak>" not in html


def test_simulation_charts(tmp_path):
    def sim(targets, games, seed):
        runs = tuple(SimRun(rid, "ran", {"games": games, "finished": games, "turns": {"mean": 80 + i, "median": 78,
                                                                                    "p90": 120},
                                         "landings": [i + 1] * 40, "elapsed_s": 0.1})
                     for i, (rid, _p) in enumerate(targets[:3]))
        return Simulation("ran", games, "4", seed, runs)
    out = tmp_path / "rep"
    build(ReportOptions(out=out, games=7), hooks={"check": no_check, "simulate": sim})
    html = (out / "simulation.html").read_text(encoding="utf-8")
    assert "7 seeded games per ruleset" in html
    assert html.count("<svg") == 1 + 3            # game length + one landing chart per ruleset


def test_open_values_are_not_played_and_the_report_says_why(tmp_path):
    """online-vn's round limit, official-timed's time limit and the platform's custom tables are open:
    the simulation step never plays them at a value nobody gave (nor fails on E020), and each row says why."""
    asked = []

    def sim(targets, games, seed):
        asked.extend(rid for rid, _p in targets)
        return Simulation("ran", games, "4", seed, tuple(SimRun(rid, "ran", {
            "games": games, "finished": games, "turns": {"mean": 80, "median": 78, "p90": 120},
            "landings": [1] * 40, "elapsed_s": 0.1}) for rid, _p in targets))
    out = tmp_path / "rep"
    summary = build(ReportOptions(out=out, games=2), hooks={"check": no_check, "simulate": sim})
    assert "official" in asked and not {"online-vn", "official-timed", "platform-custom"} & set(asked)
    assert set(summary["not_played"]) == {"online-vn", "official-timed", "platform-custom"}
    html = (out / "simulation.html").read_text(encoding="utf-8")
    assert 'id="sim-not-played"' in html
    assert re.search(r'online-vn</a></th>\s*<td colspan="7" class="muted">not played: 3 values are open '
                     r'\(auction.min_increment, end.round_limit, timer.turn_seconds\)', html)
    assert "supply it with --set end.time_limit_minutes=VALUE" in html          # one open value: named
    assert "12 values are open" in html and "--set end.time_limit_minutes=VALUE" in html
    assert "3 not played (open values)" in (out / "index.html").read_text(encoding="utf-8")


def test_everything_not_ours_is_escaped():
    env = environment()
    evil = Side("x<script>", "s.txt", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<b>",
                quotes=("<script>alert(1)</script>",), language="tr")
    html = env.from_string('{% import "macros.html" as m %}{{ m.quote_block(s) }}{{ m.value_text(s) }}').render(s=evil)
    assert "<script>" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;" in html


def test_failed_run_leaves_previous_report(report, tmp_path):
    out = tmp_path / "reports"
    build(ReportOptions(out=out), hooks={"check": no_check, "simulate": no_sim})
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def boom(name):
        if name == "questions.html":
            raise RuntimeError("forced failure in the middle of writing")
    with pytest.raises(RuntimeError):
        build(ReportOptions(out=out), hooks={"check": no_check, "simulate": no_sim, "after_page": boom})
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert [p.name for p in tmp_path.iterdir()] == ["reports"]     # no temporary folder left behind


def test_refuses_to_replace_a_folder_that_is_not_a_report(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    with pytest.raises(VerifyError):
        with atomic_dir(tmp_path / "mine"):
            pass
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


def test_report_command(tmp_path):
    from click.testing import CliRunner
    from verify.cli import main
    res = CliRunner().invoke(main, ["report", "--out", str(tmp_path / "r"), "--no-check", "--no-simulate"])
    assert res.exit_code == 0, res.output
    assert "pages" in res.output and Path(tmp_path / "r" / "index.html").is_file()


def test_end_to_end_with_the_engine(tmp_path):
    """The README's main job on the bundled rulesets, with real (few) simulated games."""
    out = tmp_path / "reports"
    summary = build(ReportOptions(out=out, games=2, run_check=False))
    assert summary["simulation"] == "ran"
    html = (out / "simulation.html").read_text(encoding="utf-8")
    assert "2 seeded games per ruleset" in html
    assert html.count('<figure id="land-') >= 10           # landing chart for (nearly) every ruleset
    assert "Game length" in html and "<svg" in html


def test_saved_check_json(tmp_path):
    from click.testing import CliRunner
    from verify.cli import main
    from verify.smt.run import config_hash
    from verify.spec import load_ruleset
    now = config_hash(load_ruleset("official"))
    doc = {"results": [{"ruleset": "official", "invariant": "constraint:players-range", "action": "(parameters)",
                        "promised": True, "verdict": "PROVED", "counterexample": None, "reason": None,
                        "config": now},
                       {"ruleset": "official", "invariant": "(enabled)", "action": "mortgage_expired",
                        "promised": False, "verdict": "VIOLATED", "counterexample": None,
                        "reason": "dead rule: mortgages never expire", "config": now}]}
    saved = tmp_path / "check.json"
    saved.write_text(__import__("json").dumps(doc), encoding="utf-8")
    out = tmp_path / "r"
    res = CliRunner().invoke(main, ["report", "--out", str(out), "--no-simulate", "--check-json", str(saved)])
    assert res.exit_code == 0, res.output
    html = (out / "matrix.html").read_text(encoding="utf-8")
    assert "parameter constraints" in html and "rules can fire" in html
    assert 'class="v-DEAD"' in html and "dead rule: mortgages never expire" in html
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    res = CliRunner().invoke(main, ["report", "--out", str(out), "--no-simulate", "--check-json", str(bad)])
    assert res.exit_code == 1 and "[E031]" in res.output
    assert "dead rule: mortgages never expire" in (out / "matrix.html").read_text(encoding="utf-8")   # left intact


def test_a_saved_check_of_a_table_since_changed_is_refused(tmp_path):
    """`verify check --json` ties each result to the config it checked; once the table changes, the
    saved results are not its results any more: the report refuses them, naming the file and table."""
    import json

    from click.testing import CliRunner
    from verify.cli import main
    table = tmp_path / "kitchen-base.yaml"
    text = (Path(__file__).parent / "fixtures" / "tables" / "kitchen-base.yaml").read_text(encoding="utf-8")
    table.write_text(text.replace("id: kitchen-base", "id: kitchen-stale"), encoding="utf-8")   # an id of its own:
    # the fixture itself may already be loaded in this process
    saved = tmp_path / "check.json"
    res = CliRunner().invoke(main, ["check", str(table), "--action", "build_house", "--jobs", "1", "--json",
                                    "-o", str(saved)])
    assert res.exit_code in (0, 1), res.output
    results = json.loads(saved.read_text(encoding="utf-8"))["results"]
    assert {r["ruleset"] for r in results} == {"kitchen-stale"} and all(len(r["config"]) == 16 for r in results)

    out = tmp_path / "r"
    res = CliRunner().invoke(main, ["report", str(table), "--out", str(out), "--no-simulate", "--check-json",
                                    str(saved)])
    assert res.exit_code == 0, res.output                       # as saved: the table's results are shown
    assert f"{len(results)} checks (read from {saved})" in (out / "matrix.html").read_text(encoding="utf-8")
    before = (out / "index.html").read_bytes()

    table.write_text(table.read_text(encoding="utf-8").replace("value: 100", "value: 150"), encoding="utf-8")
    res = CliRunner().invoke(main, ["report", str(table), "--out", str(out), "--no-simulate", "--check-json",
                                    str(saved)])
    assert res.exit_code == 1
    line, = [x for x in res.output.strip().splitlines() if not x.startswith("report: ")]   # past the progress
    assert line.startswith(f"{saved}: [E032] stale") and "ruleset 'kitchen-stale'" in line, line
    assert "the ruleset changed since" in line
    assert (out / "index.html").read_bytes() == before          # the earlier report is left as it was


def test_readme_in_the_report_folder_is_kept(tmp_path):
    out = tmp_path / "reports"
    out.mkdir()
    (out / "README.md").write_text("sample report, regenerate with verify report")
    with atomic_dir(out) as tmp:
        (tmp / "index.html").write_text("<!doctype html><title>x</title>")
    assert (out / "README.md").read_text() == "sample report, regenerate with verify report"
    assert (out / "index.html").is_file() and (out / MARKER).is_file()


def test_a_crashing_check_is_shown_as_failed(tmp_path, monkeypatch):

    from verify.report import runs


    def broken(*args, **kwargs):
        raise RuntimeError("solver exploded")
    monkeypatch.setattr(runs, "check", broken)
    check = runs.run_check(["official"])
    assert check.status == "failed" and "solver exploded" in check.reason
    out = tmp_path / "r"
    build(ReportOptions(out=out), hooks={"check": lambda ids: check, "simulate": no_sim})
    html = (out / "matrix.html").read_text(encoding="utf-8")
    assert "Check failed." in html and "solver exploded" in html and 'class="v-PROVED"' not in html
