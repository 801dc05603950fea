"""Every kind of bad ruleset input gives a file:line message with its code, never a traceback."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from verify.cli import main

FIX = Path(__file__).parent / "fixtures" / "errors"

# fixture -> (code, line, a fragment of the message)
CASES = {
    "malformed.yaml": ("E001", 6, "started at line 5"),
    "unknown_param.yaml": ("E002", 8, "did you mean 'building.max_houses'"),
    "wrong_type.yaml": ("E003", 8, "expected true or false"),
    "out_of_domain.yaml": ("E003", 5, "above the maximum"),
    "constraint_broken.yaml": ("E004", 8, "hotel-threshold-within-house-limit"),
    "destroy_card_missing.yaml": ("E004", 5, "destroy-card-in-deck"),
    "extends_missing.yaml": ("E005", 3, "'offical', which does not exist"),
    "bad_quote.yaml": ("E007", 11, "Başlangıç karesinden geçen 400 alır"),
    "duplicate_param.yaml": ("E008", 7, "given twice"),
    "bad_entry.yaml": ("E028", 5, "exactly one of"),
    "trivial_quote.yaml": ("E023", 7, "a citation is at least 3 words"),
    "number_not_quoted.yaml": ("E023", 6, "number 75 appears in none of its quotes"),
}


def run_lint(*paths):
    result = CliRunner().invoke(main, ["lint", *map(str, paths)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_kind_names_file_and_line(name):
    code, line, fragment = CASES[name]
    result = run_lint(FIX / name)
    assert result.exit_code == 1
    out = result.output
    assert re.search(rf"{re.escape(name)}:{line}: \[{code}\]", out), out
    assert fragment in out, out
    assert "Traceback" not in out


def test_cyclic_extends_reports_the_cycle():
    result = run_lint(FIX / "cyclic_a.yaml", FIX / "cyclic_b.yaml")
    assert result.exit_code == 1
    assert "cyclic_a.yaml:3: [E006] extends is cyclic: fx-cyclic-a -> fx-cyclic-b -> fx-cyclic-a" in result.output


def test_bad_quote_keeps_the_good_one():
    out = run_lint(FIX / "bad_quote.yaml").output
    assert out.count("[E007]") == 1  # the real quote is accepted


def test_quote_comparison_folds_whitespace_and_nfc(tmp_path):
    import unicodedata
    quote = unicodedata.normalize("NFD", "zarları atmadan\n      ÖNCE   50 birim ceza ödemek")
    f = tmp_path / "q.yaml"
    f.write_text(
        "id: fx-fold\ntitle: fold\nsource: 000_91979e7e1d6b8ee6.txt\nrules:\n  jail.fine:\n"
        f"    value: 50\n    quote: {quote!r}\n    gloss: pay 50 before rolling\n".replace("'", '"'),
        encoding="utf-8")
    out = run_lint(f).output
    assert "[E007]" not in out


def test_missing_path_is_a_clear_error():
    result = CliRunner().invoke(main, ["lint", "no/such/file.yaml"])
    assert result.exit_code == 2 and "no/such/file.yaml: no such file or folder" in result.output


@pytest.mark.parametrize("source", ["true", "[a, b]", "{x: 1}", "'../../etc/passwd'"])
def test_a_source_that_is_not_a_file_name_is_an_error(tmp_path, source):
    f = tmp_path / "s.yaml"
    f.write_text(f"id: fx-src\ntitle: t\nrules:\n  jail.fine:\n    value: 50\n    source: {source}\n"
                 "    quote: \"50 birim\"\n    gloss: fifty\n", encoding="utf-8")
    out = run_lint(f).output
    assert "[E010]" in out and "Traceback" not in out


def test_promising_an_unknown_invariant_is_e013(tmp_path):
    f = tmp_path / "t.yaml"
    f.write_text("id: fx-promise\ntitle: t\nextends: official\npromises:\n  even-build: true\n"
                 "  even-buildings: true\n", encoding="utf-8")
    result = run_lint(f)
    assert result.exit_code == 1
    assert re.search(r"t\.yaml:6: \[E013\] fx-promise promises unknown invariant 'even-buildings'", result.output), \
        result.output


def test_an_unknown_parameter_of_a_known_family_says_where_to_look():
    """A house rule written as a user would (``auction.enabled: false``): no parameter of that name is
    close, so the hint names the family's listing and the parameter that has an ``auction`` value; a
    longer name of a parameter (``jail.fine_amount``) points to it."""
    from verify.spec import load_ruleset
    cat = load_ruleset("official").catalogue
    hint = cat.suggest("auction.enabled")
    assert "verify params auction" in hint and "purchase.on_decline" in hint and "did you mean" not in hint
    assert cat.suggest("jail.fine_amount") == " (did you mean 'jail.fine'?)"
    assert cat.suggest("building.max_housess") == " (did you mean 'building.max_houses'?)"
    assert cat.suggest("goo.salary") == " (did you mean 'go.salary'?)"
    assert cat.suggest("nothing.like.this") == ""
