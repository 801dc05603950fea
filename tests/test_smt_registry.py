"""The SMT model's transitions speak the engine's vocabulary, and every engine action is accounted for.

This test stands above both readings of the rules: the engine knows nothing of the SMT model, and the
SMT model names the engine's actions and steps only through ``verify.vocabulary``. An engine action
that no transition models and that ``NOT_MODELLED`` does not list, with its reason, fails here.
"""

from __future__ import annotations

import warnings

import pytest

from verify import vocabulary as V
from verify.engine.actions import ACTIONS as ENGINE_ACTIONS
from verify.smt.transitions import (ALIASES, BY_NAME, NOT_MODELLED, TRANSITIONS, DeprecatedName, canonical,
                                    modelling)


def test_every_engine_action_is_modelled_or_listed_with_its_reason():
    modelled = {a for t in TRANSITIONS for a in t.models}
    missing = [a for a in ENGINE_ACTIONS if a not in modelled and not NOT_MODELLED.get(a)]
    assert missing == [], f"engine actions neither modelled nor listed as not modelled: {missing}"
    both = sorted(modelled & set(NOT_MODELLED))
    assert both == [], f"modelled and listed as not modelled: {both}"


def test_every_step_and_card_effect_is_modelled_or_listed_with_its_reason():
    steps = {t.step for t in TRANSITIONS if t.step}
    effects = {t.effect for t in TRANSITIONS if t.effect}
    assert [s for s in V.STEPS if s not in steps and not NOT_MODELLED.get(s)] == []
    assert [e for e in V.CARD_EFFECTS if e not in effects and not NOT_MODELLED.get(e)] == []
    assert not (steps | effects) & set(NOT_MODELLED)
    assert set(NOT_MODELLED) <= set(V.ACTIONS) | set(V.STEPS) | set(V.CARD_EFFECTS), "a stale entry"


def test_a_transition_names_what_it_models_in_the_engine_vocabulary():
    for t in TRANSITIONS:
        assert t.models and set(t.models) <= set(ENGINE_ACTIONS), t.name
        assert t.step is None or t.step in V.STEPS, t.name
        assert t.effect is None or (t.step == "card" and t.effect in V.CARD_EFFECTS), t.name
        if t.step is None:             # a whole action: named after it
            assert t.models == (t.name,), t.name
        else:                          # a step: named after it (or after the action it is a step of)
            assert t.name == t.step or t.name.startswith((t.step + "_", t.models[0] + "_")), t.name
    assert len(BY_NAME) == len(TRANSITIONS) == 25


def test_a_landing_step_happens_inside_an_action_that_moves_a_token():
    for t in TRANSITIONS:
        if t.step in ("rent", "card", "tax", "free_parking"):
            assert all(ENGINE_ACTIONS[a].moves for a in t.models if a not in ("claim_rent", "pay_tax")), t.name


def test_every_transition_has_an_example():
    assert [t.name for t in TRANSITIONS if t.example is None] == []


def test_modelling_finds_the_transitions_of_an_action_a_step_or_an_effect():
    assert [t.name for t in modelling("bankrupt")] == ["bankrupt_to_player", "bankrupt_to_bank"]
    assert [t.name for t in modelling("rent")] == ["rent_street", "rent_station", "rent_utility"]
    assert [t.name for t in modelling("destroy_building")] == ["card_destroy_building"]
    assert [t.name for t in modelling("bank")] == ["card_bank"]      # every card effect that moves assets
    assert modelling("pay_fine") == ()


def test_a_former_name_still_works_with_a_deprecation_notice():
    assert ALIASES["break-down-hotel"] == "sell_hotel" and ALIASES["mortgage-expiry"] == "mortgage_expired"
    assert len(ALIASES) == 18 and not set(ALIASES) & set(BY_NAME)
    with pytest.warns(DeprecatedName, match="'build-house' is deprecated: it is 'build_house' now"):
        assert canonical("build-house") == "build_house"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert canonical("build_house") == "build_house"       # a name now: no notice
    with pytest.raises(KeyError):
        canonical("build-castle")


def test_verify_check_takes_a_former_action_name_and_says_it_is_deprecated():
    from click.testing import CliRunner

    from verify.cli import main
    res = CliRunner().invoke(main, ["check", "official", "--action", "sell-group", "--jobs", "1", "--json"])
    assert "--action sell-group is deprecated: the action is called sell_group now" in res.stderr
    import json
    rows = json.loads(res.stdout)["results"]
    assert rows and {r["action"] for r in rows if not r["invariant"].startswith("constraint:")} == {"sell_group"}


def test_a_saved_check_with_former_action_names_is_read_under_the_names_now():
    from verify.smt.verdict import results_from_json
    doc = {"results": [
        {"ruleset": "official", "invariant": "even-build", "action": "break-down-hotel", "promised": True,
         "verdict": "VIOLATED", "counterexample": {"action": "break-down-hotel", "scenario": []}, "reason": "x"},
        {"ruleset": "official", "invariant": "bounded:bankruptcy-reachable", "action": "build-house|bankrupt-to-player",
         "promised": True, "verdict": "PROVED", "counterexample": None, "reason": None}]}
    with pytest.warns(DeprecatedName) as notes:
        rows = results_from_json(doc)
    assert [r["action"] for r in rows] == ["sell_hotel", "build_house|bankrupt_to_player"]
    assert rows[0]["counterexample"]["action"] == "sell_hotel"
    assert sorted(n.message.old for n in notes) == ["bankrupt-to-player", "break-down-hotel", "build-house"]
    assert doc["results"][0]["action"] == "break-down-hotel"          # the document itself is left alone
