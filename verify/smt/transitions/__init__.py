"""The SMT model's transitions, one per engine action or step of one, beside the engine's rule families.

Each transition is a guard over the state before and the state after, from the config:
``build(m, s, x) -> (guard, after)`` with symbolic arguments ``x`` (``Args``: the acting
seat ``a``, another seat ``b``, a deed index ``sq``, an amount ...). Rule values are
compiled in as constants, so the formula is the same for every ruleset that agrees on the
values it reads. The modules mirror ``verify/engine/rules/`` family by family (``auctions``,
``building``, ``mortgages``, ``trades``, ``debts``, ``cards``, ``extras``, ``movement``,
``flow``; ``common`` is the counterpart of ``base``), so a rule and its transition sit in
parallel files.

The registry, for readers of the model (``verify check``, the oracle, the comparison's SMT
search, the differential test)::

    from verify.smt.transitions import TRANSITIONS, BY_NAME, canonical, modelling, NOT_MODELLED
    BY_NAME["build_house"].models            # ('build_house',): the engine action it models whole
    BY_NAME["rent_street"].link              # 'roll|claim_rent > rent (street)': a step of those actions
    canonical("build-house")                 # 'build_house' (an old name: a FutureWarning says so)
    [t.name for t in modelling("bankrupt")]  # ['bankrupt_to_player', 'bankrupt_to_bank']
    NOT_MODELLED["pay_fine"]                 # why that engine action has no transition

Names are the engine's (``verify.vocabulary``): a transition is named after the action it
models, or after the step (with its variant or card effect). ``NOT_MODELLED`` gives, for
every action, step and card effect of the vocabulary that no transition models, the
reason; ``tests/test_smt_registry.py`` holds the registry to the engine's actions.
"""

from __future__ import annotations

import warnings

from . import auctions, building, cards, debts, extras, flow, mortgages, movement, trades
from .common import ARG_FIELDS, DEEDS, Args, ite, pick
from .movement import street_rent
from .registry import Example, Transition

#: every transition, in the order ``verify check`` reports them
TRANSITIONS: tuple[Transition, ...] = (
    auctions.buy, auctions.auction_won, movement.rent_street, movement.rent_station, movement.rent_utility,
    building.build_house, building.build_hotel, building.sell_house, building.sell_group, building.sell_hotel,
    mortgages.mortgage, mortgages.unmortgage, flow.mortgage_expired, trades.trade, cards.card_bank,
    cards.card_repairs, cards.card_each_player, cards.card_destroy_building, extras.tax, extras.casino_bet, movement.free_parking,
    mortgages.auction_mortgaged, debts.bankrupt_to_player, debts.bankrupt_to_bank, debts.surrender,
)

BY_NAME: dict[str, Transition] = {t.name: t for t in TRANSITIONS}

#: a transition's former name -> its name now (the engine's)
ALIASES: dict[str, str] = {old: t.name for t in TRANSITIONS for old in t.aliases}

#: the transitions that settle a player's leaving the game (``action.bankruptcy`` of the step invariants)
LEAVING = frozenset(("bankrupt_to_player", "bankrupt_to_bank", "surrender"))

#: every action, step and card effect of ``verify.vocabulary`` that no transition models, and why
NOT_MODELLED: dict[str, str] = {
    # actions
    "decline": "declining a deed moves no asset; the auction it may open ends in auction_won",
    "pay": "the model pays a debt at once when the cash covers it (rent, tax, cards, a won auction); paying it "
           "later, once raised (debt.explicit_payment_step), moves the same money",
    "casino_decline": "walking past the casino moves nothing",
    "bus": "the speed die's bus ride moves a token; the square it reaches resolves the steps of a landing "
           "(rent, card, tax, free_parking), modelled and compared through roll",
    "move_to": "the speed die's triples move a token; the square chosen resolves the steps of a landing, "
               "modelled and compared through roll",
    "stay": "jail is outside the model: staying in moves no asset",
    "timeout": "the turn and repayment timers are outside the model (turn phases and timing)",
    "pay_fine": "jail is outside the model: the fine to leave it is paid to the bank or the pot",
    "use_card": "jail is outside the model: a Get Out of Jail Free card used goes back to its deck",
    "lift_mortgage": "taking another player's mortgaged deed by paying off its mortgage "
                     "(mortgage.others_may_lift) has no transition",
    # steps
    "salary": "movement and the GO salary are outside the model",
    "reshuffle": "a draw of chance: the order of a reshuffled deck",
    "card_throw": "a draw of chance: the throw the nearest-utility card asks for",
    "jail_roll": "jail is outside the model: a roll from jail moves no asset (the fine it may make due is pay_fine)",
    "doubles": "the dice and turn order are outside the model: another roll moves no asset",
    "offer": "an offer moves no asset: buying is the transition buy, declining moves nothing",
    "auction": "an auction's opening moves no asset; its end is the transition auction_won",
    "debt": "a debt waiting to be raised moves no asset; the model pays a debt at once when the cash covers it",
    "jailed": "jail is outside the model",
    "left_jail": "jail is outside the model",
    "liquidation": "an engine's own choice of what to sell and mortgage for a debt: the model's sell_house, "
                   "sell_hotel, sell_group and mortgage are each of its moves",
    "debt_paid": "the model pays a debt at once when the cash covers it",
    "turn_ended": "turn order is outside the model",
    "game_over": "the end of the game moves no asset",
    # card effects (of the step "card")
    "advance_to": "a card that moves a token: the square it reaches resolves the steps of a landing",
    "advance_nearest": "a card that moves a token: the square it reaches resolves the steps of a landing",
    "go_back": "a card that moves a token: the square it reaches resolves the steps of a landing",
    "go_to_jail": "jail is outside the model",
    "jail_free": "drawing a Get Out of Jail Free card is a draw of chance; who holds one changes in the "
                 "trades and bankruptcies the model covers",
}


def modelling(name: str) -> tuple[Transition, ...]:
    """The transitions that model the engine action, step or card effect ``name`` (whole or in part)."""
    return tuple(t for t in TRANSITIONS if name in t.models or name in (t.step, t.effect))


def canonical(name: str) -> str:
    """The transition called ``name`` now: a transition's name is itself; a former name (``build-house``)
    gives the new one with a ``FutureWarning`` saying so; anything else raises ``KeyError``."""
    if name in BY_NAME:
        return name
    new = ALIASES.get(name)
    if new is None:
        raise KeyError(name)
    warnings.warn(DeprecatedName(name, new), stacklevel=2)
    return new


class DeprecatedName(FutureWarning):
    """A transition named by its former (hyphenated) name."""

    def __init__(self, old: str, new: str):
        super().__init__(f"the action name {old!r} is deprecated: it is {new!r} now (the engine's name)")
        self.old, self.new = old, new


__all__ = ["TRANSITIONS", "BY_NAME", "ALIASES", "LEAVING", "NOT_MODELLED", "Transition", "Example", "Args",
           "ARG_FIELDS", "DEEDS", "canonical", "modelling", "DeprecatedName", "ite", "pick", "street_rent"]
