"""Buying and auctions: the deed landed on bought at its price, an auction won (``verify.engine.rules.auctions``)."""

from __future__ import annotations

from ...invariants import NOBODY
from ..model import Model
from ..state import SymState
from .common import Args, active, add_cash, all_, bank_gets, deed_ok, per_deed, pf, pick, seat_ok, set_prop
from .plays import auction, deeds_of, index_of, prop, roll_onto, someone
from .registry import Example, transition


@transition("buy", "buy the unowned deed landed on at its printed price", "buy")
def buy(m: Model, s: SymState, x: Args):
    price = pick(x.sq, per_deed(m, "price"))
    guard = [seat_ok(m, x.a), *deed_ok(x), active(s, x.a),
             pick(x.sq, [p.owner for p in s.props]) == NOBODY, pf(s, x.a, "cash") >= price]
    after = set_prop(s, x.sq, owner=x.a)
    after = bank_gets(add_cash(after, x.a, -price), price)
    return all_(guard), after


def _auctions(m: Model) -> str | None:
    c = m.config
    if c.purchase.on_decline == "auction" or c.debt.to_player_properties == "bank_auction" \
            or c.debt.to_bank_properties == "auction":
        return None
    return "no rule starts an auction"


@transition("auction_won", "an auction ends: the winner pays the bank its bid", ("bid", "pass"),
            step="auction_won", disabled=_auctions, aliases=("auction-settle",))
def auction_won(m: Model, s: SymState, x: Args):
    """``a`` wins the auction of unowned deed ``sq`` for ``amt``; ``b`` declined to buy it."""
    pc = m.config.purchase
    opening = pick(x.sq, per_deed(m, "price")) if pc.opening == "printed_price" else pc.opening_amount
    guard = [seat_ok(m, x.a), *deed_ok(x), active(s, x.a),
             pick(x.sq, [p.owner for p in s.props]) == NOBODY,
             x.amt >= opening, pf(s, x.a, "cash") >= x.amt, seat_ok(m, x.b)]
    if pc.auction_bidders == "others_only":
        guard.append(x.a != x.b)          # b declined to buy and may not bid
    after = set_prop(s, x.sq, owner=x.a)
    after = bank_gets(add_cash(after, x.a, -x.amt), x.amt)
    return all_(guard), after


def _landing_on_unowned(cfg, base, rnd):
    """A state, a seat and the roll that lands it on an unowned deed (None: no such roll)."""
    s, a = someone(cfg, base, rnd)
    free = [q for q in deeds_of(cfg) if prop(s, q)["owner"] is None]
    if not free:
        return None
    sq = rnd.choice(free)
    roll = roll_onto(cfg, s, a, sq, rnd)
    return None if roll is None else (s, a, sq, roll)


@buy.examples
def _buy_example(cfg, base, rnd):
    found = _landing_on_unowned(cfg, base, rnd)
    if found is None:
        return None
    s, a, sq, roll = found
    return Example(s, (roll, {"type": "buy", "seat": a}), dict(a=a, sq=index_of(cfg, sq)))


@auction_won.examples
def _auction_won_example(cfg, base, rnd):
    """The deed landed on is declined and auctioned: a bidder bids once (at, below or above the opening,
    within the bidder's cash or not), everyone else passes."""
    if cfg.purchase.on_decline != "auction":
        return None
    found = _landing_on_unowned(cfg, base, rnd)
    if found is None:
        return None
    s, a, sq, roll = found
    w = rnd.randrange(len(s["players"]))
    pc = cfg.purchase
    opening = prop_price(cfg, sq) if pc.opening == "printed_price" else pc.opening_amount
    low = max(opening, 1)
    amount = low if pc.fixed_step else rnd.choice([low, low + 10, low - 1, s["players"][w]["cash"],
                                                   s["players"][w]["cash"] + 1])
    return Example(s, (roll, {"type": "decline", "seat": a}, auction(w, amount)),
                   dict(a=w, b=a, sq=index_of(cfg, sq), amt=amount), event=("auction_won", {"player": w}))


def prop_price(cfg, square: int) -> int:
    return cfg.board.deeds[index_of(cfg, square)].price
