"""The SMT model as an oracle on concrete states: does a transition allow this, and what must follow?

The differential tests (and a conformance harness) give a concrete canonical state and
a transition's arguments (or an engine action, read into them); the oracle evaluates the
same guard and effect formulas that ``verify check`` proves things about, on the state's
values, and answers whether the guard allows it and which successor it gives. Arguments
left out (and a transition's own unknowns, such as the share the late-game rent tax takes)
are for z3 to choose: the guard is then satisfiable or not, and ``agrees`` asks whether
some choice gives exactly the successor the engine played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

from ..errors import GameError
from ..invariants import NOBODY
from . import terms as T
from .model import Model
from .state import SymPlayer, SymProp, SymState
from .transitions import ARG_FIELDS, BY_NAME, Args, Transition, modelling


def sym_from_state(m: Model, state: dict) -> SymState:
    """A SymState whose fields are the constants of a canonical state."""
    props_by_sq = {int(p["square"]): p for p in state["properties"]}
    players = []
    for i, p in enumerate(state["players"]):
        cards = list(p.get("jail_cards") or [])
        team = p.get("team")
        players.append(SymPlayer(seat=int(p.get("seat", i)), team=m.team_of(i) if team is None else int(team),
                                 cash=T.int_val(int(p["cash"])), in_jail=T.bool_val(bool(p.get("in_jail"))),
                                 bankrupt=T.bool_val(bool(p.get("bankrupt"))),
                                 chance=T.bool_val("chance" in cards), chest=T.bool_val("chest" in cards)))
    props = []
    for i, d in enumerate(m.deeds):
        raw = props_by_sq[d.square]
        owner = NOBODY if raw.get("owner") is None else int(raw["owner"])
        props.append(SymProp(index=i, square=d.square, kind=d.kind, group=m.group_name(i), owner=T.int_val(owner),
                             mortgaged=T.bool_val(bool(raw.get("mortgaged"))),
                             houses=T.int_val(int(raw.get("houses") or 0)),
                             hotels=T.int_val(1 if raw.get("hotel") else 0),
                             mrounds=T.int_val(int(raw.get("mortgage_rounds") or 0))))
    bank = state.get("bank") or {}
    opt = lambda v, limited: T.int_val(int(v)) if limited and v is not None else None  # noqa: E731
    return SymState(players=tuple(players), props=tuple(props),
                    bank_houses=opt(bank.get("houses"), m.house_supply is not None),
                    bank_hotels=opt(bank.get("hotels"), m.hotel_supply is not None),
                    bank_cash=T.int_val(int(bank.get("cash") or 0)), pot=T.int_val(int(state.get("pot") or 0)),
                    jackpot=T.int_val(int(state.get("jackpot") or 0)))


def _observed(s: SymState) -> dict[str, Any]:
    """The modelled fields of a state as z3 terms (or None: an unlimited supply), by snapshot key."""
    out: dict[str, Any] = {}
    for p in s.players:
        out[f"cash/{p.seat}"] = p.cash
        out[f"bankrupt/{p.seat}"] = p.bankrupt
        out[f"chance/{p.seat}"] = p.chance
        out[f"chest/{p.seat}"] = p.chest
    for p in s.props:
        out[f"owner/{p.square}"] = p.owner
        out[f"mortgaged/{p.square}"] = p.mortgaged
        out[f"houses/{p.square}"] = p.houses
        out[f"hotel/{p.square}"] = p.hotels >= 1
    out.update({"bank/houses": s.bank_houses, "bank/hotels": s.bank_hotels, "bank/cash": s.bank_cash,
                "pot": s.pot, "jackpot": s.jackpot})
    return out


def _value(x: Any, model: z3.ModelRef | None = None) -> Any:
    if x is None or isinstance(x, (bool, int)):
        return x
    v = model.eval(x, model_completion=True) if model is not None else z3.simplify(x)
    if z3.is_int_value(v):
        return v.as_long()
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    raise GameError(f"the SMT oracle could not evaluate {v} on a concrete state")


def _val(x: Any) -> Any:
    """A term of a concrete state as a Python value (GameError when it is not constant)."""
    return _value(x)


def _flat(s: SymState, model: z3.ModelRef | None = None) -> dict[str, Any]:
    return {k: _value(v, model) for k, v in _observed(s).items()}


def snapshot(s: SymState, model: z3.ModelRef | None = None) -> dict:
    """The modelled fields of a (concrete, or read in ``model``) SymState, as plain values."""
    f = _flat(s, model)
    return {
        "cash": [f[f"cash/{p.seat}"] for p in s.players],
        "bankrupt": [f[f"bankrupt/{p.seat}"] for p in s.players],
        "cards": [sorted((["chance"] if f[f"chance/{p.seat}"] else []) + (["chest"] if f[f"chest/{p.seat}"] else []))
                  for p in s.players],
        "owner": {p.square: f[f"owner/{p.square}"] for p in s.props},
        "mortgaged": {p.square: f[f"mortgaged/{p.square}"] for p in s.props},
        "houses": {p.square: f[f"houses/{p.square}"] for p in s.props},
        "hotel": {p.square: f[f"hotel/{p.square}"] for p in s.props},
        "bank": [f["bank/houses"], f["bank/hotels"], f["bank/cash"]],
        "pot": f["pot"],
        "jackpot": f["jackpot"],
    }


def state_snapshot(m: Model, state: dict) -> dict:
    """The same modelled fields read from a canonical state (e.g. the engine's successor)."""
    return snapshot(sym_from_state(m, state))


# ---------------------------------------------------------------------------- a transition on a state
@dataclass(frozen=True)
class Judgement:
    """The SMT model's answer on a concrete state: ``allowed`` (some choice of the free arguments satisfies
    the guard), a successor it gives (``after``, a snapshot), and the chosen arguments."""

    allowed: bool
    after: dict | None
    args: dict


def _args(name: str, given: dict) -> Args:
    return Args(**{f: given[f] if f in given else (z3.Bool(f"free.{f}") if f.startswith("f")
                                                    else z3.Int(f"free.{f}")) for f in ARG_FIELDS})


class Case:
    """Transition ``tr`` on ``state`` with the arguments in ``args`` (``Args`` fields; the others free),
    built once and asked several questions."""

    def __init__(self, m: Model, tr: Transition | str, state: dict, args: dict):
        self.m, self.tr, self.args = m, BY_NAME[tr] if isinstance(tr, str) else tr, dict(args)
        self.off = bool(self.tr.disabled(m))
        if not self.off:
            self.x = _args(self.tr.name, args)
            guard, self.after = self.tr.build(m, sym_from_state(m, state), self.x)
            self.guard = z3.simplify(guard) if not isinstance(guard, bool) else z3.BoolVal(guard)
            self.terms = _observed(self.after)
        self._solver: z3.Solver | None = None

    def _chosen(self, model) -> dict:
        return {f: _value(getattr(self.x, f), model) for f in ARG_FIELDS}

    def judge(self) -> Judgement:
        """Whether the guard allows it (for some choice of the free arguments), and a successor it gives."""
        if self.off or z3.is_false(self.guard):
            return Judgement(False, None, self.args)
        if z3.is_true(self.guard):
            try:
                return Judgement(True, snapshot(self.after), self.args)
            except GameError:
                pass                      # the successor rests on a free argument: ask z3 for one
        solver = self.solver()
        res = solver.check()
        if res == z3.unsat:
            return Judgement(False, None, self.args)
        if res != z3.sat:
            raise GameError(f"the SMT oracle could not decide {self.tr.name}: {solver.reason_unknown()}")
        return Judgement(True, snapshot(self.after, solver.model()), self._chosen(solver.model()))

    def solver(self) -> z3.Solver:
        if self._solver is None:
            self._solver = z3.Solver()
            self._solver.set("timeout", 30_000)
            self._solver.add(self.guard)
        return self._solver

    def successor(self, expected: dict, same: bool = True) -> Judgement | None:
        """With ``same``: a choice of the free arguments whose successor has exactly the modelled fields of
        canonical state ``expected`` (None: there is none). Without: one whose successor differs from it
        (None: ``expected``'s is the only successor)."""
        if self.off:
            return None
        want = plain_state(self.m, expected)
        equal = [term == want[key] for key, term in self.terms.items()
                 if term is not None and want.get(key) is not None]
        solver = self.solver()
        solver.push()
        try:
            solver.add(z3.And(equal) if same else z3.Not(z3.And(equal)))
            if solver.check() != z3.sat:
                return None
            model = solver.model()
            return Judgement(True, snapshot(self.after, model), self._chosen(model))
        finally:
            solver.pop()


def plain_state(m: Model, state: dict) -> dict[str, Any]:
    """The modelled fields of a canonical state by snapshot key (``_observed``), read without z3."""
    out: dict[str, Any] = {}
    for i, p in enumerate(state["players"]):
        seat, cards = int(p.get("seat", i)), list(p.get("jail_cards") or [])
        out.update({f"cash/{seat}": int(p["cash"]), f"bankrupt/{seat}": bool(p.get("bankrupt")),
                    f"chance/{seat}": "chance" in cards, f"chest/{seat}": "chest" in cards})
    for p in state["properties"]:
        sq = int(p["square"])
        out.update({f"owner/{sq}": NOBODY if p.get("owner") is None else int(p["owner"]),
                    f"mortgaged/{sq}": bool(p.get("mortgaged")), f"houses/{sq}": int(p.get("houses") or 0),
                    f"hotel/{sq}": bool(p.get("hotel"))})
    bank = state.get("bank") or {}
    out.update({"bank/houses": bank.get("houses") if m.house_supply is not None else None,
                "bank/hotels": bank.get("hotels") if m.hotel_supply is not None else None,
                "bank/cash": int(bank.get("cash") or 0), "pot": int(state.get("pot") or 0),
                "jackpot": int(state.get("jackpot") or 0)})
    return out


def evaluate(m: Model, tr: Transition | str, state: dict, args: dict) -> Judgement:
    """Transition ``tr`` on ``state`` with the arguments in ``args`` (``Args`` fields; the others free)."""
    return Case(m, tr, state, args).judge()


def agrees(m: Model, tr: Transition | str, state: dict, args: dict, expected: dict) -> Judgement | None:
    """Whether transition ``tr`` allows a successor with exactly the modelled fields of canonical state
    ``expected``: the judgement that gives it, or None (no choice of the free arguments does)."""
    return Case(m, tr, state, args).successor(expected, same=True)


def another(m: Model, tr: Transition | str, state: dict, args: dict, expected: dict) -> Judgement | None:
    """A successor that transition ``tr`` allows on ``state`` besides ``expected``'s modelled fields (some
    choice of the free arguments gives a different one), or None: ``expected`` is the only one."""
    return Case(m, tr, state, args).successor(expected, same=False)


# ---------------------------------------------------------------------------- an engine action
def transition_for(state: dict, action: dict) -> Transition:
    """The transition that models the engine action ``action`` whole (``bankrupt``: to a player or to the
    bank, as the open debt says); GameError when the model has none."""
    kind = action.get("type", "")
    if kind == "bankrupt":
        creditor = int(((state.get("pending") or {}).get("creditor", NOBODY)))
        return BY_NAME["bankrupt_to_player" if creditor >= 0 else "bankrupt_to_bank"]
    whole = [t for t in modelling(kind) if t.step is None]
    if len(whole) != 1:
        raise GameError(f"the SMT model has no transition for {kind!r}")
    return whole[0]


def args_for(m: Model, state: dict, action: dict) -> dict:
    """The transition arguments an engine action stands for, on ``state`` (every field given)."""
    seat = int(action.get("seat", 0))
    index = {d.square: i for i, d in enumerate(m.deeds)}
    out = dict(a=seat, b=(seat + 1) % m.players, sq=0, sq2=0, amt=0, dice=0,
               f1=False, f2=False, f3=False, f4=False, f5=False, f6=False)
    kind = action.get("type")
    if kind == "bankrupt":
        pend = state.get("pending") or {}
        creditor = int(pend.get("creditor", NOBODY))
        out.update(a=int(action.get("seat", pend.get("debtor", 0))), amt=int(pend.get("amount", 0)))
        if creditor >= 0:
            out["b"] = creditor
        return out
    if kind == "sell_group":
        out["sq"] = index[m.config.board.groups[int(action["group"])].squares[0]]
        return out
    if kind == "trade":
        give, take = action.get("give") or {}, action.get("take") or {}
        gs, ts = list(give.get("squares") or []), list(take.get("squares") or [])
        if len(gs) > 1 or len(ts) > 1:
            raise GameError("the SMT trade moves at most one deed each way")
        gc, tc = list(give.get("cards") or []), list(take.get("cards") or [])
        out.update(b=int(action["with"]), f1=bool(gs), f2=bool(ts), sq=index[gs[0]] if gs else 0,
                   sq2=index[ts[0]] if ts else 0, amt=int(give.get("cash") or 0) - int(take.get("cash") or 0),
                   f3="chance" in gc, f4="chest" in gc, f5="chance" in tc, f6="chest" in tc)
        return out
    if "square" in action:
        sq = int(action["square"])
        if sq not in index:
            raise GameError(f"square {sq} is not a deed")
        out["sq"] = index[sq]
        if kind == "unmortgage":     # f1: received just now, so lifted at once (mortgage.transfer_lift_at_once)
            received = (state.get("turn") or {}).get("received") or []
            out["f1"] = [sq, seat] in [list(r) for r in received]
    return out


def judge(m: Model, state: dict, action: dict) -> tuple[bool, dict | None]:
    """(allowed by the SMT guard, the successor's modelled fields) for an engine action."""
    if action.get("type") == "bankrupt":
        pend = state.get("pending") or {}
        if state.get("phase") != "debt" or pend.get("debtor") != int(action.get("seat", pend.get("debtor", 0))):
            return False, None
    tr = transition_for(state, action)
    j = evaluate(m, tr, state, args_for(m, state, action))
    return j.allowed, j.after


__all__ = ["sym_from_state", "snapshot", "state_snapshot", "plain_state", "Judgement", "Case", "evaluate", "agrees",
           "another", "transition_for",
           "args_for", "judge"]
