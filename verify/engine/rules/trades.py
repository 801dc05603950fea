"""Trades between players: what may change hands, when, balance and per-turn limits, the interest on
mortgaged deeds received.

A mixin of ``Rules`` (see ``verify.engine.rules``): methods read the tables ``RulesBase``
builds and change a ``GameState`` in place.
"""

from __future__ import annotations

from .common import BUY, DEBT, GameState, MANAGE_PHASES, MOVING, POST_ROLL, PRE_ROLL


class TradeRules:
    """Trades between players (a mixin of ``Rules``)."""

    def side_value(self, g: GameState, side: dict) -> int:
        v = int(side.get("cash", 0) or 0)
        for s in side.get("squares", ()):
            v += self.mortgage_value[s] if g.mortgaged[s] else self.price[s]
        v += len(side.get("cards", ())) * self.cfg.jail.fine
        return v

    def why_not_trade(self, g: GameState, seat: int, other, give: dict, take: dict) -> str | None:
        tr = self.cfg.trade
        if not tr.allowed:
            return "trading is not allowed"
        if not isinstance(other, int) or not 0 <= other < g.n or other == seat or g.bankrupt[other]:
            return "trade with another player still in the game"
        if g.bankrupt[seat]:
            return "bankrupt"
        ph = g.phase
        if ph == DEBT:
            if g.pending["debtor"] != seat:
                return "only the debtor trades while a debt is open"
            if not self.cfg.debt.trade_while_in_debt:
                return "no trading while in debt"
        elif tr.timing == "anytime":
            if ph not in MANAGE_PHASES:
                return f"not in phase {ph}"
        elif tr.timing == "before_roll_own_turn":
            if seat != g.current or ph != PRE_ROLL:
                return "trades only before rolling in one's own turn"
        else:  # own_turn_and_payments
            if seat != g.current or ph not in (PRE_ROLL, BUY, DEBT):
                return "trades only in one's own turn or while paying"
        if self.cfg.clock.manage_before_roll_only and ph != DEBT and (seat != g.current or ph != PRE_ROLL):
            return "trades only before rolling"
        if g.in_jail[seat] and not self.cfg.jail.may_manage:
            return "a jailed player may not trade"
        if tr.per_turn_limit is not None and g.trades >= tr.per_turn_limit:
            return f"at most {tr.per_turn_limit} trades per turn"
        if not isinstance(give, dict) or not isinstance(take, dict):
            return "give and take are objects"
        for side, owner_, receiver in ((give, seat, other), (take, other, seat)):
            why = self._side_ok(g, side, owner_, receiver)
            if why:
                return why
        empty_g = not give.get("squares") and not give.get("cards")
        empty_t = not take.get("squares") and not take.get("cards")
        if empty_g and empty_t:
            return "a trade moves at least one deed or card"
        if not tr.loans and ((empty_g and not give.get("cash")) or (empty_t and not take.get("cash"))):
            return "no gifts or loans: both sides give something"
        skip = tr.teammates_skip_balance and self.same_team(g, seat, other)
        if not skip and (tr.max_value_gap is not None or tr.max_value_ratio is not None):
            a, b = self.side_value(g, give), self.side_value(g, take)
            hi, lo = max(a, b), min(a, b)
            if tr.max_value_gap is not None and hi - lo > tr.max_value_gap * hi + 1e-9:
                return f"unbalanced: the sides differ by more than {tr.max_value_gap:.0%} of the larger"
            if tr.max_value_ratio is not None and hi > tr.max_value_ratio * lo:
                return f"unbalanced: one side is more than {tr.max_value_ratio} times the other"
        return None

    def _side_ok(self, g: GameState, side: dict, giver: int, receiver: int) -> str | None:
        tr = self.cfg.trade
        extra = set(side) - {"squares", "cash", "cards"}
        if extra:
            return f"unknown trade fields {sorted(extra)}"
        cash = side.get("cash", 0) or 0
        if not isinstance(cash, int) or cash < 0:
            return "cash is a whole amount >= 0"
        if cash and not tr.cash:
            return "cash may not be part of a trade"
        if cash > g.cash[giver]:
            return "not enough cash"
        squares = side.get("squares", []) or []
        if len(set(squares)) != len(squares):
            return "a deed is listed twice"
        for s in squares:
            if not isinstance(s, int) or not 0 <= s < 40 or g.owner[s] != giver:
                return f"square {s} is not the giver's"
            if tr.building_lock == "whole_group":
                if self.kind[s] == "street" and self.group_has_buildings(g, self.group_of[s]):
                    return "sell the group's buildings before trading its deeds"
            elif g.houses[s] or g.hotel[s]:
                return "sell the buildings before trading the deed"
            if g.mortgaged[s]:
                if tr.mortgaged == "forbidden":
                    return "mortgaged property cannot be traded"
                if tr.mortgaged == "teammates_only" and not self.same_team(g, giver, receiver):
                    return "mortgaged property is traded only between teammates"
        cards = side.get("cards", []) or []
        if cards:
            if not tr.jail_cards or not self.cfg.cards.jail_card_tradeable:
                return "Get Out of Jail Free cards cannot be traded"
            held = list(g.jail_cards[giver])
            for c in cards:
                if c not in held:
                    return f"no {c} Get Out of Jail Free card to give"
                held.remove(c)
            if g.in_jail[receiver] and not self.cfg.jail.buy_card_from_player:
                return "a jailed player may not buy a Get Out of Jail Free card"
        return None

    def trade(self, g: GameState, seat: int, other: int, give: dict, take: dict) -> None:
        g.ov[seat] += 1
        g.ov[other] += 1
        g.trades += 1
        for side, a, b in ((give, seat, other), (take, other, seat)):
            cash = side.get("cash", 0) or 0
            g.cash[a] -= cash
            g.cash[b] += cash
            for c in side.get("cards", []) or []:
                g.jail_cards[a].remove(c)
                g.jail_cards[b].append(c)
        for side, b in ((give, other), (take, seat)):
            for s in side.get("squares", []) or []:
                g.owner[s] = b
                if g.mortgaged[s] and self.cfg.mortgage.transfer_interest:
                    self.receive_mortgaged(g, s, b, self.interest[s])
        if g.events is not None:
            self._ev(g, event="traded", player=seat, other=other, give=give, take=take)
        if g.debts and g.phase != DEBT:
            self._resume_after_manage(g)

    def _resume_after_manage(self, g: GameState) -> None:
        if g.phase in (PRE_ROLL, POST_ROLL):
            g.phase = MOVING
            self._continue(g)
