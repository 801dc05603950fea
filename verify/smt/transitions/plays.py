"""Concrete engine plays for the transitions' examples: states, a roll onto a square, a card on top.

Every transition declares an example beside its formula (``@<transition>.examples``): from a
config and its engine's opening state, a state that satisfies the invariants, the engine
actions that play the transition from it, and the transition's arguments. These helpers build
them on the canonical state (``verify.state/1``) alone: the SMT layer never calls the engine.
The differential test (``tests/test_smt_differential.py``) plays the actions on the engine and
evaluates the transition on the same state through the oracle (``verify.smt.oracle``).
"""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

from ...config.tables import DERIVED

#: an action of an example that stands for a whole auction: ``winner`` bids ``amount`` once (None: nobody
#: bids), everyone else passes (the differential test plays it bid by bid)
AUCTION = "auction"


#: an action of an example that stands for paying every open debt, each by its debtor (``pay``)
SETTLE = "settle"


def auction(winner: int | None, amount: int = 0) -> dict:
    return {"type": AUCTION, "winner": winner, "amount": amount}


def prop(state: dict, square: int) -> dict:
    return next(p for p in state["properties"] if p["square"] == square)


def index_of(cfg: Any, square: int) -> int:
    """The deed index (the symbolic state's ``props``) of a deed square."""
    return next(i for i, d in enumerate(cfg.board.deeds) if d.square == square)


def squares_of(cfg: Any, kind: str) -> list[int]:
    return [i for i, k in enumerate(cfg.board.squares) if k == kind]


def deeds_of(cfg: Any, kind: str | None = None) -> list[int]:
    return [d.square for d in cfg.board.deeds if kind is None or d.kind == kind]


def random_state(cfg: Any, base: dict, rnd: random.Random) -> dict:
    """A canonical state that satisfies the invariants, built on the engine's own opening state: whole
    groups owned and built evenly within the supply, other deeds scattered, a few mortgaged, random cash,
    the jail cards with a holder or in their decks. Nobody's turn has begun (``at_rest``)."""
    s = copy.deepcopy(base)
    players = len(s["players"])
    props = {p["square"]: p for p in s["properties"]}
    b = cfg.building
    top = b.hotel_threshold + 1              # a hotel's level (one above the houses it needs)
    big = 10 ** 6                            # an unlimited supply
    stock_h = (big if b.house_supply is None else b.house_supply) - players   # no shortage auctions
    stock_t = (big if b.hotel_supply is None else b.hotel_supply) - players
    for grp in cfg.board.groups:
        squares = list(grp.squares)
        if rnd.random() < 0.6:               # one owner for the whole group: it may be built on
            owner = rnd.randrange(players)
            for sq in squares:
                props[sq]["owner"] = owner
            if grp.kind == "street" and rnd.random() < 0.6:
                low = rnd.randint(0, top)
                levels = [min(top, low + (rnd.random() < 0.5)) for _ in squares]
                need_h = sum(lv for lv in levels if lv < top) + sum(
                    b.hotel_threshold for lv in levels if lv == top and not b.hotel_returns_houses)
                need_t = sum(1 for lv in levels if lv == top)
                if need_h <= stock_h and need_t <= stock_t:
                    stock_h -= need_h
                    stock_t -= need_t
                    for sq, lv in zip(squares, levels):
                        if lv == top:
                            props[sq]["houses"] = 0 if b.hotel_returns_houses else b.hotel_threshold
                            props[sq]["hotel"] = True
                        else:
                            props[sq]["houses"], props[sq]["hotel"] = lv, False
        else:
            for sq in squares:
                props[sq]["owner"] = rnd.choice([None, None] + list(range(players)))
        built = any(props[q]["houses"] or props[q]["hotel"] for q in squares)
        for sq in squares:
            if props[sq]["owner"] is not None and not built:
                props[sq]["mortgaged"] = rnd.random() < 0.3
    s["bank"]["houses"] = None if b.house_supply is None else stock_h + players
    s["bank"]["hotels"] = None if b.hotel_supply is None else stock_t + players
    scale = cfg.setup.scale                  # the ruleset's money, in classic amounts
    for p in s["players"]:
        p["cash"] = scale * rnd.choice([0, 10, 50, 100, 150, 200, 300, 500, 1000, 2500, rnd.randint(0, 3000)])
        p["jail_cards"] = []
    for deck in ("chance", "chest"):
        if f"{deck}-jail-free" not in (base.get("decks") or {}).get(deck, []):
            continue                         # this ruleset's deck has no such card
        holder = rnd.choice([None] + list(range(players)))
        if holder is not None:
            s["players"][holder]["jail_cards"].append(deck)
            s["decks"][deck] = [c for c in s["decks"][deck] if c != f"{deck}-jail-free"]
    return at_rest(s, 0)


def someone(cfg: Any, base: dict, rnd: random.Random) -> tuple[dict, int]:
    """A generated state (``random_state``) and a player drawn at random, at rest in their turn."""
    state = random_state(cfg, base, rnd)
    seat = rnd.randrange(len(state["players"]))
    return at_rest(state, seat), seat


def at_rest(state: dict, seat: int) -> dict:
    """``seat``'s turn, before the roll, with nothing pending: out of jail, past GO (deeds may be bought),
    no doubles thrown, no debt, auction or rent claim open."""
    state["current"], state["phase"], state["pending"] = seat, "pre_roll", None
    state["queue"] = {"debts": [], "auctions": [], "claims": []}
    turn = state["turn"]
    turn.update(rolled=False, dice=[], stage="pre")
    turn.pop("received", None)
    for p in state["players"]:
        p.update(in_jail=False, jail_turns=0, doubles=0, passed_go=True)
    return state


def gone(state: dict, seat: int) -> None:
    """``seat`` is out of the game: bankrupt, with nothing (its deeds unowned, its jail cards in their decks)."""
    me = state["players"][seat]
    for deck in me["jail_cards"]:
        state["decks"][deck].append(f"{deck}-jail-free")
    me.update(bankrupt=True, cash=0, jail_cards=[])
    bank = state["bank"]
    for p in state["properties"]:
        if p["owner"] == seat:            # its buildings go back to the bank's stock
            if bank["houses"] is not None:
                bank["houses"] += p["houses"]
            if bank["hotels"] is not None and p["hotel"]:
                bank["hotels"] += 1
            p.update(owner=None, mortgaged=False, houses=0, hotel=False)


def roll_onto(cfg: Any, state: dict, seat: int, square: int, rnd: random.Random) -> dict | None:
    """Put ``seat``'s token where a roll without doubles lands it on ``square`` without passing GO (the
    salary is outside the model), and return that roll; None when no such roll exists (a square just past
    GO). The speed die, where it is in play, shows a number that makes no doubles."""
    white = DERIVED["white"](cfg)
    sd = cfg.speed_die
    me = state["players"][seat]
    speed = sd.enabled and (me["passed_go"] if sd.activation == "after_first_pass_go"
                            else state["round"] + 1 >= sd.activation_round)
    options = []
    for dice in itertools.product(range(1, 7), repeat=white):
        if white >= 2 and dice[0] == dice[1]:
            continue
        for sp in ([s for s in range(1, sd.pip_faces + 1) if s not in dice[:2]] if speed else [0]):
            start = square - sum(dice) - sp
            if start >= 0:
                options.append((list(dice) + ([sp] if speed else []), start))
    if not options:
        return None
    dice, start = rnd.choice(options)
    me["position"] = start
    return {"type": "roll", "seat": seat, "dice": dice}


def card_on_top(state: dict, deck: str, card: str) -> None:
    """Card ``card`` is the next one drawn from ``deck``."""
    pile = state["decks"][deck]
    if card in pile:
        pile.remove(card)
    state["discards"][deck] = [c for c in state["discards"][deck] if c != card]
    pile.insert(0, card)




def owners(state: dict) -> dict[int, int | None]:
    return {p["square"]: p["owner"] for p in state["properties"]}


def deed_action(cfg: Any, state: dict, rnd: random.Random, kind: str) -> dict:
    """A management action of one deed (or of its group: ``sell_group``), mostly by the deed's owner on a
    group owned whole, a hotel mostly where the houses for it stand (so that many are legal), at rest in the
    actor's turn."""
    own = owners(state)
    owned = [sq for sq, o in own.items() if o is not None] or deeds_of(cfg)
    whole = [sq for g in cfg.board.groups if g.kind == "street" and own[g.squares[0]] is not None
             and len({own[q] for q in g.squares}) == 1 for sq in g.squares]
    ready = [sq for sq in whole if prop(state, sq)["houses"] >= cfg.building.hotel_threshold
             and not prop(state, sq)["hotel"]]
    building = kind in ("build_house", "build_hotel", "sell_house", "sell_hotel", "sell_group")
    pool = ready if kind == "build_hotel" and ready and rnd.random() < 0.7 else \
        whole if whole and building and rnd.random() < 0.85 else owned
    sq = rnd.choice(pool)
    who = own[sq] if own[sq] is not None and rnd.random() < 0.8 else rnd.randrange(len(state["players"]))
    at_rest(state, who)
    if kind == "sell_group":
        return {"type": kind, "seat": who, "group": next(i for i, g in enumerate(cfg.board.groups) if sq in g.squares)}
    return {"type": kind, "seat": who, "square": sq}


def trade_action(cfg: Any, state: dict, rnd: random.Random) -> dict:
    """A trade of at most one deed each way, cash either way, jail cards, between two random players; half
    of them a plain sale of a deed for about its price (so that many are legal)."""
    own = owners(state)
    n = len(state["players"])
    who, other = rnd.randrange(n), rnd.randrange(n)
    at_rest(state, who)
    mine = [q for q, o in own.items() if o == who] or deeds_of(cfg)
    theirs = [q for q, o in own.items() if o == other]
    if rnd.random() < 0.5:
        sq = rnd.choice(mine)
        d = cfg.board.deeds[index_of(cfg, sq)]
        price = d.mortgage if prop(state, sq)["mortgaged"] else d.price
        return {"type": "trade", "seat": who, "with": other, "give": {"squares": [sq]},
                "take": {"cash": min(price, state["players"][other]["cash"]) or price}}
    give: dict = {"squares": [rnd.choice(mine)] if rnd.random() < 0.7 else []}
    take: dict = {"squares": [rnd.choice(theirs)] if theirs and rnd.random() < 0.6 else []}
    cash = rnd.choice([0, 0, rnd.randint(-400, 400)]) * cfg.setup.scale
    if cash > 0:
        give["cash"] = cash
    elif cash < 0:
        take["cash"] = -cash
    for side in (give, take):
        if rnd.random() < 0.25:
            side["cards"] = [rnd.choice(["chance", "chest"])]
    return {"type": "trade", "seat": who, "with": other, "give": give, "take": take}


def open_debt(state: dict, rnd: random.Random, scale: int, to_player: bool) -> dict:
    """An open debt (a debtor that may or may not be able to raise it, to another player or to the bank) and
    the debtor's bankruptcy over it."""
    n = len(state["players"])
    debtor = rnd.randrange(n)
    at_rest(state, debtor)
    creditor = rnd.choice([q for q in range(n) if q != debtor]) if to_player else -1
    amount = scale * rnd.choice([1, 50, 200, 600, 1500, 3000, 8000, rnd.randint(1, 5000)])
    state["phase"] = "debt"
    state["pending"] = {"debtor": debtor, "creditor": creditor, "amount": amount, "kind": "rent"}
    state["queue"]["debts"] = [[debtor, creditor, amount, amount, "rent"]]
    return {"type": "bankrupt", "seat": debtor}


def settle(cfg: Any) -> tuple[dict, ...]:
    """Where a debt is paid by an action of its own (debt.explicit_payment_step): every debt the play opened,
    paid by its debtor in turn (the differential test plays it pay by pay)."""
    return ({"type": SETTLE},) if cfg.debt.explicit_payment_step else ()
