"""Resolution of extends chains and overlay stacks, and provenance of each value."""

from pathlib import Path

import pytest

from verify.errors import SpecError
from verify.spec.registry import Registry

FIX = Path(__file__).parent / "fixtures" / "resolve"


@pytest.fixture(scope="module")
def reg():
    return Registry.load(extra=sorted(FIX.glob("*.yaml")), bundled=False)


def test_child_overrides_parent_and_keeps_provenance(reg):
    r = reg.resolve("rs-child")
    assert r.value("jail.fine") == 100
    assert r.entries["jail.fine"].ruleset == "rs-child"
    assert r.entries["jail.fine"].where.file.endswith("child.yaml")
    assert r.entries["jail.fine"].where.line == 6
    # inherited entries keep the parent's file and line
    assert r.value("go.salary") == 200
    assert r.entries["go.salary"].ruleset == "rs-base"
    assert r.entries["go.salary"].where.file.endswith("base.yaml")
    assert r.chain == ("rs-base", "rs-child")


def test_later_parent_wins(reg):
    r = reg.resolve("rs-multi")
    assert r.value("go.salary") == 300 and r.entries["go.salary"].ruleset == "rs-other"
    assert r.value("jail.fine") == 70


def test_overlay_stacks_last(reg):
    r = reg.resolve("rs-child+rs-overlay")
    assert r.id == "rs-child+rs-overlay"
    assert r.value("jail.fine") == 0
    assert r.entries["jail.fine"].ruleset == "rs-overlay"
    assert r.value("go.salary") == 200


def test_promises_merge(reg):
    assert reg.resolve("rs-base").promised() == ["cash-nonnegative", "even-build"]
    assert reg.resolve("rs-child").promised() == ["cash-nonnegative"]


def test_silent_uses_fallback_but_stays_silent(reg):
    r = reg.resolve("rs-base")
    assert r.entries["auction.bidding_order"].kind == "silent"
    assert not r.decided("auction.bidding_order")
    assert r.value("auction.bidding_order") == r.catalogue["auction.bidding_order"].fallback


def test_money_fallback_is_scaled(reg):
    r = reg.resolve("rs-scaled")
    assert r.money_scale == 10
    assert r.value("go.salary") == 2000
    assert r.value("rent.station_schedule") == [250, 500, 1000, 2000]
    assert r.value("jail.max_tries") == 3  # not money: unscaled


def test_unknown_ruleset_suggests(reg):
    with pytest.raises(SpecError) as exc:
        reg.resolve("rs-chld")
    assert exc.value.code == "E011" and "rs-child" in exc.value.message


def test_unknown_parameter_lookup(reg):
    with pytest.raises(SpecError) as exc:
        reg.resolve("rs-base").value("jail.fin")
    assert exc.value.code == "E002" and "jail.fine" in exc.value.message


def test_overlay_money_is_converted_to_the_base_scale(reg):
    r = reg.resolve("rs-scaled+rs-overlay-money")
    assert r.value("go.salary") == 3000
    assert "scaled" in r.entries["go.salary"].note
    assert r.value("jail.max_tries") == 2
    assert reg.resolve("rs-base+rs-overlay-money").value("go.salary") == 300
