"""Readings: an entry's alternative values, chosen with RULESET@READING, checked like any value."""

import json
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.errors import ErrorList, SpecError
from verify.spec.registry import Registry
from verify.spec.schema import render
from verify.spec.yamlsafe import load_yaml

FIX = Path(__file__).parent / "fixtures" / "readings"


@pytest.fixture(scope="module")
def reg():
    return Registry.load(extra=[FIX / "base.yaml", FIX / "overlay.yaml"], bundled=False)


def test_reading_switches_the_value_and_is_named(reg):
    plain = reg.resolve("fx-read-base")
    r = reg.resolve("fx-read-base@high-fine")
    assert plain.value("jail.fine") == 50 and r.value("jail.fine") == 100
    assert r.id == "fx-read-base@high-fine" and r.readings_applied == ("high-fine",)
    e = r.entries["jail.fine"]
    assert e.reading == "high-fine" and e.kind == "cited" and e.quotes == plain.entries["jail.fine"].quotes
    assert e.gloss == "The same words read as a fine of 100 [derived: the fixture doubles the quoted 50]."
    assert r.value("trade.jail_cards") is True          # another reading's entries are untouched


def test_one_reading_name_rules_every_entry_that_has_it(reg):
    r = reg.resolve("fx-read-base@money-and-property-only")
    assert r.value("trade.jail_cards") is False and r.value("cards.jail_card_tradeable") is False
    both = reg.resolve("fx-read-base@money-and-property-only@high-fine")
    assert both.value("jail.fine") == 100 and both.value("cards.jail_card_tradeable") is False


def test_readings_combine_with_overlays_left_to_right(reg):
    a = reg.resolve("fx-read-base@high-fine+fx-read-overlay")
    assert a.value("jail.fine") == 100 and a.value("go.salary") == 400
    assert a.id == "fx-read-base@high-fine+fx-read-overlay" and a.readings_applied == ("high-fine",)
    b = reg.resolve("fx-read-base+fx-read-overlay@double-salary-once")
    assert b.value("go.salary") == 200 and b.value("jail.fine") == 50
    # the overlay's reading is not in force before the overlay is stacked
    with pytest.raises(SpecError) as exc:
        reg.resolve("fx-read-base@double-salary-once+fx-read-overlay")
    assert exc.value.code == "E021"


@pytest.mark.parametrize("name,fragment", [
    ("fx-read-base@high-fines", "did you mean 'high-fine'"),
    ("fx-read-base@", "write RULESET@READING"),
    ("fx-read-base@High", "lower-case"),
])
def test_unknown_or_malformed_reading_is_E021(reg, name, fragment):
    with pytest.raises(SpecError) as exc:
        reg.resolve(name)
    assert exc.value.code == "E021" and fragment in exc.value.message


def test_malformed_readings_in_a_file_name_the_line():
    result = CliRunner().invoke(main, ["lint", str(FIX / "bad.yaml")])
    assert result.exit_code == 1
    out = result.output
    expected = [(r"bad\.yaml:9: \[E021\] jail\.fine: reading same gives the entry's own value", ""),
                (r"bad\.yaml:14: \[E021\] go\.salary: readings belong to an entry with a value", ""),
                (r"bad\.yaml:\d+: \[E021\] jail\.max_tries: reading 'two' is given twice", ""),
                (r"bad\.yaml:\d+: \[E021\] tax\.luxury: reading name 'Bad_Name'", ""),
                (r"bad\.yaml:\d+: \[E003\] dice\.count: reading five-dice: 5 is above the maximum", ""),
                (r"bad\.yaml:\d+: \[E021\] go\.salary_on_pass: reading no-gloss: unknown field\(s\) \['colour'\]", "")]
    for pattern, _ in expected:
        assert re.search(pattern, out), (pattern, out)
    assert "Traceback" not in out


def test_show_lists_readings_and_plays_one(tmp_path):
    out = CliRunner().invoke(main, ["show", str(FIX / "base.yaml"), "--json"]).output
    doc = json.loads(out)
    assert doc["rules"]["jail.fine"]["readings"] == [
        {"name": "high-fine", "value": 100, "gloss": "The same words read as a fine of 100 [derived: the fixture doubles the quoted 50].", "why": "a fixture reading"}]
    out = CliRunner().invoke(main, ["show", str(FIX / "base.yaml"), "--reading", "high-fine", "--json"]).output
    doc = json.loads(out)
    assert doc["readings"] == ["high-fine"] and doc["rules"]["jail.fine"]["value"] == 100
    assert doc["rules"]["jail.fine"]["reading"] == "high-fine"


def test_schema_knows_readings():
    schema = json.loads(render())
    data, _ = load_yaml((FIX / "base.yaml").read_text(encoding="utf-8"), "base.yaml")
    jsonschema.validate(data, schema)
    data["rules"]["jail.fine"]["readings"][0]["value"] = "a lot"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)
    data["rules"]["jail.fine"]["readings"][0].update(value=100, colour="red")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)


def test_bad_file_does_not_load():
    with pytest.raises(ErrorList):
        Registry.load(extra=[FIX / "bad.yaml"], bundled=False)
