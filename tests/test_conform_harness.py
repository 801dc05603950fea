"""The conformance harness: the reference passes on both transports, rule bugs are caught and shrunk,
runs are deterministic whatever the chunking, and saved scenarios replay."""

from __future__ import annotations

import pytest

from verify.conform import harness
from verify.conform.harness import merge, plan, run, run_chunk
from verify.conform.render import scenario_text
from verify.conform.transport import EngineSpec

REFERENCE = EngineSpec("verify.conform.reference:ReferenceEngine")
SUBPROCESS = EngineSpec(cmd="python -m verify.conform.reference")
#: values for the rulesets' open entries (a ruleset with an unsupplied open value is refused: E020)
SUPPLY = {"official-timed": {"end.time_limit_minutes": 60}, "online-vn": {"end.round_limit": 100, "timer.turn_seconds": 60,
                                                                      "auction.min_increment": 10},
          "platform-custom": {"setup.starting_cash": 15000, "dice.count": 2, "go.salary_stop_minute": "never",
                              "rent.tax_start_minute": 30, "building.even_build": True,
                              "building.even_sell": True, "building.hotel_needs_whole_group": True,
                              "building.per_turn_limit": "unlimited", "mortgage.expiry_rounds": "never",
                              "timer.turn_seconds": "none", "timer.turn_reserve_seconds": 0,
                              "speed_die.enabled": False}}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reference_in_process_has_no_violation(seed):
    r = run(REFERENCE, "official", seed=seed, examples=40)
    assert r.ok, [scenario_text(d) for d in r.violations]
    assert r.scenarios == 40 and r.steps > 100


@pytest.mark.parametrize("ruleset", ["classic-pl", "platform-fast", "official-speed-die", "online-vn"])
def test_reference_passes_other_rulesets(ruleset):
    r = run(REFERENCE, ruleset, seed=5, examples=25, settings=SUPPLY.get(ruleset))
    assert r.ok, [scenario_text(d) for d in r.violations]


def test_reference_over_the_subprocess_transport_has_no_violation():
    r = run(SUBPROCESS, "official", seed=4, examples=30)
    assert r.ok, [scenario_text(d) for d in r.violations]
    assert r.engine == "verify-reference" and r.steps > 50


BUGS = [("SupplyLeak", "house-supply"), ("UnevenBuilder", "legality"), ("ShortMover", "successor")]


@pytest.mark.parametrize("engine, rule", BUGS)
def test_rule_bugs_are_caught_with_a_short_scenario(engine, rule):
    """The chunks of a default run (seed 0, 100 scenarios) up to the first that catches the bug."""
    results = []
    for chunk in plan(EngineSpec(f"tests.conform_engines.faults:{engine}"), "official", 0, 100):
        results.append(run_chunk(chunk))
        if results[-1]["violations"]:
            break
    _check_caught(merge(results), rule)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 6))
@pytest.mark.parametrize("engine, rule", BUGS)
def test_rule_bugs_are_caught_from_any_seed_in_a_default_run(engine, rule, seed):
    import time
    t0 = time.monotonic()
    _caught(engine, rule, seed=seed, examples=100)
    assert time.monotonic() - t0 < 60


def _caught(engine: str, rule: str, seed: int, examples: int) -> None:
    _check_caught(run(EngineSpec(f"tests.conform_engines.faults:{engine}"), "official", seed=seed,
                      examples=examples), rule)


def _check_caught(r, rule: str) -> None:
    rules = {d["violation"]["rule"] for d in r.violations}
    assert rule in rules
    doc = next(d for d in r.violations if d["violation"]["rule"] == rule)
    assert 1 <= doc["violation"]["step"] == len(doc["actions"]) <= 5
    text = scenario_text(doc)
    assert f"{rule} broken at step" in text and "Step 1:" in text and "Loaded state" in text


def test_a_chunk_is_a_function_of_its_spec_and_merging_ignores_order():
    engine = EngineSpec("tests.conform_engines.faults:SupplyLeak")
    chunks = plan(engine, "official", seed=0, examples=50)
    assert [c.examples for c in chunks] == [25, 25] and chunks[0].seed != chunks[1].seed
    first = [run_chunk(c) for c in chunks]
    assert merge(first).violations          # something to shrink and merge
    again = [run_chunk(c) for c in reversed(chunks)]
    assert merge(first).to_json() == merge(again).to_json()
    assert merge(first).violations == merge(again).violations
    import pickle
    assert pickle.loads(pickle.dumps(chunks[0])) == chunks[0]


def test_the_same_seed_gives_the_same_scenarios_and_another_seed_others():
    a = run_chunk(plan(REFERENCE, "official", 7, 10)[0])
    b = run_chunk(plan(REFERENCE, "official", 7, 10)[0])
    c = run_chunk(plan(REFERENCE, "official", 8, 10)[0])
    assert a["steps"] == b["steps"] and a == b
    assert (a["steps"], a["seed"]) != (c["steps"], c["seed"])


def test_a_saved_scenario_replays_against_any_engine(tmp_path):
    from verify.conform.scenario_file import load, save
    r = run(EngineSpec("tests.conform_engines.faults:ShortMover"), "official", seed=1, examples=25)
    path = save(r.violations[0], tmp_path)
    doc = load(path)
    again = harness.replay(EngineSpec("tests.conform_engines.faults:ShortMover"), doc)
    assert [d["violation"]["rule"] for d in again.violations] == ["successor"]
    assert again.violations[0]["violation"]["diff"] == doc["violation"]["diff"]
    assert again.violations[0]["violation"]["step"] == doc["violation"]["step"]
    assert harness.replay(REFERENCE, doc).ok
    assert harness.replay(SUBPROCESS, doc).ok


def test_every_loaded_state_satisfies_the_promised_invariants():
    from hypothesis import HealthCheck, given, settings, strategies as st
    from verify.conform.scenarios import Context, loaded_state
    from verify.invariants import check_state

    cfg, promised = harness.load_target("official")
    ctx = Context(cfg, promised)
    origins = set()

    @settings(max_examples=120, database=None, suppress_health_check=list(HealthCheck), deadline=None)
    @given(st.data())
    def check(data):
        origin, state = loaded_state(data.draw, ctx)
        origins.add(origin.split(":")[0])
        assert check_state(cfg, state, promised) == []

    check()
    assert {"new game", "mid-game", "boundary"} <= origins


def test_shrinking_simplifies_the_loaded_state():
    r = run(EngineSpec("tests.conform_engines.faults:SupplyLeak"), "official", seed=0, examples=100)
    doc = r.violations[0]
    owned = [p for p in doc["state"]["properties"] if p["owner"] is not None]
    # only what the bug needs is left: the group the house goes on
    assert len(owned) <= 4, owned
    square = doc["actions"][0]["square"]
    assert any(p["square"] == square for p in owned)


def test_declared_actions_limit_what_is_sent():
    from verify.conform.scenarios import Context, scenarios
    from hypothesis import HealthCheck, given, settings

    cfg, promised = harness.load_target("official")
    ctx = Context(cfg, promised, actions=("roll", "end_turn", "buy", "decline", "bid", "pass"))

    @settings(max_examples=40, database=None, suppress_health_check=list(HealthCheck), deadline=None)
    @given(scenarios(ctx))
    def check(sc):
        assert {a["type"] for a in sc.actions} <= set(ctx.actions)

    check()


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["official", "official-pre2008", "official-short", "official-timed",
                                     "official-speed-die", "classic-pl", "online-vn", "platform-classic",
                                     "platform-teams", "platform-fast", "platform-showdown", "platform-custom",
                                     "official+house-free-parking-pot", "official+house-no-auction"])
@pytest.mark.parametrize("engine", [REFERENCE, SUBPROCESS], ids=["in-process", "subprocess"])
def test_reference_passes_every_ruleset_on_both_transports(ruleset, engine):
    for seed in (21, 22):
        r = run(engine, ruleset, seed=seed, examples=100, settings=SUPPLY.get(ruleset))
        assert r.ok, [scenario_text(d) for d in r.violations]


def test_an_engine_is_sent_and_compared_on_what_it_declares():
    r = run(EngineSpec("tests.conform_engines.faults:Partial"), "official", seed=3, examples=30)
    assert r.ok, [scenario_text(d) for d in r.violations]
    assert r.steps > 30
    u = run(EngineSpec("tests.conform_engines.faults:Undeclared"), "official", seed=3, examples=30)
    v = u.violations[0]["violation"]
    assert v["rule"] == "protocol" and v["step"] == 0 and any(d.startswith("decks.") for d in v["diff"])
