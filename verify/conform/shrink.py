"""Shrinking one deviation's scenario, keeping it the same deviation, within a counted budget.

A candidate is taken only when the engine shows the *same cause* on it
(hypothesis keeps each bug's origin the same way while it shrinks): a
simpler scenario that breaks another rule, or the same rule in another way,
is another deviation and is not taken, so one deviation never turns into, or
hides behind, another. Candidates, simplest first:

* start later: load the state the scenario had reached before the failing
  step (the reference's, which the engine agreed with) and keep only that
  step, when the engine can hold that state;
* drop one earlier step;
* simplify the loaded state (``states.simplification_units``: a group back to
  the bank, buildings sold back, a mortgage lifted, a player out of jail, a
  jail card back in its deck): all of them at once first, then halves of
  them, in the manner of delta debugging;
* simplify the failing action (a trade side without one of its items, a bid
  of less).

The budget is counted in engine runs (not seconds), so a busy machine shrinks
exactly as far as a quiet one.
"""

from __future__ import annotations

from typing import Iterator

from ..errors import GameError
from .oracle import ACCEPT, StepViolation
from .scenarios import Scenario
from .session import Session
from .states import simplification_units, simplified

#: Engine runs spent shrinking one deviation (at most).
DEFAULT_SHRINK_RUNS = 25


def _state_before(session: Session, sc: Scenario, step: int) -> dict | None:
    """The reference's state before action ``step`` (1-based) of ``sc``; None when a step before it is refused."""
    state = sc.state
    for i, action in enumerate(sc.actions[:step - 1]):
        out = sc.expected[i] if i < len(sc.expected) else None
        if out is None:
            try:
                out = session.ctx.expect(state, action)
            except GameError:
                return None
        if out[0] != ACCEPT:
            return None
        state = out[1]
    return state


def _action_variants(action: dict) -> Iterator[dict]:
    """Simpler forms of one action: a trade with an item fewer, a bid of less."""
    if action.get("type") == "trade":
        for side in ("give", "take"):
            s = action.get(side) or {}
            for key in ("squares", "cards"):
                for i in range(len(s.get(key) or [])):
                    yield {**action, side: {**s, key: s[key][:i] + s[key][i + 1:]}}
            if s.get("cash"):
                yield {**action, side: {**s, "cash": 0}}
    elif action.get("type") == "bid" and isinstance(action.get("amount"), int) and action["amount"] > 1:
        yield {**action, "amount": action["amount"] // 2}


def _structural(session: Session, sc: Scenario, step: int) -> Iterator[Scenario]:
    """Shorter scenarios than ``sc`` (failing at ``step``): starting later, then without one earlier step."""
    if step > 1:
        state = _state_before(session, sc, step)
        if state is not None and session.ctx.holds(state):
            past = sc.history or {"state": sc.state, "actions": []}
            yield Scenario(state, [sc.actions[step - 1]], f"{sc.origin}, after {step - 1} step(s)",
                           history={"state": past["state"], "actions": past["actions"] + sc.actions[:step - 1]})
    for i in range(step - 1):
        yield Scenario(sc.state, sc.actions[:i] + sc.actions[i + 1:step], sc.origin, setup=sc.setup,
                       history=sc.history)


class _Budget:
    """Engine runs left, and the one test every candidate goes through: the same deviation, no later."""

    def __init__(self, session: Session, runs: int, target: str):
        self.session, self.left, self.target = session, runs, target

    def same(self, cand: Scenario, step: int) -> StepViolation | None:
        if self.left <= 0:
            return None
        self.left -= 1
        w = self.session.run(cand).violation
        return w if w is not None and w.signature == self.target and w.step <= step else None


def _simplify_state(budget: _Budget, sc: Scenario, v: StepViolation) -> tuple[Scenario, StepViolation]:
    """Apply as many simplifications of the loaded state as keep the deviation: all at once first, then
    halves of those that did not go through together, and so on (a few runs when the deviation needs
    little of the state, at most twice as many runs as simplifications)."""
    ctx = budget.session.ctx
    units = simplification_units(ctx, sc.state)
    applied: list = []

    def attempt(chunk: list) -> None:
        nonlocal sc, v
        if not chunk or budget.left <= 0:
            return
        state = simplified(ctx, sc.state, [change for _, change in chunk])
        if state is not None:
            cand = Scenario(state, list(sc.actions), sc.origin)     # a state no history leads to
            w = budget.same(cand, v.step)
            if w is not None:
                sc, v = cand.truncated(w.step), w
                applied.extend(chunk)
                return
        if len(chunk) > 1:
            mid = len(chunk) // 2
            rest = chunk[mid:]
            attempt(chunk[:mid])
            # the second half is re-read against the state as it is now
            labels = {label for label, _ in rest}
            attempt([u for u in simplification_units(ctx, sc.state) if u[0] in labels])

    attempt(units)
    return sc, v


def shrink(session: Session, sc: Scenario, v: StepViolation, runs: int = DEFAULT_SHRINK_RUNS
           ) -> tuple[Scenario, StepViolation, int]:
    """The simplest scenario found within ``runs`` engine runs that shows ``v``'s deviation (its cause),
    the violation it shows, and the runs spent: shorter first (``_structural``, for as long as it
    helps), then a simpler loaded state, then a simpler failing action."""
    budget = _Budget(session, runs, v.signature)
    sc = sc.truncated(v.step)
    improved = True
    while improved and budget.left > 0:
        improved = False
        for cand in _structural(session, sc, v.step):
            w = budget.same(cand, v.step)
            if w is not None:
                sc, v, improved = cand.truncated(w.step), w, True
                break
    sc, v = _simplify_state(budget, sc, v)
    if v.step >= 1:
        for a in _action_variants(sc.actions[v.step - 1]):
            cand = Scenario(sc.state, sc.actions[:v.step - 1] + [a], sc.origin, setup=sc.setup, history=sc.history)
            w = budget.same(cand, v.step)
            if w is not None:
                sc, v = cand.truncated(w.step), w
    return sc, v, runs - budget.left


__all__ = ["shrink", "DEFAULT_SHRINK_RUNS"]
