"""One semantics: the specialised engine of every bundled ruleset plays exactly the readable rules' games.

The specialised engine (``verify.engine.specialise``) is generated from the readable rules for one
config. Here both play the same seeded games of every bundled playable ruleset, with both bots, and
must end in the same state; a random walk through the step API must give the same legal actions,
states and events at every step; and the generated code must have left out what the config switches
off.
"""

from __future__ import annotations

import random

import pytest

from verify.config import EngineConfig
from verify.engine.engines import readable, rules_for, specialised
from verify.engine.policies import make_policies
from verify.engine.simulate import game_seed, play_game
from verify.engine.state import GameState
from verify.engine.step import apply_state, enumerate_actions, fill_random
from verify.spec import load_ruleset, registry


def playable() -> list[str]:
    """Every bundled ruleset the engine plays (an overlay on official; an open value at its fallback)."""
    reg = registry()
    names = [f"official+{rid}" if reg.resolve(rid).is_overlay else rid for rid in reg.bundled_ids()]
    return [n for n in names if not EngineConfig.from_ruleset(load_ruleset(n)).unplayable]


def _players(cfg: EngineConfig) -> int:
    n = max(cfg.setup.players_min, min(4, cfg.setup.players_max))
    if cfg.teams.enabled and n % cfg.teams.size:
        n += cfg.teams.size - n % cfg.teams.size
    return n


@pytest.mark.parametrize("rid", playable())
def test_the_specialised_engine_plays_the_readable_engines_games(rid):
    cfg = EngineConfig.from_ruleset(load_ruleset(rid))
    slow, fast = readable(cfg), specialised(cfg)
    assert fast.path == "specialised" and slow.path == "readable"
    n = _players(cfg)
    for policy in ("heuristic", "random"):
        for i in range(2):
            seed = game_seed(17, i)
            ends = []
            for engine in (slow, fast):
                seen: list[GameState] = []
                r = play_game(engine, make_policies(policy, n, "leave", seed), seed, 400,
                              observe=lambda g, seen=seen: seen[:1] or seen.append(g))
                ends.append((r.player_turns, r.rolls, r.winner, r.result, r.landings,
                             seen[0].to_json(engine.ownable)))
            assert ends[0] == ends[1], (rid, policy, seed)


@pytest.mark.parametrize("rid", ["official", "platform-classic", "official-speed-die", "platform-showdown"])
def test_the_step_api_answers_alike_on_both_engines(rid):
    """A random walk: the same legal actions, successor states and events at every step."""
    cfg = EngineConfig.from_ruleset(load_ruleset(rid))
    slow, fast = readable(cfg), specialised(cfg)
    rng = random.Random(5)
    g1 = slow.new_game(_players(cfg), random.Random(5))
    g2 = GameState.from_json(g1.to_json(slow.ownable), slow.ownable)
    for _ in range(300):
        if g1.phase == "over":
            break
        legal = enumerate_actions(slow, g1)
        assert legal == enumerate_actions(fast, g2)
        action = fill_random(cfg, g1, rng.choice(legal), rng)
        g1.events, g2.events = [], []
        apply_state(slow, g1, action)
        apply_state(fast, g2, action)
        assert g1.events == g2.events
        assert g1.to_json(slow.ownable) == g2.to_json(fast.ownable)


def test_what_a_ruleset_switches_off_is_not_in_its_engine():
    """official has no speed die, no casino, no turn timer, no teams: the generated code does not test
    for them; the speed-die ruleset's does."""
    official = specialised(EngineConfig.from_ruleset(load_ruleset("official"))).source.text
    speed = specialised(EngineConfig.from_ruleset(load_ruleset("official-speed-die"))).source.text
    roll = official.split("\ndef roll(", 1)[1].split("\ndef ", 1)[0]
    assert "sp = dice[2]" in speed and "sp = dice[2]" not in roll
    assert "cfg" not in official and ".speed_die" not in official and ".movement" not in official
    assert "team" not in official.split("\ndef rent(", 1)[1].split("\ndef ", 1)[0]


def test_rules_for_gives_the_specialised_engine_unless_asked(monkeypatch):
    cfg = EngineConfig.from_ruleset(load_ruleset("official-short"))
    assert rules_for(cfg).path == "specialised"
    assert rules_for(cfg, "readable").path == "readable"
    monkeypatch.setenv("VERIFY_ENGINE", "readable")
    assert rules_for(cfg).path == "readable"
