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
from ..engine.actions import ACTIONS
from ..engine.engines import rules_for
from ..engine.state import GameState
from ..engine.step import IllegalAction, check
from ..errors import GameError
from ..engine.trace import _action_for_check
from ..invariants import Monitor, broken_clause
from . import signature as sig
from .cause import Cause, card_names, context_of, settled, successor
from .chain import words
from .signature import OPTIONAL_FIELDS
from .protocol import EngineFault, Hello, compared_keys, project

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
    signature: str = ""             # the deviation's cause (``cause.py``): what a run files it under
    context: str = ""               # where it was met: the action and what its move met
    chain: str = ""                 # the chain up to the cause's link, in words

    def to_json(self) -> dict:
        return {"rule": self.rule, "step": self.step, "expected": self.expected, "actual": self.actual,
                "message": self.message, "diff": list(self.diff), "log": self.log, "signature": self.signature,
                "context": self.context, "chain": self.chain}

    @classmethod
    def from_json(cls, d: dict) -> "StepViolation":
        return cls(d["rule"], int(d["step"]), d.get("expected"), d.get("actual"), d.get("message", ""),
                   list(d.get("diff") or []), d.get("log", ""), d.get("signature", ""), d.get("context", ""),
                   d.get("chain", ""))

    @classmethod
    def of(cls, cause: Cause, step: int, expected: Any, actual: Any, message: str, diff: list[str] | None = None,
           log: str = "") -> "StepViolation":
        return cls(cause.rule, step, expected, actual, message, list(diff or []), log, cause.key, cause.context,
                   cause.chain)


def expect(config: EngineConfig, state: dict, action: dict, game: GameState | None = None,
           path: str | None = None) -> tuple:
    """The reference outcome: ``("state", successor, checked_action, successor_game, events)`` or
    ``("illegal", message, action, reason, ())`` (``reason``: the registry's ``Reason``, what it rests on).

    ``checked_action`` is the action as the step invariants read it: a bankruptcy names the creditor
    the ruleset gives (from the reference's events; an engine under test reports no events).
    ``game`` is ``state`` already read (``GameState``), to save reading it again; it is not changed.
    ``path``: which of the reference's engines plays it (``verify.engine.engines.rules_for``).
    Raises ``GameError`` when the action is malformed for this state (never offered)."""
    rules = rules_for(config, path)
    g = (game if game is not None else rules.from_json(state)).copy()
    g.events = []
    try:
        seat, perform = check(rules, g, action)
    except IllegalAction as exc:
        return REFUSE, exc.message, action, exc.reason, ()
    try:
        perform(rules, g, seat, action)
    except (IndexError, KeyError, TypeError, ValueError) as exc:   # a state the rules cannot follow
        raise GameError(f"{action['type']}: the state is inconsistent ({type(exc).__name__}: {exc})") from None
    events, g.events = g.events, None
    return ACCEPT, g.to_json(rules.t.ownable), _action_for_check(used_only(action, events), events), g, events


#: The step's optional random fields (``verify.engine.actions.STEP_RANDOM``) and the event that shows each used.
STEP_DRAWS = {"card_dice": "card_throw", "reshuffle": "reshuffled"}


def used_only(action: dict, outcome: tuple | list) -> dict:
    """``action`` without the step's optional random fields its step did not use: ``outcome`` is the
    reference's events, or its outcome (``expect``: a refusal uses none; an accepted step's checked action
    keeps those it used). A card's throw given where no card is thrown would only be noise to read."""
    if not any(k in action for k in STEP_DRAWS):
        return action
    if isinstance(outcome, tuple):
        kept = outcome[2] if outcome[0] == ACCEPT and isinstance(outcome[2], dict) else {}
        return {k: v for k, v in action.items() if k not in STEP_DRAWS or k in kept}
    used = {e.get("event") for e in outcome}
    decks = {e.get("deck") for e in outcome if e.get("event") == "reshuffled"}
    out = {k: v for k, v in action.items() if k not in STEP_DRAWS or STEP_DRAWS[k] in used}
    if isinstance(out.get("reshuffle"), dict):
        order = {deck: ids for deck, ids in out["reshuffle"].items() if deck in decks}
        out = dict(out, reshuffle=order) if order else {k: v for k, v in out.items() if k != "reshuffle"}
    return out


def fault_violation(step: int, fault: EngineFault, request: str = "apply") -> StepViolation:
    """A protocol fault; its cause names the request (``load``, an action type) and the kind of fault."""
    return StepViolation.of(Cause("protocol", request, fault.kind, request), step, "an answer in protocol 1",
                            f"{fault.kind}: {fault.message}", f"{fault.kind}: {fault.message}", log=fault.log)


def engine_creditor(before: dict, after: dict, action: dict, heir_inherits: bool = False) -> dict:
    """The action as the step invariants read it, with the creditor the *engine* used in a bankruptcy:
    the one its state names (a debt in progress), else the player who received the bankrupt player's
    deeds or jail cards, else the bank. The invariants then judge whether the engine's transfer is
    whole and consistent; whether the creditor is the ruleset's is the successor comparison's part.

    ``heir_inherits``: the ruleset hands a bankruptcy to the bank to a teammate (the deeds go to them), so
    deeds a teammate receives say nothing of a creditor; only jail cards a player receives do."""
    was = [p.get("bankrupt") for p in before.get("players", [])]
    now = [p.get("bankrupt") for p in after.get("players", [])]
    newly = [i for i, (a, b) in enumerate(zip(was, now)) if b and not a]
    if not newly:
        return action
    debtor = newly[0]
    pend = before.get("pending") or {}
    if before.get("phase") == "debt" and pend.get("debtor") == debtor and isinstance(pend.get("creditor"), int):
        return dict(action, creditor=pend["creditor"], player=debtor)
    gained = set()
    players = before.get("players", [])
    team = players[debtor].get("team") if debtor < len(players) else None
    for old, new in zip(before.get("properties", []), after.get("properties", [])):
        owner = new.get("owner")
        if old.get("owner") == debtor and owner not in (None, debtor):
            heir = heir_inherits and isinstance(owner, int) and 0 <= owner < len(players) \
                and team is not None and players[owner].get("team") == team
            if not heir:
                gained.add(owner)
    for seat, (old, new) in enumerate(zip(before.get("players", []), after.get("players", []))):
        if seat != debtor and len(new.get("jail_cards") or []) > len(old.get("jail_cards") or []):
            gained.add(seat)
    creditor = gained.pop() if len(gained) == 1 else -1
    return dict(action, creditor=creditor, player=debtor)


def _others_settled(start: dict, after: dict, action: dict) -> dict:
    """The state a bankruptcy's transfer is judged from: ``start`` with the buildings of every deed the bankrupt
    player did not own as the engine left them (and the bank's stock to match). Another player breaking a hotel
    down or selling houses in the same step is that player's doing, not a lost asset of the bankrupt one;
    whether it was right is the successor's question."""
    player = action.get("player")
    if not isinstance(player, int) or "creditor" not in action:
        return start
    old = {p.get("square"): p for p in start.get("properties", [])}
    new = {p.get("square"): p for p in after.get("properties", [])}
    moved = []
    for s, p in old.items():
        q = new.get(s)
        if q is not None and p.get("owner") != player and (p.get("houses"), p.get("hotel")) != (q.get("houses"),
                                                                                               q.get("hotel")):
            moved.append((s, q))
    if not moved:
        return start
    out = dict(start, properties=[dict(p) for p in start["properties"]], bank=dict(start.get("bank") or {}))
    at = {p["square"]: p for p in out["properties"]}
    bank = out["bank"]
    for s, q in moved:
        p = at[s]
        for stock, was, now in (("houses", p.get("houses") or 0, q.get("houses") or 0),
                                ("hotels", int(bool(p.get("hotel"))), int(bool(q.get("hotel"))))):
            if isinstance(bank.get(stock), int):
                bank[stock] += was - now
        p["houses"], p["hotel"] = q.get("houses"), q.get("hotel")
    return out


class Oracle:
    """Judges an engine's steps for one config, promised invariants and declared keys."""

    def __init__(self, config: EngineConfig, promised: list[str], hello: Hello, monitor: Monitor | None = None,
                 replay=None):
        self.config = config
        self.promised = list(promised)
        self.compare, self.fields = compared_keys(hello.compare)
        self.actions = hello.actions
        self.deed_names = tuple(d.name for d in config.board.deeds)
        self.kinds = {d.square: d.kind for d in config.board.deeds}
        self.squares = dict(enumerate(config.board.squares))
        self.cards = card_names(config)
        self.heir_inherits = config.debt.to_bank_properties == "teammate" or (
            config.teams.enabled and config.teams.bankrupt_to_bank_teammate_inherits)
        self.replay = replay          # (state, action) -> the chain's outcome (``chain.play`` for this engine)
        self._monitor: Monitor | None = monitor

    def monitor(self) -> Monitor:
        """The promised invariants' monitor (built once: building it is most of a short scenario's cost; it
        needs no reset between scenarios, as it re-evaluates whatever a state changes from the last)."""
        if self._monitor is None:
            self._monitor = Monitor(self.config, self.promised)
        return self._monitor

    def judge(self, step: int, before: dict, action: dict, expected: tuple, got: tuple[str, Any],
              monitor: Monitor, raised: dict | None = None) -> StepViolation | None:
        """The first rule the engine's answer ``got`` breaks (None when it conforms), with its cause.

        ``expected`` is the reference's outcome of the step's chain (``chain.play``: its last item the links);
        ``before`` is the state the engine last reported (or was loaded with); ``raised``, for a debt the
        engine settled itself, the state once the cash was raised (the step invariants start there)."""
        ekind, evalue = expected[0], expected[1]
        gkind, gvalue = got
        kind = str(action.get("type"))
        seen = self.seen
        if ekind == REFUSE and gkind == ACCEPT:
            why = expected[3] if len(expected) > 3 else None
            text = sig.template_key(why.template) if getattr(why, "template", None) else evalue
            cause = Cause("legality", kind, "accepted: " + sig.reason_key(text, self.deed_names), kind)
            return StepViolation.of(cause, step, f"refused: {evalue}", "accepted",
                                    f"the engine accepted an action the ruleset refuses ({evalue})",
                                    diff_lines(seen(before), seen(gvalue), self.compare, "before", "engine"))
        if ekind == ACCEPT and gkind == REFUSE:
            cause = Cause("legality", "", "refused: " + sig.reason_key(gvalue, self.deed_names), kind)
            return StepViolation.of(cause, step, "accepted", f"refused: {gvalue}",
                                    f"the engine refused an action the ruleset allows ({gvalue})")
        if gkind == REFUSE:
            return None
        start = raised if raised is not None else before
        creditor = engine_creditor(start, gvalue, action, self.heir_inherits)
        try:
            broken = monitor(_others_settled(start, gvalue, creditor), gvalue, creditor)
        except GameError as exc:
            return StepViolation.of(Cause("protocol", kind, "unreadable state", kind), step, "a verify.state/1 state",
                                    exc.message, f"the reported state cannot be read: {exc.message}")
        diff = diff_lines(seen(evalue), seen(gvalue), self.compare)
        act = ACTIONS.get(kind)        # only a move meets a square, a card or jail (an unmortgage does not)
        where = context_of(before, action, evalue, act is not None and act.moves, self.squares)
        if broken:
            v = broken[0]
            clause = broken_clause(self.config, v.invariant, gvalue, _others_settled(start, gvalue, creditor),
                                   creditor)
            # the invariant broken at the action is the cause (its clause, which varies with the state, is not)
            return StepViolation.of(Cause(v.invariant, kind, "", where), step, f"invariant holds: {v.title}",
                                    f"broken{': ' + v.message if v.message else ''}",
                                    str(v) + (f"; the clause that fails: {clause}" if clause else ""), diff)
        if diff:
            links = expected[4] if len(expected) > 4 else ()
            cause = self._own_throw(action, links, gvalue, where) or successor(
                before, links, gvalue, self.compare, sig.Roles(before, action, self.kinds), where, seen, self.cards)
            if cause is None:
                return None
            return StepViolation.of(cause, step, differing(seen(evalue), self.compare, seen(gvalue)),
                                    differing(seen(gvalue), self.compare, seen(evalue)),
                                    f"the engine's successor differs from the ruleset's on {len(diff)} value(s)"
                                    + ("" if len(diff) < DIFF_LINES else " or more"), diff)
        return None

    def _own_throw(self, action: dict, links: tuple, got: dict, where: str) -> Cause | None:
        """A card's own throw of the dice (``card_dice``: the harness's draw) the engine did not use: its state is
        the ruleset's with the move's dice thrown again (an engine that charges the nearest utility by the
        roll it moved with). The cause is that link of the chain, whatever the amounts."""
        dice = action.get("dice")
        if self.replay is None or "card_dice" not in action or not isinstance(dice, list) or not links:
            return None
        own = next((link for link in links if not link.automatic), None)
        if own is None or not any(e.get("event") == "card_throw" for link in links for e in link.events) \
                or list(action["card_dice"]) == list(dice[:2]):
            return None
        try:
            alt = self.replay(own.before, dict(action, card_dice=list(dice[:2])))
        except GameError:
            return None
        if alt[0] != ACCEPT or diff_lines(self.seen(settled(alt[1])), self.seen(settled(got)), self.compare):
            return None
        return Cause("successor", "card_throw", "card_dice: the move's dice, not a throw of its own", where,
                     words(links))

    def seen(self, state: dict) -> dict:
        """``state`` as far as the engine declared it keeps it (``compare``, nested keys included)."""
        return project(state, self.fields)

    def same_state(self, expected: dict, actual: dict) -> list[str]:
        return diff_lines(self.seen(expected), self.seen(actual), self.compare)

    def load_violation(self, given: dict, held: dict, request: str = "load") -> StepViolation | None:
        """After ``load`` (or ``new_game``) the engine must hold the state given (the ruleset's)."""
        given, held = self.seen(given), self.seen(held)
        diff = diff_lines(given, held, self.compare)
        if not diff:
            return None
        atoms = ", ".join(sig.diff_atoms(given, held, self.compare, sig.Roles(given, {}, self.kinds)))
        if request == "load":
            return StepViolation.of(Cause("protocol", "load", atoms, "load"), 0, "the loaded state", "another state",
                                    "after load the engine does not hold the state it was given", diff)
        return StepViolation.of(Cause("setup", request, atoms, request), 0, differing(given, self.compare, held),
                                differing(held, self.compare, given),
                                "the engine's new game differs from the ruleset's setup", diff)


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
        for k in [*a, *(k for k in b if k not in a)]:      # in the states' order: the same lines every run
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


__all__ = ["Oracle", "StepViolation", "expect", "used_only", "fault_violation", "engine_creditor", "diff_lines", "ACCEPT",
           "REFUSE"]
