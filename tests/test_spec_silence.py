"""Lint E019: a silent entry whose fallback switches off a mechanism the same ruleset enables.

One failing fixture per pattern the catalogue declares (``disables:``), each naming file:line; the
same entry made open (or assumed) passes; the bundled rulesets pass; the catalogue's declarations
are themselves checked.
"""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.errors import SpecError
from verify.spec.catalogue import load_catalogue
from verify.spec.lint import lint

FIX = Path(__file__).parent / "fixtures" / "silence"

# fixture -> (line of the silent entry, parameter, a fragment of the mechanism, what enables it)
PATTERNS = {
    "round-limit.yaml": (8, "end.round_limit", "a round limit", "end.condition = 'round_limit'"),
    "time-limit.yaml": (8, "end.time_limit_minutes", "a time limit", "end.condition = 'time_limit'"),
    "tax-start.yaml": (11, "rent.tax_start_minute", "late-game rent tax", "rent.tax_enabled = True"),
    "tax-rates.yaml": (9, "rent.tax_step_rate", "rise of the rent tax", "rent.tax_enabled = True"),
    "salary-stop.yaml": (8, "rent.tax_start_minute", "GO salary", "go.salary_stop_minute = 'tax_start'"),
    "shortage.yaml": (5, "building.house_supply", "finite stock of houses", "building.shortage_auction = True"),
    "per-turn-template.yaml": (5, "building.per_turn_limit", "building in one turn",
                               "platform-classic rules building.per_turn_limit = 'one_per_group'"),
    "trade-limit-template.yaml": (5, "trade.per_turn_limit", "trades in one turn",
                                  "platform-classic rules trade.per_turn_limit = 3"),
    "speed-die.yaml": (8, "speed_die.enabled", "the speed die", "dice.count = 3"),
    "claim-deadline.yaml": (8, "rent.claim_deadline", "unclaimed rent", "rent.owner_must_claim = True"),
}


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_each_pattern_fails_with_file_and_line(name):
    line, pid, mechanism, because = PATTERNS[name]
    result = CliRunner().invoke(main, ["lint", str(FIX / name)])
    assert result.exit_code == 1
    out = result.output
    assert re.search(rf"{re.escape(name)}:{line}: \[E019\] fx-silence-[a-z-]+: {re.escape(pid)} is silent", out), out
    assert mechanism in out and because in out and "Traceback" not in out


def test_zero_rates_report_each_silent_rate():
    _, errors = lint([FIX / "tax-rates.yaml"])
    assert sorted(e.message.split(": ")[1].split(" ")[0] for e in errors if e.code == "E019") == [
        "rent.tax_max_rate", "rent.tax_step_rate"]


def test_an_open_entry_is_the_fix():
    ids, errors = lint([FIX / "fixed.yaml"])
    assert ids == ["fx-silence-fixed"] and not errors


def test_bundled_rulesets_pass():
    _, errors = lint()
    assert not [e for e in errors if e.code == "E019"], [str(e) for e in errors]


def test_every_declaration_names_real_values(tmp_path):
    cat = load_catalogue()
    declared = {pid: p.disables for pid, p in cat.parameters.items() if p.disables}
    assert {"end.round_limit", "rent.tax_start_minute", "building.house_supply",
            "building.per_turn_limit"} <= set(declared)
    for pid, items in declared.items():
        for d in items:
            assert all(cat[pid].check(v) is None for v in d.values), pid


@pytest.mark.parametrize("disables,code", [
    ("[{values: [sometimes], mechanism: x}]", "E003"),
    ("[{values: [none], mechanism: x, when: \"end.conditon == 'round_limit'\"}]", "E002"),
    ("[{values: [none]}]", "E030"),
])
def test_bad_declaration_is_refused(tmp_path, disables, code):
    (tmp_path / "end.yaml").write_text(
        "area: end\nparameters:\n  end.condition:\n    type: enum\n    values: [last_standing, round_limit]\n"
        "    question: What ends the game?\n    fallback: last_standing\n  end.round_limit:\n    type: int_or\n"
        "    min: 1\n    symbols: [none]\n    question: After how many rounds?\n    fallback: none\n"
        f"    disables: {disables}\n", encoding="utf-8")
    with pytest.raises(SpecError) as exc:
        load_catalogue(tmp_path)
    assert exc.value.code == code
