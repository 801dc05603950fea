"""Bots: how a seat decides, kept apart from the rules.

A policy never changes the state itself: it returns actions (small dicts, the
step API's vocabulary) that the game loop applies through the same rule code
as ``verify.engine.step.apply``. The loop asks a policy only at decision
points:

* ``manage(rules, g, seat)``   -> list of actions (build, unmortgage, leave jail...) before
  rolling or after moving;
* ``wants_buy(rules, g, seat, square)`` -> bool;
* ``bid(rules, g, seat)``      -> amount or None (pass);
* ``raise_cash(rules, g, seat, amount)`` -> one action that raises cash, or None;
* ``debt_trade(rules, g, seat, amount)`` -> a trade selling a deed for cash to another player, or None,
  when the debt cannot be raised by selling and mortgaging but bankruptcy is refused
  (``bankruptcy.threshold: debt_exceeds_worth``); the other player's ``accepts`` decides;
* ``claims_rent(rules, g, claim)`` -> bool, where the owner must ask for rent;
* ``decide(rules, g, seat, rng)`` -> an action for the rarer decisions
  (income tax, casino, bus, triples, the jail choice after a failed roll).

``HeuristicPolicy`` buys above a cash reserve, builds evenly, raises cash by
selling buildings and then mortgaging, bids up to the printed price.
``RandomPolicy`` picks uniformly among the legal actions (with the main action
of each phase favoured, so that games end). Both take a jail strategy:
``leave`` (pay or use a card at once) or ``stay`` (roll for doubles while allowed).
"""

from __future__ import annotations

import random

from .state import BUS, CASINO, INCOME_TAX, JAIL_CHOICE, PRE_ROLL, TRIPLES, GameState
from .step import enumerate_actions

JAIL_STRATEGIES = ("leave", "stay")


class HeuristicPolicy:
    name = "heuristic"

    def __init__(self, jail: str = "leave", reserve_ratio: float = 0.1):
        if jail not in JAIL_STRATEGIES:
            raise ValueError(jail)
        self.jail = jail
        self.reserve_ratio = reserve_ratio
        self._reserve = None
        self._tried: set = set()
        self._cache: dict = {}
        self._idle: dict = {}

    def reserve(self, rules) -> int:
        if self._reserve is None:
            self._reserve = int(rules.cfg.setup.starting_cash * self.reserve_ratio)
        return self._reserve

    # --------------------------------------------------------------- decisions
    def _holdings(self, rules, g: GameState, seat: int):
        """(full street groups, mortgaged deeds, (missing street, owner) per almost-full group), cached
        until ownership or a mortgage changes (``g.ov``)."""
        ov = g.ov[seat]
        hit = self._cache.get(seat)
        if hit is not None and hit[0] is g and hit[1] == ov:
            return hit[2]
        owner = g.owner
        mine = [s for s in rules.ownable if owner[s] == seat]
        count = [0] * len(rules.groups)
        group_of = rules.group_of
        for s in mine:
            count[group_of[s]] += 1
        full, wanted = [], []
        for grp in rules.street_groups:
            k = count[grp]
            if k:
                squares = rules.groups[grp]
                if k == len(squares):
                    full.append(grp)
                elif k == len(squares) - 1:
                    for s in squares:
                        if owner[s] != seat:
                            wanted.append(s)     # whether someone owns it is checked when used
        mortgaged = g.mortgaged
        data = (full, [s for s in mine if mortgaged[s]], wanted)
        self._cache[seat] = (g, ov, data)
        return data

    def manage(self, rules, g: GameState, seat: int) -> list:
        if g.in_jail[seat] and g.phase == PRE_ROLL and self.jail == "leave":
            if rules.why_not_use_card(g, seat) is None:
                return [{"type": "use_card", "seat": seat}]
            if rules.why_not_pay_fine(g, seat) is None:
                return [{"type": "pay_fine", "seat": seat}]
        reserve = self._reserve
        if reserve is None:
            reserve = self.reserve(rules)
        cash = g.cash[seat]
        if cash < reserve * 2:
            return []
        # nothing to do last time, and nothing that matters has changed since: still nothing to do
        idle = self._idle.get(seat)
        # (the bank's house stock matters only once it is short)
        stock = g.bank_houses if g.bank_houses < g.n else -1
        if idle is not None and cash < idle[1] and idle[3] is g and idle[0] == g.ov[seat] and idle[2] == stock:
            return []
        out, need = self._manage(rules, g, seat, reserve, cash)
        if not out:
            self._idle[seat] = (g.ov[seat], need, stock, g)
        return out

    def _manage(self, rules, g: GameState, seat: int, reserve: int, cash: int):
        """(actions, the cash from which some action might become possible)."""
        need = 1 << 62
        short = None
        full, mortgaged, wanted = self._holdings(rules, g, seat)
        for s in mortgaged:      # unmortgage first, then build
            cost = rules.unmortgage_cost(g, s) + reserve * 2
            if cash >= cost and rules.why_not_unmortgage(g, seat, s) is None:
                return [{"type": "unmortgage", "seat": seat, "square": s}], 0
            need = min(need, cost)
        for grp in full:
            squares = rules.groups[grp]
            best, best_level = -1, 99          # lowest street without a hotel first keeps the group even
            hotel, houses = g.hotel, g.houses
            for s in squares:
                if not hotel[s] and houses[s] < best_level:
                    best, best_level = s, houses[s]
            if best < 0:                       # hotels everywhere: nothing left to build
                continue
            cost = rules.house_cost[best] + reserve * 2
            if cash < cost:
                need = min(need, cost)
                continue
            key = (g.player_turns, best)
            if key in self._tried:             # a shortage auction already ran for it this turn
                continue
            if short is None:                  # (the state is the same for every group asked here)
                short = rules.shortage_possible(g)
            if short:
                self._tried.add(key)
            if rules.why_not_build_house(g, seat, best) is None:
                return [{"type": "build_house", "seat": seat, "square": best}], 0
            if rules.why_not_build_hotel(g, seat, best) is None:
                return [{"type": "build_hotel", "seat": seat, "square": best}], 0
            need = 0    # refused for another reason (a per-turn limit, timing...): look again next time
        if wanted:
            if g.phase == PRE_ROLL:
                t = self.trade_for_group(rules, g, seat, reserve, wanted)
                if t is not None:
                    return [t], 0
            for s in wanted:
                if g.owner[s] >= 0:
                    need = min(need, rules.price[s] * 3 // 2 + reserve * 2 + 1)
        return [], need

    def trade_for_group(self, rules, g: GameState, seat: int, reserve: int, wanted) -> dict | None:
        """Offer cash for the one street that completes a group (once per street and turn)."""
        tr = rules.cfg.trade
        if not tr.allowed or not tr.cash:
            return None
        for missing in wanted:
            if g.owner[missing] < 0:
                continue
            key = (g.player_turns, missing)
            if key in self._tried:
                continue
            offer = rules.price[missing] * 3 // 2
            if g.cash[seat] - offer < reserve * 2:
                continue
            self._tried.add(key)
            other = g.owner[missing]
            give = {"cash": offer}
            take = {"squares": [missing]}
            if rules.why_not_trade(g, seat, other, give, take) is None:
                return {"type": "trade", "seat": seat, "with": other, "give": give, "take": take}
        return None

    def accepts(self, rules, g: GameState, seat: int, proposer: int, give: dict, take: dict) -> bool:
        """Accept when what we get is worth at least 1.4 times what we give, and it is not our own group."""
        got = rules.side_value(g, give)
        lost = rules.side_value(g, take)
        for s in take.get("squares", ()):
            grp = rules.group_of[s]
            if rules.group_kind[grp] == "street" and sum(1 for t in rules.groups[grp] if g.owner[t] == seat) > 1:
                return False
        return got >= lost * 1.4

    def wants_buy(self, rules, g: GameState, seat: int, square: int) -> bool:
        return g.cash[seat] - rules.price[square] >= self.reserve(rules)

    def claims_rent(self, rules, g: GameState, claim: list) -> bool:
        """Ask for rent the moment it is due (where the owner must claim it)."""
        return True

    def bid(self, rules, g: GameState, seat: int) -> int | None:
        a = g.pending
        low = rules.min_bid(g)
        if a["item"] == "deed":
            value = rules.price[a["square"]]
        else:
            value = rules.house_cost[a["square"]] * 2
        cap = min(value, g.cash[seat] - self.reserve(rules) // 2)
        if low > cap:
            return None
        # jump straight to our value (an English auction in one step) unless bids rise by a fixed step
        amount = low if rules.cfg.purchase.fixed_step else cap
        return amount if rules.why_not_bid(g, seat, amount) is None else None

    def debt_trade(self, rules, g: GameState, seat: int, amount: int) -> dict | None:
        """Sell a deed to another player for cash (each offer once a turn): the offer that raises most
        first, to the richest buyer first, at five sevenths of the deed's value (what ``accepts`` takes,
        within the balance limits of the rules)."""
        offers = []
        for s in rules.ownable:
            if g.owner[s] == seat:
                price = rules.side_value(g, {"squares": [s]}) * 5 // 7
                for q in range(g.n):
                    if q != seat and not g.bankrupt[q] and 0 < price <= g.cash[q]:
                        offers.append((-price, -g.cash[q], s, q))
        for neg_price, _, s, q in sorted(offers):
            key = (g.player_turns, "debt", s, q)
            if key in self._tried:
                continue
            self._tried.add(key)
            give, take = {"squares": [s]}, {"cash": -neg_price}
            if rules.why_not_trade(g, seat, q, give, take) is None:
                return {"type": "trade", "seat": seat, "with": q, "give": give, "take": take}
        return None

    def raise_cash(self, rules, g: GameState, seat: int, amount: int) -> dict | None:
        """One step of raising cash: sell the highest building, else mortgage the cheapest deed."""
        best, best_level = -1, 0
        for s in rules.street_squares:
            if g.owner[s] == seat and (g.houses[s] or g.hotel[s]):
                lv = rules.level(g, s)
                if lv > best_level:
                    best, best_level = s, lv
        if best >= 0:
            if g.hotel[best]:
                if rules.why_not_sell_hotel(g, seat, best) is None:
                    return {"type": "sell_hotel", "seat": seat, "square": best}
            elif rules.why_not_sell_house(g, seat, best) is None:
                return {"type": "sell_house", "seat": seat, "square": best}
            if rules.why_not_sell_group(g, seat, rules.group_of[best]) is None:
                return {"type": "sell_group", "seat": seat, "group": rules.group_of[best]}
        # the cheapest deed the rules let us mortgage (the first of equals): asked cheapest first
        owner, mortgaged, value = g.owner, g.mortgaged, rules.mortgage_value
        for s in sorted((s for s in rules.ownable if owner[s] == seat and not mortgaged[s]), key=value.__getitem__):
            if rules.why_not_mortgage(g, seat, s) is None:
                return {"type": "mortgage", "seat": seat, "square": s}
        return None

    def decide(self, rules, g: GameState, seat: int, rng: random.Random) -> dict:
        ph, pend = g.phase, g.pending
        if ph == INCOME_TAX:
            pct = rules.cfg.taxes.income_percent or 0
            cheaper = rules.tax_worth(g, seat) * pct < rules.cfg.taxes.income
            return {"type": "pay_tax", "seat": seat, "option": "percent" if cheaper else "fixed"}
        if ph == CASINO:
            c = rules.cfg.casino
            if g.cash[seat] >= c.stake * 5 or not c.may_decline:
                if g.cash[seat] >= c.stake:
                    return {"type": "casino_bet", "seat": seat, "numbers": list(range(1, c.max_numbers + 1))}
            return {"type": "casino_decline", "seat": seat}
        if ph == BUS:
            for steps in sorted(pend["options"], reverse=True):
                s = (g.pos[seat] + steps) % 40
                if rules.is_ownable[s] and g.owner[s] < 0:
                    return {"type": "bus", "seat": seat, "steps": steps}
            return {"type": "bus", "seat": seat, "steps": max(pend["options"])}
        if ph == TRIPLES:
            for k in range(1, 40):
                s = (g.pos[seat] + k) % 40
                if rules.is_ownable[s] and g.owner[s] < 0 and g.cash[seat] > rules.price[s]:
                    return {"type": "move_to", "seat": seat, "square": s}
            return {"type": "move_to", "seat": seat, "square": 0}
        if ph == JAIL_CHOICE:
            if self.jail == "leave" and rules.why_not_pay_fine(g, seat) is None:
                return {"type": "pay_fine", "seat": seat}
            return {"type": "stay", "seat": seat}
        raise AssertionError(f"no decision for phase {ph}")


class RandomPolicy(HeuristicPolicy):
    """Uniform among legal actions, favouring each phase's main action so games progress."""

    name = "random"

    def __init__(self, jail: str = "leave", rng: random.Random | None = None, main_weight: float = 0.75,
                 timeout_rate: float = 0.01):
        super().__init__(jail)
        self.rng = rng or random.Random(0)
        self.main_weight = main_weight
        self._claim_choice: dict = {}
        self.timeout_rate = timeout_rate

    def manage(self, rules, g: GameState, seat: int) -> list:
        rng = self.rng
        if g.in_jail[seat] and g.phase == PRE_ROLL and self.jail == "leave":
            out = super().manage(rules, g, seat)
            if out:
                return out
        if rng.random() < self.main_weight:
            return []
        acts = [a for a in enumerate_actions(rules, g)
                if a.get("seat") == seat and a["type"] not in ("roll", "end_turn", "timeout", "surrender")]
        builds = [a for a in acts if a["type"] in ("build_house", "build_hotel", "unmortgage")]
        if builds and rng.random() < 0.7:
            return [rng.choice(builds)]
        return [rng.choice(acts)] if acts else []

    def wants_buy(self, rules, g, seat, square) -> bool:
        return self.rng.random() < 0.7

    def claims_rent(self, rules, g, claim) -> bool:
        """Decide once per claim; one in five is forgotten (and lapses at its deadline)."""
        key = (id(g), tuple(claim))
        if key not in self._claim_choice:
            self._claim_choice[key] = self.rng.random() < 0.8
        return self._claim_choice[key]

    def bid(self, rules, g, seat) -> int | None:
        low = rules.min_bid(g)
        if self.rng.random() < 0.5 and rules.why_not_bid(g, seat, low) is None:
            return low
        return None

    def raise_cash(self, rules, g, seat, amount):
        acts = [a for a in enumerate_actions(rules, g) if a.get("seat") == seat and a["type"] in (
            "sell_house", "sell_hotel", "sell_group", "mortgage")]
        return self.rng.choice(acts) if acts else None

    def decide(self, rules, g, seat, rng):
        acts = [a for a in enumerate_actions(rules, g) if a.get("seat") == seat and a["type"] in (
            "pay_tax", "casino_bet", "casino_decline", "bus", "move_to", "pay_fine", "use_card", "stay")]
        return self.rng.choice(acts)

    def times_out(self, rules, g, seat) -> bool:
        return self.rng.random() < self.timeout_rate


def make_policies(kind: str, players: int, jail: str, seed: int) -> list:
    if kind == "heuristic":
        return [HeuristicPolicy(jail) for _ in range(players)]
    if kind == "random":
        return [RandomPolicy(jail, random.Random(seed * 7919 + i)) for i in range(players)]
    raise ValueError(f"unknown policy {kind!r}")


POLICIES = ("heuristic", "random")
__all__ = ["HeuristicPolicy", "RandomPolicy", "make_policies", "POLICIES", "JAIL_STRATEGIES"]
