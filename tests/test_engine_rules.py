"""Rule families of the engine, each from a constructed state to a concrete outcome."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from verify.config import EngineConfig, fallback_ruleset
from verify.engine.engines import Engine, readable
from verify.engine.rules import IllegalAction
from verify.engine.state import GameState
from verify.engine.step import apply, apply_state, legal_actions
from verify.spec import load_ruleset


@pytest.fixture(scope="module")
def official() -> EngineConfig:
    return EngineConfig.from_ruleset(load_ruleset("official"))


def game(cfg: EngineConfig, players: int = 2, seed: int = 1) -> tuple[Engine, GameState]:
    rules = readable(cfg)
    g = rules.rules.base.new_game(rules.t, players, random.Random(seed))
    g.events = []
    return rules, g


def act(rules, g, **action):
    """Apply an action; owners who must ask for rent ask at once (as the bots do)."""
    apply_state(rules, g, action)
    while g.claims and g.phase in ("pre_roll", "post_roll", "buy"):
        c = g.claims[0]
        apply_state(rules, g, {"type": "claim_rent", "seat": c[1], "square": c[2]})
    return g


def own(g, seat, *squares, mortgaged=False):
    """Give ``squares`` to ``seat`` by hand, marked as a rule marks its writes (``GameState.mark``)."""
    for s in squares:
        g.owner[s] = seat
        g.mortgaged[s] = mortgaged
        g.mark(s)


def with_(cfg: EngineConfig, area: str, **changes) -> EngineConfig:
    return replace(cfg, **{area: replace(getattr(cfg, area), **changes)})


# ------------------------------------------------------------------ rent
def test_street_rent_doubles_for_a_full_unbuilt_group(official):
    rules, g = game(official)
    own(g, 1, 39)
    g.pos[0] = 34
    act(rules, g, type="roll", dice=[2, 3])          # lands on Boardwalk (39), base rent 50
    assert g.cash == [1500 - 50, 1550]
    rules, g = game(official)
    own(g, 1, 37, 39)
    g.pos[0] = 34
    act(rules, g, type="roll", dice=[2, 3])
    assert g.cash == [1400, 1600]                     # whole group: 2 x 50


def test_group_bonus_survives_a_mortgaged_mate_and_houses_set_the_rent(official):
    rules, g = game(official)
    own(g, 1, 37, 39)
    g.mortgaged[37] = True
    assert rules.rules.base.rent(rules.t, g, 39, 0) == 100               # official: bonus still applies
    g.mortgaged[37] = False
    g.houses[37], g.houses[39] = 2, 3
    assert rules.rules.base.rent(rules.t, g, 39, 0) == 1400              # 3 houses on Boardwalk
    g.houses[39], g.hotel[39] = 0, True
    assert rules.rules.base.rent(rules.t, g, 39, 0) == 2000
    g.mortgaged[39] = True
    assert rules.rules.base.rent(rules.t, g, 39, 0) == 0                 # no rent on a mortgaged deed


def test_station_and_utility_rents(official):
    rules, g = game(official)
    own(g, 1, 5, 15, 25)
    g.pos[0] = 20
    act(rules, g, type="roll", dice=[2, 3])          # 25: three stations -> 100
    assert g.cash[0] == 1400
    rules, g = game(official)
    own(g, 1, 12)
    g.pos[0] = 7
    act(rules, g, type="roll", dice=[1, 4])          # 12: one utility, 4 x 5
    assert g.cash[0] == 1500 - 20
    own(g, 1, 28)
    g.dice = (6, 5)
    assert rules.rules.base.rent(rules.t, g, 12, 0) == 110               # both utilities: 10 x 11


def test_jailed_owner_and_teammates(official):
    cfg = with_(official, "rent", jailed_owner_collects=False)
    rules, g = game(cfg)
    own(g, 1, 39)
    g.in_jail[1] = True
    assert rules.rules.base.rent(rules.t, g, 39, 0) == 0
    teams = EngineConfig.from_ruleset(load_ruleset("platform-teams"))
    rules, g = game(teams, players=4)
    own(g, 2, 39)                                    # seat 2 is seat 0's teammate
    assert g.team[0] == g.team[2] and rules.rules.base.rent(rules.t, g, 39, 0) == 0
    assert rules.rules.base.rent(rules.t, g, 39, 1) == 500


def test_rent_tax_takes_a_share_out_of_circulation(official):
    cfg = with_(official, "rent", tax_enabled=True, tax_start_minute=10, tax_initial_rate=0.5,
                tax_step_rate=0.1, tax_step_minutes=5, tax_max_rate=0.99)
    rules, g = game(cfg)
    own(g, 1, 39)
    g.minute = 16.0                                  # 0.5 + one step = 0.6
    g.pos[0] = 34
    bank = g.bank_cash
    act(rules, g, type="roll", dice=[2, 3])
    assert g.cash == [1450, 1520]
    assert g.bank_cash == bank + 30


# ------------------------------------------------------------------ movement, GO, doubles
def test_go_salary_and_three_doubles(official):
    rules, g = game(official)
    g.pos[0] = 38
    act(rules, g, type="roll", dice=[1, 2])          # passes GO to 1 (unowned: offered)
    assert g.cash[0] == 1700 and g.phase == "buy"
    rules, g = game(official)
    g.doubles[0] = 2
    g.pos[0] = 0
    act(rules, g, type="roll", dice=[3, 3])          # third double: straight to jail, no move
    assert g.in_jail[0] and g.pos[0] == 10 and g.current == 1


def test_doubles_roll_again(official):
    rules, g = game(official)
    act(rules, g, type="roll", dice=[1, 1])           # square 2: Community Chest
    while g.phase not in ("pre_roll", "post_roll"):
        a = legal_actions(official, g)[0]
        act(rules, g, **a)
    assert g.current == 0 and (g.phase == "pre_roll" or g.in_jail[0])


# ------------------------------------------------------------------ jail
def test_jail_exits(official):
    rules, g = game(official)
    g.in_jail[0], g.pos[0] = True, 10
    act(rules, g, type="pay_fine")                    # pay before rolling, then roll normally
    assert not g.in_jail[0] and g.cash[0] == 1450 and g.phase == "pre_roll"
    rules, g = game(official)
    g.in_jail[0], g.pos[0] = True, 10
    act(rules, g, type="roll", dice=[4, 4])           # doubles: out, moves 8, no extra roll
    assert not g.in_jail[0] and g.pos[0] == 18 and g.current == 0 and g.phase in ("buy",)
    rules, g = game(official)
    g.in_jail[0], g.pos[0], g.jail_turns[0] = True, 10, 2
    act(rules, g, type="roll", dice=[1, 2])           # third failed try: pay 50 and move 3
    assert not g.in_jail[0] and g.pos[0] == 13 and g.cash[0] == 1450
    rules, g = game(official)
    g.in_jail[0], g.pos[0] = True, 10
    g.jail_cards[0] = ["chance"]
    g.chance.remove("chance-jail-free")
    act(rules, g, type="use_card")
    assert not g.in_jail[0] and g.jail_cards[0] == [] and g.chance[-1] == "chance-jail-free"
    rules, g = game(official)
    g.in_jail[0], g.pos[0] = True, 10
    act(rules, g, type="roll", dice=[1, 2])           # first failed try: stays, turn passes
    assert g.in_jail[0] and g.jail_turns[0] == 1 and g.current == 1


def test_fine_only_in_voluntary_turns():
    cfg = EngineConfig.from_ruleset(load_ruleset("official"))
    cfg = with_(cfg, "jail", fine_voluntary_turns=2)
    rules, g = game(cfg)
    g.in_jail[0], g.pos[0], g.jail_turns[0] = True, 10, 2
    with pytest.raises(IllegalAction):
        act(rules, g, type="pay_fine")


# ------------------------------------------------------------------ purchase and auctions
def test_auction_after_decline_goes_to_the_highest_bidder(official):
    rules, g = game(official, players=3)
    g.pos[0] = 34
    act(rules, g, type="roll", dice=[2, 3])           # Boardwalk, unowned
    act(rules, g, type="decline")
    assert g.phase == "auction" and g.pending["bidders"] == [1, 2, 0]
    act(rules, g, type="bid", seat=1, amount=10)
    act(rules, g, type="bid", seat=0, amount=50)     # the decliner may bid (official: everyone)
    act(rules, g, type="pass", seat=2)
    act(rules, g, type="bid", seat=1, amount=51)
    act(rules, g, type="pass", seat=0)
    assert g.owner[39] == 1 and g.cash[1] == 1500 - 51 and g.phase == "post_roll"


def test_platform_auction_opens_at_the_price_in_seat_order():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    rules, g = game(cfg, players=3)
    g.pos[0] = 34
    act(rules, g, type="roll", dice=[2, 3])
    act(rules, g, type="decline")
    assert g.pending["bidders"] == [1, 2]             # the decliner is out
    with pytest.raises(IllegalAction):
        act(rules, g, type="bid", seat=1, amount=3000)   # below the printed 4000
    with pytest.raises(IllegalAction):
        act(rules, g, type="bid", seat=2, amount=4000)   # not seat 2's turn
    act(rules, g, type="bid", seat=1, amount=4000)
    act(rules, g, type="pass", seat=2)
    assert g.owner[39] == 1 and g.cash[1] == 15000 - 4000


# ------------------------------------------------------------------ building
def test_even_building_and_the_hotel(official):
    rules, g = game(official)
    own(g, 0, 37, 39)
    g.cash[0] = 3000
    act(rules, g, type="build_house", square=39)
    with pytest.raises(IllegalAction, match="evenly"):
        act(rules, g, type="build_house", square=39)
    for _ in range(3):
        act(rules, g, type="build_house", square=37)
        act(rules, g, type="build_house", square=39)
    act(rules, g, type="build_house", square=37)
    assert g.houses[37] == g.houses[39] == 4 and g.bank_houses == 32 - 8
    act(rules, g, type="build_hotel", square=39)
    assert g.hotel[39] and g.houses[39] == 0 and g.bank_houses == 28 and g.bank_hotels == 11
    assert g.cash[0] == 3000 - 9 * 200
    with pytest.raises(IllegalAction, match="sell evenly"):
        act(rules, g, type="sell_house", square=37)
    act(rules, g, type="sell_hotel", square=39)       # broken down: 4 houses come back on the street
    assert not g.hotel[39] and g.houses[39] == 4 and g.bank_houses == 24 and g.cash[0] == 3000 - 1800 + 100


def test_building_needs_the_whole_unmortgaged_group(official):
    rules, g = game(official)
    own(g, 0, 39)
    assert "whole colour group" in rules.rules.building.why_not_build_house(rules.t, g, 0, 39)
    own(g, 0, 37, mortgaged=True)
    assert "mortgaged" in rules.rules.building.why_not_build_house(rules.t, g, 0, 39)


def test_house_shortage_goes_to_auction(official):
    rules, g = game(official, players=3)
    own(g, 0, 37, 39)
    own(g, 1, 1, 3)
    g.bank_houses = 1                                 # two players want the last house
    act(rules, g, type="build_house", square=37)
    assert g.phase == "auction" and g.pending["item"] == "house" and sorted(g.pending["bidders"]) == [0, 1]
    act(rules, g, type="bid", seat=1, amount=60)
    act(rules, g, type="pass", seat=0)
    assert g.bank_houses == 0 and g.houses[1] + g.houses[3] == 1 and g.cash[1] == 1440
    assert g.houses[37] == 0 and g.phase == "pre_roll"


# ------------------------------------------------------------------ mortgages
def test_mortgage_and_unmortgage_cost(official):
    rules, g = game(official)
    own(g, 0, 39)
    act(rules, g, type="mortgage", square=39)
    assert g.cash[0] == 1700 and g.mortgaged[39]
    act(rules, g, type="unmortgage", square=39)
    assert g.cash[0] == 1700 - 220 and not g.mortgaged[39]   # 200 + 10 %
    platform = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    rules, g = game(platform)
    own(g, 0, 39)
    act(rules, g, type="mortgage", square=39)
    act(rules, g, type="unmortgage", square=39)
    assert g.cash[0] == 15000 + 2000 - 2400          # 60 % of the price: value + 10 % of the price


def test_mortgage_expiry_auctions_the_deed():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    rules, g = game(cfg, players=2)
    own(g, 0, 39, mortgaged=True)
    g.mortgage_rounds[39] = cfg.mortgage.expiry_rounds - 1
    g.phase, g.rolled = "post_roll", True
    act(rules, g, type="end_turn")                    # seat 1's turn: not yet a new round
    g.phase, g.rolled = "post_roll", True
    act(rules, g, type="end_turn")                    # round wraps: the mortgage is forfeited
    assert g.owner[39] == -1 and g.phase == "auction" and g.pending["min"] == 4000


# ------------------------------------------------------------------ trades
def test_trade_balance_limit_refuses_a_gift():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    rules, g = game(cfg, players=2)
    own(g, 1, 39)
    why = rules.rules.trades.why_not_trade(rules.t, g, 0, 1, {"cash": 1000}, {"squares": [39]})
    assert why and "unbalanced" in why
    assert rules.rules.trades.why_not_trade(rules.t, g, 0, 1, {"cash": 4000}, {"squares": [39]}) is None
    act(rules, g, type="trade", **{"with": 1}, give={"cash": 4000}, take={"squares": [39]})
    assert g.owner[39] == 0 and g.cash == [11000, 19000]


def test_trade_locked_by_buildings_and_transfer_interest(official):
    rules, g = game(official)
    own(g, 1, 37, 39)
    g.houses[37] = 1
    assert "buildings" in rules.rules.trades.why_not_trade(rules.t, g, 0, 1, {"cash": 100}, {"squares": [39]})
    g.houses[37] = 0
    g.mortgaged[39] = True
    act(rules, g, type="trade", **{"with": 1}, give={"cash": 100}, take={"squares": [39]})
    assert g.cash[0] == 1500 - 100 - 20 and g.interest_paid[39]   # 10 % of the 200 mortgage at once


# ------------------------------------------------------------------ debt and bankruptcy
def test_bankruptcy_to_a_player_hands_over_everything(official):
    rules, g = game(official, players=3)
    own(g, 1, 37, 39)
    g.hotel[39], g.houses[37] = True, 4
    g.bank_houses, g.bank_hotels = 28, 11
    own(g, 0, 1, 3)
    g.mortgaged[1] = True
    g.jail_cards[0] = ["chest"]
    g.chest.remove("chest-jail-free")
    g.cash[0] = 100
    g.pos[0] = 34
    act(rules, g, type="roll", dice=[2, 3])           # 2000 rent on the hotel
    assert g.phase == "debt" and g.pending["amount"] == 2000
    assert rules.rules.debts.why_not_bankrupt(rules.t, g, 0) is None       # 100 + 30 (mortgage of 3) < 2000
    act(rules, g, type="bankrupt")
    assert g.bankrupt[0] and g.cash[0] == 0
    assert g.owner[1] == g.owner[3] == 1 and g.mortgaged[1]
    assert g.jail_cards[1] == ["chest"]
    interest = rules.t.transfer_interest[1]             # 10 % on the inherited mortgage, paid at once
    assert interest == (6 if official.debt.transfer_interest_base == "price" else 3)
    assert g.cash[1] == 1500 + 100 - interest
    assert g.phase == "post_roll" and g.current == 0
    act(rules, g, type="end_turn")
    assert g.current == 1


def test_bankruptcy_to_the_bank_auctions_the_deeds(official):
    rules, g = game(official, players=3)
    own(g, 0, 1, 3)
    g.houses[1] = g.houses[3] = 1
    g.bank_houses = 30
    g.cash[0] = 20
    g.pos[0] = 36
    act(rules, g, type="roll", dice=[1, 1])           # Luxury Tax 100
    assert g.phase == "debt" and g.pending["creditor"] == -1
    with pytest.raises(IllegalAction):
        act(rules, g, type="bankrupt")                # 20 + 50 (houses) + 60 (mortgages) >= 100
    act(rules, g, type="sell_group", group=rules.t.group_of[1])
    act(rules, g, type="mortgage", square=1)
    act(rules, g, type="pay")
    assert g.cash[0] == 20 + 50 + 30 - 100 and g.bank_houses == 32
    rules, g = game(official, players=3)
    own(g, 0, 1, 3)
    g.cash[0] = 10
    g.mortgaged[1] = g.mortgaged[3] = True
    g.pos[0] = 36
    act(rules, g, type="roll", dice=[1, 1])
    act(rules, g, type="bankrupt")
    assert g.owner[1] == g.owner[3] == -1 and not g.mortgaged[1] and g.phase == "auction"
    assert g.pending["square"] == 1


def test_platform_rent_bankruptcy_and_voluntary_surrender():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    rules, g = game(cfg, players=3)
    own(g, 2, 6)
    act(rules, g, type="surrender", seat=2)           # any time: properties return to the bank
    assert g.bankrupt[2] and g.owner[6] == -1 and g.phase == "pre_roll"


# ------------------------------------------------------------------ cards and taxes
def test_cards_move_pay_and_keep(official):
    rules, g = game(official)
    g.chance.remove("chance-railroad-1")
    g.chance.insert(0, "chance-railroad-1")
    own(g, 1, 15)
    g.pos[0] = 4
    act(rules, g, type="roll", dice=[1, 2])           # Chance at 7 -> nearest station 15, pay twice 25
    assert g.pos[0] == 15 and g.cash == [1450, 1550]
    rules, g = game(official, players=3)
    g.chest.remove("chest-birthday")
    g.chest.insert(0, "chest-birthday")
    act(rules, g, type="roll", dice=[1, 1])           # Community Chest at 2: 10 from each player
    assert g.cash == [1520, 1490, 1490]
    rules, g = game(official)
    g.chance.remove("chance-jail-free")
    g.chance.insert(0, "chance-jail-free")
    g.pos[0] = 4
    act(rules, g, type="roll", dice=[1, 2])
    assert g.jail_cards[0] == ["chance"] and "chance-jail-free" not in g.chance


def test_income_tax_ten_percent_option():
    cfg = EngineConfig.from_ruleset(load_ruleset("official-pre2008"))
    assert cfg.taxes.income_percent == 0.1
    rules, g = game(cfg)
    g.pos[0] = 1
    act(rules, g, type="roll", dice=[1, 2])
    assert g.phase == "income_tax"
    act(rules, g, type="pay_tax", option="percent")
    assert g.cash[0] == 1500 - 150


def test_free_parking_pot():
    cfg = EngineConfig.from_ruleset(load_ruleset("official+house-free-parking-pot"))
    rules, g = game(cfg)
    g.pot = 300
    g.pos[0] = 15
    act(rules, g, type="roll", dice=[2, 3])
    assert g.cash[0] == 1800 and g.pot == 0


def test_casino_bet_pays_by_the_numbers_chosen():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    assert cfg.casino.enabled
    rules, g = game(cfg)
    g.pos[0] = 15
    act(rules, g, type="roll", dice=[2, 3])
    assert g.phase == "casino"
    act(rules, g, type="casino_bet", numbers=[2, 5], die=5, jackpot=False)
    assert g.cash[0] == 15000 - 1000 + 3000 and g.jackpot == cfg.casino.jackpot_start + 500


# ------------------------------------------------------------------ speed die
def test_speed_die_bus_and_mr_monopoly():
    cfg = EngineConfig.from_ruleset(load_ruleset("official-speed-die"))
    rules, g = game(cfg)
    g.passed_go[0] = True
    assert rules.rules.base.dice_needed(rules.t, g) == 3
    act(rules, g, type="roll", dice=[1, 3, 6])        # Bus: move 1, 3 or 4
    assert g.phase == "bus" and g.pending["options"] == [1, 3, 4]
    act(rules, g, type="bus", steps=4)
    assert g.pos[0] == 4
    rules, g = game(cfg)
    g.passed_go[0] = True
    own(g, 1, 1, 3, 5, 6)
    g.pos[0] = 0
    act(rules, g, type="roll", dice=[1, 2, 4])        # Mr. Monopoly: 3 (owned), then on to 8 (unowned)
    assert g.pos[0] == 8 and g.phase == "buy"


# ------------------------------------------------------------------ the step API on JSON
def test_apply_on_canonical_json_and_refusals(official):
    from verify.engine.step import new_game
    s = new_game(official, 2, seed=5)
    me = s["current"]
    s2, events = apply(official, s, {"type": "roll", "dice": [1, 2]})
    assert s2["players"][me]["position"] == 3 and events[0] == {"event": "rolled", "player": me, "dice": [1, 2]}
    assert s["players"][me]["position"] == 0           # the input state is not changed
    with pytest.raises(IllegalAction):
        apply(official, s, {"type": "roll", "dice": [3]})
    with pytest.raises(IllegalAction):
        apply(official, s, {"type": "end_turn"})
    from verify.errors import GameError
    with pytest.raises(GameError):
        apply(official, s, {"type": "fly"})
    with pytest.raises(GameError):
        apply(official, {"schema": "nope"}, {"type": "roll", "dice": [1, 2]})


def test_fallback_config_plays():
    cfg = EngineConfig.from_ruleset(fallback_ruleset())
    rules, g = game(cfg)
    act(rules, g, type="roll", dice=[2, 3])
    assert g.pos[0] == 5


# ------------------------------------------------------------------ clock, timers, end conditions
def test_missed_turns_forfeit_on_the_game_clock():
    cfg = EngineConfig.from_ruleset(load_ruleset("online-vn"))
    assert cfg.clock.on_timeout == "skip_turn" and cfg.clock.forfeit_after_missed == 2
    rules, g = game(cfg, players=3)
    p = g.current
    act(rules, g, type="timeout")                     # skipped: the turn passes, the clock runs a full timer
    assert g.missed[p] == 1 and g.current != p
    assert g.minute == pytest.approx((cfg.clock.turn_seconds or cfg.clock.seconds_per_turn) / 60)
    while g.current != p:
        g.phase, g.rolled = "post_roll", True
        act(rules, g, type="end_turn")
    act(rules, g, type="timeout")                     # second missed turn in a row: out of the game
    assert g.bankrupt[p] and g.phase == "post_roll"
    act(rules, g, type="end_turn")
    assert g.current != p


def test_time_limit_ends_with_the_richest_player():
    cfg = EngineConfig.from_ruleset(load_ruleset("official-timed"))
    cfg = with_(cfg, "end", time_limit_minutes=1)      # the players agree on the time (an open parameter)
    rules, g = game(cfg)
    g.cash[1] = 5000
    for _ in range(2):                                  # two player-turns of 30 s each: one minute
        g.phase, g.rolled = "post_roll", True
        act(rules, g, type="end_turn")
    assert g.phase == "over" and g.result == "time_limit" and g.winner == 1


def test_first_bankruptcy_ends_the_short_game():
    cfg = EngineConfig.from_ruleset(load_ruleset("official-short"))
    rules, g = game(cfg, players=3)
    own(g, 1, 39)
    g.hotel[39] = True
    g.bank_hotels -= 1
    own(g, 2, 37)
    g.cash[2] = 9000
    g.current, g.pos[0], g.cash[0] = 0, 34, 10
    act(rules, g, type="roll", dice=[2, 3])
    act(rules, g, type="bankrupt")
    assert g.phase == "over" and g.result == "first_bankruptcy" and g.winner == 2


def test_salary_stops_and_rent_tax_starts_on_the_clock():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    assert cfg.movement.salary_stop_minute == 46 and cfg.rent.tax_start_minute == 61
    rules, g = game(cfg)
    g.minute = 46.0
    g.pos[0] = 38
    act(rules, g, type="roll", dice=[1, 2])
    assert g.cash[0] == 15000                          # no salary any more
    g.minute = 66.0
    assert rules.rules.base.rent_tax_rate(rules.t, g) == pytest.approx(0.6)
    g.minute = 500.0
    assert rules.rules.base.rent_tax_rate(rules.t, g) == pytest.approx(0.99)


# ------------------------------------------------------------------ teams, speed die, cards
def test_teammate_inherits_on_bankruptcy_to_the_bank():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-teams"))
    rules, g = game(cfg, players=4)
    g.current = 0
    own(g, 0, 1, 3)
    g.mortgaged[1] = True
    g.cash[0] = 0                                     # worth 900 (bankruptcy.threshold: debt_exceeds_worth)
    g.pos[0] = 36
    act(rules, g, type="roll", dice=[1, 1])           # Luxury Tax 1000
    act(rules, g, type="bankrupt")
    assert g.owner[1] == g.owner[3] == 2 and not g.mortgaged[1]


def test_triples_move_anywhere():
    cfg = EngineConfig.from_ruleset(load_ruleset("official-speed-die"))
    rules, g = game(cfg)
    g.passed_go[0] = True
    act(rules, g, type="roll", dice=[2, 2, 2])
    assert g.phase == "triples"
    act(rules, g, type="move_to", square=39)
    assert g.pos[0] == 39 and g.phase == "buy"


def test_reshuffled_deck_is_deterministic():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    assert cfg.cards.return_policy == "reshuffle_when_empty"
    rules, g = game(cfg)
    g.chance_discards, g.chance = list(g.chance), []
    g2 = g.copy()
    rules.rules.movement.draw(rules.t, g, 0, "chance")
    rules.rules.movement.draw(rules.t, g2, 0, "chance")
    assert g.chance == g2.chance and g.shuffles == 1 and len(g.chance) + len(g.chance_discards) == 20


def test_showdown_card_destroys_a_building():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-showdown"))
    assert any(c.effect == "destroy_building" for c in cfg.cards.chance)
    rules, g = game(cfg, players=3)
    own(g, 0, 37, 39)
    g.houses[37], g.houses[39] = 2, 3
    g.bank_houses = None or g.bank_houses
    rules.rules.cards.destroy_building(rules.t, g, 0)
    assert g.houses[39] == 2 and g.houses[37] == 2


def test_per_turn_building_limit_and_timing():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    assert cfg.building.per_turn_limit == "one_per_group" and cfg.building.timing == "before_roll_own_turn"
    rules, g = game(cfg)
    own(g, 0, 37, 39)
    act(rules, g, type="build_house", square=37)
    assert "one building per group" in rules.rules.building.why_not_build_house(rules.t, g, 0, 39)
    own(g, 1, 1, 3)
    assert "before rolling" in rules.rules.building.why_not_build_house(rules.t, g, 1, 1)   # not seat 1's turn


def test_trade_per_turn_limit():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    rules, g = game(cfg)
    own(g, 1, 1, 3, 6, 8)
    for s in (1, 3, 6):
        act(rules, g, type="trade", **{"with": 1}, give={"cash": rules.t.price[s]}, take={"squares": [s]})
    assert "at most 3 trades" in rules.rules.trades.why_not_trade(rules.t, g, 0, 1, {"cash": 1000}, {"squares": [8]})


def test_custom_table_that_loses_sold_buildings_breaks_house_supply():
    from verify.engine.trace import InvariantChecker
    cfg = with_(EngineConfig.from_ruleset(load_ruleset("official")), "building",
                supply_accounting="sold_buildings_vanish")
    rules, g = game(cfg)
    own(g, 0, 37, 39)
    act(rules, g, type="build_house", square=37)
    before = g.to_json(rules.t.ownable)
    act(rules, g, type="sell_house", square=37)
    after = g.to_json(rules.t.ownable)
    broken = InvariantChecker(cfg, ["house-supply"])(before, after, {"type": "sell_house", "seat": 0})
    assert [v.invariant for v in broken] == ["house-supply"]


def test_unclaimed_rent_lapses_at_the_deadline():
    official = EngineConfig.from_ruleset(load_ruleset("official@claim-counted-from-payer"))
    assert official.rent.owner_must_claim and official.rent.claim_deadline == "before_second_next_roll"
    rules, g = game(official, players=3)
    g.current = 0
    own(g, 1, 39)
    g.pos[0] = 34
    apply_state(rules, g, {"type": "roll", "dice": [2, 3]})
    assert g.claims == [[0, 1, 39, 50, 50, 2]] and g.cash[0] == 1500
    apply_state(rules, g, {"type": "end_turn"})
    apply_state(rules, g, {"type": "roll", "dice": [1, 2]})      # the next player rolls: still claimable
    assert g.claims == [[0, 1, 39, 50, 50, 2]]
    while g.phase != "post_roll":
        apply_state(rules, g, legal_actions(official, g)[0])
    apply_state(rules, g, {"type": "end_turn"})
    assert g.current == 2
    apply_state(rules, g, {"type": "roll", "dice": [2, 4]})      # the second next player rolls: lapsed
    assert g.claims == [] and g.cash[0] == 1500
    assert rules.rules.debts.why_not_claim_rent(rules.t, g, 1, 39) == "no rent to claim"


def test_claimed_rent_is_paid(official):
    rules, g = game(official, players=3)
    g.current = 0
    own(g, 1, 39)
    g.pos[0] = 34
    apply_state(rules, g, {"type": "roll", "dice": [2, 3]})
    apply_state(rules, g, {"type": "end_turn"})
    apply_state(rules, g, {"type": "claim_rent", "seat": 1, "square": 39})   # asked in the next turn
    assert g.cash[0] == 1450 and g.cash[1] == 1550 and g.phase == "pre_roll" and g.current == 1


def test_house_rules_double_go_and_no_buying_in_the_first_round():
    cfg = EngineConfig.from_ruleset(load_ruleset("official+house-double-go"))
    rules, g = game(cfg)
    g.pos[0] = 35
    act(rules, g, type="roll", dice=[2, 3])           # exactly on GO: salary plus the bonus
    assert g.cash[0] == 1500 + 200 + cfg.movement.exact_landing_bonus and cfg.movement.exact_landing_bonus > 0
    cfg = EngineConfig.from_ruleset(load_ruleset("official+house-no-buying-first-round"))
    rules, g = game(cfg)
    act(rules, g, type="roll", dice=[1, 2])           # Baltic, first trip: neither offered nor auctioned
    assert g.phase == "post_roll" and g.owner[3] == -1
    g.passed_go[1] = True
    act(rules, g, type="end_turn")
    act(rules, g, type="roll", dice=[1, 2])
    assert g.phase == "buy"


def test_explicit_payment_step_and_auction_in_seat_order_with_a_fixed_step():
    cfg = EngineConfig.from_ruleset(load_ruleset("online-vn"))
    assert cfg.debt.explicit_payment_step and cfg.purchase.fixed_step
    rules, g = game(cfg, players=3)
    g.current = 0
    own(g, 1, 39)
    g.pos[0] = 34
    act(rules, g, type="roll", dice=[2, 3])
    assert g.phase == "debt" and g.cash[0] == 1500     # the game stops at a Pay step
    act(rules, g, type="pay")
    assert g.cash[0] == 1500 - 50
    rules, g = game(cfg, players=3)
    g.current = 0
    g.pos[0] = 34
    act(rules, g, type="roll", dice=[1, 2])           # 37 Park Place, declined
    act(rules, g, type="decline")
    step = cfg.purchase.min_increment
    assert g.pending["min"] == 350
    with pytest.raises(IllegalAction, match="exactly one step"):
        act(rules, g, type="bid", seat=g.pending["turn"], amount=350 + 5 * step)


def test_owner_auctions_a_mortgaged_deed_at_once():
    """Showdown's equity-sale reading (the ruleset's own is in tests/test_engine_fidelity_rules.py):
    opens at the mortgage value, the others bid, the bank takes back its loan and the owner the rest."""
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-showdown@equity-sale"))
    assert cfg.mortgage.immediate_auction
    rules, g = game(cfg, players=3)
    for s in cfg.board.ownable:
        g.owner[s] = -1
    g.current = 0
    own(g, 0, 39, mortgaged=True)
    act(rules, g, type="auction_mortgaged", square=39)
    assert g.phase == "auction" and 0 not in g.pending["bidders"] and g.pending["min"] == 2000
    first = g.pending["turn"]
    other = [q for q in g.pending["bidders"] if q != first][0]
    act(rules, g, type="bid", seat=first, amount=2500)
    act(rules, g, type="pass", seat=other)
    assert g.owner[39] == first and not g.mortgaged[39]
    assert g.cash[0] == cfg.setup.starting_cash + 500         # the bank keeps the mortgage value
    rules, g = game(cfg, players=3)
    for s in cfg.board.ownable:
        g.owner[s] = -1
    g.current = 0
    own(g, 0, 39, mortgaged=True)
    act(rules, g, type="auction_mortgaged", square=39)
    for q in list(g.pending["bidders"]):
        act(rules, g, type="pass", seat=q)
    assert g.owner[39] == 0 and g.mortgaged[39] and g.phase == "pre_roll"   # no bid: still the owner's


def test_a_surrender_does_not_swallow_another_players_decision():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    rules, g = game(cfg, players=3)
    g.current = 0
    g.pos[0] = 34
    act(rules, g, type="roll", dice=[2, 3])
    assert g.phase == "buy" and g.pending["player"] == 0
    own(g, 2, 1, 3)
    act(rules, g, type="surrender", seat=2)
    assert g.bankrupt[2] and g.owner[1] == -1 and g.phase == "buy" and g.pending == {"player": 0, "square": 39}
    act(rules, g, type="buy")
    assert g.owner[39] == 0


def test_debt_repayment_timer_runs_out():
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    assert cfg.debt.repayment_seconds == 60
    rules, g = game(cfg, players=3)
    g.current = 0
    own(g, 0, 1, 3)
    g.cash[0] = 500
    g.pos[0] = 36
    act(rules, g, type="roll", dice=[1, 1])           # Luxury Tax 1000
    assert g.phase == "debt"
    minute = g.minute
    act(rules, g, type="timeout")                     # the game mortgages for the debtor and pays
    assert g.mortgaged[1] and g.mortgaged[3] and g.cash[0] == 500 + 300 + 300 - 1000
    assert not g.bankrupt[0] and g.minute == pytest.approx(minute + 1.0)
    rules, g = game(cfg, players=3)
    g.current = 0
    own(g, 0, 1)
    g.cash[0] = 100
    g.pos[0] = 36
    act(rules, g, type="roll", dice=[1, 1])
    act(rules, g, type="timeout")                     # 100 + 300 cannot cover 1000: bankrupt to the bank
    assert g.bankrupt[0] and g.owner[1] == -1


def test_utility_card_throws_the_dice_again(official):
    rules, g = game(official)
    g.chance.remove("chance-utility")
    g.chance.insert(0, "chance-utility")
    own(g, 1, 12)
    g.pos[0] = 4
    act(rules, g, type="roll", dice=[1, 2])           # Chance at 7 -> Electric Company, 10 x a new throw
    thrown = [e for e in g.events if e["event"] == "card_throw"][0]["dice"]
    assert g.pos[0] == 12 and g.cash[0] == 1500 - 10 * sum(thrown) and g.dice == (1, 2)


def test_landings_count_moves_after_every_effect(official):
    rules, g = game(official)
    g.landings = [0] * 40
    g.in_jail[0], g.pos[0] = True, 10
    act(rules, g, type="roll", dice=[1, 2])           # a failed try in jail: the token did not move
    assert sum(g.landings) == 0
    g.pos[1] = 27
    act(rules, g, type="roll", dice=[1, 2])           # 30 Go To Jail: the move ends in jail
    assert g.landings[10] == 1 and g.landings[30] == 0


# ------------------------------------------------------------------ second reading (audit) regressions
def _cleared(rid: str, players: int = 2):
    """A fresh game of a bundled ruleset with no dealt deeds and the starting cash."""
    cfg = EngineConfig.from_ruleset(load_ruleset(rid))
    rules, g = game(cfg, players)
    for s in rules.t.ownable:
        g.owner[s] = -1
    g.cash = [cfg.setup.starting_cash] * players
    g.current = 0
    return cfg, rules, g


def _money(g) -> int:
    return sum(g.cash) + g.bank_cash + g.pot + g.jackpot


def test_shortage_auction_winner_builds_for_the_bid_even_below_the_house_cost(official):
    rules, g = game(official)
    own(g, 0, 37, 39)                    # dark blue, house cost 200
    own(g, 1, 1, 3)                      # brown, house cost 50
    g.bank_houses, g.cash = 1, [250, 1500]
    before = _money(g)
    act(rules, g, type="build_house", seat=0, square=37)
    assert g.phase == "auction"
    act(rules, g, type="bid", seat=1, amount=1)
    act(rules, g, type="bid", seat=0, amount=100)
    act(rules, g, type="pass", seat=1)
    assert g.houses[37] + g.houses[39] == 1 and g.bank_houses == 0
    assert g.cash == [150, 1500] and _money(g) == before


@pytest.mark.parametrize("rid", ["online-vn", "platform-classic"])
def test_before_roll_timing_lets_a_debtor_raise_cash_but_not_build(rid):
    cfg, rules, g = _cleared(rid)
    own(g, 0, 1, 3)
    own(g, 1, 6)
    act(rules, g, type="roll", seat=0, dice=[2, 4])          # onto 6: rent at the payment step
    assert g.phase == "debt" and g.pending["debtor"] == 0
    assert rules.rules.building.why_not_build_house(rules.t, g, 0, 1) == "only before rolling in one's own turn"
    assert rules.rules.mortgages.why_not_mortgage(rules.t, g, 0, 3) is None            # raising cash is allowed
    kinds = {(a["type"], a.get("square")) for a in legal_actions(cfg, g) if a["seat"] == 0}
    assert ("mortgage", 3) in kinds and ("build_house", 1) not in kinds


def test_short_game_hotel_breaks_down_into_the_houses_it_needs():
    cfg, rules, g = _cleared("official-short")
    assert cfg.building.hotel_threshold == 3 < cfg.building.max_houses
    own(g, 0, 1, 3)
    g.houses[1] = g.houses[3] = 3
    g.bank_houses -= 6
    act(rules, g, type="build_hotel", seat=0, square=1)
    assert g.hotel[1] and g.houses[1] == 0
    bank = g.bank_houses
    act(rules, g, type="sell_hotel", seat=0, square=1)
    assert not g.hotel[1] and g.houses[1] == 3 and g.bank_houses == bank - 3
    assert rules.rules.base.building_value(rules.t, g, 3) == 3 * rules.t.house_cost[3]


def test_utility_rent_is_money_per_pip_in_the_board_scale():
    for rid, per_pip in (("official", 4), ("platform-classic", 40)):
        cfg, rules, g = _cleared(rid)
        own(g, 1, 12)
        g.dice = (3, 4)
        assert rules.rules.base.rent(rules.t, g, 12, 0) == 7 * per_pip


@pytest.mark.parametrize("cards, pot", [(True, 200), (False, 150)])
def test_free_parking_pot_takes_taxes_and_fines_and_card_payments_where_the_rules_say(cards, pot):
    cfg, rules, g = _cleared("official+house-free-parking-pot")
    assert cfg.taxes.pot_card_payments                  # the overlay reads card payments as fines
    rules = readable(with_(cfg, "taxes", pot_card_payments=cards))
    rules.rules.base.charge(rules.t, g, 0, -1, 50, "card")
    rules.rules.base.charge(rules.t, g, 0, -1, 100, "tax")
    rules.rules.base.charge(rules.t, g, 0, -1, 50, "fine")
    assert g.pot == pot and g.bank_cash == 200 - pot


def test_forced_jail_fine_is_paid_before_the_token_moves():
    cfg, rules, g = _cleared("platform-classic")
    assert cfg.jail.after_last_try == "pay_fine_and_move"
    g.in_jail[0], g.pos[0], g.jail_turns[0] = True, 10, cfg.jail.max_tries - 1
    g.cash[0] = 1500                         # the fine (500) leaves too little for the deed on 13 (1400)
    act(rules, g, type="roll", seat=0, dice=[1, 2])
    assert g.phase == "debt" and g.pending["kind"] == "fine" and g.pos[0] == 10   # not moved yet
    act(rules, g, type="pay", seat=0)
    assert g.pos[0] == 13 and g.cash[0] == 1000 and g.phase == "buy"
    assert rules.rules.auctions.why_not_buy(rules.t, g, 0) is not None           # the fine money cannot buy the deed any more


def test_a_timed_out_turn_ends_after_the_auction_of_the_declined_deed():
    cfg, rules, g = _cleared("platform-classic", players=3)
    assert cfg.clock.on_timeout == "default_choices"
    g.pos[0] = 35
    act(rules, g, type="timeout", seat=0, dice=[2, 2])     # doubles onto 39, declined by default
    assert g.phase == "auction"
    while g.phase == "auction":
        act(rules, g, type="pass", seat=g.pending["turn"] if g.pending["turn"] is not None else g.pending["bidders"][0])
    assert g.current == 1 and g.phase == "pre_roll"       # no extra roll for seat 0's doubles


@pytest.mark.parametrize("rid", ["official-speed-die", "platform-fast"])
def test_triples_onto_the_square_one_stands_on_is_no_lap(rid):
    for square in (0, 5):
        cfg, rules, g = _cleared(rid)
        g.pos[0] = square
        g.phase, g.pending, g.stage = "triples", {"player": 0}, "move"
        cash = g.cash[0]
        act(rules, g, type="move_to", seat=0, square=square)
        assert g.pos[0] == square and g.cash[0] == cash


def test_a_player_bankrupted_in_a_timed_out_turn_ends_it_with_a_step_of_its_own():
    """Each step is one action's consequences: the next turn (and its new round) is not folded into
    the bankruptcy step, or the bankruptcy-transfer invariant would see unrelated deeds move."""
    cfg, rules, g = _cleared("platform-classic", players=3)
    own(g, 1, 39)
    g.hotel[39], g.bank_hotels = True, g.bank_hotels - 1
    g.cash[0], g.pos[0] = 10, 35
    act(rules, g, type="timeout", seat=0, dice=[1, 3])        # onto 39: hotel rent, nothing to raise
    assert g.bankrupt[0] and g.current == 0 and g.phase == "post_roll"
    act(rules, g, type="end_turn", seat=0)
    assert g.current == 1


def test_a_surrender_that_leaves_one_bidder_ends_the_auction_and_keeps_the_bankruptcy_invariant():
    """platform-classic lets a player surrender at any time. Seat 2 surrenders with seat 1 leading the
    auction for Boardwalk: the auction ends in that step and Boardwalk goes to seat 1. The
    bankruptcy-transfer invariant accepts that (the bank's deed sold to the last bidder), and still
    refuses the step if the deed went to the bankrupt or another player's deed moved."""
    import copy

    from verify.invariants import check_step
    cfg = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    rules, g = game(cfg, players=3)
    own(g, 2, 1)
    g.pos[0] = 34
    act(rules, g, type="roll", dice=[2, 3])
    act(rules, g, type="decline")
    act(rules, g, type="bid", seat=1, amount=4000)
    assert g.phase == "auction" and g.pending["bidders"] == [1, 2]
    before = rules.to_json(g)
    act(rules, g, type="surrender", seat=2)
    after = rules.to_json(g)
    assert g.bankrupt[2] and g.owner[39] == 1 and g.owner[1] == -1 and g.phase != "auction"
    step = {"type": "surrender", "seat": 2}
    promised = ["bankruptcy-transfer"]
    assert check_step(cfg, before, after, step, promised) == []

    def deed(state, square):
        return next(p for p in state["properties"] if p["square"] == square)
    to_bankrupt = copy.deepcopy(after)
    deed(to_bankrupt, 39)["owner"] = 2
    moved = copy.deepcopy(after)
    deed(moved, 3)["owner"], deed(before, 3)["owner"] = 1, 0
    for broken in (to_bankrupt, moved):
        assert [v.invariant for v in check_step(cfg, before, broken, step, promised)] == ["bankruptcy-transfer"]
