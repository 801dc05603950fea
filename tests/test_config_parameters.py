"""Each catalogue parameter has one declared place in the EngineConfig (``verify.config.parameters``),
and reading it back from a compiled config gives the ruleset's value, for every bundled ruleset."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from verify.config import EngineConfig
from verify.config.from_ruleset import SECTIONS
from verify.config.parameters import PLACES, Derived, Field, Unplayed, check_places
from verify.errors import SpecError
from verify.invariants import load_invariants, param_value
from verify.spec import load_catalogue, load_ruleset, registry


def _bundled() -> list[str]:
    reg = registry()
    return [rid if reg.files[rid].kind != "overlay" else f"official+{rid}" for rid in reg.bundled_ids()]


@pytest.fixture(scope="module")
def compiled():
    out = {}
    for name in _bundled():
        r = load_ruleset(name)
        out[name] = (r, EngineConfig.from_ruleset(r))
    return out


def _expected(r, pid: str):
    """The ruleset's value as the config plays it: what a gate switches off is the parameter's symbol for
    "no value", a symbol that stands for another parameter is that parameter's value."""
    place = PLACES[pid]
    value = r.value(pid)
    if isinstance(place, Field):
        if place.gate is not None and not r.value(place.gate):
            return next(s for s in r.catalogue[pid].symbols if s not in place.refs)
        if isinstance(value, str) and value in place.refs:
            return _expected(r, place.refs[value])
    return value


def test_every_catalogue_parameter_has_a_place():
    cat = load_catalogue()
    check_places(cat)
    assert set(PLACES) == set(cat.parameters)


def test_a_parameter_without_a_place_is_an_error():
    cat = load_catalogue()
    extra = replace(cat.parameters["go.salary"], id="go.salary_twice")
    with pytest.raises(SpecError) as exc:
        check_places(replace(cat, parameters={**cat.parameters, extra.id: extra}))
    assert exc.value.code == "E002" and "no place for go.salary_twice" in str(exc.value)
    fewer = {pid: p for pid, p in cat.parameters.items() if pid != "go.salary"}
    with pytest.raises(SpecError, match="a place for no parameter: go.salary"):
        check_places(replace(cat, parameters=fewer))


def test_every_config_field_is_filled_by_one_declared_place():
    declared: dict[str, list[str]] = {}
    for pid, place in PLACES.items():
        if not isinstance(place, Unplayed):
            for f in place.fields:
                if not f.startswith("board"):
                    declared.setdefault(f, []).append(pid)
    fields = {f"{name}.{f.name}" for name, cls in SECTIONS.items() for f in dataclasses.fields(cls)}
    assert set(declared) == fields
    assert {f: pids for f, pids in declared.items() if len(pids) > 1} == {}
    assert set(SECTIONS) | {"board", "unplayable"} == {f.name for f in dataclasses.fields(EngineConfig)}


@pytest.mark.parametrize("pid", sorted(PLACES))
def test_reading_a_parameter_back_gives_the_ruleset_value(compiled, pid):
    place = PLACES[pid]
    for name, (r, config) in compiled.items():
        if isinstance(place, Unplayed) or (isinstance(place, Derived) and place.read is None):
            with pytest.raises(SpecError) as exc:
                param_value(config, pid)
            assert exc.value.code == "E027" and pid in str(exc.value)
        else:
            assert param_value(config, pid) == _expected(r, pid), (name, pid)


@pytest.mark.parametrize("ruleset, pid", [("official-speed-die", "dice.count"), ("platform-classic", "go.salary"),
                                          ("official+house-free-parking-pot", "free_parking.pot")])
def test_values_off_the_catalogue_fallback_are_read_back(compiled, ruleset, pid):
    r, config = compiled[ruleset]
    assert r.value(pid) != r.catalogue[pid].fallback
    assert param_value(config, pid) == r.value(pid)


def test_an_unknown_parameter_is_an_error(compiled):
    _r, config = compiled["official"]
    with pytest.raises(SpecError) as exc:
        param_value(config, "go.salery")
    assert exc.value.code == "E002" and "did you mean 'go.salary'" in str(exc.value)


def test_every_parameter_an_invariant_reads_is_in_the_config():
    for inv in load_invariants():
        for pid in inv.reads:
            place = PLACES[pid]
            assert not isinstance(place, Unplayed) and not (isinstance(place, Derived) and place.read is None), pid
