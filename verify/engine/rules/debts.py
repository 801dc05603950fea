"""Rent the owner must claim, paying debts, bankruptcy (to a player, to the bank) and surrender.

A mixin of ``Rules`` (see ``verify.engine.rules``): methods read the tables ``RulesBase``
builds and change a ``GameState`` in place.
"""

from __future__ import annotations

from .common import AUCTION, BUY, DEBT, GameState, MOVING, OVER, POST_ROLL, PRE_ROLL


class DebtRules:
    """Rent the owner must claim, paying debts, bankruptcy (to a player, to the bank) and surrender."""

    # ================================================================== rent claims
    def _expire_claims(self, g: GameState) -> None:
        """Rent not asked for before its deadline (the roll of the next, or second next, player) lapses."""
        keep = []
        for c in g.claims:
            if g.player_turns >= c[5]:
                if g.events is not None:
                    self._ev(g, event="rent_lapsed", payer=c[0], owner=c[1], square=c[2], amount=c[3])
            else:
                keep.append(c)
        g.claims = keep

    def why_not_claim_rent(self, g: GameState, seat: int, square) -> str | None:
        if g.phase not in (PRE_ROLL, POST_ROLL, BUY):
            return f"not in phase {g.phase}"
        for c in g.claims:
            if c[1] == seat and (square is None or c[2] == square):
                return None
        return "no rent to claim"

    def claim_rent(self, g: GameState, seat: int, square=None) -> None:
        for i, c in enumerate(g.claims):
            if c[1] == seat and (square is None or c[2] == square):
                g.claims.pop(i)
                payer, owner, s, amount, share, _ = c
                if g.bankrupt[payer]:
                    return
                self.charge(g, payer, owner, amount, "rent", share)
                if g.events is not None:
                    self._ev(g, event="rent_claimed", payer=payer, owner=owner, square=s, amount=amount)
                if g.debts and g.phase != BUY:
                    self._resume_after_manage(g)
                return

    def why_not_pay(self, g: GameState, seat: int) -> str | None:
        if g.phase != DEBT or g.pending["debtor"] != seat:
            return "no debt to pay"
        if g.cash[seat] < g.pending["amount"]:
            return "not enough cash: sell, mortgage or trade first"
        return None

    def pay(self, g: GameState, seat: int) -> None:
        d = g.debts.pop(0)
        self._settle(g, d)
        g.phase = MOVING
        g.pending = None
        self._continue(g)

    def why_not_bankrupt(self, g: GameState, seat: int) -> str | None:
        if g.phase != DEBT or g.pending["debtor"] != seat:
            return "no debt"
        amount = g.pending["amount"]
        if g.cash[seat] >= amount:
            return "the debt can be paid"
        dc = self.cfg.debt
        if not dc.raise_cash_first or self.raisable(g, seat) < amount:
            return None
        if dc.threshold == "debt_exceeds_worth" and amount > self.net_worth(g, seat):
            return None
        return "the debt can still be raised by selling and mortgaging"

    def bankrupt(self, g: GameState, seat: int) -> None:
        creditor, amount = g.pending["creditor"], g.pending["amount"]
        g.debts.pop(0)
        g.pending = None
        g.phase = MOVING
        self.go_bankrupt(g, seat, creditor, amount)

    def why_not_surrender(self, g: GameState, seat: int) -> str | None:
        if not self.cfg.debt.surrender:
            return "players may not give up"
        if g.bankrupt[seat] or g.phase == OVER:
            return "not in the game"
        if g.phase == AUCTION:
            return "not during an auction"
        return None

    def surrender(self, g: GameState, seat: int) -> None:
        creditor, amount = -1, 0
        if g.phase == DEBT and g.pending["debtor"] == seat:
            creditor, amount = g.pending["creditor"], g.pending["amount"]
            g.debts.pop(0)
            g.pending = None
            g.phase = MOVING
        elif isinstance(g.pending, dict) and g.pending.get("player") == seat:
            g.pending = None        # the player's own open decision goes with them
            g.phase = MOVING
        self.go_bankrupt(g, seat, creditor, amount)

    def go_bankrupt(self, g: GameState, p: int, creditor: int, amount: int) -> None:
        """Every asset of p goes where the ruleset says; p leaves the game."""
        self._touch_all(g)
        dc = self.cfg.debt
        if creditor >= 0 and g.bankrupt[creditor]:
            creditor = -1
        if g.events is not None:
            self._ev(g, event="bankrupt", player=p, creditor=creditor, amount=amount)
        mine = [s for s in self.ownable if g.owner[s] == p]
        building_sale = 0
        for s in mine:
            building_sale += self.building_sale(g, s)
            self._stock_back(g, g.houses[s], 1 if g.hotel[s] else 0)
            g.houses[s] = 0
            g.hotel[s] = False
        cash = g.cash[p]
        g.cash[p] = 0
        cards = g.jail_cards[p]
        g.jail_cards[p] = []
        if creditor >= 0:
            if dc.to_player_cash == "proceeds_to_creditor":
                proceeds = cash + building_sale + sum(self.mortgage_value[s] for s in mine if not g.mortgaged[s])
                paid = min(proceeds, amount) if amount else proceeds
                g.cash[creditor] += paid
                g.bank_cash += cash - paid
            else:
                g.cash[creditor] += cash
                if dc.to_player_buildings == "sold_half_to_creditor" and building_sale:
                    g.cash[creditor] += building_sale
                    g.bank_cash -= building_sale
            for s in mine:
                if g.mortgaged[s] and dc.to_player_mortgaged == "dropped":
                    continue   # a custom table's bug: the deed stays with the bankrupt player
                if dc.to_player_properties == "creditor":
                    g.owner[s] = creditor
                    if g.mortgaged[s] and self.cfg.mortgage.transfer_interest:
                        self.receive_mortgaged(g, s, creditor, self.transfer_interest[s], queued=True)
                else:
                    g.owner[s] = -1
                    g.mortgaged[s] = False
                    g.mortgage_rounds[s] = 0
                    g.interest_paid[s] = False
                    if dc.to_player_properties == "bank_auction":
                        g.auctions.append([s, "deed", self._opening(s), -1, False, -1])
            if dc.to_player_jail_cards == "creditor":
                g.jail_cards[creditor].extend(cards)
            else:
                self._return_cards(g, cards)
        else:
            g.bank_cash += cash
            heir = -1
            inherits = self.teams_on and self.cfg.teams.bankrupt_to_bank_teammate_inherits
            if dc.to_bank_properties == "teammate" or inherits:
                for q in range(g.n):
                    if q != p and not g.bankrupt[q] and self.same_team(g, p, q):
                        heir = q
                        break
            for s in mine:
                if heir >= 0:
                    g.owner[s] = heir
                    if dc.to_bank_mortgages == "cleared":
                        g.mortgaged[s] = False
                        g.interest_paid[s] = False
                    continue
                g.owner[s] = -1
                keep = dc.to_bank_mortgages == "kept_on_auction" and dc.to_bank_properties == "auction"
                if not keep:
                    g.mortgaged[s] = False
                    g.interest_paid[s] = False
                g.mortgage_rounds[s] = 0
                if dc.to_bank_properties == "auction":
                    g.auctions.append([s, "deed", self._opening(s), -1, keep and g.mortgaged[s], -1])
            self._return_cards(g, cards)
        g.bankrupt[p] = True
        g.in_jail[p] = False
        g.debts = [d for d in g.debts if d[0] != p]
        for d in g.debts:
            if d[1] == p:
                d[1] = -1
        if g.claims:
            g.claims = [c for c in g.claims if c[0] != p and c[1] != p]
        if self._check_end(g):
            g.debts, g.auctions, g.claims = [], [], []
            return
        if g.phase not in (MOVING, PRE_ROLL, POST_ROLL):
            # someone else's decision is still awaited (an auction, a purchase, a debt...): the queued
            # debts and auctions follow it
            if g.phase == DEBT and g.debts:
                g.pending["creditor"] = g.debts[0][1]
            return
        g.phase = MOVING
        self._continue(g)

    def _opening(self, s: int) -> int:
        pu = self.cfg.purchase
        return self.price[s] if pu.opening == "printed_price" else pu.opening_amount

    def _return_cards(self, g: GameState, cards: list) -> None:
        """Used or surrendered Get Out of Jail Free cards go back under their deck (or to its discards)."""
        bottom = self.cfg.cards.return_policy == "bottom_of_deck"
        for deck in cards:
            if bottom:
                pile = g.chance if deck == "chance" else g.chest
            else:
                pile = g.chance_discards if deck == "chance" else g.chest_discards
            pile.append(self._jail_card_id(deck))
