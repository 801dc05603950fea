"""What happens between turns: an unlifted mortgage forfeited at a new round and auctioned
(``verify.engine.rules.flow`` ``new_round``)."""

from __future__ import annotations

import z3

from ...invariants import NOBODY
from ..model import Model
from ..state import SymState
from .common import Args, active, add_cash, all_, bank_gets, deed_ok, ite, per_deed, pf, pick, seat_ok, set_prop
from .auctions import prop_price
from .plays import at_rest, auction, deeds_of, index_of, prop, random_state
from .registry import Example, transition

#: the engine action that ends a turn (a new round begins when the last player's turn ends; the turn timer's
#: ending of one is outside the model: ``NOT_MODELLED``)
TURN_ENDING = ("end_turn",)


@transition("mortgage_expired", "an unlifted mortgage is forfeited and auctioned", TURN_ENDING,
            step="mortgage_expired",
            disabled=lambda m: None if m.expiry_rounds is not None else "mortgages never expire",
            aliases=("mortgage-expiry",))
def mortgage_expired(m: Model, s: SymState, x: Args):
    """A new round begins, in which the mortgage on ``sq`` reaches mortgage.expiry_rounds (the rounds it had
    run, and this one): it is forfeited and auctioned: ``a`` wins for ``amt``, or (f1) nobody bids."""
    mc = m.config.mortgage
    owner = pick(x.sq, [p.owner for p in s.props])
    opening = pick(x.sq, per_deed(m, "price")) if mc.expiry_auction_opening is None \
        else mc.expiry_auction_opening
    guard = [*deed_ok(x), owner >= 0, pick(x.sq, [p.mortgaged for p in s.props]),
             pick(x.sq, [p.mrounds for p in s.props]) + 1 >= (mc.expiry_rounds or 0)]
    won = z3.And(seat_ok(m, x.a), active(s, x.a), x.amt >= opening, pf(s, x.a, "cash") >= x.amt)
    if not mc.expiry_auction_owner_bids:
        won = z3.And(won, x.a != owner)
    guard.append(z3.Or(x.f1, won))
    winner = ite(x.f1, NOBODY, x.a)
    paid = ite(x.f1, 0, x.amt)
    after = set_prop(s, x.sq, owner=winner, mortgaged=False, mrounds=0)
    after = bank_gets(add_cash(after, winner, -paid), paid)
    return all_(guard), after


@mortgage_expired.examples
def _mortgage_expired_example(cfg, base, rnd):
    """The last player ends the turn; a new round begins, in which one mortgage reaches its limit and is
    auctioned: a bidder bids once (or nobody does)."""
    s = random_state(cfg, base, rnd)
    held = [q for q in deeds_of(cfg) if prop(s, q)["owner"] is not None and prop(s, q)["mortgaged"]]
    if not held:
        return None
    limit = cfg.mortgage.expiry_rounds
    sq = rnd.choice(held)
    for q in held:
        prop(s, q)["mortgage_rounds"] = rnd.randrange(max(limit - 1, 1)) if q != sq else limit - 1
    n = len(s["players"])
    last = n - 1
    at_rest(s, last)
    s["phase"] = "post_roll"
    s["turn"].update(rolled=True, stage="post")
    s["round"] = 0
    w = rnd.choice([None] + list(range(n)))
    opening = prop_price(cfg, sq) if cfg.mortgage.expiry_auction_opening is None else cfg.mortgage.expiry_auction_opening
    amount = rnd.choice([max(opening, 1), max(opening, 1) + 10 * cfg.setup.scale, opening - 1,
                         s["players"][w]["cash"] if w is not None else 0])
    return Example(s, ({"type": "end_turn", "seat": last}, auction(w, amount)),
                   dict(a=w if w is not None else 0, sq=index_of(cfg, sq), amt=amount, f1=w is None),
                   event=("mortgage_expired", {"square": sq}))
