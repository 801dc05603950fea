"""Traces: compressed when asked, written whole or not at all, and a trace cut short is called truncated."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from verify.cli import main


@pytest.fixture(scope="module")
def traces(tmp_path_factory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("traces")
    plain, packed = d / "g.jsonl", d / "g.jsonl.gz"
    for path in (plain, packed):
        res = CliRunner().invoke(main, ["simulate", "--games", "2", "--players", "2", "--max-turns", "60",
                                        "--seed", "5", "--trace", str(path)])
        assert res.exit_code == 0, res.output
    return plain, packed


def replay(path: Path, *extra: str):
    return CliRunner().invoke(main, ["replay", str(path), *extra])


def test_compressed_trace_is_the_same_trace_and_replays(traces):
    plain, packed = traces
    assert gzip.decompress(packed.read_bytes()) == plain.read_bytes()
    assert packed.stat().st_size * 5 < plain.stat().st_size
    for path in traces:
        res = replay(path)
        assert res.exit_code == 0 and "every step follows the rules" in res.output, res.output
    last = json.loads(plain.read_text().splitlines()[-1])
    assert set(last) == {"end"} and last["end"]["steps"] > 0


def _cut(src: Path, dst: Path, keep: int) -> Path:
    dst.write_bytes(src.read_bytes()[:keep])
    return dst


def test_a_trace_cut_mid_line_is_truncated_not_a_violation(traces, tmp_path):
    plain, _ = traces
    cut = _cut(plain, tmp_path / "cut.jsonl", plain.stat().st_size * 3 // 4)
    res = replay(cut, "--json")
    doc = json.loads(res.output)
    assert res.exit_code == 1 and doc["problems"] == [] and doc["truncated"]["why"].endswith("is cut short")
    assert doc["truncated"]["game"] == 1 and doc["steps"] > 0
    assert "TRUNCATED" in replay(cut).output


def test_a_trace_cut_at_a_line_end_is_truncated(traces, tmp_path):
    plain, _ = traces
    lines = plain.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:5]))                 # the header and 4 steps of game 0
    doc = json.loads(replay(cut, "--json").output)
    assert doc["problems"] == [] and doc["truncated"] == {"game": 0, "why": "the game has no end line"}


def test_a_compressed_trace_cut_short_is_truncated(traces, tmp_path):
    _, packed = traces
    cut = _cut(packed, tmp_path / "cut.jsonl.gz", packed.stat().st_size // 2)
    res = replay(cut, "--json")
    doc = json.loads(res.output)
    assert res.exit_code == 1 and doc["problems"] == []
    assert "compressed stream ends early" in doc["truncated"]["why"]


def test_a_failed_simulation_keeps_the_previous_trace(traces, tmp_path, monkeypatch):
    plain, _ = traces
    target = tmp_path / "t.jsonl"
    target.write_bytes(plain.read_bytes())
    def broken(*a, **k):
        raise RuntimeError("the engine failed in the middle of a game")
    monkeypatch.setattr("verify.commands.simulate.play_game", broken)
    res = CliRunner().invoke(main, ["simulate", "--games", "2", "--trace", str(target)])
    assert res.exit_code == 1 and "internal error" in res.output
    assert target.read_bytes() == plain.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.jsonl"]
