"""The SMT model as an oracle on concrete states: is this action allowed, and what must follow?

The differential tests (and a conformance harness) give a concrete canonical
state and an engine action; the oracle evaluates the same guard and effect
formulas that ``verify check`` proves things about, with every variable
replaced by its value, and answers (allowed, expected successor).
"""

from __future__ import annotations

from typing import Any

import z3

from ..errors import GameError
from ..invariants import NOBODY
from .actions import BY_NAME, Args
from .model import Model
from .state import SymPlayer, SymProp, SymState

#: engine action type -> SMT action (the engine's own names; see verify/engine/step.py)
ENGINE_ACTIONS = {
    "build_house": "build-house", "build_hotel": "build-hotel", "sell_house": "sell-house",
    "sell_hotel": "break-down-hotel", "sell_group": "sell-group", "mortgage": "mortgage",
    "unmortgage": "unmortgage", "trade": "trade", "surrender": "surrender",
}


def sym_from_state(m: Model, state: dict) -> SymState:
    """A SymState whose fields are the constants of a canonical state."""
    props_by_sq = {int(p["square"]): p for p in state["properties"]}
    players = []
    for i, p in enumerate(state["players"]):
        cards = list(p.get("jail_cards") or [])
        team = p.get("team")
        players.append(SymPlayer(seat=int(p.get("seat", i)), team=m.team_of(i) if team is None else int(team), cash=z3.IntVal(int(p["cash"])),
                                 in_jail=z3.BoolVal(bool(p.get("in_jail"))),
                                 bankrupt=z3.BoolVal(bool(p.get("bankrupt"))),
                                 chance=z3.BoolVal("chance" in cards), chest=z3.BoolVal("chest" in cards)))
    props = []
    for i, d in enumerate(m.deeds):
        raw = props_by_sq[d.square]
        owner = NOBODY if raw.get("owner") is None else int(raw["owner"])
        props.append(SymProp(index=i, square=d.square, kind=d.kind, group=m.group_name(i), owner=z3.IntVal(owner),
                             mortgaged=z3.BoolVal(bool(raw.get("mortgaged"))),
                             houses=z3.IntVal(int(raw.get("houses") or 0)),
                             hotels=z3.IntVal(1 if raw.get("hotel") else 0),
                             mrounds=z3.IntVal(int(raw.get("mortgage_rounds") or 0))))
    bank = state.get("bank") or {}
    opt = lambda v, limited: z3.IntVal(int(v)) if limited and v is not None else None  # noqa: E731
    return SymState(players=tuple(players), props=tuple(props),
                    bank_houses=opt(bank.get("houses"), m.house_supply is not None),
                    bank_hotels=opt(bank.get("hotels"), m.hotel_supply is not None),
                    bank_cash=z3.IntVal(int(bank.get("cash") or 0)), pot=z3.IntVal(int(state.get("pot") or 0)),
                    jackpot=z3.IntVal(int(state.get("jackpot") or 0)))


def _val(x: Any) -> Any:
    if x is None or isinstance(x, (bool, int)):
        return x
    v = z3.simplify(x)
    if z3.is_int_value(v):
        return v.as_long()
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    raise GameError(f"the SMT oracle could not evaluate {v} on a concrete state")


def snapshot(s: SymState) -> dict:
    """The modelled fields of a (concrete) SymState, as plain values."""
    return {
        "cash": [_val(p.cash) for p in s.players],
        "bankrupt": [_val(p.bankrupt) for p in s.players],
        "cards": [sorted((["chance"] if _val(p.chance) else []) + (["chest"] if _val(p.chest) else []))
                  for p in s.players],
        "owner": {p.square: _val(p.owner) for p in s.props},
        "mortgaged": {p.square: _val(p.mortgaged) for p in s.props},
        "houses": {p.square: _val(p.houses) for p in s.props},
        "hotel": {p.square: _val(p.hotels) > 0 for p in s.props},
        "bank": [_val(s.bank_houses), _val(s.bank_hotels), _val(s.bank_cash)],
        "pot": _val(s.pot),
    }


def state_snapshot(m: Model, state: dict) -> dict:
    """The same modelled fields read from a canonical state (e.g. the engine's successor)."""
    return snapshot(sym_from_state(m, state))


def _args(m: Model, name: str, action: dict, state: dict | None = None) -> Args:
    seat = int(action.get("seat", 0))
    sq = 0
    index = {d.square: i for i, d in enumerate(m.deeds)}
    zero = dict(a=seat, b=(seat + 1) % m.players, sq=0, sq2=0, amt=0, dice=0,
                f1=False, f2=False, f3=False, f4=False, f5=False, f6=False)
    if name == "sell-group":
        squares = m.config.board.groups[int(action["group"])].squares
        zero["sq"] = index[squares[0]]
        return Args(**zero)
    if name == "trade":
        give, take = action.get("give") or {}, action.get("take") or {}
        gs, ts = list(give.get("squares") or []), list(take.get("squares") or [])
        if len(gs) > 1 or len(ts) > 1:
            raise GameError("the SMT trade moves at most one deed each way")
        gc, tc = list(give.get("cards") or []), list(take.get("cards") or [])
        zero.update(b=int(action["with"]), f1=bool(gs), f2=bool(ts), sq=index[gs[0]] if gs else 0,
                    sq2=index[ts[0]] if ts else 0, amt=int(give.get("cash") or 0) - int(take.get("cash") or 0),
                    f3="chance" in gc, f4="chest" in gc, f5="chance" in tc, f6="chest" in tc)
        return Args(**zero)
    if "square" in action:
        sq = int(action["square"])
        if sq not in index:
            raise GameError(f"square {sq} is not a deed")
        zero["sq"] = index[sq]
        if name == "unmortgage":     # f1: received just now, so lifted at once (mortgage.transfer_lift_at_once)
            received = ((state or {}).get("turn") or {}).get("received") or []
            zero["f1"] = [sq, seat] in [list(r) for r in received]
    return Args(**zero)


def judge(m: Model, state: dict, action: dict) -> tuple[bool, dict | None]:
    """(allowed by the SMT guard, the successor's modelled fields) for an engine action."""
    if action.get("type") == "bankrupt":
        return _judge_bankrupt(m, state, action)
    name = ENGINE_ACTIONS.get(action.get("type", ""))
    if name is None:
        raise GameError(f"the SMT model has no transition for {action.get('type')!r}")
    if BY_NAME[name].disabled(m):
        return False, None
    s = sym_from_state(m, state)
    guard, after = BY_NAME[name].build(m, s, _args(m, name, action, state))
    allowed = _val(guard)
    return bool(allowed), (snapshot(after) if allowed else None)


def _judge_bankrupt(m: Model, state: dict, action: dict) -> tuple[bool, dict | None]:
    """``bankrupt`` settles the open debt (``pending``): to a player or to the bank."""
    pend = state.get("pending") or {}
    seat = int(action.get("seat", pend.get("debtor", 0)))
    if state.get("phase") != "debt" or pend.get("debtor") != seat:
        return False, None
    creditor = int(pend.get("creditor", NOBODY))
    name = "bankrupt-to-player" if creditor >= 0 else "bankrupt-to-bank"
    args = Args(a=seat, b=creditor if creditor >= 0 else (seat + 1) % m.players, sq=0, sq2=0,
                amt=int(pend["amount"]), dice=0, f1=False, f2=False, f3=False, f4=False, f5=False, f6=False)
    guard, after = BY_NAME[name].build(m, sym_from_state(m, state), args)
    allowed = bool(_val(guard))
    return allowed, (snapshot(after) if allowed else None)
