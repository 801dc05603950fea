"""One semantics: the compiled engine of every bundled ruleset plays exactly the readable rules' games.

The compiled engine (``verify.engine.native``) is the engine's own source files compiled by mypyc into
the package when it is built. Here both builds play the same seeded games of every bundled playable
ruleset, with both bots, and must end in the same state, having taken the same actions through the
same states; a random walk through the step API must give the same legal actions, states and events at
every step. The compiled build is required (``compiled`` marker): a build that cannot be loaded fails
these tests rather than skipping them (``VERIFY_ENGINE=readable`` leaves them out of a run). The
install's side (no build, a build of another source) is tested with builds made here.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from verify.config import EngineConfig
from verify.engine import engines, native
from verify.engine.engines import compiled, readable, rules_for
from verify.engine.policies import make_policies
from verify.engine.simulate import game_seed, play_game
from verify.engine.step import apply_state, enumerate_actions, fill_random
from verify.errors import VerifyError
from verify.spec import load_ruleset, registry

ROOT = Path(__file__).resolve().parent.parent


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


class _Moves:
    """A recorder that applies each action through the step API and keeps it with the state after it."""

    def __init__(self):
        self.moves: list = []

    def start(self, rules, g):
        g.events = []

    def step(self, rules, g, action):
        g.events = []
        apply_state(rules, g, action)
        self.moves.append((action, g.events, rules.to_json(g)))

    def finish(self, rules, g):
        pass


@pytest.mark.compiled
@pytest.mark.parametrize("rid", playable())
def test_the_compiled_engine_plays_the_readable_engines_games(rid):
    """Whole games, unrecorded (the game loop's own path): the same summary and the same end state; and one
    game recorded move by move: the same actions through the same states and events."""
    cfg = EngineConfig.from_ruleset(load_ruleset(rid))
    slow, fast = readable(cfg), compiled(cfg)
    assert fast.path == "compiled" and slow.path == "readable"
    assert type(fast.t).__module__.startswith("verify._compiled.")      # really the compiled build
    n = _players(cfg)
    for policy in ("heuristic", "random"):
        for i in range(2):
            seed = game_seed(17, i)
            ends = []
            for engine in (slow, fast):
                held: list = []
                r = play_game(engine, make_policies(policy, n, "leave", seed), seed, 400,
                              observe=lambda g, held=held: held or held.append(g))
                ends.append((r.player_turns, r.rolls, r.winner, r.result, r.landings, r.bankrupt,
                             engine.to_json(held[0])))          # the game's state object, as the game left it
            assert ends[0] == ends[1], (rid, policy, seed)
    seed = game_seed(23, 0)
    recorded = []
    for engine in (slow, fast):
        moves = _Moves()
        play_game(engine, make_policies("heuristic", n, "leave", seed), seed, 200, moves)
        recorded.append(moves.moves)
    assert len(recorded[0]) > 100
    for k, (a, b) in enumerate(zip(*recorded)):
        assert a == b, (rid, k)
    assert len(recorded[0]) == len(recorded[1])


@pytest.mark.compiled
@pytest.mark.parametrize("rid", playable() + ["official@claim-counted-from-payer"])
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


@pytest.mark.compiled
def test_rules_for_gives_the_compiled_engine_unless_asked(monkeypatch):
    cfg = EngineConfig.from_ruleset(load_ruleset("official-short"))
    compiled(cfg)
    monkeypatch.delenv("VERIFY_ENGINE", raising=False)
    assert rules_for(cfg).path == "compiled"
    assert rules_for(cfg, "readable").path == "readable"
    monkeypatch.setenv("VERIFY_ENGINE", "readable")
    assert rules_for(cfg).path == "readable"


def _fresh(monkeypatch):
    """Forget the engines and the build loaded so far (as a new process would)."""
    monkeypatch.delenv("VERIFY_ENGINE", raising=False)
    for name, value in (("_COMPILED", []), ("_FALLBACK", []), ("_ENGINES", {})):
        monkeypatch.setattr(engines, name, value)
    monkeypatch.setattr(native, "_LOADED", {})


def _no_process(*a, **kw):
    raise AssertionError("the engine started a process")


def test_an_install_whose_engine_changed_plays_the_readable_engine_and_says_so_once(monkeypatch, capsys):
    """An editable install after an edit of the engine: its build is of another source. The readable modules
    play, said once on stderr with how to build it again; nothing is built or started; insisting on the
    compiled engine is E035."""
    _fresh(monkeypatch)
    monkeypatch.setattr(native, "_KEY", ["0" * 16])          # the source now differs from any build's
    monkeypatch.setattr(native, "record", lambda target=native.TARGET: {"key": "1" * 16})
    monkeypatch.setattr(subprocess, "run", _no_process)        # (the builder imports it where it builds)
    monkeypatch.setattr(subprocess, "Popen", _no_process)
    cfg = EngineConfig.from_ruleset(load_ruleset("official-short"))
    assert rules_for(cfg).path == "readable"
    assert rules_for(cfg).path == "readable"
    err = capsys.readouterr().err
    assert err.count("playing the readable engine") == 1 and "another version of the engine's source" in err
    assert "python -m verify.engine.native --build" in err and "pip install -e ." in err
    with pytest.raises(VerifyError) as info:
        rules_for(cfg, "compiled")
    assert info.value.code == "E035" and "another version" in info.value.message


def test_an_install_without_a_build_plays_the_readable_engine(monkeypatch, capsys):
    _fresh(monkeypatch)
    monkeypatch.setattr(native, "record", lambda target=native.TARGET: None)
    cfg = EngineConfig.from_ruleset(load_ruleset("official-short"))
    assert rules_for(cfg).path == "readable"
    assert "has no compiled engine" in capsys.readouterr().err
    monkeypatch.setenv("VERIFY_ENGINE", "compiled")
    with pytest.raises(VerifyError, match="E035"):
        rules_for(cfg)


def test_an_unknown_engine_build_is_its_own_error(monkeypatch):
    monkeypatch.setenv("VERIFY_ENGINE", "fast")
    cfg = EngineConfig.from_ruleset(load_ruleset("official-short"))
    with pytest.raises(VerifyError) as info:
        rules_for(cfg)
    assert info.value.code == "E036" and "VERIFY_ENGINE" in info.value.message


def test_a_failing_build_leaves_the_previous_build_and_says_why(monkeypatch, tmp_path):
    """The compiler fails: ``build`` raises with the end of its log, and the folder keeps what it held."""
    target = tmp_path / "_compiled"
    target.mkdir()
    (target / native.RECORD).write_text(json.dumps({"key": "previous"}))
    monkeypatch.setattr(native, "_SETUP", "import sys; print('mypyc: no compiler here'); sys.exit(3)")
    with pytest.raises(native.Unavailable, match="(?s)failed.*no compiler here"):
        native.build(quiet=True, target=target)
    assert native.record(target) == {"key": "previous"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_compiled"]


@pytest.mark.slow
@pytest.mark.compiled
def test_a_wheel_carries_the_compiled_engine_and_plays_it_in_a_fresh_environment(tmp_path):
    """``pip wheel`` gives a platform wheel with the extensions; installed with no cache into a new virtual
    environment (the dependencies seen from this one), it plays the compiled engine from the first game,
    writing nothing outside the environment (an empty home stays empty)."""
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(ROOT)],
                   check=True, timeout=1200)
    [wheel] = wheels.glob("*.whl")
    assert "-cp3" in wheel.name and "none-any" not in wheel.name, wheel.name
    env_dir = tmp_path / "env"
    venv.create(env_dir, system_site_packages=True, with_pip=True)
    python = env_dir / "bin" / "python"
    home, cwd = tmp_path / "home", tmp_path / "cwd"
    home.mkdir()
    cwd.mkdir()
    env = {"PATH": f"{env_dir / 'bin'}:/usr/bin:/bin", "HOME": str(home), "PIP_NO_CACHE_DIR": "1",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True, env=env,
                   cwd=cwd, timeout=600)
    probe = ("import json, sys, verify\n"
             "from verify.engine.engines import rules_for\n"
             "from verify.config import EngineConfig\n"
             "from verify.spec import load_ruleset\n"
             "e = rules_for(EngineConfig.from_ruleset(load_ruleset('official')))\n"
             "print(json.dumps({'path': e.path, 'package': verify.__file__,\n"
             "                  'tables': sys.modules[type(e.t).__module__].__file__}))\n")
    got = subprocess.run([str(python), "-c", probe], env=env, cwd=cwd, capture_output=True, text=True,
                         check=True, timeout=300)
    doc = json.loads(got.stdout)
    site = str(env_dir / "lib")
    assert doc["path"] == "compiled" and doc["package"].startswith(site) and doc["tables"].startswith(site)
    assert doc["tables"].endswith(".so") and got.stderr == ""
    played = subprocess.run([str(env_dir / "bin" / "verify"), "simulate", "--games", "3", "--json"], env=env,
                            cwd=cwd, capture_output=True, text=True, check=True, timeout=300)
    assert json.loads(played.stdout)["games"] == 3 and played.stderr == ""
    assert list(home.iterdir()) == [] and list(cwd.iterdir()) == []
