"""The USC/ISI GNOME simulator under the conformance harness (issue 9 item 8).

The adapter (verify/conform/adapters/gnome*.py) must hold every state it loads, drive GNOME's own
rule code, and the harness must find GNOME's named deviations from ``official``: from fixed seeds
(the runs below) and in the evidence scenarios of docs/evidence/gnome/ that the README shows.
GNOME is installed by CI (.ci/run); without it these tests are skipped with the reason.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("monopoly_simulator", reason="GNOME (monopoly-simulator-test) is not installed; "
                    "pip install --no-deps --ignore-requires-python --only-binary numpy monopoly-simulator-test==0.0.9 numpy xlsxwriter")

from verify.conform import Illegal  # noqa: E402
from verify.conform.adapters.gnome import (ACTIONS, COMPARE, GnomeAuctionEngine, GnomeEngine,  # noqa: E402
                                           GnomeManagementEngine, auction_history)
from verify.conform.oracle import diff_lines  # noqa: E402
from verify.conform.harness import load_target, plan, replay, run, run_chunk  # noqa: E402
from verify.conform.transport import EngineSpec  # noqa: E402
from verify.engine.step import apply, new_game  # noqa: E402
from verify.errors import AdapterError  # noqa: E402

EVIDENCE = Path(__file__).resolve().parent.parent / "docs" / "evidence" / "gnome"
#: evidence file -> (rule, step, what the violation must say)
NAMED = {
    "no-doubles.json": ("successor", 1, "players[0].doubles: ruleset 1, engine 0"),
    "hotel-sold-whole.json": ("even-build", 1, "houses: ruleset 4, engine 0"),
    "auction-in-rotation.json": ("legality", 1, "GNOME's auction asks seat 1 now"),
    "build-with-exact-cash.json": ("legality", 1, "cannot afford this improvement"),
    "unmortgage-after-roll.json": ("legality", 2, "free_mortgage is not among GNOME's allowable post-roll"),
    "fractional-interest.json": ("successor", 1, "engine 945.5"),
    "empty-trade.json": ("legality", 1, "no gifts or loans: both sides give something"),
    "no-debt-in-progress.json": ("protocol", 0, "no counterpart of phase 'debt'"),
    "rent-at-once.json": ("successor", 1, "players[1].cash: ruleset 1500, engine 1504"),
    "back-three-passes-go.json": ("successor", 1, "players[0].cash: ruleset 1300, engine 1700"),
    "nearest-railroad-backwards.json": ("successor", 1, "players[0].position: ruleset 15, engine 5"),
    "jail-one-turn.json": ("successor", 1, "players[0].in_jail: ruleset true, engine false"),
    "go-to-jail-turn-goes-on.json": ("successor", 1, "current: ruleset 1, engine 0"),
    "hospital-fee.json": ("successor", 1, "players[0].cash: ruleset 1400, engine 1450"),
    "cash-goes-negative.json": ("cash-nonnegative", 1, "cash=-1900"),
    "bid-above-cash.json": ("legality", 1, "a bid cannot exceed the bidder's cash"),
    "buy-without-cash.json": ("legality", 2, "phase: before \"buy\", engine \"auction\""),
    "trade-mortgaged-deed.json": ("legality", 1, "Reading Railroad is mortgaged"),
    "hotel-sale-blocked.json": ("legality", 1, "All same-colored properties must stay uniformly improved"),
    "trade-after-roll.json": ("legality", 1, "make_trade_offer is not among GNOME's allowable post-roll"),
}


@pytest.fixture(scope="module")
def target():
    return load_target("official")


def _text(v: dict) -> str:
    return json.dumps(v, ensure_ascii=False) + "\n" + "\n".join(v.get("diff") or [])


def test_hello_declares_what_gnome_can_be_driven_through():
    h = GnomeEngine().hello()
    assert h["protocol"] == 1 and h["version"] == "0.0.9" and "GNOME" in h["engine"]
    assert h["actions"] == list(ACTIONS) and h["compare"] == list(COMPARE)
    assert not {"pay", "bankrupt", "claim_rent", "lift_mortgage", "sell_group"} & set(h["actions"])
    assert GnomeManagementEngine().hello()["actions"] == list(GnomeManagementEngine.actions)
    assert set(GnomeAuctionEngine.actions) < set(ACTIONS)


def test_gnome_holds_the_state_it_loads(target):
    """Loaded, GNOME's board reads back as the same state on every compared key (the harness checks
    this before every scenario); a refused action leaves it unchanged."""
    cfg, _ = target
    state = new_game(cfg, 4, 3)
    props = {p["square"]: p for p in state["properties"]}
    for s in (6, 8, 9):
        props[s].update(owner=1, houses=2)
    props[5].update(owner=2, mortgaged=True)
    state["bank"]["houses"] -= 6
    state["players"][3].update(in_jail=True, position=10, jail_turns=1, jail_cards=["chest"])
    state["decks"]["chest"].remove("chest-jail-free")
    e = GnomeEngine()
    e.load(cfg.to_json(), state)
    held = e.state()
    assert diff_lines(state, held, COMPARE) == []
    assert held["players"][3]["jail_cards"] == ["chest"] and held["properties"][2]["mortgaged"]
    with pytest.raises(Illegal):
        e.apply({"type": "build_house", "seat": 1, "square": 12})
    assert e.state() == held


def test_an_auction_is_loaded_by_bidding_gnome_through_to_the_standing(target):
    cfg, _ = target
    state = new_game(cfg, 3, 1)
    for a in ({"type": "roll", "seat": 0, "dice": [1, 2]}, {"type": "decline", "seat": 0},
              {"type": "bid", "seat": 2, "amount": 5}):
        state, _ = apply(cfg, state, a)
    e = GnomeEngine()
    e.load(cfg.to_json(), state)
    got = e.state()
    assert got["phase"] == "auction"
    assert {k: got["pending"][k] for k in ("square", "high", "leader")} == {"square": 3, "high": 5, "leader": 2}
    assert sorted(got["pending"]["bidders"]) == sorted(state["pending"]["bidders"])
    assert auction_history([0, 1, 2], {0, 1, 2}, -1, 0, first=1) == (1, [])
    assert auction_history([0, 1, 2], {0, 2}, 2, 1, first=1) == (1, [0, 1])
    assert auction_history([0, 1, 2], {2}, 2, 5) is None          # GNOME ends an auction with one bidder left


def test_a_state_gnome_cannot_hold_is_refused_with_the_reason(target):
    cfg, _ = target
    state = new_game(cfg, 2, 1)
    state.update(phase="debt", pending={"debtor": 0, "creditor": -1, "amount": 5000, "kind": "tax"})
    with pytest.raises(AdapterError, match="phase 'debt'"):
        GnomeEngine().load(cfg.to_json(), state)


def test_without_gnome_the_error_says_how_to_install_it(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "monopoly_simulator", None)
    with pytest.raises(AdapterError, match="pip install --no-deps --ignore-requires-python --only-binary numpy monopoly-simulator-test"):
        GnomeEngine()


def test_a_run_finds_that_gnome_has_no_doubles_rule():
    result = run(EngineSpec(target=GnomeEngine), "official", seed=0, examples=25)
    found = [d for d in result.violations if d["violation"]["rule"] == "successor"]
    assert found, result.to_json()
    doc = found[0]
    assert doc["actions"][-1]["type"] == "roll"
    dice = doc["actions"][-1]["dice"]
    assert dice[0] == dice[1]
    assert 'phase: ruleset "pre_roll", engine "post_roll"' in doc["violation"]["diff"]


@pytest.mark.parametrize("name", sorted(NAMED))
def test_evidence_scenario_shows_its_deviation(name):
    rule, step, says = NAMED[name]
    doc = json.loads((EVIDENCE / name).read_text(encoding="utf-8"))
    assert doc["violation"]["rule"] == rule
    again = replay(EngineSpec(target=GnomeEngine), doc)
    assert len(again.violations) == 1
    v = again.violations[0]["violation"]
    assert (v["rule"], v["step"]) == (rule, step)
    assert says in _text(v), _text(v)


def test_every_evidence_file_is_named():
    assert sorted(p.name for p in EVIDENCE.glob("*.json")) == sorted(NAMED)


def _found(engine, seed: int, examples: int) -> list[tuple[str, str | None, str]]:
    out = []
    for chunk in plan(EngineSpec(target=engine), "official", seed, examples):
        for doc in run_chunk(chunk)["violations"]:
            v = doc["violation"]
            kind = doc["actions"][v["step"] - 1]["type"] if v["step"] else None
            out.append((v["rule"], kind, _text(v)))
    return out


@pytest.mark.slow
def test_focused_runs_find_the_named_management_and_auction_deviations():
    found = _found(GnomeManagementEngine, 0, 200)
    assert any(r == "legality" and k == "build_house" and "cannot afford" in t for r, k, t in found), found
    assert any(r == "legality" and k == "trade" for r, k, t in found), found
    found = _found(GnomeAuctionEngine, 0, 200)
    assert any(r == "legality" and k in ("bid", "pass") and "bidders speak in turn" in t for r, k, t in found), found
