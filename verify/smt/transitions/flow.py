"""What happens between turns: an unlifted mortgage forfeited at a new round and auctioned
(``verify.engine.rules.flow`` ``new_round``)."""

from __future__ import annotations

import z3

from ...invariants import NOBODY
from ..model import Model
from ..state import SymState
from .common import Args, active, add_cash, all_, bank_gets, deed_ok, ite, per_deed, pf, pick, seat_ok, set_prop
from .registry import transition

#: the engine action that ends a turn (a new round begins when the last player's turn ends; the turn timer's
#: ending of one is outside the model: ``NOT_MODELLED``)
TURN_ENDING = ("end_turn",)


@transition("mortgage_expired", "an unlifted mortgage is forfeited and auctioned", TURN_ENDING,
            step="mortgage_expired",
            disabled=lambda m: None if m.expiry_rounds is not None else "mortgages never expire",
            aliases=("mortgage-expiry",))
def mortgage_expired(m: Model, s: SymState, x: Args):
    """An unlifted mortgage is forfeited and auctioned: ``a`` wins for ``amt``, or (f1) nobody bids."""
    mc = m.config.mortgage
    owner = pick(x.sq, [p.owner for p in s.props])
    opening = pick(x.sq, per_deed(m, "price")) if mc.expiry_auction_opening is None \
        else mc.expiry_auction_opening
    guard = [*deed_ok(x), owner >= 0, pick(x.sq, [p.mortgaged for p in s.props]),
             pick(x.sq, [p.mrounds for p in s.props]) >= (mc.expiry_rounds or 0)]
    won = z3.And(seat_ok(m, x.a), active(s, x.a), x.amt >= opening, pf(s, x.a, "cash") >= x.amt)
    if not mc.expiry_auction_owner_bids:
        won = z3.And(won, x.a != owner)
    guard.append(z3.Or(x.f1, won))
    winner = ite(x.f1, NOBODY, x.a)
    paid = ite(x.f1, 0, x.amt)
    after = set_prop(s, x.sq, owner=winner, mortgaged=False, mrounds=0)
    after = bank_gets(add_cash(after, winner, -paid), paid)
    return all_(guard), after
