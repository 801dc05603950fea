"""Houses and hotels: full groups, even building and selling, per-turn limits, timing, supply and
shortages, hotels broken down.

A mixin of ``Rules`` (see ``verify.engine.rules``): methods read the tables ``RulesBase``
builds and change a ``GameState`` in place.
"""

from __future__ import annotations

from .common import DEBT, GameState, MANAGE_PHASES, POST_ROLL, PRE_ROLL


class BuildingRules:
    """Houses and hotels (a mixin of ``Rules``)."""

    def _manage_window(self, g: GameState, seat: int, timing: str, raises_cash: bool = False) -> str | None:
        """Whether ``seat`` may manage property now. Under ``before_roll_own_turn`` timing the one
        exception is a debtor raising cash (selling, mortgaging); building or lifting a mortgage
        while a debt is open waits for the next turn."""
        if g.bankrupt[seat]:
            return "bankrupt"
        ph = g.phase
        if ph not in MANAGE_PHASES:
            return f"not in phase {ph}"
        if ph == DEBT and g.pending["debtor"] != seat:
            return "only the debtor acts while a debt is open"
        if timing == "before_roll_own_turn" or self.cfg.clock.manage_before_roll_only:
            if seat != g.current or ph != PRE_ROLL:
                if not (raises_cash and ph == DEBT and g.pending["debtor"] == seat):
                    return "only before rolling in one's own turn"
        if g.in_jail[seat] and not self.cfg.jail.may_manage:
            return "a jailed player may not manage property"
        return None

    def _build_guard(self, g: GameState, seat: int, s: int, price: int | None = None) -> str | None:
        """Ownership, full group, mortgages, per-turn limits, cash for ``price`` (the house cost
        unless a shortage auction set it): shared by houses and hotels."""
        bu = self.cfg.building
        if not (0 <= s < 40) or self.kind[s] != "street":
            return "only streets carry buildings"
        if g.owner[s] != seat:
            return "not the owner"
        if bu.requires_full_group and not self.owns_group(g, seat, self.group_of[s]):
            return "the whole colour group is needed"
        why = self._street_blocked(g, s)
        if why:
            return why
        if g.cash[seat] < (self.house_cost[s] if price is None else price):
            return "not enough cash"
        return None

    def _street_blocked(self, g: GameState, s: int) -> str | None:
        """What stops the owner of a street they may build on (see ``_build_guard``) from building there
        now: mortgages, the per-turn limits."""
        bu = self.cfg.building
        if g.mortgaged[s]:
            return "the street is mortgaged"
        grp = self.group_of[s]
        if bu.blocked_by_mortgage:
            for t in self.groups[grp]:
                if g.mortgaged[t]:
                    return "a street of the group is mortgaged"
        if bu.per_turn_limit == "one_level_per_street" and s in g.built_streets:
            return "one level per street per turn"
        if bu.per_turn_limit == "one_per_group" and grp in g.built_groups:
            return "one building per group per turn"
        return None

    def _house_ok(self, g: GameState, seat: int, s: int, price: int | None = None) -> str | None:
        why = self._build_guard(g, seat, s, price)
        if why:
            return why
        bu = self.cfg.building
        if g.hotel[s]:
            return "the street has a hotel"
        if g.houses[s] >= self.max_houses:
            return f"at most {self.max_houses} houses"
        if bu.even_build:
            h = g.houses[s]
            for t in self.groups[self.group_of[s]]:
                if t != s and self.level(g, t) < h:
                    return "build evenly"
        return None

    def _hotel_ok(self, g: GameState, seat: int, s: int, price: int | None = None) -> str | None:
        why = self._build_guard(g, seat, s, price)
        if why:
            return why
        bu = self.cfg.building
        if g.hotel[s]:
            return "the street already has a hotel"
        if g.houses[s] < self.threshold:
            return f"a hotel needs {self.threshold} houses"
        if bu.hotel_needs_whole_group:
            for t in self.groups[self.group_of[s]]:
                if not g.hotel[t] and g.houses[t] < self.threshold:
                    return f"every street of the group needs {self.threshold} houses first"
        if bu.even_build:   # a hotel is one level above the houses it needs (as the even-build invariant says)
            for t in self.groups[self.group_of[s]]:
                if t != s and self.level(g, t) < self.hotel_level - 1:
                    return "build evenly: a hotel is one level above the houses it needs"
        return None

    def _can_build_somewhere(self, g: GameState, seat: int, item: str) -> bool:
        test = self._house_ok if item == "house" else self._hotel_ok
        return any(test(g, seat, s) is None for s in self.street_squares if g.owner[s] == seat)

    def _shortage(self, g: GameState, item: str) -> bool:
        """The item is short, so it goes to auction (``building.shortage_trigger``): more players could
        build than the bank has left; or the bank has one left and several could build; or two or more
        could build and together want more than the bank has."""
        bu = self.cfg.building
        if not bu.shortage_auction or not self.shortage_possible(g):
            return False
        stock = g.bank_houses if item == "house" else g.bank_hotels
        trigger = bu.shortage_trigger
        if trigger == "more_wanted_than_stock":
            wanting, wanted = self._demand(g, item)
            return wanting >= 2 and wanted > stock
        wanting = sum(1 for q in range(g.n) if not g.bankrupt[q] and self._can_build_somewhere(g, q, item))
        if trigger == "more_players_than_stock":
            return wanting > stock
        return stock == 1 and wanting >= 2      # last_one_wanted_by_several

    def shortage_possible(self, g: GameState) -> bool:
        """A cheap bound: could a build now be short at all? (the bots also use it to try a street only
        once a turn while a shortage auction may run)"""
        bu = self.cfg.building
        if not bu.shortage_auction:
            return False
        trigger = bu.shortage_trigger
        if trigger == "more_players_than_stock":
            return g.bank_houses < g.n or g.bank_hotels < g.n
        if trigger == "last_one_wanted_by_several":
            return g.bank_houses == 1 or g.bank_hotels == 1
        # more_wanted_than_stock: two owners of whole groups, whose groups could take more than is left
        streets, several = self._whole_groups(g)
        if not several:
            return False
        houses, hotel = g.houses, g.hotel
        levels = [houses[t] for t in streets if not hotel[t]]      # the streets that could take more
        return self.max_houses * len(levels) - sum(levels) > g.bank_houses or len(levels) > g.bank_hotels

    _whole_seen: tuple = ((), ((), False))

    def _whole_groups(self, g: GameState) -> tuple[tuple[int, ...], bool]:
        """(the streets of the colour groups someone owns whole, whether two or more players own one): a
        function of the owner column alone, remembered for the last column seen, as deeds change hands
        far more rarely than building is decided."""
        key = tuple(g.owner)
        seen = self._whole_seen
        if seen[0] == key:
            return seen[1]
        owner = g.owner
        streets: list[int] = []
        first, several = -1, False
        for squares in self.street_group_squares:
            o = owner[squares[0]]
            if o < 0:
                continue
            for t in squares:
                if owner[t] != o:
                    break
            else:
                if first < 0:
                    first = o
                elif o != first:
                    several = True
                streets.extend(squares)
        whole = (tuple(streets), several)
        self._whole_seen = (key, whole)
        return whole

    def _demand(self, g: GameState, item: str) -> tuple[int, int]:
        """(players who could put up the item now, how many they could put up in all): each player wants
        what the streets they may build on still take (houses: the free levels below the limit; hotels:
        the streets with the houses a hotel needs), as far as their cash pays."""
        n, owner, houses, hotel, bankrupt = g.n, g.owner, g.houses, g.hotel, g.bankrupt
        slots, cheapest = [0] * n, [0] * n
        # the streets their owners may build on (where a whole group is needed, its streets): what else
        # the build guard asks is whether the street is blocked now
        candidates = self._whole_groups(g)[0] if self.cfg.building.requires_full_group else self.street_squares
        for s in candidates:
            q = owner[s]
            if q < 0 or hotel[s] or bankrupt[q]:
                continue
            k = self.max_houses - houses[s] if item == "house" else int(houses[s] >= self.threshold)
            if k <= 0 or self._street_blocked(g, s) is not None:
                continue
            slots[q] += k
            c = self.house_cost[s]
            if not cheapest[q] or c < cheapest[q]:
                cheapest[q] = c
        wanting = wanted = 0
        for q in range(n):
            if cheapest[q]:
                w = min(slots[q], g.cash[q] // cheapest[q])
                if w > 0:
                    wanting += 1
                    wanted += w
        return wanting, wanted

    def why_not_build_house(self, g: GameState, seat: int, s) -> str | None:
        why = self._manage_window(g, seat, self.cfg.building.timing)
        if why:
            return why
        if g.bank_houses <= 0:
            return "the bank has no houses left"
        return self._house_ok(g, seat, s)

    def build_house(self, g: GameState, seat: int, s: int) -> None:
        if g.phase in (PRE_ROLL, POST_ROLL) and self._shortage(g, "house"):
            self._building_auction(g, s, "house")
            return
        self._put_house(g, seat, s, self.house_cost[s])

    def _put_house(self, g: GameState, seat: int, s: int, price: int) -> None:
        g.cash[seat] -= price
        g.bank_cash += price
        g.houses[s] += 1
        self._stock_out(g, 1, 0)
        g.built_streets.add(s)
        g.built_groups.add(self.group_of[s])
        if g.events is not None:
            self._ev(g, event="built", player=seat, square=s, item="house", price=price)

    def why_not_build_hotel(self, g: GameState, seat: int, s) -> str | None:
        why = self._manage_window(g, seat, self.cfg.building.timing)
        if why:
            return why
        if g.bank_hotels <= 0:
            return "the bank has no hotels left"
        return self._hotel_ok(g, seat, s)

    def build_hotel(self, g: GameState, seat: int, s: int) -> None:
        if g.phase in (PRE_ROLL, POST_ROLL) and self._shortage(g, "hotel"):
            self._building_auction(g, s, "hotel")
            return
        self._put_hotel(g, seat, s, self.house_cost[s])

    def _put_hotel(self, g: GameState, seat: int, s: int, price: int) -> None:
        g.cash[seat] -= price
        g.bank_cash += price
        g.hotel[s] = True
        self._stock_out(g, 0, 1)
        if self.cfg.building.hotel_returns_houses:
            self._stock_back(g, g.houses[s], 0)
            g.houses[s] = 0
        g.built_streets.add(s)
        g.built_groups.add(self.group_of[s])
        if g.events is not None:
            self._ev(g, event="built", player=seat, square=s, item="hotel", price=price)

    def _building_auction(self, g: GameState, s: int, item: str) -> None:
        """A shortage: the building goes to the highest bidder among everyone who could build."""
        pu = self.cfg.purchase
        opening = self.house_cost[s] if pu.opening == "printed_price" else pu.opening_amount
        self._interrupt_with_auction(g, [s, item, opening, -1, False, -1])

    def _place_won_building(self, g: GameState, seat: int, item: str) -> None:
        """The winner of a shortage auction builds on their least developed street, paying the bid
        instead of the house cost (the bid, taken when the auction closed, is charged again by _put_*)."""
        price = g.pending["high"]
        g.cash[seat] += price
        g.bank_cash -= price
        test = self._house_ok if item == "house" else self._hotel_ok
        target = -1
        for s in self.street_squares:
            if g.owner[s] == seat and test(g, seat, s, price) is None and (
                    target < 0 or self.level(g, s) < self.level(g, target)):
                target = s
        if target < 0:  # cannot place it after all: the bid stays refunded
            return
        if item == "house":
            self._put_house(g, seat, target, price)
        else:
            self._put_hotel(g, seat, target, price)

    def _sell_window(self, g: GameState, seat: int) -> str | None:
        return self._manage_window(g, seat, self.cfg.building.sell_timing, raises_cash=True)

    def why_not_sell_house(self, g: GameState, seat: int, s) -> str | None:
        why = self._sell_window(g, seat)
        if why:
            return why
        if not (0 <= s < 40) or g.owner[s] != seat or self.kind[s] != "street":
            return "not the owner"
        if g.houses[s] <= 0 or (g.hotel[s] and self.cfg.building.hotel_returns_houses):
            return "no house to sell"
        if self.cfg.building.even_sell:
            h = g.houses[s]
            for t in self.groups[self.group_of[s]]:
                if t != s and self.level(g, t) > h:
                    return "sell evenly"
        return None

    def sell_house(self, g: GameState, seat: int, s: int) -> None:
        v = self.sell_house_value[s]
        g.houses[s] -= 1
        self._stock_back(g, 1, 0)
        g.cash[seat] += v
        g.bank_cash -= v
        if g.events is not None:
            self._ev(g, event="sold", player=seat, square=s, item="house", amount=v)
        self._after_raise(g)

    def why_not_sell_hotel(self, g: GameState, seat: int, s) -> str | None:
        why = self._sell_window(g, seat)
        if why:
            return why
        if not (0 <= s < 40) or g.owner[s] != seat or not g.hotel[s]:
            return "no hotel to sell"
        back = self.threshold if self.cfg.building.hotel_returns_houses else 0
        if g.bank_houses < back:
            return f"breaking a hotel down needs {back} houses from the bank (sell the group's buildings instead)"
        return None

    def sell_hotel(self, g: GameState, seat: int, s: int) -> None:
        """Break the hotel down: the street holds the houses a hotel needs again (hotel_threshold; a hotel
        stands for those houses and itself, as its building value and the even-build levels say)."""
        back = self.threshold if self.cfg.building.hotel_returns_houses else 0
        v = self.sell_house_value[s]
        g.hotel[s] = False
        self._stock_back(g, 0, 1)
        g.houses[s] += back
        self._stock_out(g, back, 0)
        g.cash[seat] += v
        g.bank_cash -= v
        if g.events is not None:
            self._ev(g, event="sold", player=seat, square=s, item="hotel", amount=v)
        self._after_raise(g)

    def why_not_sell_group(self, g: GameState, seat: int, grp) -> str | None:
        why = self._sell_window(g, seat)
        if why:
            return why
        if not isinstance(grp, int) or not 0 <= grp < len(self.groups):
            return "no such group"
        squares = self.groups[grp]
        if not any(g.owner[s] == seat and (g.houses[s] or g.hotel[s]) for s in squares):
            return "no buildings of this player in the group"
        if any(g.owner[s] != seat and (g.houses[s] or g.hotel[s]) for s in squares):
            return "the group has another owner's buildings"
        return None

    def sell_group(self, g: GameState, seat: int, grp: int) -> None:
        """Sell every building of a group back at once (keeps the group even)."""
        v = self._clear_group(g, grp)
        g.cash[seat] += v
        g.bank_cash -= v
        if g.events is not None:
            self._ev(g, event="sold", player=seat, group=grp, item="group", amount=v)
        self._after_raise(g)

    def _after_raise(self, g: GameState) -> None:
        pass
