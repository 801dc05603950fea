"""A finding's kind is decided where the sides part, from the evidence of the statement there (the claims of
an entry), not from the label of the whole value: one fixture per class the readers found (an absence, a
general clause, an on-screen step, a borrowed number, a question that does not arise, a double count, a
stated existence or shape under an assumed label; a point the ruleset itself reads two ways, a difference
that follows from another, a stated relation beside a borrowed number), each asserting its kind, and the
claim format's lint."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.compare import compare
from verify.spec.registry import Registry

TR = """
id: tr-game
title: TR (from 000)
source: 000_91979e7e1d6b8ee6.txt
language: tr
rules:
  money.scale: {value: 1, assumed: classic amounts}
  jail.card_exit: {value: true, quote: "Elindeki Hapisten Çıkış kartını kullanmak.", gloss: using the card one holds}
  go.salary_once_per_turn: {value: true, quote: "Tutar her turda bir kez ödenir.", gloss: paid once a turn}
  trade.per_turn_limit: {value: unlimited, assumed: a board game counts no trades}
  rent.owner_must_claim: {value: true, quote: "Kirayı istemek sahibin sorumluluğudur.", gloss: the owner must ask}
  go.salary_stop_minute: {value: never, assumed: a board game has no clock}
  end.condition: {value: last_standing, quote: "Standart oyun, bir oyuncu dışında herkes iflas edene kadar sürer.",
                  gloss: the game lasts until all but one are bankrupt}
  end.winner: {value: last_standing, quote: "Masada kalan son oyuncu kazanır.", gloss: the last player left wins}
  bankruptcy.to_player_cash:
    value: creditor
    quote: "Borç bir oyuncuya ise: iflas eden oyuncu değerli olan her şeyini alacaklıya devreder."
    gloss: to a player, the bankrupt hands everything of value to the creditor
  bankruptcy.to_player_properties:
    value: creditor
    quote: "Borç bir oyuncuya ise: iflas eden oyuncu değerli olan her şeyini alacaklıya devreder."
    gloss: to a player, the bankrupt hands everything of value to the creditor
  board.chest_squares:
    value: [2, 17, 33]
    assumed: positions of the printed board
    claims:
      - says: The board has Community Chest squares.
        settles: "len(value) > 0"
        quote: "Şans ve Kamu Fonu kareleri"
        gloss: Chance and Community Chest squares
  rent.station_schedule:
    value: [25, 50, 100, 200]
    quote: "1 istasyon için 25, 2 için 50, 3 için 100, 4 için 200"
    gloss: 25, 50, 100, 200
"""
VI = """
id: vi-game
title: VI (from 002)
source: 002_bb6c4fccb69c2474.txt
language: vi
rules:
  money.scale: {value: 1, assumed: classic amounts}
  jail.card_exit:
    value: false
    quote: "Để ra ngoài, bạn có thể trả tiền bảo lãnh, tung được một cặp đôi"
    gloss: to get out you may pay bail or roll a double
    claims:
      - says: There is no card to leave jail with.
        evidence: absence
        why: the list of ways out does not say only
  rent.owner_must_claim:
    value: false
    quote: "Khi dừng tại một công ty thuộc sở hữu của người khác, bạn phải trả tiền thuê:"
    gloss: you must pay rent
    claims:
      - says: Rent is paid without the owner asking.
        evidence: medium
        why: the online game's Pay step collects it
  go.salary_stop_minute:
    value: tax_start
    quote: "cho đến khi nền kinh tế bắt đầu bị đánh thuế ở giai đoạn sau của ván chơi"
    gloss: until the economy starts to be taxed late in the game
    claims:
      - says: The salary stops.
        settles: "value != 'never'"
        quote: "cho đến khi nền kinh tế bắt đầu bị đánh thuế"
        gloss: until the economy starts to be taxed
      - says: At the tax's start, minute 61.
        evidence: borrowed
        from: 003_12a896ad6461c82f.txt
        why: the handbook gives no minute
  rent.tax_enabled: {value: true, quote: "tiền thuê bị đánh thuế ngày càng nhiều theo thời gian", gloss: rent is taxed}
  rent.tax_start_minute:
    value: 61
    assumed: the platform's minute
    claims:
      - {says: The tax starts at minute 61., evidence: borrowed, from: 003_12a896ad6461c82f.txt, why: none given}
  end.condition:
    value: round_limit
    quote: "Một ván kết thúc khi chỉ còn lại một người chơi còn khả năng thanh toán, hoặc khi đạt đến giới hạn số vòng"
    gloss: a game ends when one solvent player is left, or at the round limit
  end.round_limit: {value: 30, assumed: a round limit for the fixture}
  end.winner: {value: richest, quote: "khi đó người chơi giàu nhất tính theo giá trị tài sản ròng sẽ thắng",
               gloss: then the richest wins}
  bankruptcy.to_player_cash:
    value: proceeds_to_creditor
    quote: "tài sản của bạn được thanh lý cho ngân hàng, chủ nợ được trả từ số tiền thu được"
    gloss: your assets are liquidated to the bank and the creditor is paid from the proceeds
  bankruptcy.to_player_properties:
    value: bank_unowned
    quote: "tài sản của bạn được thanh lý cho ngân hàng, chủ nợ được trả từ số tiền thu được, bất động sản của bạn trở lại quỹ chung"
    gloss: liquidated; the creditor is paid from the proceeds; the properties return to the pool
  board.chest_squares: {value: [], quote: "hai ô thuế, và các ô Cơ hội.", gloss: two tax squares and the Chance squares}
  board.chance_squares: {value: [2, 7, 17, 22, 33, 36], assumed: the six card squares}
  rent.station_schedule:
    value: [25, 50, 75, 100]
    assumed: the amounts are the printed one-station rent times the stations
    claims:
      - says: The rent is proportional to the stations held.
        settles: "max(value) / min(value)"
        quote: "Nhà ga — tiền thuê tỷ lệ với số nhà ga mà chủ đó nắm giữ."
        gloss: station rent is proportional to the stations held
"""
SR = """
id: sr-game
title: SR (from 003)
source: 003_12a896ad6461c82f.txt
language: sr
rules:
  money.scale: {value: 10, assumed: amounts ten times the classic}
  go.salary_once_per_turn:
    value: false
    quote: "примају плату од $2,000 сваки пут када прођу Старт"
    gloss: they receive a salary every time they pass Start
    claims:
      - says: A second pass in one turn pays again.
        evidence: generic
        why: the general salary rule does not speak of a second pass in one turn
  trade.per_turn_limit: {value: 3, quote: "До 3 размене по потезу.", gloss: up to 3 trades per turn}
  go.salary_stop_minute: {value: 46, quote: "Исплата плате престаје у 46. минуту.", gloss: the salary stops at minute 46}
  rent.tax_enabled: {value: true, quote: "Економија се заоштрава са напретком игре.", gloss: the economy tightens}
  rent.tax_start_minute: {value: 61, quote: "Порески систем почиње у 61. минуту", gloss: the tax starts at minute 61}
"""
PL = """
id: pl-game
title: PL (from 001)
source: 001_0634ad071e3b7847.txt
language: pl
rules:
  money.scale: {value: 1, assumed: classic amounts}
  trade.per_turn_limit:
    value: unlimited
    quote: "Gracze mogą w dowolnym momencie kupować, sprzedawać i wymieniać nieruchomości"
    gloss: players may at any time buy, sell and swap properties
    claims:
      - says: Any number of trades in a turn.
        evidence: generic
        why: at any moment says when, not how many
"""


def _registry(tmp_path, **files) -> Registry:
    paths = []
    for name, text in files.items():
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
        paths.append(tmp_path / f"{name}.yaml")
    return Registry.load(extra=paths, bundled=False)


def every(findings):
    return {x.id: x for f in findings for x in (f, *f.consequences)}


@pytest.fixture(scope="module")
def four(tmp_path_factory):
    reg = _registry(tmp_path_factory.mktemp("four"), tr=TR, vi=VI, sr=SR, pl=PL)
    result = compare(reg=reg)
    return result, every(result.findings)


def side(f, rid):
    return next(s for s in f.sides if s.ruleset == rid)


def test_an_absence_is_inferred_not_a_contradiction(four):
    _, f = four
    x = f["inferred:jail.card_exit"]
    assert side(x, "vi-game").point["evidence"] == "absence" and "does not say only" in x.reason
    assert side(x, "tr-game").point["evidence"] == "stated"
    assert "contradiction:jail.card_exit" not in f


def test_a_general_clause_does_not_answer_a_specific_question(four):
    _, f = four
    x = f["inferred:go.salary_once_per_turn"]
    assert side(x, "sr-game").point["evidence"] == "generic" and "second pass" in x.reason
    y = f["inferred:trade.per_turn_limit"]                   # "at any time" read as a count
    assert side(y, "pl-game").point["evidence"] == "generic"
    assert {s.ruleset for s in y.sides if s.point and s.point["evidence"] == "stated"} == {"sr-game"}


def test_an_on_screen_step_is_the_medium_not_a_rule(four):
    _, f = four
    x = f["medium:rent.owner_must_claim"]
    assert side(x, "vi-game").point["evidence"] == "medium" and "Pay step" in x.reason


def test_a_borrowed_number_is_inferred_and_the_witness_names_it(four):
    _, f = four
    x = f["inferred:go.salary_stop_minute"]
    assert side(x, "vi-game").point["evidence"] == "borrowed" and side(x, "vi-game").point["from"]
    # against the board game's "never" the salary's stop itself is the point: stated there, assumed opposite
    assert side(x, "tr-game").point["evidence"] == "assumed"
    assert x.witness.plays
    borrowed = {(u["ruleset"], u["param"]) for u in x.witness.unstated if u["evidence"] == "borrowed"}
    assert ("vi-game", "rent.tax_start_minute") in borrowed


def test_a_question_that_does_not_arise_is_not_applicable(four):
    """"Who wins when the game stops otherwise" has no answer where it only stops with one player left."""
    _, f = four
    assert not [k for k in f if k.endswith(":end.winner")]
    assert "contradiction:end.condition" in f


def test_one_sentence_on_both_sides_is_one_finding(four):
    result, f = four
    heads = {x.id for x in result.findings}
    assert "contradiction:bankruptcy.to_player_cash" in heads
    assert "contradiction:bankruptcy.to_player_properties" not in heads     # a consequence, not a finding
    head = f["contradiction:bankruptcy.to_player_cash"]
    assert [c.id for c in head.consequences] == ["contradiction:bankruptcy.to_player_properties"]
    assert head.params == ("bankruptcy.to_player_cash", "bankruptcy.to_player_properties")
    assert result.counts()["contradiction"] == sum(1 for x in result.findings if x.kind == "contradiction")


def test_a_stated_existence_under_an_assumed_label_is_a_contradiction(four):
    _, f = four
    x = f["contradiction:board.chest_squares"]
    assert side(x, "tr-game").evidence == "assumed" and side(x, "tr-game").point["evidence"] == "stated"
    assert side(x, "tr-game").point["says"] == "The board has Community Chest squares."


def test_a_stated_shape_under_assumed_amounts_is_a_contradiction(four):
    _, f = four
    x = f["contradiction:rent.station_schedule"]
    assert side(x, "vi-game").point["settles"] == "max(value) / min(value)"
    assert x.witness.plays


def test_a_claim_that_does_not_tell_the_values_apart_leaves_the_label(tmp_path):
    """Two boards with Community Chest squares in different places part on the positions, which only the
    label (assumed) speaks for: the existence claim decides nothing there."""
    other = TR.replace("id: tr-game", "id: tr-other").replace("value: [2, 17, 33]", "value: [2, 17, 38]") \
        .replace("TR (from 000)", "TR other")
    other = other.replace("  money.scale: {value: 1, assumed: classic amounts}\n",
                          "  money.scale: {value: 1, assumed: classic amounts}\n"
                          "  tax.luxury: {value: 100, assumed: fixture}\n"
                          "  board.chance_squares: {value: [7, 22, 36], assumed: fixture}\n")
    reg = _registry(tmp_path, tr=TR, vi=VI, other=other)
    points = {s.ruleset: s.point for f in compare(["tr-game", "vi-game"], reg=reg).findings for s in f.sides
              if s.param == "board.chest_squares" and s.point}
    assert points["tr-game"]["evidence"] == "stated"
    from verify.compare.evidence import point
    a, b = reg.resolve("tr-game"), reg.resolve("tr-other")
    assert point(a, "board.chest_squares", b, ("cited",)).evidence == "assumed"


# The independent reader of 2026-12-07: a point the ruleset itself reads two ways, a difference that is the
# consequence of another, and a stated relation beside a borrowed number.
VI_READ = VI.replace("id: vi-game", "id: vi-read").replace("VI (from 002)", "VI read").replace(
    """        gloss: station rent is proportional to the stations held
""", """        gloss: station rent is proportional to the stations held
    readings:
      - {name: loosely, value: [25, 50, 100, 200], gloss: the rent rises with the stations, why: in line with}
""").replace("""    gloss: your assets are liquidated to the bank and the creditor is paid from the proceeds
  bankruptcy.to_player_properties:""", """    gloss: your assets are liquidated to the bank and the creditor is paid from the proceeds
    claims:
      - says: The creditor also gets the liquidated deeds' proceeds, at their mortgage value.
        evidence: inferred
        why: the cash goes to the creditor in both; the deeds' fate differs, at a rate the handbook never gives
  bankruptcy.to_player_properties:""").replace("""        gloss: until the economy starts to be taxed
      - says: At the tax's start, minute 61.""", """        gloss: until the economy starts to be taxed
      - says: The salary stops exactly when the tax starts.
        settles: "value == 'tax_start'"
        quote: "cho đến khi nền kinh tế bắt đầu bị đánh thuế"
        gloss: until the economy starts to be taxed
      - says: At the tax's start, minute 61.""")


@pytest.fixture(scope="module")
def reread(tmp_path_factory):
    assert VI_READ.count("vi-read") == 1 and "loosely" in VI_READ and "exactly when" in VI_READ
    reg = _registry(tmp_path_factory.mktemp("reread"), tr=TR, vi=VI_READ, sr=SR)
    return every(compare(reg=reg).findings)


def test_a_point_the_ruleset_reads_two_ways_is_a_reading_not_a_contradiction(reread):
    """"Proportional to" read strictly, with the loose reading recorded: that reading gives the printed
    doubling, so the shape rests on a reading (kind inferred); without the reading it is a contradiction
    (test_a_stated_shape_under_assumed_amounts_is_a_contradiction)."""
    x = reread["inferred:rent.station_schedule"]
    p = side(x, "vi-read").point
    assert p["evidence"] == "reading" and p["reading"] == "loosely" and "loosely" in x.reason
    assert side(x, "tr-game").point["evidence"] == "stated"
    assert "contradiction:rent.station_schedule" not in reread


def test_a_difference_that_follows_from_another_is_not_a_second_contradiction(reread):
    """Both give the debtor's cash to the creditor; the cash differs only because the deeds are liquidated
    (the properties' finding), at a rate the handbook never gives."""
    assert "contradiction:bankruptcy.to_player_properties" in reread
    x = reread["inferred:bankruptcy.to_player_cash"]
    assert side(x, "vi-read").point["evidence"] == "inferred" and "rate" in x.reason
    assert "contradiction:bankruptcy.to_player_cash" not in reread


def test_a_stated_relation_beside_a_borrowed_number_is_a_contradiction(reread):
    """"Until the tax starts" against the platform's salary stop at 46 and tax at 61: the relation (no time
    with neither) is stated on one side, the minutes on the other; the borrowed minute 61 is not the point."""
    x = reread["contradiction:go.salary_stop_minute"]
    p = side(x, "vi-read").point
    assert p["evidence"] == "stated" and p["settles"] == "value == 'tax_start'"
    assert side(x, "sr-game").point["evidence"] == "stated"
    # against a game with no salary stop the stop itself is the point, as before
    assert side(x, "tr-game").point["evidence"] == "assumed"


@pytest.mark.parametrize("claims, message", [
    ('[{says: x, evidence: guessed, why: y}]', "evidence 'guessed' is not one of"),
    ('[{says: x}]', "a stated claim quotes its words"),
    ('[{says: x, evidence: inferred}]', "an inferred claim says why"),
    ('[{says: x, quote: "Tutar her turda bir kez ödenir."}]', "a quote needs an English gloss"),
    ('[{says: x, settles: "len(other) > 0", evidence: inferred, why: y}]', "reads only 'value'"),
    ('[{says: x, evidence: inferred, why: y, from: 003_12a896ad6461c82f.txt}]', "'from' names the rulebook"),
    ('[{says: x, evidence: inferred, why: y, colour: red}]', "unknown field(s) ['colour']"),
    ('[{says: x, quote: "this sentence is nowhere", gloss: g}]', "[E007]"),
])
def test_lint_checks_each_claim(tmp_path, claims, message):
    f = tmp_path / "t.yaml"
    f.write_text("id: t\ntitle: t\nsource: 000_91979e7e1d6b8ee6.txt\nextends: official\nrules:\n  go.salary_once_per_turn:\n    value: true\n"
                 "    quote: \"Tutar her turda bir kez ödenir.\"\n    gloss: paid once a turn\n"
                 f"    claims: {claims}\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["lint", str(f)])
    assert res.exit_code == 1 and message in res.output, res.output
    assert ("[E037]" in res.output or "[E007]" in res.output) and "[E010]" not in res.output


def test_lint_refuses_a_stated_claim_of_the_whole_value_on_an_assumed_entry(tmp_path):
    f = tmp_path / "t.yaml"
    f.write_text("id: t\ntitle: t\nsource: 000_91979e7e1d6b8ee6.txt\nextends: official\nrules:\n  go.salary_once_per_turn:\n    value: true\n"
                 "    assumed: we say so\n    claims:\n      - says: once a turn\n"
                 "        quote: \"Tutar her turda bir kez ödenir.\"\n        gloss: paid once a turn\n",
                 encoding="utf-8")
    res = CliRunner().invoke(main, ["lint", str(f)])
    assert res.exit_code == 1 and "[E037]" in res.output and "the entry is cited" in res.output
    f.write_text(f.read_text(encoding="utf-8").replace("claims:", "x:"), encoding="utf-8")
    assert "unknown field" in CliRunner().invoke(main, ["lint", str(f)]).output


def test_claims_are_shown_with_the_entry():
    res = CliRunner().invoke(main, ["show", "online-vn", "--json"])
    assert res.exit_code == 0
    import json
    claims = json.loads(res.output)["rules"]["jail.card_exit"]["claims"]
    assert claims[0]["evidence"] == "absence" and claims[0]["why"]
    text = CliRunner().invoke(main, ["show", "online-vn", "--area", "jail"], env={"COLUMNS": "400"}).output
    assert f"claim absence: {claims[0]['says']}" in text
    assert " ".join(claims[0]["why"].split())[:60] in " ".join(text.split())


def test_each_declared_rule_is_quoted_by_the_entries_it_rules():
    """A `statements` declaration says one rule of a rulebook answers several questions: each entry it names,
    in that rulebook's base game, quotes the rule (or a claim of it does)."""
    from verify.compare.declared import load_declared
    from verify.compare.merge import _shares
    from verify.spec import load_ruleset
    from verify.spec.sources import fold
    games = {"002_bb6c4fccb69c2474.txt": "online-vn"}
    declared = load_declared().statements
    assert declared
    for st in declared:
        r = load_ruleset(games[st.source])
        for pid in st.params:
            e = r.entries[pid]
            quotes = tuple(fold(q) for q in (*e.quotes, *(q for c in e.claims for q in c.quotes)))
            assert _shares(quotes, fold(st.quote)), (st.id, pid)


@pytest.mark.parametrize("item, code", [
    ("{id: x, source: 002_bb6c4fccb69c2474.txt, quote: \"nowhere at all here\", params: [jail.fine, go.salary]}",
     "E007"),
    ("{id: x, source: 002_bb6c4fccb69c2474.txt, quote: \"hai ô thuế, và các ô Cơ hội.\", params: [jail.fine]}",
     "E030"),
    ("{id: x, source: 002_bb6c4fccb69c2474.txt, quote: \"hai ô thuế, và các ô Cơ hội.\", params: [jail.fin, go.salary]}",
     "E002"),
])
def test_a_malformed_statement_declaration_is_refused(tmp_path, item, code):
    from verify.compare.declared import load_declared
    from verify.errors import SpecError
    path = tmp_path / "comparison.yaml"
    path.write_text(f"base_games: []\nstatements:\n  - {item}\n", encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_declared(path)
    assert err.value.code == code
