"""Pinned games: the engine plays exactly the games it played before (speed work must not change them).

Every bundled ruleset plays a few seeded games with each policy; every game's result (length, rolls,
rounds, winner, bankruptcies, landings per square) must equal the one recorded in
``tests/fixtures/engine_pins.json``. A few games are also played with invariant checks on (the
recorded path, which serialises every state) and must be the same games.

A rule change that changes games on purpose regenerates the file (and says so in its commit):

    python tests/test_engine_pins.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from verify.config import EngineConfig
from verify.engine.policies import make_policies
from verify.engine.engines import rules_for
from verify.engine.simulate import game_seed, play_game
from verify.engine.trace import InvariantChecker, TraceRecorder
from verify.spec import load_ruleset, registry

PINS = Path(__file__).parent / "fixtures" / "engine_pins.json"
#: (policy, jail strategy, games) played per ruleset
PLAYS = (("heuristic", "leave", 6), ("heuristic", "stay", 3), ("random", "leave", 3))
SEED = 4242


def _playable_ids() -> list[str]:
    reg = registry()
    return [f"official+{rid}" if reg.resolve(rid).is_overlay else rid for rid in reg.bundled_ids()]


def _players(cfg: EngineConfig) -> int:
    n = max(cfg.setup.players_min, min(4, cfg.setup.players_max))
    if cfg.teams.enabled and n % cfg.teams.size:
        n += cfg.teams.size - n % cfg.teams.size
    return n


def _fingerprint(r) -> list:
    """One game: everything a GameResult records (landings as a digest, to keep the file short)."""
    return [r.seed, r.finished, r.result, r.winner, r.rolls, r.player_turns, r.rounds, r.bankrupt,
            hashlib.sha256(json.dumps(r.landings).encode()).hexdigest()[:16]]


def pins_of(rid: str, checked: bool = False) -> dict:
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    out = {}
    for policy, jail, games in PLAYS:
        if checked and policy != "heuristic":
            continue
        rules, n = rules_for(cfg), _players(cfg)
        rows = []
        for i in range(2 if checked else games):       # the seeds of a campaign's games 0, 1, ...
            seed = game_seed(SEED, i)
            recorder = TraceRecorder(None, None, InvariantChecker(cfg, r.promised())) if checked else None
            rows.append(_fingerprint(play_game(rules, make_policies(policy, n, jail, seed), seed, 1000, recorder)))
        out[f"{policy}/{jail}"] = rows
    return out


def _recorded() -> dict:
    return json.loads(PINS.read_text(encoding="utf-8"))


@pytest.mark.parametrize("rid", _playable_ids())
def test_games_are_the_pinned_games(rid):
    want = _recorded()
    assert rid in want, f"{rid} has no pinned games: run python tests/test_engine_pins.py --write"
    assert pins_of(rid) == want[rid]


@pytest.mark.parametrize("rid", ["official", "official-speed-die", "platform-teams", "classic-pl"])
def test_checked_games_are_the_pinned_games(rid):
    """The recorded path (every state serialised and checked) plays the same games as the fast path."""
    want = _recorded()[rid]
    got = pins_of(rid, checked=True)
    for key, rows in got.items():
        assert rows == want[key][:len(rows)]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_engine_pins.py --write")
    doc = {rid: pins_of(rid) for rid in _playable_ids()}
    tmp = PINS.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    tmp.replace(PINS)
    print(f"wrote {PINS} ({sum(len(v) for d in doc.values() for v in d.values())} games)")
