"""One engine under test, one ruleset: play scenarios against the engine and judge every step.

A ``Session`` starts the engine (``hello``: its profile), loads each
scenario's state (or, for a new game and an engine that declares ``setup``,
asks it to set one up with the same random draws), reads the state back,
applies the actions one by one and hands each answer to the oracle. It
restarts the engine after a fault. A ``load`` answered ``unsupported`` skips
the scenario (counted by the caller, never a fault).

The expected outcome of each step was recorded when the scenario was
generated; when the engine's own choices (a declared liquidation) take the
game elsewhere, the rest is judged against the reference from there.
"""

from __future__ import annotations

import json

from dataclasses import dataclass

from ..config import EngineConfig
from ..errors import GameError
from ..spec.open_values import playable
from .cause import Cause
from . import chain
from .oracle import ACCEPT, REFUSE, Oracle, StepViolation, expect, fault_violation
from .protocol import EngineFault, Hello, setup_draws
from .scenarios import Context, Scenario
from .transport import EngineSpec


#: bundled rulesets' targets already compiled in this process (a run starts a session per chunk and per
#: shrunk deviation; compiling the ruleset was a tenth of a run on a real engine)
_TARGETS: dict[tuple[str, str], tuple[EngineConfig, tuple[str, ...]]] = {}


def load_target(ruleset: str, settings: dict | tuple | None = None) -> tuple[EngineConfig, list[str]]:
    """The compiled config and promised invariants of ``ruleset`` with ``settings`` supplied; an open
    value still unsupplied is refused (E020: the reference engine cannot play it). A stack of bundled
    rulesets is compiled once per process (a file is read again each time: it may have changed)."""
    given = dict(settings or ())
    key = (ruleset, json.dumps(given, sort_keys=True, default=str))
    hit = _TARGETS.get(key)
    if hit is not None:
        return hit[0], list(hit[1])
    r = playable(ruleset, given)
    config, promised = EngineConfig.from_ruleset(r), list(r.promised())
    if not any(c in ruleset for c in "/\\."):          # ids only (``official+house-no-auction``), no file
        _TARGETS[key] = (config, tuple(promised))
    return config, promised


@dataclass
class Run:
    """What playing one scenario gave: the first violation (or None), the steps checked, and the reason
    when the engine could not hold the scenario's state (skipped)."""

    violation: StepViolation | None
    steps: int
    unsupported: str | None = None


class Session:
    """An engine under test and the oracle for one ruleset; runs scenarios, restarting after faults."""

    def __init__(self, engine: EngineSpec, ruleset: str, settings: dict | tuple | None = None,
                 max_steps: int = 12):
        self.spec = engine
        self.ruleset = ruleset
        self.max_steps = max_steps
        self.settings = dict(settings or ())
        self.config, self.promised = load_target(ruleset, settings)
        self.config_json = self.config.to_json()
        self.engine = engine.open()
        self.hello: Hello | None = None
        self.running = False
        self.oracle: Oracle | None = None
        self.ctx: Context | None = None

    def start(self) -> StepViolation | None:
        if self.running:
            return None
        try:
            self.hello = self.engine.start()
        except EngineFault as f:
            return fault_violation(0, f, "hello")
        if self.ctx is None:
            self.ctx = Context.for_engine(self.config, self.promised, self.hello, self.max_steps)
        self.oracle = Oracle(self.config, self.promised, self.hello, self.ctx.monitor(), self.ctx.expect)
        self.running = True
        return None

    def close(self) -> None:
        self.engine.close()
        self.running = False

    def _fault(self, step: int, f: EngineFault, request: str) -> Run:
        self.running = False
        self.engine.close()
        return Run(fault_violation(step, f, request), step)

    def _expect(self, state: dict, action: dict) -> tuple:
        try:
            return self.ctx.expect(state, action)
        except GameError as exc:
            return (REFUSE, exc.message, action, None, ())

    def _open(self, sc: Scenario) -> Run | dict:
        """Load the scenario's state (or set up its new game): the state the engine holds, or the Run that
        ends the scenario there (a fault, a state it cannot hold, a state other than the one given)."""
        use_setup = sc.setup is not None and self.hello.setup
        try:
            if use_setup:
                kind, held = self.engine.new_game(self.config_json, sc.setup["players"], sc.setup["seed"],
                                                  setup_draws(sc.state))
                if kind == "unsupported":
                    return Run(None, 0, held)
            else:
                why = self.engine.load(self.config_json, sc.state)
                if why is not None:
                    return Run(None, 0, why)
                held = self.engine.state()
        except EngineFault as f:
            return self._fault(0, f, "new_game" if use_setup else "load")
        v = self.oracle.load_violation(sc.state, held, "new_game" if use_setup else "load")
        return Run(v, 0) if v is not None else held

    def run(self, sc: Scenario) -> Run:
        """Play ``sc`` against the engine: the first violation (or None), the steps checked."""
        v = self.start()
        if v is not None:
            return Run(v, 0)
        held = self._open(sc)
        if isinstance(held, Run):
            return held
        oracle = self.oracle
        liquidates = "liquidation" in self.ctx.automatic
        monitor = oracle.monitor()
        monitor(None, held, None)
        before, ref = held, sc.state
        live = False                  # judged from the reference's state, not the recorded outcomes
        last = None
        i = 0
        while (action := sc.step(i + 1)) is not None:
            i += 1
            expected = sc.expected[i - 1] if not live and i <= len(sc.expected) else self._expect(ref, action)
            try:
                got = self.engine.apply(action)
            except EngineFault as f:
                return self._fault(i, f, str(action.get("type")))
            raised = None
            if liquidates and expected[0] == ACCEPT and got[0] == ACCEPT:
                settled = chain.settle(self.ctx.automatic, expect, self.config, expected, got[1])
                if settled is not None:
                    expected, raised = settled
                    live = True
            v = oracle.judge(i, before, action, expected, got, monitor, raised)
            if v is not None:
                return Run(v, i)
            last = got[0]
            if got[0] == ACCEPT:
                before, ref = got[1], expected[1]
        if last == REFUSE:                 # a refusal must leave the engine's state as it was
            n = len(sc.actions)
            try:
                now = self.engine.state()
            except EngineFault as f:
                return self._fault(n, f, "state")
            diff = oracle.same_state(before, now)
            if diff:
                kind = str(sc.actions[-1].get("type"))
                return Run(StepViolation.of(Cause("successor", kind, "changed its state on a refusal", kind), n,
                                            "its state unchanged", "its state changed",
                                            "the engine refused the action but changed its state", diff), n)
        return Run(None, len(sc.actions))


__all__ = ["Session", "Run", "load_target"]
