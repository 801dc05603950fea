"""A table of one's own through every command: the answers a user gets are right, or a clear error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from verify.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def table(folder: Path, name: str, body: str) -> Path:
    f = folder / f"{name}.yaml"
    f.write_text(body, encoding="utf-8")
    return f


POT_ON_PLATFORM = """id: casino-pot
title: A Free Parking pot on the platform's board
extends: platform-classic
rules:
  free_parking.pot:
    value: true
    assumed: "taxes go to the middle"
"""


def test_a_pot_on_a_board_without_free_parking_is_an_error_in_lint(tmp_path):
    f = table(tmp_path, "casino-pot", POT_ON_PLATFORM)
    res = run("lint", f)
    assert res.exit_code == 1
    assert f"{f}:5: [E004] casino-pot: constraint free-parking-pot-on-the-board is broken" in res.output


def test_a_pot_stacked_on_a_board_without_free_parking_is_not_played(tmp_path):
    res = run("simulate", "platform-classic+house-free-parking-pot", "--games", "1")
    assert res.exit_code == 1
    assert "[E004] platform-classic+house-free-parking-pot: constraint free-parking-pot-on-the-board" in res.output
    assert "board.corner_20 in platform-classic, free_parking.pot in house-free-parking-pot" in res.output
    res = run("study", "platform-classic+house-free-parking-pot", "--games", "1", "--out", tmp_path / "s")
    assert res.exit_code == 1 and "[E004]" in res.output and not (tmp_path / "s").exists()


def test_check_fails_a_pot_on_a_board_without_free_parking(tmp_path):
    res = run("check", "platform-classic+house-free-parking-pot", "--jobs", "1", "--action", "buy", "--json")
    assert res.exit_code == 1, res.output
    doc = json.loads(res.output[res.output.index("{"):])
    bad = [r for r in doc["results"] if r["invariant"] == "constraint:free-parking-pot-on-the-board"]
    assert bad and bad[0]["promised"] and bad[0]["verdict"] == "VIOLATED"


def test_a_study_never_plays_an_open_value(tmp_path):
    res = run("study", "official-timed", "--games", "1", "--out", tmp_path / "s")
    assert res.exit_code == 1 and "[E020]" in res.output and "end.time_limit_minutes" in res.output


def test_check_says_why_it_fails_when_a_rule_of_the_table_can_never_fire(tmp_path):
    f = table(tmp_path, "three", """id: three-houses
title: Three houses in the box
extends: official
rules:
  building.house_supply:
    value: 3
    assumed: "we lost the other houses"
""")
    res = CliRunner().invoke(main, ["check", str(f), "--jobs", "1"], env={"COLUMNS": "300"})
    assert res.exit_code == 1
    last = res.output.strip().splitlines()[-1]
    assert "every promised check PROVED" not in last and last.endswith("2 promised check(s) not proved"), last
    assert "three-houses: build-hotel can never fire, though the ruleset has it" in res.output


def test_check_with_an_unknown_action_or_invariant_is_a_usage_error():
    for option, name in (("--action", "bogus"), ("--invariant", "even-buld")):
        res = run("check", "official", option, name)
        assert res.exit_code == 2, res.output
        assert f"Invalid value for {option}: unknown name {name!r}" in res.output
    assert "did you mean 'even-build'" in res.output


def test_params_takes_a_parameter_prefix():
    res = run("params", "free_parking", "--json")
    assert res.exit_code == 0, res.output
    ids = [p["id"] for p in json.loads(res.output)["parameters"]]
    assert ids and all(i.startswith("free_parking.") for i in ids) and "free_parking.pot" in ids


def test_lint_takes_a_folder(tmp_path):
    table(tmp_path, "a", POT_ON_PLATFORM)
    (tmp_path / "sub").mkdir()
    table(tmp_path / "sub", "b", POT_ON_PLATFORM.replace("casino-pot", "casino-pot-2"))
    res = run("lint", tmp_path)
    assert res.exit_code == 1
    assert res.output.count("[E004]") == 2 and "2 ruleset(s) checked" in res.output
    res = run("lint", tmp_path / "nothing-here")
    assert res.exit_code == 2 and "no such file or folder" in res.output


@pytest.mark.parametrize("name", ["official+house-double-go", "online-vn"])
def test_consistent_rulesets_still_play(name):
    res = run("simulate", name, "--games", "1", "--set", "end.round_limit=40") if name == "online-vn" \
        else run("simulate", name, "--games", "1")
    assert res.exit_code == 0, res.output


KITCHEN = Path(__file__).parent / "fixtures" / "tables" / "kitchen-base.yaml"


def _credits(doc: dict) -> dict[str, list[str]]:
    return {f["id"]: [s["ruleset"] for s in f["sides"]] for f in doc["findings"]
            if f["kind"] in ("internal", "redundancy", "ambiguous")}


def test_a_rulebooks_own_disagreement_is_credited_to_the_rulebook_in_any_order():
    one = _credits(json.loads(run("contradictions", KITCHEN, "official", "--json").output))
    other = _credits(json.loads(run("contradictions", "official", KITCHEN, "--json").output))
    assert one == other
    assert one["internal:000:mortgage-interest-base"] == ["official", "official"]
    assert all("kitchen-base" not in sides for sides in one.values()), one


def test_the_report_led_by_a_table_credits_the_rulebook(tmp_path):
    out = tmp_path / "reports"
    res = run("report", KITCHEN, "--out", out, "--no-check", "--no-simulate")
    assert res.exit_code == 0, res.output
    credits = _credits(json.loads((out / "contradictions.json").read_text(encoding="utf-8")))
    assert credits["internal:000:mortgage-interest-base"] == ["official", "official"]
    assert all("kitchen-base" not in sides for sides in credits.values())


RICH = """id: rich-table
title: Rich start
extends: official
rules:
  setup.starting_cash:
    value: 2000
    assumed: "everyone starts richer"
"""


def test_a_full_table_stacked_on_another_base_brings_only_its_own_changes(tmp_path):
    f = table(tmp_path, "rich", RICH)
    res = run("diff", f"platform-classic+{f}", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["base"] == "platform-classic"
    assert [c["param"] for c in doc["changes"]] == ["setup.starting_cash"]       # not official put back
    assert doc["changes"][0]["table"]["value"] == 20000                          # 2000 classic on the x10 board
    shown = json.loads(run("show", f"platform-classic+{f}", "--json").output)
    assert shown["chain"] == ["platform-classic", "rich-table"]
    assert shown["rules"]["board.corner_20"]["value"] == "casino"
    assert "x10/1" in shown["rules"]["setup.starting_cash"]["note"]
    # and back: a table written on the x10 platform stacked on official is divided by ten
    g = table(tmp_path, "plat", RICH.replace("official", "platform-classic").replace("2000", "20000")
              .replace("rich-table", "rich-platform"))
    shown = json.loads(run("show", f"official+{g}", "--json").output)
    assert shown["rules"]["setup.starting_cash"]["value"] == 2000


def test_an_inherited_promise_says_where_it_comes_from_and_how_to_drop_it(tmp_path):
    f = table(tmp_path, "uneven", """id: uneven
title: Build as you like
extends: official
rules:
  building.even_build:
    value: false
    assumed: "we build where we like"
  building.even_sell:
    value: false
    assumed: "and sell where we like"
""")
    res = CliRunner().invoke(main, ["check", str(f), "--jobs", "1", "--action", "build-house"],
                             env={"COLUMNS": "300"})
    assert res.exit_code == 1, res.output
    assert (f"even-build is promised by official, which uneven builds on; if uneven does not keep that promise, "
            f"write `promises: {{even-build: false}}` in {f}") in res.output
    scenario = res.output[res.output.index("VIOLATED by build-house"):]
    streets = {line.split(" (square")[0].strip() for line in scenario.splitlines() if "(square" in line}
    assert 1 <= len(streets) <= 3, scenario               # one colour group, not the whole board
    shown = json.loads(run("show", f, "--json").output)
    assert shown["promised_by"]["even-build"] == "official"
    kept = table(tmp_path, "uneven-kept", f.read_text().replace("id: uneven", "id: uneven-kept")
                 + "promises: {even-build: false}\n")
    res = CliRunner().invoke(main, ["check", str(kept), "--jobs", "1", "--action", "build-house"])
    assert res.exit_code == 0, res.output
