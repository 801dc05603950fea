"""Chance and Community Chest: drawing, reshuffling, return policies, the effects of cards that leave the
token where it stands (money, repairs, a building destroyed). Where a card sends the token is the
movement family's (``movement.draw``: it lands the token, and landing may draw again).

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

from . import base
from .common import Card, GameState, Tables


def reshuffle_seed(g: GameState) -> int:
    """The seed of the generator that reshuffles a deck when the action does not give the order."""
    return g.seed * 1000003 + g.shuffles


def card_throw_seed(g: GameState, p: int) -> int:
    """The seed of the nearest-utility card's fresh throw when the action does not give it."""
    return g.seed * 1000003 + 500009 + g.player_turns * 131 + g.doubles[p]


def take(t: Tables, g: GameState, p: int, deck: str) -> Card | None:
    """The top card of ``deck``, drawn by ``p``: the deck reshuffled first where it ran out; the card kept (a Get
    Out of Jail Free card where the rules let one keep it), put back under the pile or discarded as the rules
    say. None when the deck is empty and has no discards."""
    pile = g.chance if deck == "chance" else g.chest
    discards = g.chance_discards if deck == "chance" else g.chest_discards
    if not pile:
        if not discards:
            return None
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
    cfg = t.cfg
    if card.effect == "jail_free" and cfg.cards.jail_card_kept:
        g.jail_cards[p].append(deck)
    elif cfg.cards.return_policy == "bottom_of_deck":
        pile.append(cid)
    else:
        discards.append(cid)
    return card


def card_effect(t: Tables, g: GameState, p: int, card: Card) -> None:
    """What a card that leaves the token where it stands does to ``p``: money from or to the bank or every
    other player, repairs, a building destroyed (a Get Out of Jail Free card: nothing more)."""
    eff = card.effect
    if eff == "bank":
        if card.amount >= 0:
            base.to_player(g, p, card.amount)
        else:
            card_payment(t, g, p, -1, -card.amount)
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
            g.mark(best)
            base.stock_back(t, g, 0, 1)
            g.houses[best] = g.houses[best] + back
            g.mark(best)
            base.stock_out(t, g, back, 0)
        else:  # not enough houses to break the hotel down: the group is cleared
            base.clear_group(t, g, t.group_of[best])
    else:
        g.houses[best] = g.houses[best] - 1
        g.mark(best)
        base.stock_back(t, g, 1, 0)
    if g.events is not None:
        g.events.append({"event": "building_destroyed", "player": p, "square": best})
