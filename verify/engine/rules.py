"""The rules: one implementation of every rule the engine plays, over a ``GameState``.

``Rules(config)`` precomputes flat tables from an ``EngineConfig`` (square
kinds, prices, rents, nearest station/utility, ...) and exposes two kinds of
methods used by both the step API (``step.py``) and the fast simulator
(``simulate.py``):

* ``why_not_<action>(g, ...)``: the refusal reason, or ``None`` when the
  action is legal (the guard);
* ``<action>(g, ...)``: perform it, assuming the guard passed (the transition).

A move is resolved until a decision is needed; the state then waits in a
phase (``buy``, ``auction``, ``debt``, ...) with ``pending`` describing the
decision. Randomness never happens here: dice, casino draws and the jackpot
draw arrive inside actions, and a deck reshuffle uses a generator seeded from
the state (``seed`` and the shuffle count), so a state plus an action always
gives the same successor.
"""

from __future__ import annotations

import random

from ..errors import GameError
from .config import JAIL_SQUARE, EngineConfig
from .state import (AUCTION, BUY, CASINO, DEBT, INCOME_TAX, JAIL_CHOICE, OVER, POST_ROLL, PRE_ROLL, TRIPLES,
                    BUS, UNLIMITED, GameState)

MOVING = "moving"                       # transient: inside a move, never seen by callers
POT_KINDS = frozenset(("tax", "fine", "card"))
MANAGE_PHASES = (PRE_ROLL, POST_ROLL, BUY, DEBT)


class IllegalAction(GameError):
    """The rules refuse this action in this state (not malformed input: a rule says no)."""


def _r(x: float) -> int:
    return int(x + 0.5 + 1e-9)


_RULES: dict[int, tuple[EngineConfig, "Rules"]] = {}


def rules_for(config: EngineConfig) -> "Rules":
    """The (cached) Rules of a config; keyed by identity first, as hashing a config is not free."""
    hit = _RULES.get(id(config))
    if hit is not None and hit[0] is config:
        return hit[1]
    for cfg, rules in _RULES.values():
        if cfg == config:
            break
    else:
        rules = Rules(config)
        if len(_RULES) >= 64:
            _RULES.pop(next(iter(_RULES)))
    _RULES[id(config)] = (config, rules)
    return rules


class Rules:
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
        self.hotel_level = bu.max_houses + 1
        self.threshold = bu.hotel_threshold
        self.sell_ratio = bu.sell_ratio
        self.pot_on = t.free_parking_pot
        self.explicit_pay = cfg.debt.explicit_payment_step
        self.sec_per_turn = cfg.clock.seconds_per_turn / 60.0
        self.speed_on = cfg.speed_die.enabled
        self.limit_end = cfg.end.condition in ("time_limit", "round_limit")
        self.first_round_buy = cfg.purchase.first_round
        rc = cfg.rent
        self.must_claim = rc.owner_must_claim and rc.claim_deadline != "automatic"
        # a claim lapses at the first roll made this many player-turns after the landing
        self.claim_turns = 2 if rc.claim_deadline == "before_second_next_roll" else 1
        # dice.count counts the speed die when it is in the game
        self.white = m.dice_count - 1 if self.speed_on and m.dice_count >= 3 else m.dice_count
        self.teams_on = cfg.teams.enabled
        self.secs_timeout = (cfg.clock.turn_seconds or cfg.clock.seconds_per_turn) / 60.0
        self.interest = [_r((self.price[s] if mo.interest_base == "price" else self.mortgage_value[s])
                            * mo.interest_rate) for s in range(40)]
        self.transfer_interest = [_r((self.price[s] if cfg.debt.transfer_interest_base == "price"
                                      else self.mortgage_value[s]) * mo.interest_rate) for s in range(40)]
        self.sell_house_value = [_r(c * bu.sell_ratio) for c in self.house_cost]
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

    # ================================================================== setup
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

    # ================================================================== helpers
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

    def building_value(self, g: GameState, s: int) -> int:
        """What the buildings on a street cost to put up (a hotel counts the houses given for it)."""
        c = self.house_cost[s]
        if g.hotel[s]:
            extra = self.threshold if self.cfg.building.hotel_returns_houses else 0
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
        for s in self.ownable:
            if owner[s] == p:
                total += self.building_sale(g, s)
                if not g.mortgaged[s]:
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
        total = g.cash[p]
        for s in self.ownable:
            if g.owner[s] == p:
                if g.mortgaged[s] and not t.worth_counts_mortgaged_at_printed:
                    total += self.price[s] - self.mortgage_value[s]
                else:
                    total += self.price[s]
                total += self.building_value(g, s)
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
        again = self.cfg.mortgage.transfer_unmortgage_pays_interest_again
        interest = 0 if (g.interest_paid[s] and not again) else self.interest[s]
        return self.mortgage_value[s] + interest

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

    # ================================================================== money
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
            if self.pot_on and kind in POT_KINDS:
                g.pot += rest
            else:
                g.bank_cash += rest
        if g.events is not None:
            self._ev(g, event="paid", debtor=debtor, creditor=creditor, amount=amount, kind=kind,
                     to_creditor=share if creditor >= 0 else 0)

    # ================================================================== flow
    def _continue(self, g: GameState) -> None:
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
                if not self.explicit_pay and g.cash[d[0]] >= d[2]:
                    g.debts.pop(0)
                    self._settle(g, d)
                    continue
                g.phase = DEBT
                g.pending = {"debtor": d[0], "creditor": d[1], "amount": d[2], "kind": d[4]}
                return
            if g.auctions:
                if self._start_auction(g, g.auctions.pop(0)):
                    return
                continue
            if g.mr_pending:
                g.mr_pending = False
                self._mr_monopoly(g)
                if g.phase != MOVING:
                    return
                continue
            g.pending = None
            if g.stage == "move":
                self._after_move(g)
            elif g.bankrupt[g.current]:
                g.stage = "post"       # a bankrupt player's turn ends with its own end_turn step
                g.phase = POST_ROLL
            else:
                g.phase = PRE_ROLL if g.stage == "pre" else POST_ROLL
            return

    def _after_move(self, g: GameState) -> None:
        p = g.current
        g.stage = "post"
        if g.landings is not None and not g.bankrupt[p]:
            g.landings[g.pos[p]] += 1
        if g.bankrupt[p]:
            g.phase = POST_ROLL     # its end_turn is a step of its own
            return
        if g.reroll and not g.jailed and not g.in_jail[p]:
            g.stage = "pre"
            g.phase = PRE_ROLL
            return
        if g.jailed and self.cfg.jail.sent_ends_turn:
            self.end_turn(g)
            return
        if self.cfg.movement.turn_end == "automatic_after_square":
            self.end_turn(g)
            return
        g.phase = POST_ROLL

    def end_turn(self, g: GameState) -> None:
        p = g.current
        g.doubles[p] = 0
        g.player_turns += 1
        g.minute += self.secs_timeout if g.timed_out else self.sec_per_turn
        if not g.timed_out and not g.bankrupt[p]:
            g.missed[p] = 0
        g.rolled, g.dice, g.trades, g.timed_out = False, (), 0, False
        if g.built_streets:
            g.built_streets = set()
            g.built_groups = set()
        g.reset_move()
        g.pending = None
        if self.limit_end and self._check_end(g):
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
            self._new_round(g)
            if self.limit_end and self._check_end(g):
                return
        g.stage = "pre"
        g.phase = MOVING
        self._continue(g)

    def _new_round(self, g: GameState) -> None:
        mo = self.cfg.mortgage
        if mo.expiry_rounds is None:
            return
        self._touch_all(g)
        for s in self.ownable:
            if g.mortgaged[s] and g.owner[s] >= 0:
                g.mortgage_rounds[s] += 1
                if g.mortgage_rounds[s] >= mo.expiry_rounds:
                    former = g.owner[s]
                    g.owner[s] = -1
                    g.mortgaged[s] = False
                    g.mortgage_rounds[s] = 0
                    g.interest_paid[s] = False
                    opening = self.price[s] if mo.expiry_auction_opening is None else mo.expiry_auction_opening
                    g.auctions.append([s, "deed", opening, -1 if mo.expiry_auction_owner_bids else former,
                                       False, -1])
                    if g.events is not None:
                        self._ev(g, event="mortgage_expired", square=s, former_owner=former)

    def _check_end(self, g: GameState) -> bool:
        e = self.cfg.end
        live = [i for i in range(g.n) if not g.bankrupt[i]]
        sides = {g.team[i] if self.teams_on else i for i in live}
        winner = None
        if len(sides) <= 1 and (e.condition == "last_standing" or e.last_standing_also
                                or e.condition == "first_bankruptcy"):
            winner = max(live, key=lambda i: (self.net_worth(g, i), -i)) if live else None
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
            winner = max(live, key=lambda i: (self.net_worth(g, i), -i))
        g.phase = OVER
        g.pending = None
        g.winner = winner
        g.result = result
        if g.events is not None:
            self._ev(g, event="game_over", winner=winner, result=result)
        return True

    # ================================================================== rolling and moving
    def why_not_roll(self, g: GameState, seat: int, dice) -> str | None:
        if g.phase != PRE_ROLL:
            return f"cannot roll in phase {g.phase}"
        if seat != g.current:
            return "only the current player rolls"
        need = self.dice_needed(g)
        if not isinstance(dice, (list, tuple)) or len(dice) != need or not all(
                isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
            return f"roll needs {need} dice, each 1..6"
        return None

    def roll(self, g: GameState, dice) -> None:
        p = g.current
        if g.claims:
            self._expire_claims(g)
        g.phase = MOVING
        g.stage = "move"
        g.rolled = True
        g.dice = dice = tuple(dice)
        g.salary_paid = g.mr_pending = g.no_auction = g.jailed = g.reroll = False
        g.rent_factor, g.util_mult = 1, 0
        if g.events is not None:
            self._ev(g, event="rolled", player=p, dice=list(dice))
        if g.timed_out is False:
            g.missed[p] = 0
        if g.in_jail[p]:
            self._jail_roll(g, p, dice)
            if g.phase == MOVING:
                self._continue(g)
            return
        mv = self.cfg.movement
        n = self.white
        d1 = dice[0]
        if n == 2:
            d2 = dice[1]
            doubles = d1 == d2
            steps = d1 + d2
        else:
            doubles = n >= 2 and d1 == dice[1]
            steps = sum(dice[:n])
        special = 0
        if len(dice) > n:
            sp = dice[n]
            sd = self.cfg.speed_die
            if sp <= 3:
                if n >= 2 and d1 == dice[1] == sp:
                    doubles = sd.triples_count_as_doubles
                    special = 3
                elif not sd.doubles_white_only and not doubles and (d1 == sp or dice[1] == sp):
                    doubles = True
                steps += sp
            elif sp <= 5:
                g.mr_pending = True
            else:
                special = 6
        if doubles:
            g.doubles[p] += 1
            if mv.doubles_to_jail is not None and g.doubles[p] >= mv.doubles_to_jail:
                if mv.last_double_moves:
                    self._advance(g, p, steps)
                g.mr_pending = False
                self.send_to_jail(g, p)
                self._continue(g)
                return
            g.reroll = mv.doubles_roll_again
        else:
            g.doubles[p] = 0
        if special == 3:
            g.phase = TRIPLES
            g.pending = {"player": p}
            return
        if special == 6:
            g.phase = BUS
            g.pending = {"player": p, "options": sorted({d1, dice[1], d1 + dice[1]})}
            return
        self._advance(g, p, steps)
        self._land(g, p)
        if g.phase == MOVING:
            self._continue(g)

    def _advance(self, g: GameState, p: int, steps: int) -> None:
        """Move forward, paying the GO salary for passing or landing as the rules say."""
        new = g.pos[p] + steps
        if new >= 40:
            new -= 40
            g.passed_go[p] = True
            mv = self.cfg.movement
            if new == 0:
                pay = (self.salary if mv.salary_on_landing else 0) + mv.exact_landing_bonus
            else:
                pay = self.salary if mv.salary_on_pass else 0
            if pay and self.salary_paid_now(g) and not (g.salary_paid and not mv.pass_then_card_pays_twice):
                self._to_player(g, p, pay)
                g.salary_paid = True
                if g.events is not None:
                    self._ev(g, event="salary", player=p, amount=pay)
        g.pos[p] = new

    def _move_to(self, g: GameState, p: int, square: int) -> None:
        steps = (square - g.pos[p]) % 40
        if steps == 0 and square == 0 and g.pos[p] == 0:
            steps = 40
        self._advance(g, p, steps)

    def send_to_jail(self, g: GameState, p: int) -> None:
        j = self.cfg.jail
        if j.sent_collects_salary and g.pos[p] > JAIL_SQUARE and self.salary_paid_now(g):
            self._to_player(g, p, self.salary)
        g.pos[p] = JAIL_SQUARE
        g.in_jail[p] = True
        g.jail_turns[p] = 0
        g.doubles[p] = 0
        g.jailed = True
        g.reroll = False
        if g.events is not None:
            self._ev(g, event="jailed", player=p)

    def _land(self, g: GameState, p: int) -> None:
        """Resolve the square the player stands on."""
        s = g.pos[p]
        if self.is_ownable[s]:
            o = g.owner[s]
            if o < 0:
                if self.first_round_buy or g.passed_go[p]:
                    g.phase = BUY
                    g.pending = {"player": p, "square": s}
                return
            if o != p:
                amount = self.rent(g, s, p)
                if amount:
                    rate = self.rent_tax_rate(g)
                    share = amount - _r(amount * rate) if rate else amount
                    if self.must_claim:   # owed only if the owner asks in time
                        g.claims.append([p, o, s, amount, share, g.player_turns + self.claim_turns])
                        if g.events is not None:
                            self._ev(g, event="rent_due", payer=p, owner=o, square=s, amount=amount)
                    else:
                        self.charge(g, p, o, amount, "rent", share)
            return
        k = self.kind[s]
        if k == "chance" or k == "chest":
            self._draw(g, p, k)
            return
        if k == "income_tax":
            t = self.cfg.taxes
            if t.income_percent is not None:
                g.phase = INCOME_TAX
                g.pending = {"player": p}
                return
            self.charge(g, p, -1, t.income, "tax")
            return
        if k == "luxury_tax":
            self.charge(g, p, -1, self.cfg.taxes.luxury, "tax")
            return
        if k == "go_to_jail":
            if self.cfg.jail.via_go_to_jail_square:
                self.send_to_jail(g, p)
            return
        if k == "free_parking":
            if self.pot_on and g.pot:
                g.cash[p] += g.pot
                if g.events is not None:
                    self._ev(g, event="pot", player=p, amount=g.pot)
                g.pot = 0
            return
        if k == "casino" and self.cfg.casino.enabled:
            g.phase = CASINO
            g.pending = {"player": p}

    # ================================================================== cards
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
            self._land(g, p)
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
        """The drawer's most developed street loses one level; the building returns to the bank."""
        best = -1
        for s in self.street_squares:
            if g.owner[s] == p and (g.houses[s] or g.hotel[s]):
                if best < 0 or self.level(g, s) > self.level(g, best):
                    best = s
        if best < 0:
            return
        if g.hotel[best]:
            back = self.max_houses if self.cfg.building.hotel_returns_houses else 0
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

    # ================================================================== jail
    def _jail_roll(self, g: GameState, p: int, dice) -> None:
        j = self.cfg.jail
        d1, d2 = dice[0], dice[1] if len(dice) > 1 else -1
        g.jail_turns[p] += 1
        steps = d1 + (d2 if d2 > 0 else 0)
        if d1 == d2:
            self._leave_jail(g, p, "doubles")
            if j.doubles_exit_moves:
                self._advance(g, p, steps)
                self._land(g, p)
            g.reroll = j.doubles_exit_rolls_again
            return
        if g.jail_turns[p] >= j.max_tries:
            if j.after_last_try == "pay_fine_and_move":
                self.charge(g, p, -1, j.fine, "fine")
            self._leave_jail(g, p, "last_try")
            self._advance(g, p, steps)
            self._land(g, p)
            return
        if j.fine_after_failed_roll_same_turn:
            g.phase = JAIL_CHOICE
            g.pending = {"player": p, "steps": steps}
            return
        g.jailed = True  # stays: the turn ends

    def _leave_jail(self, g: GameState, p: int, how: str) -> None:
        g.in_jail[p] = False
        g.jail_turns[p] = 0
        if g.events is not None:
            self._ev(g, event="left_jail", player=p, how=how)

    def why_not_pay_fine(self, g: GameState, seat: int) -> str | None:
        j = self.cfg.jail
        if not g.in_jail[seat] or g.bankrupt[seat]:
            return "not in jail"
        if g.phase == JAIL_CHOICE and g.pending.get("player") == seat:
            return None if g.cash[seat] >= j.fine else "cannot pay the fine"
        if seat != g.current:
            return "only in one's own turn"
        if j.fine_timing == "before_rolling":
            if g.phase != PRE_ROLL:
                return "the fine is paid before rolling"
        elif g.phase not in (PRE_ROLL, POST_ROLL):
            return "not now"
        if j.fine_voluntary_turns is not None and g.jail_turns[seat] >= j.fine_voluntary_turns:
            return f"the fine may be paid voluntarily only in the first {j.fine_voluntary_turns} turns"
        if g.cash[seat] < j.fine:
            return "cannot pay the fine"
        return None

    def pay_fine(self, g: GameState, seat: int) -> None:
        j = self.cfg.jail
        self.charge(g, seat, -1, j.fine, "fine")
        self._leave_jail(g, seat, "fine")
        if g.phase == JAIL_CHOICE:
            steps = g.pending["steps"]
            g.phase = MOVING
            g.pending = None
            self._advance(g, seat, steps)
            self._land(g, seat)
            if g.phase == MOVING:
                self._continue(g)
            return
        self._after_release(g, seat)

    def why_not_use_card(self, g: GameState, seat: int) -> str | None:
        j = self.cfg.jail
        if not j.card_exit:
            return "cards do not release from jail"
        if not g.in_jail[seat] or g.bankrupt[seat]:
            return "not in jail"
        if not g.jail_cards[seat]:
            return "holds no Get Out of Jail Free card"
        if seat != g.current or g.phase not in (PRE_ROLL, POST_ROLL, JAIL_CHOICE):
            return "only in one's own turn"
        if g.phase == POST_ROLL and j.fine_timing == "before_rolling":
            return "only before rolling"
        return None

    def use_card(self, g: GameState, seat: int, deck: str | None = None) -> None:
        cards = g.jail_cards[seat]
        deck = deck if deck in cards else cards[0]
        cards.remove(deck)
        self._return_cards(g, [deck])
        self._leave_jail(g, seat, "card")
        if g.phase == JAIL_CHOICE:
            steps = g.pending["steps"]
            g.phase = MOVING
            g.pending = None
            self._advance(g, seat, steps)
            self._land(g, seat)
            if g.phase == MOVING:
                self._continue(g)
            return
        self._after_release(g, seat)

    def _after_release(self, g: GameState, seat: int) -> None:
        if g.phase == PRE_ROLL and not self.cfg.jail.card_exit_then_roll:
            g.stage = "post"     # released, but no roll this turn
            g.rolled = True
        g.phase = MOVING
        self._continue(g)
        if (g.phase == POST_ROLL and g.stage == "post" and g.rolled
                and self.cfg.movement.turn_end == "automatic_after_square"):
            self.end_turn(g)

    def _jail_card_id(self, deck: str) -> str:
        for cid, c in self.cards[deck].items():
            if c.effect == "jail_free":
                return cid
        raise GameError(f"deck {deck} has no Get Out of Jail Free card")

    def why_not_stay(self, g: GameState, seat: int) -> str | None:
        if g.phase != JAIL_CHOICE or g.pending.get("player") != seat:
            return "no jail choice pending"
        return None

    def stay(self, g: GameState, seat: int) -> None:
        g.phase = MOVING
        g.pending = None
        g.jailed = True
        self._continue(g)

    # ================================================================== speed die choices
    def why_not_bus(self, g: GameState, seat: int, steps) -> str | None:
        if g.phase != BUS or g.pending.get("player") != seat:
            return "no bus choice pending"
        if steps not in g.pending["options"]:
            return f"the bus moves by one of {g.pending['options']}"
        return None

    def bus(self, g: GameState, seat: int, steps: int) -> None:
        g.phase = MOVING
        g.pending = None
        self._advance(g, seat, steps)
        self._land(g, seat)
        if g.phase == MOVING:
            self._continue(g)

    def why_not_move_to(self, g: GameState, seat: int, square) -> str | None:
        if g.phase != TRIPLES or g.pending.get("player") != seat:
            return "no triples choice pending"
        if not isinstance(square, int) or not 0 <= square < 40:
            return "a square 0..39"
        return None

    def move_to(self, g: GameState, seat: int, square: int) -> None:
        g.phase = MOVING
        g.pending = None
        self._move_to(g, seat, square)
        self._land(g, seat)
        if g.phase == MOVING:
            self._continue(g)

    def _mr_monopoly(self, g: GameState) -> None:
        """After the normal move: on to the next unowned property, else the next that charges rent."""
        p = g.current
        if g.bankrupt[p] or g.in_jail[p]:
            return
        pos = g.pos[p]
        target = -1
        for k in range(1, 40):
            s = (pos + k) % 40
            if self.is_ownable[s] and g.owner[s] < 0:
                target = s
                break
        if target < 0:
            opponent = self.cfg.speed_die.mr_monopoly == "nearest_unowned_else_nearest_opponent"
            for k in range(1, 40):
                s = (pos + k) % 40
                if self.is_ownable[s] and g.owner[s] not in (-1, p) and (
                        (opponent and not self.same_team(g, p, g.owner[s])) or self.rent(g, s, p) > 0):
                    target = s
                    break
        if target < 0:
            return
        if g.events is not None:
            self._ev(g, event="mr_monopoly", player=p, square=target)
        g.phase = MOVING
        self._move_to(g, p, target)
        g.no_auction = not self.cfg.speed_die.mr_monopoly_decline_auction
        self._land(g, p)

    # ================================================================== purchase and auctions
    def why_not_buy(self, g: GameState, seat: int) -> str | None:
        if g.phase != BUY or g.pending.get("player") != seat:
            return "no purchase offered"
        s = g.pending["square"]
        if g.cash[seat] < self.price[s]:
            return "not enough cash"
        return None

    def buy(self, g: GameState, seat: int) -> None:
        g.ov[seat] += 1
        s = g.pending["square"]
        g.cash[seat] -= self.price[s]
        g.bank_cash += self.price[s]
        g.owner[s] = seat
        if g.events is not None:
            self._ev(g, event="bought", player=seat, square=s, price=self.price[s])
        g.phase = MOVING
        g.pending = None
        g.no_auction = False
        self._continue(g)

    def why_not_decline(self, g: GameState, seat: int) -> str | None:
        if g.phase != BUY or g.pending.get("player") != seat:
            return "no purchase offered"
        return None

    def decline(self, g: GameState, seat: int) -> None:
        s = g.pending["square"]
        pu = self.cfg.purchase
        if pu.on_decline == "auction" and not g.no_auction:
            opening = self.price[s] if pu.opening == "printed_price" else pu.opening_amount
            g.auctions.insert(0, [s, "deed", opening, seat if pu.auction_bidders == "others_only" else -1,
                                  False, -1])
        g.no_auction = False
        g.phase = MOVING
        g.pending = None
        self._continue(g)

    def _start_auction(self, g: GameState, entry: list) -> bool:
        s, item, opening, excluded, mortgaged, proceeds_to = entry
        if item == "deed" and g.owner[s] >= 0:
            return False
        may_manage = self.cfg.jail.may_manage
        start = g.current
        order = [(start + k) % g.n for k in range(1, g.n + 1)]
        bidders = [q for q in order if not g.bankrupt[q] and q != excluded
                   and (may_manage or not g.in_jail[q])
                   and (item == "deed" or self._can_build_somewhere(g, q, item))]
        if not bidders:
            return False
        seat_order = self.cfg.purchase.bidding_order == "seat_order"
        g.phase = AUCTION
        g.pending = {"square": s, "item": item, "min": max(opening, 0), "high": 0, "leader": -1,
                     "bidders": bidders, "turn": bidders[0] if seat_order else None,
                     "mortgaged": mortgaged, "proceeds_to": proceeds_to}
        if g.events is not None:
            self._ev(g, event="auction", square=s, item=item, bidders=list(bidders))
        return True

    def min_bid(self, g: GameState) -> int:
        a = g.pending
        return a["high"] + self.cfg.purchase.min_increment if a["leader"] >= 0 else max(a["min"], 1)

    def why_not_bid(self, g: GameState, seat: int, amount) -> str | None:
        if g.phase != AUCTION:
            return "no auction"
        a = g.pending
        if seat not in a["bidders"]:
            return "not bidding in this auction"
        if seat == a["leader"]:
            return "already the highest bidder"
        if a["turn"] is not None and a["turn"] != seat:
            return "not this bidder's turn"
        if not isinstance(amount, int) or isinstance(amount, bool):
            return "a bid is a whole amount"
        low = self.min_bid(g)
        if amount < low:
            return f"the bid must be at least {low}"
        if self.cfg.purchase.fixed_step and amount != low:
            return f"bids rise by exactly one step: {low}"
        if amount > g.cash[seat]:
            return "a bid cannot exceed the bidder's cash"
        return None

    def bid(self, g: GameState, seat: int, amount: int) -> None:
        a = g.pending
        a["high"] = amount
        a["leader"] = seat
        if g.events is not None:
            self._ev(g, event="bid", player=seat, amount=amount)
        self._next_bidder(g, seat)

    def why_not_pass(self, g: GameState, seat: int) -> str | None:
        if g.phase != AUCTION:
            return "no auction"
        a = g.pending
        if seat not in a["bidders"]:
            return "not bidding in this auction"
        if seat == a["leader"]:
            return "the highest bidder cannot pass"
        if a["turn"] is not None and a["turn"] != seat:
            return "not this bidder's turn"
        return None

    def pass_bid(self, g: GameState, seat: int) -> None:
        a = g.pending
        bidders = a["bidders"]
        i = bidders.index(seat)
        bidders.pop(i)
        if a["turn"] is not None and bidders:
            j = i % len(bidders)
            nxt = bidders[j]
            if nxt == a["leader"] and len(bidders) > 1:
                nxt = bidders[(j + 1) % len(bidders)]
            a["turn"] = nxt
        self._maybe_close(g)

    def _next_bidder(self, g: GameState, seat: int) -> None:
        a = g.pending
        bidders = a["bidders"]
        if a["turn"] is not None:
            i = bidders.index(seat)
            a["turn"] = bidders[(i + 1) % len(bidders)]
        self._maybe_close(g)

    def _maybe_close(self, g: GameState) -> None:
        a = g.pending
        bidders = a["bidders"]
        leader = a["leader"]
        if bidders and not (leader >= 0 and bidders == [leader]):
            return
        s, item = a["square"], a["item"]
        if leader >= 0:
            g.ov[leader] += 1
            amount = a["high"]
            g.cash[leader] -= amount
            to = a["proceeds_to"]
            if to >= 0 and item == "deed":
                keep = min(amount, self.mortgage_value[s])
                g.bank_cash += keep
                g.cash[to] += amount - keep
            else:
                g.bank_cash += amount
            if item == "deed":
                g.owner[s] = leader
                g.mortgaged[s] = a["mortgaged"]
                g.mortgage_rounds[s] = 0
            else:
                self._place_won_building(g, leader, item)
        if g.events is not None:
            self._ev(g, event="auction_won" if leader >= 0 else "auction_no_bid", square=s, item=item,
                     player=leader, amount=a["high"])
        g.phase = MOVING
        g.pending = None
        self._continue(g)

    # ================================================================== building
    def _manage_window(self, g: GameState, seat: int, timing: str) -> str | None:
        if g.bankrupt[seat]:
            return "bankrupt"
        ph = g.phase
        if ph not in MANAGE_PHASES:
            return f"not in phase {ph}"
        if ph == DEBT and g.pending["debtor"] != seat:
            return "only the debtor acts while a debt is open"
        if timing == "before_roll_own_turn" or self.cfg.clock.manage_before_roll_only:
            if seat != g.current or ph != PRE_ROLL:
                if not (ph == DEBT and g.pending["debtor"] == seat):
                    return "only before rolling in one's own turn"
        if g.in_jail[seat] and not self.cfg.jail.may_manage:
            return "a jailed player may not manage property"
        return None

    def _build_guard(self, g: GameState, seat: int, s: int) -> str | None:
        """Ownership, full group, mortgages, per-turn limits: shared by houses and hotels."""
        bu = self.cfg.building
        if not (0 <= s < 40) or self.kind[s] != "street":
            return "only streets carry buildings"
        if g.owner[s] != seat:
            return "not the owner"
        grp = self.group_of[s]
        squares = self.groups[grp]
        if bu.requires_full_group and not self.owns_group(g, seat, grp):
            return "the whole colour group is needed"
        if g.mortgaged[s]:
            return "the street is mortgaged"
        if bu.blocked_by_mortgage:
            for t in squares:
                if g.mortgaged[t]:
                    return "a street of the group is mortgaged"
        if bu.per_turn_limit == "one_level_per_street" and s in g.built_streets:
            return "one level per street per turn"
        if bu.per_turn_limit == "one_per_group" and grp in g.built_groups:
            return "one building per group per turn"
        if g.cash[seat] < self.house_cost[s]:
            return "not enough cash"
        return None

    def _house_ok(self, g: GameState, seat: int, s: int) -> str | None:
        why = self._build_guard(g, seat, s)
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

    def _hotel_ok(self, g: GameState, seat: int, s: int) -> str | None:
        why = self._build_guard(g, seat, s)
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
        if bu.even_build:   # a hotel is one level above the most houses (as the even-build invariant says)
            for t in self.groups[self.group_of[s]]:
                if t != s and self.level(g, t) < self.hotel_level - 1:
                    return "build evenly: a hotel is one level above the most houses"
        return None

    def _can_build_somewhere(self, g: GameState, seat: int, item: str) -> bool:
        test = self._house_ok if item == "house" else self._hotel_ok
        return any(test(g, seat, s) is None for s in self.street_squares if g.owner[s] == seat)

    def _shortage(self, g: GameState, item: str) -> bool:
        """More players want the item than the bank has left: it goes to auction."""
        bu = self.cfg.building
        stock = g.bank_houses if item == "house" else g.bank_hotels
        if not bu.shortage_auction or stock >= g.n:   # fewer wanting players than buildings left
            return False
        wanting = sum(1 for q in range(g.n) if not g.bankrupt[q] and self._can_build_somewhere(g, q, item))
        return wanting > stock

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
        test = self._house_ok if item == "house" else self._hotel_ok
        target = -1
        for s in self.street_squares:
            if g.owner[s] == seat and test(g, seat, s) is None and (
                    target < 0 or self.level(g, s) < self.level(g, target)):
                target = s
        price = g.pending["high"]
        if target < 0:  # cannot place it after all: the bid is refunded
            g.cash[seat] += price
            g.bank_cash -= price
            return
        g.cash[seat] += price          # _put_* charges the bid again
        g.bank_cash -= price
        if item == "house":
            self._put_house(g, seat, target, price)
        else:
            self._put_hotel(g, seat, target, price)

    def _sell_window(self, g: GameState, seat: int) -> str | None:
        return self._manage_window(g, seat, self.cfg.building.sell_timing)

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
        back = self.max_houses if self.cfg.building.hotel_returns_houses else 0
        if g.bank_houses < back:
            return f"breaking a hotel down needs {back} houses from the bank (sell the group's buildings instead)"
        return None

    def sell_hotel(self, g: GameState, seat: int, s: int) -> None:
        """Break the hotel down (1 hotel = the most houses + 1): the street holds the most houses again."""
        back = self.max_houses if self.cfg.building.hotel_returns_houses else 0
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

    # ================================================================== mortgages
    def why_not_mortgage(self, g: GameState, seat: int, s) -> str | None:
        why = self._manage_window(g, seat, self.cfg.mortgage.timing)
        if why:
            return why
        if not (0 <= s < 40) or g.owner[s] != seat:
            return "not the owner"
        if g.mortgaged[s]:
            return "already mortgaged"
        if self.kind[s] == "street":
            if self.cfg.mortgage.requires_no_buildings_in_group:
                if self.group_has_buildings(g, self.group_of[s]):
                    return "sell the group's buildings first"
            elif g.houses[s] or g.hotel[s]:
                return "sell the street's buildings first"
        return None

    def mortgage(self, g: GameState, seat: int, s: int) -> None:
        g.ov[seat] += 1
        v = self.mortgage_value[s]
        g.mortgaged[s] = True
        g.mortgage_rounds[s] = 0
        g.cash[seat] += v
        g.bank_cash -= v
        if g.events is not None:
            self._ev(g, event="mortgaged", player=seat, square=s, amount=v)

    def why_not_unmortgage(self, g: GameState, seat: int, s) -> str | None:
        why = self._manage_window(g, seat, self.cfg.mortgage.timing)
        if why:
            return why
        if not (0 <= s < 40) or g.owner[s] != seat:
            return "not the owner"
        if not g.mortgaged[s]:
            return "not mortgaged"
        if g.cash[seat] < self.unmortgage_cost(g, s):
            return "not enough cash"
        return None

    def unmortgage(self, g: GameState, seat: int, s: int) -> None:
        g.ov[seat] += 1
        cost = self.unmortgage_cost(g, s)
        g.cash[seat] -= cost
        g.bank_cash += cost
        g.mortgaged[s] = False
        g.mortgage_rounds[s] = 0
        g.interest_paid[s] = False
        if g.events is not None:
            self._ev(g, event="unmortgaged", player=seat, square=s, amount=cost)

    def why_not_lift(self, g: GameState, seat: int, s) -> str | None:
        """Another player takes a mortgaged property by paying off its mortgage."""
        if not self.cfg.mortgage.others_may_lift:
            return "only the owner lifts a mortgage"
        why = self._manage_window(g, seat, self.cfg.mortgage.timing)
        if why:
            return why
        if not (0 <= s < 40) or not self.is_ownable[s] or not g.mortgaged[s] or g.owner[s] in (-1, seat):
            return "not another player's mortgaged property"
        if g.cash[seat] < self.unmortgage_cost(g, s):
            return "not enough cash"
        return None

    def lift(self, g: GameState, seat: int, s: int) -> None:
        g.ov[seat] += 1
        g.ov[g.owner[s]] += 1
        cost = self.unmortgage_cost(g, s)
        g.cash[seat] -= cost
        g.bank_cash += cost
        g.owner[s] = seat
        g.mortgaged[s] = False
        g.mortgage_rounds[s] = 0
        g.interest_paid[s] = False

    def why_not_auction_mortgaged(self, g: GameState, seat: int, s) -> str | None:
        if not self.cfg.mortgage.immediate_auction:
            return "mortgaged property cannot be put up for auction"
        why = self._manage_window(g, seat, self.cfg.mortgage.timing)
        if why:
            return why
        if not (0 <= s < 40) or g.owner[s] != seat or not g.mortgaged[s]:
            return "not the owner's mortgaged property"
        if g.phase not in (PRE_ROLL, POST_ROLL):
            return "only before or after one's move"
        return None

    def auction_mortgaged(self, g: GameState, seat: int, s: int) -> None:
        """The owner auctions a mortgaged deed: the bank keeps the mortgage value, the owner the rest."""
        g.ov[seat] += 1
        g.owner[s] = -1
        g.mortgaged[s] = False
        g.mortgage_rounds[s] = 0
        g.interest_paid[s] = False
        entry = [s, "deed", self.mortgage_value[s], seat, False, seat]
        self._interrupt_with_auction(g, entry)

    def _interrupt_with_auction(self, g: GameState, entry: list) -> None:
        """Hold an auction now (only from pre_roll/post_roll), then return to that phase."""
        g.auctions.insert(0, entry)
        g.phase = MOVING
        self._continue(g)

    # ================================================================== trades
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
                    g.interest_paid[s] = True
                    self.charge(g, b, -1, self.interest[s], "interest")
        if g.events is not None:
            self._ev(g, event="traded", player=seat, other=other, give=give, take=take)
        if g.debts and g.phase != DEBT:
            self._resume_after_manage(g)

    def _resume_after_manage(self, g: GameState) -> None:
        if g.phase in (PRE_ROLL, POST_ROLL):
            g.phase = MOVING
            self._continue(g)

    # ================================================================== debts and bankruptcy
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
                        g.interest_paid[s] = True
                        g.debts.append([creditor, -1, self.transfer_interest[s], self.transfer_interest[s],
                                        "interest"])
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
            if dc.to_bank_properties == "teammate" or (self.teams_on and self.cfg.teams.bankrupt_to_bank_teammate_inherits):
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
        if g.phase == AUCTION:
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

    # ================================================================== taxes, casino, timeouts
    def why_not_pay_tax(self, g: GameState, seat: int, option) -> str | None:
        if g.phase != INCOME_TAX or g.pending.get("player") != seat:
            return "no income tax choice pending"
        if option not in ("fixed", "percent"):
            return "option is fixed or percent"
        return None

    def pay_tax(self, g: GameState, seat: int, option: str) -> None:
        t = self.cfg.taxes
        amount = t.income if option == "fixed" else _r(self.tax_worth(g, seat) * t.income_percent)
        g.phase = MOVING
        g.pending = None
        self.charge(g, seat, -1, amount, "tax")
        self._continue(g)

    def why_not_casino_bet(self, g: GameState, seat: int, numbers, die, jackpot) -> str | None:
        c = self.cfg.casino
        if g.phase != CASINO or g.pending.get("player") != seat:
            return "no casino bet offered"
        if (not isinstance(numbers, list) or not 1 <= len(numbers) <= c.max_numbers
                or len(set(numbers)) != len(numbers) or not all(isinstance(x, int) and 1 <= x <= 6 for x in numbers)):
            return f"choose 1 to {c.max_numbers} different numbers from 1 to 6"
        if not isinstance(die, int) or not 1 <= die <= 6 or not isinstance(jackpot, bool):
            return "the bet needs the die (1..6) and the jackpot draw (true/false)"
        if g.cash[seat] < c.stake:
            return "cannot cover the stake"
        return None

    def casino_bet(self, g: GameState, seat: int, numbers: list, die: int, jackpot: bool) -> None:
        c = self.cfg.casino
        g.cash[seat] -= c.stake
        g.bank_cash += c.stake
        g.jackpot += c.jackpot_contribution
        g.bank_cash -= c.jackpot_contribution
        won = 0
        if die in numbers:
            won = c.stake * c.payout_numerator // len(numbers)
            self._to_player(g, seat, won)
        if jackpot and g.jackpot:
            g.cash[seat] += g.jackpot
            won += g.jackpot
            g.jackpot = 0
        if g.events is not None:
            self._ev(g, event="casino", player=seat, numbers=list(numbers), die=die, jackpot=jackpot, won=won)
        g.phase = MOVING
        g.pending = None
        self._continue(g)

    def why_not_casino_decline(self, g: GameState, seat: int) -> str | None:
        if g.phase != CASINO or g.pending.get("player") != seat:
            return "no casino bet offered"
        if not self.cfg.casino.may_decline and g.cash[seat] >= self.cfg.casino.stake:
            return "the bet may not be declined"
        return None

    def casino_decline(self, g: GameState, seat: int) -> None:
        g.phase = MOVING
        g.pending = None
        self._continue(g)

    def why_not_end_turn(self, g: GameState, seat: int) -> str | None:
        if g.phase != POST_ROLL:
            return "the turn ends after the move"
        if seat != g.current:
            return "only the current player ends the turn"
        return None

    def why_not_timeout(self, g: GameState, seat: int, dice=None) -> str | None:
        ck = self.cfg.clock
        if ck.on_timeout == "none":
            return "turns are not timed"
        if g.phase != PRE_ROLL or seat != g.current or g.rolled:
            return "the turn timer runs out only before the roll"
        if ck.on_timeout == "default_choices":
            return self.why_not_roll(g, seat, dice)
        return None

    def timeout(self, g: GameState, seat: int, dice=None) -> None:
        """The turn timer ran out: a missed turn (skipped, or played with default choices)."""
        ck = self.cfg.clock
        g.missed[seat] += 1
        g.timed_out = True
        if g.events is not None:
            self._ev(g, event="timeout", player=seat, missed=g.missed[seat])
        if ck.forfeit_after_missed is not None and g.missed[seat] >= ck.forfeit_after_missed:
            g.stage = "post"
            self.go_bankrupt(g, seat, -1, 0)
            return
        if ck.on_timeout == "skip_turn":
            self.end_turn(g)
            return
        self.roll(g, dice)
        self.play_defaults(g, seat)

    def play_defaults(self, g: GameState, seat: int) -> None:
        """The game decides for a player whose time ran out: decline, pay, cheapest choices."""
        guard = 0
        while g.phase not in (OVER, PRE_ROLL, POST_ROLL) and guard < 200:
            guard += 1
            ph, pend = g.phase, g.pending
            if ph == BUY and pend["player"] == seat:
                self.decline(g, seat)
            elif ph == DEBT and pend["debtor"] == seat:
                if g.cash[seat] >= pend["amount"]:
                    self.pay(g, seat)
                elif self.why_not_bankrupt(g, seat) is None:
                    self.bankrupt(g, seat)
                else:
                    self._liquidate_one(g, seat)
            elif ph == BUS and pend["player"] == seat:
                sd = self.cfg.speed_die
                self.bus(g, seat, max(pend["options"]) if sd.bus_timeout == "sum" else min(pend["options"]))
            elif ph == TRIPLES and pend["player"] == seat:
                self.move_to(g, seat, g.pos[seat])
            elif ph == CASINO and pend["player"] == seat:
                self.casino_decline(g, seat)
            elif ph == INCOME_TAX and pend["player"] == seat:
                self.pay_tax(g, seat, "fixed")
            elif ph == JAIL_CHOICE and pend["player"] == seat:
                self.stay(g, seat)
            else:
                return
        if g.phase == PRE_ROLL and g.current == seat and g.rolled:
            self.end_turn(g)   # no extra roll for doubles in a timed-out turn
        elif g.phase == POST_ROLL and g.current == seat:
            self.end_turn(g)

    def _liquidate_one(self, g: GameState, seat: int) -> bool:
        """Raise some cash: sell a building (evenly) or mortgage a deed. False when nothing is left."""
        for grp in range(len(self.groups)):
            if self.why_not_sell_group(g, seat, grp) is None:
                self.sell_group(g, seat, grp)
                return True
        for s in self.ownable:
            if self.why_not_mortgage(g, seat, s) is None:
                self.mortgage(g, seat, s)
                return True
        return False
