"""The invariants file loads, names only the view, and its Python predicates judge real states."""

import copy

import pytest

from verify.config import EngineConfig, fallback_ruleset
from verify.errors import VerifyError
from verify.invariants import check_state, check_step, invariant_ids, load_invariants

IDS = ["even-build", "hotel-after-full-houses", "house-supply", "hotel-supply", "building-limits",
       "buildings-need-full-group", "buildings-need-unmortgaged-group", "split-group-buildings",
       "cash-nonnegative", "single-owner", "bankruptcy-transfer", "money-conservation"]


@pytest.fixture(scope="module")
def cfg():
    return EngineConfig.from_ruleset(fallback_ruleset())


def opening(cfg, players=3, houses=32, hotels=12):
    return {"schema": "verify.state/1",
            "players": [{"seat": s, "cash": 1500, "in_jail": False, "jail_cards": [], "bankrupt": False}
                        for s in range(players)],
            "properties": [{"square": d.square, "owner": None, "mortgaged": False, "houses": 0, "hotel": False}
                           for d in cfg.board.deeds],
            "bank": {"houses": houses, "hotels": hotels}, "pot": 0, "jackpot": 0}


def prop(state, square):
    return next(p for p in state["properties"] if p["square"] == square)


def test_every_promised_id_is_declared():
    assert invariant_ids() == IDS
    kinds = {i.id: i.kind for i in load_invariants()}
    assert kinds["money-conservation"] == "step" and kinds["bankruptcy-transfer"] == "step"
    assert kinds["even-build"] == "state"


def test_opening_state_satisfies_every_state_invariant(cfg):
    assert check_state(cfg, opening(cfg, houses=None, hotels=None), None) == []


def test_uneven_and_partial_group_buildings_are_caught(cfg):
    s = opening(cfg, houses=None, hotels=None)
    prop(s, 1)["owner"] = 0
    prop(s, 1)["houses"] = 2
    broken = {v.invariant for v in check_state(cfg, s, None)}
    assert broken == {"even-build", "buildings-need-full-group", "split-group-buildings"}
    assert check_state(cfg, s, ["cash-nonnegative"]) == []


def test_split_group_keeps_at_most_one_house(cfg):
    s = opening(cfg, houses=None, hotels=None)
    prop(s, 1)["owner"], prop(s, 3)["owner"] = 0, 1
    prop(s, 1)["houses"] = 1
    assert "split-group-buildings" not in {v.invariant for v in check_state(cfg, s, None)}
    prop(s, 1)["houses"] = 2
    assert "split-group-buildings" in {v.invariant for v in check_state(cfg, s, None)}


def test_house_supply_counts_board_plus_bank():
    from verify.spec.ruleset import Ruleset  # noqa: F401  (only the config matters)
    r = fallback_ruleset()
    from dataclasses import replace
    from verify.spec.ruleset import Entry
    entries = {"building.house_supply": Entry("building.house_supply", "assumed", 32, reason="t")}
    cfg32 = EngineConfig.from_ruleset(replace(r, entries=entries))
    s = opening(cfg32, houses=32)
    for sq in (1, 3):
        prop(s, sq)["owner"] = 0
        prop(s, sq)["houses"] = 1
    assert [v.invariant for v in check_state(cfg32, s, ["house-supply"])] == ["house-supply"]
    s["bank"]["houses"] = 30
    assert check_state(cfg32, s, ["house-supply"]) == []


def test_money_conservation_and_bankruptcy_transfer_as_steps(cfg):
    before = opening(cfg)
    prop(before, 1)["owner"] = 0
    prop(before, 3)["owner"] = 0
    prop(before, 3)["mortgaged"] = True
    after = copy.deepcopy(before)
    after["players"][0].update(cash=0, bankrupt=True)
    after["players"][1]["cash"] += 1500
    prop(after, 1)["owner"] = 1
    prop(after, 3)["owner"] = 1
    act = {"kind": "bankrupt", "player": 0, "creditor": 1}
    assert check_step(cfg, before, after, act, None) == []
    dropped = copy.deepcopy(after)
    prop(dropped, 3)["owner"] = 0        # the mortgaged street stays with the bankrupt: it vanished
    assert [v.invariant for v in check_step(cfg, before, dropped, act, None)] == ["bankruptcy-transfer"]
    assert [v.invariant for v in check_state(cfg, dropped, ["single-owner"])] == ["single-owner"]
    rent = copy.deepcopy(before)
    rent["players"][1]["cash"] -= 4
    rent["players"][0]["cash"] += 4
    assert check_step(cfg, before, rent, {"kind": "pay_rent", "player": 1}, None) == []
    rent["players"][0]["cash"] += 4     # the owner is paid twice: money from nowhere
    assert [v.invariant for v in check_step(cfg, before, rent, {"kind": "pay_rent"}, None)] == \
        ["money-conservation"]


def test_unknown_promise_is_e013():
    from verify.invariants import by_id
    with pytest.raises(VerifyError) as exc:
        by_id(["even-built"])
    assert exc.value.code == "E013" and "even-build" in str(exc.value)


def test_bad_name_is_e014_with_line(tmp_path):
    f = tmp_path / "inv.yaml"
    f.write_text("invariants:\n  - id: x\n    title: t\n    kind: state\n"
                 "    expr: all(p.money >= 0 for p in players)\n")
    with pytest.raises(VerifyError) as exc:
        load_invariants(f)
    assert exc.value.code == "E014" and "inv.yaml:5" in str(exc.value) and "money" in str(exc.value)
    f.write_text("invariants:\n  - id: x\n    title: t\n    kind: state\n    expr: old(pot) == pot\n")
    with pytest.raises(VerifyError) as exc:
        load_invariants(f)
    assert exc.value.code == "E014"


@pytest.mark.parametrize("expr,why", [("old(sum(p.before.cash for p in players)) == 0", "before"),
                                      ("old(action.player) == 0", "not the action")])
def test_old_reads_only_the_state_before(tmp_path, expr, why):
    """Inside old(...) there is no action and no earlier state: the loader says so (E014)."""
    f = tmp_path / "inv.yaml"
    f.write_text(f"invariants:\n  - id: x\n    title: t\n    kind: step\n    expr: {expr}\n")
    with pytest.raises(VerifyError) as exc:
        load_invariants(f)
    assert exc.value.code == "E014" and why in str(exc.value)
    f.write_text("invariants:\n  - id: x\n    title: t\n    kind: step\n"
                 "    expr: all(p.before.cash >= 0 for p in players) and old(pot) >= 0\n")
    assert load_invariants(f)[0].id == "x"


@pytest.mark.parametrize("kind,expr,what", [
    ("state", "all(s.colour == 0 for s in streets)", "a property has no field 'colour'"),
    ("state", "all(g.size == 0 for g in groups)", "a group has no field 'size'"),
    ("state", "bank.money >= 0", "the bank has no field 'money'"),
    ("step", "action.amount >= 0", "an action has no field 'amount'"),
    ("state", "all(p.before.cash >= 0 for p in players)", "a player has no field 'before'"),
    ("state", "pot.value >= 0", "'pot.value' has no fields")])
def test_each_record_names_the_field_it_lacks(tmp_path, kind, expr, what):
    """Every record type of the view refuses an unknown field, naming the record and the field
    (``.before`` exists only in a step invariant)."""
    f = tmp_path / "inv.yaml"
    f.write_text(f"invariants:\n  - id: x\n    title: t\n    kind: {kind}\n    expr: {expr}\n")
    with pytest.raises(VerifyError) as exc:
        load_invariants(f)
    assert exc.value.code == "E014" and what in str(exc.value), str(exc.value)
