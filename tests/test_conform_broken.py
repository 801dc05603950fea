"""The suite of broken engines (issue 9 item 9): the harness catches every one from a fixed seed, with the rule
it breaks, in a shrunk scenario of at most 5 steps after its loaded state, and the scenario replays.

A run is searched chunk by chunk (``plan``/``run_chunk``) and stops at the first chunk that finds a
violation: that is the time it takes to catch the engine (measured in benchmarks, not asserted here).
A representative few run by default; the whole suite with ``-m slow``.
"""

from __future__ import annotations

import pytest

from conform_engines import broken
from verify.conform.harness import merge, plan, replay, run_chunk
from verify.conform.transport import EngineSpec

SEED = 0
#: the most scenarios searched for one engine (each is caught well within; see the timing in the report)
EXAMPLES = 400
#: shrinking is bounded in wall time; a generous bound keeps a loaded machine from cutting it short
SHRINK_SECONDS = 30.0
#: engines caught from another seed: over-cash bids are rarely offered (about 1 scenario in 300); the other two
#: need a building decision at the edge that seed 0's first 400 scenarios do not reach
SEEDS = {"OverCashBidder": 1, "MortgagedGroupBuilder": 1, "EmptyBankBuilder": 1}
DEFAULT = ("CardBackOnTop", "HotelKeepsHouses", "MortgagedGroupBuilder", "InterestFreeUnmortgage")


def catch(cls) -> list[dict]:
    """The violations of the first chunk (from the engine's seed) that finds any, as merged scenario documents."""
    results = []
    seed = SEEDS.get(cls.__name__, SEED)
    for chunk in plan(EngineSpec(target=cls), "official", seed, EXAMPLES, shrink_seconds=SHRINK_SECONDS):
        results.append(run_chunk(chunk))
        if results[-1]["violations"]:
            break
    return merge(results).violations


def _param(cls):
    marks = () if cls.__name__ in DEFAULT else (pytest.mark.slow,)
    return pytest.param(cls, id=cls.__name__, marks=marks)


def test_the_suite_spreads_over_the_rules():
    areas = " ".join(e.AREA for e in broken.ENGINES)
    assert len(broken.ENGINES) >= 12
    for area in ("building", "house supply", "rent", "auctions", "jail", "cards", "mortgages",
                 "bankruptcy transfers", "trades"):
        assert area in areas, area
    assert "even" in areas
    assert {e.CAUGHT_BY for e in broken.ENGINES} >= {"legality", "successor", "house-supply", "bankruptcy-transfer"}
    assert set(DEFAULT) <= {e.__name__ for e in broken.ENGINES}


@pytest.mark.parametrize("cls", [_param(e) for e in broken.ENGINES])
def test_broken_engine_is_caught(cls):
    docs = catch(cls)
    assert docs, f"{cls.__name__} ({cls.BUG}) was not caught from seed {SEEDS.get(cls.__name__, SEED)}"
    rules = {d["violation"]["rule"] for d in docs}
    assert rules == {cls.CAUGHT_BY}, f"{cls.__name__}: expected {cls.CAUGHT_BY}, the harness reported {rules}"
    doc = min(docs, key=lambda d: d["violation"]["step"])
    v = doc["violation"]
    assert 1 <= v["step"] <= 5 and len(doc["actions"]) == v["step"], (v["step"], doc["actions"])
    again = replay(EngineSpec(target=cls), doc)
    assert [d["violation"]["rule"] for d in again.violations] == [cls.CAUGHT_BY]
    assert again.violations[0]["violation"]["step"] == v["step"]


def test_the_reference_itself_passes_the_scenarios_that_catch_a_broken_engine():
    """The scenario that catches a bug is the bug's, not the harness's: the reference passes it."""
    from verify.conform.reference import ReferenceEngine
    doc = catch(broken.CardBackOnTop)[0]
    assert replay(EngineSpec(target=ReferenceEngine), doc).ok
