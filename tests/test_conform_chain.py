"""An engine's automatic chain, link by link: each link the profile can declare is played on the reference as the
ruleset's own step (so the behaviour itself is no deviation), and a link the engine gets wrong, or resolves without
declaring it, is the cause: reported at that link, with the chain up to it in words."""

from __future__ import annotations

import pytest

from conform_engines.faults import ChainEngine, chain_engine
from verify.conform import chain
from verify.conform.harness import load_target, replay
from verify.conform.oracle import expect
from verify.conform.transport import EngineSpec
from verify.engine.step import apply, new_game
from verify.vocabulary import STEPS


@pytest.fixture(scope="module")
def cfg():
    return load_target("official")[0]


def _doc(state: dict, actions: list[dict], history: dict | None = None) -> dict:
    doc = {"schema": "verify.conform-scenario/1", "ruleset": "official", "origin": "test", "state": state,
           "actions": actions}
    if history:
        doc["history"] = history
    return doc


def _causes(engine: type, doc: dict) -> list[tuple[str, str]]:
    r = replay(EngineSpec(target=engine), doc)
    return [(d["signature"], d["doc"]["violation"]["chain"]) for d in r.deviations]


def _deeds(state: dict) -> dict:
    return {p["square"]: p for p in state["properties"]}


def _landing_on_boardwalk(cfg, cash: int, houses: int = 0) -> tuple[dict, dict]:
    """Player 0 (cash ``cash``, a built light-blue group, Reading) rolls onto player 1's Boardwalk."""
    state = new_game(cfg, 3, 1)
    deeds = _deeds(state)
    for s in (37, 39):
        deeds[s].update(owner=1, houses=houses)
    for s in (6, 8, 9):
        deeds[s].update(owner=0, houses=1)
    deeds[5].update(owner=0)
    state["bank"]["houses"] -= 3 + 2 * houses
    state["players"][0].update(cash=cash, position=35)
    return state, {"type": "roll", "seat": 0, "dice": [3, 1]}


def test_every_step_a_chain_plays_is_a_step_of_the_vocabulary():
    assert set(chain.STEP_OF.values()) <= set(STEPS)
    from verify.conform.protocol import AUTOMATIC
    assert set(AUTOMATIC) == {"rent_at_once", "liquidation", "jail_card_at_once", "debt_paid_at_once",
                              "end_turn_at_once", "bankrupt_turn_ends"}


def test_the_rent_link(cfg):
    state, roll = _landing_on_boardwalk(cfg, 900)
    doc = _doc(state, [roll])
    assert _causes(chain_engine("rent_at_once"), doc) == []                  # declared: the owner's claim
    assert _causes(chain_engine("rent_at_once", declare=False), doc) == [
        ("successor at rent: players[actor].cash -, players[other].cash +", "roll")]
    # a wrong amount inside the link is that link's cause, the chain shown up to it
    assert _causes(chain_engine("rent_at_once", bug="rent"), doc) == [
        ("successor at rent: players[actor].cash -, players[other].cash +", "roll › rent")]
    links = chain.play(("rent_at_once",), expect, cfg, state, roll)[4]
    assert [link.step for link in links] == ["roll", "rent"] and links[1].action == {
        "type": "claim_rent", "seat": 1, "square": 39}
    assert links[0].after is links[1].before and links[1].after["players"][0]["cash"] == 800


def test_the_liquidation_and_debt_paid_links(cfg):
    state, roll = _landing_on_boardwalk(cfg, 60)                              # 100 owed, 60 in cash: sell houses
    doc = _doc(state, [roll])
    both = ("rent_at_once", "liquidation")
    assert _causes(chain_engine(*both), doc) == []
    [(cause, words)] = _causes(chain_engine(*both, bug="liquidation"), doc)
    assert cause == "successor at liquidation: bank.cash +, players[actor].cash -"
    assert words == "roll › rent › liquidation"
    # the chain the reference plays: the claim, the debtor's sales read off the engine's state, the payment
    eng = chain_engine(*both)()
    eng.load(cfg.to_json(), state)
    got = eng.apply(roll)
    out = chain.play(both, expect, cfg, state, roll)
    (_, settled, _, _, links), raised = chain.settle(both, expect, cfg, out, got)
    assert settled == got and raised["phase"] == "debt"
    assert [link.step for link in links] == ["roll", "rent", "liquidation", "liquidation", "debt_paid"]
    assert chain.words(links) == "roll › rent › liquidation ×2 › debt_paid"


def test_the_debt_paid_link(cfg):
    """An engine that pays a debt as soon as a sale covers it: the debtor's pay follows the sale at once."""
    state, roll = _landing_on_boardwalk(cfg, 60)
    debt, _ = apply(cfg, state, roll)
    debt, _ = apply(cfg, debt, {"type": "claim_rent", "seat": 1, "square": 39})
    assert debt["phase"] == "debt" and debt["pending"]["amount"] == 100
    sale = {"type": "sell_house", "seat": 0, "square": 6}
    cover = apply(cfg, debt, sale)[0]
    cover, _ = apply(cfg, cover, {"type": "sell_house", "seat": 0, "square": 8})
    doc = _doc(cover, [{"type": "sell_house", "seat": 0, "square": 9}])      # this sale covers the debt
    assert cover["players"][0]["cash"] + 25 >= 100
    assert _causes(chain_engine("debt_paid_at_once"), doc) == []
    assert _causes(chain_engine("debt_paid_at_once", declare=False), doc) == [
        ('successor at debt: phase "debt">"post_roll"', "sell_house")]


def test_the_bankruptcy_link_and_the_turn_it_ends(cfg):
    state, roll = _landing_on_boardwalk(cfg, 10, houses=3)                  # 1,400 owed: bankrupt to player 1
    doc = _doc(state, [roll])
    assert _causes(chain_engine("rent_at_once", "liquidation"), doc) == []
    [(cause, words)] = _causes(chain_engine("rent_at_once", "liquidation", bug="bankruptcy"), doc)
    assert cause == "successor at bankruptcy: bank.cash +, players[other].cash -" and words.endswith("› bankruptcy")
    # the bankrupt player's turn ended at once: declared, the reference ends it too; undeclared, it is the cause
    ends = ("rent_at_once", "liquidation", "bankrupt_turn_ends")
    assert _causes(chain_engine(*ends), doc) == []
    engine = type("EndsUndeclared", (ChainEngine,), {"AUTOMATIC": ends, "name": "ends"})
    engine.hello = lambda self: dict(ChainEngine.hello(self), automatic=["rent_at_once", "liquidation"])
    [(cause, _)] = _causes(engine, doc)
    assert cause.startswith("successor at turn_ended after bankruptcy: current ")
    got = _engine_state(chain_engine(*ends), cfg, state, roll)
    links = chain.settle(ends, expect, cfg, chain.play(ends, expect, cfg, state, roll), got)[0][4]
    assert [link.step for link in links][-2:] == ["bankruptcy", "turn_ended"]


def _engine_state(engine: type, cfg, state: dict, action: dict) -> dict:
    e = engine()
    e.load(cfg.to_json(), state)
    return e.apply(action)


def test_the_end_of_the_turn_link(cfg):
    state = new_game(cfg, 3, 1)
    state["players"][0]["position"] = 4
    doc = _doc(state, [{"type": "roll", "seat": 0, "dice": [2, 4]}])       # onto Jail, just visiting
    assert _causes(chain_engine("end_turn_at_once"), doc) == []
    assert _causes(chain_engine("end_turn_at_once", declare=False), doc) == [
        ('successor at turn_ended: current actor>other, minute +, phase "post_roll">"pre_roll"', "roll")]


def test_the_jail_card_link(cfg):
    state = new_game(cfg, 3, 1)
    state["players"][0].update(in_jail=True, position=10, jail_turns=0, jail_cards=["chest"])
    state["decks"]["chest"].remove("chest-jail-free")
    doc = _doc(state, [{"type": "roll", "seat": 0, "dice": [2, 4]}])
    assert _causes(chain_engine("jail_card_at_once"), doc) == []
    links = chain.play(("jail_card_at_once",), expect, cfg, state, doc["actions"][0])[4]
    assert [link.step for link in links] == ["left_jail", "roll"]
    assert _causes(chain_engine("jail_card_at_once", declare=False), doc) == [
        ("successor at jail_roll: players[actor].in_jail true>false", "roll")]


class MoveDiceUtility(ChainEngine):
    """Takes rent at once, and charges the nearest-utility card with the dice it moved by (its own draw)."""

    AUTOMATIC = ("rent_at_once",)
    name = "move-dice-utility"

    def _play(self, action: dict) -> dict:
        if "card_dice" in action and isinstance(action.get("dice"), list):
            action = dict(action, card_dice=action["dice"][:2])
        return super()._play(action)


def test_a_draw_the_engine_makes_itself_is_the_card_throw_link(cfg):
    """The engine's own randomness inside the chain: the nearest utility charged by the move's dice, not by the
    card's own throw the harness gives (``card_dice``), is one cause whatever the two throws are."""
    state = new_game(cfg, 3, 1)
    deeds = _deeds(state)
    deeds[12].update(owner=1)
    state["decks"]["chance"].remove("chance-utility")
    state["decks"]["chance"].insert(0, "chance-utility")
    state["players"][0]["position"] = 0
    for card_dice in ([1, 2], [6, 5]):                      # below and above the move's 3 + 4
        doc = _doc(state, [{"type": "roll", "seat": 0, "dice": [3, 4], "card_dice": card_dice}])
        assert _causes(MoveDiceUtility, doc) == [
            ("successor at card_throw: card_dice: the move's dice, not a throw of its own", "roll › rent")]
    same = _doc(state, [{"type": "roll", "seat": 0, "dice": [3, 4], "card_dice": [2, 5]}])
    assert _causes(MoveDiceUtility, same) == []            # the same total: nothing to tell them apart


def test_a_bankruptcy_is_not_blamed_for_houses_another_player_broke_down_in_its_step(cfg):
    """The transfer invariant judges what the bankrupt player had; a hotel another player broke down in the same
    step changes the bank's houses too, and is that player's doing: a successor difference, not a lost asset."""
    from verify.conform.oracle import Oracle
    from verify.conform.protocol import read_hello
    state, roll = _landing_on_boardwalk(cfg, 10, houses=3)
    deeds = _deeds(state)
    for s in (11, 13, 14):                              # player 2's pink group of hotels
        deeds[s].update(owner=2, hotel=True)
    state["bank"]["hotels"] -= 3
    debt, _ = apply(cfg, state, roll)
    debt, _ = apply(cfg, debt, {"type": "claim_rent", "seat": 1, "square": 39})
    for s in (6, 8, 9):                                 # the debtor's own sales first (its liquidation)
        debt, _ = apply(cfg, debt, {"type": "sell_house", "seat": 0, "square": s})
    action = {"type": "bankrupt", "seat": 0}
    expected = chain.play((), expect, cfg, debt, action)
    got = [dict(p) for p in expected[1]["properties"]]
    engine = dict(expected[1], properties=got, bank=dict(expected[1]["bank"]))
    hotel = next(p for p in got if p["square"] == 11)
    hotel.update(hotel=False, houses=4)                 # player 2's hotel broken down in the same step
    engine["bank"].update(hotels=engine["bank"]["hotels"] + 1, houses=engine["bank"]["houses"] - 4)
    oracle = Oracle(cfg, load_target("official")[1], read_hello({"ok": True, "engine": "x", "version": "1",
                                                                "protocol": 1}))
    monitor = oracle.monitor()
    monitor(None, debt, None)
    v = oracle.judge(1, debt, action, expected, ("state", engine), monitor)
    assert v is not None and v.rule == "successor", v and v.signature
    assert "properties[street].hotel true>false" in v.signature
