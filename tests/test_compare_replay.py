"""Every witness of the bundled report is a trace file that `verify replay` plays again, step by step,
with the reference engine; a witness whose recorded outcome the engine does not reproduce fails."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.compare import compare
from verify.compare.from_rulesets import load_registry
from verify.compare.probes import BY_ID, setup_state
from verify.compare.witness import file_name, write


@pytest.fixture(scope="module")
def witnesses(tmp_path_factory):
    folder = tmp_path_factory.mktemp("witnesses")
    findings = compare(reg=load_registry()).findings
    return findings, write(findings, folder)


def replay(path) -> tuple[int, dict]:
    res = CliRunner().invoke(main, ["replay", "--json", str(path)])
    return res.exit_code, (json.loads(res.output) if res.output.startswith("{") else {"output": res.output})


def test_every_witness_of_the_bundled_report_replays(witnesses):
    findings, paths = witnesses
    every = [x for f in findings for x in (f, *f.consequences)]        # a merged finding's own witnesses too
    played = [f for f in every if f.witness is not None and f.witness.games]
    assert len(paths) == len(played) >= 40
    for path in paths:
        code, doc = replay(path)
        assert code == 0 and doc["ok"], (path.name, doc)
        games = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        headers = [g for g in games if "trace" in g]
        assert doc["games"] == len(headers) >= 1               # one game per side where it arises


def test_each_side_starts_from_the_same_situation(witnesses):
    """A witness is one situation played by every side: the same state (in each side's money), unless
    the question is the opening itself (what each game deals out)."""
    findings, paths = witnesses
    every = [x for f in findings for x in (f, *f.consequences)]
    opening = {file_name(f.id) for f in every if f.witness and f.witness.plays
               and BY_ID[f.witness.family].build is setup_state}
    assert opening
    for path in paths:
        if path.name in opening:
            continue
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        starts = [lines[i + 1]["state"] for i, x in enumerate(lines) if "trace" in x]
        shape = {json.dumps([(p["square"], p["owner"], p["mortgaged"], p["houses"], p["hotel"])
                             for p in s["properties"]]) for s in starts}
        assert len(shape) == 1, path.name


def _tampered(path, tmp_path, change) -> object:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    change(lines)
    out = tmp_path / path.name
    out.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return out


def test_a_witness_the_engine_does_not_reproduce_fails_replay(witnesses, tmp_path):
    findings, paths = witnesses
    by_name = {p.name: p for p in paths}
    path = by_name[file_name("inferred:jail.after_last_try")]

    def richer(lines):                                  # claim another outcome than the engine plays
        last = [x for x in lines if "state" in x][-1]
        last["state"]["players"][0]["cash"] += 1
    code, doc = replay(_tampered(path, tmp_path, richer))
    assert code == 1 and not doc["ok"] and "differs" in doc["problems"][0]


def test_a_refusal_is_replayed_as_a_refusal(witnesses, tmp_path):
    _, paths = witnesses
    refused = next(p for p in paths if '"refused"' in p.read_text(encoding="utf-8"))
    code, doc = replay(refused)
    assert code == 0

    def accepted_now(lines):                             # record a refusal of an action the rules accept
        allowed = next(x for x in lines if x.get("action") and "refused" not in x)
        allowed["refused"] = "made up"
        allowed["state"] = lines[lines.index(allowed) - 1]["state"]
    code, doc = replay(_tampered(refused, tmp_path, accepted_now))
    assert code == 1 and "accept" in doc["problems"][0]
