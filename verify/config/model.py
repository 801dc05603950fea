"""The EngineConfig: a resolved ruleset compiled into the typed values the rules are played by.

It is the hinge of the pipeline, shared by the reference engine, the SMT model
and the conformance harness, so it belongs to none of them. Every catalogued
parameter that affects play, grouped per rule area, with the board (28 deeds,
colour groups, square kinds) and the card decks already in the ruleset's money
scale. Symbols of the catalogue (``never``, ``none``, ``unlimited``, ``every``)
become ``None``; nothing here names a ruleset or a source, so engine code
cannot branch on them.

Built with ``EngineConfig.from_ruleset(ruleset)`` (``from_ruleset.py``) or read
back with ``EngineConfig.from_json(doc)`` (``from_json.py``, what another
engine receives); ``to_json()`` is what ``verify compile --target
engine-config`` writes; ``hash()`` identifies the config in trace headers.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, fields, is_dataclass
from typing import Any, Final

from ..spec import load_catalogue
from ..spec.ruleset import Ruleset
from .board import Card

#: Square kinds, in the order used by the engine's flat tables.
KINDS = ("go", "street", "station", "utility", "chance", "chest", "income_tax", "luxury_tax",
         "jail", "free_parking", "casino", "go_to_jail")
#: Squares on the board, and where the fixed ones are (the deeds table and the decks' squares place the rest);
#: code reads the size from a config (``Board.size``, ``Tables.size``), this constant only where none is at hand.
SQUARES: Final = 40
GO, JAIL_SQUARE, CORNER_20, GO_TO_JAIL, INCOME_TAX, LUXURY_TAX = 0, 10, 20, 30, 4, 38

@dataclass(frozen=True)
class Deed:
    square: int
    name: str
    group: int                  # index into Board.groups
    kind: str                   # street | station | utility
    price: int
    rents: tuple[int, ...]      # streets: base, 1..4 houses, hotel (scaled)
    house_cost: int             # also the hotel cost (scaled)
    mortgage: int               # mortgage value (scaled)


@dataclass(frozen=True)
class Group:
    name: str
    kind: str
    squares: tuple[int, ...]


@dataclass(frozen=True)
class Board:
    squares: tuple[str, ...]            # the kind of every square (KINDS), SQUARES of them
    deeds: tuple[Deed, ...]             # the 28 ownable squares, in square order
    groups: tuple[Group, ...]
    chance_squares: tuple[int, ...]
    chest_squares: tuple[int, ...]

    def deed(self, square: int) -> Deed:
        for d in self.deeds:
            if d.square == square:
                return d
        raise KeyError(square)

    @property
    def ownable(self) -> tuple[int, ...]:
        return tuple(d.square for d in self.deeds)

    @property
    def size(self) -> int:
        """The number of squares."""
        return len(self.squares)


@dataclass(frozen=True)
class Setup:
    scale: int
    starting_cash: int
    players_min: int
    players_max: int
    dealt_per_player: int       # deeds dealt to each player (0 = none)
    dealt_all: bool             # the whole board is divided
    dealt_paid: bool
    first_player: str           # highest_roll | seat_order
    shuffle_decks: bool
    bank_unlimited_cash: bool


@dataclass(frozen=True)
class Movement:
    dice_count: int
    doubles_roll_again: bool
    doubles_to_jail: int | None
    last_double_moves: bool
    go_salary: int
    salary_on_pass: bool
    salary_on_landing: bool
    exact_landing_bonus: int
    pass_then_card_pays_twice: bool
    salary_stop_minute: int | None
    exact_landing_bonus_after_salary_stop: bool
    salary_once_per_turn: bool  # a second pass in one move pays nothing (Advance to GO: pass_then_card_pays_twice)
    turn_end: str               # player_ends | automatic_after_square


@dataclass(frozen=True)
class Purchase:
    first_round: bool
    on_decline: str             # auction | stays_unowned
    auction_bidders: str        # everyone | others_only
    opening: str                # any | printed_price | amount
    opening_amount: int         # the minimum first bid (any: min_increment)
    min_increment: int
    fixed_step: bool            # every bid is exactly the previous one plus min_increment
    bidding_order: str          # open_outcry | seat_order
    bid_seconds: int | None
    no_bid: str
    bid_above_cash: bool        # a won deed auction the winner cannot pay becomes a debt


@dataclass(frozen=True)
class Rent:
    group_multiplier: int
    group_bonus_with_buildings: bool
    group_bonus_with_mortgaged_mate: bool
    station_schedule: tuple[int, ...]
    utility_multipliers: tuple[int, ...]
    mortgaged_collects: bool
    jailed_owner_collects: bool
    claim_deadline: str         # automatic | before_next_roll | before_second_next_roll | before_second_after_owner_rolls
    owner_must_claim: bool
    tax_enabled: bool
    tax_start_minute: int | None
    tax_initial_rate: float
    tax_step_rate: float
    tax_step_minutes: int
    tax_max_rate: float


@dataclass(frozen=True)
class Jail:
    via_go_to_jail_square: bool
    via_card: bool
    sent_collects_salary: bool
    sent_ends_turn: bool
    just_visiting_effect: bool
    fine: int
    max_tries: int
    fine_timing: str            # before_rolling | anytime_in_jail
    fine_voluntary_turns: int | None   # None = every turn
    after_last_try: str         # pay_fine_and_move | released_and_move
    fine_after_failed_roll_same_turn: bool
    doubles_exit_moves: bool
    doubles_exit_rolls_again: bool
    card_exit: bool
    card_exit_then_roll: bool
    buy_card_from_player: bool
    may_manage: bool


@dataclass(frozen=True)
class Cards:
    return_policy: str          # bottom_of_deck | reshuffle_when_empty
    chance: tuple[Card, ...]
    chest: tuple[Card, ...]
    jail_card_kept: bool
    jail_card_tradeable: bool
    payment_debt: bool
    building_destroy: bool
    building_destroy_target: str    # drawer | opponent


@dataclass(frozen=True)
class Taxes:
    income: int
    income_percent: float | None
    income_choose_before_worth: bool
    worth_counts_mortgaged_at_printed: bool
    worth_hotel: str            # price_and_converted_houses | price_only
    luxury: int
    free_parking_pot: bool
    pot_card_payments: bool     # card payments to the bank go into the pot too
    free_parking_reward: bool


@dataclass(frozen=True)
class Casino:
    enabled: bool
    stake: int
    max_numbers: int
    payout_numerator: int
    jackpot_odds: int
    jackpot_contribution: int
    jackpot_start: int
    may_decline: bool


@dataclass(frozen=True)
class Building:
    requires_full_group: bool
    blocked_by_mortgage: bool
    even_build: bool
    even_sell: bool
    max_houses: int
    hotel_threshold: int
    hotel_needs_whole_group: bool
    max_hotels_per_street: int
    hotel_returns_houses: bool
    timing: str                 # anytime | before_roll_own_turn
    per_turn_limit: str         # unlimited | one_level_per_street | one_per_group
    house_supply: int | None    # None = unlimited
    hotel_supply: int | None
    shortage_auction: bool
    shortage_trigger: str       # more_players_than_stock | more_wanted_than_stock | last_one_wanted_by_several
    shortage_queue: bool
    sell_ratio: float
    sell_timing: str
    hotel_sale: str
    sell_to_players: bool
    supply_accounting: str      # bank_stock | sold_buildings_vanish | builds_not_taken_from_stock


@dataclass(frozen=True)
class Mortgage:
    value_ratio: float
    requires_no_buildings_in_group: bool
    timing: str
    interest_rate: float
    interest_base: str          # mortgage_value | price
    transfer_interest: bool
    transfer_unmortgage_pays_interest_again: bool
    transfer_lift_at_once: str  # interest_again | principal_only
    others_may_lift: bool
    expiry_rounds: int | None
    expiry_auction_opening: int | None   # None = printed price
    expiry_auction_owner_bids: bool
    immediate_auction: bool
    immediate_auction_opening: str          # mortgage_value | printed_price | amount
    immediate_auction_opening_amount: int   # the opening when it is an amount
    immediate_auction_owner_bids: bool
    immediate_auction_proceeds: str         # owner_after_loan | bank


@dataclass(frozen=True)
class Trade:
    allowed: bool
    timing: str                 # anytime | before_roll_own_turn | own_turn_and_payments
    cash: bool
    jail_cards: bool
    building_lock: str          # whole_group | property
    mortgaged: str              # allowed | forbidden | teammates_only
    max_value_gap: float | None
    max_value_ratio: int | None
    teammates_skip_balance: bool
    per_turn_limit: int | None
    loans: bool
    side_deals: bool


@dataclass(frozen=True)
class Debt:
    raise_cash_first: bool
    explicit_payment_step: bool
    trade_while_in_debt: bool
    repayment_seconds: int | None
    threshold: str              # cannot_raise | debt_exceeds_worth
    to_player_properties: str   # creditor | bank_unowned | bank_auction
    to_player_cash: str         # creditor | proceeds_to_creditor
    to_player_buildings: str    # sold_half_to_creditor | returned_to_bank
    to_player_jail_cards: str   # creditor | deck
    to_player_mortgaged: str    # with_other_properties | dropped
    transfer_interest_base: str  # mortgage_value | price
    to_bank_properties: str     # auction | unowned | teammate
    to_bank_buildings: str
    to_bank_mortgages: str      # kept_on_auction | cleared
    surrender: bool
    leaves_at_once: bool


@dataclass(frozen=True)
class End:
    condition: str              # last_standing | first_bankruptcy | time_limit | round_limit
    last_standing_also: bool
    time_limit_minutes: int | None
    round_limit: int | None
    winner: str                 # last_standing | richest
    networth_mortgaged: float
    networth_buildings: float


@dataclass(frozen=True)
class SpeedDie:
    enabled: bool
    activation: str             # after_first_pass_go | from_round
    activation_round: int
    bus: str
    bus_timeout: str            # none | sum
    mr_monopoly: str            # next_unowned_else_next_rent | nearest_unowned_else_nearest_opponent
    mr_monopoly_decline_auction: bool
    triples: str
    triples_count_as_doubles: bool
    pip_faces: int              # speed die faces 1..pip_faces show pips, then Mr. Monopoly, then the Bus
    mr_monopoly_faces: int
    bus_faces: int
    doubles_white_only: bool
    jail_white_only: bool


@dataclass(frozen=True)
class Teams:
    enabled: bool
    size: int
    teammates_pay_rent: bool
    bankrupt_to_bank_teammate_inherits: bool


@dataclass(frozen=True)
class Clock:
    seconds_per_turn: int       # the deterministic game clock: seconds of play per player-turn
    turn_seconds: int | None
    turn_reserve_seconds: int
    on_timeout: str             # none | skip_turn | default_choices
    forfeit_after_missed: int | None
    reset_by_management: bool
    manage_before_roll_only: bool


@dataclass(frozen=True)
class EngineConfig:
    """Everything the engine needs, typed and frozen. Money is in the ruleset's own scale."""

    board: Board
    setup: Setup
    movement: Movement
    purchase: Purchase
    rent: Rent
    jail: Jail
    cards: Cards
    taxes: Taxes
    casino: Casino
    building: Building
    mortgage: Mortgage
    trade: Trade
    debt: Debt
    end: End
    speed_die: SpeedDie
    teams: Teams
    clock: Clock
    #: the rule values this engine cannot play, each as "file:line: id = value (...)" (see PLAYED_ONLY)
    unplayable: tuple[str, ...] = ()

    @classmethod
    def from_ruleset(cls, ruleset) -> "EngineConfig":
        """Compile a resolved ``verify.spec.Ruleset`` (unset parameters take catalogue fallbacks)."""
        from .from_ruleset import compile_ruleset
        compiled: Any = compile_ruleset(ruleset)    # (Any: the compiled engine's copy of this class is another type)
        return compiled

    @classmethod
    def from_json(cls, doc: Any) -> "EngineConfig":
        """Read back what ``to_json`` (or ``verify compile --target engine-config``) wrote."""
        from .from_json import config_from_json
        config: Any = config_from_json(doc)     # (Any: as in from_ruleset)
        return config

    def to_json(self) -> dict:
        return _jsonable(self)

    def hash(self) -> str:
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def round_money(x: float) -> int:
    """Money is whole; half rounds up (classic: 10 % of 35 = 3.5 -> 4). The one rounding of money: the
    config, the tables (``verify.config.tables``), the engine and the SMT model all round with it."""
    return int(x + 0.5 + 1e-9)


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, Card):
        return obj.to_json()
    if is_dataclass(obj):
        return {f.name: _jsonable(getattr(obj, f.name)) for f in fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(x) for x in obj]
    return obj


def fallback_ruleset():
    """A ruleset whose every value is the catalogue fallback (for tests and early wiring)."""
    return Ruleset(id="fallback", title="", chain=(), sources=(), entries={}, promises={},
                   catalogue=load_catalogue())


__all__ = ["EngineConfig", "Board", "Deed", "Group", "Card", "KINDS", "fallback_ruleset", "asdict", "round_money"]
