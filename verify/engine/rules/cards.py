"""Chance and Community Chest: drawing, reshuffling, return policies, every card effect.

Functions of the per-config ``Tables`` ``t`` and the ``GameState`` ``g`` (see
``verify.engine.rules``); they change ``g`` in place.

The two random draws a step can make happen here: a deck reshuffled when it runs
out, and the fresh throw of the nearest-utility card ("throw the dice and pay ten
times the amount thrown"). An action may carry both (``reshuffle``, ``card_dice``:
see ``verify.engine.actions``; the step API puts them in ``g.reshuffle`` and
``g.card_dice``); without them they are drawn from generators seeded by the state
(its ``seed``, its shuffle count, the turn), so a state and an action always give
one successor.
"""

from __future__ import annotations

import random

from . import base, movement
from .common import GameState, Tables


def reshuffle_seed(g: GameState) -> int:
    """The seed of the generator that reshuffles a deck when the action does not give the order."""
    return g.seed * 1000003 + g.shuffles


def card_throw_seed(g: GameState, p: int) -> int:
    """The seed of the nearest-utility card's fresh throw when the action does not give it."""
    return g.seed * 1000003 + 500009 + g.player_turns * 131 + g.doubles[p]


def draw(t: Tables, g: GameState, p: int, deck: str) -> None:
    pile = g.chance if deck == "chance" else g.chest
    discards = g.chance_discards if deck == "chance" else g.chest_discards
    if not pile:
        if not discards:
            return
        given = g.reshuffle.pop(deck, None) if g.reshuffle else None
        pile.extend(discards if given is None else given)
        discards.clear()
        if given is None:
            random.Random(reshuffle_seed(g)).shuffle(pile)
        g.shuffles += 1
        if g.events is not None:
            g.events.append({"event": "reshuffled", "deck": deck, "order": list(pile)})
    cid = pile.pop(0)
    card = t.cards[deck][cid]
    if g.events is not None:
        g.events.append({"event": "card", "player": p, "deck": deck, "card": cid})
    eff = card.effect
    cfg = t.cfg
    if eff == "jail_free" and cfg.cards.jail_card_kept:
        g.jail_cards[p].append(deck)
    elif cfg.cards.return_policy == "bottom_of_deck":
        pile.append(cid)
    else:
        discards.append(cid)
    if eff == "bank":
        if card.amount >= 0:
            base.to_player(g, p, card.amount)
        else:
            card_payment(t, g, p, -1, -card.amount)
    elif eff == "advance_to":
        movement.move_forward_to(t, g, p, card.square)
        movement.land(t, g, p)
    elif eff == "advance_nearest":
        target = (t.next_station if card.kind == "station" else t.next_utility)[g.pos[p]]
        movement.move_forward_to(t, g, p, target)
        g.rent_factor = card.rent_factor
        g.util_mult = card.utility_multiplier
        saved = g.dice
        if card.kind == "utility" and card.utility_multiplier and g.owner[target] not in (-1, p):
            # "throw the dice and pay ten times the amount thrown": a fresh throw, given by the action
            # (card_dice) or drawn from the state's seed, so that a state and an action give one successor
            if g.card_dice is not None:
                g.dice, g.card_dice = tuple(g.card_dice), None
            else:
                r = random.Random(card_throw_seed(g, p))
                g.dice = (r.randint(1, 6), r.randint(1, 6))
            if g.events is not None:
                g.events.append({"event": "card_throw", "player": p, "dice": list(g.dice)})
        movement.land(t, g, p)
        g.dice = saved
        g.rent_factor, g.util_mult = 1, 0
    elif eff == "go_back":
        g.pos[p] = (g.pos[p] - card.spaces) % 40
        movement.land(t, g, p)
    elif eff == "go_to_jail":
        if cfg.jail.via_card:
            movement.send_to_jail(t, g, p)
    elif eff == "each_player":
        amount = card.amount
        for q in range(g.n):
            if q != p and not g.bankrupt[q]:
                if amount >= 0:
                    base.charge(t, g, q, p, amount, "card")
                else:
                    card_payment(t, g, p, q, -amount)
    elif eff == "repairs":
        total = 0
        for s in t.street_squares:
            if g.owner[s] == p:
                total += card.hotel if g.hotel[s] else card.house * g.houses[s]
        card_payment(t, g, p, -1, total)
    elif eff == "destroy_building":
        destroy_building(t, g, p)


def card_payment(t: Tables, g: GameState, p: int, creditor: int, amount: int) -> None:
    if t.cfg.cards.payment_debt or g.cash[p] >= amount:
        base.charge(t, g, p, creditor, amount, "card")
    else:
        base.charge(t, g, p, creditor, g.cash[p], "card")


def destroy_building(t: Tables, g: GameState, p: int) -> None:
    """The most developed street of the drawer (``cards.building_destroy_target: drawer``), or of any
    opponent (``opponent``; ties: the lowest square), loses one level; the building returns to the bank."""
    own = t.cfg.cards.building_destroy_target == "drawer"
    best = -1
    for s in t.street_squares:
        o = g.owner[s]
        mine = o == p if own else o >= 0 and o != p and not base.same_team(t, g, p, o)
        if mine and (g.houses[s] or g.hotel[s]):
            if best < 0 or base.level(t, g, s) > base.level(t, g, best):
                best = s
    if best < 0:
        return
    if g.hotel[best]:
        back = t.hotel_back
        if g.bank_houses >= back:
            g.hotel[best] = False
            base.stock_back(t, g, 0, 1)
            g.houses[best] = g.houses[best] + back
            base.stock_out(t, g, back, 0)
        else:  # not enough houses to break the hotel down: the group is cleared
            base.clear_group(t, g, t.group_of[best])
    else:
        g.houses[best] = g.houses[best] - 1
        base.stock_back(t, g, 1, 0)
    if g.events is not None:
        g.events.append({"event": "building_destroyed", "player": p, "square": best})
