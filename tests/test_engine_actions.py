"""The action registry: every action declared once, and everything that lists actions generated from it.

The step API's dispatch, ``legal_actions``, the action JSON Schema and the docs' action table come from
``verify.engine.actions``; every refusal of a guard is structural or names the catalogue parameters it
rests on; random fields are supplied by the action or derived from the state's seed as before.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from verify.config import EngineConfig
from verify.engine.actions import ACTION_TYPES, ACTIONS, STEP_RANDOM, random_fields, refusals_of
from verify.engine.bound import family
from verify.engine.engines import readable, rule_functions
from verify.engine.listing import action_schema, markdown_table
from verify.engine.policies import make_policies
from verify.engine.reasons import REASONS, STRUCTURAL, Reason
from verify.engine.rules import FAMILIES, IllegalAction
from verify.engine.simulate import Recorder, play_game
from verify.engine.state import GameState
from verify.engine.step import apply, apply_state, fill_random, legal_actions, new_game
from verify.errors import GameError
from verify.spec import load_catalogue, load_ruleset

ROOT = Path(__file__).resolve().parent.parent


def _config(rid: str) -> EngineConfig:
    return EngineConfig.from_ruleset(load_ruleset(rid))


# ---------------------------------------------------------------------------- one declaration per action
def test_every_action_is_declared_once_with_a_guard_and_an_effect_of_the_rules():
    functions = rule_functions()
    assert len(ACTION_TYPES) == len(set(ACTION_TYPES))
    assert set(ACTION_TYPES) == {
        "roll", "end_turn", "buy", "decline", "bid", "pass", "pay", "bankrupt", "pay_tax", "casino_bet",
        "casino_decline", "bus", "move_to", "stay", "timeout", "pay_fine", "use_card", "build_house", "build_hotel",
        "sell_house", "sell_hotel", "mortgage", "unmortgage", "lift_mortgage", "auction_mortgaged", "sell_group",
        "trade", "surrender", "claim_rent"}
    for a in ACTIONS.values():
        assert functions[f"{family(a.guard)}.{a.guard.__name__}"] is a.guard
        assert a.guard.__name__.startswith("why_not_")
        assert functions[f"{family(a.effect)}.{a.effect.__name__}"] is a.effect
        names = [f.name for f in a.all_fields]
        assert len(names) == len(set(names)) and "type" not in names and "seat" not in names
        assert a.doc and a.phases and a.actor


def test_the_registry_says_which_fields_are_random():
    assert [f.name for f in random_fields("roll")] == ["dice", "card_dice", "reshuffle"]
    assert [f.name for f in random_fields("casino_bet")] == ["die", "jackpot"]
    assert random_fields("mortgage") == ()
    assert {f.name for f in STEP_RANDOM} == {"card_dice", "reshuffle"}
    assert all(f.optional for f in STEP_RANDOM)


def test_the_action_schema_is_generated_from_the_registry():
    shipped = json.loads((ROOT / "verify" / "schemas" / "action.schema.json").read_text(encoding="utf-8"))
    assert shipped == action_schema(), "regenerate: python -m verify.engine.listing --schema"
    assert [v["properties"]["type"]["const"] for v in shipped["oneOf"]] == list(ACTION_TYPES)


def test_actions_the_engine_applies_validate_against_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(action_schema())
    cfg = _config("official")
    state, rng = new_game(cfg, 3, 5), random.Random(5)
    for _ in range(150):
        acts = legal_actions(cfg, state)
        for a in acts:
            validator.validate(fill_random(cfg, state, a, rng))
        state, _ = apply(cfg, state, fill_random(cfg, state, rng.choice(acts), rng))
    bad = {"type": "build_house", "square": "x"}
    assert not validator.is_valid(bad)


def test_the_docs_action_table_is_current():
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    begin, end = "<!-- actions:begin (python -m verify.engine.listing) -->\n", "<!-- actions:end -->"
    assert begin in text and end in text
    assert text.split(begin, 1)[1].split(end, 1)[0] == markdown_table()


# ---------------------------------------------------------------------------- what a refusal rests on
def test_every_refusal_is_structural_or_names_its_parameters():
    catalogue = load_catalogue()
    assert len(REASONS) > 60
    for r in REASONS:
        if r.structural:
            assert r.basis in STRUCTURAL and not r.params, r
        else:
            assert r.basis == "rule" and r.params, r
            unknown = [p for p in r.params if p not in catalogue]
            assert not unknown, (r, unknown)


def test_every_parameter_an_action_is_refused_on_is_among_what_it_reads():
    catalogue = load_catalogue()
    for a in ACTIONS.values():
        assert not [p for p in a.reads if p not in catalogue], a.name
        for r in refusals_of(a):
            assert set(r.params) <= set(a.reads), (a.name, str(r), set(r.params) - set(a.reads))


def test_guards_return_only_declared_refusals_and_accept_only_in_their_phases():
    """Along random games of several rulesets, every guard asked about every enumerable value (legal or not)
    answers None or a Reason declared in REASONS, and accepts only in a phase its action declares."""
    declared = {id(r) for r in REASONS}
    for rid in ("official", "platform-classic", "official-speed-die", "online-vn"):
        cfg = _config(rid)
        e = readable(cfg)
        rng = random.Random(3)
        state = new_game(cfg, 4, 3)
        for _ in range(120):
            g = GameState.from_json(state, e.t.ownable)
            if g.phase == "over":
                break
            for a in ACTIONS.values():
                guard = e.dispatch[a.name][0]
                for seat in range(g.n):
                    for args in _candidates(e, g, seat, a):
                        why = guard(g, seat, *args)
                        if why is None:
                            assert g.phase in a.phases, (rid, a.name, g.phase)
                        else:
                            assert isinstance(why, Reason), (a.name, why)
                            assert any(why.template == r.template and why.params == r.params
                                       for r in REASONS if id(r) in declared), why
            acts = legal_actions(cfg, state)
            state, _ = apply(cfg, state, fill_random(cfg, state, rng.choice(acts), rng))


def _candidates(e, g, seat, a):
    values = []
    for f in a.fields:
        if f.random and f.placeholder is not None:
            values.append([f.placeholder(e, g, seat)])
        elif f.values is not None:
            values.append(_values(e, g, seat, a, f) or ([0] if f.strict else [f.default]))
        elif f.name == "with":
            values.append([(seat + 1) % g.n])
        else:
            values.append([f.default])
    out = [[]]
    for vs in values:
        out = [o + [v] for o in out for v in vs[:40]]
    return out


def test_legal_actions_are_exactly_the_enumerable_actions_the_guards_accept():
    """Brute force over every seat and every value of every field (every square, every group) in every
    phase: the registry's enumeration (phases, actors, blocks, domains, preconditions) misses nothing and
    adds nothing."""
    for rid in ("official", "platform-classic", "official-speed-die"):
        cfg = _config(rid)
        e = readable(cfg)
        rng = random.Random(11)
        state = new_game(cfg, 4, 11)
        for _ in range(150):
            g = GameState.from_json(state, e.t.ownable)
            if g.phase == "over":
                break
            listed = {json.dumps(a, sort_keys=True) for a in legal_actions(cfg, state)}
            brute = set()
            for a in ACTIONS.values():
                if a.name == "trade":
                    continue
                for seat in range(g.n):
                    for args in _everything(e, g, seat, a):
                        if e.dispatch[a.name][0](g, seat, *args) is None:
                            shown = {f.name: v for f, v in zip(a.fields, args) if not f.random and f.values}
                            brute.add(json.dumps({"type": a.name, "seat": seat, **shown}, sort_keys=True))
            assert listed == brute, (rid, g.phase, listed ^ brute)
            state, _ = apply(cfg, state, fill_random(cfg, state, rng.choice(legal_actions(cfg, state)), rng))


def _everything(e, g, seat, a):
    """Every value of every field: squares 0..39, every group, the placeholder of a random field."""
    values = []
    for f in a.fields:
        if f.random:
            values.append([f.placeholder(e, g, seat)] if f.placeholder else [f.default])
        elif f.name == "square":
            values.append(list(range(40)))
        elif f.name == "group":
            values.append(list(range(len(e.t.groups))))
        elif f.values is not None:
            values.append(_values(e, g, seat, a, f))
        else:
            values.append([f.default])
    out = [[]]
    for vs in values:
        out = [o + [v] for o in out for v in vs]
    return out


#: values of fields whose domain reads the pending decision, tried outside their phase
OUTSIDE = {"amount": [1, 1000], "steps": [1, 3], "option": ["fixed", "percent"], "numbers": [[1]]}


def _values(e, g, seat, a, f):
    if g.phase not in a.phases and f.name in OUTSIDE:
        return OUTSIDE[f.name]
    return list(f.values(e, g, seat))


def test_a_refused_action_says_what_the_refusal_rests_on():
    cfg = _config("official")
    state = new_game(cfg, 2, 1)
    with pytest.raises(IllegalAction) as err:
        apply(cfg, state, {"type": "build_house", "seat": 0, "square": 39})
    assert err.value.reason.basis == "ownership"
    with pytest.raises(IllegalAction) as err:
        apply(cfg, state, {"type": "surrender", "seat": 0})
    assert err.value.reason.params == ("bankruptcy.surrender",)
    assert "players may not give up" in err.value.message


# ---------------------------------------------------------------------------- guards no ruleset states
def test_a_cash_for_cash_trade_is_no_longer_refused_but_a_gift_is():
    """No rulebook refuses a trade for moving no deed or card; a side that gives nothing is a gift
    (trade.loans: false)."""
    cfg = _config("official")
    state = new_game(cfg, 2, 1)
    after, _ = apply(cfg, state, {"type": "trade", "seat": 0, "with": 1, "give": {"cash": 30}, "take": {"cash": 10}})
    assert [p["cash"] for p in after["players"]] == [1480, 1520]
    with pytest.raises(IllegalAction) as err:
        apply(cfg, state, {"type": "trade", "seat": 0, "with": 1, "give": {}, "take": {}})
    assert err.value.reason.params == ("trade.loans",)


def test_a_player_may_give_up_during_an_auction():
    """platform-classic: "Играчи могу и добровољно да се предају" at any time, an auction included: the
    surrendering bidder leaves it, and a leading bid of theirs is withdrawn."""
    cfg = _config("platform-classic")
    state = new_game(cfg, 3, 2)
    state["current"] = 0
    state["players"][0].update(position=34, passed_go=True)
    state, _ = apply(cfg, state, {"type": "roll", "seat": 0, "dice": [1, 2]})      # Park Place
    assert state["phase"] == "buy"
    state, _ = apply(cfg, state, {"type": "decline", "seat": 0})
    assert state["phase"] == "auction"
    before = len(state["pending"]["bidders"])
    bidder = state["pending"]["bidders"][0]
    state, _ = apply(cfg, state, {"type": "bid", "seat": bidder, "amount": state["pending"]["min"]})
    state, _ = apply(cfg, state, {"type": "surrender", "seat": bidder})
    a = state["pending"]
    assert state["players"][bidder]["bankrupt"] and state["phase"] == "auction"
    assert bidder not in a["bidders"] and a["leader"] == -1 and a["high"] == 0 and len(a["bidders"]) == before - 1


# ---------------------------------------------------------------------------- random fields of a step
def _chance_state(cfg, top: str):
    state = new_game(cfg, 2, 1)
    state["decks"]["chance"].remove(top)
    state["decks"]["chance"].insert(0, top)
    state["players"][0]["position"] = 2            # Chance is 7: roll 2+3
    return state


def test_the_nearest_utility_cards_throw_is_a_field_of_the_action():
    cfg = _config("official")
    card = next(c for c in cfg.cards.chance if c.effect == "advance_nearest" and c.kind == "utility")
    state = _chance_state(cfg, card.id)
    for p in state["properties"]:
        if p["square"] == 12:
            p["owner"] = 1
    _, events = apply(cfg, state, {"type": "roll", "seat": 0, "dice": [2, 3], "card_dice": [6, 5]})
    assert {"event": "card_throw", "player": 0, "dice": [6, 5]} in events
    assert {"event": "rent_due", "payer": 0, "owner": 1, "square": 12, "amount": 10 * 11} in events
    _, events2 = apply(cfg, state, {"type": "roll", "seat": 0, "dice": [2, 3]})   # derived from the seed
    throw = next(e for e in events2 if e["event"] == "card_throw")["dice"]
    assert next(e for e in events2 if e["event"] == "rent_due")["amount"] == 10 * sum(throw)
    filled = fill_random(cfg, state, {"type": "roll", "seat": 0}, random.Random(1))
    assert len(filled["card_dice"]) == 2 and len(filled["dice"]) == 2


def test_a_reshuffle_order_is_a_field_of_the_action():
    cfg = _config("platform-classic")
    assert cfg.cards.return_policy == "reshuffle_when_empty"
    state = new_game(cfg, 2, 1)
    state["decks"]["chance"], state["discards"]["chance"] = [], sorted(c.id for c in cfg.cards.chance)
    state["current"] = 0
    state["players"][0]["position"] = cfg.board.chance_squares[0] - 5
    order = list(reversed(state["discards"]["chance"]))
    after, events = apply(cfg, state, {"type": "roll", "seat": 0, "dice": [2, 3], "reshuffle": {"chance": order}})
    drawn = next(e["card"] for e in events if e["event"] == "card")
    assert drawn == order[0] and after["shuffles"] == state["shuffles"] + 1
    assert {"event": "reshuffled", "deck": "chance", "order": order} in events
    with pytest.raises(GameError, match="reshuffle.chance must be an order"):
        apply(cfg, state, {"type": "roll", "seat": 0, "dice": [2, 3], "reshuffle": {"chance": order[1:]}})
    filled = fill_random(cfg, state, {"type": "roll", "seat": 0, "dice": [2, 3]}, random.Random(2))
    assert sorted(filled["reshuffle"]["chance"]) == sorted(order)
    again, events = apply(cfg, state, filled)
    assert next(e["card"] for e in events if e["event"] == "card") == filled["reshuffle"]["chance"][0]


def test_without_random_fields_the_step_is_still_a_function_of_state_and_action():
    cfg = _config("platform-classic")
    state = new_game(cfg, 2, 1)
    state["decks"]["chance"], state["discards"]["chance"] = [], [c.id for c in cfg.cards.chance]
    state["current"] = 0
    state["players"][0]["position"] = cfg.board.chance_squares[0] - 5
    a, _ = apply(cfg, state, {"type": "roll", "seat": 0, "dice": [2, 3]})
    b, _ = apply(cfg, state, {"type": "roll", "seat": 0, "dice": [2, 3]})
    assert a == b


# ---------------------------------------------------------------------------- one dispatch, every path
def test_the_fast_game_loop_and_the_step_api_play_the_same_games():
    """play_game's fast path calls the effects directly; a recorder sends every action through
    apply_state (the registry's dispatch): the same games."""
    cfg = _config("platform-classic")
    e = readable(cfg)
    for seed in (1, 2):
        fast = play_game(e, make_policies("random", 4, "leave", seed), seed, 300)

        class Through(Recorder):
            def step(self, rules, g, action):
                apply_state(rules, g, action)
        slow = play_game(e, make_policies("random", 4, "leave", seed), seed, 300, Through())
        assert (fast.player_turns, fast.winner, fast.landings) == (slow.player_turns, slow.winner, slow.landings)


def test_rule_families_share_only_tables_and_state():
    """No rule module keeps mutable module state: every module-level value is a constant, a function, a
    Reason, a module, or a class."""
    import types
    import typing
    for mod in FAMILIES:
        for name, v in vars(mod).items():
            if name.startswith("__") or name == "annotations" or getattr(typing, name, None) is v:
                continue        # (an annotation's name imported from typing: Final, Sequence)
            assert isinstance(v, (types.FunctionType, types.ModuleType, type, str, int, float, tuple, frozenset,
                                  Reason)) or v is None, (mod.__name__, name, type(v))


def test_a_rule_family_imports_only_the_families_before_it():
    """The families are layered (``verify.engine.rules``: the board's rules, the game's continuation, the
    actions that hand the game on): a family's imports name only families listed before it, so there is no
    import cycle among them, at load time or in a function."""
    import ast
    import inspect
    order = [mod.__name__.rsplit(".", 1)[1] for mod in FAMILIES]
    for k, mod in enumerate(FAMILIES):
        tree = ast.parse(inspect.getsource(mod))
        named = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 1
                 and node.module is None for alias in node.names}
        named |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 1
                  and node.module}
        families = named & set(order)
        assert families <= set(order[:k]), (order[k], sorted(families - set(order[:k])))
