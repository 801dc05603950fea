"""The promised invariants decided after each action of a run, incrementally: the hot part of
``verify.invariants.Monitor``, apart so that it is compiled with the engine.

A checked game decides every promised invariant after every action, which costs more than the action
itself unless little is done per action. This module does that little: it takes the slices of the
state (``verify.state_view``) and which of them changed, evaluates only the state invariants that
read a changed slice (or that were broken on the last state), and of an invariant that held, only the
conjuncts that read a changed slice, over the deeds, streets or groups that changed when the conjunct
allows it (``verify.invariant_code.Part``); then the step invariants. The predicates are the functions
``verify.invariant_code`` generates; where one fails, or where there is none, the reference callbacks
``verify.invariants`` gives decide and describe the violation. Nothing here knows what an invariant
says: this is bookkeeping, and ``verify.engine.native`` compiles it with mypyc (the readable module
runs when no build exists).
"""

from __future__ import annotations

from itertools import compress
from operator import ne
from typing import Any, Callable, Final, Optional

#: the deeds' columns among the slices (``verify.state_view.PROPERTY_SLICES`` but the listed squares)
DEED_COLUMNS: Final = ("owner", "mortgaged", "houses", "hotel")
#: Action kinds in which the bank takes no part (money conservation is then checked on the players, the
#: pot and the jackpot alone when the state does not record the bank's cash).
BANK_FREE_KINDS: Final = frozenset({"pay_rent", "rent", "trade", "accept_trade", "propose_trade"})
_NONE: Final = object()        # (an action without a player: not the same as one with player None)


class StateCheck:
    """A state invariant as the run checks it: the slices it reads, its generated function (None: the
    reference decides) and its conjuncts as ``(reads, full, local, shared)`` (None: not split)."""

    def __init__(self, index: int, reads: frozenset, pred: Optional[Callable], parts: Optional[list]):
        self.index = index
        self.reads = reads
        self.pred = pred
        self.parts = parts
        #: changed slices -> what decides the invariant when it held before (``plan``)
        self.plans: dict[frozenset, Plan] = {}

    def plan(self, changed: frozenset) -> "Plan":
        """What decides the invariant, given that it held on a state from which the slices ``changed``
        differ: its conjuncts that read one of them, each local where it can be (``verify.invariant_code.Part``)."""
        out = self.plans.get(changed)
        if out is None:
            fns: list[Callable] = []
            local = False
            for reads, full, part, shared in self.parts or []:
                if reads.isdisjoint(changed):
                    continue
                if part is not None and shared.isdisjoint(changed):
                    fns.append(part)
                    local = True
                else:
                    fns.append(full)
            out = self.plans[changed] = Plan(fns, local)
        return out


class Plan:
    """The functions that decide an invariant after a change (``StateCheck.plan``); ``local``: one of them
    runs over the deeds, streets or groups that changed."""

    def __init__(self, fns: list[Callable], local: bool):
        self.fns = fns
        self.local = local


class Incremental:
    """The state of a run's checks: which state invariants held on the last state, and that state.

    ``reference_state(k, after)``: the violations of state invariant ``k`` on ``after`` (the reference's);
    ``reference_step(k, before, after, action)``: of step invariant ``k`` (-1: all of them);
    ``action_record(action, before, after)``: the ``action`` the step invariants read; ``frames``: each step
    invariant's frame (``verify.frames``: the slices a step must change for it to fail; None: any step);
    ``acting``: whether each reads the action (else its function is given None for it)."""

    def __init__(self, states: list, steps: list, squares: frozenset, streets: frozenset, group_at: dict,
                 reference_state: Callable, reference_step: Callable, action_record: Callable,
                 frames: Optional[list] = None, acting: Optional[list] = None):
        self.states: list[StateCheck] = states
        self.steps: list[Optional[Callable]] = steps
        self.frames: list[Optional[frozenset]] = frames if frames is not None else [None] * len(steps)
        self.acting: list[bool] = acting if acting is not None else [True] * len(steps)
        self.every_step: tuple[list[int], bool] = (list(range(len(steps))), any(self.acting))
        #: changed slices -> the step invariants due, and whether one of them reads the action
        self.framed: dict[frozenset, tuple[list[int], bool]] = {}
        self.deed_mask = -1          # the squares whose deed columns the step changed (bits; -1: unknown)
        self.deed_sets: dict[int, tuple] = {}    # such squares -> (deeds, streets, groups) among them
        self.squares = squares
        self.streets = streets
        self.group_at: dict[int, int] = group_at
        self.reference_state = reference_state
        self.reference_step = reference_step
        self.action_record = action_record
        self.held: set[int] = set()
        self.last: Optional[dict] = None
        self.listed: Any = None            # the last slice of listed squares found complete
        self.touched: dict[frozenset, list[StateCheck]] = {}    # changed slices -> the invariants reading them
        self.actions: dict[tuple, Any] = {}      # the action records of the game whose seats and teams these are
        self.seats: Any = None
        self.teams: Any = None
        self.evaluated = 0
        self.skipped = 0

    def reset(self) -> None:
        self.held = set()
        self.last = None

    def readable(self, sl: dict) -> bool:
        """Whether the generated functions may read ``sl``: it lists every deed (else the reference says
        what is wrong when it reads them)."""
        listed = sl["listed"]
        if listed is self.listed:
            return True
        if self.squares <= listed:
            self.listed = listed
            return True
        return False

    def due(self, changed: Optional[frozenset]) -> list[StateCheck]:
        """The state invariants to evaluate: those reading a changed slice, and those broken last time."""
        held = self.held
        if changed is not None and len(held) == len(self.states):
            # everything held on the last state: due are the invariants that read a changed slice
            due = self.touched.get(changed)
            if due is None:
                due = self.touched[changed] = [c for c in self.states if not changed.isdisjoint(c.reads)]
            self.skipped += len(held) - len(due)
            return due
        out = []
        for c in self.states:
            if changed is None or not changed.isdisjoint(c.reads) or c.index not in held:
                out.append(c)
            else:
                self.skipped += 1
        return out

    def changed_deeds(self, last: dict, after: dict, changed: frozenset) -> tuple:
        """The deeds, streets and colour groups with a square whose deed columns differ between the two
        (the bits of ``deed_mask`` when the caller knew them)."""
        mask = self.deed_mask
        if mask < 0:
            mask = 0
            for name in DEED_COLUMNS:
                if name in changed:
                    for sq in compress(range(len(after[name])), map(ne, after[name], last[name])):
                        mask |= 1 << sq
        d = self.deed_sets.get(mask)
        if d is None:
            deeds = sorted(sq for sq in self.squares if mask >> sq & 1)
            d = (deeds, [sq for sq in deeds if sq in self.streets],
                 sorted({self.group_at[sq] for sq in deeds if sq in self.group_at}))
            if len(self.deed_sets) >= 4096:
                self.deed_sets.clear()
            self.deed_sets[mask] = d
        return d

    def check(self, before: Optional[dict], after: dict, action: Any, changed: Optional[frozenset],
              own: bool = False, squares: int = -1) -> list:
        """The violations of ``after`` and of the step ``before -> after`` (``before`` None: a first state);
        ``changed``: the slices that differ from the last state's (None: unknown, all of them); ``own``: the
        slices hold the engine's own values (integers and booleans), so that a step invariant whose frame
        the step left as it was holds (``verify.frames``) and is not evaluated; ``squares``, with ``changed``:
        a bit set for each square whose deed columns changed (-1: unknown)."""
        last = self.last
        self.deed_mask = squares if changed is not None else -1
        if last is None:
            changed = None
        self.last = after
        fast = after["listed"] is self.listed or self.readable(after)
        out: list = []
        if changed is None or len(changed) > 0 or len(self.held) != len(self.states):
            out = self.check_states(last, after, changed, fast)
        else:                                   # nothing changed and everything held: nothing is due
            self.skipped += len(self.held)
        if before is None or not self.steps:
            return out
        every = self.every_step
        due, acting = every
        if own and changed is not None and before is last:
            # ``changed`` is then what the step changed
            framed = self.framed.get(changed)
            if framed is None:
                ks = [k for k, f in enumerate(self.frames) if f is None or not changed.isdisjoint(f)]
                framed = self.framed[changed] = (ks, any([self.acting[k] for k in ks]))
            due, acting = framed
            if not due:
                return out
        if fast and (before is after or (before["listed"] is self.listed or self.readable(before))
                     and len(before["seats"]) == len(after["seats"])):
            bc = after["bank_cash"]
            obc = before["bank_cash"]
            act: Any = self.action(action, before, after) if acting or bc is None or obc is None else None
            if bc is None or obc is None:      # the bank is the counterparty (as the reference says)
                obc = 0
                bc = 0 if act.kind in BANK_FREE_KINDS else (
                    sum(before["cash"]) + before["pot"] + before["jackpot"]
                    - sum(after["cash"]) - after["pot"] - after["jackpot"])
            steps = self.steps
            for k in due:
                pred = steps[k]
                if pred is None or not pred(after, before, act, bc, obc):
                    out.extend(self.reference_step(k, before, after, action))
        elif due is every[0]:
            out.extend(self.reference_step(-1, before, after, action))
        else:
            for k in due:
                out.extend(self.reference_step(k, before, after, action))
        return out

    def check_states(self, last: Optional[dict], after: dict, changed: Optional[frozenset], fast: bool) -> list:
        due = self.due(changed)
        self.evaluated += len(due)
        held = self.held
        out: list = []
        bank_cash = after["bank_cash"]
        bc = 0 if bank_cash is None else bank_cash
        d: Any = None
        for c in due:
            pred = c.pred
            if fast and pred is not None:
                parts = c.parts
                ok: Any = True
                if (parts is not None and last is not None and changed is not None and c.index in held
                        and "listed" not in changed):
                    # it held on the last state: its conjuncts that read a changed slice decide
                    plan = c.plans.get(changed)
                    if plan is None:
                        plan = c.plan(changed)
                    if plan.local and d is None:
                        d = self.changed_deeds(last, after, changed)
                    for fn in plan.fns:
                        if not fn(after, bc, d):
                            ok = False
                            break
                    if ok:
                        continue        # (it holds still)
                else:
                    ok = pred(after, None, None, bc, None)
                if ok:
                    held.add(c.index)
                    continue
            bad = self.reference_state(c.index, after)
            if bad:
                held.discard(c.index)
                out.extend(bad)
            else:
                held.add(c.index)
        return out

    def action(self, action: Any, before: dict, after: dict) -> Any:
        """The step's ``action`` record (``action_record``), remembered for the same raw fields in the same
        seats when no one went bankrupt (the bankrupt column is the very same object)."""
        if before["bankrupt"] is not after["bankrupt"] or not isinstance(action, dict):
            return self.action_record(action, before, after)
        seats, teams = before["seats"], before["teams"]
        if seats is not self.seats or teams is not self.teams:     # (another game: its own records)
            self.seats, self.teams = seats, teams
            self.actions = {}
        kind = action.get("kind") or action.get("type") or action.get("action")
        quick = (kind, type(kind), action.get("player", _NONE), action.get("seat"), action.get("creditor"))
        try:
            record = self.actions.get(quick)
        except TypeError:           # an unhashable field: the long way
            return self.action_record(action, before, after)
        if record is None:
            record = self.action_record(action, before, after)
            if len(self.actions) >= 4096:
                self.actions.clear()
            self.actions[quick] = record
        return record


__all__ = ["Incremental", "StateCheck", "Plan", "BANK_FREE_KINDS", "DEED_COLUMNS"]
