"""Engine and SMT model agree: same verdict on every action, and every engine successor is the SMT's.

States are generated to satisfy the invariants (even buildings on whole,
unmortgaged groups, the bank's stock consistent, at most one holder per
jail card); actions are drawn both legal and illegal. For each, the engine
(``verify.engine.step.apply``) accepts exactly when the SMT guard allows,
and the engine's successor has exactly the owners, buildings, mortgages,
cash, cards and bank stock the SMT transition gives.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verify.config import EngineConfig
from verify.engine.step import IllegalAction, apply, new_game
from verify.errors import GameError
from verify.invariants import check_state
from verify.smt.model import Model
from verify.smt.oracle import judge, state_snapshot
from verify.spec import load_ruleset

#: rulesets the default run compares (modest); the slow run takes every bundled one
DEFAULT_RULESETS = ["official", "online-vn", "platform-teams", "classic-pl"]
def _world(rid):
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    players = max(3, cfg.setup.players_min)
    return cfg, Model.from_config(cfg), new_game(cfg, players=players, seed=7), r.promised(), players


_WORLDS: dict = {}


def world_of(rid):
    if rid not in _WORLDS:
        _WORLDS[rid] = _world(rid)
    return _WORLDS[rid]


@pytest.fixture(scope="module")
def world():
    return world_of("official")


def random_state(cfg, base, rnd, players=3):
    """A canonical state that satisfies the invariants, built on the engine's own opening state."""
    s = copy.deepcopy(base)
    props = {p["square"]: p for p in s["properties"]}
    b = cfg.building
    top = b.hotel_threshold + 1              # a hotel's level (one above the houses it needs)
    big = 10 ** 6                            # an unlimited supply
    stock_h = (big if b.house_supply is None else b.house_supply) - players   # no shortage auctions
    stock_t = (big if b.hotel_supply is None else b.hotel_supply) - players
    for grp in cfg.board.groups:
        squares = list(grp.squares)
        if rnd.random() < 0.6:               # one owner for the whole group: it may be built on
            owner = rnd.randrange(players)
            for sq in squares:
                props[sq]["owner"] = owner
            if grp.kind == "street" and rnd.random() < 0.6:
                low = rnd.randint(0, top)
                levels = [min(top, low + (rnd.random() < 0.5)) for _ in squares]
                need_h = sum(lv for lv in levels if lv < top)
                need_t = sum(1 for lv in levels if lv == top)
                if need_h <= stock_h and need_t <= stock_t:
                    stock_h -= need_h
                    stock_t -= need_t
                    for sq, lv in zip(squares, levels):
                        props[sq]["houses"], props[sq]["hotel"] = (0, True) if lv == top else (lv, False)
        else:
            for sq in squares:
                props[sq]["owner"] = rnd.choice([None, None] + list(range(players)))
        built = any(props[q]["houses"] or props[q]["hotel"] for q in squares)
        for sq in squares:
            if props[sq]["owner"] is not None and not built:
                props[sq]["mortgaged"] = rnd.random() < 0.3
    s["bank"]["houses"] = None if b.house_supply is None else stock_h + players
    s["bank"]["hotels"] = None if b.hotel_supply is None else stock_t + players
    for p in s["players"]:
        p["cash"] = rnd.choice([0, 10, 50, 100, 150, 200, 300, 500, 1000, 2500, rnd.randint(0, 3000)])
        p["jail_cards"] = []
    for deck in ("chance", "chest"):
        if f"{deck}-jail-free" not in (base.get("decks") or {}).get(deck, []):
            continue                         # this ruleset's deck has no such card
        holder = rnd.choice([None] + list(range(players)))
        if holder is not None:
            s["players"][holder]["jail_cards"].append(deck)
            s["decks"][deck] = [c for c in s["decks"][deck] if c != f"{deck}-jail-free"]
    return s


def random_action(cfg, state, rnd, players=3):
    """An action on this state: mostly by the owner of the deed it names (so that many are legal)."""
    owners = {p["square"]: p["owner"] for p in state["properties"]}
    owned = [sq for sq, o in owners.items() if o is not None] or [d.square for d in cfg.board.deeds]
    kind = rnd.choice(["build_house", "build_hotel", "sell_house", "sell_hotel", "mortgage", "unmortgage",
                       "sell_group", "trade", "trade", "surrender", "bankrupt", "bankrupt"])
    if kind == "bankrupt":     # an open debt the debtor may (or may not) be unable to raise
        debtor = rnd.randrange(players)
        creditor = rnd.choice([-1] + [q for q in range(players) if q != debtor])
        amount = rnd.choice([1, 50, 200, 600, 1500, 3000, 8000, rnd.randint(1, 5000)])
        state["phase"] = "debt"
        state["pending"] = {"debtor": debtor, "creditor": creditor, "amount": amount, "kind": "rent"}
        state["queue"]["debts"] = [[debtor, creditor, amount, amount, "rent"]]
        return {"type": "bankrupt", "seat": debtor}
    whole = [sq for g in cfg.board.groups if g.kind == "street" and owners[g.squares[0]] is not None
             and len({owners[q] for q in g.squares}) == 1 for sq in g.squares]
    building = kind in ("build_house", "build_hotel", "sell_house", "sell_hotel", "sell_group")
    sq = rnd.choice(whole if whole and building and rnd.random() < 0.85 else owned)
    who = owners[sq] if owners[sq] is not None and rnd.random() < 0.8 else rnd.randrange(players)
    if kind == "sell_group":
        grp = next(i for i, g in enumerate(cfg.board.groups) if sq in g.squares)
        return {"type": kind, "seat": who, "group": grp}
    if kind == "surrender":
        return {"type": kind, "seat": who}
    if kind != "trade":
        return {"type": kind, "seat": who, "square": sq}
    other = rnd.randrange(players)
    theirs = [q for q, o in owners.items() if o == other]
    give = {"squares": [sq] if rnd.random() < 0.7 else []}
    take = {"squares": [rnd.choice(theirs)] if theirs and rnd.random() < 0.6 else []}
    cash = rnd.choice([0, 0, rnd.randint(-400, 400)])
    if cash > 0:
        give["cash"] = cash
    elif cash < 0:
        take["cash"] = -cash
    for side in (give, take):
        if rnd.random() < 0.25:
            side["cards"] = [rnd.choice(["chance", "chest"])]
    return {"type": "trade", "seat": who, "with": other, "give": give, "take": take}


def _engine(cfg, state, action):
    # The SMT model leaves turn timing out (management only in one's own turn, before rolling):
    # the acting player is the current one, before rolling, so timing never decides.
    if state.get("phase") != "debt":
        state = dict(state, current=action.get("seat", 0), phase="pre_roll")
    try:
        after, events = apply(cfg, state, action)
    except IllegalAction:
        return False, None
    if any(e.get("event") == "auction" and e.get("item") in ("house", "hotel") for e in events):
        return True, SHORTAGE_AUCTION
    return True, after


#: the engine put a legal build to a shortage auction: the SMT model's build is one step (the
#: bounded check covers the shortage itself), so only the guards are compared
SHORTAGE_AUCTION = "shortage auction"


def _agree(rid, data):
    cfg, m, base, promised, players = world_of(rid)
    rnd = data.draw(st.randoms(use_true_random=False))
    state = random_state(cfg, base, rnd, players)
    assert check_state(cfg, state, promised) == [], "the generator must give invariant states"
    action = random_action(cfg, state, rnd, players)
    try:
        smt_ok, smt_after = judge(m, state, action)
    except GameError:          # an action the SMT model does not express (e.g. 2 deeds one way)
        return
    eng_ok, eng_after = _engine(cfg, state, action)
    assert eng_ok == smt_ok, f"{rid}: engine {'accepts' if eng_ok else 'refuses'} {action} but the SMT " \
                             f"guard {'allows' if smt_ok else 'refuses'} it"
    if eng_ok and eng_after is not SHORTAGE_AUCTION:
        got = state_snapshot(m, eng_after)
        for key in smt_after:
            assert got[key] == smt_after[key], f"{rid} {action}: {key} engine {got[key]} != SMT {smt_after[key]}"


@pytest.mark.parametrize("rid", DEFAULT_RULESETS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_engine_accepts_exactly_what_the_smt_guard_allows(rid, data):
    _agree(rid, data)


def _bundled():
    from verify.smt.run import default_names
    return default_names()


@pytest.mark.slow
@pytest.mark.parametrize("rid", _bundled())
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_engine_and_smt_agree_on_every_bundled_ruleset(rid, data):
    _agree(rid, data)


def test_a_legal_build_is_judged_alike(world):
    """A hand-made case both sides must accept, with the same successor."""
    cfg, m, base, _, _ = world
    s = copy.deepcopy(base)
    for p in s["properties"]:
        if p["square"] in (37, 39):
            p["owner"] = 1
    action = {"type": "build_house", "seat": 1, "square": 39}
    ok, after = judge(m, s, action)
    eng_ok, eng_after = _engine(cfg, s, action)
    assert ok and eng_ok
    snap = state_snapshot(m, eng_after)
    assert after == snap and snap["houses"][39] == 1 and snap["cash"][1] == 1500 - 200
    assert snap["bank"][0] == 31


def test_an_uneven_build_is_refused_by_both(world):
    cfg, m, base, _, _ = world
    s = copy.deepcopy(base)
    for p in s["properties"]:
        if p["square"] in (37, 39):
            p["owner"] = 1
        if p["square"] == 39:
            p["houses"] = 1
    s["bank"]["houses"] = 31
    action = {"type": "build_house", "seat": 1, "square": 39}
    assert judge(m, s, action) == (False, None)
    assert _engine(cfg, s, action) == (False, None)


@pytest.mark.slow
def test_short_game_hotel_on_three_houses_is_judged_alike():
    """Official short game: a hotel may go on a street once every street of the group has 3 houses.

    The SMT model follows the rulebook (build on a street no other street of the group is below);
    this test fails while the engine asks the group-mates for the most houses (4) instead.
    """
    cfg, m, base, _, _ = world_of("official-short")
    s = copy.deepcopy(base)
    for p in s["properties"]:
        if p["square"] in (37, 39):
            p["owner"], p["houses"] = 1, 3
    s["bank"]["houses"] -= 6
    action = {"type": "build_hotel", "seat": 1, "square": 39}
    smt_ok, _ = judge(m, s, action)
    eng_ok, _ = _engine(cfg, s, action)
    assert smt_ok, "the short game allows a hotel on 3 houses when the whole group has 3"
    assert eng_ok == smt_ok
