"""The suite of broken engines: a default run (the command's defaults: seed 0, its default number of
scenarios) reports exactly the causes each engine declares (one bug, one cause), each in a shrunk scenario
of at most 3 steps that replays; the reference passes it.

Each engine is a default run of a few CPU seconds; all of them run in the default test suite.
"""

from __future__ import annotations

import pytest

from conform_engines import broken
from verify.conform.harness import DEFAULT_EXAMPLES, replay, run
from verify.conform.reference import ReferenceEngine
from verify.conform.signature import matches
from verify.conform.transport import EngineSpec


def default_run(cls):
    return run(EngineSpec(target=cls), "official", seed=0, examples=DEFAULT_EXAMPLES)


def test_the_suite_spreads_over_the_rules():
    areas = " ".join(e.AREA for e in broken.ENGINES)
    assert len(broken.ENGINES) >= 12
    for area in ("building", "house supply", "rent", "auctions", "jail", "cards", "mortgages",
                 "bankruptcy transfers", "trades", "setup"):
        assert area in areas, area
    assert "even" in areas
    assert {e.CAUGHT_BY for e in broken.ENGINES} >= {"legality", "successor", "house-supply", "bankruptcy-transfer"}
    assert all(e.ACTION and e.CAUSES for e in broken.ENGINES)


@pytest.mark.parametrize("cls", broken.ENGINES, ids=lambda e: e.__name__)
def test_a_default_run_catches_the_broken_engine(cls):
    r = default_run(cls)
    assert r.scenarios == DEFAULT_EXAMPLES
    assert [d["signature"] for d in r.deviations] == list(cls.CAUSES), f"{cls.__name__} ({cls.BUG})"
    dev = r.deviations[0]
    doc = dev["doc"]
    v = doc["violation"]
    assert v["rule"] == cls.CAUGHT_BY
    if cls.ACTION == "new_game":            # the engine's own new game, before any action
        assert v["step"] == 0 and doc["actions"] == [] and doc["setup"]["players"] >= 2
    else:
        assert 1 <= v["step"] == len(doc["actions"]) <= 3, (v["step"], doc["actions"])
        assert doc["actions"][-1]["type"] in ((cls.ACTION,) if isinstance(cls.ACTION, str) else cls.ACTION)
    if cls.UNSTATED:                       # the rulebook does not say: reported apart, the run passes
        assert dev["unstated"]["param"] == cls.UNSTATED and r.status(dev) == "unstated"
    else:
        assert dev["unstated"] is None and r.status(dev) == "new" and not r.ok
    again = replay(EngineSpec(target=cls), doc)
    assert [matches(dev["signature"], d["signature"]) for d in again.deviations] == [True]
    assert again.violations[0]["violation"]["step"] == v["step"]
    assert replay(EngineSpec(target=ReferenceEngine), doc).deviations == []
