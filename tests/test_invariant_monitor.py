"""The incremental Monitor gives exactly the verdicts of the stateless checks, step by step.

The monitor skips an invariant when the parts of the state it reads are equal
to those it last held on; these tests feed it real game states, corrupted at
random places, and compare every answer with ``check_state + check_step``.
"""

import copy
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verify.config import EngineConfig
from verify.engine.policies import make_policies
from verify.engine.engines import rules_for
from verify.engine.simulate import play_game
from verify.engine.trace import TraceRecorder
from verify.invariants import Monitor, by_id, check_state, check_step, slices_read
from verify.spec.registry import load_ruleset


def _game_states(rid: str, seed: int, limit: int = 400) -> tuple[EngineConfig, list[str], list[tuple]]:
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    buf = io.StringIO()
    play_game(rules_for(cfg), make_policies("heuristic", 4, "leave", seed), seed, 300, TraceRecorder(buf, {}))
    lines = [json.loads(x) for x in buf.getvalue().splitlines()[1:]]
    return cfg, r.promised(), [(x["action"], x["state"]) for x in lines[:limit]]


@pytest.fixture(scope="module")
def game():
    return _game_states("official", 7)


def _break(state: dict, how: int, where: int) -> dict:
    """One of several corruptions, each of which some invariant forbids."""
    s = copy.deepcopy(state)
    props, players = s["properties"], s["players"]
    p = props[where % len(props)]
    if how == 0:
        p["houses"] = 4 if p["houses"] != 4 else 1          # uneven building / buildings without the group
    elif how == 1:
        players[where % len(players)]["cash"] = -1        # negative cash
    elif how == 2:
        p["owner"], players[0]["bankrupt"] = 0, True        # a deed held by a bankrupt
    elif how == 3 and s["bank"].get("houses") is not None:
        s["bank"]["houses"] += 1                            # a house from nowhere
    elif how == 4:
        players[where % len(players)]["cash"] += 50         # money from nowhere (a step invariant)
    else:
        p["hotel"] = True
    return s


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_monitor_agrees_with_the_stateless_checks(game, data):
    cfg, promised, states = game
    start = data.draw(st.integers(0, len(states) - 40))
    length = data.draw(st.integers(2, 40))
    corrupt = data.draw(st.dictionaries(st.integers(0, length - 1), st.tuples(st.integers(0, 5), st.integers(0, 40)),
                                        max_size=6))
    # a stretch of real states, some of them corrupted, and sometimes a real state repeated
    run = []
    for k in range(length):
        action, state = states[start + k]
        if k in corrupt:
            state = _break(state, *corrupt[k])
        run.append((action, state))
    run += data.draw(st.lists(st.sampled_from(run), max_size=4))
    monitor = Monitor(cfg, promised)
    before = None
    for action, state in run:
        got = sorted(v.invariant for v in monitor(before, state, action))
        want = sorted(v.invariant for v in check_state(cfg, state, promised)
                      + (check_step(cfg, before, state, action, promised) if before is not None else []))
        assert got == want
        before = state


def test_monitor_reevaluates_only_what_a_step_touched(game):
    cfg, promised, states = game
    monitor = Monitor(cfg, promised)
    before = None
    for action, state in states:
        assert monitor(before, state, action) == []
        before = state
    # most steps change no deed: the deed invariants were skipped on them
    assert monitor.skipped > monitor.evaluated
    # and a later change to a deed is still seen
    broken = _break(before, 0, 1)
    seen = {v.invariant for v in monitor(before, broken, None)}
    assert seen and seen == {v.invariant for v in check_state(cfg, broken, promised)}


def test_slices_read_follow_loop_variables():
    reads = {inv.id: slices_read(inv) for inv in by_id()}
    assert "cash" in reads["cash-nonnegative"]          # p.cash through a loop variable
    assert "cash" not in reads["single-owner"] and {"seats", "bankrupt", "cards"} <= set(reads["single-owner"])
    assert reads["even-build"] == ("hotel", "houses", "listed")     # a mortgage or a purchase does not touch it
    assert set(reads["house-supply"]) == {"bank_houses", "houses", "listed"}    # not the bank's money
    assert "in_jail" not in reads["single-owner"]


def test_slices_read_takes_a_whole_record_as_every_column(tmp_path):
    from verify.invariants import load_invariants
    f = tmp_path / "inv.yaml"
    f.write_text("invariants:\n  - id: x\n    title: t\n    kind: state\n    reads: []\n"
                 "    expr: all(p == p for p in players)\n", encoding="utf-8")
    (inv,) = load_invariants(f)
    assert {"cash", "in_jail", "owner", "houses"} <= set(slices_read(inv))


@pytest.mark.parametrize("broken", [{"players": "nobody"}, {"properties": [{"owner": 1}]}, {"players": [7]}])
def test_a_malformed_state_is_e017_not_a_traceback(game, broken):
    from verify.errors import GameError
    cfg, promised, states = game
    state = dict(states[0][1], **broken)
    for check in (lambda: check_state(cfg, state, promised), lambda: Monitor(cfg, promised)(None, state, None)):
        with pytest.raises(GameError) as info:
            check()
        assert info.value.code == "E017" and "canonical game state" in str(info.value)


class _SliceSpy:
    """A recorder that compares the engine's slices with the canonical state's after every action."""

    def __init__(self):
        self.steps = 0

    def start(self, rules, g):
        from verify.engine.slices import GameSlicer
        self.slicer = GameSlicer(g, rules.t.ownable)
        self.check(rules, g)

    def step(self, rules, g, action):
        from verify.engine.step import apply_state
        apply_state(rules, g, action)
        self.check(rules, g)

    def check(self, rules, g):
        from verify.invariants import state_slices
        assert self.slicer(g) == state_slices(g.to_json(rules.t.ownable))
        self.steps += 1

    def finish(self, rules, g):
        pass


@pytest.mark.parametrize("rid,policy", [("official", "random"), ("platform-teams", "heuristic"),
                                        ("official-speed-die", "random"), ("classic-pl", "heuristic")])
def test_engine_slices_equal_the_canonical_states(rid, policy):
    """The checked path reads the engine's own state; it must see exactly what the canonical JSON says."""
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    spy = _SliceSpy()
    n = 4 if cfg.setup.players_max >= 4 else cfg.setup.players_max
    play_game(rules_for(cfg), make_policies(policy, n, "leave", 3), 3, 200, spy)
    assert spy.steps > 200


def test_monitor_on_engine_slices_reports_what_the_json_path_reports():
    """A corrupted game state is judged the same through check_game (engine slices) and through JSON."""
    from verify.engine.trace import InvariantChecker
    cfg, promised, states = _game_states("official", 11, 80)
    rules = rules_for(cfg)
    from verify.engine.state import GameState
    fast, slow = InvariantChecker(cfg, promised), InvariantChecker(cfg, promised)
    before = None
    seen = set()
    for k, (action, state) in enumerate(states):
        if k % 7 == 3:
            state = _break(state, k % 6, k)
        g = GameState.from_json(state, rules.t.ownable)
        got = fast.check_game(rules, g, action if before is not None else None)
        want = slow(before, state, action)
        assert sorted(map(str, got)) == sorted(map(str, want))
        seen |= {v.invariant for v in got}
        before = state
    assert len(seen) >= 4, seen       # the corruptions were seen, several kinds of them


def test_a_step_that_moves_money_is_checked_from_the_cash_column(game):
    """Money conservation and no negative cash read the players' cash from its slice: no player record
    is built for them (a step that moves money builds none: the generated functions read the slices,
    the reference's view is built only for a violation), and a negative cash is still caught."""
    from verify.invariants import state_slices
    from verify.state_view import ViewCache, ViewEnv, board_facts
    cfg, promised, states = game
    monitor = Monitor(cfg, ["cash-nonnegative", "money-conservation"])
    before = state_slices(states[0][1])
    after = dict(before, cash=(before["cash"][0] - 5,) + before["cash"][1:], bank_cash=before["bank_cash"] + 5)
    assert monitor.check_slices(None, before, None) == []
    assert monitor.check_slices(before, after, {"type": "pay"}) == []
    assert monitor._cache._players == [] and monitor._cache._deeds == []      # no record was built
    broke = dict(after, cash=(-1,) + after["cash"][1:], bank_cash=after["bank_cash"] + after["cash"][0] + 1)
    assert [v.invariant for v in monitor.check_slices(after, broke, {"type": "pay"})] == ["cash-nonnegative"]
    env = ViewEnv(ViewCache(board_facts(cfg)), broke)
    assert env.column("players", "cash") == broke["cash"] and env.column("players", "chance_cards") is None
    assert [p.cash for p in env["players"]] == list(broke["cash"])
    assert env.column("players", "cash") is None          # built: the records are read then
