"""One semantics: the compiled engine of every bundled ruleset plays exactly the readable rules' games.

The compiled engine (``verify.engine.native``) is the engine's own source files compiled by mypyc.
Here both builds play the same seeded games of every bundled playable ruleset, with both bots, and
must end in the same state; a random walk through the step API must give the same legal actions,
states and events at every step. The compiled build is required here (built once per source, in CI
at install): a build that cannot be loaded fails these tests rather than skipping them. A missing or
failed build elsewhere falls back to the readable modules and says so.
"""

from __future__ import annotations

import os
import random
import time

import pytest

from verify.config import EngineConfig
from verify.engine import engines, native
from verify.engine.engines import compiled, readable, rules_for
from verify.engine.policies import make_policies
from verify.engine.simulate import game_seed, play_game
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
def test_the_compiled_engine_plays_the_readable_engines_games(rid):
    cfg = EngineConfig.from_ruleset(load_ruleset(rid))
    slow, fast = readable(cfg), compiled(cfg)
    assert fast.path == "compiled" and slow.path == "readable"
    assert type(fast.t).__module__.startswith("_verify_engine_")      # really the compiled build
    n = _players(cfg)
    for policy in ("heuristic", "random"):
        for i in range(2):
            seed = game_seed(17, i)
            ends = []
            for engine in (slow, fast):
                seen: list = []
                r = play_game(engine, make_policies(policy, n, "leave", seed), seed, 400,
                              observe=lambda g, seen=seen, e=engine: seen[:1] or seen.append(e.to_json(g)))
                ends.append((r.player_turns, r.rolls, r.winner, r.result, r.landings, r.bankrupt, seen[0]))
            assert ends[0] == ends[1], (rid, policy, seed)


@pytest.mark.parametrize("rid", ["official", "platform-classic", "official-speed-die", "platform-showdown",
                                 "official@claim-counted-from-payer"])
def test_the_step_api_answers_alike_on_both_engines(rid):
    """A random walk: the same legal actions, successor states and events at every step."""
    cfg = EngineConfig.from_ruleset(load_ruleset(rid))
    slow, fast = readable(cfg), compiled(cfg)
    rng = random.Random(5)
    g1 = slow.new_game(_players(cfg), random.Random(5))
    g2 = fast.from_json(slow.to_json(g1))
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
        assert slow.to_json(g1) == fast.to_json(g2)


def test_rules_for_gives_the_compiled_engine_unless_asked(monkeypatch):
    cfg = EngineConfig.from_ruleset(load_ruleset("official-short"))
    compiled(cfg)
    monkeypatch.delenv("VERIFY_ENGINE", raising=False)
    assert rules_for(cfg).path == "compiled"
    assert rules_for(cfg, "readable").path == "readable"
    monkeypatch.setenv("VERIFY_ENGINE", "readable")
    assert rules_for(cfg).path == "readable"


def test_a_build_that_cannot_be_had_falls_back_to_the_readable_engine_and_says_so(monkeypatch, tmp_path, capsys):
    """No build of this source in the cache and an earlier build failed: nothing is compiled, the readable
    modules play, once said on stderr, and the build is not retried; insisting on the compiled engine retries
    it, and is a numbered error when it fails."""
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("VERIFY_ENGINE", raising=False)
    monkeypatch.setattr(engines, "_COMPILED", [])
    monkeypatch.setattr(engines, "_FALLBACK", [])
    monkeypatch.setattr(engines, "_ENGINES", {})
    monkeypatch.setattr(native, "_LOADED", {})
    k = native.key()
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / f"{k}.failed").write_text("error: the compiler broke\n")
    builds = []

    def build(*a, **kw):
        builds.append(1)
        raise native.Unavailable("compiling the engine failed (log: ...)")
    monkeypatch.setattr(native, "build", build)
    cfg = EngineConfig.from_ruleset(load_ruleset("official-short"))
    assert rules_for(cfg).path == "readable"
    assert rules_for(cfg).path == "readable"
    err = capsys.readouterr().err
    assert err.count("playing the readable engine") == 1 and "last build of this source failed" in err
    assert "python -m verify.engine.native --build" in err
    assert builds == []                                  # a failed build is not retried on every run
    with pytest.raises(Exception, match="E017.*compiled engine is not available: compiling the engine failed"):
        rules_for(cfg, "compiled")                       # insisting retries it, and says why it failed
    assert builds == [1]


def test_a_first_use_without_a_build_compiles_in_the_background_and_plays_the_readable_engine(
        monkeypatch, tmp_path, capsys):
    """The build runs in a process of its own (a time-limited engine process must not kill it midway), once;
    this process plays the readable modules and says so."""
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("VERIFY_ENGINE", raising=False)
    monkeypatch.delenv("VERIFY_ENGINE_BUILD", raising=False)
    for name, value in (("_COMPILED", []), ("_FALLBACK", []), ("_ENGINES", {})):
        monkeypatch.setattr(engines, name, value)
    monkeypatch.setattr(native, "_LOADED", {})
    started = []
    monkeypatch.setattr(native.subprocess, "Popen", lambda argv, **kw: started.append((argv, kw)))
    cfg = EngineConfig.from_ruleset(load_ruleset("official-short"))
    assert rules_for(cfg).path == "readable"
    assert rules_for(cfg).path == "readable"
    [(argv, kw)] = started
    assert argv[1:] == [native.__file__, "--build"] and kw["start_new_session"]
    err = capsys.readouterr().err
    assert err.count("compiled in the background") == 1 and f"{native.key()}.log" in err


def test_a_failing_build_is_remembered_with_its_log(monkeypatch, tmp_path):
    """A build whose compiler fails leaves its log and raises Unavailable (the caller falls back)."""
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native, "_LOADED", {})
    monkeypatch.setattr(native, "_SETUP", "import sys; print('mypyc: no compiler here'); sys.exit(3)")
    with pytest.raises(native.Unavailable, match="failed"):
        native.build(quiet=True)
    failed = tmp_path / "engine" / f"{native.key()}.failed"
    assert "no compiler here" in failed.read_text()
    assert not (tmp_path / "engine" / native.key()).exists()
    with pytest.raises(native.Unavailable, match="last build of this source failed"):
        native.modules()


def test_a_new_build_removes_only_builds_unused_for_a_week(monkeypatch, tmp_path):
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    engine_dir = tmp_path / "engine"
    for name, age in (("old", native.STALE_SECONDS + 60), ("recent", 60), ("current", native.STALE_SECONDS + 60)):
        (engine_dir / name).mkdir(parents=True)
        ok = engine_dir / name / "ok"
        ok.write_text("{}")
        os.utime(ok, (time.time() - age, time.time() - age))
    assert native.prune(keep="current") == [engine_dir / "old"]
    assert sorted(p.name for p in engine_dir.iterdir()) == ["current", "recent"]
