"""Compile a resolved ruleset into an EngineConfig: one pass, every catalogued value read once.

Symbols of the catalogue that mean "no value" (``never``, ``none``,
``unlimited``, ``every``) become ``None``; money is multiplied into the
ruleset's own scale; the board and the decks come from the reference data
(``board.py``). Values the engine plays only one way are listed with their
file:line in ``EngineConfig.unplayable`` so the engine can refuse them (E018).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from ..errors import SpecError
from .board import Card, load_deeds, load_decks
from .model import (CORNER_20, GO, GO_TO_JAIL, INCOME_TAX, JAIL_SQUARE, LUXURY_TAX,
                    Board, Building, Cards, Casino, Clock, Debt, Deed, End, EngineConfig, Group, Jail, Mortgage,
                    Movement, Purchase, Rent, Setup, SpeedDie, Taxes, Teams, Trade, _round)

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



def compile_ruleset(ruleset) -> EngineConfig:
    """The EngineConfig of a resolved ``verify.spec.Ruleset`` (unset parameters take catalogue fallbacks)."""
    cfg = _compile(ruleset.value)
    bad = []
    for pid, played in PLAYED_ONLY.items():
        value = ruleset.value(pid)
        if value != played:
            entry = ruleset.entries.get(pid)
            where = f"{entry.where}: " if entry is not None and entry.where else ""
            bad.append(f"{where}{pid} = {json.dumps(value)} (the engine plays only {json.dumps(played)})")
    return replace(cfg, unplayable=tuple(bad)) if bad else cfg


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
    own_open = v("mortgage.immediate_auction_opening")
    faces = (v("speed_die.pip_faces"), v("speed_die.mr_monopoly_faces"), v("speed_die.bus_faces"))
    if sum(faces) != 6:
        raise SpecError("E004", f"the speed die has six faces, not {sum(faces)} (speed_die.pip_faces, "
                        "mr_monopoly_faces and bus_faces)")
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
            salary_stop_minute=stop,
            exact_landing_bonus_after_salary_stop=v("go.exact_landing_bonus_after_salary_stop"),
            salary_once_per_turn=v("go.salary_once_per_turn"), turn_end=v("turn.end")),
        purchase=Purchase(
            first_round=v("purchase.first_round"), on_decline=v("purchase.on_decline"),
            auction_bidders=v("auction.bidders"),
            opening=opening if isinstance(opening, str) else "amount",
            opening_amount=increment if opening == "any" else (0 if isinstance(opening, str) else opening),
            min_increment=increment, fixed_step=v("auction.fixed_step"),
            bidding_order=v("auction.bidding_order"),
            bid_seconds=_opt(v("auction.bid_seconds")), no_bid=v("auction.no_bid"),
            bid_above_cash=v("auction.bid_above_cash")),
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
            building_destroy=v("cards.building_destroy"),
            building_destroy_target=v("cards.building_destroy_target")),
        taxes=Taxes(
            income=v("tax.income"), income_percent=_opt(v("tax.income_percent_option")),
            income_choose_before_worth=v("tax.income_choose_before_worth"),
            worth_counts_mortgaged_at_printed=v("tax.worth_counts_mortgaged_at_printed"),
            worth_hotel=v("tax.worth_hotel"), luxury=v("tax.luxury"), free_parking_pot=v("free_parking.pot"),
            pot_card_payments=v("free_parking.pot_card_payments"),
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
            shortage_trigger=v("building.shortage_trigger"),
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
            transfer_lift_at_once=v("mortgage.transfer_lift_at_once"),
            others_may_lift=v("mortgage.others_may_lift"), expiry_rounds=_opt(v("mortgage.expiry_rounds")),
            expiry_auction_opening=None if expiry_open == "printed_price" else expiry_open,
            expiry_auction_owner_bids=v("mortgage.expiry_auction_owner_bids"),
            immediate_auction=v("mortgage.immediate_auction"),
            immediate_auction_opening=own_open if isinstance(own_open, str) else "amount",
            immediate_auction_opening_amount=0 if isinstance(own_open, str) else own_open,
            immediate_auction_owner_bids=v("mortgage.immediate_auction_owner_bids"),
            immediate_auction_proceeds=v("mortgage.immediate_auction_proceeds")),
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
            pip_faces=faces[0], mr_monopoly_faces=faces[1], bus_faces=faces[2],
            doubles_white_only=v("speed_die.doubles_white_only"),
            jail_white_only=v("speed_die.jail_white_only")),
        teams=Teams(
            enabled=v("teams.enabled"), size=v("teams.size"), teammates_pay_rent=v("teams.teammates_pay_rent"),
            bankrupt_to_bank_teammate_inherits=v("teams.bankrupt_to_bank_teammate_inherits")),
        clock=Clock(
            seconds_per_turn=v("clock.seconds_per_turn"), turn_seconds=_opt(v("timer.turn_seconds")),
            turn_reserve_seconds=v("timer.turn_reserve_seconds"), on_timeout=v("timer.on_timeout"),
            forfeit_after_missed=_opt(v("timer.forfeit_after_missed")),
            reset_by_management=v("timer.reset_by_management"),
            manage_before_roll_only=v("turn.manage_before_roll_only")),
    )


__all__ = ["compile_ruleset", "PLAYED_ONLY", "Card"]
