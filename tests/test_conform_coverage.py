"""Coverage-guided generation (verify/conform/coverage.py) and the step's random fields kept only where used."""

from __future__ import annotations

from verify.conform.coverage import Coverage, situation, verdict
from verify.conform.oracle import ACCEPT, expect, used_only
from verify.conform.scenarios import Context, scenario
from verify.conform.session import load_target
from verify.engine.engines import rules_for
from verify.engine.step import new_game


def _ctx():
    cfg, promised = load_target("official")
    return Context(cfg, promised)


def test_the_least_offered_situation_is_taken_first_drawn_on_a_tie():
    cov = Coverage()
    a = (("roll", "legal", "street"), ("roll", "legal", "street", "pre_roll"))
    b = (("mortgage", "legal", "bare"), ("mortgage", "legal", "bare", "pre_roll"))
    assert cov.least([a, b], cov.count) == a
    cov.add(a)
    assert cov.least([a, b], cov.count) == b and cov.side("roll", "legal") == 1


def test_a_situation_names_the_guard_side_and_the_group_mates():
    cfg, _ = load_target("official")
    rules = rules_for(cfg)
    state = new_game(cfg, 2, 1)
    for p in state["properties"]:
        if p["square"] in (6, 8, 9):
            p["owner"] = 0
        if p["square"] in (8, 9):
            p["houses"] = 1
    state["bank"]["houses"] -= 2
    g = rules.from_json(state)
    bare, built = situation(rules, g, {"type": "mortgage", "seat": 0, "square": 6})[0], \
        situation(rules, g, {"type": "mortgage", "seat": 0, "square": 8})[0]
    assert bare[:2] == built[:2] == ("mortgage", "sell the group's buildings first")
    assert bare != built            # the street itself bare, its group-mates built: another situation
    assert verdict(rules, g, {"type": "pay_fine", "seat": 0}) == "not in jail"


def test_a_card_throw_is_kept_only_where_the_step_throws():
    a = {"type": "roll", "seat": 0, "dice": [1, 2], "card_dice": [3, 4], "reshuffle": {"chance": ["x"]}}
    assert used_only(a, []) == {"type": "roll", "seat": 0, "dice": [1, 2]}
    assert used_only(a, [{"event": "card_throw"}]) == {k: v for k, v in a.items() if k != "reshuffle"}
    assert used_only(a, [{"event": "reshuffled", "deck": "chance"}, {"event": "card_throw"}]) == a
    assert used_only(a, ("illegal", "no", a, None)) == {"type": "roll", "seat": 0, "dice": [1, 2]}


def test_generated_steps_carry_only_the_random_fields_their_step_uses():
    """Every generated step's optional random fields are used by its step; and the generation meets steps
    where a card's throw would have been filled (the nearest-utility card on top) but was not used."""
    import random

    from verify.engine.step import fill_random
    ctx = _ctx()
    dropped = 0
    for seed in range(80):
        sc = scenario(seed, ctx)
        state = sc.state
        for action, outcome in zip(sc.actions, sc.expected):
            again = expect(ctx.config, state, action)
            assert used_only(action, again) == action
            bare = {k: v for k, v in action.items() if k not in ("card_dice", "reshuffle")}
            if "card_dice" in fill_random(ctx.config, state, bare, random.Random(0)) and "card_dice" not in action:
                dropped += 1
            if outcome[0] == ACCEPT:
                state = outcome[1]
    assert dropped > 0


def test_a_loaded_state_has_the_card_its_chunk_drew_least_on_top():
    cfg, _ = load_target("official")
    rules = rules_for(cfg)
    g = rules.from_json(new_game(cfg, 2, 1))
    cov = Coverage()
    left = g.chest[1]
    for c in g.chest:                            # every chest card drawn once but the one under the top
        if c != left:
            cov.seen[("drawn", "chest", c)] = 1
    cov.top(g)
    assert g.chest[0] == left and sorted(g.chest) == sorted(rules.from_json(new_game(cfg, 2, 1)).chest)
    # on a tie, chunks begin their turn through a deck at different cards
    tops = set()
    for start in range(10):
        h = rules.from_json(new_game(cfg, 2, 1))
        Coverage(start).top(h)
        tops.add(h.chance[0])
    assert len(tops) >= 8


def test_a_runs_chunks_draw_every_card_and_reach_every_supply_situation():
    """Generation alone (the reference's outcomes): ten chunks of fifty scenarios, as a default run has,
    draw every card of both decks and load states at every supply edge, a group of hotels standing where
    the bank is short of the houses a break-down needs."""
    from verify.conform.coverage import SUPPLIES, supply
    from verify.conform.explore import chunk_seed, scenario_seed
    ctx = _ctx()
    drawn: set[str] = set()
    reached = set()
    for chunk in range(10):
        cov = Coverage(chunk)
        for k in range(50):
            sc = scenario(scenario_seed(chunk_seed(0, chunk), k), ctx, cov=cov)
            g = ctx.rules.from_json(sc.state)
            key = supply(ctx.rules, g)
            if key[0] == "short" and not any(all(g.hotel[s] for s in grp) for grp in ctx.rules.t.groups
                                              if ctx.rules.t.kind[grp[0]] == "street"):
                key = ("short without a group of hotels", key[1])
            reached.add(key)
        drawn |= set(cov.drawn())
    cards = {c.id for c in ctx.config.cards.chance} | {c.id for c in ctx.config.cards.chest}
    assert drawn == cards, sorted(cards - drawn)
    assert set(SUPPLIES) <= reached


def test_a_deviation_met_on_a_few_of_the_cards_drawn_is_one_of_each_card():
    from verify.conform.signature import generalize
    few = {f"successor on roll at card {c}: bank.cash -, players[actor].cash +": 1
           for c in ("chest-hospital", "chance-back-3", "chance-reading")}
    drawn = [f"chance-{i}" for i in range(16)] + [f"chest-{i}" for i in range(16)] + ["chest-hospital"]
    assert generalize(few, drawn) == {}                     # three cards that pay wrongly, each its own way
    assert set(generalize(few)) == set(few)                 # without the draws, three cards make it any card
    every = {f"successor on roll at card chance-{i}: decks.chance order": 1 for i in range(9)}
    assert set(generalize(every, [f"chance-{i}" for i in range(16)])) == set(every)


def test_every_situation_is_built_and_a_default_run_offers_each_whatever_its_seed():
    """Every situation of official's list can be built (a state satisfying the promised invariants, its first
    action the one it names), and the chunks of a default-size run share the list out so that each is offered."""
    from verify.conform import situations
    from verify.conform.coverage import Coverage
    from verify.conform.draw import Draw
    from verify.conform.scenarios import Context
    from verify.conform.session import load_target
    from verify.invariants import check_state
    cfg, promised = load_target("official")
    ctx = Context(cfg, promised)
    items = situations.listed(ctx)
    assert len(items) > 100
    for i, sit in enumerate(items):
        cov = Coverage(0, 1)
        cov.seen = {("situation", x.name): 0 if x is sit else 99 for x in items}
        origin, state, _, first = situations.realize(Draw(i), ctx, 0, 1, cov)
        assert origin == f"situation: {sit.name}" and first["type"] == sit.action
        assert check_state(cfg, state, promised) == [], sit.name
    chunks = 10                                     # a default run: 500 scenarios, 50 a chunk
    offered = set()
    for k in range(chunks):
        cov = Coverage(k, chunks)
        for n in range(50 // situations.SITUATION_EVERY):
            found = situations.realize(Draw(1000 * k + n), ctx, k, chunks, cov)
            offered.add(found[0] if found else None)
    assert {f"situation: {s.name}" for s in items} <= offered
