"""`verify conform` on the execution layer and with supplied open values: the same result from --jobs 1,
--jobs 2, a Dask cluster and a resumed campaign; a ruleset with an open value is refused (E020) until
--set supplies it, and the values travel with the chunks and the saved scenarios."""

from __future__ import annotations

import json

from click.testing import CliRunner

from verify.cli import main

BUG = ["--engine", "tests.conform_engines.faults:UnevenBuilder"]
REF = ["--engine", "verify.conform.reference:ReferenceEngine"]
#: 3 chunks of an engine whose one cause is met in many contexts (a card put back on top: one per card, merged
#: into one of any card when met on several): counts, contexts and candidates come from several chunks, merged
ARGS = ["conform", "--engine", "tests.conform_engines.broken:CardBackOnTop", "--examples", "150", "--seed", "3",
        "--json"]


def _json(args, tmp_path, name, code=1):
    r = CliRunner().invoke(main, [*args, "--scenarios", str(tmp_path / name)], catch_exceptions=False)
    assert r.exit_code == code, r.output
    doc = json.loads(r.stdout)
    for v in doc["violations"]:                    # the same file name, in the folder of each run
        v["scenario_file"] = v["scenario_file"].split("/")[-1]
    return doc


def _files(tmp_path, name) -> dict:
    return {f.name: f.read_bytes() for f in sorted((tmp_path / name).glob("*.json"))}


def test_jobs_1_and_jobs_2_give_the_same_deviations_counts_and_scenario_files(tmp_path):
    one = _json(ARGS, tmp_path, "one")
    assert len(one["violations"]) >= 1 and one["scenarios"] == 150 and one["steps"] > 0
    assert sum(v["count"] for v in one["violations"]) > len(one["violations"])   # counted, not only listed
    assert max(len(v["contexts"]) for v in one["violations"]) >= 3              # one cause, met on many cards
    two = _json([*ARGS, "--jobs", "2"], tmp_path, "two")
    assert [(v["signature"], v["count"]) for v in two["violations"]] == \
        [(v["signature"], v["count"]) for v in one["violations"]]
    assert two == one
    assert _files(tmp_path, "one") == _files(tmp_path, "two") and _files(tmp_path, "one")


def test_a_resumed_campaign_gives_the_same_result(tmp_path):
    first = _json([*ARGS, "--resume", str(tmp_path / "camp")], tmp_path, "a")
    assert len(list((tmp_path / "camp").glob("chunk-*.json"))) == 3            # the exploration's chunks
    assert list((tmp_path / "camp" / "shrink").glob("chunk-*.json"))            # one shrink task per deviation
    again = _json([*ARGS, "--resume", str(tmp_path / "camp")], tmp_path, "b")
    assert again == first and _files(tmp_path, "a") == _files(tmp_path, "b")
    other = CliRunner().invoke(main, [*ARGS[:-3], "--seed", "4", "--json", "--resume", str(tmp_path / "camp")])
    assert other.exit_code != 0 and "[E025]" in other.output           # another campaign's directory


def test_an_unsupplied_open_value_is_refused_naming_it(tmp_path):
    r = CliRunner().invoke(main, ["conform", *REF, "--ruleset", "online-vn", "--examples", "2"])
    assert r.exit_code == 1 and "[E020]" in r.output and "end.round_limit is open" in r.output
    assert "--set end.round_limit=VALUE" in r.output and "Traceback" not in r.output
    ok = _json(["conform", *REF, "--ruleset", "online-vn", "--set", "end.round_limit=40", "--set", "timer.turn_seconds=60",
                "--set", "auction.min_increment=10", "--examples", "5", "--json"], tmp_path, "sc", code=0)
    assert ok["ruleset"] == "online-vn" and ok["scenarios"] == 5 and ok["violations"] == []
    bad = CliRunner().invoke(main, ["conform", *REF, "--ruleset", "online-vn", "--set", "end.round_limit=0"])
    assert bad.exit_code == 1 and "[E003]" in bad.output


def test_supplied_values_reach_the_workers_and_the_saved_scenario(tmp_path):
    args = ["conform", *BUG, "--ruleset", "official-timed", "--set", "end.time_limit_minutes=45",
            "--examples", "100", "--seed", "3", "--json"]
    here = _json(args, tmp_path, "a")
    assert _json([*args, "--jobs", "2"], tmp_path, "b") == here
    saved = tmp_path / "b" / here["violations"][0]["scenario_file"]
    doc = json.loads(saved.read_text())
    assert doc["set"] == {"end.time_limit_minutes": 45} and doc["ruleset"] == "official-timed"
    # a replay supplies the saved values again: no --set needed, and the reference passes it
    again = CliRunner().invoke(main, ["conform", *REF, "--replay", str(saved)])
    assert again.exit_code == 0 and "no deviation; passed" in again.output
    doc.pop("set")
    saved.write_text(json.dumps(doc))
    refused = CliRunner().invoke(main, ["conform", *REF, "--replay", str(saved)])
    assert refused.exit_code == 1 and "[E020]" in refused.output and "end.time_limit_minutes" in refused.output


def test_reading_and_replay_options(tmp_path):
    r = CliRunner().invoke(main, ["conform", *REF, "--reading", "no-such-reading", "--examples", "2"])
    assert r.exit_code == 1 and "[E021]" in r.output
    r = CliRunner().invoke(main, ["conform", *REF, "--replay", str(tmp_path / "x.json"), "--jobs", "2"])
    assert r.exit_code == 2 and "--replay" in r.output


def test_a_chunk_does_not_depend_on_the_modules_loaded(tmp_path, monkeypatch):
    """Hypothesis mixes constants from every local module in sys.modules into its draws; a chunk's
    scenarios must not change because the process imported another module (the CLI, a Dask worker's,
    the engine under test)."""
    import importlib

    from verify.conform.explore import explore_chunk, plan
    from verify.conform.transport import EngineSpec

    spec = plan(EngineSpec(target="tests.conform_engines.faults:UnevenBuilder"), "official", 3, 60)[1]
    before = explore_chunk(spec)
    assert before["scenarios"] == 10
    (tmp_path / "house_numbers.py").write_text(
        "PRICES = [" + ", ".join(str(v) for v in range(100, 3000, 3)) + "]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("house_numbers")
    assert explore_chunk(spec) == before
