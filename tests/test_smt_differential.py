"""Engine and SMT model agree on every transition, generated from the registry (``tests/smt_differential.py``).

Every transition of ``verify.smt.transitions`` is played from its declared example on
generated states that satisfy the invariants, on the engine and through the formulas
``verify check`` proves things about; they must agree on legality and on the successor.
Nothing is dropped unseen: each example is compared (allowed or refused by both) or counted
as skipped with its reason, and floors are asserted. A transition, an engine action or a
case of the destroying card left uncovered fails a test; a transition changed on purpose
(its guard, its effect) fails the check. The large sweep (every bundled ruleset, many more
examples) is marked slow.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

import pytest
import z3

from smt_differential import Tally, compare, play, world
from verify.engine.actions import ACTIONS as ENGINE_ACTIONS
from verify.engine.step import IllegalAction, apply
from verify.smt.oracle import judge, state_snapshot
from verify.smt.run import default_names
from verify.smt.transitions import BY_NAME, NOT_MODELLED, TRANSITIONS, Transition

TABLES = Path(__file__).parent / "fixtures" / "tables"
#: the worlds of the default run: together they enable every transition (the pot, rent owed on a claim, the
#: casino, the destroying card aimed both ways, expiring mortgages, teams, a debt paid by its own action, a
#: small stock of buildings, the income tax's choice, odd accounting of buildings and card payments)
WORLDS = ("official+house-free-parking-pot", "online-vn", "platform-showdown", "platform-teams",
          str(TABLES / "destroy-opponent-short.yaml"), str(TABLES / "odd-accounting.yaml"))
#: examples per transition and world in the default run
EXAMPLES = 6
#: transitions no play of the engine refuses: their guard only asks that the player is still in the game,
#: and no engine state lets a player out of the game land on a square
NEVER_REFUSED = {"free_parking": "a player in the game may always take the pot"}


def _sweep(worlds, n: int) -> dict[str, Tally]:
    out = {t.name: Tally() for t in TRANSITIONS}
    for rid in worlds:
        for t in TRANSITIONS:
            out[t.name].add(compare(rid, t, n))
    return out


@pytest.fixture(scope="module")
def sweep() -> dict[str, Tally]:
    return _sweep(WORLDS, EXAMPLES)


def _table(tallies: dict[str, Tally]) -> str:
    return "\n".join(f"{name:24s} allowed {t.allowed:4d} refused {t.refused:4d} guards only {t.guard_only:3d} "
                     f"skipped {sum(t.skipped.values()):4d}" for name, t in tallies.items())


def test_the_engine_and_every_transition_agree(sweep):
    found = [d for t in sweep.values() for d in t.disagreements]
    assert not found, f"{len(found)} disagreement(s):\n" + "\n".join(found[:20])


def test_no_transition_is_left_uncovered(sweep):
    """Every transition is compared where the engine allows it and where it refuses it."""
    uncovered = [n for n, t in sweep.items() if t.allowed == 0 or (t.refused == 0 and n not in NEVER_REFUSED)]
    assert uncovered == [], f"uncovered: {uncovered}\n{_table(sweep)}"
    assert set(sweep) == set(BY_NAME)


def test_every_engine_action_is_compared_or_said_not_modelled(sweep):
    """An engine action some transition models is played by the examples; every other one is listed as not
    modelled, with the reason."""
    played = set().union(*(t.engine_actions for t in sweep.values()))
    modelled = {a for t in TRANSITIONS for a in t.models}
    uncovered = sorted(a for a in ENGINE_ACTIONS if a in modelled and a not in played)
    assert uncovered == [], f"engine actions modelled but never played: {uncovered}"
    assert all(a in modelled or NOT_MODELLED.get(a) for a in ENGINE_ACTIONS)


def test_skipped_examples_are_counted_and_few(sweep):
    """Each example is compared or counted as skipped with its reason; a skip is a drawn state that has no
    such play (no deed of the kind...) or a ruleset without the transition, never a comparison dropped."""
    compared = sum(t.compared for t in sweep.values())
    assert compared >= 600, _table(sweep)
    for name, t in sweep.items():
        drawn = {why: k for why, k in t.skipped.items() if not why.startswith("disabled")}
        assert set(drawn) <= {"this ruleset has no such play (drawn state)"}, (name, drawn)
        assert sum(drawn.values()) <= 0.5 * (t.compared + sum(drawn.values())), (name, dict(t.skipped))


def test_the_destroying_card_meets_every_case():
    """The card is compared on ties and non-ties between the target's most developed streets, on a hotel
    broken down, on a hotel the bank cannot break down (the group cleared), and with nothing to destroy
    (enough examples of this one transition that each case is drawn, whatever the sweep's draws)."""
    tally = Tally()
    for rid in WORLDS:
        tally.add(compare(rid, BY_NAME["card_destroy_building"], 30))
    assert not tally.disagreements, tally.disagreements[:5]
    cases = tally.notes
    for case in ("tie", "no tie", "hotel", "hotel, bank short of houses", "nothing built"):
        assert cases[case] >= 1, dict(cases)


def test_the_cards_that_move_money_are_compared_paying_and_collecting():
    """Every card effect that moves money or buildings has a transition; the money cards are compared both
    ways: a card the drawer pays (to the bank or the pot, or to every other player) and one it collects."""
    from verify.vocabulary import CARD_EFFECTS
    from verify.smt.transitions import NOT_MODELLED, modelling
    assert all(modelling(e) or e in NOT_MODELLED for e in CARD_EFFECTS)
    assert {t.effect for t in TRANSITIONS if t.step == "card"} == {"bank", "each_player", "repairs",
                                                                   "destroy_building"}
    for name in ("card_bank", "card_each_player"):
        tally = Tally()
        for rid in WORLDS:
            tally.add(compare(rid, BY_NAME[name], 12))
        assert not tally.disagreements, tally.disagreements[:5]
        assert tally.notes["pays"] >= 1 and tally.notes["collects"] >= 1, (name, dict(tally.notes))


# ------------------------------------------------------------------ a changed transition fails the check
def _negated(tr: Transition) -> Transition:
    def build(m, s, x):
        guard, after = tr.build(m, s, x)
        return z3.Not(guard), after
    return replace(tr, build=build)


def _dropped_guard(tr: Transition) -> Transition:
    def build(m, s, x):
        _guard, after = tr.build(m, s, x)
        return z3.BoolVal(True), after
    return replace(tr, build=build)


def _no_effect(tr: Transition) -> Transition:
    def build(m, s, x):
        guard, _after = tr.build(m, s, x)
        return guard, s
    return replace(tr, build=build)


MUTATIONS = {"guard negated": _negated, "guard dropped": _dropped_guard, "effect dropped": _no_effect}


def _caught(tr: Transition) -> bool:
    for rid in WORLDS:
        if compare(rid, tr, 3 * EXAMPLES, stop_at_first=True).disagreements:
            return True
    return False


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_a_changed_transition_fails_the_check(mutation):
    """Each transition in turn, changed: the differential check finds the change."""
    missed = [t.name for t in TRANSITIONS
              if not (mutation == "guard dropped" and t.name in NEVER_REFUSED) and not _caught(MUTATIONS[mutation](t))]
    assert missed == [], f"{mutation}: not caught for {missed}"


NEGATIVE = Path(__file__).parent / "fixtures" / "negative"
#: the tables of custom accounting that promise what they keep (hotel-at-three-houses promises an invariant its
#: own building rule breaks, so its generated states are not states of its game)
ODD = ("sold-buildings-vanish.yaml", "supply-never-decremented.yaml", "bankruptcy-drops-mortgaged.yaml")


@pytest.mark.slow
@pytest.mark.parametrize("rid", default_names() + [str(TABLES / "destroy-opponent-short.yaml"),
                                                   str(TABLES / "odd-accounting.yaml")]
                         + [str(NEGATIVE / name) for name in ODD])
def test_every_bundled_ruleset_agrees_on_every_transition(rid):
    found = []
    for t in TRANSITIONS:
        found += compare(rid, t, 40, seed=1).disagreements
    assert not found, "\n".join(found[:20])


# ------------------------------------------------------------------ hand-made cases
def _engine(cfg, state, action):
    state = dict(state, current=action.get("seat", 0), phase="pre_roll")
    try:
        after, _ = apply(cfg, state, action)
    except IllegalAction:
        return False, None
    return True, after


def test_a_legal_build_is_judged_alike():
    """A hand-made case both sides must accept, with the same successor."""
    w = world("official")
    s = copy.deepcopy(w.base)
    for p in s["properties"]:
        if p["square"] in (37, 39):
            p["owner"] = 1
    action = {"type": "build_house", "seat": 1, "square": 39}
    ok, after = judge(w.model, s, action)
    eng_ok, eng_after = _engine(w.cfg, s, action)
    assert ok and eng_ok
    snap = state_snapshot(w.model, eng_after)
    assert after == snap and snap["houses"][39] == 1 and snap["cash"][1] == 1500 - 200
    assert snap["bank"][0] == 31


def test_an_uneven_build_is_refused_by_both():
    w = world("official")
    s = copy.deepcopy(w.base)
    for p in s["properties"]:
        if p["square"] in (37, 39):
            p["owner"] = 1
        if p["square"] == 39:
            p["houses"] = 1
    s["bank"]["houses"] = 31
    action = {"type": "build_house", "seat": 1, "square": 39}
    assert judge(w.model, s, action) == (False, None)
    assert _engine(w.cfg, s, action) == (False, None)


def test_short_game_hotel_on_three_houses_is_judged_alike():
    """Official short game: a hotel may go on a street once every street of the group has 3 houses; both
    readings allow it."""
    w = world("official-short")
    s = copy.deepcopy(w.base)
    for p in s["properties"]:
        if p["square"] in (37, 39):
            p["owner"], p["houses"] = 1, 3
    s["bank"]["houses"] -= 6
    action = {"type": "build_hotel", "seat": 1, "square": 39}
    smt_ok, smt_after = judge(w.model, s, action)
    eng_ok, eng_after = _engine(w.cfg, s, action)
    assert smt_ok and eng_ok and smt_after == state_snapshot(w.model, eng_after)


def test_the_runner_counts_an_engine_refusal_as_refused():
    """The harness itself: an action the engine refuses makes the play refused, with the reason."""
    w = world("official")
    tr = BY_NAME["build_house"]
    import random
    ex = tr.example(w.cfg, w.base, random.Random(0))
    bad = replace(ex, actions=({"type": "build_house", "seat": 0, "square": 12},))   # a utility: no houses
    played = play(w.cfg, bad)
    assert not played.allowed and "refused" in played.why
