"""The questions a witness answers, each as a situation the reference engine plays.

Two rulings differ in meaning only if some situation makes the game go
differently. A ``Probe`` names the parameters it explains and the question it
asks; it builds a situation — a canonical state and a few actions — for one
side from that side's compiled config (``situations.Table``: deeds picked from
the board data by price or group), and reads the outcome from what the
reference engine did: money paid or received (in classic amounts), whether an
action was allowed, a count. A probe's situation variables list the values to
try, the plainest first; where the SMT layer models the probe's action
(``smt``), it finds the situation instead (``verify.compare.search``).

Nothing here says what a rule does: the engine plays it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from ..engine.step import legal_actions, new_game
from .situations import ACTOR, OTHER, THIRD, Played, Table, play
from .values import number


@dataclass(frozen=True)
class Var:
    name: str
    label: str
    choices: tuple = ()               # the values tried, the plainest first
    money: bool = False               # a classic amount (each side sees it in its own money)
    names: tuple[str, ...] = ()       # readable names of an int-coded choice
    show: Callable[[Table, Any], str] | None = None   # the value in words, from the board data
    #: more values to try, from each side's config: the edges of a side's own thresholds (each value
    #: and the one before it), so that two thresholds a minute apart are told apart
    around: Callable[[Any], tuple] | None = None

    def text(self, value, t: Table | None = None) -> str:
        if self.show is not None and t is not None:
            return self.show(t, value)
        if isinstance(value, bool):
            return self.label if value else "not: " + self.label
        if self.names and isinstance(value, int) and 0 <= value < len(self.names):
            return self.names[value]
        return f"{self.label} = {value}"


def B(name: str, label: str, prefer: bool = False) -> Var:
    return Var(name, label, (prefer, not prefer))


@dataclass(frozen=True)
class Absent:
    """What a situation builder returns for a side whose game cannot hold the situation at all (a card
    its decks do not have, a mechanism it lacks): that side's outcome is "does not arise in this game",
    never a situation made up for it. (``None`` instead means the situation's values do not fit
    together, for every side.)"""

    reason: str


Build = Callable[[Table, dict], "tuple[dict, list[dict]] | Absent | None"]
Observe = Callable[[Table, Played, dict], Any]


@dataclass(frozen=True)
class Probe:
    id: str
    question: str
    params: tuple[str, ...]
    vars: tuple[Var, ...]
    build: Build
    observe: Observe
    unit: str = "money"               # money | bool | count | value
    special: tuple[tuple[Any, str], ...] = ()   # outcomes with a meaning of their own
    smt: str | None = None            # the SMT action whose transition finds the situation
    players: int = 3                  # seats at the table
    #: how a money outcome reads (``{}``: the amount) where the question asks more than an amount
    amount_text: str = "{}"


# ---- what the engine did ------------------------------------------------------------------------

def _cash(s: dict, seat: int) -> int:
    return s["players"][seat]["cash"]


def paid(t: Table, pl: Played, seat: int = ACTOR) -> Any:
    return t.classic(_cash(pl.first, seat) - _cash(pl.last, seat))


def gained(t: Table, pl: Played, seat: int = ACTOR) -> Any:
    return t.classic(_cash(pl.last, seat) - _cash(pl.first, seat))


def allowed(pl: Played) -> bool:
    return pl.refused is None


def rent_owed(t: Table, pl: Played) -> Any:
    """The rent a landing charged (paid at once, or due to a claim)."""
    for e in pl.events:
        if e.get("event") == "rent_due" or (e.get("event") == "paid" and e.get("kind") == "rent"):
            return t.classic(e["amount"])
    return 0


def _prop(s: dict, square: int) -> dict:
    return next(p for p in s["properties"] if p["square"] == square)


def _min_bid(t: Table, pl: Played) -> Any:
    if pl.last.get("phase") != "auction":
        return None
    bids = [a["amount"] for a in legal_actions(t.cfg, pl.last) if a["type"] == "bid"]
    return t.classic(min(bids)) if bids else None


# ---- situations ---------------------------------------------------------------------------------

def _deed(t: Table, v: dict):
    return t.street(v.get("deed", "median"))


def _claim(owner: int, square: int) -> dict:
    """The owner asks for the rent (where the rules make that the owner's job)."""
    return {"type": "claim_rent", "seat": owner, "square": square, "optional": True}


def _pay(seat: int = ACTOR) -> dict:
    """The payer pays at the payment step (where the rules stop there rather than take the cash)."""
    return {"type": "pay", "seat": seat, "optional": True}


def _visit(t: Table) -> int:
    """A square where a move ends with nothing happening: the jail, just visiting."""
    return t.squares_of_kind("jail")[0]


NO_TEAMS = Absent("the game has no teams")


def _teammate(t: Table, seat: int) -> int | None:
    if not t.cfg.teams.enabled or t.cfg.teams.size < 2:
        return None
    teams = t.players // t.cfg.teams.size
    return seat + teams if seat + teams < t.players else None


def unmortgage(t: Table, v: dict):
    d = _deed(t, v)
    s = t.own(t.neutral(), d.square, ACTOR, mortgaged=True)
    return s, [{"type": "unmortgage", "seat": ACTOR, "square": d.square}]


def mortgage(t: Table, v: dict):
    d = _deed(t, v)
    s = t.own(t.neutral(), d.square, ACTOR)
    return s, [{"type": "mortgage", "seat": ACTOR, "square": d.square}]


def _debt(s: dict, debtor: int, creditor: int, amount: int, kind: str = "rent") -> dict:
    s["phase"] = "debt"
    s["current"] = debtor
    s["pending"] = {"debtor": debtor, "creditor": creditor, "amount": amount, "kind": kind}
    s["queue"]["debts"] = [[debtor, creditor, amount, amount, kind]]
    return s


def inherited(t: Table, v: dict):
    """OTHER goes bankrupt to ACTOR holding one mortgaged deed; ACTOR receives it."""
    d = _deed(t, v)
    s = t.own(t.neutral(), d.square, OTHER, mortgaged=True)
    t.cash(s, OTHER, 0)
    s = _debt(s, OTHER, ACTOR, t.money(5000))
    return s, [{"type": "bankrupt", "seat": OTHER}]


def received_then_lifted(later: bool):
    """OTHER's mortgaged deed passes to ACTOR (in a trade for its printed price, or by OTHER's bankruptcy
    to ACTOR); ACTOR lifts the mortgage at once, or (``later``) after its next roll, or after the bankrupt
    player's turn (a game that lets no mortgaged deed be traded may still pass one on in a bankruptcy)."""
    def build(t: Table, v: dict):
        d = _deed(t, v)
        s = t.own(t.neutral(), d.square, OTHER, mortgaged=True)
        if v.get("bankruptcy"):
            t.cash(s, OTHER, 0)
            s = _debt(s, OTHER, ACTOR, t.money(5000))
            acts = [{"type": "bankrupt", "seat": OTHER}]
        else:
            acts = [{"type": "trade", "seat": ACTOR, "with": OTHER, "give": {"cash": d.price},
                     "take": {"squares": [d.square]}}]
        if later and v.get("bankruptcy"):
            # the bankrupt player's turn ends: the deed is no longer just received
            acts.append({"type": "end_turn", "seat": OTHER})
        elif later:
            t.at(s, ACTOR, _visit(t) - 3)
            acts.append({"type": "roll", "seat": ACTOR, "dice": [1, 2]})
        acts.append({"type": "unmortgage", "seat": ACTOR, "square": d.square})
        return s, acts

    def observe(t: Table, pl: Played, v: dict):
        if not allowed(pl):
            return None
        price = 0 if v.get("bankruptcy") else t.classic(_deed(t, v).price)
        return paid(t, pl, ACTOR) - price
    return build, observe


def street_rent(t: Table, v: dict):
    d = _deed(t, {"deed": "lower"})
    owner = OTHER
    if v.get("teammate"):
        owner = _teammate(t, ACTOR)
        if owner is None:
            return NO_TEAMS if not t.cfg.teams.enabled else None
    group = t.group_of(d.square)
    mates = [q for q in group if q != d.square]
    s = t.neutral()
    if v.get("owns_group"):
        t.own(s, group, owner)
    else:
        t.own(s, d.square, owner)
    if v.get("mate_built"):
        if not v.get("owns_group"):
            return None
        t.own(s, mates[0], owner, houses=1)
    if v.get("mate_mortgaged"):
        if not v.get("owns_group") or v.get("mate_built"):
            return None
        t.own(s, mates[-1], owner, mortgaged=True)
    if v.get("mortgaged"):
        if v.get("mate_built"):
            return None
        t.own(s, d.square, owner, mortgaged=True)
    if v.get("owner_jailed"):
        p = s["players"][owner]
        p.update(in_jail=True, position=_visit(t), jail_turns=0)
    return s, [t.roll_to(s, ACTOR, d.square), _claim(owner, d.square), _pay()]


def _landing_on_held(kind: str, count: str, steps: Callable[[dict], int] = lambda v: 3):
    """OTHER holds ``v[count]`` deeds of ``kind``; ACTOR lands on the first (``steps`` squares away)."""
    def build(t: Table, v: dict):
        squares = [d.square for d in t.deeds(kind)]
        if v[count] > len(squares):
            return None
        s = t.own(t.neutral(), squares[:v[count]], OTHER)
        return s, [t.roll_to(s, ACTOR, squares[0], steps=steps(v)), _claim(OTHER, squares[0]), _pay()]
    return build


station_rent = _landing_on_held("station", "stations")
utility_rent = _landing_on_held("utility", "utilities", lambda v: v["dice"])


def _end_turn() -> dict:
    return {"type": "end_turn", "optional": True}


def rent_claim(t: Table, v: dict):
    """Four players; the payer (``payer_seat`` seats after the owner) lands on the owner's street; then
    ``rolled_since`` other players take their turns; then the owner asks for the rent."""
    if t.players < 4:
        return None
    owner, payer = ACTOR, v["payer_seat"] % t.players
    d = _deed(t, {"deed": "lower"})
    s = t.own(t.neutral(), d.square, owner)
    acts = [t.roll_to(s, payer, d.square), _pay(payer), _end_turn()]
    seat = payer
    for _ in range(v["rolled_since"]):
        seat = (seat + 1) % t.players
        if seat == owner:
            return None                  # the owner's own roll: the claim is made before it
        t.at(s, seat, _visit(t) - 3)
        acts += [{"type": "roll", "seat": seat, "dice": [1, 2]}, _end_turn()]
    acts += [{"type": "claim_rent", "seat": owner, "square": d.square, "optional": True}, _pay(payer)]
    return s, acts


def rent_paid_at_last(t: Table, pl: Played, v: dict) -> bool:
    return any(e.get("event") == "paid" and e.get("kind") == "rent" for e in pl.events) or any(
        e.get("event") == "rent_claimed" for e in pl.events)


def rent_after_tax(t: Table, v: dict):
    d = _deed(t, {"deed": "dearest"})
    s = t.own(t.neutral(), d.square, OTHER)
    s["minute"] = float(v["minute"])
    return s, [t.roll_to(s, ACTOR, d.square), _claim(OTHER, d.square), _pay()]


def rent_kept(t: Table, pl: Played, v: dict) -> Any:
    """Of a rent of 100, what the owner keeps (the share the engine credits, per 100 of rent)."""
    owed = rent_owed(t, pl)
    if not owed:
        return None

    return number(Fraction(gained(t, pl, OTHER)) * 100 / Fraction(owed))


def go_salary(t: Table, v: dict):
    s = t.neutral()
    s["minute"] = float(v["minute"])
    steps = 3 if v["exact"] else 4          # onto GO, or past it to the first square after GO
    target = 0 if v["exact"] else 1
    t.turn_of(s, ACTOR)
    t.at(s, ACTOR, (target - steps) % t.cfg.board.size)
    return s, [t.roll(steps)]


def _card_square_after_go(t: Table) -> tuple[int, str]:
    squares = [(q, "chance") for q in t.cfg.board.chance_squares] + [(q, "chest") for q in t.cfg.board.chest_squares]
    return min(squares)


def _top(s: dict, deck: str, card: str) -> dict:
    rest = [c for c in s["decks"][deck] if c != card]
    s["decks"][deck] = [card] + rest
    return s


def go_card(twice: bool):
    """Pass GO from the last square, land on a card square, and draw a card: Advance to GO (``twice``),
    or a card that moves on past GO again (to a square before the card square)."""
    def build(t: Table, v: dict):
        board = t.cfg.board
        squares = sorted([(q, "chance") for q in board.chance_squares] + [(q, "chest") for q in board.chest_squares])
        for square, deck in squares:
            if square + 1 > 11:
                break                         # no roll from the last square passes GO onto it
            for c in getattr(t.cfg.cards, deck):
                if c.effect == "advance_to" and (c.square == 0 if twice else 0 < c.square < square):
                    s = _top(t.neutral(), deck, c.id)
                    t.turn_of(s, ACTOR)
                    t.at(s, ACTOR, t.cfg.board.size - 1)
                    return s, [t.roll(square + 1)]
        return Absent("no card square a roll from the last square reaches holds such a card in this game's "
                      "decks")
    return build


def _salary_total(t: Table, pl: Played, v: dict) -> Any:
    return t.classic(sum(e["amount"] for e in pl.events if e.get("event") == "salary"))


def auction_after_decline(extra: Callable[[Table, dict, dict, list], list | None] | None = None):
    """ACTOR lands on an unowned street and declines to buy it; then ``extra``'s actions."""
    def build(t: Table, v: dict):
        d = _deed(t, v)
        s = t.neutral()
        acts = [t.roll_to(s, ACTOR, d.square), {"type": "decline", "seat": ACTOR}]
        if extra is not None:
            more = extra(t, v, s, acts)
            if more is None:
                return None
            acts += more
        return s, acts
    return build


def _auctioned(t: Table, pl: Played, v: dict) -> bool:
    return allowed(pl) and pl.last.get("phase") == "auction"


def _decliner_bids(t: Table, pl: Played, v: dict) -> bool | None:
    if pl.last.get("phase") != "auction":
        return None
    return ACTOR in (pl.last["pending"] or {}).get("bidders", [])


def _first_bid(t: Table, v: dict, s: dict, acts: list):
    return [{"type": "bid", "seat": OTHER, "amount": t.money(v["bid"])}]


def _bid_over_cash(t: Table, v: dict, s: dict, acts: list):
    """OTHER bids the lowest bid allowed, holding ``cash`` (classic) less than that bid."""
    opened = play(t.cfg, s, acts)
    if opened.refused is not None:
        return None
    bids = [a["amount"] for a in legal_actions(t.cfg, opened.last) if a["type"] == "bid" and a["seat"] == OTHER]
    if not bids:
        return None
    s["players"][OTHER]["cash"] = max(0, min(bids) - t.money(v["cash"]))
    return [{"type": "bid", "seat": OTHER, "amount": min(bids)}]


def own_auction(t: Table, v: dict):
    d = _deed(t, v)
    s = t.own(t.neutral(), d.square, ACTOR, mortgaged=True)
    acts = [{"type": "auction_mortgaged", "seat": ACTOR, "square": d.square}]
    if "bid" in v:
        acts.append({"type": "bid", "seat": OTHER, "amount": t.money(v["bid"])})
        acts += _everyone_else_passes(t, OTHER)
    return s, acts


def _everyone_else_passes(t: Table, leader: int) -> list[dict]:
    """Every other bidder passes, whatever the order of bidding (a pass out of turn is skipped)."""
    return [{"type": "pass", "seat": seat, "optional": True}
            for _ in range(t.players) for seat in range(t.players) if seat != leader]


NO_AUCTION = "no such auction"


def _own_opening(t: Table, pl: Played, v: dict):
    return NO_AUCTION if not allowed(pl) else _min_bid(t, pl)


def _own_owner_bids(t: Table, pl: Played, v: dict):
    if not allowed(pl):
        return False
    return ACTOR in (pl.last["pending"] or {}).get("bidders", [])


def _own_owner_gets(t: Table, pl: Played, v: dict):
    if pl.refused is not None and pl.refused[0]["type"] == "auction_mortgaged":
        return NO_AUCTION
    return gained(t, pl, ACTOR)


def shortage(t: Table, v: dict):
    """``builders`` players each hold a whole cheap colour group and ``cash``; the bank has ``stock``
    houses, the rest of its supply standing on the groups of the last seat (who has no cash to build);
    the first builder builds a house."""
    supply = t.cfg.building.house_supply
    if supply is None:
        return Absent("the bank's houses are unlimited in this game: no house is ever short")
    groups = [g for g in t.cfg.board.groups if g.kind == "street"]
    holder = t.players - 1
    if v["builders"] >= t.players or v["stock"] > supply:
        return None
    s = t.neutral(cash=v["cash"])
    for seat in range(v["builders"]):
        t.own(s, groups[seat].squares, seat)
    t.cash(s, holder, 0)
    left = supply - v["stock"]
    for g in groups[v["builders"]:]:
        k = len(g.squares)
        take = min(left, t.cfg.building.max_houses * k)
        for i, sq in enumerate(g.squares):
            t.own(s, sq, holder, houses=take // k + (1 if i < take % k else 0))
        left -= take
    if left:
        return None
    return s, [{"type": "build_house", "seat": ACTOR, "square": groups[0].squares[0]}]


def _auction_opened(t: Table, pl: Played, v: dict) -> bool:
    return pl.last.get("phase") == "auction"


STILL_IN_JAIL = "still in jail"


def jail_try(t: Table, v: dict):
    s = t.neutral()
    p = s["players"][ACTOR]
    p.update(in_jail=True, position=_visit(t), jail_turns=v["failed"] - 1)
    t.turn_of(s, ACTOR)
    return s, [{"type": "roll", "seat": ACTOR, "dice": [1, 2]}]


def _jail_outcome(t: Table, pl: Played, v: dict):
    if not allowed(pl):
        return None
    if pl.last["players"][ACTOR]["in_jail"]:
        return STILL_IN_JAIL
    return t.classic(sum(e["amount"] for e in pl.events
                         if e.get("event") == "paid" and e.get("debtor") == ACTOR))


def jail_fine(t: Table, v: dict):
    s = t.neutral()
    s["players"][ACTOR].update(in_jail=True, position=_visit(t), jail_turns=0)
    return s, [{"type": "pay_fine", "seat": ACTOR}]


def doubles(t: Table, v: dict):
    s = t.neutral()
    s["players"][ACTOR]["doubles"] = v["doubles"] - 1
    t.turn_of(s, ACTOR)
    t.at(s, ACTOR, _visit(t) - 4)
    return s, [{"type": "roll", "seat": ACTOR, "dice": [2, 2]}]


def _jailed(t: Table, pl: Played, v: dict) -> bool:
    return allowed(pl) and pl.last["players"][ACTOR]["in_jail"]


def trade_values(t: Table, v: dict):
    """ACTOR pays ``cash`` for OTHER's deed ``deed``."""
    d = _deed(t, v)
    s = t.own(t.neutral(cash=max(1500, v["cash"])), d.square, OTHER)
    return s, [{"type": "trade", "seat": ACTOR, "with": OTHER, "give": {"cash": t.money(v["cash"])},
                "take": {"squares": [d.square]}}]


def trade_mortgaged(t: Table, v: dict):
    d = _deed(t, v)
    partner = OTHER
    if v.get("teammate"):
        partner = _teammate(t, ACTOR)
        if partner is None:
            return NO_TEAMS if not t.cfg.teams.enabled else None
    s = t.own(t.neutral(), d.square, partner, mortgaged=True)
    return s, [{"type": "trade", "seat": ACTOR, "with": partner, "give": {"cash": d.price},
                "take": {"squares": [d.square]}}]


PHASES = ("before rolling, in one's own turn",
          "at a payment after rolling, short of the money due, in one's own turn",
          "during another player's turn")


def at_moment(act: Callable[[Table, dict, list], dict], built: bool = False):
    """ACTOR holds a whole cheap colour group (with a house on each street when ``built``); at the moment
    ``phase`` (see PHASES) ACTOR tries ``act``."""
    def build(t: Table, v: dict):
        group = next(g for g in t.cfg.board.groups if g.kind == "street")
        s = t.neutral()
        t.own(s, group.squares, ACTOR, houses=1 if built else 0)
        acts: list[dict] = []
        if v["phase"] == 1:                  # ACTOR lands on OTHER's dear street without the money
            dear = t.street("dearest")
            t.own(s, t.group("dearest").squares, OTHER, houses=3)
            t.cash(s, ACTOR, 10)
            acts += [t.roll_to(s, ACTOR, dear.square), _claim(OTHER, dear.square)]
        elif v["phase"] == 2:
            t.turn_of(s, OTHER)
        acts.append(act(t, v, list(group.squares)))
        return s, acts
    return build


def _build_act(t, v, squares):
    return {"type": "build_house", "seat": ACTOR, "square": squares[0]}


def _sell_act(t, v, squares):
    return {"type": "sell_house", "seat": ACTOR, "square": squares[0]}


def _mortgage_act(t, v, squares):
    return {"type": "mortgage", "seat": ACTOR, "square": squares[0]}


def _trade_act(t, v, squares):
    station = t.deeds("station")[0].square
    return {"type": "trade", "seat": ACTOR, "with": OTHER, "give": {"cash": t.cfg.board.deed(station).price},
            "take": {"squares": [station]}}


def _at_moment_trade(t: Table, v: dict):
    built = at_moment(_trade_act)(t, v)
    if built is None:
        return None
    s, acts = built
    t.own(s, t.deeds("station")[0].square, OTHER)
    return s, acts


def _allowed_last(t: Table, pl: Played, v: dict) -> bool:
    """Whether the situation's last action (the one asked about) was allowed; None when the moment
    itself could not be reached."""
    if pl.refused is None:
        return True
    return False


def bankruptcy(t: Table, v: dict):
    """ACTOR owes ``debt`` with ``cash`` in hand and one unbuilt deed (raising its mortgage value
    by a mortgage); may ACTOR go bankrupt, or only give up?"""
    d = _deed(t, v)
    s = t.own(t.neutral(), d.square, ACTOR)
    t.cash(s, ACTOR, v["cash"])
    return _debt(s, ACTOR, OTHER, t.money(v["debt"])), []


BANKRUPT_OUTCOMES = ((0, "not bankrupt"), (1, "not bankrupt; may give up voluntarily"), (2, "bankrupt"))


def _bankrupt_outcome(t: Table, pl: Played, v: dict) -> int:
    kinds = {a["type"] for a in legal_actions(t.cfg, pl.last) if a.get("seat") == ACTOR}
    return 2 if "bankrupt" in kinds else 1 if "surrender" in kinds else 0


def sell_back(t: Table, v: dict):
    chosen = t.group(v["group"])
    s = t.own(t.neutral(), chosen.squares, ACTOR, houses=1)
    return s, [{"type": "sell_house", "seat": ACTOR, "square": chosen.squares[-1]}]


def income_tax(t: Table, v: dict):
    square = t.squares_of_kind("income_tax")[0]
    s = t.neutral(cash=v["worth"])
    return s, [t.roll_to(s, ACTOR, square), {"type": "pay_tax", "seat": ACTOR, "option": "percent",
                                               "optional": True},
               {"type": "pay_tax", "seat": ACTOR, "option": "fixed", "optional": True}, _pay()]


def hotel_tax_worth(t: Table, v: dict):
    group = t.group(v["group"])
    square = t.squares_of_kind("income_tax")[0]
    s = t.neutral(cash=0)
    t.own(s, group.squares, ACTOR, hotel=True)
    t.cash(s, ACTOR, 5000)
    return s, [t.roll_to(s, ACTOR, square), {"type": "pay_tax", "seat": ACTOR, "option": "percent"}, _pay()]


def luxury_tax(t: Table, v: dict):
    square = t.squares_of_kind("luxury_tax")[0]
    s = t.neutral()
    return s, [t.roll_to(s, ACTOR, square), _pay()]


def free_parking(t: Table, v: dict):
    squares = t.squares_of_kind("free_parking")
    if not squares:
        return Absent("the board has no Free Parking square")
    s = t.neutral()
    s["pot"] = t.money(v["pot"])
    return s, [t.roll_to(s, ACTOR, squares[0])]


def card_fee(t: Table, v: dict):
    """ACTOR draws a card that makes them pay the bank a fee."""
    for deck in ("chance", "chest"):
        squares = getattr(t.cfg.board, f"{deck}_squares")
        card = next((c for c in getattr(t.cfg.cards, deck) if c.effect == "bank" and c.amount < 0), None)
        if squares and card is not None:
            s = _top(t.neutral(), deck, card.id)
            return s, [t.roll_to(s, ACTOR, squares[0]), _pay()]
    return Absent("no card of this game makes a player pay the bank")


def _potted(t: Table, pl: Played, v: dict) -> bool:
    return pl.last["pot"] > pl.first["pot"]


def destroy(t: Table, v: dict):
    card = next((c for c in t.cfg.cards.chance if c.effect == "destroy_building"), None)
    if card is None:
        return Absent("no card of this game destroys a building")
    groups = [g for g in t.cfg.board.groups if g.kind == "street"]
    s = t.neutral()
    t.own(s, groups[0].squares, ACTOR, houses=1)
    t.own(s, groups[1].squares, OTHER, houses=1)
    _top(s, "chance", card.id)
    return s, [t.roll_to(s, ACTOR, t.cfg.board.chance_squares[0])]


DESTROYED = ((0, "no such card"), (1, "a building of the drawer"), (2, "a building of an opponent"))


def _destroyed(t: Table, pl: Played, v: dict) -> int:
    def houses(state, seat):
        return sum(p["houses"] + 5 * p["hotel"] for p in state["properties"] if p["owner"] == seat)
    if houses(pl.last, ACTOR) < houses(pl.first, ACTOR):
        return 1
    if houses(pl.last, OTHER) < houses(pl.first, OTHER):
        return 2
    return 0


def one_turn(t: Table, v: dict):
    s = t.neutral()
    t.at(s, ACTOR, _visit(t) - 3)
    return s, [{"type": "roll", "seat": ACTOR, "dice": [1, 2]}, _end_turn()]


def _turns_per_hour(t: Table, pl: Played, v: dict):
    minutes = pl.last["minute"] - pl.first["minute"]
    if minutes <= 0:
        return None

    return number(Fraction(60) / Fraction(minutes).limit_denominator(1000))


def hotel_build(t: Table, v: dict):
    group = next(g for g in t.cfg.board.groups if g.kind == "street" and len(g.squares) == 2)
    s = t.own(t.neutral(cash=5000), group.squares, ACTOR, houses=v["houses"])
    return s, [{"type": "build_hotel", "seat": ACTOR, "square": group.squares[0]}]


def house_build(t: Table, v: dict):
    group = next(g for g in t.cfg.board.groups if g.kind == "street" and len(g.squares) == 2)
    here, mate = group.squares
    s = t.own(t.neutral(cash=5000), here, ACTOR, houses=v["houses"])
    t.own(s, mate, ACTOR, houses=v["mate_houses"])
    return s, [{"type": "build_house", "seat": ACTOR, "square": here}]


def house_stock(t: Table, v: dict):
    group = next(g for g in t.cfg.board.groups if g.kind == "street" and len(g.squares) == 2)
    s = t.own(t.neutral(cash=5000), group.squares, ACTOR)
    supply = t.cfg.building.house_supply
    if supply is not None:
        s["bank"]["houses"] = max(0, supply - v["on_board"])
    return s, [{"type": "build_house", "seat": ACTOR, "square": group.squares[0]}]


def expiry(t: Table, v: dict):
    """ACTOR's deed has been mortgaged for ``rounds`` - 1 rounds; the last seat ends its turn, and a new
    round begins."""
    d = _deed(t, {})
    s = t.own(t.neutral(), d.square, ACTOR, mortgaged=True)
    _prop(s, d.square)["mortgage_rounds"] = v["rounds"] - 1
    last = t.players - 1
    t.turn_of(s, last)
    t.at(s, last, _visit(t) - 3)
    return s, [{"type": "roll", "seat": last, "dice": [1, 2]}, _end_turn()]


def _still_held(t: Table, pl: Played, v: dict) -> bool:
    d = _deed(t, {})
    return _prop(pl.last, d.square)["owner"] == ACTOR


def forfeit(t: Table, v: dict):
    s = t.neutral()
    s["players"][ACTOR]["missed_turns"] = v["missed"] - 1
    return s, [{"type": "timeout", "seat": ACTOR, "dice": [1, 2]}]


def _out(t: Table, pl: Played, v: dict) -> bool:
    return pl.last["players"][ACTOR]["bankrupt"]


def per_turn(t: Table, v: dict):
    group = next(g for g in t.cfg.board.groups if g.kind == "street" and len(g.squares) == 3)
    s = t.own(t.neutral(cash=10000), group.squares, ACTOR)
    return s, [{"type": "build_house", "seat": ACTOR, "square": sq}
               for _ in range(t.cfg.building.max_houses) for sq in group.squares]


def _built(t: Table, pl: Played, v: dict) -> int:
    return len(pl.applied)


def _opening_state(t: Table) -> dict:
    return new_game(t.cfg, players=3, seed=1)


def setup_state(t: Table, v: dict):
    return _opening_state(t), []


def _dealt(t: Table, pl: Played, v: dict) -> int:
    return sum(1 for p in pl.first["properties"] if p["owner"] == ACTOR)


def _dealt_paid(t: Table, pl: Played, v: dict):
    owned = [p["square"] for p in pl.first["properties"] if p["owner"] == ACTOR]
    if not owned:
        return None
    start = t.cfg.setup.starting_cash
    return t.classic(start - pl.first["players"][ACTOR]["cash"])


def _start_cash(t: Table, pl: Played, v: dict):
    if any(p["owner"] == ACTOR for p in pl.first["properties"]):
        return t.classic(t.cfg.setup.starting_cash)
    return t.classic(pl.first["players"][ACTOR]["cash"])


NO_SPEED_DIE = Absent("the game has no speed die")


#: A round late enough that a speed die is in play whenever it comes in at a round (the player has passed GO).
LATE_ROUND = 20


def speed_face(t: Table, v: dict):
    if not t.cfg.speed_die.enabled:
        return NO_SPEED_DIE
    s = t.neutral()
    s["round"] = LATE_ROUND
    t.at(s, ACTOR, _visit(t) - 3)
    return s, [{"type": "roll", "seat": ACTOR, "dice": [1, 2, v["face"]]}]


def _face(t: Table, pl: Played, v: dict) -> str | None:
    if not allowed(pl):
        return None
    if pl.last["phase"] == "bus":
        return "the Bus"
    if any(e.get("event") == "mr_monopoly" for e in pl.events) or pl.last["turn"]["move"].get("mr_pending"):
        return "Mr. Monopoly"
    return "pips"


def _show_deed(t: Table, rank: str) -> str:
    d = t.street(rank)
    return f"the property: {d.name} (printed price {t.classic(d.price)} classic)"


def _show_group(t: Table, rank: str) -> str:
    g = t.group(rank)
    return f"the colour group: {g.name} (a house costs {t.classic(t.cfg.board.deed(g.squares[0]).house_cost)} classic)"


RANKS = ("median", "lower", "upper", "dearest", "cheapest")
PRICE = Var("deed", "the property", RANKS, show=_show_deed)


def _in_jail(t: Table, s: dict, turns: int = 0) -> dict:
    s["players"][ACTOR].update(in_jail=True, position=_visit(t), jail_turns=turns)
    return t.turn_of(s, ACTOR)


NO_JAIL_CARD = Absent("the game's decks hold no Get Out of Jail Free card")


def jail_card(t: Table, v: dict):
    """ACTOR is in jail holding a Get Out of Jail Free card (taken out of its deck)."""
    for deck in ("chance", "chest"):
        card = next((c for c in getattr(t.cfg.cards, deck) if c.effect == "jail_free"), None)
        if card is not None:
            break
    else:
        return NO_JAIL_CARD
    s = _in_jail(t, t.neutral())
    s["decks"][deck] = [c for c in s["decks"][deck] if c != card.id]
    s["players"][ACTOR]["jail_cards"] = [deck]
    return s, [{"type": "use_card", "seat": ACTOR}]


def fine_on_turn(t: Table, v: dict):
    """ACTOR has spent ``turns`` turns in jail and, before rolling, pays the fine."""
    return _in_jail(t, t.neutral(), v["turns"]), [{"type": "pay_fine", "seat": ACTOR}]


def creditor_inherits(t: Table, v: dict):
    """OTHER goes bankrupt to ACTOR over rent, holding one unbuilt, unmortgaged street."""
    d = _deed(t, v)
    s = t.own(t.neutral(), d.square, OTHER)
    t.cash(s, OTHER, 0)
    return _debt(s, OTHER, ACTOR, t.money(5000)), [{"type": "bankrupt", "seat": OTHER}]


INHERITED = (("creditor", "the creditor"), ("bank", "the bank (unowned)"))


def _who_holds(t: Table, pl: Played, v: dict) -> str | None:
    if not allowed(pl):
        return None
    owner = _prop(pl.last, _deed(t, v).square)["owner"]
    return "the creditor" if owner == ACTOR else "the bank (unowned)" if owner is None else f"player {owner}"


def built_group_trade(t: Table, v: dict):
    """OTHER holds a whole colour group with a house on one street; ACTOR offers the price of an unbuilt
    street of it."""
    group = t.group("median")
    s = t.neutral()
    t.own(s, group.squares, OTHER)
    t.own(s, group.squares[-1], OTHER, houses=1)
    if len(group.squares) > 2:
        t.own(s, group.squares[1], OTHER, houses=1)       # even building: one house on all but the first
    target = group.squares[0]
    return s, [{"type": "trade", "seat": ACTOR, "with": OTHER, "give": {"cash": t.cfg.board.deed(target).price},
                "take": {"squares": [target]}}]


def trade_in_debt(t: Table, v: dict):
    """ACTOR, in debt to OTHER after a landing, offers OTHER cash for a station."""
    station = t.deeds("station")[0].square
    s = t.own(t.neutral(), station, OTHER)
    s = _debt(s, ACTOR, OTHER, t.cfg.setup.starting_cash + t.money(100))
    return s, [{"type": "trade", "seat": ACTOR, "with": OTHER, "give": {"cash": t.cfg.board.deed(station).price},
                "take": {"squares": [station]}}]


def after_landing(t: Table, v: dict):
    """ACTOR's roll ends on a square where nothing happens: may ACTOR still act in this turn?"""
    s = t.neutral()
    t.at(s, ACTOR, _visit(t) - 3)
    return s, [{"type": "roll", "seat": ACTOR, "dice": [1, 2]}]


def _still_acting(t: Table, pl: Played, v: dict) -> bool | None:
    if not allowed(pl):
        return None
    return pl.last["current"] == ACTOR and pl.last["phase"] == "post_roll"


def out_of_turn_bid(t: Table, v: dict):
    """ACTOR declines; the seat after the first bidder in seat order bids first."""
    d = _deed(t, v)
    s = t.neutral()
    return s, [t.roll_to(s, ACTOR, d.square), {"type": "decline", "seat": ACTOR}]


def _out_of_turn(t: Table, pl: Played, v: dict) -> bool | None:
    """Whether a bidder other than the one whose turn it is may bid now."""
    if pl.last.get("phase") != "auction":
        return None
    seats = {a["seat"] for a in legal_actions(t.cfg, pl.last) if a["type"] == "bid"}
    return len(seats) > 1


def jump_bid(t: Table, v: dict):
    """After the decline, OTHER bids well above the lowest bid allowed."""
    def more(t: Table, v: dict, s: dict, acts: list):
        opened = play(t.cfg, s, acts)
        bids = [a["amount"] for a in legal_actions(t.cfg, opened.last) if a["type"] == "bid" and a["seat"] == OTHER]
        return [{"type": "bid", "seat": OTHER, "amount": min(bids) + t.money(v["jump"])}] if bids else None
    return auction_after_decline(more)(t, v)


def card_trade(t: Table, v: dict):
    """OTHER holds a Get Out of Jail Free card; ACTOR (in jail when ``jailed``) offers cash for it."""
    built = jail_card(t, v)
    if isinstance(built, Absent):
        return built
    s, _ = built
    deck = s["players"][ACTOR]["jail_cards"][0]
    s["players"][ACTOR]["jail_cards"] = []
    s["players"][OTHER]["jail_cards"] = [deck]
    if not v.get("jailed"):
        s["players"][ACTOR].update(in_jail=False, position=0)
    return s, [{"type": "trade", "seat": ACTOR, "with": OTHER, "give": {"cash": t.money(50)},
                "take": {"cards": [deck]}}]


def hotel_alone(t: Table, v: dict):
    """ACTOR's street has the houses a hotel needs, the other street of its group none (uneven building
    allowed or not): may ACTOR build the hotel?"""
    group = next(g for g in t.cfg.board.groups if g.kind == "street" and len(g.squares) == 2)
    here, mate = group.squares
    s = t.own(t.neutral(cash=5000), here, ACTOR, houses=t.cfg.building.hotel_threshold)
    t.own(s, mate, ACTOR)
    return s, [{"type": "build_hotel", "seat": ACTOR, "square": here}]


def triples(t: Table, v: dict):
    """ACTOR rolls three equal dice (the speed die in play) and moves where the triples allow."""
    if not t.cfg.speed_die.enabled:
        return NO_SPEED_DIE
    s = t.neutral()
    s["round"] = LATE_ROUND
    t.at(s, ACTOR, _visit(t) - 3)
    return s, [{"type": "roll", "seat": ACTOR, "dice": [1, 1, 1]},
               {"type": "move_to", "seat": ACTOR, "square": _visit(t), "optional": True}]


def _doubles_counted(t: Table, pl: Played, v: dict) -> bool | None:
    if not allowed(pl):
        return None
    return pl.last["players"][ACTOR]["doubles"] > 0


def trades_in_a_turn(t: Table, v: dict):
    """ACTOR buys OTHER's stations one by one before rolling: ``count`` trades in one turn."""
    stations = [d.square for d in t.deeds("station")]
    s = t.own(t.neutral(cash=5000), stations, OTHER)
    n = min(v["count"], len(stations))
    return s, [{"type": "trade", "seat": ACTOR, "with": OTHER, "give": {"cash": t.cfg.board.deed(sq).price},
                "take": {"squares": [sq]}} for sq in stations[:n]]
#: What landing on a square does, in words, by the kind of square (``verify.config.KINDS``).
SQUARE_WORDS = {"go": "GO", "jail": "the jail (just visiting)", "go_to_jail": "Go to Jail",
                "income_tax": "Income Tax", "luxury_tax": "Luxury Tax", "free_parking": "Free Parking",
                "casino": "the Casino", "street": "a street", "station": "a station", "utility": "a utility",
                "chance": "a Chance square", "chest": "a Community Chest square"}
DECK_WORDS = {"chance": "Chance", "chest": "Community Chest"}


def landing(t: Table, v: dict):
    """ACTOR lands on square ``square`` (three squares' move) with nothing owned."""
    s = t.neutral()
    return s, [t.roll_to(s, ACTOR, v["square"])]


def _landed(t: Table, pl: Played, v: dict) -> str | None:
    if not allowed(pl):
        return None
    card = next((e for e in pl.events if e.get("event") == "card"), None)
    if card is not None:
        return f"draws a {DECK_WORDS[card['deck']]} card"
    if pl.last.get("phase") == "casino":
        return "a Casino bet is offered"
    kind = t.cfg.board.squares[v["square"]]
    return f"lands on {SQUARE_WORDS.get(kind, kind)}" + (": nothing happens" if kind == "free_parking" else "")


def _card_squares(cfg) -> tuple:
    return tuple(cfg.board.chance_squares) + tuple(cfg.board.chest_squares)


def card_return(t: Table, v: dict):
    """ACTOR draws the top card of the deck of the first card square: a card that pays the bank."""
    for deck in ("chance", "chest"):
        squares = getattr(t.cfg.board, f"{deck}_squares")
        card = next((c for c in getattr(t.cfg.cards, deck) if c.effect == "bank"), None)
        if squares and card is not None:
            s = _top(t.neutral(), deck, card.id)
            return s, [t.roll_to(s, ACTOR, squares[0]), _pay()]
    return Absent("no card of this game pays or charges money")


def _card_after(t: Table, pl: Played, v: dict) -> str | None:
    card = next((e for e in pl.events if e.get("event") == "card"), None)
    if card is None:
        return None
    deck, cid = card["deck"], card["card"]
    if pl.last["decks"][deck] and pl.last["decks"][deck][-1] == cid:
        return "back at the bottom of its deck"
    if cid in pl.last.get("discards", {}).get(deck, []):
        return "set aside until the deck runs out, then reshuffled"
    return "out of the deck"


def bank_bankruptcy(t: Table, v: dict):
    """ACTOR owes the bank more than it can raise (a tax) and holds one unbuilt street; ACTOR goes bankrupt."""
    d = _deed(t, v)
    s = t.own(t.neutral(), d.square, ACTOR)
    t.cash(s, ACTOR, 0)
    s = _debt(s, ACTOR, -1, t.money(5000), "tax")
    return s, [{"type": "bankrupt", "seat": ACTOR}]


def _bank_took(t: Table, pl: Played, v: dict) -> str | None:
    if not allowed(pl):
        return None
    if pl.last.get("phase") == "auction" or any(e.get("event") == "auction" for e in pl.events):
        return "auctioned at once"
    owner = _prop(pl.last, _deed(t, v).square)["owner"]
    return "stays with the bank, unowned" if owner is None else f"goes to player {owner}"


def creditor_cash(t: Table, v: dict):
    """OTHER, holding ``cash`` and one unbuilt, unmortgaged street, owes ACTOR ``debt`` over rent and goes
    bankrupt."""
    d = _deed(t, v)
    s = t.own(t.neutral(), d.square, OTHER)
    t.cash(s, OTHER, v["cash"])
    return _debt(s, OTHER, ACTOR, t.money(v["debt"])), [{"type": "bankrupt", "seat": OTHER}]


def round_end(t: Table, v: dict):
    """Round ``round`` - 1 is ending: the last seat rolls and ends its turn, and round ``round`` begins."""
    if v["round"] < 1:
        return None
    s = t.neutral()
    s["round"] = v["round"] - 1
    last = t.players - 1
    t.turn_of(s, last)
    t.at(s, last, _visit(t) - 3)
    return s, [{"type": "roll", "seat": last, "dice": [1, 2]}, _end_turn()]


def _game_over(t: Table, pl: Played, v: dict) -> str | None:
    if not allowed(pl):
        return None
    if pl.last.get("phase") != "over":
        return "the game goes on"
    winner = pl.last.get("winner")
    return "the game ends" + (f"; the richest player (seat {winner}) wins" if winner is not None else "")


def speed_roll(t: Table, v: dict):
    """In a game with a speed die, ACTOR (having passed GO or not) rolls in round ``round``."""
    if not t.cfg.speed_die.enabled:
        return NO_SPEED_DIE
    if v["round"] < 1:
        return None
    s = t.neutral()
    s["round"] = v["round"] - 1
    s["players"][ACTOR]["passed_go"] = v["passed_go"]
    t.at(s, ACTOR, _visit(t) - 7)
    return s, [{"type": "roll", "seat": ACTOR, "dice": [3, 4]}]


def _speed_rolled(t: Table, pl: Played, v: dict) -> bool | None:
    if not allowed(pl) or not pl.applied:
        return None
    return len(pl.applied[0]["dice"]) > 2


def mr_monopoly_all_owned(t: Table, v: dict):
    """Every deed is OTHER's; the street ACTOR lands on and the next deed after it are mortgaged (they
    charge no rent); ACTOR rolls Mister Monopoly."""
    if not t.cfg.speed_die.enabled:
        return NO_SPEED_DIE
    sd = t.cfg.speed_die
    if not sd.mr_monopoly_faces:
        return Absent("the speed die has no Mister Monopoly face in this game")
    s = t.own(t.neutral(), [d.square for d in t.deeds()], OTHER)
    ahead = sorted(d.square for d in t.deeds())
    land = next(q for q in ahead if q > _visit(t) + 3)
    after = next(q for q in ahead if q > land)
    for q in (land, after):
        _prop(s, q)["mortgaged"] = True
    s["round"] = LATE_ROUND
    t.at(s, ACTOR, land - 3)
    return s, [{"type": "roll", "seat": ACTOR, "dice": [1, 2, sd.pip_faces + 1]}]


def _mr_went(t: Table, pl: Played, v: dict) -> str | None:
    went = next((e for e in pl.events if e.get("event") == "mr_monopoly"), None)
    if went is None:
        return None if not allowed(pl) else "does not move on"
    d = t.cfg.board.deed(went["square"])
    mortgaged = _prop(pl.states[0], went["square"])["mortgaged"]
    return f"moves on to {d.name}" + (" (the opponent's, mortgaged: no rent)" if mortgaged else
                                      " (the next that charges rent)")


def turn_timeout(t: Table, v: dict):
    """ACTOR's turn timer runs out before the roll."""
    s = t.neutral()
    t.at(s, ACTOR, _visit(t) - 3)
    return s, [{"type": "timeout", "seat": ACTOR, "dice": [1, 2]}]


def _timed_out(t: Table, pl: Played, v: dict) -> str:
    if not allowed(pl):
        return "no turn timer"
    if pl.last["players"][ACTOR]["position"] != pl.first["players"][ACTOR]["position"]:
        return "the game plays the turn for the player (rolls and moves)"
    return "the turn is skipped"


def first_lap_landing(t: Table, v: dict):
    """ACTOR, who has not yet passed GO, lands on an unowned street."""
    d = _deed(t, v)
    s = t.neutral()
    s["players"][ACTOR]["passed_go"] = False
    return s, [t.roll_to(s, ACTOR, d.square)]


def _may_buy(t: Table, pl: Played, v: dict) -> bool | None:
    if not allowed(pl):
        return None
    return pl.last.get("phase") == "buy"


GROUP = Var("group", "the colour group", RANKS, show=_show_group)

PROBES: tuple[Probe, ...] = (
    Probe("unmortgage_cost", "What does it cost to lift the mortgage on a property?",
          ("mortgage.interest_base", "mortgage.interest_rate", "mortgage.value"), (PRICE,), unmortgage,
          lambda t, pl, v: paid(t, pl) if allowed(pl) else None, smt="unmortgage"),
    Probe("inherited_mortgage_interest",
          "A creditor inherits a mortgaged property from a bankrupt player: what does the creditor pay at once?",
          ("bankruptcy.mortgage_interest_base",), (PRICE,), inherited,
          lambda t, pl, v: paid(t, pl) if allowed(pl) else None),
    Probe("transferred_mortgage_total",
          "A player receives a mortgaged property, keeps it mortgaged past the next roll (or, inherited from a "
          "bankrupt player, past that player's turn) and then lifts it: what is paid in all (the deed's price in "
          "a trade aside)?",
          ("mortgage.transfer_interest", "mortgage.transfer_unmortgage_pays_interest_again"),
          (PRICE, B("bankruptcy", "inherited from a bankrupt player (otherwise received in a trade)")),
          *received_then_lifted(True)),
    Probe("received_mortgage_lifted_at_once",
          "A player receives a mortgaged property and lifts the mortgage at once: what is paid in all, the "
          "interest due on receipt included (the deed's price in a trade aside)?",
          ("mortgage.transfer_lift_at_once",),
          (PRICE, B("bankruptcy", "inherited from a bankrupt player (otherwise received in a trade)")),
          *received_then_lifted(False)),
    Probe("mortgage_loan", "How much does the bank lend on a mortgage?", ("mortgage.value",), (PRICE,),
          mortgage, lambda t, pl, v: gained(t, pl) if allowed(pl) else None, smt="mortgage"),
    Probe("street_rent", "What rent is paid on an unbuilt street?",
          ("rent.group_multiplier", "rent.group_bonus_with_buildings", "rent.group_bonus_with_mortgaged_mate",
           "rent.mortgaged", "rent.jailed_owner_collects", "teams.teammates_pay_rent"),
          (B("owns_group", "the owner holds the whole colour group", True),
           B("mate_built", "another street of the group has a house"),
           B("mate_mortgaged", "another street of the group is mortgaged"),
           B("mortgaged", "this street is mortgaged"), B("owner_jailed", "the owner is in jail"),
           B("teammate", "the payer is the owner's teammate")),
          street_rent, lambda t, pl, v: rent_owed(t, pl)),
    Probe("station_rent", "What rent does a station charge?", ("rent.station_schedule",),
          (Var("stations", "stations the owner holds", (1, 2, 3, 4)),), station_rent,
          lambda t, pl, v: rent_owed(t, pl)),
    Probe("utility_rent", "What rent does a utility charge?", ("rent.utility_multipliers",),
          (Var("dice", "dice total", (7, 5, 9)), Var("utilities", "utilities the owner holds", (1, 2))),
          utility_rent, lambda t, pl, v: rent_owed(t, pl)),
    Probe("rent_claim", "Is rent still owed when the owner asks for it late?",
          ("rent.claim_deadline", "rent.owner_must_claim"),
          (Var("rolled_since", "players who rolled since the landing", (0, 1, 2)),
           Var("payer_seat", "seats from the owner to the payer (4 players: 1 = the player after the owner)",
               (1, 2, 3))),
          rent_claim, rent_paid_at_last, unit="bool", players=4),
    Probe("rent_after_tax", "Of the rent a landing charges, how much in every 100 does the owner keep at a "
          "given minute of play?",
          ("rent.tax_enabled", "rent.tax_start_minute", "rent.tax_initial_rate", "rent.tax_step_rate",
           "rent.tax_step_minutes", "rent.tax_max_rate"),
          (Var("minute", "minute of play", (0, 90), around=lambda cfg: (cfg.rent.tax_start_minute,)),),
          rent_after_tax, rent_kept,
          unit="count"),
    Probe("go_salary", "How much does a player get at GO?",
          ("go.salary", "go.salary_on_pass", "go.salary_on_landing", "go.exact_landing_bonus",
           "go.salary_stop_minute", "go.exact_landing_bonus_after_salary_stop"),
          (B("exact", "the move ends exactly on GO (otherwise it passes GO)"),
           Var("minute", "minute of play", (0, 90), around=lambda cfg: (cfg.movement.salary_stop_minute,
                                                                        cfg.rent.tax_start_minute))),
          go_salary, lambda t, pl, v: _salary_total(t, pl, v)),
    Probe("go_card_twice", "Pass GO, land on a card square, draw Advance to GO: how much salary in all?",
          ("go.pass_then_card_to_go_pays_twice",), (), go_card(True), _salary_total),
    Probe("go_second_pass",
          "Pass GO, land on a card square, draw a card that takes the player past GO again (not onto it): "
          "how much salary in all?", ("go.salary_once_per_turn",), (), go_card(False), _salary_total),
    Probe("auction_opening", "What is the lowest opening bid in an auction of a declined property?",
          ("auction.opening_bid",), (PRICE,), auction_after_decline(), lambda t, pl, v: _min_bid(t, pl)),
    Probe("auction_held", "Is a property the player declines to buy auctioned?", ("purchase.on_decline",),
          (), auction_after_decline(), _auctioned, unit="bool"),
    Probe("auction_next_bid", "What is the smallest bid allowed after the current one?",
          ("auction.min_increment",), (Var("bid", "current highest bid", (100, 150, 250), money=True),),
          auction_after_decline(_first_bid), lambda t, pl, v: _min_bid(t, pl) if allowed(pl) else None),
    Probe("auction_decliner_bids", "May the player who declined to buy bid in the auction?",
          ("auction.bidders",), (), auction_after_decline(), _decliner_bids, unit="bool"),
    Probe("auction_bid_above_cash", "May a player bid more than the cash in hand (and raise the money after "
          "winning)?", ("auction.bid_above_cash",),
          (Var("cash", "how much the lowest bid exceeds the bidder's cash", (50, 10), money=True),),
          auction_after_decline(_bid_over_cash), lambda t, pl, v: allowed(pl), unit="bool"),
    Probe("own_auction_opening", "An owner puts their own mortgaged property up for auction at once: where "
          "does the bidding open?", ("mortgage.immediate_auction", "mortgage.immediate_auction_opening"),
          (PRICE,), own_auction, _own_opening, special=((NO_AUCTION, NO_AUCTION),)),
    Probe("own_auction_owner_bids", "May the owner bid in their own auction of a mortgaged property?",
          ("mortgage.immediate_auction_owner_bids",), (PRICE,), own_auction, _own_owner_bids, unit="bool"),
    Probe("own_auction_owner_gets", "Another player wins the owner's own auction of a mortgaged property: "
          "what does the owner get?", ("mortgage.immediate_auction_proceeds",),
          (PRICE, Var("bid", "the winning bid", (300, 150, 500), money=True)), own_auction, _own_owner_gets,
          special=((NO_AUCTION, NO_AUCTION),)),
    Probe("shortage_auction", "The bank has a few houses left and players want to build: is an auction "
          "held now, for the houses left (not only once one house is left)?", ("building.shortage_trigger", "building.shortage_auction"),
          (Var("stock", "houses left in the bank", (3, 1, 5)),
           Var("builders", "players holding a whole group", (2, 3, 1)),
           Var("cash", "each builder's cash", (1500, 300), money=True)),
          shortage, _auction_opened, unit="bool", players=4),
    Probe("jail_last_try", "A doubles roll in jail fails: does the player stay, or leave, and for how much?",
          ("jail.after_last_try", "jail.max_tries"),
          (Var("failed", "doubles rolls failed in jail, this one included", (1, 2, 3, 4)),), jail_try,
          _jail_outcome, special=((STILL_IN_JAIL, STILL_IN_JAIL),), amount_text="leaves, paying {}"),
    Probe("jail_fine", "What does it cost to buy one's way out of jail?", ("jail.fine",), (), jail_fine,
          lambda t, pl, v: paid(t, pl) if allowed(pl) else None),
    Probe("doubles_to_jail", "Does a run of doubles send the player to jail?",
          ("dice.doubles_to_jail", "dice.doubles_roll_again"),
          (Var("doubles", "consecutive doubles rolled", (3, 2, 4)),), doubles, _jailed, unit="bool"),
    Probe("trade_accepted", "May a player buy a deed from another for this much cash?",
          ("trade.max_value_gap", "trade.max_value_ratio", "trade.allowed"),
          (Var("cash", "cash offered", (100, 150, 50, 300, 1000), money=True), PRICE), trade_values,
          lambda t, pl, v: allowed(pl), unit="bool", smt="trade"),
    Probe("trade_mortgaged", "May a mortgaged property be traded?", ("trade.mortgaged",),
          (B("teammate", "the trade is between teammates"),), trade_mortgaged, lambda t, pl, v: allowed(pl),
          unit="bool"),
    Probe("bankrupt", "Is the player bankrupt, or may they only give up?", ("bankruptcy.threshold",),
          (Var("debt", "the debt", (250, 500, 120), money=True),
           Var("cash", "cash in hand", (100, 0), money=True), PRICE),
          bankruptcy, _bankrupt_outcome, unit="count", special=BANKRUPT_OUTCOMES),
    # a debt the player can still raise (cash plus the deed's mortgage value): where giving up is a choice
    # and no threshold makes the player bankrupt, so the witness shows the surrender and nothing else
    Probe("surrender", "The player can still raise the debt: must they pay, or may they give up instead?",
          ("bankruptcy.surrender",),
          (Var("debt", "the debt", (150, 120), money=True),
           Var("cash", "cash in hand", (100, 50), money=True), PRICE),
          bankruptcy, _bankrupt_outcome, unit="count", special=BANKRUPT_OUTCOMES),
    Probe("sell_back_refund", "What does the bank refund for a house sold back?", ("building.sell_ratio",),
          (GROUP,), sell_back,
          lambda t, pl, v: gained(t, pl) if allowed(pl) else None, smt="sell_house"),
    Probe("income_tax", "How much Income Tax does a player pay?",
          ("tax.income", "tax.income_percent_option"),
          (Var("worth", "total worth (all in cash)", (1500, 1000, 3000), money=True),), income_tax,
          lambda t, pl, v: paid(t, pl)),
    Probe("luxury_tax", "How much is the Luxury Tax?", ("tax.luxury",), (), luxury_tax,
          lambda t, pl, v: paid(t, pl)),
    Probe("income_tax_hotel_worth", "A player with hotels on a colour group and 5000 in cash pays the Income "
          "Tax as a share of worth: how much?", ("tax.worth_hotel",),
          (GROUP,),
          hotel_tax_worth, lambda t, pl, v: paid(t, pl) if allowed(pl) else None),
    Probe("free_parking", "What does a player get for landing on Free Parking?", ("free_parking.pot",),
          (Var("pot", "money paid in taxes and fines so far", (150, 500), money=True),), free_parking,
          lambda t, pl, v: gained(t, pl)),
    Probe("free_parking_card_payment", "A player pays a card's fee to the bank: does it go into the Free "
          "Parking pot?", ("free_parking.pot_card_payments",), (), card_fee, _potted, unit="bool"),
    Probe("destroyed_building_owner", "Whose building does the card that destroys a building remove?",
          ("cards.building_destroy_target", "cards.building_destroy"), (), destroy, _destroyed, unit="count",
          special=DESTROYED),
    Probe("clock_turns_per_hour", "How many player-turns make an hour of play on the game clock (the "
          "minutes of the rules counted in turns)?", ("clock.seconds_per_turn",), (), one_turn,
          _turns_per_hour, unit="count"),
    Probe("speed_die_faces", "What does this face of the speed die show?",
          ("speed_die.pip_faces", "speed_die.mr_monopoly_faces", "speed_die.bus_faces"),
          (Var("face", "the speed die's face", (4, 5, 6, 3, 1, 2)),), speed_face, _face, unit="value"),
    Probe("hotel_allowed", "May a hotel be built?", ("building.hotel_threshold",),
          (Var("houses", "houses on each street of the group", (3, 4, 2)),), hotel_build,
          lambda t, pl, v: allowed(pl), unit="bool", smt="build_hotel"),
    Probe("house_allowed", "May one more house be built on this street?",
          ("building.even_build", "building.max_houses"),
          (Var("houses", "houses on this street", (1, 0, 2, 4)),
           Var("mate_houses", "houses on the other street of the group", (0, 1, 4))), house_build,
          lambda t, pl, v: allowed(pl), unit="bool", smt="build_house"),
    Probe("house_available", "May a player buy a house from the bank?", ("building.house_supply",),
          (Var("on_board", "houses already on the board", (32, 0, 40)),), house_stock,
          lambda t, pl, v: allowed(pl), unit="bool", smt="build_house"),
    Probe("mortgage_kept", "Does the owner still hold a mortgaged property after some rounds?",
          ("mortgage.expiry_rounds",), (Var("rounds", "rounds since the mortgage", (7, 3, 10, 20)),), expiry,
          _still_held, unit="bool"),
    Probe("forfeit", "Does a player who misses turns lose automatically?", ("timer.forfeit_after_missed",),
          (Var("missed", "consecutive missed turns", (2, 3, 1)),), forfeit, _out, unit="bool"),
    Probe("build_per_turn", "How many houses may be put on an empty three-street group in one turn?",
          ("building.per_turn_limit",), (), per_turn, _built, unit="count"),
    Probe("dealt_deeds", "How many title deeds does each of three players hold before the first roll?",
          ("setup.dealt_properties",), (), setup_state, _dealt, unit="count"),
    Probe("dealt_paid", "What does a player pay for the title deeds dealt before the first roll?",
          ("setup.dealt_properties_paid",), (), setup_state, _dealt_paid),
    Probe("starting_cash", "How much cash does a player start with?", ("setup.starting_cash",), (),
          setup_state, _start_cash),
    Probe("jail_card_exit", "May a jailed player holding a Get Out of Jail Free card use it to leave?",
          ("jail.card_exit",), (), jail_card, lambda t, pl, v: allowed(pl), unit="bool"),
    Probe("fine_on_jail_turn", "May a jailed player pay the fine before rolling, this many turns into the stay?",
          ("jail.fine_voluntary_turns",), (Var("turns", "turns already spent in jail", (0, 1, 2)),),
          fine_on_turn, lambda t, pl, v: allowed(pl), unit="bool"),
    Probe("bankrupt_deeds_go_to", "A player goes bankrupt to another over rent: who holds the bankrupt's "
          "street afterwards?", ("bankruptcy.to_player_properties",), (PRICE,), creditor_inherits, _who_holds,
          unit="value"),
    Probe("built_group_trade", "May an unbuilt street be traded while another street of its colour group "
          "has a house?", ("trade.building_lock",), (), built_group_trade, lambda t, pl, v: allowed(pl),
          unit="bool"),
    Probe("trade_in_debt", "May a player in debt propose a trade to raise the money?",
          ("debt.trade_while_in_debt",), (), trade_in_debt, lambda t, pl, v: allowed(pl), unit="bool"),
    Probe("turn_goes_on", "After the roll is resolved, may the player still act before the turn passes?",
          ("turn.end",), (), after_landing, _still_acting, unit="bool"),
    Probe("bid_out_of_turn", "In an auction, may more than one player bid at the same moment (no order)?",
          ("auction.bidding_order",), (PRICE,), out_of_turn_bid, _out_of_turn, unit="bool"),
    Probe("jump_bid", "May a bid jump above the smallest raise allowed?", ("auction.fixed_step",),
          (Var("jump", "how far above the smallest bid allowed", (50, 10), money=True), PRICE), jump_bid,
          lambda t, pl, v: allowed(pl), unit="bool"),
    Probe("trades_per_turn", "May a player make this many trades in one turn?", ("trade.per_turn_limit",),
          (Var("count", "trades in one turn", (4, 3)),), trades_in_a_turn, lambda t, pl, v: allowed(pl),
          unit="bool"),
    Probe("card_trade", "May a Get Out of Jail Free card change hands in a trade (bought by a jailed player "
          "too)?", ("trade.jail_cards", "cards.jail_card_tradeable", "jail.buy_card_from_player"),
          (B("jailed", "the buyer is in jail"),), card_trade, lambda t, pl, v: allowed(pl), unit="bool"),
    Probe("hotel_alone", "May a hotel go up on a street while another street of its group has no house?",
          ("building.hotel_needs_whole_group",), (), hotel_alone, lambda t, pl, v: allowed(pl), unit="bool"),
    Probe("triples_doubles", "Do triples count as doubles (another roll, toward three doubles)?",
          ("speed_die.triples_count_as_doubles",), (), triples, _doubles_counted, unit="bool"),
    Probe("build_allowed_now", "May the player build at this moment?", ("building.timing",),
          (Var("phase", "moment", (0, 1, 2), names=PHASES),), at_moment(_build_act), _allowed_last,
          unit="bool"),
    Probe("sell_allowed_now", "May the player sell a house back at this moment?", ("building.sell_timing",),
          (Var("phase", "moment", (1, 0, 2), names=PHASES),), at_moment(_sell_act, built=True), _allowed_last,
          unit="bool"),
    Probe("mortgage_allowed_now", "May the player mortgage at this moment?", ("mortgage.timing",),
          (Var("phase", "moment", (1, 0, 2), names=PHASES),), at_moment(_mortgage_act), _allowed_last,
          unit="bool"),
    Probe("trade_allowed_now", "May the player propose a trade at this moment?", ("trade.timing",),
          (Var("phase", "moment", (0, 1, 2), names=PHASES),), _at_moment_trade, _allowed_last, unit="bool"),
    Probe("manage_allowed_now", "May the player sell a house back at this moment (is every act of managing "
          "property held to before the roll)?", ("turn.manage_before_roll_only",),
          (Var("phase", "moment", (2, 0, 1), names=PHASES),), at_moment(_sell_act, built=True), _allowed_last,
          unit="bool"),
    Probe("square_landing", "What happens to a player who lands on this square?",
          ("board.corner_20", "casino.enabled", "board.chest_squares", "cards.chest_deck", "board.chance_squares"),
          (Var("square", "the square landed on", (20,), around=_card_squares,
               show=lambda t, q: f"the square landed on: square {q}"),), landing, _landed, unit="value"),
    Probe("card_return", "Where does a drawn card go once it is played?", ("cards.return_policy",), (),
          card_return, _card_after, unit="value"),
    Probe("bank_bankruptcy", "A player goes bankrupt to the bank (over a tax) holding a street: what becomes "
          "of the street?", ("bankruptcy.to_bank_properties",), (PRICE,), bank_bankruptcy, _bank_took,
          unit="value"),
    Probe("creditor_cash", "A player holding cash and a street goes bankrupt to another over rent: how much "
          "cash does the creditor get?", ("bankruptcy.to_player_cash",),
          (Var("cash", "the bankrupt player's cash", (100, 0), money=True),
           Var("debt", "the debt", (150, 500), money=True), PRICE), creditor_cash,
          lambda t, pl, v: gained(t, pl) if allowed(pl) else None),
    Probe("round_end", "A round ends: does the game end, and who wins?", ("end.condition",),
          (Var("round", "the round that begins", (50, 2), around=lambda cfg: (
              cfg.end.round_limit,) if cfg.end.round_limit is not None else ()),), round_end, _game_over,
          unit="value"),
    Probe("speed_die_in_play", "Is the speed die rolled?", ("speed_die.activation", "speed_die.activation_round"),
          (B("passed_go", "the player has passed GO"),
           Var("round", "the round of play", (1, 10), around=lambda cfg: (cfg.speed_die.activation_round,)
               if cfg.speed_die.activation_round is not None else ())), speed_roll, _speed_rolled, unit="bool"),
    Probe("mr_monopoly_target", "Mister Monopoly is rolled when every deed is owned, the next one mortgaged: "
          "where does the player move on to?", ("speed_die.mr_monopoly",), (), mr_monopoly_all_owned, _mr_went,
          unit="value"),
    Probe("first_lap_buy", "May a player buy an unowned street before first passing GO?",
          ("purchase.first_round",), (PRICE,), first_lap_landing, _may_buy, unit="bool"),
    Probe("turn_timeout", "A player's turn timer runs out before the roll: what happens?", ("timer.on_timeout",),
          (), turn_timeout, _timed_out, unit="value"),
)

#: The probe that explains each parameter (the first listing it).
BY_PARAM: dict[str, Probe] = {}
for _p in PROBES:
    for _pid in _p.params:
        BY_PARAM.setdefault(_pid, _p)
BY_ID = {p.id: p for p in PROBES}

__all__ = ["Absent", "Probe", "Var", "PROBES", "BY_PARAM", "BY_ID", "THIRD"]
