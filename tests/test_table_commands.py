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
    assert "supply it with --set end.time_limit_minutes=VALUE" in res.output
    # and the advice works: the value is played, and said so
    res = run("study", "official-timed", "--games", "1", "--out", tmp_path / "s", "--set", "end.time_limit_minutes=60")
    assert res.exit_code == 0, res.output
    assert "end.time_limit_minutes = 60: supplied with --set" in res.output


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
    assert "three-houses: build_hotel can never fire, though the ruleset has it" in res.output


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
    res = run("simulate", name, "--games", "1", "--set", "end.round_limit=40", "--set", "timer.turn_seconds=60",
              "--set", "auction.min_increment=10") if name == "online-vn" \
        else run("simulate", name, "--games", "1")
    assert res.exit_code == 0, res.output


KITCHEN = Path(__file__).parent / "fixtures" / "tables" / "kitchen-base.yaml"


def _credits(doc: dict) -> dict[str, list[str]]:
    return {f["id"]: [s["ruleset"] for s in f["sides"]] for f in doc["findings"]
            if f["kind"] in ("internal", "redundancy", "ambiguous")}


def test_a_rulebooks_own_disagreement_is_credited_to_the_rulebook_in_any_order():
    # official's two sentences on the interest of an inherited mortgage: one finding, an ambiguity with its
    # recorded reading (the two sentences agree under it), credited to official whatever the order
    one = _credits(json.loads(run("contradictions", KITCHEN, "official", "--json").output))
    other = _credits(json.loads(run("contradictions", "official", KITCHEN, "--json").output))
    assert one == other
    assert one["ambiguous:official:bankruptcy.mortgage_interest_base"] == ["official", "official"]
    assert all("kitchen-base" not in sides for sides in one.values()), one


def test_a_rulebooks_words_are_credited_to_it_though_it_is_not_named():
    """Each of the two parts of the crediting rule on its own: the file that states the words is credited
    when only a table built on it is named, and of two rulesets that could be credited the choice does not
    depend on the order they were named in."""
    alone = _credits(json.loads(run("contradictions", KITCHEN, "classic-pl", "--json").output))
    assert alone["ambiguous:official:bankruptcy.mortgage_interest_base"] == ["official", "official"]
    assert all("kitchen-base" not in sides for sides in alone.values()), alone
    one = _credits(json.loads(run("contradictions", "official-short", "official-pre2008", "--json").output))
    other = _credits(json.loads(run("contradictions", "official-pre2008", "official-short", "--json").output))
    assert one == other and one["redundancy:000:jail-at-most-three-turns"] == ["official"] * 3


def test_the_report_led_by_a_table_credits_the_rulebook(tmp_path):
    out = tmp_path / "reports"
    res = run("report", KITCHEN, "--out", out, "--no-check", "--no-simulate")
    assert res.exit_code == 0, res.output
    credits = _credits(json.loads((out / "contradictions.json").read_text(encoding="utf-8")))
    assert credits["ambiguous:official:bankruptcy.mortgage_interest_base"] == ["official", "official"]
    assert all("kitchen-base" not in sides for sides in credits.values())


def rich(rid: str = "rich-table") -> str:
    """A full table extending official (a fresh id per test: one process keeps every file it has read)."""
    return RICH.replace("rich-table", rid)


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
    res = CliRunner().invoke(main, ["check", str(f), "--jobs", "1", "--action", "build_house"],
                             env={"COLUMNS": "300"})
    assert res.exit_code == 1, res.output
    assert (f"even-build is promised by official, which uneven builds on; if uneven does not keep that promise, "
            f"write `promises: {{even-build: false}}` in {f}") in res.output
    scenario = res.output[res.output.index("VIOLATED by build_house"):]
    streets = {line.split(" (square")[0].strip() for line in scenario.splitlines() if "(square" in line}
    assert 1 <= len(streets) <= 3, scenario               # one colour group, not the whole board
    shown = json.loads(run("show", f, "--json").output)
    assert shown["promised_by"]["even-build"] == "official"
    kept = table(tmp_path, "uneven-kept", f.read_text().replace("id: uneven", "id: uneven-kept")
                 + "promises: {even-build: false}\n")
    res = CliRunner().invoke(main, ["check", str(kept), "--jobs", "1", "--action", "build_house"])
    assert res.exit_code == 0, res.output


OWN = """id: our-table
title: Our kitchen-table rules
extends: official
rules:
  free_parking.pot:
    value: true
    assumed: "taxes and fines go to the middle"
  setup.starting_cash:
    open: "we agree on it before each game"
  rent.jailed_owner_collects:
    silent: "we never agreed on it"
  mortgage.others_may_lift:
    silent: "nobody ever asked"
"""


def test_a_table_leaves_a_value_open_in_its_own_words(tmp_path):
    f = table(tmp_path, "own", OWN)
    assert run("lint", f).exit_code == 0
    named = table(tmp_path, "named", OWN.replace("rules:", "source: 000_91979e7e1d6b8ee6.txt\nrules:")
                  .replace("our-table", "named-table"))
    res = run("lint", named)
    assert res.exit_code == 1 and f"{named}:9: [E028] setup.starting_cash: an open entry of a rulebook" in res.output
    own_source = table(tmp_path, "own-source", OWN.replace("rules:", "source: table\nrules:")
                       .replace("our-table", "own-source"))
    assert run("lint", own_source).exit_code == 0


def test_commands_say_what_they_played_for_a_tables_undecided_values(tmp_path):
    f = table(tmp_path, "own", OWN)
    res = run("simulate", f, "--games", "1")
    assert res.exit_code == 1 and "[E020]" in res.output and "setup.starting_cash" in res.output
    assert f"stack an overlay file that sets it ({f}+my-table.yaml)" in res.output     # by the name that works
    res = run("simulate", f, "--games", "1", "--set", "setup.starting_cash=1200")
    assert res.exit_code == 0, res.output
    assert "setup.starting_cash = 1200: supplied with --set" in res.output
    assert ("rent.jailed_owner_collects = true: the catalogue's fallback, because your table our-table is "
            "silent (we never agreed on it)") in res.output
    res = run("compile", f, "-o", tmp_path / "config.json")
    assert res.exit_code == 0 and "setup.starting_cash: open in your table our-table" in res.output
    assert "compiled as the catalogue's fallback 1500" in res.output
    res = run("conform", "--engine", "verify.conform.reference:ReferenceEngine", "--ruleset", f, "--set",
              "setup.starting_cash=1200", "--examples", "1", "--scenarios", tmp_path / "sc")
    assert res.exit_code == 0 and "rent.jailed_owner_collects = true: the catalogue's fallback" in res.output
    doc = json.loads(run("simulate", f, "--games", "1", "--set", "setup.starting_cash=1200", "--json").output)
    assert {v["param"]: v["how"] for v in doc["table_values"]} == {
        "setup.starting_cash": "set", "rent.jailed_owner_collects": "fallback", "mortgage.others_may_lift": "fallback",
        "free_parking.pot_card_payments": "kept"}         # official's "not applicable", with the pot switched on


def test_a_tables_findings_have_distinct_ids_and_ask_has_a_question_for_each_value(tmp_path):
    f = table(tmp_path, "own", OWN)
    doc = json.loads(run("contradictions", f, "--json").output)
    ids = [x["id"] for x in doc["findings"]]
    assert len(ids) == len(set(ids)) and "silent:our-table:rent.jailed_owner_collects" in ids
    res = run("ask", "may", "others", "lift", "a", "mortgage", f, "--json")
    questions = json.loads(res.output)["questions"]
    mine = next(q for q in questions if q["params"] == ["mortgage.others_may_lift"])
    assert mine["answers"][0]["table"] and mine["answers"][0]["status"] == "silent"


def test_the_reports_what_it_changes_lists_a_tables_undecided_values(tmp_path):
    f = table(tmp_path, "own", OWN)
    out = tmp_path / "reports"
    assert run("report", f, "--out", out, "--no-check", "--no-simulate").exit_code == 0
    html = (out / "index.html").read_text(encoding="utf-8")
    mine = html[html.index('class="yours"'):html.index('id="top"')]
    changes = mine[mine.index("What it changes"):mine.index("Where the rulebooks")]
    assert "What it changes (4)" in changes and "Does an owner in jail still collect rent?" in changes
    assert "Values it does not state (4)" in mine
    assert "setup.starting_cash: open in your table our-table (we agree on it before each game)" in mine
    # how to supply it, in words the report itself takes
    assert ("not played until supplied: --set setup.starting_cash=VALUE (simulate, study, report), or an overlay "
            f"file that sets it stacked on the table ({f}+my-table.yaml)") in mine


def test_a_check_saved_for_one_table_shows_the_others_as_not_run(tmp_path):
    f = table(tmp_path, "rich", rich("rich-checked"))
    saved = tmp_path / "check.json"
    res = run("check", f, "--jobs", "1", "--action", "buy", "--json", "-o", saved)
    assert res.exit_code == 0, res.output
    out = tmp_path / "reports"
    res = run("report", f, "--out", out, "--no-simulate", "--check-json", saved)
    assert res.exit_code == 0, res.output
    line = next(x for x in res.output.splitlines() if x.startswith("findings:"))
    assert "check: ran for 1 of " in line and " not run)" in line and "check: ran;" not in line
    html = (out / "matrix.html").read_text(encoding="utf-8")
    assert html.count('class="not-run"') >= 17 and "not run: the saved check holds no result" in html
    assert 'ruleset-official.html">official</a></th><td colspan' in html


def test_the_reports_few_games_never_claim_a_sign_they_cannot_tell(tmp_path):
    from verify.report import ReportOptions, build
    from verify.report.runs import CheckRun, SimRun, Simulation
    from verify.report.sample import compare_lengths

    noisy = {"official": {"games": 30, "turns": {"mean": 200, "sd": 90}},
             "t": {"games": 30, "turns": {"mean": 190, "sd": 90}}}
    v = compare_lengths("t", "official", noisy)
    assert v.sign == "cannot tell" and v.lo < 0 < v.hi
    assert v.text.startswith("30 games of each cannot tell whether t plays longer or shorter than official")
    clear = {"official": {"games": 5000, "turns": {"mean": 200, "sd": 90}},
             "t": {"games": 5000, "turns": {"mean": 220, "sd": 90}}}
    assert compare_lengths("t", "official", clear).sign == "longer"

    f = table(tmp_path, "rich", rich("rich-sampled"))
    means = {"official": 200, str(f): 185}                 # a table is simulated by its file's path

    def sim(targets, games, seed):
        return Simulation("ran", games, "4", seed, tuple(SimRun(rid, "ran", {
            "games": games, "finished": games, "turns": {"mean": means.get(rid, 150), "median": 150, "p90": 300,
                                                         "sd": 95},
            "landings": [1] * 40, "elapsed_s": 0.1}) for rid, _p in targets))
    out = tmp_path / "rep"
    build(ReportOptions(out=out, games=30, tables=(str(f),)),
          hooks={"check": lambda names: CheckRun("not run", reason="test"), "simulate": sim})
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "30 games of each cannot tell whether rich-sampled plays longer or shorter than official" in index
    page = (out / "simulation.html").read_text(encoding="utf-8")
    assert "95 % interval of the mean" in page and "cannot tell" in page
    assert "rich-sampled plays shorter than" not in page and f"verify study official {f} --games 5000" in page


def test_the_report_says_which_part_it_is_in(tmp_path):
    """The README's first command is no silent wait: each part of the report is named on stderr (a plain
    line in a log; on a terminal the parts with many steps add a bar)."""
    from tests.cli_process import run_verify
    res = run_verify("report", "--out", tmp_path / "reports", "--no-check", "--games", "1", "--effect-games", "2",
                     cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    parts = [line for line in res.stderr.splitlines() if line.startswith("report: ")]
    assert parts[0].startswith("report: comparing 17 rulesets")
    order = list(dict.fromkeys(p.split(":")[1].strip() for p in parts[1:]))      # each part, first seen
    assert order == ["simulation", "effects", "pages"]
    assert any(p.startswith("report: effects: each answer to the ") and p.endswith("(2 games each)") for p in parts)
    assert "wrote" in res.stdout


def test_progress_lines_name_the_item_under_way():
    import io

    from verify.execute.progress import Progress
    out = io.StringIO()
    bar = Progress(3, "rulesets", "report: simulation", stream=out, mode="lines", interval=0)
    bar.start()
    for rid in ("official", "classic-pl", "online-vn"):
        bar.describe(rid)
        bar.advance(1)
    bar.close()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("report: simulation: 1/3 rulesets (33%), now official,")
    assert lines[-1].startswith("report: simulation: 3/3 rulesets in ")


def test_a_counterexample_is_minimised_by_work_not_by_wall_time(monkeypatch):
    """On a busy machine a wall-clock limit of a second left the whole 27-street board in the counterexample;
    the minimisation's budget is counted in z3's resource units, so a loaded machine gets the same scenario."""
    import z3

    from verify.smt import scenario
    from verify.smt.proofs import clear_caches
    clear_caches()                                   # solve (and minimise) again, not from this process's cache
    seen = []
    original = z3.Optimize.set

    def record(self, *args, **kw):
        seen.append(args)
        return original(self, *args, **kw)
    monkeypatch.setattr(z3.Optimize, "set", record)
    res = run("check", Path(__file__).parent / "fixtures" / "negative" / "supply-never-decremented.yaml",
              "--jobs", "1", "--action", "build_house")
    assert res.exit_code == 1 and "VIOLATED by build_house" in res.output
    assert ("rlimit", scenario.MINIMISE_RLIMIT) in seen
    assert all(ms >= 60_000 for key, ms in seen if key == "timeout")


def test_a_trace_of_a_table_file_replays_from_anywhere(tmp_path):
    from tests.cli_process import run_verify
    folder = tmp_path / "games"
    folder.mkdir()
    table(folder, "rich", rich("rich-traced"))
    res = run_verify("simulate", "rich.yaml", "--games", "2", "--trace", "game.jsonl", cwd=folder)
    assert res.returncode == 0, res.stderr
    header = json.loads((folder / "game.jsonl").read_text().splitlines()[0])
    assert header["ruleset"] == "rich-traced" and header["ruleset_files"] == "rich.yaml"
    res = run_verify("replay", folder / "game.jsonl", cwd=tmp_path)          # another folder
    assert res.returncode == 0, res.stderr
    assert "every step follows the rules" in res.stdout
    (folder / "rich.yaml").rename(tmp_path / "moved.yaml")
    res = run_verify("replay", folder / "game.jsonl", cwd=tmp_path)
    assert res.returncode == 1
    assert "was recorded with ruleset 'rich.yaml', which cannot be found from here" in res.stderr
    assert "pass the ruleset file with --ruleset FILE" in res.stderr and "verify rulesets" not in res.stderr
    res = run_verify("replay", folder / "game.jsonl", "--ruleset", tmp_path / "moved.yaml", cwd=tmp_path)
    assert res.returncode == 0, res.stderr


WHOLE = """id: çay-masası
title: Bizim masa
description: |
  The rules we play on Sundays,
  written down after the great argument.
extends: official
rules:
  free_parking.pot:
    value: true
    assumed: "fines go to the middle"
  free_parking.pot_card_payments:
    value: true
    assumed: "card payments too"
  jail.fine:
    value: 50
    assumed: "as official, written down anyway"
extra_rules:
  - "Rolling double ones pays 500 from the bank."
"""


def test_every_value_a_table_sets_appears_in_diff(tmp_path):
    """A value whose base is not applicable (official has no pot, so no card payments into it) is a change
    all the same, played with the pot; a value stated as the base rules it is listed too."""
    f = table(tmp_path, "whole", WHOLE)
    doc = json.loads(run("diff", f, "--json").output)
    changes = {c["param"]: c for c in doc["changes"]}
    assert set(changes) == {"free_parking.pot", "free_parking.pot_card_payments"}
    card = changes["free_parking.pot_card_payments"]
    assert card["base"]["evidence"] == "not_applicable" and card["table"]["value"] is True
    assert [s["param"] for s in doc["same"]] == ["jail.fine"]
    assert doc["extra_rules"] == [{"file": "çay-masası", "text": "Rolling double ones pays 500 from the bank.",
                                   "played": False, "checked": False}]
    text = run("diff", f).output
    assert "The rules we play on Sundays, written down after the great argument." in text
    assert "free_parking.pot_card_payments — Where there is a Free Parking pot" in text
    assert "official (000_91979e7e1d6b8ee6.txt): not applicable: the game has no such mechanism" in text
    assert "stated as the base rules them (no change):\n  jail.fine = 50" in text
    assert ("rules in the table's own words (not played, not checked):\n"
            "  - Rolling double ones pays 500 from the bank. (çay-masası)") in text
    # the table's findings carry the change, so the report links it to a finding that exists
    ids = {x["id"] for x in json.loads(run("contradictions", f, "--json").output)["findings"]}
    assert "variant:çay-masası:free_parking.pot_card_payments" in ids


def test_show_prints_a_tables_description_its_own_words_and_every_note(tmp_path):
    f = table(tmp_path, "whole", WHOLE)
    text = " ".join(run("show", f).output.split())       # rich wraps lines to the terminal
    assert "The rules we play on Sundays, written down after the great argument." in text
    assert "extra rule (not played, not checked): Rolling double ones pays 500 from the bank." in text
    doc = json.loads(run("show", f, "--json").output)
    assert doc["description"].startswith("The rules we play") and doc["extra_rules"][0]["played"] is False
    # a note that rules a reading out is shown beside its value
    from verify.spec.registry import registry
    official = registry().files["official"]
    noted = [e for e in official.entries.values() if e.note]
    assert noted
    shown = " ".join(run("show", "official").output.split())
    for e in noted:
        assert "note: " + " ".join(e.note.split())[:60] in shown, e.param


def test_extra_rules_are_a_list_of_words(tmp_path):
    bad = table(tmp_path, "bad", WHOLE.replace('  - "Rolling double ones pays 500 from the bank."',
                                               "  pays: 500"))
    res = run("lint", bad)
    assert res.exit_code == 1 and f"{bad}:17: [E009] 'extra_rules' is a list of rules in your own words" in res.output


def test_a_number_that_is_not_finite_is_refused_at_its_line(tmp_path):
    f = table(tmp_path, "nan", """id: nan-table
title: NaN
extends: official
rules:
  building.sell_ratio:
    value: .nan
    assumed: "x"
  trade.max_value_ratio:
    value: .inf
    assumed: "y"
""")
    res = run("lint", f)
    assert res.exit_code == 1
    assert f"{f}:6: [E003] building.sell_ratio: nan is not a finite number: expected a number from 0 to 1" in res.output
    assert f"{f}:9: [E003] trade.max_value_ratio: inf is not a finite number" in res.output
    res = run("simulate", "official", "--set", "building.sell_ratio=.nan", "--games", "1")
    assert res.exit_code == 1 and "[E003] building.sell_ratio: nan is not a finite number" in res.output


def test_report_set_plays_a_table_with_an_open_value(tmp_path):
    from verify.report import ReportOptions, build
    from verify.report.runs import Simulation
    f = table(tmp_path, "own", OWN)
    seen = {}

    def sim(targets, games, seed, settings=None):
        seen.update(targets=targets, settings=settings)
        return Simulation("not run", games, "—", seed, reason="not part of this test")
    summary = build(ReportOptions(out=tmp_path / "r", tables=(str(f),), run_check=False,
                                  settings=(("setup.starting_cash", 2000),)), hooks={"simulate": sim})
    assert (str(f), 4) in seen["targets"] and seen["settings"] == {str(f): {"setup.starting_cash": 2000}}
    assert "our-table" not in summary["not_played"]
    html = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert "<code>--set setup.starting_cash=2000</code>" in html
    assert "setup.starting_cash = 2000: supplied with --set" in html
    # the table's own findings are counted apart: its pot against the rulebooks' is no rulebooks' dispute
    mine = summary["tables_counts"]
    assert mine["contradiction"] >= 1 and mine["variant"] >= 1
    assert summary["counts"]["contradiction"] > mine["contradiction"]
    assert f"({mine['contradiction']} of them your tables')" in html
    res = run("report", "--out", tmp_path / "r2", "--set", "setup.starting_cash=2000")
    assert res.exit_code == 2 and "--set gives a value to your tables: name one" in res.output
