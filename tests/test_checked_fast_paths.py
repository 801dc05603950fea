"""A checked run's shortcuts give the reference's verdicts, on every step, whatever the engine does.

A checked game (``verify.engine.slices.CheckedGame``) does little per action: it compares the engine's
columns with their last copies, evaluates only the state invariants that read a changed slice (over the
squares that changed, where it can), and a step invariant only on a step that changes a slice of its
frame (``verify.frames``). These tests play games whose engine corrupts its own state after some actions
(every column and scalar the invariants read, on any action, including those that normally change
nothing), and compare each step's violations with the reference's on the canonical states; and they
check the frames' proof on real steps: a step that keeps the frame's slices as they were keeps the
invariant true.
"""

import io
import json
import random

import pytest

from verify.config import EngineConfig
from verify.engine.engines import rules_for
from verify.engine.policies import make_policies
from verify.engine.simulate import play_game
from verify.engine.slices import action_for_check
from verify.engine.state import UNLIMITED
from verify.engine.trace import InvariantChecker, TraceRecorder
from verify.expr import parse
from verify.frames import ALL_SLICES, frame
from verify.invariants import _check_step, by_id, check_state, check_step, state_slices
from verify.spec import load_ruleset
from tests.test_engine_compiled import _players


def _corrupt(g, rng: random.Random, ownable: tuple):
    """Change one thing of the engine's state that an invariant reads; return what undoes it."""
    n = len(g.cash)
    i, sq = rng.randrange(n), rng.choice(ownable)
    how = rng.randrange(13)

    def at(column, index, value):
        old = column[index]
        column[index] = value
        return lambda: column.__setitem__(index, old)

    def scalar(name, value):
        old = getattr(g, name)
        setattr(g, name, value)
        return lambda: setattr(g, name, old)

    if how == 0:
        return at(g.cash, i, g.cash[i] + rng.choice([-1, 1, 50, -100_000]))
    if how == 1:
        return scalar("pot", rng.choice([g.pot + 5, -1]))
    if how == 2:
        return scalar("jackpot", g.jackpot + 3)
    if how == 3:
        return scalar("bank_cash", g.bank_cash + 7)
    if how == 4:
        return at(g.houses, sq, g.houses[sq] + 1)
    if how == 5:
        return at(g.hotel, sq, not g.hotel[sq])
    if how == 6:
        return at(g.owner, sq, rng.choice([-1, *range(n)]))
    if how == 7:
        return at(g.mortgaged, sq, not g.mortgaged[sq])
    if how == 8:
        return at(g.bankrupt, i, not g.bankrupt[i])
    if how == 9:
        return at(g.in_jail, i, not g.in_jail[i])
    if how == 10:
        g.jail_cards[i].append("chance-jail")
        return g.jail_cards[i].pop
    if how == 11:               # two squares at once, in one group or two
        other = rng.choice(ownable)
        undo = [at(g.houses, sq, g.houses[sq] + 1), at(g.houses, other, g.houses[other] + 2)]
        return lambda: [u() for u in reversed(undo)]
    if g.bank_houses >= UNLIMITED // 2:
        return at(g.cash, i, g.cash[i] - 1)
    return scalar("bank_houses", g.bank_houses + rng.choice([-1, 1]))


class _Differential:
    """A recorder that applies each action through a checked game's own checks (the fast path), its engine
    having corrupted the state after some actions, and compares the violations with the reference's
    (``check_state + check_step`` on the canonical states before and after). The corruption is undone
    after the step, so the bots play on; the checks see the undoing as part of the next step."""

    def __init__(self, cfg: EngineConfig, promised: list[str], corrupted: dict):
        self.cfg, self.promised, self.corrupted = cfg, promised, corrupted
        self.checker = InvariantChecker(cfg, promised)
        self.steps = self.skipped = 0
        self.seen: set[str] = set()

    def start(self, rules, g):
        self.game = self.checker.start_game(rules, g, play=True)
        assert self.game.first(g) == []
        self.before = g.to_json(rules.t.ownable)

    def step(self, rules, g, action):
        got = sorted(map(str, self.game.play(g, action)))
        after = g.to_json(rules.t.ownable)
        act = action_for_check(action, g.events or [])
        want = sorted(map(str, check_state(self.cfg, after, self.promised)
                          + check_step(self.cfg, self.before, after, act, self.promised)))
        assert got == want, (self.steps, action)
        self.seen |= {v.split()[1] for v in got}
        self.steps += 1
        self.before = after
        undo = self.corrupted.pop("undo", None)
        if undo is not None:
            undo()

    def finish(self, rules, g):
        pass


@pytest.mark.parametrize("path", [pytest.param("compiled", marks=pytest.mark.compiled), "readable"])
@pytest.mark.parametrize("rid", ["official", "online-vn", "platform-teams"])
def test_a_checked_game_on_a_corrupting_engine_reports_what_the_reference_reports(rid, path):
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    engine = rules_for(cfg, path)
    rng = random.Random(7)
    corrupted: dict = {}
    saved = dict(engine.dispatch)

    def corrupting(effect):
        def run(g, seat, *args):
            effect(g, seat, *args)
            if rng.random() < 0.25:
                corrupted["undo"] = _corrupt(g, rng, engine.t.ownable)
        return run

    engine.dispatch.update({name: (guard, corrupting(effect)) for name, (guard, effect) in saved.items()})
    try:
        spy = _Differential(cfg, r.promised(), corrupted)
        play_game(engine, make_policies("heuristic", _players(cfg), "leave", 11), 11, 120, spy)
    finally:
        engine.dispatch.update(saved)
    run = spy.checker._monitor._run
    assert spy.steps > 300
    # the corruptions broke invariants of both kinds, and the shortcuts were taken: some steps left every
    # step invariant's frame alone, and state invariants were skipped
    assert {"money-conservation", "cash-nonnegative", "single-owner"} <= spy.seen, spy.seen
    assert any(not due for due, _ in run.framed.values()) and run.skipped > run.evaluated


def test_the_frames_of_the_bundled_step_invariants():
    frames = {inv.id: frame(inv.expr, inv.reads) for inv in by_id() if inv.kind == "step"}
    assert frames == {"money-conservation": frozenset({"cash", "bank_cash", "pot", "jackpot", "seats"}),
                      "bankruptcy-transfer": frozenset({"bankrupt"})}


@pytest.mark.parametrize("text,expected", [
    ("sum(q.cash for q in players) == old(sum(q.cash for q in players))", {"cash", "seats"}),
    ("all(p.owner == p.before.owner for p in properties)", {"owner", "seats", "listed"}),
    ("not action.bankruptcy or all(q.cash == 0 for q in players)", {"bankrupt"}),
    ("implies(action.bankruptcy, pot == 0)", {"bankrupt"}),
    # nothing proves these on an unchanged state: a division may fail, the action is not the state's,
    # a strict comparison of equal values is false, a sum is not a truth
    ("pot // 2 == old(pot // 2)", None),
    ("action.kind == 'roll' or pot == old(pot)", {"pot"}),
    ("action.kind == 'roll'", None),
    ("pot < old(pot)", None),
    ("sum(q.cash for q in players)", None),
])
def test_a_frame_is_what_the_proof_needs(text, expected):
    got = frame(parse(text))
    assert got == (None if expected is None else frozenset(expected)) and (got is None or got <= ALL_SLICES)


@pytest.mark.parametrize("rid", ["official", "platform-teams"])
def test_a_step_that_keeps_a_frame_keeps_its_invariant(rid):
    """The proof on real steps: each step of a game, corrupted anywhere but in the frame's slices (which
    are the state's before), leaves the step invariant true for the reference."""
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    buf = io.StringIO()
    play_game(rules_for(cfg), make_policies("heuristic", _players(cfg), "leave", 4), 4, 150, TraceRecorder(buf, {}))
    lines = [json.loads(x) for x in buf.getvalue().splitlines()[1:] if '"state"' in x]
    rng = random.Random(3)
    checked = 0
    for inv in (i for i in by_id() if i.kind == "step"):
        keep = frame(inv.expr, inv.reads)
        for prev, line in zip(lines, lines[1:]):
            before, after = state_slices(prev["state"]), state_slices(line["state"])
            other = state_slices(rng.choice(lines)["state"])     # another state's values everywhere else
            mixed = {name: before[name] if name in keep else other[name] for name in after}
            for action in (line["action"], {"type": "bankrupt", "seat": 0, "creditor": 1}):
                assert not _check_step(cfg, before, mixed, action, [inv]), (inv.id, action)
                checked += 1
    assert checked > 500
