"""Where each catalogue parameter goes in the EngineConfig: declared once, for the compiler and for readers.

``PLACES`` holds every parameter of the catalogue (``specs/catalogue/*.yaml``) as one of

* ``Field(section, name)``: its value is ``config.<section>.<name>``, as the ruleset gives it (in the
  ruleset's money scale), with a ratio as a float, a list as a tuple and the parameter's symbol for "no
  value" (``never``, ``none``, ``unlimited``, ``every``, ``printed_price``: the one symbol it has) as
  ``None``; ``gate`` names a yes/no parameter without which the field is ``None``, ``refs`` the symbols
  that stand for another parameter's value (``tax_start``: the rent tax's start minute);
* ``Derived(fields, read)``: compiled with other values into config fields that are not its value as
  such (``verify.config.from_ruleset`` says how); ``read`` gives the value back from a config, or is
  ``None`` where the value names reference data compiled into the fields themselves (the deeds, a deck);
* ``Unplayed(reason)``: in no config field, because the catalogue allows one value only or because the
  rule does not change play (ratings, pauses, scores kept on paper).

The compiler builds every section from this table and refuses a catalogue parameter the table does not
place; ``read_param`` reads a value back from a compiled config (what the invariants and the SMT model
read), and refuses a parameter the config does not carry instead of guessing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import SpecError
from ..spec.catalogue import Catalogue, load_catalogue


@dataclass(frozen=True)
class Field:
    section: str
    name: str
    gate: str | None = None                            # a yes/no parameter: when it is no, the field is None
    refs: dict[str, str] = field(default_factory=dict)  # symbol -> the parameter whose value it stands for

    @property
    def fields(self) -> tuple[str, ...]:
        return (f"{self.section}.{self.name}",)


@dataclass(frozen=True)
class Derived:
    fields: tuple[str, ...]                 # "section.name" (or the whole "board") it goes into
    read: Callable[[Any], Any] | None       # config -> the value (None: a name of reference data)


@dataclass(frozen=True)
class Unplayed:
    reason: str


def _opening(kind: str, amount: int) -> Any:
    """An auction's opening bid read back: its symbol, or its amount when it is one."""
    return amount if kind == "amount" else kind


_ONE_VALUE = "the catalogue allows this one value only, which the engine plays"
_OFF_THE_BOARD = "it does not change play"

PLACES: dict[str, Field | Derived | Unplayed] = {
    "setup.starting_cash": Field("setup", "starting_cash"),
    "setup.players_min": Field("setup", "players_min"),
    "setup.players_max": Field("setup", "players_max"),
    "setup.dealt_properties_paid": Field("setup", "dealt_paid"),
    "setup.first_player": Field("setup", "first_player"),
    "setup.shuffle_decks": Field("setup", "shuffle_decks"),
    "bank.unlimited_cash": Field("setup", "bank_unlimited_cash"),
    "money.scale": Field("setup", "scale"),
    "setup.dealt_properties": Derived(("setup.dealt_per_player", "setup.dealt_all"),
                                      lambda c: "all" if c.setup.dealt_all else c.setup.dealt_per_player),

    "dice.count": Field("movement", "dice_count"),
    "dice.doubles_roll_again": Field("movement", "doubles_roll_again"),
    "dice.doubles_to_jail": Field("movement", "doubles_to_jail"),
    "dice.last_double_moves": Field("movement", "last_double_moves"),
    "go.salary": Field("movement", "go_salary"),
    "go.salary_on_pass": Field("movement", "salary_on_pass"),
    "go.salary_on_landing": Field("movement", "salary_on_landing"),
    "go.exact_landing_bonus": Field("movement", "exact_landing_bonus"),
    "go.pass_then_card_to_go_pays_twice": Field("movement", "pass_then_card_pays_twice"),
    "go.exact_landing_bonus_after_salary_stop": Field("movement", "exact_landing_bonus_after_salary_stop"),
    "go.salary_once_per_turn": Field("movement", "salary_once_per_turn"),
    "turn.end": Field("movement", "turn_end"),
    "go.salary_stop_minute": Field("movement", "salary_stop_minute",
                                   refs={"tax_start": "rent.tax_start_minute"}),

    "purchase.first_round": Field("purchase", "first_round"),
    "purchase.on_decline": Field("purchase", "on_decline"),
    "auction.bidders": Field("purchase", "auction_bidders"),
    "auction.fixed_step": Field("purchase", "fixed_step"),
    "auction.bidding_order": Field("purchase", "bidding_order"),
    "auction.bid_seconds": Field("purchase", "bid_seconds"),
    "auction.no_bid": Field("purchase", "no_bid"),
    "auction.bid_above_cash": Field("purchase", "bid_above_cash"),
    "auction.min_increment": Field("purchase", "min_increment"),
    "auction.opening_bid": Derived(("purchase.opening", "purchase.opening_amount"),
                                   lambda c: _opening(c.purchase.opening, c.purchase.opening_amount)),

    "rent.group_multiplier": Field("rent", "group_multiplier"),
    "rent.group_bonus_with_buildings": Field("rent", "group_bonus_with_buildings"),
    "rent.group_bonus_with_mortgaged_mate": Field("rent", "group_bonus_with_mortgaged_mate"),
    "rent.station_schedule": Field("rent", "station_schedule"),
    "rent.utility_multipliers": Field("rent", "utility_multipliers"),
    "rent.mortgaged": Field("rent", "mortgaged_collects"),
    "rent.jailed_owner_collects": Field("rent", "jailed_owner_collects"),
    "rent.claim_deadline": Field("rent", "claim_deadline"),
    "rent.owner_must_claim": Field("rent", "owner_must_claim"),
    "rent.tax_enabled": Field("rent", "tax_enabled"),
    "rent.tax_initial_rate": Field("rent", "tax_initial_rate"),
    "rent.tax_step_rate": Field("rent", "tax_step_rate"),
    "rent.tax_step_minutes": Field("rent", "tax_step_minutes"),
    "rent.tax_max_rate": Field("rent", "tax_max_rate"),
    "rent.tax_start_minute": Field("rent", "tax_start_minute", gate="rent.tax_enabled"),

    "jail.via_go_to_jail_square": Field("jail", "via_go_to_jail_square"),
    "jail.via_card": Field("jail", "via_card"),
    "jail.sent_collects_salary": Field("jail", "sent_collects_salary"),
    "jail.sent_ends_turn": Field("jail", "sent_ends_turn"),
    "jail.just_visiting_effect": Field("jail", "just_visiting_effect"),
    "jail.fine": Field("jail", "fine"),
    "jail.max_tries": Field("jail", "max_tries"),
    "jail.fine_timing": Field("jail", "fine_timing"),
    "jail.fine_voluntary_turns": Field("jail", "fine_voluntary_turns"),
    "jail.after_last_try": Field("jail", "after_last_try"),
    "jail.fine_after_failed_roll_same_turn": Field("jail", "fine_after_failed_roll_same_turn"),
    "jail.doubles_exit_moves": Field("jail", "doubles_exit_moves"),
    "jail.doubles_exit_rolls_again": Field("jail", "doubles_exit_rolls_again"),
    "jail.card_exit": Field("jail", "card_exit"),
    "jail.card_exit_then_roll": Field("jail", "card_exit_then_roll"),
    "jail.buy_card_from_player": Field("jail", "buy_card_from_player"),
    "jail.may_manage": Field("jail", "may_manage"),

    "cards.return_policy": Field("cards", "return_policy"),
    "cards.jail_card_kept": Field("cards", "jail_card_kept"),
    "cards.jail_card_tradeable": Field("cards", "jail_card_tradeable"),
    "cards.payment_debt": Field("cards", "payment_debt"),
    "cards.building_destroy": Field("cards", "building_destroy"),
    "cards.building_destroy_target": Field("cards", "building_destroy_target"),
    "cards.chance_deck": Derived(("cards.chance",), None),
    "cards.chest_deck": Derived(("cards.chest",), None),

    "tax.income": Field("taxes", "income"),
    "tax.income_percent_option": Field("taxes", "income_percent"),
    "tax.income_choose_before_worth": Field("taxes", "income_choose_before_worth"),
    "tax.worth_counts_mortgaged_at_printed": Field("taxes", "worth_counts_mortgaged_at_printed"),
    "tax.worth_hotel": Field("taxes", "worth_hotel"),
    "tax.luxury": Field("taxes", "luxury"),
    "free_parking.pot": Field("taxes", "free_parking_pot"),
    "free_parking.pot_card_payments": Field("taxes", "pot_card_payments"),
    "free_parking.reward": Field("taxes", "free_parking_reward"),

    "casino.enabled": Field("casino", "enabled"),
    "casino.stake": Field("casino", "stake"),
    "casino.max_numbers": Field("casino", "max_numbers"),
    "casino.payout_numerator": Field("casino", "payout_numerator"),
    "casino.jackpot_odds": Field("casino", "jackpot_odds"),
    "casino.jackpot_contribution": Field("casino", "jackpot_contribution"),
    "casino.jackpot_start": Field("casino", "jackpot_start"),
    "casino.may_decline": Field("casino", "may_decline"),

    "building.requires_full_group": Field("building", "requires_full_group"),
    "building.blocked_by_mortgage": Field("building", "blocked_by_mortgage"),
    "building.even_build": Field("building", "even_build"),
    "building.even_sell": Field("building", "even_sell"),
    "building.max_houses": Field("building", "max_houses"),
    "building.hotel_threshold": Field("building", "hotel_threshold"),
    "building.hotel_needs_whole_group": Field("building", "hotel_needs_whole_group"),
    "building.max_hotels_per_street": Field("building", "max_hotels_per_street"),
    "building.hotel_returns_houses": Field("building", "hotel_returns_houses"),
    "building.timing": Field("building", "timing"),
    "building.per_turn_limit": Field("building", "per_turn_limit"),
    "building.house_supply": Field("building", "house_supply"),
    "building.hotel_supply": Field("building", "hotel_supply"),
    "building.shortage_auction": Field("building", "shortage_auction"),
    "building.shortage_trigger": Field("building", "shortage_trigger"),
    "building.shortage_queue": Field("building", "shortage_queue"),
    "building.sell_ratio": Field("building", "sell_ratio"),
    "building.sell_timing": Field("building", "sell_timing"),
    "building.hotel_sale": Field("building", "hotel_sale"),
    "building.sell_to_players": Field("building", "sell_to_players"),
    "building.supply_accounting": Field("building", "supply_accounting"),

    "mortgage.value": Field("mortgage", "value_ratio"),
    "mortgage.requires_no_buildings_in_group": Field("mortgage", "requires_no_buildings_in_group"),
    "mortgage.timing": Field("mortgage", "timing"),
    "mortgage.interest_rate": Field("mortgage", "interest_rate"),
    "mortgage.interest_base": Field("mortgage", "interest_base"),
    "mortgage.transfer_interest": Field("mortgage", "transfer_interest"),
    "mortgage.transfer_unmortgage_pays_interest_again": Field("mortgage",
                                                              "transfer_unmortgage_pays_interest_again"),
    "mortgage.transfer_lift_at_once": Field("mortgage", "transfer_lift_at_once"),
    "mortgage.others_may_lift": Field("mortgage", "others_may_lift"),
    "mortgage.expiry_rounds": Field("mortgage", "expiry_rounds"),
    "mortgage.expiry_auction_owner_bids": Field("mortgage", "expiry_auction_owner_bids"),
    "mortgage.immediate_auction": Field("mortgage", "immediate_auction"),
    "mortgage.immediate_auction_owner_bids": Field("mortgage", "immediate_auction_owner_bids"),
    "mortgage.immediate_auction_proceeds": Field("mortgage", "immediate_auction_proceeds"),
    "mortgage.expiry_auction_opening": Field("mortgage", "expiry_auction_opening"),
    "mortgage.immediate_auction_opening": Derived(
        ("mortgage.immediate_auction_opening", "mortgage.immediate_auction_opening_amount"),
        lambda c: _opening(c.mortgage.immediate_auction_opening,
                           c.mortgage.immediate_auction_opening_amount)),

    "trade.allowed": Field("trade", "allowed"),
    "trade.timing": Field("trade", "timing"),
    "trade.cash": Field("trade", "cash"),
    "trade.jail_cards": Field("trade", "jail_cards"),
    "trade.building_lock": Field("trade", "building_lock"),
    "trade.mortgaged": Field("trade", "mortgaged"),
    "trade.max_value_gap": Field("trade", "max_value_gap"),
    "trade.max_value_ratio": Field("trade", "max_value_ratio"),
    "trade.teammates_skip_balance": Field("trade", "teammates_skip_balance"),
    "trade.per_turn_limit": Field("trade", "per_turn_limit"),
    "trade.loans": Field("trade", "loans"),
    "trade.side_deals": Field("trade", "side_deals"),

    "debt.raise_cash_first": Field("debt", "raise_cash_first"),
    "debt.explicit_payment_step": Field("debt", "explicit_payment_step"),
    "debt.trade_while_in_debt": Field("debt", "trade_while_in_debt"),
    "debt.repayment_seconds": Field("debt", "repayment_seconds"),
    "bankruptcy.threshold": Field("debt", "threshold"),
    "bankruptcy.to_player_properties": Field("debt", "to_player_properties"),
    "bankruptcy.to_player_cash": Field("debt", "to_player_cash"),
    "bankruptcy.to_player_buildings": Field("debt", "to_player_buildings"),
    "bankruptcy.to_player_jail_cards": Field("debt", "to_player_jail_cards"),
    "bankruptcy.to_player_mortgaged": Field("debt", "to_player_mortgaged"),
    "bankruptcy.mortgage_interest_base": Field("debt", "transfer_interest_base"),
    "bankruptcy.to_bank_properties": Field("debt", "to_bank_properties"),
    "bankruptcy.to_bank_buildings": Field("debt", "to_bank_buildings"),
    "bankruptcy.to_bank_mortgages": Field("debt", "to_bank_mortgages"),
    "bankruptcy.surrender": Field("debt", "surrender"),
    "bankruptcy.leaves_at_once": Field("debt", "leaves_at_once"),

    "end.condition": Field("end", "condition"),
    "end.last_standing_also": Field("end", "last_standing_also"),
    "end.time_limit_minutes": Field("end", "time_limit_minutes"),
    "end.round_limit": Field("end", "round_limit"),
    "end.winner": Field("end", "winner"),
    "networth.mortgaged_property": Field("end", "networth_mortgaged"),
    "networth.buildings": Field("end", "networth_buildings"),

    "speed_die.enabled": Field("speed_die", "enabled"),
    "speed_die.activation": Field("speed_die", "activation"),
    "speed_die.activation_round": Field("speed_die", "activation_round"),
    "speed_die.bus": Field("speed_die", "bus"),
    "speed_die.bus_timeout": Field("speed_die", "bus_timeout"),
    "speed_die.mr_monopoly": Field("speed_die", "mr_monopoly"),
    "speed_die.mr_monopoly_decline_auction": Field("speed_die", "mr_monopoly_decline_auction"),
    "speed_die.triples": Field("speed_die", "triples"),
    "speed_die.triples_count_as_doubles": Field("speed_die", "triples_count_as_doubles"),
    "speed_die.doubles_white_only": Field("speed_die", "doubles_white_only"),
    "speed_die.jail_white_only": Field("speed_die", "jail_white_only"),
    "speed_die.pip_faces": Field("speed_die", "pip_faces"),
    "speed_die.mr_monopoly_faces": Field("speed_die", "mr_monopoly_faces"),
    "speed_die.bus_faces": Field("speed_die", "bus_faces"),

    "teams.enabled": Field("teams", "enabled"),
    "teams.size": Field("teams", "size"),
    "teams.teammates_pay_rent": Field("teams", "teammates_pay_rent"),
    "teams.bankrupt_to_bank_teammate_inherits": Field("teams", "bankrupt_to_bank_teammate_inherits"),

    "clock.seconds_per_turn": Field("clock", "seconds_per_turn"),
    "timer.turn_seconds": Field("clock", "turn_seconds"),
    "timer.turn_reserve_seconds": Field("clock", "turn_reserve_seconds"),
    "timer.on_timeout": Field("clock", "on_timeout"),
    "timer.forfeit_after_missed": Field("clock", "forfeit_after_missed"),
    "timer.reset_by_management": Field("clock", "reset_by_management"),
    "turn.manage_before_roll_only": Field("clock", "manage_before_roll_only"),

    "board.deeds": Derived(("board",), None),
    "board.chance_squares": Derived(("board.squares", "board.chance_squares"),
                                    lambda c: list(c.board.chance_squares)),
    "board.chest_squares": Derived(("board.squares", "board.chest_squares"),
                                   lambda c: list(c.board.chest_squares)),
    "board.corner_20": Derived(("board.squares",), lambda c: c.board.squares[20]),
    "board.squares": Derived(("board.squares",), lambda c: len(c.board.squares)),

    "building.cost": Unplayed(_ONE_VALUE + " (a deed's house cost)"),
    "rent.street": Unplayed(_ONE_VALUE + " (the deed's rents)"),
    "purchase.price": Unplayed(_ONE_VALUE + " (the printed price)"),
    "auction.payment": Unplayed(_ONE_VALUE + " (cash to the bank)"),
    "networth.property": Unplayed(_ONE_VALUE + " (the printed price)"),
    "movement.direction": Unplayed(_ONE_VALUE + " (clockwise)"),
    "turn.order": Unplayed(_ONE_VALUE + " (to the left)"),
    "tokens.affect_play": Unplayed("the engine's tokens are alike (it refuses a ruleset where they are not: "
                                   "PLAYED_ONLY)"),
    "pause.unanimous": Unplayed(_OFF_THE_BOARD + ": the engine's game clock never stops"),
    "pause.allowed": Unplayed(_OFF_THE_BOARD + ": the engine's game clock never stops"),
    "pause.vote_seconds": Unplayed(_OFF_THE_BOARD + ": the engine's game clock never stops"),
    "rating.counted_modes": Unplayed(_OFF_THE_BOARD + ": the platform's rating"),
    "rating.min_rounds": Unplayed(_OFF_THE_BOARD + ": the platform's rating"),
    "rating.min_minutes": Unplayed(_OFF_THE_BOARD + ": the platform's rating"),
    "rating.xp_factor": Unplayed(_OFF_THE_BOARD + ": the platform's experience points"),
    "rating.achievements": Unplayed(_OFF_THE_BOARD + ": the platform's achievements"),
    "table.host_rules": Unplayed(_OFF_THE_BOARD + ": who chose the values, not the values"),
    "networth.scored_in_standard_game": Unplayed(_OFF_THE_BOARD + ": scores kept on paper"),
    "setup.banker_may_play": Unplayed(_OFF_THE_BOARD + ": the engine is the banker"),
}


def check_places(catalogue: Catalogue) -> None:
    """Every parameter of ``catalogue`` has a place, and every place a parameter (E002 otherwise)."""
    missing = [pid for pid in catalogue.parameters if pid not in PLACES]
    extra = [pid for pid in PLACES if pid not in catalogue]
    problems = ([f"no place for {', '.join(missing)}"] if missing else []) + \
        ([f"a place for no parameter: {', '.join(extra)}"] if extra else [])
    if problems:
        raise SpecError("E002", "verify/config/parameters.py does not match the catalogue: "
                        + "; ".join(problems))


def _none_symbol(p, place: Field) -> str | None:
    """The symbol a field's None stands for (the parameter's one symbol besides ``refs``)."""
    symbols = [s for s in p.symbols if s not in place.refs]
    return symbols[0] if symbols else None


def compile_fields(v: Callable[[str], Any], catalogue: Catalogue) -> dict[str, dict[str, Any]]:
    """The config fields of every ``Field`` parameter, by section: ``v`` gives a parameter's value."""
    out: dict[str, dict[str, Any]] = {}
    for pid, place in PLACES.items():
        if isinstance(place, Field):
            out.setdefault(place.section, {})[place.name] = _compiled(pid, place, v, catalogue)
    return out


def _compiled(pid: str, place: Field, v: Callable[[str], Any], catalogue: Catalogue) -> Any:
    if place.gate is not None and not v(place.gate):
        return None
    value = v(pid)
    if isinstance(value, str) and value in place.refs:
        ref = place.refs[value]
        return _compiled(ref, PLACES[ref], v, catalogue)
    p = catalogue[pid]
    if isinstance(value, str) and value in p.symbols:
        return None
    if p.type == "ratio":
        return float(value)
    if isinstance(value, list):
        return tuple(value)
    return value


def read_param(config: Any, pid: str) -> Any:
    """The value of parameter ``pid`` in a compiled config (a symbol for a field's None, a list as a list).

    E002 for a parameter the catalogue does not have; E027 for one the config does not carry."""
    place = PLACES.get(pid)
    if place is None:
        cat = load_catalogue()
        raise SpecError("E002", f"unknown parameter {pid!r}{cat.suggest(pid)}")
    if isinstance(place, Unplayed):
        raise SpecError("E027", f"{pid} is not in the compiled engine config: {place.reason}")
    if isinstance(place, Derived):
        if place.read is None:
            raise SpecError("E027", f"{pid} is not in the compiled engine config as a value: it names "
                            f"reference data compiled into config.{place.fields[0]}")
        return place.read(config)
    value = getattr(getattr(config, place.section), place.name)
    if value is None:
        return _none_symbol(load_catalogue()[pid], place)
    return list(value) if isinstance(value, tuple) else value


__all__ = ["PLACES", "Field", "Derived", "Unplayed", "check_places", "compile_fields", "read_param"]
