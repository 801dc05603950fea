"""Chance and Community Chest: drawing, return policies, every card effect.

A mixin of ``Rules`` (see ``verify.engine.rules``): methods read the tables ``RulesBase``
builds and change a ``GameState`` in place.
"""

from __future__ import annotations

import random

from .common import GameState


class CardRules:
    """Chance and Community Chest: drawing, return policies, every card effect."""

    def _draw(self, g: GameState, p: int, deck: str) -> None:
        pile = g.chance if deck == "chance" else g.chest
        discards = g.chance_discards if deck == "chance" else g.chest_discards
        if not pile:
            if not discards:
                return
            pile.extend(discards)
            discards.clear()
            random.Random(g.seed * 1000003 + g.shuffles).shuffle(pile)
            g.shuffles += 1
        cid = pile.pop(0)
        card = self.cards[deck][cid]
        if g.events is not None:
            self._ev(g, event="card", player=p, deck=deck, card=cid)
        eff = card.effect
        cfg = self.cfg
        if eff == "jail_free" and cfg.cards.jail_card_kept:
            g.jail_cards[p].append(deck)
        elif cfg.cards.return_policy == "bottom_of_deck":
            pile.append(cid)
        else:
            discards.append(cid)
        if eff == "bank":
            if card.amount >= 0:
                self._to_player(g, p, card.amount)
            else:
                self._card_payment(g, p, -1, -card.amount)
        elif eff == "advance_to":
            self._move_to(g, p, card.square)
            self._land(g, p)
        elif eff == "advance_nearest":
            target = self.next_of[card.kind][g.pos[p]]
            self._move_to(g, p, target)
            g.rent_factor = card.rent_factor
            g.util_mult = card.utility_multiplier
            saved = g.dice
            if card.kind == "utility" and card.utility_multiplier and g.owner[target] not in (-1, p):
                # "throw the dice and pay ten times the amount thrown": a fresh throw, drawn from the
                # state's seed so that a state and an action still give one successor
                r = random.Random(g.seed * 1000003 + 500009 + g.player_turns * 131 + g.doubles[p])
                g.dice = (r.randint(1, 6), r.randint(1, 6))
                if g.events is not None:
                    self._ev(g, event="card_throw", player=p, dice=list(g.dice))
            self._land(g, p)
            g.dice = saved
            g.rent_factor, g.util_mult = 1, 0
        elif eff == "go_back":
            g.pos[p] = (g.pos[p] - card.spaces) % 40
            self._land(g, p)
        elif eff == "go_to_jail":
            if cfg.jail.via_card:
                self.send_to_jail(g, p)
        elif eff == "each_player":
            amount = card.amount
            for q in range(g.n):
                if q != p and not g.bankrupt[q]:
                    if amount >= 0:
                        self.charge(g, q, p, amount, "card")
                    else:
                        self._card_payment(g, p, q, -amount)
        elif eff == "repairs":
            total = 0
            for s in self.street_squares:
                if g.owner[s] == p:
                    total += card.hotel if g.hotel[s] else card.house * g.houses[s]
            self._card_payment(g, p, -1, total)
        elif eff == "destroy_building":
            self._destroy_building(g, p)

    def _card_payment(self, g: GameState, p: int, creditor: int, amount: int) -> None:
        if self.cfg.cards.payment_debt or g.cash[p] >= amount:
            self.charge(g, p, creditor, amount, "card")
        else:
            self.charge(g, p, creditor, g.cash[p], "card")

    def _destroy_building(self, g: GameState, p: int) -> None:
        """The most developed street of the drawer (``cards.building_destroy_target: drawer``), or of any
        opponent (``opponent``; ties: the lowest square), loses one level; the building returns to the bank."""
        own = self.cfg.cards.building_destroy_target == "drawer"
        best = -1
        for s in self.street_squares:
            o = g.owner[s]
            mine = o == p if own else o >= 0 and o != p and not self.same_team(g, p, o)
            if mine and (g.houses[s] or g.hotel[s]):
                if best < 0 or self.level(g, s) > self.level(g, best):
                    best = s
        if best < 0:
            return
        if g.hotel[best]:
            back = self.threshold if self.cfg.building.hotel_returns_houses else 0
            if g.bank_houses >= back:
                g.hotel[best] = False
                self._stock_back(g, 0, 1)
                g.houses[best] += back
                self._stock_out(g, back, 0)
            else:  # not enough houses to break the hotel down: the group is cleared
                self._clear_group(g, self.group_of[best])
        else:
            g.houses[best] -= 1
            self._stock_back(g, 1, 0)
        if g.events is not None:
            self._ev(g, event="building_destroyed", player=p, square=best)

    def _touch_all(self, g: GameState) -> None:
        """Ownership or mortgages changed for possibly every seat (bots re-read their holdings)."""
        ov = g.ov
        for i in range(len(ov)):
            ov[i] += 1

    def _stock_back(self, g: GameState, houses: int, hotels: int) -> None:
        """Buildings sold or given up go back into the bank's stock."""
        if not self.sold_vanish:
            g.bank_houses += houses
            g.bank_hotels += hotels

    def _stock_out(self, g: GameState, houses: int, hotels: int) -> None:
        if not self.builds_free:
            g.bank_houses -= houses
            g.bank_hotels -= hotels

    def _clear_group(self, g: GameState, grp: int) -> int:
        """Return every building of a group to the bank; the sale value (not paid here)."""
        value = 0
        for s in self.groups[grp]:
            value += self.building_sale(g, s)
            self._stock_back(g, g.houses[s], 1 if g.hotel[s] else 0)
            g.houses[s] = 0
            g.hotel[s] = False
        return value
