"""Chance and Community Chest: the cards whose effect moves assets (``verify.engine.rules.cards``)."""

from __future__ import annotations

import z3

from ..model import Model
from ..state import SymState
from .common import (Args, active, add_cash, all_, any_, bank_gets, deck_cards, ite, on_street, pf, pick, seat_ok,
                     set_prop, stock_back, team_of, to_pot_or_bank)
from .movement import LANDING
from .registry import transition


def _no_cards(effect: str):
    return lambda m: None if deck_cards(m, effect) else f"no card in the decks has the {effect} effect"


@transition("card_repairs", "a repairs card: pay per house and hotel", LANDING, step="card", effect="repairs",
            disabled=_no_cards("repairs"), aliases=("card-repairs",))
def card_repairs(m: Model, s: SymState, x: Args):
    """Pay the bank per house and per hotel owned (a card payment: into the Free Parking pot only where card
    payments go there, free_parking.pot_card_payments); ``amt`` selects the card, ``dice`` is the sum due."""
    cards = deck_cards(m, "repairs")
    houses = z3.Sum([ite(p.owner == x.a, p.houses, 0) for p in s.props if p.kind == "street"])
    hotels = z3.Sum([ite(p.owner == x.a, p.hotels, 0) for p in s.props if p.kind == "street"])
    choices = [z3.And(x.amt == k, x.dice == c.house * houses + c.hotel * hotels) for k, c in enumerate(cards)]
    due = x.dice
    guard = [seat_ok(m, x.a), active(s, x.a), any_(choices), pf(s, x.a, "cash") >= due]
    after = add_cash(s, x.a, -due)
    if m.config.taxes.pot_card_payments:      # card payments are pot money too (free_parking.pot_card_payments)
        return all_(guard), to_pot_or_bank(m, after, due)
    return all_(guard), bank_gets(after, due)


@transition("card_each_player", "a card paid to or collected from every other player", LANDING, step="card",
            effect="each_player", disabled=_no_cards("each_player"), bank_free=True,
            aliases=("card-each-player",))
def card_each_player(m: Model, s: SymState, x: Args):
    """Pay every other player in the game ``-amt``, or (a positive card) collect ``amt`` from each."""
    cards = deck_cards(m, "each_player")
    others = [z3.And(p.seat != x.a, z3.Not(p.bankrupt)) for p in s.players]
    k = x.amt
    total = z3.Sum([ite(o, k, 0) for o in others])     # what a gains (negative: pays)
    guard = [seat_ok(m, x.a), active(s, x.a), any_([k == c.amount for c in cards])]
    # a payer must cover the whole payment; each payer in a collect card must cover theirs
    guard.append(pf(s, x.a, "cash") + total >= 0)
    guard += [z3.Implies(z3.And(k > 0, o), p.cash >= k) for o, p in zip(others, s.players)]
    after = s
    for o, p in zip(others, s.players):
        after = after.with_player(p.seat, cash=after.players[p.seat].cash + ite(o, -k, 0))
    after = add_cash(after, x.a, total)
    return all_(guard), after


def _destroying(m: Model) -> str | None:
    if m.config.cards.building_destroy and deck_cards(m, "destroy_building"):
        return None
    return "no card destroys buildings"


@transition("card_destroy_building", "a card destroys one of the drawer's buildings", LANDING, step="card",
            effect="destroy_building", disabled=_destroying, aliases=("card-destroy-building",))
def card_destroy_building(m: Model, s: SymState, x: Args):
    """The card that destroys a building of the drawer's (or of an opponent's, cards.building_destroy_target):
    it returns to the bank, no refund."""
    opponent = m.config.cards.building_destroy_target == "opponent"

    def ok(i):
        p = s.props[i]
        if opponent:
            whose = [p.owner >= 0, p.owner != x.a]
            if m.teams:
                whose.append(team_of(s, p.owner) != team_of(s, x.a))
        else:
            whose = [p.owner == x.a]
        return whose + [z3.Or(p.hotel, p.houses >= 1)]

    hotel = pick(x.sq, [p.hotel for p in s.props])
    guard = [seat_ok(m, x.a), active(s, x.a), on_street(m, x, ok)]
    after = set_prop(s, x.sq, hotels=lambda p: ite(p.hotel, p.hotels - 1, p.hotels),
                     houses=lambda p: ite(p.hotel, p.houses, p.houses - 1))
    after = stock_back(m, after, ite(hotel, 0, 1), ite(hotel, 1, 0))
    return all_(guard), after
