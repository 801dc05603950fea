"""Every action of the game, declared once: its fields, guard, effect, phases, actor and parameters.

An action is a JSON object ``{"type": <name>, "seat": <player>, <fields>...}``.
Each ``Action`` below is the one place it is described; from these declarations
come the step API's dispatch (``verify.engine.step``), ``legal_actions`` (each
field's ``values`` enumerate its candidates, the guard keeps the legal ones), the
JSON Schema of actions and the action table of the docs (``verify.engine.listing``:
``verify/schemas/action.schema.json``, ``docs/engine.md``) and the conformance
harness's menu. Asking the registry::

    from verify.engine.actions import ACTIONS, random_fields
    ACTIONS["bid"].fields[0].name, ACTIONS["bid"].fields[0].domain   # 'amount', 'money ...'
    [f.name for f in ACTIONS["roll"].fields if f.random]             # ['dice', 'card_dice', 'reshuffle']
    ACTIONS["trade"].reads                                           # ('trade.allowed', ...)

A field marked ``random`` is a draw of chance the action carries, so that a state
and an action determine the successor: the dice, the casino's die and jackpot
draw, and for every action that may move a token, the order of a deck
reshuffled during the step (``reshuffle``) and the nearest-utility card's own
throw (``card_dice``). ``fill_random`` completes them; without the last two the
engine derives them from the state's seed. ``legal_actions`` leaves random fields
out.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from ..config.model import SQUARES
from ..vocabulary import ACTIONS as ACTION_NAMES
from .rules import auctions, building, construction, debts, extras, flow, mortgages, trades, turns
from .rules.flow import awaited
from .static import refusals_reached
from .state import (AUCTION, BUS, BUY, CASINO, DEBT, INCOME_TAX, JAIL_CHOICE, POST_ROLL, PRE_ROLL, TRIPLES,
                    GameState)

#: who takes an action (``Action.actor``)
ACTORS = {
    "awaited": "the player the state waits for (the pending decision's player, the debtor, else the current "
               "player)",
    "bidder": "a bidder whose move it is (every bidder in an open auction)",
    "any": "any player still in the game",
    "claimant": "the owner of an open rent claim",
}


@dataclass(frozen=True)
class Field:
    """One field of an action."""

    name: str
    doc: str
    schema: Mapping[str, Any]                   # JSON Schema of the value
    domain: str                                 # its values, in words
    #: legal_actions' candidates for this seat (None: not enumerated; an action with such a field is not listed)
    values: Callable[[Any, GameState, int], Iterable] | None = None
    random: bool = False
    optional: bool = False
    #: a value of another JSON type is a malformed action (GameError), not a rule's refusal
    strict: bool = False
    #: random fields: a value the guard accepts, for legal_actions (which leaves the field out)
    placeholder: Callable[[Any, GameState, int], Any] | None = None
    default: Any = None

    def to_json(self) -> dict:
        return {"name": self.name, "doc": self.doc, "domain": self.domain, "schema": dict(self.schema),
                "random": self.random, "optional": self.optional}


@dataclass(frozen=True)
class Action:
    """One action: the one declaration every listing of actions is generated from."""

    name: str
    doc: str
    guard: Callable                 # why_not_<action>(t, g, seat, *fields) -> Reason | None
    effect: Callable                # <action>(t, g, seat, *fields)
    phases: tuple[str, ...]         # the phases in which it can be legal
    actor: str                      # one of ACTORS
    reads: tuple[str, ...]          # the catalogue parameters its guard and effect read
    fields: tuple[Field, ...] = ()  # the fields passed to guard and effect, in order
    moves: bool = False             # its effect may move a token: the step's random fields apply
    block: str | None = None        # legal_actions enumerates a block's actions together (see enumerate_legal)
    #: legal_actions asks this once per seat before the guards (a cheap necessary condition)
    precondition: Callable[[Any, GameState, int], bool] | None = None   # (t, g, seat): a rule function

    @property
    def all_fields(self) -> tuple[Field, ...]:
        """The fields of a complete action: its own, then the step's random fields when it may move."""
        return self.fields + (STEP_RANDOM if self.moves else ())

    def to_json(self) -> dict:
        return {"name": self.name, "doc": self.doc, "phases": list(self.phases), "actor": self.actor,
                "fields": [f.to_json() for f in self.all_fields], "reads": list(self.reads),
                "refusals": [r.to_json() for r in refusals_of(self)]}


# ---------------------------------------------------------------------------- field values
def _placeholder_dice(e, g: GameState, seat: int) -> list[int]:
    return [1] * e.rules.base.dice_needed(e.t, g)


def _owned(e, g: GameState, seat: int) -> list[int]:
    owner = g.owner
    return [s for s in e.t.ownable if owner[s] == seat]


def _others_mortgaged(e, g: GameState, seat: int) -> list[int]:
    if not e.config.mortgage.others_may_lift:
        return []
    return [s for s in e.t.ownable if g.mortgaged[s] and g.owner[s] not in (-1, seat)]


def _claimed(e, g: GameState, seat: int) -> list[int]:
    return [c[2] for c in g.claims if c[1] == seat]


SQUARE = {"type": "integer", "minimum": 0, "maximum": SQUARES - 1}
DIE = {"type": "integer", "minimum": 1, "maximum": 6}
DECK = {"enum": ["chance", "chest"]}
SIDE = {"type": "object", "additionalProperties": False,
        "properties": {"squares": {"type": "array", "items": SQUARE, "uniqueItems": True},
                       "cash": {"type": "integer", "minimum": 0},
                       "cards": {"type": "array", "items": DECK}}}


def _square(doc: str, values: Callable | None) -> Field:
    return Field("square", doc, SQUARE, "a square 0..39", values, strict=True)


DICE = Field("dice", "the dice thrown: the white dice, then the speed die when it is in play",
             {"type": "array", "items": DIE, "minItems": 1, "maxItems": 4},
             "one value 1..6 per die rolled now (dice.count; the speed die last)", random=True,
             placeholder=_placeholder_dice)
#: random fields of every action whose effect may move a token (``Action.moves``)
STEP_RANDOM = (
    Field("card_dice", "the nearest-utility card's own throw (\"throw the dice and pay ten times the amount "
          "thrown\"), when the step draws that card and its utility is owned by another player",
          {"type": "array", "items": DIE, "minItems": 2, "maxItems": 2}, "two values 1..6", random=True,
          optional=True),
    Field("reshuffle", "the new order of a deck that runs out during the step, by deck: the deck's discards "
          "in any order",
          {"type": "object", "additionalProperties": False,
           "properties": {"chance": {"type": "array", "items": {"type": "string"}},
                          "chest": {"type": "array", "items": {"type": "string"}}}},
          "an order of that deck's discarded card ids", random=True, optional=True),
)

_MOVE_READS = ("go.salary", "go.salary_on_pass", "go.salary_on_landing", "go.exact_landing_bonus",
               "go.salary_stop_minute", "go.salary_once_per_turn", "go.pass_then_card_to_go_pays_twice",
               "go.exact_landing_bonus_after_salary_stop", "purchase.first_round", "rent.claim_deadline",
               "rent.owner_must_claim", "rent.tax_enabled", "tax.income", "tax.income_percent_option", "tax.luxury",
               "jail.via_go_to_jail_square", "jail.via_card", "jail.sent_collects_salary", "free_parking.pot",
               "casino.enabled", "cards.return_policy", "cards.payment_debt", "cards.building_destroy_target")
_MANAGE_READS = ("jail.may_manage", "turn.manage_before_roll_only")

# ---------------------------------------------------------------------------- the actions
_DECLARED = (
    Action("roll", "Roll the dice and move: doubles, GO, the square landed on (rent, cards, taxes, jail).",
           turns.why_not_roll, turns.roll, (PRE_ROLL,), "awaited",
           ("dice.count", "dice.doubles_roll_again", "dice.doubles_to_jail", "dice.last_double_moves",
            "speed_die.enabled", "speed_die.pip_faces", "speed_die.mr_monopoly_faces",
            "speed_die.triples_count_as_doubles", "speed_die.doubles_white_only", "speed_die.jail_white_only",
            "jail.max_tries", "jail.after_last_try", "jail.fine_after_failed_roll_same_turn",
            "jail.doubles_exit_moves", "jail.doubles_exit_rolls_again") + _MOVE_READS,
           (DICE,), moves=True),
    Action("end_turn", "End the turn after the move.", flow.why_not_end_turn, flow.end_turn, (POST_ROLL,),
           "awaited", ("turn.end", "mortgage.expiry_rounds", "end.condition")),
    Action("buy", "Buy the deed landed on at its printed price.", auctions.why_not_buy, auctions.buy, (BUY,),
           "awaited", ("purchase.price",)),
    Action("decline", "Decline the deed landed on (it goes to auction where the rules say so).",
           auctions.why_not_decline, auctions.decline, (BUY,), "awaited",
           ("purchase.on_decline", "auction.bidders", "auction.opening_bid")),
    Action("bid", "Bid in the running auction.", auctions.why_not_bid, auctions.bid, (AUCTION,), "bidder",
           ("auction.bidders", "auction.opening_bid", "auction.min_increment", "auction.fixed_step",
            "auction.bidding_order", "auction.bid_above_cash", "jail.may_manage"),
           (Field("amount", "the bid", {"type": "integer", "minimum": 1},
                  "money: at least the minimum bid (legal_actions lists the minimum)",
                  lambda e, g, seat: [e.rules.auctions.min_bid(e.t, g)]),),
           moves=True, block="auction"),
    Action("pass", "Drop out of the running auction.", auctions.why_not_pass, auctions.pass_bid, (AUCTION,),
           "bidder", ("auction.bidders", "auction.bidding_order", "jail.may_manage"), moves=True, block="auction"),
    Action("pay", "Pay the open debt.", debts.why_not_pay, debts.pay, (DEBT,), "awaited",
           ("debt.explicit_payment_step",), moves=True),
    Action("bankrupt", "Declare bankruptcy over the open debt: every asset goes where the rules say.",
           debts.why_not_bankrupt, debts.bankrupt, (DEBT,), "awaited",
           ("bankruptcy.threshold", "debt.raise_cash_first", "bankruptcy.to_player_properties",
            "bankruptcy.to_player_cash", "bankruptcy.to_player_buildings", "bankruptcy.to_player_jail_cards",
            "bankruptcy.to_player_mortgaged", "bankruptcy.mortgage_interest_base", "bankruptcy.to_bank_properties",
            "bankruptcy.to_bank_mortgages", "teams.bankrupt_to_bank_teammate_inherits"), moves=True),
    Action("pay_tax", "Choose how to pay the income tax.", extras.why_not_pay_tax, extras.pay_tax, (INCOME_TAX,),
           "awaited", ("tax.income", "tax.income_percent_option", "tax.worth_counts_mortgaged_at_printed",
                       "tax.worth_hotel"),
           (Field("option", "the fixed amount, or the share of one's worth", {"enum": ["fixed", "percent"]},
                  "fixed | percent", lambda e, g, seat: ("fixed", "percent")),)),
    Action("casino_bet", "Bet on the casino's die.", extras.why_not_casino_bet, extras.casino_bet, (CASINO,),
           "awaited", ("casino.stake", "casino.max_numbers", "casino.payout_numerator", "casino.jackpot_odds",
                       "casino.jackpot_contribution"),
           (Field("numbers", "the numbers bet on", {"type": "array", "items": DIE, "minItems": 1, "uniqueItems": True},
                  "1 to casino.max_numbers different numbers 1..6 (legal_actions lists 1..k)",
                  lambda e, g, seat: [list(range(1, k + 1)) for k in range(1, e.config.casino.max_numbers + 1)]),
            Field("die", "the casino's die", DIE, "1..6", random=True, placeholder=lambda e, g, seat: 1),
            Field("jackpot", "whether the jackpot is drawn (one chance in casino.jackpot_odds)", {"type": "boolean"},
                  "true | false", random=True, placeholder=lambda e, g, seat: False))),
    Action("casino_decline", "Walk past the casino.", extras.why_not_casino_decline, extras.casino_decline,
           (CASINO,), "awaited", ("casino.may_decline",)),
    Action("bus", "Take the speed die's bus: move by one white die or by both.", turns.why_not_bus, turns.bus,
           (BUS,), "awaited", ("speed_die.bus",) + _MOVE_READS,
           (Field("steps", "how far to move", {"type": "integer", "minimum": 1, "maximum": 12},
                  "one of the pending options", lambda e, g, seat: list(g.pending["options"])),), moves=True),
    Action("move_to", "Triples on the speed die: move to any square.", turns.why_not_move_to, turns.move_to,
           (TRIPLES,), "awaited", ("speed_die.triples",) + _MOVE_READS,
           (Field("square", "where to move", SQUARE, "a square 0..39", lambda e, g, seat: range(e.t.size)),), moves=True),
    Action("stay", "Stay in jail after a failed roll (instead of paying the fine at once).", turns.why_not_stay,
           turns.stay, (JAIL_CHOICE,), "awaited", ("jail.fine_after_failed_roll_same_turn",), moves=True),
    Action("timeout", "The turn timer runs out before the roll (the turn is skipped or played with the "
           "game's default choices), or the repayment timer in a debt (the game raises the money or "
           "declares the bankruptcy).", extras.why_not_timeout, extras.timeout, (PRE_ROLL, DEBT), "awaited",
           ("timer.on_timeout", "timer.turn_seconds", "timer.forfeit_after_missed", "debt.repayment_seconds",
            "speed_die.bus_timeout"),
           (Field("dice", DICE.doc + " (default choices only)", DICE.schema, DICE.domain, random=True,
                  optional=True, placeholder=_placeholder_dice),), moves=True),
    Action("pay_fine", "Pay the fine to leave jail.", turns.why_not_pay_fine, turns.pay_fine,
           (PRE_ROLL, POST_ROLL, JAIL_CHOICE), "any",
           ("jail.fine", "jail.fine_timing", "jail.fine_voluntary_turns", "jail.card_exit_then_roll"), moves=True),
    Action("use_card", "Use a Get Out of Jail Free card.", turns.why_not_use_card, turns.use_card,
           (PRE_ROLL, POST_ROLL, JAIL_CHOICE), "any",
           ("jail.card_exit", "jail.fine_timing", "jail.card_exit_then_roll", "cards.return_policy"),
           (Field("deck", "which card, when one holds both", DECK, "chance | chest", optional=True),), moves=True),
    Action("build_house", "Build a house (a shortage puts it up for auction).", building.why_not_build_house,
           building.build_house, (PRE_ROLL, POST_ROLL, BUY, DEBT), "any",
           ("building.timing", "building.requires_full_group", "building.blocked_by_mortgage",
            "building.per_turn_limit", "building.max_houses", "building.even_build", "building.house_supply",
            "building.shortage_auction", "building.shortage_trigger") + _MANAGE_READS,
           (_square("the street", _owned),), moves=True, block="manage", precondition=construction.may_manage_now),
    Action("build_hotel", "Build a hotel (the houses it needs go back to the bank).", building.why_not_build_hotel,
           building.build_hotel, (PRE_ROLL, POST_ROLL, BUY, DEBT), "any",
           ("building.timing", "building.requires_full_group", "building.blocked_by_mortgage",
            "building.per_turn_limit", "building.hotel_threshold", "building.hotel_needs_whole_group",
            "building.max_hotels_per_street", "building.even_build", "building.hotel_supply",
            "building.hotel_returns_houses", "building.shortage_auction", "building.shortage_trigger")
           + _MANAGE_READS,
           (_square("the street", _owned),), moves=True, block="manage", precondition=construction.may_manage_now),
    Action("sell_house", "Sell a house back to the bank.", building.why_not_sell_house, building.sell_house,
           (PRE_ROLL, POST_ROLL, BUY, DEBT), "any",
           ("building.sell_timing", "building.even_sell", "building.sell_ratio") + _MANAGE_READS,
           (_square("the street", _owned),), block="manage", precondition=construction.may_manage_now),
    Action("sell_hotel", "Break a hotel down into the houses it needs (building.hotel_threshold) and sell it.",
           building.why_not_sell_hotel, building.sell_hotel, (PRE_ROLL, POST_ROLL, BUY, DEBT), "any",
           ("building.sell_timing", "building.hotel_returns_houses", "building.house_supply",
            "building.sell_ratio") + _MANAGE_READS,
           (_square("the street", _owned),), block="manage", precondition=construction.may_manage_now),
    Action("mortgage", "Mortgage a deed.", mortgages.why_not_mortgage, mortgages.mortgage,
           (PRE_ROLL, POST_ROLL, BUY, DEBT), "any",
           ("mortgage.timing", "mortgage.requires_no_buildings_in_group", "mortgage.value") + _MANAGE_READS,
           (_square("the deed", _owned),), block="manage", precondition=construction.may_manage_now),
    Action("unmortgage", "Lift the mortgage of one's own deed.", mortgages.why_not_unmortgage, mortgages.unmortgage,
           (PRE_ROLL, POST_ROLL, BUY, DEBT), "any",
           ("mortgage.timing", "mortgage.interest_rate", "mortgage.interest_base",
            "mortgage.transfer_unmortgage_pays_interest_again", "mortgage.transfer_lift_at_once") + _MANAGE_READS,
           (_square("the deed", _owned),), block="manage", precondition=construction.may_manage_now),
    Action("lift_mortgage", "Take another player's mortgaged deed by paying off its mortgage.",
           mortgages.why_not_lift, mortgages.lift, (PRE_ROLL, POST_ROLL, BUY, DEBT), "any",
           ("mortgage.others_may_lift", "mortgage.timing", "mortgage.interest_rate") + _MANAGE_READS,
           (_square("the deed", _others_mortgaged),), block="manage", precondition=construction.may_manage_now),
    Action("auction_mortgaged", "Put one's own mortgaged deed up for auction at once.",
           mortgages.why_not_auction_mortgaged, mortgages.auction_mortgaged, (PRE_ROLL, POST_ROLL), "any",
           ("mortgage.immediate_auction", "mortgage.immediate_auction_opening", "mortgage.immediate_auction_owner_bids",
            "mortgage.immediate_auction_proceeds", "mortgage.timing") + _MANAGE_READS,
           (_square("the deed", _owned),), moves=True, block="manage", precondition=construction.may_manage_now),
    Action("sell_group", "Sell every building of a colour group back at once.", building.why_not_sell_group,
           building.sell_group, (PRE_ROLL, POST_ROLL, BUY, DEBT), "any",
           ("building.sell_timing", "building.sell_ratio") + _MANAGE_READS,
           (Field("group", "the colour group (its index in the board's groups)", {"type": "integer", "minimum": 0},
                  "a group index", lambda e, g, seat: range(len(e.t.groups)), strict=True),),
           precondition=construction.may_manage_now),
    Action("trade", "Trade deeds, cash and Get Out of Jail Free cards with another player.", trades.why_not_trade,
           trades.trade, (PRE_ROLL, POST_ROLL, BUY, DEBT), "any",
           ("trade.allowed", "trade.timing", "trade.cash", "trade.jail_cards", "trade.building_lock",
            "trade.mortgaged", "trade.max_value_gap", "trade.max_value_ratio", "trade.teammates_skip_balance",
            "trade.per_turn_limit", "trade.loans", "debt.trade_while_in_debt", "cards.jail_card_tradeable",
            "jail.buy_card_from_player", "mortgage.transfer_interest") + _MANAGE_READS,
           (Field("with", "the other player", {"type": "integer", "minimum": 0}, "a seat"),
            Field("give", "what the seat gives", SIDE, "{squares, cash, cards}", default={}, optional=True),
            Field("take", "what the seat gets", SIDE, "{squares, cash, cards}", default={}, optional=True)),
           moves=True),
    Action("surrender", "Give up: leave the game, every asset going where a bankruptcy sends it.",
           debts.why_not_surrender, debts.surrender,
           (PRE_ROLL, POST_ROLL, BUY, AUCTION, DEBT, CASINO, BUS, TRIPLES, INCOME_TAX, JAIL_CHOICE), "any",
           ("bankruptcy.surrender",), moves=True),
    Action("claim_rent", "Ask for rent owed (where the owner must claim it before a deadline).",
           debts.why_not_claim_rent, debts.claim_rent, (PRE_ROLL, POST_ROLL, BUY), "claimant",
           ("rent.owner_must_claim", "rent.claim_deadline"),
           (Field("square", "the square the rent is owed for (any of the seat's claims when left out)", SQUARE,
                  "a square of one of the seat's open claims", _claimed, optional=True),), moves=True),
)

#: every action, by name, in the order declared (legal_actions lists them in this order)
ACTIONS: dict[str, Action] = {a.name: a for a in _DECLARED}
if set(ACTIONS) != set(ACTION_NAMES):     # the one vocabulary of actions (verify.vocabulary)
    raise AssertionError(f"actions outside verify.vocabulary.ACTIONS: {sorted(set(ACTIONS) ^ set(ACTION_NAMES))}")
ACTION_TYPES = tuple(ACTIONS)


def random_fields(name: str) -> tuple[Field, ...]:
    """The random fields of an action type (the dice, the casino draw, the step's own draws)."""
    return tuple(f for f in ACTIONS[name].all_fields if f.random)


# ---------------------------------------------------------------------------- legal actions
#: legal_actions' passes, by actor: the awaited decision first, then what anyone may do, then rent claims
PASSES = (("awaited", "bidder"), ("any",), ("claimant",))


def _units(phase: str, actors: tuple[str, ...], only: frozenset[str] | None) -> list[list[Action]]:
    """The actions of a phase and a pass grouped for enumeration: consecutive actions of one block together."""
    units: list[list[Action]] = []
    for a in _DECLARED:
        if phase not in a.phases or a.actor not in actors or (only is not None and a.name not in only):
            continue
        if any(f.values is None and not f.random and not f.optional for f in a.fields):
            continue         # a field nothing enumerates (trades): never listed
        if units and a.block is not None and units[-1][0].block == a.block:
            units[-1].append(a)
        else:
            units.append([a])
    return units


_PHASE_UNITS: dict[tuple[str, frozenset[str] | None], list[list[list[Action]]]] = {}


def _seats(g: GameState, actor: str) -> list[int]:
    if actor == "bidder":
        p = g.pending
        return [p["turn"]] if p["turn"] is not None else list(p["bidders"])
    if actor == "any":
        return [q for q in range(g.n) if not g.bankrupt[q]]
    if actor == "claimant":
        out: list[int] = []
        for c in g.claims:
            if c[1] not in out:
                out.append(c[1])
        return out
    return [awaited(g)]


def enumerate_legal(e, g: GameState, only: frozenset[str] | None = None) -> list[dict]:
    """Every legal action whose fields can be enumerated (random fields left out), in registry order, in
    three passes (``PASSES``): the actions of the awaited decision, then seat by seat what anyone may do
    now, then rent claims. The actions of one block are enumerated together: for each seat, for each value
    of their first field, each action. ``only`` names the action types wanted (the others' guards are not
    asked: the same list as filtering the whole one, for the cost of those actions alone)."""
    passes = _PHASE_UNITS.get((g.phase, only))
    if passes is None:
        passes = _PHASE_UNITS[(g.phase, only)] = [_units(g.phase, actors, only) for actors in PASSES]
    out: list[dict] = []
    for units in passes:
        if not units:
            continue
        if units[0][0].actor == "any":          # seat by seat, every unit
            for seat in _seats(g, "any"):
                for unit in units:
                    _enumerate_unit(e, g, seat, unit, out)
        else:
            for unit in units:
                for seat in _seats(g, unit[0].actor):
                    _enumerate_unit(e, g, seat, unit, out)
    return out


def _enumerate_unit(e, g: GameState, seat: int, unit: list[Action], out: list[dict]) -> None:
    pre = unit[0].precondition
    if pre is not None and not e.precondition[pre](g, seat):
        return
    listed = [(a, [f for f in a.fields if not f.random and f.values is not None]) for a in unit]
    firsts: list[Any] = []          # the union of the first fields' values, in order (None: no field)
    domains = []
    for _, enum in listed:
        if enum:
            vals = list(enum[0].values(e, g, seat))
            domains.append(vals)
            firsts.extend(v for v in vals if v not in firsts)
        else:
            domains.append(None)
            if None not in firsts:
                firsts.append(None)
    dispatch = e.dispatch
    for v in firsts:
        for (a, enum), dom in zip(listed, domains):
            if (v is None) != (dom is None) or (dom is not None and v not in dom):
                continue
            rest = [list(f.values(e, g, seat)) for f in enum[1:]]
            guard = dispatch[a.name][0]
            for combo in itertools.product(*rest):
                chosen = dict(zip((f.name for f in enum), (v, *combo) if dom is not None else combo))
                args = []
                for f in a.fields:
                    if f.name in chosen:
                        args.append(chosen[f.name])
                    elif f.random and f.placeholder is not None:
                        args.append(f.placeholder(e, g, seat))
                    else:
                        args.append(f.default)
                if guard(g, seat, *args) is None:
                    out.append({"type": a.name, "seat": seat, **chosen})


# ---------------------------------------------------------------------------- refusals
def refusals_of(action: Action) -> list:
    """The refusals its guard can give (found in the guard's source and the rule functions it calls)."""
    return refusals_reached(action.guard)


__all__ = ["Action", "Field", "ACTIONS", "ACTION_TYPES", "ACTORS", "STEP_RANDOM", "random_fields",
           "enumerate_legal", "awaited", "refusals_of"]
