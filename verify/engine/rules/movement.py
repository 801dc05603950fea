"""Moving a token: the GO salary, the square it lands on (rent, rent claims, taxes, Free Parking, the casino,
a card drawn there and where the card sends it), being sent to jail, Mr. Monopoly's move. A player's
actions that move a token (a roll, a jail exit, the bus) are the ``turns`` family's.

Functions of the per-config ``Tables`` ``t`` and the ``GameState`` ``g`` (see
``verify.engine.rules``); they change ``g`` in place.
"""

from __future__ import annotations

import random

from . import base, cards
from .common import BUY, CASINO, INCOME_TAX, JAIL_SQUARE, MOVING, GameState, Tables, round_money


def advance(t: Tables, g: GameState, p: int, steps: int) -> None:
    """Move forward, paying the GO salary for passing or landing as the rules say."""
    new = g.pos[p] + steps
    if new >= t.size:
        new -= t.size
        g.passed_go[p] = True
        mv = t.cfg.movement
        if new == 0:
            pay, bonus = (mv.go_salary if mv.salary_on_landing else 0), mv.exact_landing_bonus
        else:
            pay, bonus = (mv.go_salary if mv.salary_on_pass else 0), 0
        if not base.salary_paid_now(t, g):
            pay = 0
            if not mv.exact_landing_bonus_after_salary_stop:
                bonus = 0
        pay += bonus
        # a second payment in one move (or turn): only the Advance to GO card after a pass, or any
        # second pass where the salary is not limited to once a turn, as the rules say
        if pay and not (g.salary_paid and not (mv.pass_then_card_pays_twice
                                               and (new == 0 or not mv.salary_once_per_turn))):
            base.to_player(g, p, pay)
            g.salary_paid = True
            if g.events is not None:
                g.events.append({"event": "salary", "player": p, "amount": pay})
    g.pos[p] = new


def move_forward_to(t: Tables, g: GameState, p: int, square: int) -> None:
    """Forward to ``square``; choosing the square one stands on (triples) is no move and no lap."""
    advance(t, g, p, (square - g.pos[p]) % t.size)


def send_to_jail(t: Tables, g: GameState, p: int) -> None:
    if t.cfg.jail.sent_collects_salary and g.pos[p] > JAIL_SQUARE and base.salary_paid_now(t, g):
        base.to_player(g, p, t.cfg.movement.go_salary)
    g.pos[p] = JAIL_SQUARE
    g.in_jail[p] = True
    g.jail_turns[p] = 0
    g.doubles[p] = 0
    g.jailed = True
    g.reroll = False
    if g.events is not None:
        g.events.append({"event": "jailed", "player": p})


def land(t: Tables, g: GameState, p: int) -> None:
    """Resolve the square the player stands on."""
    s = g.pos[p]
    if t.is_ownable[s]:
        o = g.owner[s]
        if o < 0:
            if t.cfg.purchase.first_round or g.passed_go[p]:
                g.phase = BUY
                g.pending = {"player": p, "square": s}
            return
        if o != p:
            amount = base.rent(t, g, s, p)
            if amount:
                rate = base.rent_tax_rate(t, g)
                share = amount - round_money(amount * rate) if rate else amount
                if t.must_claim:   # owed only if the owner asks in time
                    g.claims.append([p, o, s, amount, share,
                                     g.player_turns + (t.claim_turns or claim_turns_from_owner(g, o))])
                    if g.events is not None:
                        g.events.append({"event": "rent_due", "payer": p, "owner": o, "square": s,
                                         "amount": amount})
                else:
                    base.charge(t, g, p, o, amount, "rent", share)
        return
    k = t.kind[s]
    if k == "chance" or k == "chest":
        draw(t, g, p, k)
        return
    if k == "income_tax":
        tx = t.cfg.taxes
        if tx.income_percent is not None:
            g.phase = INCOME_TAX
            g.pending = {"player": p}
            return
        base.charge(t, g, p, -1, tx.income, "tax")
        return
    if k == "luxury_tax":
        base.charge(t, g, p, -1, t.cfg.taxes.luxury, "tax")
        return
    if k == "go_to_jail":
        if t.cfg.jail.via_go_to_jail_square:
            send_to_jail(t, g, p)
        return
    if k == "free_parking":
        if t.cfg.taxes.free_parking_pot and g.pot:
            g.cash[p] = g.cash[p] + g.pot
            if g.events is not None:
                g.events.append({"event": "pot", "player": p, "amount": g.pot})
            g.pot = 0
        return
    if k == "casino" and t.cfg.casino.enabled:
        g.phase = CASINO
        g.pending = {"player": p}


def draw(t: Tables, g: GameState, p: int, deck: str) -> None:
    """``p`` draws a card of ``deck`` where the token stands; a card that moves the token lands it (and landing
    may draw again), the others act where it stands (``cards.card_effect``)."""
    card = cards.take(t, g, p, deck)
    if card is None:
        return
    eff = card.effect
    if eff == "advance_to":
        move_forward_to(t, g, p, card.square)
        land(t, g, p)
    elif eff == "advance_nearest":
        target = (t.next_station if card.kind == "station" else t.next_utility)[g.pos[p]]
        move_forward_to(t, g, p, target)
        g.rent_factor = card.rent_factor
        g.util_mult = card.utility_multiplier
        saved = g.dice
        if card.kind == "utility" and card.utility_multiplier and g.owner[target] not in (-1, p):
            # "throw the dice and pay ten times the amount thrown": a fresh throw, given by the action
            # (card_dice) or drawn from the state's seed, so that a state and an action give one successor
            if g.card_dice is not None:
                g.dice, g.card_dice = tuple(g.card_dice), None
            else:
                r = random.Random(cards.card_throw_seed(g, p))
                g.dice = (r.randint(1, 6), r.randint(1, 6))
            if g.events is not None:
                g.events.append({"event": "card_throw", "player": p, "dice": list(g.dice)})
        land(t, g, p)
        g.dice = saved
        g.rent_factor, g.util_mult = 1, 0
    elif eff == "go_back":
        g.pos[p] = (g.pos[p] - card.spaces) % t.size
        land(t, g, p)
    elif eff == "go_to_jail":
        if t.cfg.jail.via_card:
            send_to_jail(t, g, p)
    else:
        cards.card_effect(t, g, p, card)


def claim_turns_from_owner(g: GameState, owner: int) -> int:
    """Player-turns from now until the second player after the owner rolls (a full round when that
    player is the one moving now)."""
    n, bankrupt = g.n, g.bankrupt
    target, k = owner, 0
    while k < 2:
        target = (target + 1) % n
        if not bankrupt[target]:
            k += 1
    turns, q = 0, g.current
    while True:
        q = (q + 1) % n
        if not bankrupt[q]:
            turns += 1
            if q == target:
                return turns


def mr_monopoly(t: Tables, g: GameState) -> None:
    """After the normal move: on to the next unowned property, else the next that charges rent."""
    p = g.current
    if g.bankrupt[p] or g.in_jail[p]:
        return
    pos = g.pos[p]
    target = -1
    for k in range(1, t.size):
        s = (pos + k) % t.size
        if t.is_ownable[s] and g.owner[s] < 0:
            target = s
            break
    if target < 0:
        opponent = t.cfg.speed_die.mr_monopoly == "nearest_unowned_else_nearest_opponent"
        for k in range(1, t.size):
            s = (pos + k) % t.size
            if t.is_ownable[s] and g.owner[s] not in (-1, p) and (
                    (opponent and not base.same_team(t, g, p, g.owner[s])) or base.rent(t, g, s, p) > 0):
                target = s
                break
    if target < 0:
        return
    if g.events is not None:
        g.events.append({"event": "mr_monopoly", "player": p, "square": target})
    g.phase = MOVING
    move_forward_to(t, g, p, target)
    g.no_auction = not t.cfg.speed_die.mr_monopoly_decline_auction
    land(t, g, p)
