"""EngineConfig compilation, the canonical state and its schema, and the engine's commands."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.config import EngineConfig, fallback_ruleset
from verify.engine.engines import readable
from verify.engine.state import GameState
from verify.engine.step import apply, fill_random, legal_actions, new_game
from verify.paths import schemas_dir
from verify.spec import load_ruleset, registry

ENGINE = Path(__file__).resolve().parent.parent / "verify" / "engine"


def test_board_in_classic_amounts_times_the_scale():
    cfg = EngineConfig.from_ruleset(fallback_ruleset())
    b = cfg.board
    assert len(b.deeds) == 28 and b.squares[4] == "income_tax" and b.squares[38] == "luxury_tax"
    assert b.deed(39).rents == (50, 200, 600, 1400, 1700, 2000) and b.deed(39).mortgage == 200
    assert sorted(len(g.squares) for g in b.groups) == [2, 2, 2, 3, 3, 3, 3, 3, 3, 4]
    assert [b.squares[s] for s in b.chance_squares] == ["chance"] * 3
    platform = EngineConfig.from_ruleset(load_ruleset("platform-classic"))
    assert platform.setup.scale == 10 and platform.board.deed(39).price == 4000
    assert platform.rent.station_schedule == (250, 500, 1000, 2000)
    assert len(platform.cards.chance) == 20 and platform.cards.chest == ()
    assert {c.amount for c in platform.cards.chance if c.id == "p-loan"} == {1500}
    assert platform.board.squares[20] == "casino"


def test_config_json_and_hash_are_stable():
    a = EngineConfig.from_ruleset(load_ruleset("official"))
    b = EngineConfig.from_ruleset(load_ruleset("official"))
    assert a == b and a.hash() == b.hash()
    doc = a.to_json()
    assert json.loads(json.dumps(doc)) == doc and doc["jail"]["fine"] == 50
    assert EngineConfig.from_ruleset(load_ruleset("official-short")).hash() != a.hash()


def test_engine_code_names_no_ruleset_or_source():
    ids = set(registry().ids())
    text = "\n".join(p.read_text() for p in ENGINE.rglob("*.py"))
    for rid in ids:
        assert not re.search(rf"[\"']{re.escape(rid)}[\"']", text), rid
    assert not re.search(r"\d{3}_[0-9a-f]{16}", text)


def test_state_round_trip_and_schema():
    schema = json.loads((schemas_dir() / "state.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for rid in ("official", "platform-teams", "official-speed-die"):
        cfg = EngineConfig.from_ruleset(load_ruleset(rid))
        n = 4
        s = new_game(cfg, n, seed=3)
        rng = random.Random(4)
        for _ in range(200):
            validator.validate(s)
            g = GameState.from_json(s, cfg.board.ownable)
            assert g.to_json(cfg.board.ownable) == s
            acts = legal_actions(cfg, s)
            if not acts:
                break
            s, _ = apply(cfg, s, fill_random(cfg, s, rng.choice(acts), rng))


def test_dealt_properties_at_setup():
    cfg = EngineConfig.from_ruleset(load_ruleset("official-short"))
    assert cfg.setup.dealt_per_player == 3 and not cfg.setup.dealt_paid
    g = readable(cfg).new_game(4, random.Random(1))
    owned = [sum(1 for s in cfg.board.ownable if g.owner[s] == p) for p in range(4)]
    assert owned == [3, 3, 3, 3] and g.cash == [cfg.setup.starting_cash] * 4
    show = EngineConfig.from_ruleset(load_ruleset("platform-showdown"))
    g = readable(show).new_game(3, random.Random(1))
    assert sorted(sum(1 for s in show.board.ownable if g.owner[s] == p) for p in range(3)) == [9, 9, 9]


def test_cli_compile_simulate_replay(tmp_path):
    run = CliRunner().invoke
    r = run(main, ["compile", "official", "--target", "engine-config"])
    assert r.exit_code == 0 and json.loads(r.output)["config"]["setup"]["starting_cash"] == 1500
    r = run(main, ["simulate", "--games", "6", "--players", "3", "--seed", "4", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    for key in ("ruleset", "games", "players", "seed", "finished", "rolls", "player_turns", "turns",
                "landings", "wins", "bankruptcies", "elapsed_s"):
        assert key in d
    assert d["ruleset"] == "official" and len(d["landings"]) == 40 and set(d["turns"]) == {"mean", "median", "p90", "sd"}
    r2 = run(main, ["simulate", "--games", "6", "--players", "3", "--seed", "4", "--json", "--jobs", "2"])
    d2 = json.loads(r2.output)
    assert d2["landings"] == d["landings"] and d2["wins"] == d["wins"]
    r = run(main, ["simulate", "platform-showdown", "--players", "4"])
    assert r.exit_code == 2 and "3 to 3 players" in r.output
    trace = tmp_path / "t.jsonl"
    r = run(main, ["simulate", "--games", "1", "--players", "2", "--max-turns", "30", "--trace", str(trace),
                   "--check-invariants"])
    assert r.exit_code == 0, r.output
    header = json.loads(trace.read_text().splitlines()[0])
    assert header["trace"] == "verify.trace/2" and header["config_hash"]
    r = run(main, ["replay", str(trace)])
    assert r.exit_code == 0 and "every step follows the rules" in r.output


FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_a_value_the_engine_does_not_play_is_refused_with_its_file_and_line():
    from verify.config.from_ruleset import PLAYED_ONLY
    from verify.engine.engines import rules_for
    from verify.errors import VerifyError

    path = FIXTURES / "unplayable" / "loans.yaml"
    cfg = EngineConfig.from_ruleset(load_ruleset(str(path)))
    assert len(cfg.unplayable) == 1 and "loans.yaml:5: trade.loans = true" in cfg.unplayable[0]
    try:
        rules_for(cfg)
    except VerifyError as exc:
        assert exc.code == "E018" and "trade.loans" in str(exc)
    else:
        raise AssertionError("the engine played a ruleset it cannot play")
    res = CliRunner().invoke(main, ["simulate", str(path), "--games", "1"])
    assert res.exit_code == 1 and "E018" in res.output and "loans.yaml:5" in res.output
    # the SMT layer still compiles it; and every bundled ruleset is playable as written
    from verify.spec.registry import bundled_files
    bundled = {f.resolve() for f in bundled_files()}
    played = 0
    for rid in registry().ids():
        f = registry().files[rid]
        if f.path.resolve() not in bundled:
            continue
        r = load_ruleset(rid if f.kind == "ruleset" else "official+" + rid)
        assert EngineConfig.from_ruleset(r).unplayable == ()
        assert all(r.value(pid) == v for pid, v in PLAYED_ONLY.items())
        played += 1
    assert played == len(bundled) >= 17


def test_config_json_round_trip_for_every_bundled_ruleset():
    """from_json(to_json(c)) == c: what another engine receives is the same config (conformance)."""
    from verify.smt.run import default_names
    for rid in default_names():
        cfg = EngineConfig.from_ruleset(load_ruleset(rid))
        back = EngineConfig.from_json(json.loads(json.dumps(cfg.to_json())))
        assert back == cfg, rid
        assert back.hash() == cfg.hash()


def test_config_from_json_names_the_bad_field():
    from verify.errors import SpecError
    doc = EngineConfig.from_ruleset(load_ruleset("official")).to_json()
    doc["rent"]["station_schedule"] = "many"
    with pytest.raises(SpecError) as e:
        EngineConfig.from_json(doc)
    assert e.value.code == "E031" and "config.rent.station_schedule" in str(e.value)
    doc = EngineConfig.from_ruleset(load_ruleset("official")).to_json()
    doc["jail"]["fines"] = 1
    with pytest.raises(SpecError, match="unknown field.*fines"):
        EngineConfig.from_json(doc)
    del doc["jail"]["fines"], doc["jail"]["fine"]
    with pytest.raises(SpecError, match="missing field 'fine'"):
        EngineConfig.from_json(doc)
