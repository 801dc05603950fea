"""Outcome functions: what a ruling means in play, as z3 terms over a small situation.

Two rulings differ in meaning only if some situation makes them produce
different outcomes. Each ``Family`` names the parameters it reads, the
situation variables (with their domains and a preferred, readable value) and
an outcome (a money amount, a count or a yes/no) built as a z3 term from a
ruleset's values. Values arrive normalised to classic amounts
(:mod:`verify.compare.values`); outcomes are in classic amounts too and are
scaled back to each ruleset's money when shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import z3

#: Printed prices of the 28 title deeds (classic board, US 2008).
PRICES = (60, 100, 120, 140, 150, 160, 180, 200, 220, 240, 260, 280, 300, 320, 350, 400)
#: Base rents of unbuilt streets.
BASE_RENTS = (2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 35, 50)
HOUSE_COSTS = (50, 100, 150, 200)

Values = Callable[[str], Any]


@dataclass(frozen=True)
class Var:
    name: str
    label: str
    sort: str = "int"                 # int | bool
    choices: tuple[int, ...] = ()     # allowed values (ints)
    lo: int | None = None
    hi: int | None = None
    prefer: Any = None
    money: bool = False
    names: tuple[str, ...] = ()       # readable names of an int-coded choice

    def text(self, value) -> str:
        if self.names and isinstance(value, int) and 0 <= value < len(self.names):
            return self.names[value]
        return f"{self.label} = {value}"

    def make(self):
        return z3.Bool(self.name) if self.sort == "bool" else z3.Int(self.name)

    def domain(self, v) -> list:
        if self.sort == "bool":
            return []
        out = []
        if self.choices:
            out.append(z3.Or([v == c for c in self.choices]))
        if self.lo is not None:
            out.append(v >= self.lo)
        if self.hi is not None:
            out.append(v <= self.hi)
        return out


@dataclass(frozen=True)
class Family:
    id: str
    question: str
    params: tuple[str, ...]
    vars: tuple[Var, ...]
    outcome: Callable[[Values, dict], Any]
    unit: str = "money"               # money | bool | count
    special: tuple[tuple[int, str], ...] = ()   # outcome values with a meaning of their own


def _r(x) -> z3.ArithRef:
    """A Python number as an exact z3 real."""
    f = Fraction(x).limit_denominator(10_000)
    return z3.RealVal(f"{f.numerator}/{f.denominator}")


def _sym(v, symbol) -> bool:
    return isinstance(v, str) and v == symbol


def _mv(get: Values, p):
    return _r(get("mortgage.value")) * p


def _interest(get, p, base_param="mortgage.interest_base"):
    base = _mv(get, p) if get(base_param) == "mortgage_value" else z3.ToReal(p)
    return _r(get("mortgage.interest_rate")) * base


PRICE = Var("price", "printed price of the property", choices=PRICES, prefer=200, money=True)


def _unmortgage(get, s):
    return _mv(get, s["price"]) + _interest(get, s["price"])


def _inherited(get, s):
    return _interest(get, s["price"], "bankruptcy.mortgage_interest_base")


def _transfer(get, s):
    i = _interest(get, s["price"])
    paid_now = i if get("mortgage.transfer_interest") else _r(0)
    again = get("mortgage.transfer_unmortgage_pays_interest_again") or not get("mortgage.transfer_interest")
    return paid_now + _mv(get, s["price"]) + (i if again else _r(0))


def _lifted_at_once(get, s):
    """The interest due on receipt (on the route's base) plus the lift right after it, as the engine plays
    them: a trade charges mortgage.interest_base, a bankruptcy bankruptcy.mortgage_interest_base."""
    received = bool(get("mortgage.transfer_interest"))
    once = get("mortgage.transfer_lift_at_once") == "principal_only" or not get(
        "mortgage.transfer_unmortgage_pays_interest_again")
    lift = _mv(get, s["price"]) + (_r(0) if received and once else _interest(get, s["price"]))
    if not received:
        return lift
    return lift + z3.If(s["bankruptcy"], _interest(get, s["price"], "bankruptcy.mortgage_interest_base"),
                        _interest(get, s["price"]))


def _street_rent(get, s):
    base = z3.ToReal(s["base_rent"])
    mult = _r(get("rent.group_multiplier"))
    bonus = z3.And(s["owns_group"],
                   z3.Or(z3.BoolVal(bool(get("rent.group_bonus_with_buildings"))), z3.Not(s["mate_built"])),
                   z3.Or(z3.BoolVal(bool(get("rent.group_bonus_with_mortgaged_mate"))),
                         z3.Not(s["mate_mortgaged"])))
    rent = z3.If(bonus, base * mult, base)
    paid = z3.And(z3.Or(z3.BoolVal(bool(get("rent.mortgaged"))), z3.Not(s["mortgaged"])),
                  z3.Or(z3.BoolVal(bool(get("rent.jailed_owner_collects"))), z3.Not(s["owner_jailed"])),
                  z3.Or(z3.BoolVal(bool(get("teams.teammates_pay_rent"))), z3.Not(s["teammate"])))
    return z3.If(paid, rent, _r(0))


def _station_rent(get, s):
    sched = get("rent.station_schedule")
    n = s["stations"]
    return z3.If(n == 1, _r(sched[0]), z3.If(n == 2, _r(sched[1]), z3.If(n == 3, _r(sched[2]), _r(sched[3]))))


def _utility_rent(get, s):
    m = get("rent.utility_multipliers")
    return z3.ToReal(s["dice"]) * z3.If(s["utilities"] == 1, _r(m[0]), _r(m[1]))


def _rent_claim(get, s):
    deadline = get("rent.claim_deadline")
    if deadline == "automatic":
        return z3.BoolVal(True)
    if deadline == "before_second_after_owner_rolls":
        # four players: the second player after the owner rolls this many turns after the landing
        k = s["payer_seat"]
        turns = z3.If(k == 1, 1, z3.If(k == 2, 4, 3))
        return s["rolled_since"] < turns
    limit = 0 if deadline == "before_next_roll" else 1
    return s["rolled_since"] <= limit


def _rate(get, minute):
    if not get("rent.tax_enabled"):
        return _r(0)
    start = get("rent.tax_start_minute")
    if not isinstance(start, int) or isinstance(start, bool):
        return _r(0)
    steps = (minute - start) / int(get("rent.tax_step_minutes") or 1)
    raw = _r(get("rent.tax_initial_rate")) + _r(get("rent.tax_step_rate")) * z3.ToReal(steps)
    capped = z3.If(raw > _r(get("rent.tax_max_rate")), _r(get("rent.tax_max_rate")), raw)
    return z3.If(minute < start, _r(0), capped)


def _rent_after_tax(get, s):
    return _r(100) * (_r(1) - _rate(get, s["minute"]))


def _stop_minute(get):
    stop = get("go.salary_stop_minute")
    if stop == "tax_start":
        stop = get("rent.tax_start_minute")
    return stop if isinstance(stop, int) and not isinstance(stop, bool) else None


def _go(get, s):
    salary = _r(get("go.salary"))
    bonus = _r(get("go.exact_landing_bonus") or 0)
    on_land = bool(get("go.salary_on_landing"))
    on_pass = bool(get("go.salary_on_pass"))
    paid = z3.If(s["exact"], (salary if on_land else _r(0)) + bonus, salary if on_pass else _r(0))
    stop = _stop_minute(get)
    if stop is None:
        return paid
    after = z3.If(s["exact"], bonus, _r(0)) if get("go.exact_landing_bonus_after_salary_stop") else _r(0)
    return z3.If(s["minute"] >= stop, after, paid)


def _go_second_pass(get, s):
    twice = get("go.pass_then_card_to_go_pays_twice") and not get("go.salary_once_per_turn")
    return _r(get("go.salary")) * (2 if twice else 1)


def _go_twice(get, s):
    return _r(get("go.salary")) * (2 if get("go.pass_then_card_to_go_pays_twice") else 1)


def _opening(get, s):
    v = get("auction.opening_bid")
    if v == "printed_price":
        return z3.ToReal(s["price"])
    if v == "any":
        return _r(1)
    return _r(v)


def _auctioned(get, s):
    return z3.BoolVal(get("purchase.on_decline") == "auction")


def _next_bid(get, s):
    return z3.ToReal(s["bid"]) + _r(get("auction.min_increment"))


def _decliner_bids(get, s):
    return z3.BoolVal(get("auction.bidders") == "everyone")


def _bid_above_cash(get, s):
    return z3.BoolVal(bool(get("auction.bid_above_cash")))


NO_OWN_AUCTION = -1


def _own_auction_opening(get, s):
    if not get("mortgage.immediate_auction"):
        return _r(NO_OWN_AUCTION)
    v = get("mortgage.immediate_auction_opening")
    if v == "mortgage_value":
        return _mv(get, s["price"])
    return z3.ToReal(s["price"]) if v == "printed_price" else _r(v)


def _own_auction_owner_bids(get, s):
    return z3.BoolVal(bool(get("mortgage.immediate_auction") and get("mortgage.immediate_auction_owner_bids")))


def _own_auction_owner_gets(get, s):
    if not get("mortgage.immediate_auction"):
        return _r(NO_OWN_AUCTION)
    if get("mortgage.immediate_auction_proceeds") == "bank":
        return _r(0)
    bid, loan = z3.ToReal(s["bid"]), _mv(get, s["price"])
    return z3.If(bid > loan, bid - loan, _r(0))


def _shortage_auction(get, s):
    if not get("building.shortage_auction"):
        return z3.BoolVal(False)
    stock, builders = s["stock"], s["builders"]
    wanted = z3.If(s["wanted"] > builders, s["wanted"], builders)     # each builder wants at least one
    trigger = get("building.shortage_trigger")
    if trigger == "more_players_than_stock":
        return builders > stock
    if trigger == "last_one_wanted_by_several":
        return z3.And(stock == 1, builders >= 2)
    return z3.And(builders >= 2, wanted > stock)


def _last_try(get, s):
    tries = get("jail.max_tries")
    after = get("jail.after_last_try")
    fine = _r(get("jail.fine"))
    # cost paid on the turn the t-th doubles try fails; -1 = still in jail
    at_last = fine if after == "pay_fine_and_move" else _r(0)
    return z3.If(s["failed"] < tries, _r(-1), at_last)


def _jail_fine(get, s):
    return _r(get("jail.fine"))


def _doubles_jail(get, s):
    n = get("dice.doubles_to_jail")
    if n == "never" or not get("dice.doubles_roll_again"):
        return z3.BoolVal(False)
    return s["doubles"] >= n


def _trade(get, s):
    a, b = z3.ToReal(s["side_a"]), z3.ToReal(s["side_b"])
    big, small = z3.If(a >= b, a, b), z3.If(a >= b, b, a)
    ok = [z3.BoolVal(bool(get("trade.allowed")))]
    gap, ratio = get("trade.max_value_gap"), get("trade.max_value_ratio")
    if gap != "none":
        ok.append(big - small <= _r(gap) * big)
    if ratio != "none":
        ok.append(big <= _r(ratio) * small)
    return z3.And(ok)


def _threshold(get, s):
    """2 = bankrupt; 1 = not bankrupt, but may give up (surrender is an option, never a threshold);
    0 = not bankrupt."""
    d, c, raise_, worth = s["debt"], s["cash"], s["raisable"], s["worth"]
    if get("bankruptcy.threshold") == "debt_exceeds_worth":
        bankrupt = d > worth
    else:
        bankrupt = d > c + raise_
    return z3.If(bankrupt, z3.IntVal(2), z3.IntVal(1 if get("bankruptcy.surrender") else 0))


def _sell_back(get, s):
    return _r(get("building.sell_ratio")) * z3.ToReal(s["house_cost"])


def _mortgage_loan(get, s):
    return _mv(get, s["price"])


def _income_tax(get, s):
    fixed = _r(get("tax.income"))
    pct = get("tax.income_percent_option")
    if pct == "none":
        return fixed
    share = _r(pct) * z3.ToReal(s["worth"])
    return z3.If(share < fixed, share, fixed)


def _free_parking(get, s):
    return z3.ToReal(s["pot"]) if get("free_parking.pot") else _r(0)


def _card_payment_potted(get, s):
    return z3.BoolVal(bool(get("free_parking.pot") and get("free_parking.pot_card_payments")))


def _destroyed_whose(get, s):
    if not get("cards.building_destroy"):
        return z3.IntVal(0)
    return z3.IntVal(1 if get("cards.building_destroy_target") == "drawer" else 2)


def _turns_per_hour(get, s):
    return _r(3600) / _r(get("clock.seconds_per_turn"))


def _speed_faces(get, s):
    faces = [get("speed_die.pip_faces"), get("speed_die.mr_monopoly_faces"), get("speed_die.bus_faces")]
    return z3.If(s["face"] == 0, faces[0], z3.If(s["face"] == 1, faces[1], faces[2]))


def _hotel_tax_worth(get, s):
    cost = z3.ToReal(s["house_cost"])
    if get("tax.worth_hotel") == "price_only":
        return cost
    return cost * (1 + int(get("building.hotel_threshold")))


def _hotel(get, s):
    return s["houses"] >= get("building.hotel_threshold")


def _even(get, s):
    cap = s["houses"] + 1 <= get("building.max_houses")
    if not get("building.even_build"):
        return cap
    return z3.And(cap, s["houses"] + 1 - s["mate_houses"] <= 1)


def _supply(get, s):
    sup = get("building.house_supply")
    return z3.BoolVal(True) if sup == "unlimited" else s["on_board"] < sup


def _expiry(get, s):
    n = get("mortgage.expiry_rounds")
    return z3.BoolVal(True) if n == "never" else s["rounds"] < n


def _trade_mortgaged(get, s):
    v = get("trade.mortgaged")
    if v == "allowed":
        return z3.BoolVal(True)
    if v == "forbidden":
        return z3.BoolVal(False)
    return s["teammate"]


def _forfeit(get, s):
    n = get("timer.forfeit_after_missed")
    return z3.BoolVal(False) if n == "never" else s["missed"] >= n


def _networth(get, s):
    return _r(get("networth.mortgaged_property")) * z3.ToReal(s["price"])


def _per_turn(get, s):
    v = get("building.per_turn_limit")
    cap = 3 * int(get("building.max_houses"))
    return z3.IntVal({"unlimited": cap, "one_level_per_street": 3, "one_per_group": 1}[v])


def _dealt(get, s):
    v = get("setup.dealt_properties")
    return z3.IntVal(28 // 3 if v == "all" else v)   # three players share the board when all are dealt


def _dealt_paid(get, s):
    return z3.ToReal(s["price"]) if get("setup.dealt_properties_paid") else _r(0)


def _luxury(get, s):
    return _r(get("tax.luxury"))


def _start_cash(get, s):
    return _r(get("setup.starting_cash"))


PHASE = Var("phase", "moment", lo=0, hi=2, prefer=1,
            names=("before rolling, in one's own turn",
                   "at a payment after rolling, short of the money due, in one's own turn",
                   "during another player's turn"))


def _allowed_at(param, raises_cash: bool = False):
    """May the player act at this moment? Selling and mortgaging also raise the money for a payment
    (``debt.raise_cash_first``): a general timing rule is read together with that stated exception."""
    def outcome(get, s):
        v = get(param)
        if v == "anytime":
            return z3.BoolVal(True)
        ok = s["phase"] <= 1 if v == "own_turn_and_payments" else s["phase"] == 0
        if raises_cash and get("debt.raise_cash_first"):
            ok = z3.Or(ok, s["phase"] == 1)
        return ok
    return outcome


def _salary(get, s):
    return _r(get("go.salary")) if get("go.salary_on_pass") else _r(0)


B = lambda name, label: Var(name, label, sort="bool", prefer=False)  # noqa: E731

FAMILIES: tuple[Family, ...] = (
    Family("unmortgage_cost", "What does it cost to lift the mortgage on a property?",
           ("mortgage.interest_base", "mortgage.interest_rate", "mortgage.value"), (PRICE,), _unmortgage),
    Family("inherited_mortgage_interest",
           "A creditor inherits a mortgaged property from a bankrupt player: what interest is due at once?",
           ("bankruptcy.mortgage_interest_base", "mortgage.interest_rate", "mortgage.value"), (PRICE,),
           _inherited),
    Family("transferred_mortgage_total",
           "A player receives a mortgaged property, keeps it mortgaged and lifts it later: "
           "what is paid in all?",
           ("mortgage.transfer_interest", "mortgage.transfer_unmortgage_pays_interest_again",
            "mortgage.interest_base", "mortgage.interest_rate", "mortgage.value"), (PRICE,), _transfer),
    Family("received_mortgage_lifted_at_once",
           "A player receives a mortgaged property and lifts the mortgage at once: what is paid in all, the "
           "interest due on receipt included?",
           ("mortgage.transfer_lift_at_once", "mortgage.transfer_interest",
            "mortgage.transfer_unmortgage_pays_interest_again", "bankruptcy.mortgage_interest_base",
            "mortgage.interest_base", "mortgage.interest_rate", "mortgage.value"),
           (PRICE, Var("bankruptcy", "inherited from a bankrupt player (otherwise received in a trade)",
                       sort="bool", prefer=False)), _lifted_at_once),
    Family("mortgage_loan", "How much does the bank lend on a mortgage?", ("mortgage.value",), (PRICE,),
           _mortgage_loan),
    Family("street_rent", "What rent is paid on an unbuilt street?",
           ("rent.group_multiplier", "rent.group_bonus_with_buildings",
            "rent.group_bonus_with_mortgaged_mate",
            "rent.mortgaged", "rent.jailed_owner_collects", "teams.teammates_pay_rent"),
           (Var("base_rent", "base rent on the deed", choices=BASE_RENTS, prefer=6, money=True),
            Var("owns_group", "the owner holds the whole colour group", sort="bool", prefer=True),
            B("mate_built", "another street of the group has houses"),
            B("mate_mortgaged", "another street of the group is mortgaged"),
            B("mortgaged", "this street is mortgaged"),
            B("owner_jailed", "the owner is in jail"),
            B("teammate", "the payer is the owner's teammate")), _street_rent),
    Family("station_rent", "What rent does a station charge?", ("rent.station_schedule",),
           (Var("stations", "stations the owner holds", lo=1, hi=4, prefer=1),), _station_rent),
    Family("utility_rent", "What rent does a utility charge?", ("rent.utility_multipliers",),
           (Var("dice", "dice total", lo=2, hi=12, prefer=7),
            Var("utilities", "utilities the owner holds", lo=1, hi=2, prefer=1)), _utility_rent),
    Family("rent_claim", "Is rent still owed when the owner asks for it late?",
           ("rent.claim_deadline", "rent.owner_must_claim"),
           (Var("rolled_since", "players who rolled since the landing", lo=0, hi=3, prefer=0),
            Var("payer_seat", "seats from the owner to the payer (4 players: 1 = the player after the owner)",
                lo=1, hi=3, prefer=1)), _rent_claim,
           unit="bool"),
    Family("rent_after_tax", "How much of a rent of 100 does the owner keep at a given minute of play?",
           ("rent.tax_enabled", "rent.tax_start_minute", "rent.tax_initial_rate", "rent.tax_step_rate",
            "rent.tax_step_minutes", "rent.tax_max_rate"),
           (Var("minute", "minute of play", lo=0, hi=180, prefer=0),), _rent_after_tax),
    Family("go_salary", "How much does a player get at GO?",
           ("go.salary", "go.salary_on_pass", "go.salary_on_landing", "go.exact_landing_bonus",
            "go.salary_stop_minute", "go.exact_landing_bonus_after_salary_stop"),
           (Var("exact", "the move ends exactly on GO (otherwise it passes GO)", sort="bool", prefer=False),
            Var("minute", "minute of play", lo=0, hi=180, prefer=0)), _go),
    Family("go_card_twice", "Pass GO, land on a card square, draw Advance to GO: how much salary in all?",
           ("go.pass_then_card_to_go_pays_twice", "go.salary"), (), _go_twice),
    Family("go_second_pass",
           "Pass GO, land on a card square, draw a card that takes the player past GO again (not onto it): "
           "how much salary in all?",
           ("go.salary_once_per_turn", "go.pass_then_card_to_go_pays_twice", "go.salary"), (), _go_second_pass),
    Family("auction_opening", "What is the lowest opening bid in an auction?", ("auction.opening_bid",),
           (PRICE,), _opening),
    Family("auction_held", "Is a property the player declines to buy auctioned?", ("purchase.on_decline",),
           (), _auctioned, unit="bool"),
    Family("auction_next_bid", "What is the smallest bid allowed after the current one?",
           ("auction.min_increment",),
           (Var("bid", "current highest bid", lo=1, hi=1000, prefer=100, money=True),),
           _next_bid),
    Family("auction_decliner_bids", "May the player who declined to buy bid in the auction?",
           ("auction.bidders",), (), _decliner_bids, unit="bool"),
    Family("auction_bid_above_cash", "May a player bid more than the cash in hand (and raise the money after "
           "winning)?", ("auction.bid_above_cash",), (), _bid_above_cash, unit="bool"),
    Family("own_auction_opening", "An owner puts their own mortgaged property up for auction at once: where "
           "does the bidding open?", ("mortgage.immediate_auction", "mortgage.immediate_auction_opening",
                                      "mortgage.value"),
           (PRICE,), _own_auction_opening, special=((NO_OWN_AUCTION, "no such auction"),)),
    Family("own_auction_owner_bids", "May the owner bid in their own auction of a mortgaged property?",
           ("mortgage.immediate_auction_owner_bids",), (), _own_auction_owner_bids, unit="bool"),
    Family("own_auction_owner_gets", "Another player wins the owner's own auction of a mortgaged property: "
           "what does the owner get?", ("mortgage.immediate_auction_proceeds",),
           (PRICE, Var("bid", "the winning bid", lo=1, hi=5000, prefer=300, money=True)),
           _own_auction_owner_gets, special=((NO_OWN_AUCTION, "no such auction"),)),
    Family("shortage_auction", "The bank has a few houses left and players want to build: are the houses "
           "auctioned?", ("building.shortage_trigger", "building.shortage_auction"),
           (Var("stock", "houses left in the bank", lo=1, hi=8, prefer=3),
            Var("builders", "players able to build", lo=1, hi=4, prefer=2),
            Var("wanted", "houses they want in all", lo=1, hi=24, prefer=6)), _shortage_auction, unit="bool"),
    Family("jail_last_try", "A doubles roll in jail fails: does the player stay, or leave, and for how much?",
           ("jail.after_last_try", "jail.max_tries", "jail.fine"),
           (Var("failed", "doubles rolls failed in jail, this one included", lo=1, hi=4, prefer=1),),
           _last_try,
           special=((-1, "still in jail"),)),
    Family("jail_fine", "What does it cost to buy one's way out of jail?", ("jail.fine",), (), _jail_fine),
    Family("doubles_to_jail", "Does a run of doubles send the player to jail?",
           ("dice.doubles_to_jail", "dice.doubles_roll_again"),
           (Var("doubles", "consecutive doubles rolled", lo=1, hi=4, prefer=3),), _doubles_jail, unit="bool"),
    Family("trade_accepted", "Is a trade between two players allowed?",
           ("trade.max_value_gap", "trade.max_value_ratio", "trade.allowed"),
           (Var("side_a", "value given by one side", lo=1, hi=2000, prefer=100, money=True),
            Var("side_b", "value given by the other side", lo=1, hi=2000, prefer=300, money=True)), _trade,
           unit="bool"),
    Family("bankrupt", "Is the player bankrupt, or may they only give up?", ("bankruptcy.threshold",
                                                                               "bankruptcy.surrender"),
           (Var("debt", "the debt", lo=0, hi=5000, prefer=500, money=True),
            Var("cash", "cash in hand", lo=0, hi=5000, prefer=100, money=True),
            Var("raisable", "what selling buildings and mortgaging would raise", lo=0, hi=5000, prefer=200,
                money=True),
            Var("worth", "total worth (cash + property values + building values)", lo=0, hi=5000, prefer=600,
                money=True)), _threshold, unit="count",
           special=((0, "not bankrupt"), (1, "not bankrupt; may give up voluntarily"), (2, "bankrupt"))),
    Family("sell_back_refund", "What does the bank refund for a building sold back?",
           ("building.sell_ratio",),
           (Var("house_cost", "price paid for the house", choices=HOUSE_COSTS, prefer=100, money=True),),
           _sell_back),
    Family("income_tax", "How much Income Tax does a player pay?",
           ("tax.income", "tax.income_percent_option"),
           (Var("worth", "total worth", lo=0, hi=5000, prefer=1500, money=True),), _income_tax),
    Family("luxury_tax", "How much is the Luxury Tax?", ("tax.luxury",), (), _luxury),
    Family("free_parking", "What does a player get for landing on Free Parking?", ("free_parking.pot",),
           (Var("pot", "money paid in taxes and fines so far", lo=0, hi=1000, prefer=150, money=True),),
           _free_parking),
    Family("free_parking_card_payment", "A player pays a card's fee to the bank: does it go into the Free "
           "Parking pot?", ("free_parking.pot_card_payments",), (), _card_payment_potted, unit="bool"),
    Family("destroyed_building_owner", "Whose building does the card that destroys a building remove?",
           ("cards.building_destroy_target", "cards.building_destroy"), (), _destroyed_whose, unit="count",
           special=((0, "no such card"), (1, "a building of the drawer"), (2, "a building of an opponent"))),
    Family("clock_turns_per_hour", "How many player-turns make an hour of play on the game clock (the "
           "minutes of the rules counted in turns)?", ("clock.seconds_per_turn",), (), _turns_per_hour,
           unit="count"),
    Family("speed_die_faces", "How many faces of the speed die show this symbol?",
           ("speed_die.pip_faces", "speed_die.mr_monopoly_faces", "speed_die.bus_faces"),
           (Var("face", "symbol", lo=0, hi=2, prefer=1, names=("pips", "Mr. Monopoly", "the Bus")),),
           _speed_faces, unit="count"),
    Family("hotel_allowed", "May a hotel be built?", ("building.hotel_threshold",),
           (Var("houses", "houses on each street of the group", lo=0, hi=5, prefer=3),), _hotel, unit="bool"),
    Family("income_tax_hotel_worth", "What does a hotel count for in total worth for the Income Tax?",
           ("tax.worth_hotel", "building.hotel_threshold"),
           (Var("house_cost", "price of a house (and of the hotel)", choices=HOUSE_COSTS, prefer=200,
                money=True),), _hotel_tax_worth),
    Family("house_allowed", "May one more house be built on this street?",
           ("building.even_build", "building.max_houses"),
           (Var("houses", "houses on this street", lo=0, hi=5, prefer=1),
            Var("mate_houses", "fewest houses on another street of the group", lo=0, hi=5, prefer=0)), _even,
           unit="bool"),
    Family("house_available", "May a player buy a house from the bank?", ("building.house_supply",),
           (Var("on_board", "houses already on the board", lo=0, hi=60, prefer=32),), _supply, unit="bool"),
    Family("mortgage_kept", "Does the owner still hold a mortgaged property after some rounds?",
           ("mortgage.expiry_rounds",), (Var("rounds", "rounds since the mortgage", lo=1, hi=30, prefer=7),),
           _expiry, unit="bool"),
    Family("trade_mortgaged", "May a mortgaged property be traded?", ("trade.mortgaged",),
           (B("teammate", "the trade is between teammates"),), _trade_mortgaged, unit="bool"),
    Family("forfeit", "Does a player who misses turns lose automatically?", ("timer.forfeit_after_missed",),
           (Var("missed", "consecutive missed turns", lo=1, hi=5, prefer=2),), _forfeit, unit="bool"),
    Family("networth_mortgaged", "What does a mortgaged property count for in net worth?",
           ("networth.mortgaged_property",), (PRICE,), _networth),
    Family("build_per_turn", "How many houses may be put on an empty three-street group in one turn?",
           ("building.per_turn_limit",), (), _per_turn, unit="count"),
    Family("dealt_deeds", "How many title deeds does each of three players hold before the first roll?",
           ("setup.dealt_properties",), (), _dealt, unit="count"),
    Family("dealt_paid", "What does a player pay for a dealt title deed?", ("setup.dealt_properties_paid",),
           (PRICE,), _dealt_paid),
    Family("starting_cash", "How much cash does a player start with?", ("setup.starting_cash",), (),
           _start_cash),
    Family("salary", "How much is the salary for passing GO?", ("go.salary",), (), _salary),
    Family("build_allowed_now", "May the player build at this moment?", ("building.timing",), (PHASE,),
           _allowed_at("building.timing"), unit="bool"),
    Family("sell_allowed_now", "May the player sell buildings back at this moment?",
           ("building.sell_timing",),
           (PHASE,), _allowed_at("building.sell_timing", raises_cash=True), unit="bool"),
    Family("mortgage_allowed_now", "May the player mortgage at this moment?", ("mortgage.timing",), (PHASE,),
           _allowed_at("mortgage.timing", raises_cash=True), unit="bool"),
    Family("trade_allowed_now", "May the player propose a trade at this moment?", ("trade.timing",), (PHASE,),
           _allowed_at("trade.timing"), unit="bool"),
)

#: The family that explains each parameter (the first family listing it).
BY_PARAM: dict[str, Family] = {}
for _f in FAMILIES:
    for _p in _f.params:
        BY_PARAM.setdefault(_p, _f)
BY_ID = {f.id: f for f in FAMILIES}
