"""The conformance harness: every scenario of the budget is checked, every deviation kept once with its
count, each shrunk without turning into another; the reference passes on both transports; runs are a
function of their seed and size; saved scenarios replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from verify.conform import harness
from verify.conform.explore import explore_chunk, merge_chunks, plan
from verify.conform.harness import run
from verify.conform.render import scenario_text
from verify.conform.signature import matches
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
    r = run(REFERENCE, "official", seed=seed, examples=60)
    assert r.deviations == [], [scenario_text(d) for d in r.violations]
    assert r.scenarios == 60 and r.steps > 150 and r.ok


@pytest.mark.parametrize("ruleset", ["classic-pl", "platform-fast", "official-speed-die", "online-vn"])
def test_reference_passes_other_rulesets(ruleset):
    r = run(REFERENCE, ruleset, seed=5, examples=40, settings=SUPPLY.get(ruleset))
    assert r.deviations == [], [scenario_text(d) for d in r.violations]
    assert r.scenarios == 40 and r.steps > 80


def test_reference_over_the_subprocess_transport_has_no_violation():
    r = run(SUBPROCESS, "official", seed=4, examples=30)
    assert r.deviations == [], [scenario_text(d) for d in r.violations]
    assert r.engine == "verify-reference" and r.scenarios == 30 and r.steps > 50


BUGS = [("SupplyLeak", "house-supply", "build_house"), ("UnevenBuilder", "legality", "build_house"),
        ("ShortMover", "successor", "roll")]


@pytest.mark.parametrize("engine, rule, action", BUGS)
def test_a_default_run_checks_every_scenario_and_reports_the_bug_once(engine, rule, action):
    r = run(EngineSpec(f"tests.conform_engines.faults:{engine}"), "official", seed=0, examples=200)
    assert r.scenarios == 200, "every scenario of the budget is checked, failing or not"
    found = [d for d in r.deviations if d["signature"].startswith(f"{rule} at {action}")
             or rule == "successor" and d["doc"]["violation"]["context"].startswith(action)]
    assert found, [d["signature"] for d in r.deviations]
    dev = found[0]
    assert dev["count"] >= 2            # several scenarios showed it; it is listed once
    assert len({d["signature"] for d in r.deviations}) == len(r.deviations)
    doc = dev["doc"]
    assert matches(dev["signature"], doc["violation"]["signature"])
    assert 1 <= doc["violation"]["step"] == len(doc["actions"]) <= 3
    text = scenario_text(doc, count=dev["count"], total=r.scenarios)
    assert f"{rule} broken at step" in text and "Step 1:" in text and f"seen in {dev['count']} of 200" in text


def test_the_short_mover_shows_which_field_differs_and_how():
    r = run(EngineSpec("tests.conform_engines.faults:ShortMover"), "official", seed=0, examples=100)
    causes = [d["signature"] for d in r.deviations]
    # the move by the dice, and (the reference drew the card the move met, as the engine's decks show) a card's
    assert "successor at roll: players[actor].position -" in causes and set(causes) <= {
        "successor at roll: players[actor].position -", "successor at card *: players[actor].position -",
        "successor at jail_roll: players[actor].position -"}, causes
    v = r.deviations[0]["doc"]["violation"]
    assert any(line.startswith("players[") and ".position: ruleset" in line for line in v["diff"])


def test_chunks_are_functions_of_their_spec_and_merging_ignores_order():
    engine = EngineSpec("tests.conform_engines.faults:SupplyLeak")
    chunks = plan(engine, "official", seed=0, examples=80)
    assert [c.examples for c in chunks] == [50, 30] and chunks[0].seed != chunks[1].seed
    first = [explore_chunk(c) for c in chunks]
    assert sum(r["scenarios"] for r in first) == 80
    merged = merge_chunks(first)
    assert merged["deviations"]                      # something to count and merge
    again = [explore_chunk(c) for c in reversed(chunks)]
    assert merge_chunks(again) == merged
    count = sum(d["count"] for d in merged["deviations"].values())
    assert count == sum(d["count"] for r in first for d in r["deviations"].values())
    import pickle
    assert pickle.loads(pickle.dumps(chunks[0])) == chunks[0]


def test_the_same_seed_gives_the_same_scenarios_and_another_seed_others():
    a = explore_chunk(plan(REFERENCE, "official", 7, 10)[0])
    b = explore_chunk(plan(REFERENCE, "official", 7, 10)[0])
    c = explore_chunk(plan(REFERENCE, "official", 8, 10)[0])
    assert a == b and a["scenarios"] == 10
    assert (a["steps"], a["seed"]) != (c["steps"], c["seed"])


def test_scenarios_are_functions_of_their_seed_alone():
    from verify.conform.scenarios import Context, scenario
    cfg, promised = harness.load_target("official")
    ctx = Context(cfg, promised)
    first = [scenario(s, ctx).key() for s in (11, 12, 13)]
    scenario(99, ctx)                                # whatever is drawn in between
    assert [scenario(s, ctx).key() for s in (13, 12, 11)] == first[::-1]
    assert len(set(first)) == 3


def test_a_saved_scenario_replays_against_any_engine(tmp_path):
    from verify.conform.scenario_file import load, save
    r = run(EngineSpec("tests.conform_engines.faults:ShortMover"), "official", seed=1, examples=25)
    r.deviations = [d for d in r.deviations if "*" not in d["signature"]]      # (the card's own cause: any card)
    path = save(r.violations[0], tmp_path)
    doc = load(path)
    again = harness.replay(EngineSpec("tests.conform_engines.faults:ShortMover"), doc)
    assert [d["signature"] for d in again.deviations] == [r.deviations[0]["signature"]]
    assert again.violations[0]["violation"]["diff"] == doc["violation"]["diff"]
    assert again.violations[0]["violation"]["step"] == doc["violation"]["step"]
    assert harness.replay(REFERENCE, doc).ok and harness.replay(REFERENCE, doc).steps == len(doc["actions"])
    assert harness.replay(SUBPROCESS, doc).deviations == []


TEAMS_SURRENDER = Path(__file__).parent / "fixtures" / "conform" / "platform-teams-surrender-to-the-bank.json"


def test_a_teammate_inheriting_a_surrender_to_the_bank_is_not_read_as_its_creditor():
    """In a teams game a player who gives up with no debt goes bankrupt to the bank: the teammate takes the
    deeds, the jail card goes back under its deck. Read as a debt to the teammate (the deeds went there), the
    reference's own step looked like a broken transfer (that creditor did not get the card)."""
    import copy

    from verify.conform.oracle import engine_creditor
    from verify.conform.scenario_file import load
    doc = load(TEAMS_SURRENDER)
    for engine in (REFERENCE, SUBPROCESS):
        r = harness.replay(engine, doc)
        assert r.deviations == [] and r.steps == 1, [scenario_text(d) for d in r.violations]
    before = doc["state"]
    after = copy.deepcopy(before)
    after["players"][1].update(bankrupt=True, cash=0, jail_cards=[])
    for p in after["properties"]:
        p["owner"] = 3 if p["owner"] == 1 else p["owner"]
    surrender = {"type": "surrender", "seat": 1}
    assert engine_creditor(before, after, surrender, heir_inherits=True)["creditor"] == -1
    assert engine_creditor(before, after, surrender)["creditor"] == 3     # no heir in the ruleset: a creditor
    after["players"][3]["jail_cards"] = ["chance"]                          # a card received is a creditor's
    assert engine_creditor(before, after, surrender, heir_inherits=True)["creditor"] == 3


def test_every_loaded_state_satisfies_the_promised_invariants():
    from verify.conform.draw import Draw
    from verify.conform.scenarios import Context
    from verify.conform.states import loaded_state
    from verify.invariants import check_state

    cfg, promised = harness.load_target("official")
    ctx = Context(cfg, promised)
    origins = set()
    for seed in range(150):
        origin, state, _, _ = loaded_state(Draw(seed), ctx)
        origins.add(origin.split(":")[0])
        assert check_state(cfg, state, promised) == [], (seed, origin)
    assert {"new game", "mid-game", "boundary", "found by z3"} <= origins


def test_the_generation_runs_as_a_hypothesis_strategy_too():
    from hypothesis import HealthCheck, given, settings
    from verify.conform.scenarios import Context, strategy

    cfg, promised = harness.load_target("official")
    ctx = Context(cfg, promised)
    seen = []

    @settings(max_examples=15, database=None, suppress_health_check=list(HealthCheck), deadline=None)
    @given(strategy(ctx))
    def check(sc):
        seen.append(len(sc.actions))
        assert len(sc.actions) == len(sc.expected) <= ctx.max_steps

    check()
    assert len(seen) == 15 and max(seen) > 0


def test_shrinking_simplifies_the_loaded_state():
    r = run(EngineSpec("tests.conform_engines.faults:SupplyLeak"), "official", seed=0, examples=100)
    doc = r.violations[0]
    owned = [p for p in doc["state"]["properties"] if p["owner"] is not None]
    assert len(owned) <= 4, owned         # only what the bug needs is left: the group the house goes on
    square = doc["actions"][0]["square"]
    assert any(p["square"] == square for p in owned)
    assert r.shrink_runs > 0


def test_declared_actions_limit_what_is_sent_and_how_states_are_reached():
    from verify.conform.draw import Draw
    from verify.conform.scenarios import Context, build

    cfg, promised = harness.load_target("official")
    allowed = ("roll", "end_turn", "buy", "decline", "build_house")
    ctx = Context(cfg, promised, actions=allowed, phases=("pre_roll", "post_roll", "buy"))
    for seed in range(60):
        sc = build(Draw(seed), ctx)
        assert {a["type"] for a in sc.actions} <= set(allowed)
        assert sc.state["phase"] in ctx.phases, (seed, sc.origin, sc.state["phase"])


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["official", "official-pre2008", "official-short", "official-timed",
                                     "official-speed-die", "classic-pl", "online-vn", "platform-classic",
                                     "platform-teams", "platform-fast", "platform-showdown", "platform-custom",
                                     "official+house-free-parking-pot", "official+house-no-auction"])
@pytest.mark.parametrize("engine", [REFERENCE, SUBPROCESS], ids=["in-process", "subprocess"])
def test_reference_passes_every_ruleset_on_both_transports(ruleset, engine):
    for seed in (21, 22):
        r = run(engine, ruleset, seed=seed, examples=100, settings=SUPPLY.get(ruleset))
        assert r.deviations == [], [scenario_text(d) for d in r.violations]
        assert r.scenarios == 100


def test_an_engine_is_sent_and_compared_on_what_it_declares():
    r = run(EngineSpec("tests.conform_engines.faults:Partial"), "official", seed=3, examples=30)
    assert r.deviations == [], [scenario_text(d) for d in r.violations]
    assert r.scenarios == 30 and r.steps > 30
    u = run(EngineSpec("tests.conform_engines.faults:Undeclared"), "official", seed=3, examples=30)
    v = u.violations[0]["violation"]
    assert v["rule"] == "protocol" and v["step"] == 0 and any(d.startswith("decks.") for d in v["diff"])
    # every scenario showed it: at its load (its decks, and its clock where the state's is not 0), or, for
    # a new game the engine set up itself, at the first step (a refusal after which its decks differ)
    assert all("decks." in d["signature"] or "minute" in d["signature"]
               or any(line.startswith("decks.") for line in d["doc"]["violation"]["diff"]) for d in u.deviations)
    assert sum(d["count"] for d in u.deviations) == 30


def test_states_an_engine_cannot_hold_are_skipped_counted_and_listed():
    r = run(EngineSpec("tests.conform_engines.faults:Picky"), "official", seed=2, examples=40)
    assert r.deviations == [] and r.scenarios == 40          # the budget is checked scenarios
    assert r.skipped and all(why.startswith("picky holds no state in phase") for why in r.skipped)
    assert sum(r.skipped.values()) >= 3


def test_declared_automatic_rent_is_judged_as_the_owner_claiming_it():
    r = run(EngineSpec("tests.conform_engines.faults:AutoRent"), "official", seed=1, examples=150)
    assert r.deviations == [], [d["signature"] for d in r.deviations]
    u = run(EngineSpec("tests.conform_engines.faults:UndeclaredAutoRent"), "official", seed=1, examples=150)
    assert "successor at rent: players[actor].cash -, players[other].cash +" in [d["signature"] for d in u.deviations]


def test_a_declared_liquidation_is_judged_as_the_debtors_own_sales_and_payment():
    from verify.conform.chain import play, settle
    from verify.conform.oracle import expect
    from verify.engine.step import apply, new_game

    cfg, promised = harness.load_target("official")
    state = new_game(cfg, 2, 1)
    props = {p["square"]: p for p in state["properties"]}
    for s in (37, 39):
        props[s].update(owner=1, houses=3)
    for s in (1, 3):
        props[s].update(owner=0, houses=2)
    props[5].update(owner=0)
    state["bank"]["houses"] -= 10
    state["players"][0].update(cash=100, position=35)
    roll = {"type": "roll", "seat": 0, "dice": [3, 1]}          # onto Boardwalk: 1,400 owed
    out = expect(cfg, state, roll)
    claimed = play((), expect, cfg, out[1], {"type": "claim_rent", "seat": 1, "square": 39})
    assert claimed[1]["phase"] == "debt"
    from tests.conform_engines.faults import Liquidator
    eng = Liquidator()
    eng.load(cfg.to_json(), out[1])
    engine_state = eng.apply({"type": "claim_rent", "seat": 1, "square": 39})
    assert engine_state["phase"] != "debt"
    (_, settled, _, _, links), raised = settle(("liquidation",), expect, cfg, claimed, engine_state)
    assert engine_state["players"][0]["bankrupt"]        # 1,400 owed; the houses and Reading raise 360
    assert settled == engine_state and raised["phase"] == "debt" and raised["players"][0]["cash"] == 360
    # the chain link by link: the claim, the debtor's sales (4 houses) and mortgages (3 deeds), the bankruptcy
    assert [link.step for link in links] == ["claim_rent"] + ["liquidation"] * 7 + ["bankruptcy"]
    assert [link.action["type"] for link in links[1:5]] == ["sell_house"] * 4
    assert apply(cfg, out[1], {"type": "claim_rent", "seat": 1, "square": 39})[0]["phase"] == "debt"
    r = run(EngineSpec("tests.conform_engines.faults:Liquidator"), "official", seed=4, examples=150)
    assert r.deviations == [], [d["signature"] for d in r.deviations]


def test_a_deviation_resting_on_a_silent_value_is_unstated_even_when_the_state_carries_it():
    """official is silent on the bidding order; an engine bidding in seat order refuses an out-of-turn bid
    in an auction opened before the scenario starts: the variant replays the decline that opened it."""
    from verify.engine.step import apply, new_game
    cfg, _ = harness.load_target("official")
    start = new_game(cfg, 3, 1)
    opening = [{"type": "roll", "seat": 0, "dice": [1, 2]}, {"type": "decline", "seat": 0}]
    state = start
    for a in opening:
        state, _ = apply(cfg, state, a)
    assert state["phase"] == "auction" and state["pending"]["turn"] is None
    doc = {"schema": "verify.conform-scenario/1", "ruleset": "official", "origin": "test", "state": state,
           "actions": [{"type": "bid", "seat": 2, "amount": 10}], "history": {"state": start, "actions": opening}}
    r = harness.replay(EngineSpec("tests.conform_engines.faults:SeatOrderAuctions"), doc)
    [dev] = r.deviations
    assert dev["signature"] == "legality: refused: not this bidder's turn"
    assert dev["unstated"]["param"] == "auction.bidding_order" and dev["unstated"]["value"] == "seat_order"
    assert r.status(dev) == "unstated" and r.ok
    without = harness.replay(EngineSpec("tests.conform_engines.faults:SeatOrderAuctions"), dict(doc, history=None))
    assert without.deviations[0]["unstated"] is None and not without.ok        # nothing to replay it from


def test_a_short_move_is_one_cause_whatever_followed_from_the_square():
    """An engine that also drops the second roll of a double, and moves a token one square short: the move is the
    earliest link that differs, so each such roll is the short move's cause, with the position it left the token
    at; the rent, card, tax or missing second roll that followed from the square are not causes of their own."""
    r = run(EngineSpec("tests.conform_engines.faults:NoDoublesShortMover"), "official", seed=0, examples=300)
    causes = {d["signature"]: d for d in r.deviations}
    assert "successor at roll: players[actor].position -" in causes, list(causes)
    # (a short move onto a card that jails it leaves the token ahead of the square the dice lead to)
    assert set(causes) <= {"successor at roll: players[actor].position -",
                           "successor at roll: players[actor].position +"}, list(causes)


@pytest.mark.parametrize("ruleset", ["official", "official-speed-die", "platform-fast"])
def test_the_progress_listing_is_the_legal_actions_that_move_the_game_on(ruleset):
    """Context.progress asks the registry's guards of the progress actions alone; it must list exactly
    the legal actions of those types."""
    from verify.conform.draw import Draw
    from verify.conform.scenarios import Context, build
    from verify.engine.step import enumerate_actions
    cfg, promised = harness.load_target(ruleset)
    ctx = Context(cfg, promised)
    phases = set()
    for seed in range(40):
        sc = build(Draw(seed), ctx)
        for state in [sc.state] + [o[1] for o in sc.expected if o[0] == "state"]:
            g = ctx.rules.from_json(state)     # (the engine's own state class: readable or compiled)
            phases.add(g.phase)
            want = [a for a in enumerate_actions(ctx.rules, g) if a["type"] in ctx.progress_types]
            assert sorted(map(str, ctx.progress(g))) == sorted(map(str, want))
    assert {"pre_roll", "post_roll", "buy", "auction"} <= phases


def test_every_action_is_described_in_words():
    """The step list names every field of every registered action in words (no JSON quotes or brackets),
    squares by their deed or kind: a rent claim, a reshuffled deck, casino numbers, a tax option."""
    from verify.conform.render import _model_of, describe
    from verify.engine.actions import ACTIONS
    m = _model_of("official", "{}")
    sample = {"square": 3, "dice": [3, 4], "card_dice": [2, 5], "reshuffle": {"chance": ["chance-go", "chance-utility"]},
              "amount": 40, "with": 2, "give": {"squares": [5], "cash": 10, "cards": ["chest"]}, "take": {},
              "deck": "chance", "option": "percent", "numbers": [1, 6], "die": 4, "jackpot": False, "steps": 7,
              "group": "Brown"}
    for name, act in ACTIONS.items():
        action = {"type": name, "seat": 1, **{f.name: sample[f.name] for f in act.all_fields}}
        text = describe(m, action)
        assert text.startswith(f"player 1: {name.replace('_', ' ')}"), text
        assert not set('{}[]"') & set(text), text
    assert describe(m, {"type": "claim_rent", "seat": 3, "square": 34}) == \
        "player 3: claim rent, Pennsylvania Avenue (square 34)"


def test_a_bundled_ruleset_is_compiled_once_a_file_each_time():
    """Sessions share a bundled ruleset's compiled config (and so its engine and monitor); a ruleset file is
    read again, as it may have changed between two runs of one process."""
    from verify.conform.session import load_target
    assert load_target("official")[0] is load_target("official")[0]
    assert load_target("official", {})[1] == load_target("official")[1]
    path = str(Path(__file__).resolve().parents[1] / "rulesets" / "official" / "official.yaml")
    first, again = load_target(path)[0], load_target(path)[0]
    assert first is not again and first == again


def test_a_step_that_moves_no_token_has_no_move_context_in_its_cause():
    """A jailed player lifting a mortgage without the interest is the interest deviation, not one met
    'at jail': only an action that may move a token meets a square, a card or jail."""
    from verify.conform.harness import load_target, replay
    from verify.engine.step import new_game
    cfg, _ = load_target("official")
    state = new_game(cfg, 2, 1)
    deed = next(p for p in state["properties"] if p["square"] == 6)
    deed.update(owner=0, mortgaged=True)
    state["players"][0].update(in_jail=True, position=10, jail_turns=1)
    doc = {"ruleset": "official", "state": state, "actions": [{"type": "unmortgage", "seat": 0, "square": 6}]}
    got = replay(EngineSpec("tests.conform_engines.broken:InterestFreeUnmortgage"), doc)
    assert [d["signature"] for d in got.deviations] == ["successor at unmortgage: bank.cash -, players[actor].cash +"]
    assert got.deviations[0]["contexts"] == {"unmortgage": 1}
