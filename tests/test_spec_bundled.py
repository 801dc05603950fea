"""The bundled data: lint-clean, fully covered sources, listed with the documented JSON shape."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.errors import VerifyError
from verify.spec.lint import lint
from verify.spec.registry import DEFAULT_RULESET, load_ruleset, registry
from verify.spec.sources import all_sources

ROOT = Path(__file__).resolve().parent.parent

EXPECTED = {
    "000_91979e7e1d6b8ee6.txt": {"official", "official-pre2008", "official-short", "official-timed",
                                 "official-speed-die", "house-free-parking-pot", "house-double-go",
                                 "house-no-auction", "house-no-rent-in-jail", "house-no-buying-first-round"},
    "001_0634ad071e3b7847.txt": {"classic-pl"},
    "002_bb6c4fccb69c2474.txt": {"online-vn"},
    "003_12a896ad6461c82f.txt": {"platform-classic", "platform-teams", "platform-fast",
                                 "platform-showdown", "platform-custom"},
}


def test_lint_is_clean_on_every_bundled_ruleset():
    ids, errors = lint()
    assert not errors, "\n".join(map(str, errors))
    assert set().union(*EXPECTED.values()) <= set(ids)


def test_rulesets_json_format():
    out = CliRunner().invoke(main, ["rulesets", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["default"] == DEFAULT_RULESET == "official"
    by_id = {r["id"]: r for r in data["rulesets"]}
    for source, ids in EXPECTED.items():
        for rid in ids:
            assert set(by_id[rid]) >= {"id", "title", "sources", "extends"}
            assert source in by_id[rid]["sources"], (rid, by_id[rid]["sources"])
    assert by_id["official-short"]["extends"] == ["official"]


def test_rulesets_lists_the_bundled_rulesets_whatever_this_process_read_before():
    """A table read earlier in the same process (a test before this one, a library user) is no bundled
    ruleset: ``verify rulesets`` neither lists it nor fails on it (here: a table whose extends is cyclic)."""
    with pytest.raises(VerifyError, match="E006"):
        load_ruleset(str(ROOT / "tests/fixtures/tables/cycle-a.yaml"))
    out = CliRunner().invoke(main, ["rulesets", "--json"])
    assert out.exit_code == 0, out.output
    assert {r["id"] for r in json.loads(out.output)["rulesets"]} == set(registry().bundled_ids())


def test_coverage_has_no_uncovered_sentence():
    out = CliRunner().invoke(main, ["coverage", "--json"])
    data = json.loads(out.output)
    assert {s["source"] for s in data["sources"]} == {s.name for s in all_sources()}
    for s in data["sources"]:
        assert s["sentences"] == s["cited"] + s["waived"] + len(s["uncovered"])
        assert s["uncovered"] == [], (s["source"], s["uncovered"][:5])
        assert s["cited"] > s["waived"], s["source"]  # mostly rules, not waivers
    assert out.exit_code == 0


def test_every_quote_is_in_its_source_and_every_value_has_provenance():
    reg = registry()
    for rid in reg.bundled_ids():
        r = reg.resolve(rid)
        for pid, e in r.entries.items():
            assert e.kind in ("cited", "assumed", "silent", "open")
            assert e.where is not None and e.where.line, (rid, pid)
            if e.kind in ("cited", "open"):
                assert e.quotes and e.gloss and e.source in r.sources


def test_show_prints_quote_and_provenance():
    out = CliRunner().invoke(main, ["show", "official", "--json", "--area", "jail"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    fine = data["rules"]["jail.fine"]
    assert fine["value"] == 50 and fine["kind"] == "cited"
    assert any("50" in q for q in fine["quote"])
    assert fine["where"].startswith("rulesets/official/official.yaml:")


def test_overlay_stack_changes_only_its_rules():
    reg = registry()
    base = reg.resolve("official")
    stacked = reg.resolve("official+house-no-auction")
    assert stacked.value("purchase.on_decline") == "stays_unowned"
    assert base.value("purchase.on_decline") == "auction"
    changed = {p for p in base.catalogue.parameters if base.value(p) != stacked.value(p)}
    assert changed and changed <= set(reg.files["house-no-auction"].entries)
