"""A user's table is first class: files extend files, overlays stack on them, `params`, `diff`,
`contradictions TABLE`, and the table's own values are never credited to a rulebook."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.compare.from_rulesets import load_registry
from verify.compare.table import compare_table, diff_table
from verify.errors import SpecError
from verify.spec.catalogue import load_catalogue
from verify.spec.registry import Registry

FIX = Path(__file__).parent / "fixtures" / "tables"
SUMMER = FIX / "rulings" / "summer-table.yaml"
BASE = FIX / "kitchen-base.yaml"
OVERLAY = FIX / "late-start.yaml"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_file_extends_a_file_by_a_path_relative_to_itself(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)            # nothing depends on where the command runs
    r = Registry.load().resolve(str(SUMMER))
    assert r.chain == ("official", "kitchen-base", "summer-table")
    assert r.value("go.salary") == 400 and r.entries["go.salary"].ruleset == "summer-table"
    assert r.value("jail.fine") == 100
    assert r.entries["jail.fine"].ruleset == "kitchen-base"
    assert r.entries["jail.fine"].where.file.endswith("kitchen-base.yaml")
    assert r.entries["jail.fine"].kind == "assumed"
    assert r.value("setup.starting_cash") == 1500 and r.entries["setup.starting_cash"].ruleset == "official"


def test_overlays_stack_on_a_users_file():
    r = Registry.load().resolve(f"{SUMMER}+{OVERLAY}+house-no-auction")
    assert r.chain[-2:] == ("late-start", "house-no-auction")
    assert r.value("setup.starting_cash") == 2000 and r.value("go.salary") == 400
    assert r.value("purchase.on_decline") != Registry.load().resolve("official").value("purchase.on_decline")


def test_show_check_inputs_and_lint_accept_the_chain(tmp_path, monkeypatch):
    # the files travel together: copied elsewhere, the relative path still holds (a fresh process
    # sees only the copies: the same ids loaded from the fixtures folder would clash)
    import importlib
    monkeypatch.setattr(importlib.import_module("verify.spec.registry"), "_DEFAULT", None)
    dest = tmp_path / "tables"
    shutil.copytree(FIX, dest)
    res = run("show", dest / "rulings" / "summer-table.yaml", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["chain"] == ["official", "kitchen-base", "summer-table"]
    assert doc["rules"]["jail.fine"]["where"].endswith("kitchen-base.yaml:6")
    assert run("lint", dest / "rulings" / "summer-table.yaml").exit_code == 0
    res = run("simulate", dest / "rulings" / "summer-table.yaml", "--games", "1", "--json")
    assert res.exit_code == 0, res.output


def test_cyclic_files_are_e006_naming_the_files():
    res = run("show", FIX / "cycle-a.yaml")
    assert res.exit_code != 0
    assert "[E006] extends is cyclic: cycle-a -> cycle-b -> cycle-a" in res.output
    assert "cycle-a.yaml -> " in res.output and "cycle-b.yaml" in res.output
    assert "Traceback" not in res.output


def test_a_missing_parent_file_is_e005_naming_the_path():
    with pytest.raises(SpecError) as exc:
        Registry.load().resolve(str(FIX / "extends-missing-file.yaml"))
    assert exc.value.code == "E005" and "no-such-table.yaml" in exc.value.message
    assert exc.value.where.file.endswith("extends-missing-file.yaml") and exc.value.where.line == 3


def test_params_lists_every_parameter_with_its_domain():
    cat = load_catalogue()
    res = run("params", "--json")
    assert res.exit_code == 0
    rows = json.loads(res.output)["parameters"]
    assert [r["id"] for r in rows] == list(cat.parameters)
    fine = next(r for r in rows if r["id"] == "auction.opening_bid")
    assert fine["symbols"] == ["any", "printed_price"] and fine["fallback"] == "any"
    assert fine["question"] and "printed_price" in fine["domain"]
    res = run("params", "jail")
    assert res.exit_code == 0 and "jail.fine" in res.output and "go.salary" not in res.output
    assert "fallback" in res.output and "How much" in res.output
    assert run("params", "jail.fine", "--json").output.count('"id"') == 1
    bad = run("params", "jial")
    assert bad.exit_code == 2 and "did you mean 'jail'" in bad.output


def test_diff_shows_what_the_table_changes_against_what_it_extends():
    reg = load_registry()
    d = diff_table(reg, str(SUMMER))
    assert d.base.id == "kitchen-base"
    assert {c.param for c in d.changes} == {"go.salary", "auction.opening_bid"}
    salary = next(c for c in d.changes if c.param == "go.salary")
    assert (salary.base.value, salary.table.value) == (200, 400)
    assert salary.finding.witness is not None          # the change alters play
    books = {s.ruleset: s for s in salary.rulebooks}
    assert set(books) == {"official", "classic-pl", "online-vn", "platform-classic"}
    assert books["official"].quotes and books["platform-classic"].normalized == 200
    # against a base the user names, the base file's own changes appear too
    d2 = diff_table(reg, str(SUMMER), "official")
    assert {c.param for c in d2.changes} == {"go.salary", "auction.opening_bid", "jail.fine",
                                             "rent.jailed_owner_collects"}


def test_diff_command_text_and_json():
    res = run("diff", SUMMER)
    assert res.exit_code == 0, res.output
    assert "summer-table against kitchen-base: 2 change(s)" in res.output
    assert "«Başlangıç" in res.output and "«START: pobierz 200" in res.output     # rulebooks' quotes beside
    assert "assumed: a holiday game" in res.output
    doc = json.loads(run("diff", "official", SUMMER, "--json").output)
    assert doc["base"] == "official" and len(doc["changes"]) == 4
    res = run("diff", "official")                       # extends nothing, no base given
    assert res.exit_code != 0 and "[E011]" in res.output and "extends nothing" in res.output
    assert run("diff", "a", "b", "c").exit_code == 2


def test_contradictions_of_a_table_alone():
    res = run("contradictions", SUMMER, "--json")
    assert res.exit_code == 0, res.output
    findings = json.loads(res.output)["findings"]
    variants = {f["params"][0] for f in findings if f["kind"] == "variant"}
    assert variants == {"go.salary", "auction.opening_bid"}
    contra = {f["params"][0]: f for f in findings if f["kind"] == "contradiction"}
    assert set(contra) <= variants and "go.salary" in contra
    rulesets = {s["ruleset"] for s in contra["go.salary"]["sides"]}
    assert {"summer-table", "official", "classic-pl"} <= rulesets
    # the table's assumed values are its own: never credited to the Turkish rulebook
    for f in findings:
        for s in f["sides"]:
            if s["ruleset"] == "summer-table" and s["kind"] == "assumed":
                assert s["source"] is None and s["origin"] == "summer-table"
    text = run("contradictions", SUMMER).output
    assert "summer-table: 400 — assumed: a holiday game" in text
    assert "summer-table (000_" not in text


def test_an_overlay_alone_is_read_on_the_default_ruleset():
    c = compare_table(load_registry(), str(OVERLAY))
    assert [f.id for f in c.findings if f.kind == "variant"] == ["variant:official+late-start:setup.starting_cash"]
    assert c.rulesets[0] == "official+late-start"


def test_report_of_a_broken_table_is_a_clear_error_and_writes_nothing(tmp_path):
    out = tmp_path / "r"
    res = run("report", FIX / "cycle-a.yaml", "--out", out, "--no-check", "--no-simulate")
    assert res.exit_code != 0 and "[E006]" in res.output and "Traceback" not in res.output
    assert not out.exists()


def test_show_says_it_is_your_table_and_credits_its_assumed_values_to_it():
    res = CliRunner().invoke(main, ["show", str(SUMMER)], env={"COLUMNS": "400"})
    assert res.exit_code == 0, res.output
    first = res.output.splitlines()[0]
    assert first == (f"your table summer-table ({SUMMER}), built on kitchen-base (your file {BASE}) "
                     "and official (a rulebook's ruleset)")
    assert "chain: official -> your table kitchen-base -> your table summer-table" in res.output
    fine = next(ln for ln in res.output.splitlines() if ln.startswith("jail.fine = "))
    assert fine.startswith("jail.fine = 100 assumed by your table: we have always paid 100")
    assert fine.endswith("kitchen-base.yaml:6 (your table kitchen-base)")
    cash = next(ln for ln in res.output.splitlines() if ln.startswith("setup.starting_cash = "))
    assert cash.endswith("(official)")                               # the rulebook's value stays the rulebook's
    doc = json.loads(CliRunner().invoke(main, ["show", str(SUMMER), "--json"]).output)
    assert doc["your_files"] == {"kitchen-base": str(BASE), "summer-table": str(SUMMER)}
    official = CliRunner().invoke(main, ["show", "official"], env={"COLUMNS": "400"})
    assert "your table" not in official.output and "assumed by your table" not in official.output
    assert json.loads(CliRunner().invoke(main, ["show", "official", "--json"]).output)["your_files"] == {}


def test_ask_answers_with_your_tables_beside_the_rulebooks():
    res = run("ask", "rent", "while", "in", "jail", BASE, "-r", "official", "--limit", "1")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    at = lines.index("  your table kitchen-base")
    assert lines[at + 1] == ("    rent.jailed_owner_collects = no (assumed by your table: at our table a jailed "
                             "owner collects no rent)")
    assert lines.index("  official") > at and "rent.jailed_owner_collects = yes" in lines[lines.index("  official") + 1]
    doc = json.loads(run("ask", "rent while in jail", BASE, "--json", "--limit", "1").output)
    assert doc["query"] == "rent while in jail" and doc["tables"] == ["kitchen-base"]
    first, *others = doc["questions"][0]["answers"]
    assert first["ruleset"] == "kitchen-base" and first["table"] is True
    assert others and not any(a["table"] for a in others)
    plain = run("ask", "rent", "while", "in", "jail", "--limit", "1")       # the question alone: as before
    assert plain.exit_code == 0 and "your table" not in plain.output and "  official" in plain.output.splitlines()
    missing = run("ask", "rent", "no-such-table.yaml")
    assert missing.exit_code == 1 and "[E011] no ruleset file 'no-such-table.yaml'" in missing.output
    only = run("ask", BASE)
    assert only.exit_code == 2 and "the question is empty" in only.output
