"""Open values are never played silently: simulate/replay refuse them (E020) until --set or an overlay
supplies them; --set is validated like a ruleset value."""

import json

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.errors import ErrorList, VerifyError
from verify.spec import load_ruleset
from verify.spec.open_values import parse_assignments, playable, require_supplied, supply, unsupplied


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_simulate_refuses_an_open_value_and_says_how_to_supply_it():
    result = run("simulate", "official-timed", "-n", "1")
    assert result.exit_code != 0
    out = result.output
    assert "official-timed.yaml:19: [E020]" in out
    assert "end.time_limit_minutes is open" in out and "--set end.time_limit_minutes=VALUE" in out
    assert "official-timed+my-table.yaml" in out and "Traceback" not in out


def test_simulate_plays_with_set_and_the_value_is_played():
    short = json.loads(run("simulate", "official-timed", "-n", "3", "--json", "--max-turns", "5000",
                           "--set", "end.time_limit_minutes=20").output)
    long = json.loads(run("simulate", "official-timed", "-n", "3", "--json", "--max-turns", "5000",
                          "--set", "end.time_limit_minutes=600").output)
    assert short["end_reasons"].get("time_limit", 0) == 3          # 20 minutes: every game stops on time
    assert short["turns"]["mean"] < long["turns"]["mean"]


def test_template_lists_every_open_value_and_an_overlay_supplies_them(tmp_path):
    out = run("simulate", "platform-custom", "-n", "1").output
    r = load_ruleset("platform-custom")
    assert {e.param for e in unsupplied(r)} <= {line.split(": ")[2].split(" ")[0]
                                               for line in out.splitlines() if "[E020]" in line}
    overlay = tmp_path / "my-table.yaml"
    overlay.write_text(
        "id: fx-open-table\ntitle: a table with every open value set\nkind: overlay\nrules:\n" + "".join(
            f"  {pid}:\n    value: {v}\n    assumed: the host chose it\n" for pid, v in {
                "setup.starting_cash": 15000, "timer.turn_seconds": 60, "timer.turn_reserve_seconds": 0,
                "go.salary_stop_minute": 40, "rent.tax_start_minute": 50, "mortgage.expiry_rounds": 7,
                "building.even_build": "true", "building.even_sell": "true",
                "building.hotel_needs_whole_group": "true", "building.per_turn_limit": "one_per_group",
                "speed_die.enabled": "false", "dice.count": 2}.items()), encoding="utf-8")
    result = run("simulate", f"platform-custom+{overlay}", "-n", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 1


@pytest.mark.parametrize("setting,code", [
    ("end.time_limit=90", "[E002]"),                 # unknown parameter, with a did-you-mean
    ("end.time_limit_minutes=0", "[E003]"),          # below the minimum
    ("end.time_limit_minutes=none", "[E004]"),       # a timed game needs a limit
])
def test_set_is_validated_like_a_ruleset_value(setting, code):
    result = run("simulate", "official-timed", "-n", "1", "--set", setting)
    assert result.exit_code != 0 and code in result.output and "Traceback" not in result.output


def test_a_worth_threshold_without_a_way_on_is_refused_on_the_values_played():
    # official is silent on surrender and has no repayment timer: the engine plays both off, and a player
    # whose worth covers a debt they cannot raise could then neither pay nor go bankrupt
    refused = run("simulate", "official", "-n", "3", "--set", "bankruptcy.threshold=debt_exceeds_worth")
    assert refused.exit_code != 0 and "[E004]" in refused.output and "worth-threshold-has-a-way-out" in refused.output
    assert "internal error" not in refused.output
    played = run("simulate", "official", "-n", "3", "--json", "--set", "bankruptcy.threshold=debt_exceeds_worth",
                 "--set", "bankruptcy.surrender=true")
    assert played.exit_code == 0, played.output
    assert json.loads(played.output)["games"] == 3


def test_malformed_set_is_a_usage_error():
    result = run("show", "official", "--set", "jail.fine")
    assert result.exit_code == 2 and "PARAM=VALUE" in result.output


def test_replay_reapplies_the_set_values_of_the_trace(tmp_path):
    trace = tmp_path / "t.jsonl"
    assert run("simulate", "official-timed", "-n", "1", "--set", "end.time_limit_minutes=30",
               "--trace", str(trace)).exit_code == 0
    header = json.loads(trace.read_text().splitlines()[0])
    assert header["set"] == {"end.time_limit_minutes": 30}
    assert run("replay", str(trace)).exit_code == 0
    lines = trace.read_text().splitlines()
    del header["set"]
    lines[0] = json.dumps(header)
    bare = tmp_path / "bare.jsonl"
    bare.write_text("\n".join(lines) + "\n")
    refused = run("replay", str(bare))
    assert refused.exit_code != 0 and "[E020]" in refused.output
    assert run("replay", str(bare), "--set", "end.time_limit_minutes=30").exit_code == 0


def test_show_marks_supplied_values():
    doc = json.loads(run("show", "official-timed", "--json", "--set", "end.time_limit_minutes=90").output)
    assert doc["supplied"] == {"end.time_limit_minutes": 90}
    entry = doc["rules"]["end.time_limit_minutes"]
    assert entry["kind"] == "assumed" and entry["value"] == 90 and "--set" in entry["assumed"]


def test_playable_is_the_one_call_for_commands_that_play():
    with pytest.raises(ErrorList) as exc:
        playable("official-timed")
    assert [e.code for e in exc.value.errors] == ["E020"]
    r = playable("official-timed", ["end.time_limit_minutes=45"])
    assert r.value("end.time_limit_minutes") == 45 and r.supplied == (("end.time_limit_minutes", 45),)
    require_supplied(load_ruleset("official"))      # no open value: nothing to refuse


def test_parse_assignments_reads_yaml_values():
    assert parse_assignments(["a.b=true", "c.d=0.5", "e.f=[25, 50, 75, 100]", "g.h=none"]) == {
        "a.b": True, "c.d": 0.5, "e.f": [25, 50, 75, 100], "g.h": "none"}
    with pytest.raises(ValueError):
        parse_assignments(["a.b=1", "a.b=2"])
    with pytest.raises(VerifyError):
        supply(load_ruleset("official"), {"go.salary": "lots"})
