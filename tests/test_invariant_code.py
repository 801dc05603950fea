"""The invariants' generated functions (verify.invariant_code) agree with the reference evaluator.

The Monitor evaluates each invariant with a function generated from its tree for the config; the
reference is ``verify.expr``'s reading over the view of the state. These tests play a game of every
bundled ruleset, corrupt some of its states and steps (so that invariants break), and compare: each
invariant's generated function with the reference, on every state and step; and the Monitor's
violations (explanations included) with the stateless ``check_state + check_step``.
"""

import ast
import copy
import io
import json
import random

import pytest

from verify.config import EngineConfig
from verify.engine.engines import rules_for
from verify.engine.policies import make_policies
from verify.engine.simulate import play_game
from verify.engine.trace import TraceRecorder
from verify.invariant_code import Untranslated, part_sources, source
from verify.invariants import (Monitor, _action, _check_state, _check_step, _generated, _params, by_id, check_state,
                               check_step, state_slices)
from verify.spec import load_ruleset
from tests.test_engine_compiled import _players, playable


def _corrupt(state: dict, rng: random.Random) -> dict:
    """The state with one thing changed that some invariant forbids (or, now and then, allows)."""
    s = copy.deepcopy(state)
    props, players = s["properties"], s["players"]
    p, q = rng.choice(props), rng.choice(players)
    how = rng.randrange(10)
    if how == 0:
        p["houses"] = rng.choice([1, 2, 4, 5])                      # uneven, unowned, beyond the limit
    elif how == 1:
        q["cash"] = -rng.randrange(1, 50)                          # negative cash
    elif how == 2:
        p["owner"], q["bankrupt"] = q.get("seat", 0), True          # a deed held by a bankrupt player
    elif how == 3 and (s.get("bank") or {}).get("houses") is not None:
        s["bank"]["houses"] += rng.choice([-1, 1, -100])           # a house from nowhere, a negative stock
    elif how == 4:
        q["cash"] += rng.choice([1, 50])                           # money from nowhere (a step invariant)
    elif how == 5:
        p["hotel"] = True
    elif how == 6:
        p["mortgaged"], p["houses"] = True, 1                      # a building beside a mortgage
    elif how == 7:
        q["jail_cards"] = list(q.get("jail_cards") or []) + ["chance-jail", "chest-jail"]
    elif how == 8:
        q["bankrupt"] = True                                       # a bankruptcy that leaves everything in place
    else:
        s["pot"] = -1
    return s


def _states(rid: str, seed: int = 5, turns: int = 120) -> tuple:
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    buf = io.StringIO()
    play_game(rules_for(cfg), make_policies("heuristic", _players(cfg), "leave", seed), seed, turns,
              TraceRecorder(buf, {}))
    lines = [json.loads(x) for x in buf.getvalue().splitlines()[1:]]
    return cfg, r.promised(), [(x["action"], x["state"]) for x in lines if "state" in x]


def _run(states: list, seed: int) -> list:
    """The game's states, a sixth of them corrupted, and some repeated or out of order."""
    rng = random.Random(seed)
    out = []
    for action, state in states:
        out.append((action, _corrupt(state, rng) if rng.random() < 0.16 else state))
        if rng.random() < 0.03:
            out.append(rng.choice(out))
    return out


@pytest.mark.parametrize("rid", playable())
def test_generated_functions_agree_with_the_reference(rid):
    cfg, promised, states = _states(rid)
    invs = by_id()                 # every invariant, promised or not
    params = _params(cfg, invs)
    broken = set()
    before = None
    for action, state in _run(states, 1):
        after = state_slices(state)
        for inv in invs:
            pred = _generated(cfg, inv, params)
            assert pred is not None, inv.id          # every bundled invariant is translated
            if inv.kind == "state":
                want = not _check_state(cfg, after, [inv], params)
                bank = after["bank_cash"]
                got = bool(pred(after, None, None, 0 if bank is None else bank, None))
            elif before is not None:
                want = not _check_step(cfg, before, after, action, [inv], params)
                act = _action(action, before, after)
                got = bool(pred(after, before, act, after["bank_cash"], before["bank_cash"]))
            else:
                continue
            assert got == want, (inv.id, action)
            if not want:
                broken.add(inv.id)
        before = after
    # the corruptions broke invariants of both kinds, several of them
    assert len(broken) >= 6 and {"money-conservation", "cash-nonnegative"} <= broken, broken


@pytest.mark.parametrize("rid", playable())
def test_monitor_reports_exactly_the_references_violations(rid):
    cfg, promised, states = _states(rid, seed=9)
    everything = [i.id for i in by_id()]
    monitors = {ids: Monitor(cfg, ids) for ids in (tuple(promised), tuple(everything))}
    seen = set()
    for ids, monitor in monitors.items():
        before = None
        for action, state in _run(states, 2):
            got = sorted(str(v) for v in monitor(before, state, action))
            want = sorted(str(v) for v in check_state(cfg, state, ids)
                          + (check_step(cfg, before, state, action, ids) if before is not None else []))
            assert got == want, action
            seen |= {v.split()[1] for v in got}
            before = state
        assert monitor.skipped > 0          # the incremental path was taken, not only full evaluations
    assert len(seen) >= 6, seen


def test_a_local_conjunct_sees_a_break_in_the_one_group_that_changed():
    """Even building checked on the changed group alone still catches an uneven group, and a state whose
    deeds are not all listed is left to the reference (which says so)."""
    cfg, promised, states = _states("official", seed=3, turns=200)
    ids = ["even-build", "buildings-need-full-group"]
    monitor = Monitor(cfg, ids)
    action, state = states[-1]
    s = copy.deepcopy(state)
    for p in s["properties"]:
        if p["square"] in (1, 3):          # the brown group, one owner, no building
            p["owner"], p["houses"], p["hotel"] = 0, 0, False
    assert monitor(None, s, None) == []
    uneven = copy.deepcopy(s)
    next(p for p in uneven["properties"] if p["square"] == 1)["houses"] = 2
    got = monitor(s, uneven, None)
    assert [str(v) for v in got] == [str(v) for v in check_state(cfg, uneven, ids)]
    assert [v.invariant for v in got] == ["even-build"]
    from verify.errors import GameError
    missing = dict(uneven, properties=[p for p in uneven["properties"] if p["square"] != 39])
    with pytest.raises(GameError):
        monitor(uneven, missing, None)


def test_the_source_holds_only_its_own_names_and_the_specs_literals():
    """Nothing of the spec's text is pasted: every identifier of a generated function is this module's
    (the spec's loop variables renamed), every literal a constant of the tree or a parameter's value."""
    cfg = EngineConfig.from_ruleset(load_ruleset("official"))
    own = {"s", "o", "a", "bc", "obc", "d", "predicate", "part", "all", "any", "sum", "min", "max", "abs", "len",
           "bool", "range", "_chance_cards", "_chest_cards"}
    for inv in by_id():
        params = _params(cfg, [inv])
        texts = [source(inv, params)]
        if inv.kind == "state":
            texts += [t for p in part_sources(inv, params) for t in (p.full, p.local) if t]
        for text in texts:
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Name):
                    name = node.id
                    assert (name in own or name.startswith(("s_", "o_", "K_", "stage"))
                            or (name[0] == "v" and name[1:].isdigit())), (inv.id, name)
                elif isinstance(node, ast.Attribute):
                    assert isinstance(node.value, ast.Name) and node.value.id == "a", (inv.id, ast.unparse(node))


def test_what_is_not_translated_is_left_to_the_reference(tmp_path):
    from verify.invariants import load_invariants
    f = tmp_path / "inv.yaml"
    f.write_text("invariants:\n  - id: x\n    title: t\n    kind: state\n    reads: []\n"
                 "    expr: all(p == p for p in players)\n", encoding="utf-8")
    (inv,) = load_invariants(f)
    with pytest.raises(Untranslated):
        source(inv, {})


@pytest.mark.parametrize("path", [pytest.param("compiled", marks=pytest.mark.compiled), "readable"])
def test_a_checked_game_stops_at_the_action_that_breaks_an_invariant(path):
    """An engine whose purchase also creates money: the checked game stops at the first purchase, with
    money conservation broken, whether it records a trace (the step API) or not (the game's own checks;
    the screen of the game loop's fast path is left out: it plays the rules themselves, not the dispatch
    table patched here, and ``tests/test_screen.py`` holds it to these checks), on the compiled engine and
    on the readable one."""
    from verify.engine.trace import InvariantBroken, InvariantChecker

    class Unscreened(TraceRecorder):
        def screen_for(self, rules, g):
            return None

    r = load_ruleset("official")
    cfg = EngineConfig.from_ruleset(r)
    engine = rules_for(cfg, path)
    guard, buy = engine.dispatch["buy"]

    def buy_and_print_money(g, seat, *args):
        buy(g, seat, *args)
        g.cash[seat] += 7

    engine.dispatch["buy"] = (guard, buy_and_print_money)
    try:
        stops = []
        for out in (None, io.StringIO()):
            with pytest.raises(InvariantBroken) as info:
                play_game(engine, make_policies("heuristic", 4, "leave", 5), 5, 300,
                          Unscreened(out, {} if out else None, InvariantChecker(cfg, r.promised())))
            stops.append((info.value.step, info.value.action, [v.invariant for v in info.value.violations]))
    finally:
        engine.dispatch["buy"] = (guard, buy)
    assert stops[0] == stops[1] and stops[0][1]["type"] == "buy" and stops[0][2] == ["money-conservation"]
