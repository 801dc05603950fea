"""Quotes must carry their value (E023): long enough to be a citation, giving the number they cite."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.spec.quotes import derived_reason, missing_numbers, numbers_in, short_quotes

FIX = Path(__file__).parent / "fixtures" / "errors"
SOURCE = "000_91979e7e1d6b8ee6.txt"


def lint(path) -> str:
    res = CliRunner().invoke(main, ["lint", str(path)])
    assert res.exit_code == 1, res.output
    return res.output


def test_one_character_quotes_fail():
    out = lint(FIX / "trivial_quote.yaml")
    assert "trivial_quote.yaml:7: [E023] go.salary: the quote '200' is 1 word(s)" in out
    assert "trivial_quote.yaml:11: [E023] purchase.on_decline: the quote 'a' is 1 word(s)" in out
    assert "[E007]" not in out          # both occur in the rulebook: finding them proves nothing


def test_a_number_missing_from_the_quote_fails():
    out = lint(FIX / "number_not_quoted.yaml")
    assert "number_not_quoted.yaml:6: [E023] jail.fine: the value's number 75 appears in none of its quotes" in out
    assert "[derived: WHY]" in out


def _table(tmp_path, value, quote, gloss):
    f = tmp_path / "t.yaml"
    f.write_text(f"id: fx-q\ntitle: q\nkind: overlay\nsource: {SOURCE}\nrules:\n  setup.starting_cash:\n"
                 f"    value: {value}\n    quote: \"{quote}\"\n    gloss: \"{gloss}\"\n", encoding="utf-8")
    return f


def test_derived_marker_says_why(tmp_path):
    quote = "Herkes fazladan 1000 birimle başlar."
    assert "[E023]" in lint(_table(tmp_path, 2500, quote, "everyone starts with 1000 extra"))
    f = _table(tmp_path, 2500, quote, "everyone starts with 1000 extra [derived: 1500 + 1000]")
    res = CliRunner().invoke(main, ["lint", str(f)])
    assert res.exit_code == 0, res.output
    assert "[E023]" in lint(_table(tmp_path, 2500, quote, "1000 extra [derived: ]"))   # a reason is needed


@pytest.mark.parametrize("text, number", [
    ("Her oyuncuya başlangıçta 1500 birim dağıtılır", 1500),
    ("сваки играч почиње са $15,000", 15000),
    ("başlangıç parası 1.500 TL", 1500),
    ("starts with 15 000", 15000),
    ("rent of 2,5 times", 2.5),
    ("polazi od 50%", 50),
    ("Hapisten çıkmanın dört resmi yolu vardır", 4),
    ("Masz maksymalnie trzy próby", 3),
    ("tung được ba lần đôi liên tiếp", 3),
    ("ili tri puta zaredom baciš dubl", 3),
    ("за половину куповне цене", 0.5),
    ("Each player gets two deeds", 2),
])
def test_numbers_as_the_sources_write_them(text, number):
    assert number in numbers_in(text)


def test_shares_match_their_percentage_and_lists_need_every_number():
    assert missing_numbers(0.1, ["paying 10% interest"], None) == []
    assert missing_numbers(0.5, ["sell for half the price"], None) == []
    assert missing_numbers(0.5, ["sell for the price paid"], None) == [0.5]
    assert missing_numbers([25, 50, 100, 200], ["25 for 1, 50 for 2, 100 for 3, 200 for 4"], None) == []
    assert missing_numbers([25, 50, 100, 300], ["25 for 1, 50 for 2, 100 for 3, 200 for 4"], None) == [300]
    assert missing_numbers("mandatory", ["anything at all"], None) == []      # not a number: no rule
    assert missing_numbers(True, ["anything at all"], None) == []
    assert derived_reason("text [derived: the sum of 1500 and 1000]") == "the sum of 1500 and 1000"
    assert short_quotes(["two words", "three whole words"]) == [(0, "two words")]


def test_each_reading_value_is_held_to_the_entrys_quotes():
    out = lint(Path(__file__).parent / "fixtures" / "readings" / "unquoted.yaml")
    lines = [ln for ln in out.splitlines() if "[E023]" in ln]
    assert len(lines) == 2, out
    assert "unquoted.yaml:16: [E023] jail.max_tries: reading five-tries: its value's number 5 appears in none " \
        "of its quotes" in lines[0]
    assert "unquoted.yaml:27: [E023] jail.fine: reading fine-doubled: its value's number 100 appears" in lines[1]
    assert "[derived: WHY]" in lines[1]
    assert "four-tries" not in out and "fine-per-turn" not in out      # quoted, or derived with a reason
