"""Tables built from the config, setup of a new game, the shared helpers (rent, worth, levels) and
money movements.

A mixin of ``Rules`` (see ``verify.engine.rules``): methods read the tables ``RulesBase``
builds and change a ``GameState`` in place.
"""

from __future__ import annotations

import random

from .common import _r, EngineConfig, GameError, GameState, POT_KINDS, PRE_ROLL, UNLIMITED


class RulesBase:
    """Tables, setup and shared helpers (the base of ``Rules``)."""

    def __init__(self, cfg: EngineConfig):
        self.cfg = cfg
        b = cfg.board
        self.kind = list(b.squares)
        self.ownable = b.ownable
        self.is_ownable = [False] * 40
        self.price = [0] * 40
        self.rents = [()] * 40
        self.house_cost = [0] * 40
        self.mortgage_value = [0] * 40
        self.group_of = [-1] * 40
        self.groups = [g.squares for g in b.groups]
        self.group_kind = [g.kind for g in b.groups]
        for d in b.deeds:
            s = d.square
            self.is_ownable[s] = True
            self.price[s], self.rents[s], self.house_cost[s] = d.price, d.rents, d.house_cost
            self.mortgage_value[s], self.group_of[s] = d.mortgage, d.group
        self.street_squares = tuple(d.square for d in b.deeds if d.kind == "street")
        self.street_groups = tuple(i for i, k in enumerate(self.group_kind) if k == "street")
        self.street_group_squares = tuple(self.groups[i] for i in self.street_groups)
        self.stations = tuple(d.square for d in b.deeds if d.kind == "station")
        self.utilities = tuple(d.square for d in b.deeds if d.kind == "utility")
        self.next_of = {k: [self._nearest(s, sq) for s in range(40)]
                        for k, sq in (("station", self.stations), ("utility", self.utilities))}
        self.cards = {"chance": {c.id: c for c in cfg.cards.chance},
                      "chest": {c.id: c for c in cfg.cards.chest}}
        self.card_squares = set(b.chance_squares) | set(b.chest_squares)
        m, j, bu, mo, r, t = cfg.movement, cfg.jail, cfg.building, cfg.mortgage, cfg.rent, cfg.taxes
        self.salary = m.go_salary
        self.max_houses = bu.max_houses
        self.hotel_level = bu.hotel_threshold + 1   # a hotel stands one level above the houses it needs
        self.threshold = bu.hotel_threshold
        self.sell_ratio = bu.sell_ratio
        self.pot_on = t.free_parking_pot
        self.pot_kinds = POT_KINDS | {"card"} if t.pot_card_payments else POT_KINDS
        self.explicit_pay = cfg.debt.explicit_payment_step
        self.sec_per_turn = cfg.clock.seconds_per_turn / 60.0
        self.speed_on = cfg.speed_die.enabled
        self.limit_end = cfg.end.condition in ("time_limit", "round_limit")
        self.first_round_buy = cfg.purchase.first_round
        rc = cfg.rent
        self.must_claim = rc.owner_must_claim and rc.claim_deadline != "automatic"
        # a claim lapses at the first roll made this many player-turns after the landing (0: counted from
        # the owner's seat, see _claim_turns)
        self.claim_turns = {"before_second_next_roll": 2, "before_second_after_owner_rolls": 0}.get(
            rc.claim_deadline, 1)
        # dice.count counts the speed die when it is in the game
        self.white = m.dice_count - 1 if self.speed_on and m.dice_count >= 3 else m.dice_count
        sd = cfg.speed_die   # speed die faces 1..pip_faces are pips, then Mr. Monopoly, then the Bus
        self.pip_faces, self.mr_faces_top = sd.pip_faces, sd.pip_faces + sd.mr_monopoly_faces
        self.salary_once = m.salary_once_per_turn
        self.teams_on = cfg.teams.enabled
        self.secs_timeout = (cfg.clock.turn_seconds or cfg.clock.seconds_per_turn) / 60.0
        self.interest = [_r((self.price[s] if mo.interest_base == "price" else self.mortgage_value[s])
                            * mo.interest_rate) for s in range(40)]
        self.transfer_interest = [_r((self.price[s] if cfg.debt.transfer_interest_base == "price"
                                      else self.mortgage_value[s]) * mo.interest_rate) for s in range(40)]
        self.sell_house_value = [_r(c * bu.sell_ratio) for c in self.house_cost]
        # lifting a just-received mortgage at once costs the principal alone (the receipt interest was it)
        self.lift_at_once = mo.transfer_interest and mo.transfer_lift_at_once == "principal_only"
        # a custom table may get the bank's building stock wrong (negative examples for the checks)
        self.sold_vanish = bu.supply_accounting == "sold_buildings_vanish"
        self.builds_free = bu.supply_accounting == "builds_not_taken_from_stock"
        del m, j, r

    def _nearest(self, start: int, squares) -> int:
        for k in range(1, 41):
            s = (start + k) % 40
            if s in squares:
                return s
        return -1

    def new_game(self, players: int, rng: random.Random) -> GameState:
        cfg = self.cfg
        if not cfg.setup.players_min <= players <= cfg.setup.players_max:
            raise GameError(f"this ruleset is played by {cfg.setup.players_min} to "
                            f"{cfg.setup.players_max} players, not {players}")
        g = GameState.__new__(GameState)
        n = g.n = players
        if self.teams_on:
            size = max(1, cfg.teams.size)
            if players % size:
                raise GameError(f"teams of {size} need a multiple of {size} players, not {players}")
            nteams = players // size
            g.team = [i % nteams for i in range(n)]
        else:
            g.team = [None] * n
        g.cash = [cfg.setup.starting_cash] * n
        g.pos = [0] * n
        g.in_jail = [False] * n
        g.jail_turns = [0] * n
        g.jail_cards = [[] for _ in range(n)]
        g.bankrupt = [False] * n
        g.doubles = [0] * n
        g.passed_go = [False] * n
        g.missed = [0] * n
        g.owner = [-1] * 40
        g.mortgaged = [False] * 40
        g.houses = [0] * 40
        g.hotel = [False] * 40
        g.mortgage_rounds = [0] * 40
        g.interest_paid = [False] * 40
        g.bank_houses = UNLIMITED if cfg.building.house_supply is None else cfg.building.house_supply
        g.bank_hotels = UNLIMITED if cfg.building.hotel_supply is None else cfg.building.hotel_supply
        g.bank_cash = 0
        g.pot = 0
        g.jackpot = cfg.casino.jackpot_start if cfg.casino.enabled else 0
        g.bank_cash -= g.jackpot
        g.chance = [c.id for c in cfg.cards.chance]
        g.chest = [c.id for c in cfg.cards.chest]
        if cfg.setup.shuffle_decks:
            rng.shuffle(g.chance)
            rng.shuffle(g.chest)
        g.chance_discards, g.chest_discards = [], []
        g.seed = rng.getrandbits(32)
        g.shuffles = 0
        g.round = 0
        g.minute = 0.0
        g.phase = PRE_ROLL
        g.stage = "pre"
        g.pending = None
        g.debts, g.auctions, g.claims = [], [], []
        g.player_turns = 0
        g.winner = None
        g.result = None
        g.rolled, g.dice, g.trades = False, (), 0
        g.built_streets, g.built_groups, g.timed_out = set(), set(), False
        g.received = {}
        g.reset_move()
        g.events = None
        g.landings = None
        g.ov = [0] * n
        g.current = 0
        if cfg.setup.first_player == "highest_roll":
            g.current = self._highest_roll(n, rng)
        self._deal(g, rng)
        return g

    def _highest_roll(self, n: int, rng: random.Random) -> int:
        seats = list(range(n))
        while len(seats) > 1:
            rolls = {s: rng.randint(1, 6) + rng.randint(1, 6) for s in seats}
            best = max(rolls.values())
            seats = [s for s in seats if rolls[s] == best]
        return seats[0]

    def _deal(self, g: GameState, rng: random.Random) -> None:
        self._touch_all(g)
        st = self.cfg.setup
        if not st.dealt_all and st.dealt_per_player <= 0:
            return
        deeds = list(self.ownable)
        rng.shuffle(deeds)
        count = len(deeds) // g.n if st.dealt_all else min(st.dealt_per_player, len(deeds) // g.n)
        for k in range(count * g.n):
            s = deeds[k]
            p = (g.current + k) % g.n
            g.owner[s] = p
            if st.dealt_paid:
                g.cash[p] -= self.price[s]
                g.bank_cash += self.price[s]

    def alive(self, g: GameState) -> list[int]:
        return [i for i in range(g.n) if not g.bankrupt[i]]

    def same_team(self, g: GameState, a: int, b: int) -> bool:
        return self.teams_on and a != b and g.team[a] == g.team[b]

    def speed_active(self, g: GameState, p: int) -> bool:
        sd = self.cfg.speed_die
        if not sd.enabled:
            return False
        if sd.activation == "after_first_pass_go":
            return g.passed_go[p]
        return g.round + 1 >= sd.activation_round

    def dice_needed(self, g: GameState) -> int:
        """How many dice the current player rolls now (a speed die is the last one)."""
        p = g.current
        n = self.white
        if self.speed_on and self.speed_active(g, p) and not (g.in_jail[p] and self.cfg.speed_die.jail_white_only):
            n += 1
        return n

    def level(self, g: GameState, s: int) -> int:
        return self.hotel_level if g.hotel[s] else g.houses[s]

    def owns_group(self, g: GameState, p: int, grp: int) -> bool:
        owner = g.owner
        for s in self.groups[grp]:
            if owner[s] != p:
                return False
        return True

    def group_has_buildings(self, g: GameState, grp: int) -> bool:
        for s in self.groups[grp]:
            if g.houses[s] or g.hotel[s]:
                return True
        return False

    def building_value(self, g: GameState, s: int, hotel_houses: bool = True) -> int:
        """What the buildings on a street cost to put up (a hotel counts the houses given for it, unless
        ``hotel_houses`` is false: then a hotel is worth its own price)."""
        c = self.house_cost[s]
        if g.hotel[s]:
            extra = self.threshold if hotel_houses and self.cfg.building.hotel_returns_houses else 0
            return c * (1 + extra + g.houses[s])
        return c * g.houses[s]

    def building_sale(self, g: GameState, s: int) -> int:
        """Cash from selling every building on a street back to the bank."""
        v = self.sell_house_value[s]
        if g.hotel[s]:
            extra = self.threshold if self.cfg.building.hotel_returns_houses else 0
            return v * (1 + extra + g.houses[s])
        return v * g.houses[s]

    def raisable(self, g: GameState, p: int) -> int:
        """Cash the player could have after selling every building and mortgaging everything."""
        total = g.cash[p]
        owner = g.owner
        houses, hotel, mortgaged = g.houses, g.hotel, g.mortgaged
        for s in self.ownable:
            if owner[s] == p:
                if houses[s] or hotel[s]:
                    total += self.building_sale(g, s)
                if not mortgaged[s]:
                    total += self.mortgage_value[s]
        return total

    def net_worth(self, g: GameState, p: int) -> int:
        e = self.cfg.end
        total = g.cash[p]
        for s in self.ownable:
            if g.owner[s] == p:
                total += _r(self.price[s] * e.networth_mortgaged) if g.mortgaged[s] else self.price[s]
                total += _r(self.building_value(g, s) * e.networth_buildings)
        return total

    def tax_worth(self, g: GameState, p: int) -> int:
        t = self.cfg.taxes
        hotel_houses = t.worth_hotel == "price_and_converted_houses"
        total = g.cash[p]
        for s in self.ownable:
            if g.owner[s] == p:
                if g.mortgaged[s] and not t.worth_counts_mortgaged_at_printed:
                    total += self.price[s] - self.mortgage_value[s]
                else:
                    total += self.price[s]
                total += self.building_value(g, s, hotel_houses)
        return total

    def rent_tax_rate(self, g: GameState) -> float:
        r = self.cfg.rent
        if not r.tax_enabled or r.tax_start_minute is None or g.minute < r.tax_start_minute:
            return 0.0
        steps = int((g.minute - r.tax_start_minute) // r.tax_step_minutes)
        return min(r.tax_max_rate, r.tax_initial_rate + steps * r.tax_step_rate)

    def salary_paid_now(self, g: GameState) -> bool:
        stop = self.cfg.movement.salary_stop_minute
        return stop is None or g.minute < stop

    def unmortgage_cost(self, g: GameState, s: int) -> int:
        if g.received and g.received.get(s) == g.owner[s]:
            return self.mortgage_value[s]     # lifted at once on receipt: the receipt interest was the interest
        again = self.cfg.mortgage.transfer_unmortgage_pays_interest_again
        interest = 0 if (g.interest_paid[s] and not again) else self.interest[s]
        return self.mortgage_value[s] + interest

    def receive_mortgaged(self, g: GameState, s: int, receiver: int, interest: int, queued: bool = False) -> None:
        """``receiver`` takes over mortgaged deed ``s``: the transfer interest is due to the bank at once
        (``mortgage.transfer_interest``; ``queued``: behind the debts already open, as in a bankruptcy);
        where lifting at once then costs the principal alone, the deed is marked until the next roll or
        the end of the turn."""
        g.interest_paid[s] = True
        if self.lift_at_once:
            g.received[s] = receiver
        if queued:
            g.debts.append([receiver, -1, interest, interest, "interest"])
        else:
            self.charge(g, receiver, -1, interest, "interest")

    def rent(self, g: GameState, s: int, payer: int) -> int:
        """Rent the payer owes on square s now (0 when none is due)."""
        o = g.owner[s]
        if o < 0 or o == payer:
            return 0
        cfg = self.cfg
        rc = cfg.rent
        if g.mortgaged[s] and not rc.mortgaged_collects:
            return 0
        if g.in_jail[o] and not rc.jailed_owner_collects:
            return 0
        if self.teams_on and g.team[o] == g.team[payer] and not cfg.teams.teammates_pay_rent:
            return 0
        k = self.kind[s]
        if k == "street":
            if g.hotel[s]:
                return self.rents[s][5]
            h = g.houses[s]
            if h:
                return self.rents[s][h]
            base = self.rents[s][0]
            grp = self.groups[self.group_of[s]]
            owner = g.owner
            for t in grp:
                if owner[t] != o:
                    return base
            if not rc.group_bonus_with_buildings:
                for t in grp:
                    if g.houses[t] or g.hotel[t]:
                        return base
            if not rc.group_bonus_with_mortgaged_mate:
                for t in grp:
                    if g.mortgaged[t]:
                        return base
            return base * rc.group_multiplier
        owner = g.owner
        if k == "station":
            count = sum(1 for t in self.stations if owner[t] == o)
            return rc.station_schedule[count - 1] * g.rent_factor
        count = sum(1 for t in self.utilities if owner[t] == o)
        mult = g.util_mult or rc.utility_multipliers[count - 1]
        return mult * sum(g.dice[:self.white])

    def _ev(self, g: GameState, **kw) -> None:
        g.events.append(kw)

    def _to_player(self, g: GameState, p: int, amount: int) -> None:
        g.cash[p] += amount
        g.bank_cash -= amount

    def charge(self, g: GameState, debtor: int, creditor: int, amount: int, kind: str, share: int | None = None):
        """A payment the debtor owes; settled at once when possible, else queued as a debt."""
        if amount <= 0:
            return
        d = [debtor, creditor, amount, amount if share is None else share, kind]
        if not self.explicit_pay and not g.debts and g.cash[debtor] >= amount:
            self._settle(g, d)
        else:
            g.debts.append(d)

    def _settle(self, g: GameState, d: list) -> None:
        debtor, creditor, amount, share, kind = d
        g.cash[debtor] -= amount
        if creditor >= 0 and not g.bankrupt[creditor]:
            g.cash[creditor] += share
            rest = amount - share
        else:
            rest = amount
        if rest:
            if self.pot_on and kind in self.pot_kinds:
                g.pot += rest
            else:
                g.bank_cash += rest
        if g.events is not None:
            self._ev(g, event="paid", debtor=debtor, creditor=creditor, amount=amount, kind=kind,
                     to_creditor=share if creditor >= 0 else 0)
