"""Properties of the step API over random legal play (hypothesis): listed actions are accepted,
the state round-trips through JSON and its schema, and the same choices give the same game."""

from __future__ import annotations

import json
import random

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verify.engine import EngineConfig, apply, fill_random, legal_actions, new_game
from verify.engine.state import GameState
from verify.paths import schemas_dir
from verify.spec import load_ruleset

RULESETS = ["official", "platform-classic", "official-speed-die", "online-vn"]
_CFG = {rid: EngineConfig.from_ruleset(load_ruleset(rid)) for rid in RULESETS}
_VALIDATOR = jsonschema.Draft202012Validator(json.loads((schemas_dir() / "state.schema.json").read_text()))


def _play(cfg, seed: int, choices: list[int]) -> tuple[dict, list]:
    rng = random.Random(seed)
    n = min(max(4, cfg.setup.players_min), cfg.setup.players_max)
    state = new_game(cfg, n, seed)
    log = []
    for c in choices:
        acts = legal_actions(cfg, state)
        if not acts:
            break
        action = fill_random(cfg, state, acts[c % len(acts)], rng)
        state, events = apply(cfg, state, action)          # a listed action is never refused
        log.append((action, events))
    return state, log


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rid=st.sampled_from(RULESETS), seed=st.integers(0, 2**31),
       choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
def test_random_legal_play(rid, seed, choices):
    cfg = _CFG[rid]
    state, log = _play(cfg, seed, choices)
    _VALIDATOR.validate(state)
    assert GameState.from_json(state, cfg.board.ownable).to_json(cfg.board.ownable) == state
    again, log2 = _play(cfg, seed, choices)
    assert again == state and log2 == log
    assert all(p["cash"] >= 0 for p in state["players"]) or state["phase"] == "debt"
