"""The oracle: what the spec says one step must do, and whether the engine under test did it.

The spec is the compiled ruleset played by the reference engine. For a state
and an action the oracle knows the expected outcome (``expect``: the reference
successor, or the rule's refusal). ``judge`` then holds the engine's answer to
it, in a fixed order: the engine must accept exactly what the ruleset allows
(rule ``legality``); every invariant the ruleset promises must hold on the
state it reports (rule = the invariant's id); and that state must equal the
reference successor on the keys the engine maintains (rule ``successor``,
with a readable diff). Faults of the engine itself are rule ``protocol``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..config import EngineConfig
from ..engine.engines import rules_for
from ..engine.state import GameState
from ..engine.step import IllegalAction, check
from ..errors import GameError
from ..engine.trace import _action_for_check
from ..invariants import Monitor
from .protocol import EngineFault, Hello

#: Optional keys inside a compared value: compared only when the engine reports them.
OPTIONAL_FIELDS = {("bank", "cash"), ("properties", "interest_paid")}
#: The longest diff kept for a violation.
DIFF_LINES = 20

ACCEPT = "state"
REFUSE = "illegal"


@dataclass
class StepViolation:
    """One departure from the spec, at ``step`` (1-based action index; 0 = while loading)."""

    rule: str                       # an invariant id, legality, successor or protocol
    step: int
    expected: Any
    actual: Any
    message: str
    diff: list[str] = field(default_factory=list)
    log: str = ""                   # the engine's stderr tail (protocol faults)

    def to_json(self) -> dict:
        return {"rule": self.rule, "step": self.step, "expected": self.expected, "actual": self.actual,
                "message": self.message, "diff": list(self.diff), "log": self.log}

    @classmethod
    def from_json(cls, d: dict) -> "StepViolation":
        return cls(d["rule"], int(d["step"]), d.get("expected"), d.get("actual"), d.get("message", ""),
                   list(d.get("diff") or []), d.get("log", ""))


def expect(config: EngineConfig, state: dict, action: dict, game: GameState | None = None) -> tuple:
    """The reference outcome: ``("state", successor, checked_action, successor_game)`` or
    ``("illegal", reason, action, None)``.

    ``checked_action`` is the action as the step invariants read it: a bankruptcy names the creditor
    the ruleset gives (from the reference's events; an engine under test reports no events).
    ``game`` is ``state`` already read (``GameState``), to save reading it again; it is not changed.
    Raises ``GameError`` when the action is malformed for this state (never offered)."""
    rules = rules_for(config)
    g = (game if game is not None else rules.from_json(state)).copy()
    g.events = []
    try:
        seat, perform = check(rules, g, action)
    except IllegalAction as exc:
        return REFUSE, exc.message, action, None
    try:
        perform(rules, g, seat, action)
    except (IndexError, KeyError, TypeError, ValueError) as exc:   # a state the rules cannot follow
        raise GameError(f"{action['type']}: the state is inconsistent ({type(exc).__name__}: {exc})") from None
    events, g.events = g.events, None
    return ACCEPT, g.to_json(rules.ownable), _action_for_check(action, events), g


def fault_violation(step: int, fault: EngineFault) -> StepViolation:
    return StepViolation("protocol", step, "an answer in protocol 1", f"{fault.kind}: {fault.message}",
                         f"{fault.kind}: {fault.message}", log=fault.log)


class Oracle:
    """Judges an engine's steps for one config, promised invariants and declared keys."""

    def __init__(self, config: EngineConfig, promised: list[str], hello: Hello):
        self.config = config
        self.promised = list(promised)
        self.compare = hello.compare
        self.actions = hello.actions

    def monitor(self) -> Monitor:
        return Monitor(self.config, self.promised)

    def judge(self, step: int, before: dict, action: dict, expected: tuple, got: tuple[str, Any],
              monitor: Monitor) -> StepViolation | None:
        """The first rule the engine's answer ``got`` breaks (None when it conforms).

        ``before`` is the state the engine last reported (or was loaded with)."""
        ekind, evalue, checked = expected[:3]
        gkind, gvalue = got
        if ekind == REFUSE and gkind == ACCEPT:
            return StepViolation("legality", step, f"refused: {evalue}", "accepted",
                                 f"the engine accepted an action the ruleset refuses ({evalue})",
                                 diff_lines(before, gvalue, self.compare, "before", "engine"))
        if ekind == ACCEPT and gkind == REFUSE:
            return StepViolation("legality", step, "accepted", f"refused: {gvalue}",
                                 f"the engine refused an action the ruleset allows ({gvalue})")
        if gkind == REFUSE:
            return None
        try:
            broken = monitor(before, gvalue, checked)
        except GameError as exc:
            return StepViolation("protocol", step, "a verify.state/1 state", exc.message,
                                 f"the reported state cannot be read: {exc.message}")
        diff = diff_lines(evalue, gvalue, self.compare)
        if broken:
            v = broken[0]
            return StepViolation(v.invariant, step, f"invariant holds: {v.title}",
                                 f"broken{': ' + v.message if v.message else ''}",
                                 str(v), diff)
        if diff:
            return StepViolation("successor", step, differing(evalue, self.compare, gvalue),
                                 differing(gvalue, self.compare, evalue),
                                 f"the engine's successor differs from the ruleset's on {len(diff)} value(s)"
                                 + ("" if len(diff) < DIFF_LINES else " or more"), diff)
        return None

    def same_state(self, expected: dict, actual: dict) -> list[str]:
        return diff_lines(expected, actual, self.compare)


def differing(a: dict, keys, b: dict) -> dict:
    """The compared top-level keys of ``a`` whose value differs in ``b`` (for the JSON report)."""
    return {k: a.get(k) for k in keys if not _equal(a.get(k), b.get(k), (k,))}


def _equal(a: Any, b: Any, path: tuple) -> bool:
    return not _diff(a, b, path, [], 1)


def diff_lines(expected: dict, actual: dict, keys, left: str = "ruleset", right: str = "engine") -> list[str]:
    """Readable differences on ``keys``: ``players[1].cash: ruleset 1450, engine 1500``."""
    out: list[str] = []
    for k in keys:
        _diff(expected.get(k), actual.get(k), (k,), out, DIFF_LINES, left, right)
        if len(out) >= DIFF_LINES:
            break
    return out


def _label(path: tuple) -> str:
    text = ""
    for p in path:
        text += f"[{p}]" if isinstance(p, int) or str(p).startswith("square ") else (f".{p}" if text else str(p))
    return text


def _diff(a: Any, b: Any, path: tuple, out: list, limit: int, left: str = "ruleset",
          right: str = "engine") -> list:
    if len(out) >= limit or a == b:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        top = path[0]
        for k in a.keys() | b.keys():
            if k not in b and (top, k) in OPTIONAL_FIELDS:
                continue
            _diff(a.get(k, "(missing)"), b.get(k, "(missing)"), path + (k,), out, limit, left, right)
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and path[-1] in ("players", "properties"):
        for i, (x, y) in enumerate(zip(a, b)):
            tag = f"square {x.get('square')}" if path[-1] == "properties" and isinstance(x, dict) else i
            _diff(x, y, path + (tag,), out, limit, left, right)
        return out
    out.append(f"{_label(path)}: {left} {_show(a)}, {right} {_show(b)}")
    return out


def _show(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= 80 else text[:80] + "…"


__all__ = ["Oracle", "StepViolation", "expect", "fault_violation", "diff_lines", "ACCEPT", "REFUSE"]
