"""A new game, and what every rule family shares: worth and levels, rent owed, money and stock moving.

Functions of the per-config ``Tables`` ``t`` and the ``GameState`` ``g`` (see
``verify.engine.rules``); they change ``g`` in place.
"""

from __future__ import annotations

import random

from .common import PRE_ROLL, UNLIMITED, GameError, GameState, Tables, round_money


# ---------------------------------------------------------------------------- a new game
def new_game(t: Tables, players: int, rng: random.Random) -> GameState:
    cfg = t.cfg
    if not cfg.setup.players_min <= players <= cfg.setup.players_max:
        raise GameError(f"this ruleset is played by {cfg.setup.players_min} to "
                        f"{cfg.setup.players_max} players, not {players}")
    g = GameState()
    n = g.n = players
    if cfg.teams.enabled:
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
    g.clear_squares(t.size)
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
    g.clear_scratch(n)
    g.current = 0
    if cfg.setup.first_player == "highest_roll":
        g.current = highest_roll(n, rng)
    deal(t, g, rng)
    return g


def highest_roll(n: int, rng: random.Random) -> int:
    seats = list(range(n))
    while len(seats) > 1:
        rolls = {s: rng.randint(1, 6) + rng.randint(1, 6) for s in seats}
        best = max(rolls.values())
        seats = [s for s in seats if rolls[s] == best]
    return seats[0]


def deal(t: Tables, g: GameState, rng: random.Random) -> None:
    touch_all(g)
    st = t.cfg.setup
    if not st.dealt_all and st.dealt_per_player <= 0:
        return
    deeds = list(t.ownable)
    rng.shuffle(deeds)
    count = len(deeds) // g.n if st.dealt_all else min(st.dealt_per_player, len(deeds) // g.n)
    for k in range(count * g.n):
        s = deeds[k]
        p = (g.current + k) % g.n
        g.owner[s] = p
        g.mark(s)
        if st.dealt_paid:
            g.cash[p] = g.cash[p] - t.price[s]
            g.bank_cash += t.price[s]


# ---------------------------------------------------------------------------- who, levels and worth
def alive(g: GameState) -> list[int]:
    return [i for i in range(g.n) if not g.bankrupt[i]]


def same_team(t: Tables, g: GameState, a: int, b: int) -> bool:
    return t.cfg.teams.enabled and a != b and g.team[a] == g.team[b]


def speed_active(t: Tables, g: GameState, p: int) -> bool:
    sd = t.cfg.speed_die
    if not sd.enabled:
        return False
    if sd.activation == "after_first_pass_go":
        return g.passed_go[p]
    return g.round + 1 >= sd.activation_round


def dice_needed(t: Tables, g: GameState) -> int:
    """How many dice the current player rolls now (a speed die is the last one)."""
    p = g.current
    n = t.white
    if t.cfg.speed_die.enabled and speed_active(t, g, p) and not (
            g.in_jail[p] and t.cfg.speed_die.jail_white_only):
        n += 1
    return n


def level(t: Tables, g: GameState, s: int) -> int:
    return t.hotel_level if g.hotel[s] else g.houses[s]


def owns_group(t: Tables, g: GameState, p: int, grp: int) -> bool:
    owner = g.owner
    for s in t.groups[grp]:
        if owner[s] != p:
            return False
    return True


def group_has_buildings(t: Tables, g: GameState, grp: int) -> bool:
    for s in t.groups[grp]:
        if g.houses[s] or g.hotel[s]:
            return True
    return False


def building_value(t: Tables, g: GameState, s: int, hotel_houses: bool = True) -> int:
    """What the buildings on a street cost to put up (a hotel counts the houses given for it, unless
    ``hotel_houses`` is false: then a hotel is worth its own price)."""
    c = t.house_cost[s]
    if g.hotel[s]:
        extra = t.hotel_back if hotel_houses else 0
        return c * (1 + extra + g.houses[s])
    return c * g.houses[s]


def building_sale(t: Tables, g: GameState, s: int) -> int:
    """Cash from selling every building on a street back to the bank."""
    v = t.sell_house_value[s]
    if g.hotel[s]:
        return v * (1 + t.hotel_back + g.houses[s])
    return v * g.houses[s]


def raisable(t: Tables, g: GameState, p: int, upto: int = 0) -> int:
    """Cash the player could have after selling every building and mortgaging everything; with ``upto`` above
    0, counted only until it reaches ``upto`` (whether a debt can be raised needs no more)."""
    total = g.cash[p]
    owner = g.owner
    houses, hotel, mortgaged = g.houses, g.hotel, g.mortgaged
    for s in t.ownable:
        if 0 < upto <= total:
            return total
        if owner[s] == p:
            if houses[s] or hotel[s]:
                total += building_sale(t, g, s)
            if not mortgaged[s]:
                total += t.mortgage_value[s]
    return total


def net_worth(t: Tables, g: GameState, p: int) -> int:
    e = t.cfg.end
    total = g.cash[p]
    for s in t.ownable:
        if g.owner[s] == p:
            total += round_money(t.price[s] * e.networth_mortgaged) if g.mortgaged[s] else t.price[s]
            total += round_money(building_value(t, g, s) * e.networth_buildings)
    return total


def tax_worth(t: Tables, g: GameState, p: int) -> int:
    tx = t.cfg.taxes
    hotel_houses = tx.worth_hotel == "price_and_converted_houses"
    total = g.cash[p]
    for s in t.ownable:
        if g.owner[s] == p:
            if g.mortgaged[s] and not tx.worth_counts_mortgaged_at_printed:
                total += t.price[s] - t.mortgage_value[s]
            else:
                total += t.price[s]
            total += building_value(t, g, s, hotel_houses)
    return total


def rent_tax_rate(t: Tables, g: GameState) -> float:
    r = t.cfg.rent
    if not r.tax_enabled or r.tax_start_minute is None or g.minute < r.tax_start_minute:
        return 0.0
    steps = int((g.minute - r.tax_start_minute) // r.tax_step_minutes)
    return min(r.tax_max_rate, r.tax_initial_rate + steps * r.tax_step_rate)


def salary_paid_now(t: Tables, g: GameState) -> bool:
    stop = t.cfg.movement.salary_stop_minute
    return stop is None or g.minute < stop


def unmortgage_cost(t: Tables, g: GameState, s: int) -> int:
    if g.received and g.received.get(s) == g.owner[s]:
        return t.mortgage_value[s]     # lifted at once on receipt: the receipt interest was the interest
    interest = 0 if (g.interest_paid[s] and not t.cfg.mortgage.transfer_unmortgage_pays_interest_again) \
        else t.interest[s]
    return t.mortgage_value[s] + interest


def rent(t: Tables, g: GameState, s: int, payer: int) -> int:
    """Rent the payer owes on square s now (0 when none is due)."""
    o = g.owner[s]
    if o < 0 or o == payer:
        return 0
    rc = t.cfg.rent
    if g.mortgaged[s] and not rc.mortgaged_collects:
        return 0
    if g.in_jail[o] and not rc.jailed_owner_collects:
        return 0
    if t.cfg.teams.enabled and g.team[o] == g.team[payer] and not t.cfg.teams.teammates_pay_rent:
        return 0
    k = t.kind[s]
    if k == "street":
        if g.hotel[s]:
            return t.rents[s][5]
        h = g.houses[s]
        if h:
            return t.rents[s][h]
        base = t.rents[s][0]
        grp = t.groups[t.group_of[s]]
        owner = g.owner
        for x in grp:
            if owner[x] != o:
                return base
        if not rc.group_bonus_with_buildings:
            for x in grp:
                if g.houses[x] or g.hotel[x]:
                    return base
        if not rc.group_bonus_with_mortgaged_mate:
            for x in grp:
                if g.mortgaged[x]:
                    return base
        return base * rc.group_multiplier
    owner = g.owner
    if k == "station":
        count = 0
        for x in t.stations:
            if owner[x] == o:
                count += 1
        return rc.station_schedule[count - 1] * g.rent_factor
    count = 0
    for x in t.utilities:
        if owner[x] == o:
            count += 1
    mult = g.util_mult or rc.utility_multipliers[count - 1]
    return mult * sum(g.dice[:t.white])


# ---------------------------------------------------------------------------- money and stock moving
def to_player(g: GameState, p: int, amount: int) -> None:
    """The bank pays a player."""
    g.cash[p] = g.cash[p] + amount
    g.bank_cash -= amount


def charge(t: Tables, g: GameState, debtor: int, creditor: int, amount: int, kind: str,
           share: int | None = None) -> None:
    """A payment the debtor owes; settled at once when possible, else queued as a debt."""
    if amount <= 0:
        return
    to_creditor = amount if share is None else share
    if not t.cfg.debt.explicit_payment_step and not g.debts and g.cash[debtor] >= amount:
        pay_debt(t, g, debtor, creditor, amount, to_creditor, kind)     # (paid at once: no debt entry made)
    else:
        g.debts.append([debtor, creditor, amount, to_creditor, kind])


def settle(t: Tables, g: GameState, d: list) -> None:
    """Pay a debt ``[debtor, creditor, amount, creditor's share, kind]`` (``pay_debt``)."""
    debtor: int
    creditor: int
    amount: int
    share: int
    kind: str
    debtor, creditor, amount, share, kind = d
    pay_debt(t, g, debtor, creditor, amount, share, kind)


def pay_debt(t: Tables, g: GameState, debtor: int, creditor: int, amount: int, share: int, kind: str) -> None:
    """The debtor pays ``amount``: ``share`` to the creditor (unless there is none, or they are bankrupt), the
    rest to the bank (or the Free Parking pot)."""
    g.cash[debtor] = g.cash[debtor] - amount
    if creditor >= 0 and not g.bankrupt[creditor]:
        g.cash[creditor] = g.cash[creditor] + share
        rest = amount - share
    else:
        rest = amount
    if rest:
        if t.cfg.taxes.free_parking_pot and kind in t.pot_kinds:
            g.pot += rest
        else:
            g.bank_cash += rest
    if g.events is not None:
        g.events.append({"event": "paid", "debtor": debtor, "creditor": creditor, "amount": amount,
                         "kind": kind, "to_creditor": share if creditor >= 0 else 0})


def receive_mortgaged(t: Tables, g: GameState, s: int, receiver: int, interest: int,
                      queued: bool = False) -> None:
    """``receiver`` takes over mortgaged deed ``s``: the transfer interest is due to the bank at once
    (``mortgage.transfer_interest``; ``queued``: behind the debts already open, as in a bankruptcy);
    where lifting at once then costs the principal alone, the deed is marked until the next roll or
    the end of the turn."""
    g.interest_paid[s] = True
    if t.lift_at_once:
        g.received[s] = receiver
    if queued:
        g.debts.append([receiver, -1, interest, interest, "interest"])
    else:
        charge(t, g, receiver, -1, interest, "interest")


def touch_all(g: GameState) -> None:
    """Ownership or mortgages changed for possibly every seat (bots re-read their holdings)."""
    ov = g.ov
    for i in range(len(ov)):
        ov[i] = ov[i] + 1


def stock_back(t: Tables, g: GameState, houses: int, hotels: int) -> None:
    """Buildings sold or given up go back into the bank's stock."""
    if not t.sold_vanish:
        g.bank_houses += houses
        g.bank_hotels += hotels


def stock_out(t: Tables, g: GameState, houses: int, hotels: int) -> None:
    if not t.builds_free:
        g.bank_houses -= houses
        g.bank_hotels -= hotels


def clear_group(t: Tables, g: GameState, grp: int) -> int:
    """Return every building of a group to the bank; the sale value (not paid here)."""
    value = 0
    for s in t.groups[grp]:
        value += building_sale(t, g, s)
        stock_back(t, g, g.houses[s], 1 if g.hotel[s] else 0)
        g.houses[s] = 0
        g.hotel[s] = False
        g.mark(s)
    return value


def return_cards(t: Tables, g: GameState, cards: list) -> None:
    """Used or surrendered Get Out of Jail Free cards go back under their deck (or to its discards)."""
    bottom = t.cfg.cards.return_policy == "bottom_of_deck"
    for deck in cards:
        if bottom:
            pile = g.chance if deck == "chance" else g.chest
        else:
            pile = g.chance_discards if deck == "chance" else g.chest_discards
        cid = t.jail_card.get(deck)
        if cid is None:
            raise GameError(f"deck {deck} has no Get Out of Jail Free card")
        pile.append(cid)
