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
from typing import Any, Callable, Optional

#: the deeds' columns among the slices (``verify.state_view.PROPERTY_SLICES`` but the listed squares)
DEED_COLUMNS = ("owner", "mortgaged", "houses", "hotel")
#: Action kinds in which the bank takes no part (money conservation is then checked on the players, the
#: pot and the jackpot alone when the state does not record the bank's cash).
BANK_FREE_KINDS = frozenset({"pay_rent", "rent", "trade", "accept_trade", "propose_trade"})
_NONE = object()        # (an action without a player: not the same as one with player None)


class StateCheck:
    """A state invariant as the run checks it: the slices it reads, its generated function (None: the
    reference decides) and its conjuncts as ``(reads, full, local, shared)`` (None: not split)."""

    def __init__(self, index: int, reads: frozenset, pred: Optional[Callable], parts: Optional[list]):
        self.index = index
        self.reads = reads
        self.pred = pred
        self.parts = parts


class Incremental:
    """The state of a run's checks: which state invariants held on the last state, and that state.

    ``reference_state(k, after)``: the violations of state invariant ``k`` on ``after`` (the reference's);
    ``reference_step(k, before, after, action)``: of step invariant ``k`` (-1: all of them);
    ``action_record(action, before, after)``: the ``action`` the step invariants read."""

    def __init__(self, states: list, steps: list, squares: frozenset, streets: frozenset, group_at: dict,
                 reference_state: Callable, reference_step: Callable, action_record: Callable):
        self.states: list[StateCheck] = states
        self.steps: list[Optional[Callable]] = steps
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
        """The deeds, streets and colour groups with a square whose deed columns differ between the two."""
        squares: set[int] = set()
        for name in DEED_COLUMNS:
            if name in changed:
                squares.update(compress(range(40), map(ne, after[name], last[name])))
        deeds = sorted(squares & self.squares)
        return (deeds, [sq for sq in deeds if sq in self.streets],
                sorted({self.group_at[sq] for sq in deeds if sq in self.group_at}))

    def check(self, before: Optional[dict], after: dict, action: Any, changed: Optional[frozenset]) -> list:
        """The violations of ``after`` and of the step ``before -> after`` (``before`` None: a first state);
        ``changed``: the slices that differ from the last state's (None: unknown, all of them)."""
        last = self.last
        if last is None:
            changed = None
        self.last = after
        fast = self.readable(after)
        out: list = []
        if changed is None or len(changed) > 0 or len(self.held) != len(self.states):
            out = self.check_states(last, after, changed, fast)
        else:                                   # nothing changed and everything held: nothing is due
            self.skipped += len(self.held)
        if before is None or not self.steps:
            return out
        act = self.action(action, before, after)
        if fast and (before is after or self.readable(before) and len(before["seats"]) == len(after["seats"])):
            bc = after["bank_cash"]
            obc = before["bank_cash"]
            if bc is None or obc is None:      # the bank is the counterparty (as the reference says)
                obc = 0
                bc = 0 if act.kind in BANK_FREE_KINDS else (
                    sum(before["cash"]) + before["pot"] + before["jackpot"]
                    - sum(after["cash"]) - after["pot"] - after["jackpot"])
            for k, pred in enumerate(self.steps):
                if pred is None or not pred(after, before, act, bc, obc):
                    out.extend(self.reference_step(k, before, after, action))
        else:
            out.extend(self.reference_step(-1, before, after, action))
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
                    for reads, full, local, shared in parts:
                        if reads.isdisjoint(changed):
                            continue
                        if local is not None and shared.isdisjoint(changed):
                            if d is None:
                                d = self.changed_deeds(last, after, changed)
                            ok = local(after, bc, d)
                        else:
                            ok = full(after, bc, d)
                        if not ok:
                            break
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


__all__ = ["Incremental", "StateCheck", "BANK_FREE_KINDS", "DEED_COLUMNS"]
