"""The rules the audit found the catalogue could not express (issue 11, item 4), each played from a
constructed state: the value a ruleset cites against the other reading, with the figures that differ."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from verify.config import EngineConfig
from verify.engine.engines import Engine, readable
from verify.engine.state import GameState
from verify.engine.step import apply_state
from verify.errors import SpecError
from verify.spec import load_ruleset


def config(rid: str, **changes) -> EngineConfig:
    """A bundled ruleset's config, with ``area__field=value`` changes (the other reading)."""
    cfg = EngineConfig.from_ruleset(load_ruleset(rid))
    for key, value in changes.items():
        area, field = key.split("__")
        cfg = replace(cfg, **{area: replace(getattr(cfg, area), **{field: value})})
    return cfg


def cleared(cfg: EngineConfig, players: int = 3) -> tuple[Engine, GameState]:
    """A fresh game: no deeds dealt, the starting cash, seat 0 to move."""
    rules = readable(cfg)
    g = rules.rules.base.new_game(rules.t, players, random.Random(1))
    g.events = []
    for s in rules.t.ownable:
        g.owner[s] = -1
    g.cash = [cfg.setup.starting_cash] * players
    g.current = 0
    return rules, g


def act(rules, g, **action):
    apply_state(rules, g, action)
    return g


def own(g, seat, *squares, mortgaged=False):
    """Give ``squares`` to ``seat`` by hand, marked as a rule marks its writes (``GameState.mark``)."""
    for s in squares:
        g.owner[s] = seat
        g.mortgaged[s] = mortgaged
        g.mark(s)


def money(g) -> int:
    return sum(g.cash) + g.bank_cash + g.pot + g.jackpot


# ------------------------------------------------------------------ A: a received mortgage lifted at once
@pytest.mark.parametrize("reading, total", [("principal_only", 220), (None, 220), ("interest_again", 240)])
def test_a_traded_mortgage_lifted_at_once_costs_value_plus_ten_percent_once(reading, total):
    """Boardwalk (mortgage value 200): 'ipotek değeri artı yüzde 10 faiz öder' = 220, not 20 + 220."""
    cfg = config("official") if reading is None else config("official", mortgage__transfer_lift_at_once=reading)
    rules, g = cleared(cfg)
    own(g, 1, 39, mortgaged=True)
    act(rules, g, type="trade", **{"with": 1}, give={"cash": 100}, take={"squares": [39]})
    assert g.cash[0] == 1500 - 100 - 20 and g.interest_paid[39]
    act(rules, g, type="unmortgage", square=39)
    assert 1500 - 100 - g.cash[0] == total and not g.mortgaged[39] and not g.received


def test_a_received_mortgage_lifted_later_pays_the_interest_again():
    rules, g = cleared(config("official"))
    own(g, 1, 39, mortgaged=True)
    act(rules, g, type="trade", **{"with": 1}, give={"cash": 100}, take={"squares": [39]})
    assert g.received == {39: 0}
    act(rules, g, type="roll", dice=[1, 2])               # play goes on: no longer "at once"
    assert not g.received and rules.rules.base.unmortgage_cost(rules.t, g, 39) == 220


@pytest.mark.parametrize("reading, total", [("principal_only", 240), ("interest_again", 260)])
def test_an_inherited_mortgage_lifted_at_once_costs_interest_then_principal(reading, total):
    """After a bankruptcy: 10 % of the property's value (40) on receipt, then the principal (200)."""
    rules, g = cleared(config("official", mortgage__transfer_lift_at_once=reading))
    own(g, 1, 39, mortgaged=True)
    g.cash[1], g.current = 0, 1
    g.phase, g.stage = "debt", "move"
    g.pending = {"debtor": 1, "creditor": 0, "amount": 500, "kind": "rent"}
    g.debts = [[1, 0, 500, 500, "rent"]]
    act(rules, g, type="bankrupt", seat=1)
    assert g.owner[39] == 0 and g.cash[0] == 1500 - 40
    act(rules, g, type="unmortgage", seat=0, square=39)
    assert 1500 - g.cash[0] == total


def test_the_received_mark_survives_the_canonical_state():
    rules, g = cleared(config("official"))
    own(g, 1, 39, mortgaged=True)
    act(rules, g, type="trade", **{"with": 1}, give={"cash": 100}, take={"squares": [39]})
    doc = g.to_json(rules.t.ownable)
    assert doc["turn"]["received"] == [[39, 0]]
    back = GameState.from_json(doc, rules.t.ownable)
    assert back.received == {39: 0} and rules.rules.base.unmortgage_cost(rules.t, back, 39) == 200


# ------------------------------------------------------------------ B: the shortage counts buildings wanted
def _shortage_game(cfg, bank_houses, cash=(1500, 1500, 1500)):
    rules, g = cleared(cfg)
    own(g, 0, 37, 39)              # dark blue: houses cost 200
    own(g, 1, 1, 3)                # brown: houses cost 50
    g.bank_houses, g.cash = bank_houses, list(cash)
    act(rules, g, type="build_house", square=37)
    return g


def test_official_shortage_auction_when_two_builders_want_more_than_the_bank_has():
    """'bankadakinden fazlasını almak isterse': 3 houses left, two players with monopolies."""
    g = _shortage_game(config("official"), 3)
    assert g.phase == "auction" and g.pending["item"] == "house" and sorted(g.pending["bidders"]) == [0, 1]
    # counting players instead (the engine before): 2 builders do not exceed 3 houses, no auction
    g = _shortage_game(config("official", building__shortage_trigger="more_players_than_stock"), 3)
    assert g.phase == "pre_roll" and g.houses[37] == 1 and g.bank_houses == 2


def test_official_no_shortage_when_the_builders_want_no_more_than_the_bank_has():
    # seat 0 can pay one dark-blue house, seat 1 one brown house: 2 wanted, 3 left
    g = _shortage_game(config("official"), 3, cash=(200, 50, 1500))
    assert g.phase == "pre_roll" and g.houses[37] == 1 and g.bank_houses == 2


def test_the_shortage_bound_follows_every_change_of_hands_and_every_building():
    """Whether a build could be short is remembered in the game: a deed changing hands or a house put up
    (here by hand, marked as a rule marks its writes) is seen by the next question."""
    rules, g = cleared(config("official"))
    own(g, 0, 37, 39)
    own(g, 1, 1, 3)
    g.bank_houses = 16                       # 4 streets of 4 free levels: 16, not more than the bank has
    assert not rules.rules.construction.shortage_possible(rules.t, g)
    g.bank_houses = 15
    assert rules.rules.construction.shortage_possible(rules.t, g)
    own(g, 2, 3)                             # brown broken up: one owner of a whole group left
    assert not rules.rules.construction.shortage_possible(rules.t, g) and rules.rules.construction.demand(rules.t, g, "house") == (1, 7)
    own(g, 1, 3)
    assert rules.rules.construction.shortage_possible(rules.t, g) and rules.rules.construction.demand(rules.t, g, "house") == (2, 15)
    g.houses[37] = 1                         # one level fewer free: 15 wanted, 15 left
    g.mark(37)
    assert not rules.rules.construction.shortage_possible(rules.t, g)


def test_the_shortage_bound_counts_the_streets_that_could_take_a_hotel_apart_from_the_houses():
    """Two owners of whole groups and houses to spare: a shortage is possible once more of their streets
    could take a hotel than the bank has hotels (not while as many or fewer could), and demand counts
    only the streets that have the houses a hotel needs."""
    rules, g = cleared(config("official"))
    construction = rules.rules.construction
    own(g, 0, 37, 39)
    own(g, 1, 1, 3)
    g.bank_houses = 100                      # houses to spare: only the hotels can be short
    g.bank_hotels = 4                        # 4 open streets, 4 hotels
    assert not construction.shortage_possible(rules.t, g)
    g.bank_hotels = 3
    assert construction.shortage_possible(rules.t, g)
    g.hotel[39] = True                       # 3 open streets left
    g.mark(39)
    assert not construction.shortage_possible(rules.t, g)
    g.hotel[39] = False
    g.mark(39)
    for s in (37, 39, 1):
        g.houses[s] = 4
        g.mark(s)
    assert construction.demand(rules.t, g, "hotel") == (2, 3)


def test_classic_pl_auctions_only_the_last_building():
    cfg = config("classic-pl", building__house_supply=32, building__hotel_supply=12)   # row C: a finite stock
    assert cfg.building.shortage_trigger == "last_one_wanted_by_several"
    assert _shortage_game(cfg, 3).phase == "pre_roll"
    assert _shortage_game(cfg, 1).phase == "auction"


# ------------------------------------------------------------------ H: a won auction beyond one's cash
def _auction_for_boardwalk(cfg, bidder_cash):
    rules, g = cleared(cfg)
    g.cash[1] = bidder_cash
    g.pos[0], g.passed_go[0] = 34, True
    act(rules, g, type="roll", dice=[2, 3])              # Boardwalk, printed price 4000
    act(rules, g, type="decline")
    assert g.phase == "auction" and g.pending["turn"] == 1
    return rules, g


def test_platform_bid_above_cash_wins_and_enters_debt_repayment():
    """'добијену аукцију' is among the debts that start Debt Repayment."""
    rules, g = _auction_for_boardwalk(config("platform-classic"), 2500)
    before = money(g)
    act(rules, g, type="bid", seat=1, amount=4000)
    act(rules, g, type="pass", seat=2)
    assert g.owner[39] == 1 and g.phase == "debt"
    assert g.pending == {"debtor": 1, "creditor": -1, "amount": 4000, "kind": "auction"}
    act(rules, g, type="mortgage", seat=1, square=39)    # + 2000: the price can now be paid
    act(rules, g, type="pay", seat=1)
    assert g.cash[1] == 500 and g.mortgaged[39] and money(g) == before


def test_bid_above_cash_is_refused_where_the_ruleset_does_not_allow_it():
    rules, g = _auction_for_boardwalk(config("platform-classic", purchase__bid_above_cash=False), 2500)
    assert "cannot exceed" in rules.rules.auctions.why_not_bid(rules.t, g, 1, 4000)
    assert not config("official").purchase.bid_above_cash


# ------------------------------------------------------------------ I: Showdown's own auction of a mortgaged deed
def test_showdown_own_auction_is_the_expiry_auction_brought_forward():
    """Full price, anyone may bid (the owner too), the bank gets the money; unsold, the deed is unowned."""
    cfg = config("platform-showdown")
    rules, g = cleared(cfg)
    own(g, 0, 39, mortgaged=True)
    before = money(g)
    act(rules, g, type="auction_mortgaged", square=39)
    assert g.phase == "auction" and g.pending["min"] == 4000 and 0 in g.pending["bidders"]
    act(rules, g, type="bid", seat=1, amount=4000)
    act(rules, g, type="pass", seat=2)
    act(rules, g, type="pass", seat=0)
    assert g.owner[39] == 1 and not g.mortgaged[39]
    assert g.cash[0] == 25000 and g.cash[1] == 21000 and money(g) == before   # the bank took the 4000
    rules, g = cleared(cfg)
    own(g, 0, 39, mortgaged=True)
    act(rules, g, type="auction_mortgaged", square=39)
    for q in list(g.pending["bidders"]):
        act(rules, g, type="pass", seat=q)
    assert g.owner[39] == -1 and not g.mortgaged[39] and g.phase == "pre_roll"


# ------------------------------------------------------------------ K: the claim deadline counted from the owner
@pytest.mark.parametrize("payer, turns", [(0, 3), (2, 1), (3, 4)])
def test_official_rent_claim_lapses_when_the_second_player_after_the_owner_rolls(payer, turns):
    """'kendisinden sonraki İKİNCİ oyuncu': owner seat 1 of 4, so the claim lapses at seat 3's roll."""
    cfg = config("official")
    assert cfg.rent.claim_deadline == "before_second_after_owner_rolls"
    rules, g = cleared(cfg, players=4)
    own(g, 1, 39)
    g.current, g.pos[payer] = payer, 34
    act(rules, g, type="roll", dice=[2, 3])
    assert g.claims == [[payer, 1, 39, 50, 50, turns]]
    rules2, g2 = cleared(config("official@claim-counted-from-payer"), players=4)
    own(g2, 1, 39)
    g2.current, g2.pos[payer] = payer, 34
    act(rules2, g2, type="roll", dice=[2, 3])
    assert g2.claims[0][5] == 2                              # counted from the payer: always two rolls


def test_official_unclaimed_rent_lapses_at_the_owners_second_neighbours_roll():
    rules, g = cleared(config("official"), players=4)
    own(g, 1, 39)
    g.current, g.pos[2] = 2, 34
    act(rules, g, type="roll", dice=[2, 3])
    act(rules, g, type="end_turn")
    act(rules, g, type="roll", seat=3, dice=[1, 2])          # seat 3 is the second player after the owner
    assert g.claims == [] and g.cash[2] == 1500


# ------------------------------------------------------------------ O: card payments into the Free Parking pot
@pytest.mark.parametrize("rid, pot", [("official+house-free-parking-pot", 15),
                                     ("official+house-free-parking-pot@jail-fine-only", 0)])
def test_a_speeding_fine_card_goes_into_the_pot_where_card_payments_are_fines(rid, pot):
    cfg = config(rid)
    rules, g = cleared(cfg)
    g.chance.remove("chance-speeding")
    g.chance.insert(0, "chance-speeding")
    act(rules, g, type="roll", dice=[3, 4])               # Chance (7): speeding fine 15
    assert g.pot == pot and g.cash[0] == 1485


# ------------------------------------------------------------------ V: whose building the card destroys
@pytest.mark.parametrize("rid, mine, theirs", [("platform-showdown", 3, 4),
                                              ("platform-showdown@opponents-building", 4, 3)])
def test_the_destroying_card_hits_the_drawer_or_an_opponent(rid, mine, theirs):
    cfg = config(rid)
    rules, g = cleared(cfg)
    own(g, 0, 37, 39)
    own(g, 1, 1, 3)
    g.houses[37], g.houses[39], g.houses[1], g.houses[3] = 3, 3, 3, 3
    g.houses[39] = 4                                       # the most developed street of each side
    g.houses[3] = 4
    rules.rules.cards.destroy_building(rules.t, g, 0)
    assert (g.houses[39], g.houses[3]) == (mine, theirs)


# ------------------------------------------------------------------ W: the exact-GO bonus after the salary stop
@pytest.mark.parametrize("rid, cash", [("platform-classic", 16000),
                                      ("platform-classic@bonus-stops-with-salary", 15000)])
def test_platform_exact_go_bonus_outlasts_the_salary(rid, cash):
    """'Исплата плате престаје у 46. минуту': the salary stops; the 'dodatni bonus' is paid on."""
    cfg = config(rid)
    rules, g = cleared(cfg)
    g.minute, g.pos[0] = 46.0, 38
    act(rules, g, type="roll", dice=[1, 1])               # exactly on Start
    assert g.cash[0] == cash
    rules, g = cleared(cfg)
    g.minute, g.pos[0] = 45.0, 38
    act(rules, g, type="roll", dice=[1, 1])
    assert g.cash[0] == 15000 + 3000                       # before minute 46: salary and bonus


# ------------------------------------------------------------------ further rule: the salary once a turn
@pytest.mark.parametrize("rid, salary", [("official", 200), ("official@salary-once-a-lap", 400)])
def test_official_salary_once_a_turn_except_advance_to_go(rid, salary):
    """'Tutar her turda bir kez ödenir' with Advance to GO as 'the only special case'."""
    cfg = config(rid)
    for card, paid in (("chance-reading", salary), ("chance-go", 400)):
        rules, g = cleared(cfg)
        g.chance.remove(card)
        g.chance.insert(0, card)
        g.pos[0] = 38
        act(rules, g, type="roll", dice=[4, 5])           # past GO onto Chance (7)
        assert g.cash[0] == 1500 + paid, card


# ------------------------------------------------------------------ X: seconds of play per player-turn
def test_the_game_clock_reads_its_pace_from_the_ruleset(tmp_path):
    path = tmp_path / "slow-table.yaml"
    path.write_text("id: slow-table\ntitle: A slow table\nkind: ruleset\nextends: official\nrules:\n"
                    "  clock.seconds_per_turn:\n    value: 60\n    assumed: \"we talk a lot\"\n",
                    encoding="utf-8")
    cfg = EngineConfig.from_ruleset(load_ruleset(str(path)))
    assert cfg.clock.seconds_per_turn == 60 and config("official").clock.seconds_per_turn == 30
    rules, g = cleared(cfg)
    act(rules, g, type="roll", dice=[1, 3])               # Income Tax: nothing to decide
    act(rules, g, type="end_turn")
    assert g.minute == pytest.approx(1.0)


# ------------------------------------------------------------------ Y: the faces of the speed die
def test_speed_die_faces_come_from_the_ruleset():
    cfg = config("official-speed-die")
    assert (cfg.speed_die.pip_faces, cfg.speed_die.mr_monopoly_faces, cfg.speed_die.bus_faces) == (3, 2, 1)
    # a 3 on the speed die: pips on the Hasbro die (1 + 2 + 3 = 6: Oriental Avenue); Mr. Monopoly when only
    # two faces show pips (1 + 2 = 3: Baltic Avenue, then on to the next deed that charges rent: square 5)
    for faces, pos in (((3, 2, 1), 6), ((2, 3, 1), 5)):
        c = replace(cfg, speed_die=replace(cfg.speed_die, pip_faces=faces[0], mr_monopoly_faces=faces[1],
                                           bus_faces=faces[2]))
        rules, g = cleared(c)
        g.passed_go[0] = True
        for s in rules.t.ownable:
            g.owner[s] = 1                                 # Mr. Monopoly finds no unowned deed
        act(rules, g, type="roll", dice=[1, 2, 3])
        assert g.pos[0] == pos, faces


def test_a_speed_die_without_six_faces_is_an_error(tmp_path):
    path = tmp_path / "odd-die.yaml"
    path.write_text("id: odd-die\ntitle: Odd die\nkind: ruleset\nextends: official-speed-die\nrules:\n"
                    "  speed_die.bus_faces:\n    value: 2\n    assumed: \"two buses\"\n", encoding="utf-8")
    with pytest.raises(SpecError) as err:
        EngineConfig.from_ruleset(load_ruleset(str(path)))
    assert err.value.code == "E004" and "six faces" in str(err.value)


# ------------------------------------------------------------------ AB: a hotel's worth for the income tax
@pytest.mark.parametrize("rid, tax", [("official-pre2008", 325), ("official-pre2008@hotel-with-its-houses", 405)])
def test_pre2008_income_tax_counts_a_hotel_at_its_own_price(rid, tax):
    """'sahip olunan bütün binaların alış bedeli': the 4 houses went back to the bank with the hotel."""
    cfg = config(rid)
    rules, g = cleared(cfg)
    own(g, 0, 37, 39)
    g.houses[37], g.hotel[39] = 4, True                    # 1500 + 350 + 400 + 4 x 200 + hotel
    act(rules, g, type="roll", dice=[1, 3])               # Income Tax (4)
    act(rules, g, type="pay_tax", option="percent")
    assert g.cash[0] == 1500 - tax


# ------------------------------------------------------------------ a won auction's bankruptcy ends another's turn
def test_a_bankruptcy_outside_ones_turn_may_run_into_a_new_round_with_forfeited_mortgages():
    """Seat 1 cannot pay an auction it won in seat 2's timed-out turn: the game plays that turn to its end,
    a round begins and seat 0's expired mortgage is forfeited, all in the bankruptcy's step. The
    bankruptcy-transfer invariant allows that forfeiture and nothing else (found by a random-bot run)."""
    from verify.invariants import check_step
    cfg = config("platform-classic")
    rules, g = cleared(cfg)
    own(g, 0, 39, mortgaged=True)
    g.mortgage_rounds[39] = cfg.mortgage.expiry_rounds - 1
    own(g, 1, 37)
    g.cash[1], g.current, g.stage, g.timed_out = 0, 2, "move", True
    # a debt above seat 1's worth (Park Place, 3,500): platform-classic's bankruptcy.threshold is debt_exceeds_worth
    g.phase, g.pending = "debt", {"debtor": 1, "creditor": -1, "amount": 5000, "kind": "auction"}
    g.debts = [[1, -1, 5000, 0, "auction"]]
    before = g.to_json(rules.t.ownable)
    act(rules, g, type="bankrupt", seat=1)
    after = g.to_json(rules.t.ownable)
    assert g.bankrupt[1] and g.owner[37] == -1 and g.current == 0 and g.round == 1
    assert g.owner[39] == -1 and g.phase == "auction"          # seat 0's mortgage expired at the new round
    assert check_step(cfg, before, after, {"type": "bankrupt", "seat": 1}, ["bankruptcy-transfer"]) == []
    after["properties"] = [dict(p, owner=2) if p["square"] == 39 else p for p in after["properties"]]
    assert [v.invariant for v in check_step(cfg, before, after, {"type": "bankrupt", "seat": 1},
                                            ["bankruptcy-transfer"])] == ["bankruptcy-transfer"]


# ------------------------------------------------------------------ AA: a debt within the debtor's worth
def _debt_of_6000(rid: str):
    """The audit's debtor: 6,000 owed to the bank with 1,000 cash, Boardwalk and Park Place (worth 8,500,
    raisable by selling and mortgaging 4,750)."""
    cfg = config(rid)
    rules, g = cleared(cfg)
    own(g, 0, 37, 39)
    g.cash[0] = 1000
    g.phase, g.pending = "debt", {"debtor": 0, "creditor": -1, "amount": 6000, "kind": "tax"}
    g.debts = [[0, -1, 6000, 6000, "tax"]]
    assert rules.rules.base.net_worth(rules.t, g, 0) == 8500 and rules.rules.base.raisable(rules.t, g, 0) == 4750
    return cfg, rules, g


def test_a_debtor_whose_worth_covers_the_debt_may_not_declare_bankruptcy():
    """platform-classic: "Играч банкротира када дугује више од укупне имовине" (bankrupt when owing more than
    total assets); in Debt Repayment one sells, mortgages "или предложи размену другом играчу" (or proposes
    a trade), and may give up. The reading that takes the surrender sentence as the threshold
    (cannot_raise) lets the same debtor declare bankruptcy."""
    cfg, rules, g = _debt_of_6000("platform-classic")
    assert cfg.debt.threshold == "debt_exceeds_worth"
    why = rules.rules.debts.why_not_bankrupt(rules.t, g, 0)
    assert why is not None and why.params == ("bankruptcy.threshold",)
    assert rules.rules.debts.why_not_surrender(rules.t, g, 0) is None
    assert rules.rules.trades.why_not_trade(rules.t, g, 0, 1, {"squares": [39]}, {"cash": 2800}) is None
    act(rules, g, type="trade", seat=0, **{"with": 1}, give={"squares": [39]}, take={"cash": 2800})
    assert g.phase == "debt" and g.cash[0] == 3800 and g.owner[39] == 1

    _, reading, h = _debt_of_6000("platform-classic@cannot-cover-is-bankrupt")
    assert reading.config.debt.threshold == "cannot_raise" and reading.rules.debts.why_not_bankrupt(reading.t, h, 0) is None
    act(reading, h, type="bankrupt", seat=0)
    assert h.bankrupt[0]


def test_a_debt_above_the_worth_is_a_bankruptcy_under_both_readings():
    for rid in ("platform-classic", "platform-classic@cannot-cover-is-bankrupt"):
        _, rules, g = _debt_of_6000(rid)
        g.pending["amount"] = g.debts[0][2] = g.debts[0][3] = 9000
        assert rules.rules.debts.why_not_bankrupt(rules.t, g, 0) is None, rid


def test_the_two_thresholds_play_different_games():
    """Seeded campaigns of heuristic bots: under debt_exceeds_worth a debtor whose worth covers the debt
    sells deeds to other players or gives up; under cannot_raise they declare bankruptcy at once."""
    from verify.engine.engines import rules_for
    from verify.engine.policies import make_policies
    from verify.engine.simulate import Recorder, game_seed, play_game

    class Count(Recorder):
        def __init__(self):
            self.debt_trades = self.bankruptcies = 0

        def step(self, rules, g, action):
            self.debt_trades += g.phase == "debt" and action["type"] == "trade"
            self.bankruptcies += action["type"] == "bankrupt"
            apply_state(rules, g, action)

    played = {}
    for rid in ("platform-classic", "platform-classic@cannot-cover-is-bankrupt"):
        engine, count, games = rules_for(config(rid)), Count(), []
        for i in range(4):
            seed = game_seed(3, i)
            r = play_game(engine, make_policies("heuristic", 4, "leave", seed), seed, 2000, count)
            games.append((r.player_turns, r.winner, r.landings))
        played[rid] = (games, count.debt_trades, count.bankruptcies)
    (worth_games, trades, _), (raise_games, no_trades, bankruptcies) = played.values()
    assert worth_games != raise_games
    assert trades > 0 and no_trades == 0 and bankruptcies > 0
