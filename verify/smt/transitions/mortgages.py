"""Mortgages: taking one, lifting one, the owner's own auction of a mortgaged deed
(``verify.engine.rules.mortgages``)."""

from __future__ import annotations

import z3

from ...invariants import NOBODY
from ..model import Model
from ..state import SymState
from .common import (DEEDS, Args, active, add_cash, all_, any_, bank_gets, deed_ok, ite, may_manage, no_buildings,
                     per_deed, pf, pick, seat_ok, set_prop)
from .building import deed_example
from .plays import at_rest, auction, deeds_of, index_of, prop, random_state
from .registry import Example, transition


@transition("mortgage", "mortgage a deed", "mortgage")
def mortgage(m: Model, s: SymState, x: Args):
    mc = m.config.mortgage

    def ok(i):
        p = s.props[i]
        c = [p.owner == x.a, z3.Not(p.mortgaged), no_buildings(p)]
        if mc.requires_no_buildings_in_group and p.kind == "street":
            c.append(all_([no_buildings(s.props[t]) for t in m.group_members(i)]))
        return c

    value = pick(x.sq, per_deed(m, "mortgage_value"))
    guard = [seat_ok(m, x.a), active(s, x.a), may_manage(m, s, x.a),
             any_([z3.And(x.sq == i, all_(ok(i))) for i in range(DEEDS)])]
    after = set_prop(s, x.sq, mortgaged=True, mrounds=0)
    after = bank_gets(add_cash(after, x.a, value), -value)
    return all_(guard), after


@transition("unmortgage", "lift a mortgage (value plus interest)", "unmortgage")
def unmortgage(m: Model, s: SymState, x: Args):
    """Lift a mortgage: value plus interest; f1: the deed was just received (its transfer interest paid)
    and is lifted at once, which costs the principal alone where mortgage.transfer_lift_at_once says so
    (the state does not record receipts, so f1 is free: any mortgaged deed may be one)."""
    t = m.tables
    cost = pick(x.sq, [t.mortgage_value[d.square] + t.interest[d.square] for d in m.deeds])
    if t.lift_at_once:
        cost = ite(x.f1, pick(x.sq, per_deed(m, "mortgage_value")), cost)
    guard = [seat_ok(m, x.a), active(s, x.a), may_manage(m, s, x.a), *deed_ok(x),
             pick(x.sq, [p.owner for p in s.props]) == x.a, pick(x.sq, [p.mortgaged for p in s.props]),
             pf(s, x.a, "cash") >= cost]
    after = set_prop(s, x.sq, mortgaged=False, mrounds=0)
    after = bank_gets(add_cash(after, x.a, -cost), cost)
    return all_(guard), after


@transition("auction_mortgaged", "an owner auctions a mortgaged deed at once", "auction_mortgaged",
            disabled=lambda m: None if m.config.mortgage.immediate_auction
            else "mortgaged deeds are not auctioned at once", aliases=("auction-mortgaged",))
def auction_mortgaged(m: Model, s: SymState, x: Args):
    """An owner ``a`` auctions a mortgaged deed at once: the winner ``b`` (``a`` too where the owner bids)
    pays ``amt``, at least the opening (mortgage value, printed price or an amount), and owns it unmortgaged;
    the bank takes back its loan and the owner gets the rest, or the bank takes it all
    (mortgage.immediate_auction_proceeds). f1: nobody bids: the deed stays the owner's, still mortgaged,
    or the bank's, unowned."""
    mc = m.config.mortgage
    value = pick(x.sq, per_deed(m, "mortgage_value"))
    opening = {"mortgage_value": value, "printed_price": pick(x.sq, per_deed(m, "price"))}.get(
        mc.immediate_auction_opening, mc.immediate_auction_opening_amount)
    to_owner = mc.immediate_auction_proceeds == "owner_after_loan"
    guard = [seat_ok(m, x.a), active(s, x.a), may_manage(m, s, x.a), *deed_ok(x),
             pick(x.sq, [p.owner for p in s.props]) == x.a, pick(x.sq, [p.mortgaged for p in s.props])]
    won = z3.And(z3.Not(x.f1), seat_ok(m, x.b), active(s, x.b), x.amt >= opening, x.amt >= 1,
                 pf(s, x.b, "cash") >= x.amt)
    if not mc.immediate_auction_owner_bids:
        won = z3.And(won, x.b != x.a)
    guard.append(z3.Or(x.f1, won))
    unsold_owner = x.a if to_owner else NOBODY
    after = set_prop(s, x.sq, owner=ite(x.f1, unsold_owner, x.b), mortgaged=z3.And(x.f1, to_owner), mrounds=0)
    paid = ite(x.f1, 0, x.amt)
    keep = ite(x.f1, 0, ite(x.amt < value, x.amt, value)) if to_owner else paid
    after = add_cash(after, x.b, -paid)
    after = add_cash(after, x.a, paid - keep)
    after = bank_gets(after, keep)
    return all_(guard), after


for _tr in (mortgage, unmortgage):
    _tr.examples(deed_example(_tr.name))


@auction_mortgaged.examples
def _auction_mortgaged_example(cfg, base, rnd):
    """An owner puts a mortgaged deed up for auction: a bidder bids once (or nobody does)."""
    s = random_state(cfg, base, rnd)
    held = [q for q in deeds_of(cfg) if prop(s, q)["owner"] is not None and prop(s, q)["mortgaged"]]
    if not held:
        return None
    sq = rnd.choice(held)
    a = prop(s, sq)["owner"] if rnd.random() < 0.9 else rnd.randrange(len(s["players"]))
    at_rest(s, a)
    mc, d = cfg.mortgage, cfg.board.deeds[index_of(cfg, sq)]
    opening = {"mortgage_value": d.mortgage, "printed_price": d.price}.get(mc.immediate_auction_opening,
                                                                           mc.immediate_auction_opening_amount)
    w = rnd.choice([None] + list(range(len(s["players"]))))
    low = max(opening, 1)
    amount = rnd.choice([low, low + 10 * cfg.setup.scale, low - 1, s["players"][w]["cash"] if w is not None else 0])
    return Example(s, ({"type": "auction_mortgaged", "seat": a, "square": sq}, auction(w, amount)),
                   dict(a=a, b=w if w is not None else (a + 1) % len(s["players"]), sq=index_of(cfg, sq), amt=amount,
                        f1=w is None))
