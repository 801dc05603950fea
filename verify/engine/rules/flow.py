"""The flow of play: resolving queued debts and auctions, finishing a move, ending a turn, new rounds,
the end of the game.

Functions of the per-config ``Tables`` ``t`` and the ``GameState`` ``g`` (see
``verify.engine.rules``); they change ``g`` in place.
"""

from __future__ import annotations

from typing import Final

from . import base, construction, movement
from .common import AUCTION, DEBT, MOVING, OVER, POST_ROLL, PRE_ROLL, GameState, Tables
from ..reasons import structural

END_PHASE: Final = structural("the turn ends after the move", "phase")
END_TURN: Final = structural("only the current player ends the turn", "turn")


def awaited(g: GameState) -> int:
    """Who is expected to act now (the default seat of an action)."""
    p = g.pending
    if g.phase == DEBT:
        return p["debtor"]
    if g.phase == AUCTION:
        if p["turn"] is not None:
            return p["turn"]
        for q in p["bidders"]:
            if q != p["leader"]:
                return q
        return p["bidders"][0]
    if p and "player" in p:
        return p["player"]
    return g.current


def resume(t: Tables, g: GameState) -> None:
    """Resolve queued debts and auctions, then finish the move or start the next turn."""
    while True:
        if g.phase == OVER:
            return
        if g.debts:
            d = g.debts[0]
            if g.bankrupt[d[0]]:
                g.debts.pop(0)
                continue
            if d[1] >= 0 and g.bankrupt[d[1]]:
                d[1] = -1
            if not t.cfg.debt.explicit_payment_step and g.cash[d[0]] >= d[2]:
                g.debts.pop(0)
                base.settle(t, g, d)
                continue
            g.phase = DEBT
            g.pending = {"debtor": d[0], "creditor": d[1], "amount": d[2], "kind": d[4]}
            return
        if g.auctions:
            if start_auction(t, g, g.auctions.pop(0)):
                return
            continue
        if g.mr_pending:
            g.mr_pending = False
            movement.mr_monopoly(t, g)
            if g.phase != MOVING:
                return
            continue
        if g.steps_after_debts:    # a jail exit, its fine paid first: now the token moves
            steps, g.steps_after_debts = g.steps_after_debts, 0
            p = g.current
            if not g.bankrupt[p]:
                movement.advance(t, g, p, steps)
                movement.land(t, g, p)
                if g.phase != MOVING:
                    return
            continue
        g.pending = None
        if g.stage == "move":
            after_move(t, g)
        elif g.bankrupt[g.current]:
            g.stage = "post"       # a bankrupt player's turn ends with its own end_turn step
            g.phase = POST_ROLL
        else:
            g.phase = PRE_ROLL if g.stage == "pre" else POST_ROLL
        return


def after_move(t: Tables, g: GameState) -> None:
    p = g.current
    g.stage = "post"
    if g.landings is not None and not g.bankrupt[p] and not g.still:   # a move ended here
        g.landings[g.pos[p]] = g.landings[g.pos[p]] + 1
    if g.bankrupt[p]:
        g.phase = POST_ROLL     # its end_turn is a step of its own
        return
    if g.timed_out:             # the game plays a timed-out turn to its end: no extra roll for doubles
        next_turn(t, g)
        return
    if g.reroll and not g.jailed and not g.in_jail[p]:
        g.stage = "pre"
        g.phase = PRE_ROLL
        return
    if g.jailed and t.cfg.jail.sent_ends_turn:
        next_turn(t, g)
        return
    if t.cfg.movement.turn_end == "automatic_after_square":
        next_turn(t, g)
        return
    g.phase = POST_ROLL


def why_not_end_turn(t: Tables, g: GameState, seat: int) -> str | None:
    if g.phase != POST_ROLL:
        return END_PHASE
    if seat != g.current:
        return END_TURN
    return None


def end_turn(t: Tables, g: GameState, seat: int) -> None:
    """The current player ends the turn (the ``end_turn`` action)."""
    next_turn(t, g)


def next_turn(t: Tables, g: GameState) -> None:
    """The turn is over: reset its counters, move the clock, pass to the next player still in."""
    p = g.current
    g.doubles[p] = 0
    g.player_turns += 1
    g.minute += t.minutes_per_timeout if g.timed_out else t.minutes_per_turn
    if not g.timed_out and not g.bankrupt[p]:
        g.missed[p] = 0
    g.rolled, g.dice, g.trades, g.timed_out = False, (), 0, False
    if g.built_streets:
        g.built_streets = set()
        g.built_groups = set()
    if g.received:
        g.received = {}
    g.reset_move()
    g.pending = None
    if t.limit_end and check_end(t, g):
        return
    n = g.n
    i = p
    wrapped = False
    while True:
        i += 1
        if i >= n:
            i = 0
            wrapped = True
        if not g.bankrupt[i]:
            break
    g.current = i
    if wrapped:
        g.round += 1
        new_round(t, g)
        if t.limit_end and check_end(t, g):
            return
    g.stage = "pre"
    g.phase = MOVING
    resume(t, g)


def new_round(t: Tables, g: GameState) -> None:
    mo = t.cfg.mortgage
    if mo.expiry_rounds is None:
        return
    base.touch_all(g)
    for s in t.ownable:
        if g.mortgaged[s] and g.owner[s] >= 0:
            g.mortgage_rounds[s] = g.mortgage_rounds[s] + 1
            if g.mortgage_rounds[s] >= mo.expiry_rounds:
                former = g.owner[s]
                g.owner[s] = -1
                g.mortgaged[s] = False
                g.mark(s)
                g.mortgage_rounds[s] = 0
                g.interest_paid[s] = False
                opening = t.price[s] if mo.expiry_auction_opening is None else mo.expiry_auction_opening
                g.auctions.append([s, "deed", opening, -1 if mo.expiry_auction_owner_bids else former,
                                   False, -1])
                if g.events is not None:
                    g.events.append({"event": "mortgage_expired", "square": s, "former_owner": former})


def check_end(t: Tables, g: GameState) -> bool:
    e = t.cfg.end
    live = [i for i in range(g.n) if not g.bankrupt[i]]
    sides = {g.team[i] if t.cfg.teams.enabled else i for i in live}
    winner = None
    if len(sides) <= 1 and (e.condition == "last_standing" or e.last_standing_also
                            or e.condition == "first_bankruptcy"):
        winner = richest(t, g, live) if live else None
        result = "last_standing"
    elif e.condition == "first_bankruptcy" and len(live) < g.n:
        result = "first_bankruptcy"
    elif e.condition == "time_limit" and e.time_limit_minutes is not None and g.minute >= e.time_limit_minutes:
        result = "time_limit"
    elif e.condition == "round_limit" and e.round_limit is not None and g.round >= e.round_limit:
        result = "round_limit"
    else:
        return False
    if winner is None and live and e.winner == "richest":
        winner = richest(t, g, live)
    g.phase = OVER
    g.pending = None
    g.winner = winner
    g.result = result
    if g.events is not None:
        g.events.append({"event": "game_over", "winner": winner, "result": result})
    return True


def richest(t: Tables, g: GameState, live: list[int]) -> int:
    """The player of greatest net worth (the lowest seat among equals)."""
    best, best_worth = -1, 0
    for i in live:
        w = base.net_worth(t, g, i)
        if best < 0 or w > best_worth:
            best, best_worth = i, w
    return best


def opening_bid(t: Tables, s: int) -> int:
    """Where the auction of deed ``s`` opens (auction.opening_bid)."""
    pu = t.cfg.purchase
    return t.price[s] if pu.opening == "printed_price" else pu.opening_amount


def start_auction(t: Tables, g: GameState, entry: list) -> bool:
    """Open a queued auction ``[square, item, opening, excluded seat, mortgaged, proceeds to]`` (False:
    nothing to auction, or nobody may bid)."""
    s, item, opening, excluded, mortgaged, proceeds_to = entry
    if item == "deed" and g.owner[s] >= 0:
        return False
    may_manage = t.cfg.jail.may_manage
    start = g.current
    order = [(start + k) % g.n for k in range(1, g.n + 1)]
    bidders = [q for q in order if not g.bankrupt[q] and q != excluded
               and (may_manage or not g.in_jail[q])
               and (item == "deed" or construction.can_build_somewhere(t, g, q, item))]
    if not bidders:
        return False
    seat_order = t.cfg.purchase.bidding_order == "seat_order"
    g.phase = AUCTION
    g.pending = {"square": s, "item": item, "min": max(opening, 0), "high": 0, "leader": -1,
                 "bidders": bidders, "turn": bidders[0] if seat_order else None,
                 "mortgaged": mortgaged, "proceeds_to": proceeds_to}
    if g.events is not None:
        g.events.append({"event": "auction", "square": s, "item": item, "bidders": list(bidders)})
    return True


def interrupt_with_auction(t: Tables, g: GameState, entry: list) -> None:
    """Hold an auction now (only from pre_roll/post_roll), then return to that phase."""
    g.auctions.insert(0, entry)
    g.phase = MOVING
    resume(t, g)
