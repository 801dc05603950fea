"""Chance and Community Chest: the cards whose effect moves assets (``verify.engine.rules.cards``)."""

from __future__ import annotations

import z3

from ..model import Model
from ..state import SymState
from .common import (Args, active, add_cash, all_, any_, bank_gets, deck_cards, ite, level, on_street, pf, pick,
                     seat_ok, stock_back, stock_out, streets, team_of, to_pot_or_bank)
from .movement import LANDING
from .plays import card_on_top, prop, roll_onto, settle, someone, squares_of
from .registry import Example, transition


def _no_cards(effect: str):
    return lambda m: None if deck_cards(m, effect) else f"no card in the decks has the {effect} effect"


def card_payment(m: Model, s: SymState, a, due) -> tuple[list, object]:
    """A card payment of ``due`` by ``a``: (what the guard asks, what is paid). Where a card payment the
    cash does not cover is a debt (cards.payment_debt), the model makes it only when the cash covers it;
    else the cash pays what it can (``verify.engine.rules.cards.card_payment``)."""
    if m.config.cards.payment_debt:
        return [pf(s, a, "cash") >= due], due
    cash = pf(s, a, "cash")
    return [], ite(cash < due, cash, due)


@transition("card_repairs", "a repairs card: pay per house and hotel", LANDING, step="card", effect="repairs",
            disabled=_no_cards("repairs"), aliases=("card-repairs",))
def card_repairs(m: Model, s: SymState, x: Args):
    """Pay the bank per house and per hotel owned (a hotel counts as a hotel alone, whatever stands under it;
    a card payment: into the Free Parking pot only where card payments go there, free_parking.pot_card_payments);
    ``amt`` selects the card, ``dice`` is the sum due."""
    cards = deck_cards(m, "repairs")
    houses = z3.Sum([ite(z3.And(p.owner == x.a, z3.Not(p.hotel)), p.houses, 0) for p in s.props if p.kind == "street"])
    hotels = z3.Sum([ite(p.owner == x.a, p.hotels, 0) for p in s.props if p.kind == "street"])
    choices = [z3.And(x.amt == k, x.dice == c.house * houses + c.hotel * hotels) for k, c in enumerate(cards)]
    cover, due = card_payment(m, s, x.a, x.dice)
    guard = [seat_ok(m, x.a), active(s, x.a), any_(choices), *cover]
    after = add_cash(s, x.a, -due)
    if m.config.taxes.pot_card_payments:      # card payments are pot money too (free_parking.pot_card_payments)
        return all_(guard), to_pot_or_bank(m, after, due)
    return all_(guard), bank_gets(after, due)


@transition("card_bank", "a card paid by or to the bank", LANDING, step="card", effect="bank",
            disabled=_no_cards("bank"))
def card_bank(m: Model, s: SymState, x: Args):
    """The bank pays the drawer ``amt`` (a card of a positive amount), or the drawer pays the bank ``-amt``:
    a card payment, into the Free Parking pot only where card payments go there
    (free_parking.pot_card_payments), made as far as the cash goes where card payments are never debts
    (``card_payment``)."""
    k = x.amt
    cover, due = card_payment(m, s, x.a, -k)
    guard = [seat_ok(m, x.a), active(s, x.a), any_([k == c.amount for c in deck_cards(m, "bank")]),
             *[z3.Implies(k < 0, c) for c in cover]]
    paid = ite(k < 0, due, 0)
    after = bank_gets(add_cash(s, x.a, ite(k < 0, -due, k)), ite(k < 0, 0, -k))
    if m.config.taxes.pot_card_payments:
        return all_(guard), to_pot_or_bank(m, after, paid)
    return all_(guard), bank_gets(after, paid)


@transition("card_each_player", "a card paid to or collected from every other player", LANDING, step="card",
            effect="each_player", disabled=_no_cards("each_player"), bank_free=True,
            aliases=("card-each-player",))
def card_each_player(m: Model, s: SymState, x: Args):
    """Pay every other player in the game ``-amt``, in seat order, or (a positive card) collect ``amt`` from
    each; a payment of the drawer's the cash does not cover is made as far as it goes where card payments are
    never debts (``card_payment``)."""
    cards = deck_cards(m, "each_player")
    others = [z3.And(p.seat != x.a, z3.Not(p.bankrupt)) for p in s.players]
    k = x.amt
    guard = [seat_ok(m, x.a), active(s, x.a), any_([k == c.amount for c in cards])]
    # each payer in a collect card must cover theirs
    guard += [z3.Implies(z3.And(k > 0, o), p.cash >= k) for o, p in zip(others, s.players)]
    after = s
    if m.config.cards.payment_debt:
        total = z3.Sum([ite(o, k, 0) for o in others])     # what a gains (negative: pays)
        guard.append(pf(s, x.a, "cash") + total >= 0)      # a payer must cover the whole payment
        for o, p in zip(others, s.players):
            after = after.with_player(p.seat, cash=after.players[p.seat].cash + ite(o, -k, 0))
        return all_(guard), add_cash(after, x.a, total)
    left, total = pf(s, x.a, "cash"), []
    for o, p in zip(others, s.players):
        paid = ite(k < 0, ite(left < -k, left, -k), -k)     # what p gets (negative: pays)
        gets = ite(o, paid, 0)
        left = left - ite(k < 0, gets, 0)
        total.append(gets)
        after = after.with_player(p.seat, cash=after.players[p.seat].cash + gets)
    return all_(guard), add_cash(after, x.a, -z3.Sum(total))


def _destroying(m: Model) -> str | None:
    if m.config.cards.building_destroy and deck_cards(m, "destroy_building"):
        return None
    return "no card destroys buildings"


@transition("card_destroy_building", "a card destroys a building on the most developed street of the drawer "
            "(or of an opponent)", LANDING, step="card", effect="destroy_building", disabled=_destroying,
            aliases=("card-destroy-building",))
def card_destroy_building(m: Model, s: SymState, x: Args):
    """The card that destroys a building: the most developed street of the drawer's (or of any opponent's,
    cards.building_destroy_target), the lowest square among equals, loses one level, which returns to the
    bank, no refund: a house, or a hotel broken down into the houses it stood for (taken from the bank;
    where the bank has too few, every building of the group returns to the bank)."""
    opponent = m.config.cards.building_destroy_target == "opponent"
    b = m.tables

    def whose(p) -> list:
        if not opponent:
            return [p.owner == x.a]
        out = [p.owner >= 0, p.owner != x.a]
        if m.teams:
            out.append(team_of(s, p.owner) != team_of(s, x.a))
        return out

    def hit(i):      # street i is the one the card hits
        p = s.props[i]
        c = whose(p) + [z3.Or(p.hotel, p.houses >= 1)]
        for j in streets(m):
            q = s.props[j]
            if j != i:   # every other street of the target stands lower (or level, after it)
                c.append(z3.Or(z3.Not(all_(whose(q))), level(m, q) < level(m, p) if q.square < p.square
                               else level(m, q) <= level(m, p)))
        return c

    guard = [seat_ok(m, x.a), active(s, x.a), on_street(m, x, hit)]
    hotel = pick(x.sq, [p.hotel for p in s.props])
    room = s.bank_houses >= b.hotel_back if s.bank_houses is not None and b.hotel_back else z3.BoolVal(True)
    down, clear = z3.And(hotel, room), z3.And(hotel, z3.Not(room))
    after, houses, hotels = s, [], []
    for i in streets(m):
        p = s.props[i]
        here = x.sq == i
        cleared = z3.And(clear, any_([x.sq == j for j in m.group_members(i)]))
        gone_h = ite(cleared, p.houses, ite(z3.And(here, z3.Not(hotel)), 1, 0))
        gone_t = ite(z3.Or(cleared, z3.And(here, down)), p.hotels, 0)
        houses.append(gone_h)
        hotels.append(gone_t)
        after = after.with_prop(i, houses=p.houses - gone_h + ite(z3.And(here, down), b.hotel_back, 0),
                                hotels=p.hotels - gone_t)
    after = stock_back(m, after, z3.Sum(houses), z3.Sum(hotels))
    after = stock_out(m, after, ite(down, b.hotel_back, 0), 0)
    return all_(guard), after

def _drawn(cfg, s, rnd, a, effect):
    """Put a card with ``effect`` on top of its deck and return (the card, its place among ``deck_cards``,
    the roll onto a square of that deck), or None."""
    cards = [c for c in tuple(cfg.cards.chance) + tuple(cfg.cards.chest) if c.effect == effect]
    if not cards:
        return None
    k = rnd.randrange(len(cards))
    card = cards[k]
    deck = "chance" if card in cfg.cards.chance else "chest"
    for p in s["players"]:                       # a kept jail card is nobody's to draw: put it back
        if deck in p["jail_cards"] and card.effect == "jail_free":
            return None
    card_on_top(s, deck, card.id)
    squares = squares_of(cfg, deck)
    roll = roll_onto(cfg, s, a, rnd.choice(squares), rnd) if squares else None
    return None if roll is None else (card, k, roll)


def _card_example(effect: str, amount_arg: bool):
    def example(cfg, base, rnd):
        s, a = someone(cfg, base, rnd)
        drawn = _drawn(cfg, s, rnd, a, effect)
        if drawn is None:
            return None
        card, k, roll = drawn
        args = dict(a=a, amt=card.amount) if amount_arg else dict(a=a, amt=k)
        note = ("pays" if card.amount < 0 else "collects") if amount_arg else ""
        return Example(s, (roll, *settle(cfg)), args, event=("card", {"card": card.id}), note=note)
    return example


card_repairs.examples(_card_example("repairs", False))
card_bank.examples(_card_example("bank", True))
card_each_player.examples(_card_example("each_player", True))


@card_destroy_building.examples
def _destroy_example(cfg, base, rnd):
    """The card drawn where the target (the drawer, or an opponent) has built on two groups, in one of the
    cases the card must tell apart: a tie between its most developed streets, no tie, a hotel to break down,
    a hotel the bank is too short of houses to break down (where the supply is limited), nothing built."""
    s, a = someone(cfg, base, rnd)
    case = _build_for_the_card(cfg, s, rnd, a)
    if case is None:
        return None
    drawn = _drawn(cfg, s, rnd, a, "destroy_building")
    if drawn is None:
        return None
    return Example(s, (drawn[2],), dict(a=a), event=("building_destroyed", {"player": a}), note=case)


def _build_for_the_card(cfg, s: dict, rnd, a: int) -> str | None:
    """Rebuild the state's buildings for one of the card's cases (see ``_destroy_example``); the case, or None
    when this config cannot have it."""
    b = cfg.building
    top, n = b.hotel_threshold + 1, len(s["players"])
    players = s["players"]
    if cfg.cards.building_destroy_target == "opponent":
        foes = [q for q in range(n) if q != a and not (cfg.teams.enabled and players[q]["team"] is not None
                                                      and players[q]["team"] == players[a]["team"])]
        if not foes:
            return None
        target = rnd.choice(foes)
    else:
        target = a
    for p in s["properties"]:
        p.update(houses=0, hotel=False)
    groups = [g.squares for g in cfg.board.groups if g.kind == "street" and len(g.squares) >= 2]
    g1, g2, g3 = rnd.sample(groups, 3)
    case = rnd.choice(["tie", "no tie", "hotel", "hotel, bank short of houses", "nothing built"])
    high = rnd.randint(2, b.hotel_threshold)
    levels = {}
    if case == "tie":
        levels.update({q: high for q in g1})
    elif case == "no tie":
        levels.update({q: high - (i > 0) for i, q in enumerate(g1)})
    elif case == "nothing built":
        high = 1
    else:
        levels.update({q: top if i == 0 or rnd.random() < 0.5 else b.hotel_threshold for i, q in enumerate(g1)})
    low = rnd.randint(0, high - 1)
    levels.update({q: low for q in g2})
    for q in (*g1, *g2):
        prop(s, q).update(owner=target, mortgaged=False)
    if "short" in case:
        if b.house_supply is None:
            return None
        other = rnd.randrange(n)
        for q in g3:
            prop(s, q).update(owner=other, mortgaged=False)
        for lv in range(1, b.max_houses + 1):      # the third group takes houses until the bank is short
            if _houses(b, levels) + len(g3) * lv <= b.house_supply:
                levels.update({q: lv for q in g3})
        if b.house_supply - _houses(b, levels) >= b.hotel_threshold:
            return None
    for q, lv in levels.items():
        prop(s, q).update(hotel=lv == top, houses=lv if lv < top else 0 if b.hotel_returns_houses
                          else b.hotel_threshold)
    hotels = sum(1 for lv in levels.values() if lv == top)
    if (b.house_supply is not None and _houses(b, levels) > b.house_supply) or \
            (b.hotel_supply is not None and hotels > b.hotel_supply):
        return None
    if b.house_supply is not None:
        s["bank"]["houses"] = b.house_supply - _houses(b, levels)
    if b.hotel_supply is not None:
        s["bank"]["hotels"] = b.hotel_supply - hotels
    return case


def _houses(b, levels: dict) -> int:
    """The houses on the board for these street levels (a hotel's level is one above the houses it needs)."""
    top = b.hotel_threshold + 1
    return sum(lv if lv < top else 0 if b.hotel_returns_houses else b.hotel_threshold for lv in levels.values())
