"""EngineConfig: a resolved ruleset compiled into the typed values the engine plays by.

This is the only thing the engine (and the SMT model) reads about a ruleset:
every catalogued parameter that affects play, grouped per rule area, with the
board (28 deeds, colour groups, square kinds) and the card decks already in
the ruleset's money scale. Symbols of the catalogue (``never``, ``none``,
``unlimited``, ``every``) become ``None``; nothing here names a ruleset or a
source, so engine code cannot branch on them.

Built with ``EngineConfig.from_ruleset(ruleset)``; ``to_json()`` is what
``verify compile --target engine-config`` writes; ``hash()`` identifies the
config in trace headers.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, fields, is_dataclass, replace
from typing import Any

from ..errors import SpecError
from .board import Card, load_deeds, load_decks

#: Square kinds, in the order used by the engine's flat tables.
KINDS = ("go", "street", "station", "utility", "chance", "chest", "income_tax", "luxury_tax",
         "jail", "free_parking", "casino", "go_to_jail")
GO, JAIL_SQUARE, CORNER_20, GO_TO_JAIL, INCOME_TAX, LUXURY_TAX = 0, 10, 20, 30, 4, 38

#: The deterministic game clock: every player-turn (one move of the token, or a skipped turn)
#: takes this many seconds of play. Minutes of play = player-turns * CLOCK_SECONDS_PER_TURN / 60.
CLOCK_SECONDS_PER_TURN = 30

#: Parameters the engine plays with one value only ("What the engine does not model" in
#: verify/engine/README.md): every bundled ruleset gives these values. A ruleset that gives
#: another compiles (the SMT layer and the reports still read it), but the engine refuses
#: to play it (E018) rather than silently play a different game.
PLAYED_ONLY: dict[str, Any] = {
    "building.max_hotels_per_street": 1, "building.shortage_queue": False, "building.sell_to_players": False,
    "trade.side_deals": False, "trade.loans": False, "jail.just_visiting_effect": False,
    "free_parking.reward": False, "bank.unlimited_cash": True, "bankruptcy.leaves_at_once": True,
}


def _opt(v: Any) -> Any:
    """Catalogue symbols that mean 'no value' become None."""
    return None if isinstance(v, str) and v in ("none", "never", "unlimited", "every") else v


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
    squares: tuple[str, ...]            # 40 square kinds (KINDS)
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


@dataclass(frozen=True)
class Rent:
    group_multiplier: int
    group_bonus_with_buildings: bool
    group_bonus_with_mortgaged_mate: bool
    station_schedule: tuple[int, ...]
    utility_multipliers: tuple[int, ...]
    mortgaged_collects: bool
    jailed_owner_collects: bool
    claim_deadline: str
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


@dataclass(frozen=True)
class Taxes:
    income: int
    income_percent: float | None
    income_choose_before_worth: bool
    worth_counts_mortgaged_at_printed: bool
    luxury: int
    free_parking_pot: bool
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
    others_may_lift: bool
    expiry_rounds: int | None
    expiry_auction_opening: int | None   # None = printed price
    expiry_auction_owner_bids: bool
    immediate_auction: bool


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
    seconds_per_turn: int       # the deterministic clock (see CLOCK_SECONDS_PER_TURN)
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
        cfg = _compile(ruleset.value)
        bad = []
        for pid, played in PLAYED_ONLY.items():
            value = ruleset.value(pid)
            if value != played:
                entry = ruleset.entries.get(pid)
                where = f"{entry.where}: " if entry is not None and entry.where else ""
                bad.append(f"{where}{pid} = {json.dumps(value)} (the engine plays only {json.dumps(played)})")
        return replace(cfg, unplayable=tuple(bad)) if bad else cfg

    def to_json(self) -> dict:
        return _jsonable(self)

    def hash(self) -> str:
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def mortgage_value(self, square: int) -> int:
        return self.board.deed(square).mortgage

    def unmortgage_cost(self, square: int) -> int:
        """Mortgage value plus interest (interest rounded to whole money)."""
        d = self.board.deed(square)
        return d.mortgage + self.mortgage_interest(square)

    def mortgage_interest(self, square: int, base: str | None = None) -> int:
        d = self.board.deed(square)
        b = d.price if (base or self.mortgage.interest_base) == "price" else d.mortgage
        return _round(b * self.mortgage.interest_rate)


def _round(x: float) -> int:
    """Money is whole; half rounds up (classic: 10 % of 35 = 3.5 -> 4)."""
    return int(x + 0.5 + 1e-9)


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, Card):
        return obj.to_json()
    if is_dataclass(obj):
        return {f.name: _jsonable(getattr(obj, f.name)) for f in fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(x) for x in obj]
    return obj


def _board(v, scale: int) -> Board:
    raw = load_deeds(v("board.deeds"))
    ratio = float(v("mortgage.value"))
    group_names: list[str] = []
    for d in raw:
        if d.group not in group_names:
            group_names.append(d.group)
    deeds = tuple(Deed(d.square, d.name, group_names.index(d.group), d.kind, d.price * scale,
                       tuple(r * scale for r in d.rents), d.house_cost * scale,
                       d.mortgage * scale if ratio == 0.5 else _round(d.price * scale * ratio))
                  for d in raw)
    groups = tuple(Group(n, next(d.kind for d in deeds if d.group == i),
                         tuple(d.square for d in deeds if d.group == i))
                   for i, n in enumerate(group_names))
    squares = ["" for _ in range(40)]
    for d in deeds:
        squares[d.square] = d.kind
    chance = tuple(v("board.chance_squares"))
    chest = tuple(v("board.chest_squares"))
    fixed = {GO: "go", JAIL_SQUARE: "jail", GO_TO_JAIL: "go_to_jail", INCOME_TAX: "income_tax",
             LUXURY_TAX: "luxury_tax", CORNER_20: v("board.corner_20")}
    for sq, kind in list(fixed.items()) + [(s, "chance") for s in chance] + [(s, "chest") for s in chest]:
        if squares[sq]:
            raise SpecError("E004", f"square {sq} cannot be both {squares[sq]} and {kind}")
        squares[sq] = kind
    missing = [i for i, k in enumerate(squares) if not k]
    if missing:
        raise SpecError("E004", f"squares {missing} have no kind (board.chance_squares / chest_squares "
                        "must cover the squares that are not deeds, corners or taxes)")
    return Board(tuple(squares), deeds, groups, chance, chest)


def _deck(name: str, scale: int) -> tuple[Card, ...]:
    if name == "none":
        return ()
    decks = load_decks()
    if name not in decks:
        raise SpecError("E003", f"no card deck {name!r} in rulesets/reference/decks.yaml")
    return tuple(c.scaled(scale) for c in decks[name])


def _compile(v) -> EngineConfig:
    scale = v("money.scale")
    dealt = v("setup.dealt_properties")
    tax_start = _opt(v("rent.tax_start_minute")) if v("rent.tax_enabled") else None
    stop = v("go.salary_stop_minute")
    stop = tax_start if stop == "tax_start" else _opt(stop)
    opening = v("auction.opening_bid")
    increment = v("auction.min_increment")
    expiry_open = v("mortgage.expiry_auction_opening")
    return EngineConfig(
        board=_board(v, scale),
        setup=Setup(
            scale=scale, starting_cash=v("setup.starting_cash"), players_min=v("setup.players_min"),
            players_max=v("setup.players_max"),
            dealt_per_player=0 if dealt == "all" else dealt, dealt_all=dealt == "all",
            dealt_paid=v("setup.dealt_properties_paid"), first_player=v("setup.first_player"),
            shuffle_decks=v("setup.shuffle_decks"), bank_unlimited_cash=v("bank.unlimited_cash")),
        movement=Movement(
            dice_count=v("dice.count"), doubles_roll_again=v("dice.doubles_roll_again"),
            doubles_to_jail=_opt(v("dice.doubles_to_jail")), last_double_moves=v("dice.last_double_moves"),
            go_salary=v("go.salary"), salary_on_pass=v("go.salary_on_pass"),
            salary_on_landing=v("go.salary_on_landing"), exact_landing_bonus=v("go.exact_landing_bonus"),
            pass_then_card_pays_twice=v("go.pass_then_card_to_go_pays_twice"),
            salary_stop_minute=stop, turn_end=v("turn.end")),
        purchase=Purchase(
            first_round=v("purchase.first_round"), on_decline=v("purchase.on_decline"),
            auction_bidders=v("auction.bidders"),
            opening=opening if isinstance(opening, str) else "amount",
            opening_amount=increment if opening == "any" else (0 if isinstance(opening, str) else opening),
            min_increment=increment, fixed_step=v("auction.fixed_step"),
            bidding_order=v("auction.bidding_order"),
            bid_seconds=_opt(v("auction.bid_seconds")), no_bid=v("auction.no_bid")),
        rent=Rent(
            group_multiplier=v("rent.group_multiplier"),
            group_bonus_with_buildings=v("rent.group_bonus_with_buildings"),
            group_bonus_with_mortgaged_mate=v("rent.group_bonus_with_mortgaged_mate"),
            station_schedule=tuple(v("rent.station_schedule")),
            utility_multipliers=tuple(v("rent.utility_multipliers")),
            mortgaged_collects=v("rent.mortgaged"), jailed_owner_collects=v("rent.jailed_owner_collects"),
            claim_deadline=v("rent.claim_deadline"), owner_must_claim=v("rent.owner_must_claim"),
            tax_enabled=v("rent.tax_enabled"), tax_start_minute=tax_start,
            tax_initial_rate=float(v("rent.tax_initial_rate")), tax_step_rate=float(v("rent.tax_step_rate")),
            tax_step_minutes=v("rent.tax_step_minutes"), tax_max_rate=float(v("rent.tax_max_rate"))),
        jail=Jail(
            via_go_to_jail_square=v("jail.via_go_to_jail_square"), via_card=v("jail.via_card"),
            sent_collects_salary=v("jail.sent_collects_salary"), sent_ends_turn=v("jail.sent_ends_turn"),
            just_visiting_effect=v("jail.just_visiting_effect"), fine=v("jail.fine"),
            max_tries=v("jail.max_tries"), fine_timing=v("jail.fine_timing"),
            fine_voluntary_turns=_opt(v("jail.fine_voluntary_turns")),
            after_last_try=v("jail.after_last_try"),
            fine_after_failed_roll_same_turn=v("jail.fine_after_failed_roll_same_turn"),
            doubles_exit_moves=v("jail.doubles_exit_moves"),
            doubles_exit_rolls_again=v("jail.doubles_exit_rolls_again"), card_exit=v("jail.card_exit"),
            card_exit_then_roll=v("jail.card_exit_then_roll"),
            buy_card_from_player=v("jail.buy_card_from_player"), may_manage=v("jail.may_manage")),
        cards=Cards(
            return_policy=v("cards.return_policy"), chance=_deck(v("cards.chance_deck"), scale),
            chest=_deck(v("cards.chest_deck"), scale), jail_card_kept=v("cards.jail_card_kept"),
            jail_card_tradeable=v("cards.jail_card_tradeable"), payment_debt=v("cards.payment_debt"),
            building_destroy=v("cards.building_destroy")),
        taxes=Taxes(
            income=v("tax.income"), income_percent=_opt(v("tax.income_percent_option")),
            income_choose_before_worth=v("tax.income_choose_before_worth"),
            worth_counts_mortgaged_at_printed=v("tax.worth_counts_mortgaged_at_printed"),
            luxury=v("tax.luxury"), free_parking_pot=v("free_parking.pot"),
            free_parking_reward=v("free_parking.reward")),
        casino=Casino(
            enabled=v("casino.enabled"), stake=v("casino.stake"), max_numbers=v("casino.max_numbers"),
            payout_numerator=v("casino.payout_numerator"), jackpot_odds=v("casino.jackpot_odds"),
            jackpot_contribution=v("casino.jackpot_contribution"),
            jackpot_start=v("casino.jackpot_start"), may_decline=v("casino.may_decline")),
        building=Building(
            requires_full_group=v("building.requires_full_group"),
            blocked_by_mortgage=v("building.blocked_by_mortgage"), even_build=v("building.even_build"),
            even_sell=v("building.even_sell"), max_houses=v("building.max_houses"),
            hotel_threshold=v("building.hotel_threshold"),
            hotel_needs_whole_group=v("building.hotel_needs_whole_group"),
            max_hotels_per_street=v("building.max_hotels_per_street"),
            hotel_returns_houses=v("building.hotel_returns_houses"), timing=v("building.timing"),
            per_turn_limit=v("building.per_turn_limit"), house_supply=_opt(v("building.house_supply")),
            hotel_supply=_opt(v("building.hotel_supply")), shortage_auction=v("building.shortage_auction"),
            shortage_queue=v("building.shortage_queue"), sell_ratio=float(v("building.sell_ratio")),
            sell_timing=v("building.sell_timing"), hotel_sale=v("building.hotel_sale"),
            sell_to_players=v("building.sell_to_players"),
            supply_accounting=v("building.supply_accounting")),
        mortgage=Mortgage(
            value_ratio=float(v("mortgage.value")),
            requires_no_buildings_in_group=v("mortgage.requires_no_buildings_in_group"),
            timing=v("mortgage.timing"), interest_rate=float(v("mortgage.interest_rate")),
            interest_base=v("mortgage.interest_base"), transfer_interest=v("mortgage.transfer_interest"),
            transfer_unmortgage_pays_interest_again=v("mortgage.transfer_unmortgage_pays_interest_again"),
            others_may_lift=v("mortgage.others_may_lift"), expiry_rounds=_opt(v("mortgage.expiry_rounds")),
            expiry_auction_opening=None if expiry_open == "printed_price" else expiry_open,
            expiry_auction_owner_bids=v("mortgage.expiry_auction_owner_bids"),
            immediate_auction=v("mortgage.immediate_auction")),
        trade=Trade(
            allowed=v("trade.allowed"), timing=v("trade.timing"), cash=v("trade.cash"),
            jail_cards=v("trade.jail_cards"), building_lock=v("trade.building_lock"),
            mortgaged=v("trade.mortgaged"), max_value_gap=_opt(v("trade.max_value_gap")),
            max_value_ratio=_opt(v("trade.max_value_ratio")),
            teammates_skip_balance=v("trade.teammates_skip_balance"),
            per_turn_limit=_opt(v("trade.per_turn_limit")), loans=v("trade.loans"),
            side_deals=v("trade.side_deals")),
        debt=Debt(
            raise_cash_first=v("debt.raise_cash_first"), explicit_payment_step=v("debt.explicit_payment_step"),
            trade_while_in_debt=v("debt.trade_while_in_debt"),
            repayment_seconds=_opt(v("debt.repayment_seconds")), threshold=v("bankruptcy.threshold"),
            to_player_properties=v("bankruptcy.to_player_properties"),
            to_player_cash=v("bankruptcy.to_player_cash"),
            to_player_buildings=v("bankruptcy.to_player_buildings"),
            to_player_jail_cards=v("bankruptcy.to_player_jail_cards"),
            to_player_mortgaged=v("bankruptcy.to_player_mortgaged"),
            transfer_interest_base=v("bankruptcy.mortgage_interest_base"),
            to_bank_properties=v("bankruptcy.to_bank_properties"),
            to_bank_buildings=v("bankruptcy.to_bank_buildings"),
            to_bank_mortgages=v("bankruptcy.to_bank_mortgages"), surrender=v("bankruptcy.surrender"),
            leaves_at_once=v("bankruptcy.leaves_at_once")),
        end=End(
            condition=v("end.condition"), last_standing_also=v("end.last_standing_also"),
            time_limit_minutes=_opt(v("end.time_limit_minutes")), round_limit=_opt(v("end.round_limit")),
            winner=v("end.winner"), networth_mortgaged=float(v("networth.mortgaged_property")),
            networth_buildings=float(v("networth.buildings"))),
        speed_die=SpeedDie(
            enabled=v("speed_die.enabled"), activation=v("speed_die.activation"),
            activation_round=v("speed_die.activation_round"), bus=v("speed_die.bus"),
            bus_timeout=v("speed_die.bus_timeout"), mr_monopoly=v("speed_die.mr_monopoly"),
            mr_monopoly_decline_auction=v("speed_die.mr_monopoly_decline_auction"),
            triples=v("speed_die.triples"), triples_count_as_doubles=v("speed_die.triples_count_as_doubles"),
            doubles_white_only=v("speed_die.doubles_white_only"),
            jail_white_only=v("speed_die.jail_white_only")),
        teams=Teams(
            enabled=v("teams.enabled"), size=v("teams.size"), teammates_pay_rent=v("teams.teammates_pay_rent"),
            bankrupt_to_bank_teammate_inherits=v("teams.bankrupt_to_bank_teammate_inherits")),
        clock=Clock(
            seconds_per_turn=CLOCK_SECONDS_PER_TURN, turn_seconds=_opt(v("timer.turn_seconds")),
            turn_reserve_seconds=v("timer.turn_reserve_seconds"), on_timeout=v("timer.on_timeout"),
            forfeit_after_missed=_opt(v("timer.forfeit_after_missed")),
            reset_by_management=v("timer.reset_by_management"),
            manage_before_roll_only=v("turn.manage_before_roll_only")),
    )


def fallback_ruleset():
    """A ruleset whose every value is the catalogue fallback (for tests and early wiring)."""
    from ..spec import load_catalogue
    from ..spec.ruleset import Ruleset
    return Ruleset(id="fallback", title="", chain=(), sources=(), entries={}, promises={},
                   catalogue=load_catalogue())


__all__ = ["EngineConfig", "Board", "Deed", "Group", "Card", "KINDS", "CLOCK_SECONDS_PER_TURN", "PLAYED_ONLY",
           "fallback_ruleset", "asdict"]
