"""Whole games: determinism, every bundled ruleset under invariant checks, traces and replay."""

from __future__ import annotations

import io
import json

import pytest

from verify.config import EngineConfig
from verify.engine.policies import make_policies
from verify.engine.engines import rules_for
from verify.engine.campaign import (GAMES_PER_CHUNK, TAIL_GAMES_PER_CHUNK, CampaignSpec, GamesChunk, Row, chunk_sizes,
                                    merge, plan, run_campaign, run_chunk)
from verify.engine.simulate import game_seed, play_game
from verify.engine.trace import InvariantBroken, InvariantChecker, TraceRecorder, read_trace, replay_game
from verify.spec import load_ruleset, registry


def _playable_ids() -> list[str]:
    reg = registry()
    out = []
    for rid in reg.bundled_ids():
        out.append(f"official+{rid}" if reg.resolve(rid).is_overlay else rid)
    return out


def _players(cfg: EngineConfig) -> int:
    n = max(cfg.setup.players_min, min(4, cfg.setup.players_max))
    if cfg.teams.enabled and n % cfg.teams.size:
        n += cfg.teams.size - n % cfg.teams.size
    return n


def test_same_seed_same_game_and_jobs_do_not_matter():
    cfg = EngineConfig.from_ruleset(load_ruleset("official"))
    spec = CampaignSpec(cfg, 4, seed=11)
    a = run_campaign(spec, 12, "official").to_json()
    b = run_campaign(spec, 12, "official", jobs=2).to_json()
    for d in (a, b):
        d.pop("elapsed_s"), d.pop("player_turns_per_s"), d.pop("cpu_s")
    assert a == b
    assert a["finished"] + a["hit_limit"] == 12 and sum(a["landings"]) > 0
    c = run_campaign(CampaignSpec(cfg, 4, seed=12), 12, "official").to_json()
    assert c["landings"] != a["landings"]


def test_chunks_are_guided_to_a_small_tail_and_the_merge_does_not_depend_on_them():
    """Chunks of 50 games shrink toward the campaign's end (so workers finish together); the plan is a
    function of the campaign (rows and games) alone, and the merged summary that of one uncut chunk."""
    for games in (1, 7, 120, 500, 2000, 100000):
        sizes = chunk_sizes(games)
        assert sum(sizes) == games and max(sizes) <= GAMES_PER_CHUNK
        assert sizes == sorted(sizes, reverse=True)
        assert sizes[-1] <= TAIL_GAMES_PER_CHUNK
    assert chunk_sizes(2000)[:30] == [GAMES_PER_CHUNK] * 30 and chunk_sizes(2000)[-3] == TAIL_GAMES_PER_CHUNK
    cfg = EngineConfig.from_ruleset(load_ruleset("official"))
    rows = [Row("a", CampaignSpec(cfg, 4, seed=5), 90), Row("b", CampaignSpec(cfg, 3, seed=5), 90)]
    chunks = plan(rows)
    assert [c.stop - c.start for c in chunks if c.label == "a"] == chunk_sizes(90, later=90)
    assert max(c.stop - c.start for c in chunks if c.label == "b") < GAMES_PER_CHUNK    # the tail is the campaign's
    whole = [run_chunk(GamesChunk(r.label, r.spec, 0, r.games)) for r in rows]
    cut = _untimed(merge(rows, [run_chunk(c) for c in chunks]))
    assert cut == _untimed(merge(rows, whole)) and cut[0] != cut[1]


def _untimed(docs: list[dict]) -> list[dict]:
    return [{k: v for k, v in d.items() if k != "cpu_s"} for d in docs]


def test_recorded_game_is_the_same_game():
    cfg = EngineConfig.from_ruleset(load_ruleset("official"))
    rules = rules_for(cfg)
    s = game_seed(3, 0)
    fast = play_game(rules, make_policies("heuristic", 4, "stay", s), s)
    buf = io.StringIO()
    slow = play_game(rules, make_policies("heuristic", 4, "stay", s), s,
                     recorder=TraceRecorder(buf, {"trace": "verify.trace/1", "ruleset": "official",
                                                  "config_hash": cfg.hash()}))
    assert fast == slow
    games = list(read_trace(io.StringIO(buf.getvalue()), "mem"))
    assert len(games) == 1
    header, steps = games[0]
    last = steps[-1][1]["state"]
    assert last["player_turns"] == fast.player_turns and last["winner"] == fast.winner
    n, problems = replay_game(cfg, rules, header, steps, "mem", None)
    assert problems == [] and n == len(steps)


def test_replay_finds_a_tampered_step():
    cfg = EngineConfig.from_ruleset(load_ruleset("official"))
    rules = rules_for(cfg)
    buf = io.StringIO()
    play_game(rules, make_policies("heuristic", 2, "leave", 5), 5, max_turns=30,
              recorder=TraceRecorder(buf, {"trace": "verify.trace/1", "ruleset": "official"}))
    lines = buf.getvalue().splitlines()
    rec = json.loads(lines[10])
    rec["state"]["players"][1]["cash"] += 7
    lines[10] = json.dumps(rec)
    header, steps = next(read_trace(lines, "t"))
    _, problems = replay_game(cfg, rules, header, steps, "t", None)
    assert problems and "cash" in problems[0] and "t:11" in problems[0]


def test_invariant_hook_stops_at_the_first_violation():
    cfg = EngineConfig.from_ruleset(load_ruleset("official"))
    rules = rules_for(cfg)
    seen = []

    def state_pred(config, state, ids):
        seen.append(state["player_turns"])
        return ["stub: a player turn was played"] if state["player_turns"] >= 3 else []

    checker = InvariantChecker(cfg, ["stub"], check_state=state_pred, check_step=lambda *a: [])
    with pytest.raises(InvariantBroken) as info:
        play_game(rules, make_policies("heuristic", 2, "leave", 1), 1, recorder=TraceRecorder(None, None, checker))
    assert info.value.state["player_turns"] == 3 and info.value.action["type"] == "end_turn"
    assert seen[-1] == 3


@pytest.mark.parametrize("rid", _playable_ids())
def test_every_ruleset_plays_whole_games_with_its_invariants_checked(rid):
    """The default-run share of the 1,000-checked-games campaign: a few whole games per ruleset
    and policy, every promised invariant after every action (scripts/checked_campaign.py runs 1,000)."""
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    assert r.promised(), f"{rid} promises no invariant"
    for policy, games in (("heuristic", 4), ("random", 2)):
        spec = CampaignSpec(cfg, _players(cfg), seed=2024, policy=policy, max_turns=400, check=tuple(r.promised()))
        summary = run_campaign(spec, games, rid)
        assert summary.violation is None, summary.violation
        data = summary.to_json()
        assert data["finished"] + data["hit_limit"] == games
        if policy == "heuristic":
            assert data["finished"] >= games - 1, data["end_reasons"]


@pytest.mark.parametrize("rid", _playable_ids())
def test_every_ruleset_finishes_games_fast(rid):
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    summary = run_campaign(CampaignSpec(cfg, _players(cfg), seed=1, max_turns=1500), 10, rid).to_json()
    assert summary["finished"] >= 8, summary["end_reasons"]
    assert summary["bankruptcies_total"] >= summary["finished"]


@pytest.mark.slow
@pytest.mark.parametrize("rid", _playable_ids())
def test_thousand_games_per_ruleset(rid):
    """1,000 seeded games per ruleset end (or reach the turn limit) without a rule error."""
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    for policy in ("heuristic", "random"):
        summary = run_campaign(CampaignSpec(cfg, _players(cfg), seed=99, policy=policy, max_turns=1000),
                               1000 if policy == "heuristic" else 200, rid, jobs=2).to_json()
        assert summary["finished"] + summary["hit_limit"] == summary["games"]
        if policy == "heuristic":
            assert summary["finished"] >= 0.9 * summary["games"], summary["end_reasons"]


@pytest.mark.slow
@pytest.mark.parametrize("rid", _playable_ids())
def test_games_with_invariants_checked_after_every_action(rid):
    """100 seeded games per ruleset under --check-invariants (every promised invariant after every action)."""
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    for policy, games in (("heuristic", 60), ("random", 40)):
        spec = CampaignSpec(cfg, _players(cfg), seed=99, policy=policy, max_turns=600, check=tuple(r.promised()))
        summary = run_campaign(spec, games, rid, jobs=2)
        assert summary.violation is None, summary.violation
        data = summary.to_json()
        assert data["finished"] + data["hit_limit"] == games


def test_check_invariants_finds_the_same_first_violation_with_any_jobs():
    from pathlib import Path
    fixture = Path(__file__).parent / "fixtures" / "negative" / "sold-buildings-vanish.yaml"
    r = load_ruleset(str(fixture))
    cfg = EngineConfig.from_ruleset(r)
    spec = CampaignSpec(cfg, 4, seed=0, check=tuple(r.promised()))
    one = run_campaign(spec, 4, r.id).violation
    two = run_campaign(spec, 4, r.id, jobs=2).violation
    assert one is not None and one == two
    assert "house-supply" in " ".join(one["violations"]) and one["action"]["type"].startswith("sell")


def test_checked_campaign_script_writes_its_evidence_document(tmp_path):
    """scripts/checked_campaign.py (issue 3's evidence run), at a tiny size: one summary per ruleset
    and summary.json with the commit, the invariants checked and no violation; a ruleset with an open
    value is listed as not played, with the reason."""
    import json
    import subprocess
    import sys
    from pathlib import Path
    script = Path(__file__).resolve().parent.parent / "scripts" / "checked_campaign.py"
    run = subprocess.run([sys.executable, str(script), "--games", "2", "--jobs", "1", "--out", str(tmp_path),
                          "official-short", "online-vn", "official+house-double-go"], capture_output=True,
                         text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    doc = json.loads((tmp_path / "summary.json").read_text())
    # online-vn's round limit (and turn timer, bid step) are open: never played at a value its rulebook does
    # not give, and it says so
    assert [(n["ruleset"], "end.round_limit" in n["reason"]) for n in doc["not_played"]] == [("online-vn", True)]
    assert "online-vn: not played: 3 values are open (auction.min_increment, end.round_limit, " in run.stdout
    assert "--set PARAM=VALUE" in run.stdout and not (tmp_path / "online-vn.json").exists()
    assert doc["recorded_at_commit"] and [r["ruleset"] for r in doc["runs"]] == ["official-short",
                                                                                 "official+house-double-go"]
    for row in doc["runs"]:
        assert row["games"] == 2 and row["violation"] is None and "even-build" in row["invariants_checked"]
    assert (tmp_path / "official+house-double-go.json").exists()
