"""The report helps decide: tables lead, the disputes that matter come first, findings by topic,
questions side by side with their readings, the rulings sheet, honest charts and matrix, and a
page list others can plug into."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from verify.cli import main
from verify.compare import compare
from verify.compare.questions import load_questions
from verify.report import Card, Page, ReportOptions, build, register
from verify.report import site
from verify.report.site import anchor
from verify.report.charts import ACCENT, game_lengths, landings, overflow, witness_picture
from verify.report.findings import matters, matters_most
from verify.report.matrix import view
from verify.report.runs import CheckRun, Simulation
from verify.report.terminal import print_check
from verify.spec.catalogue import load_catalogue

pytestmark = pytest.mark.usefixtures("one_bundled_comparison")

FIX = Path(__file__).parent / "fixtures" / "tables"
SUMMER = str(FIX / "rulings" / "summer-table.yaml")
STACK = f"{FIX / 'kitchen-base.yaml'}+{FIX / 'late-start.yaml'}"


def no_sim(targets, games, seed):
    return Simulation("not run", games, "—", seed, reason="not part of this test")


@pytest.fixture(scope="module")
def tabled(tmp_path_factory):
    seen = {}

    def check(names):
        seen["names"] = list(names)
        # answer as the check command would: a single file is reported under its id, a stack
        # under the name it was given
        results = [{"ruleset": "summer-table" if n.endswith("summer-table.yaml") else n, "invariant": "even-build",
                    "action": "build_house", "promised": True, "verdict": "PROVED", "counterexample": None,
                    "reason": None} for n in names]
        return CheckRun("ran", tuple(results), elapsed_s=0.1)
    out = tmp_path_factory.mktemp("t") / "reports"
    summary = build(ReportOptions(out=out, tables=(SUMMER, STACK), effect_games=3),
                    hooks={"check": check, "simulate": no_sim})
    return out, summary, seen


@pytest.fixture(scope="module")
def comparison():
    return compare()


def page(out: Path, name: str) -> str:
    return (out / name).read_text(encoding="utf-8")


def test_the_index_leads_with_the_users_tables(tabled):
    out, summary, _ = tabled
    assert summary["tables"] == ["summer-table", "kitchen-base+late-start"]
    html = page(out, "index.html")
    yours, top, cards = html.index('class="yours"'), html.index('id="top"'), html.index('class="cards"')
    assert yours < top < cards
    section = html[yours:top]
    assert "What it changes (2)" in section and "Where the rulebooks rule otherwise" in section
    assert f'href="findings-movement.html#{anchor("variant:summer-table:go.salary")}"' in section
    assert (out / "ruleset-summer-table.html").is_file() and (out / "ruleset-kitchen-base.html").is_file()
    assert (out / "ruleset-kitchen-base+late-start.html").is_file()
    assert not (out / "ruleset-official+late-start.html").exists()    # only what was asked for


def test_a_tables_assumed_values_are_its_own(tabled):
    out, _, _ = tabled
    html = page(out, "ruleset-summer-table.html")
    row = html[html.index("<code class=\"muted\">go.salary</code>"):]
    row = row[:row.index("</tr>")]
    assert "assumed</strong> by <strong>summer-table</strong>" in row and "000_" not in row
    topic = page(out, "findings-movement.html")
    art = topic[topic.index(f'id="{anchor("contradiction:summer-table:go.salary")}"'):]
    art = art[:art.index("</article>")]
    assert "set by summer-table" in art and "your table" in art


def test_check_and_simulate_get_names_they_can_resolve(tabled):
    out, _, seen = tabled
    from verify.spec.registry import Registry
    fresh = Registry.load()                   # what the check command sees: the bundled files only
    ids = {fresh.canonical(n) for n in seen["names"]}
    assert {"summer-table", "kitchen-base+late-start", "kitchen-base", "official"} <= ids
    assert SUMMER in seen["names"]
    html = page(out, "matrix.html")
    assert '<a href="ruleset-kitchen-base+late-start.html">kitchen-base+late-start</a>' in html
    assert "late-start.yaml" not in html


def test_the_disputes_that_matter_most(comparison):
    top = matters_most(comparison.findings, load_catalogue())
    assert len(top) >= 10
    by_id = {f.id: f for f in comparison.findings}
    for t in top:
        f = by_id[t["id"]]
        assert f.kind in ("contradiction", "internal") and f.witness.plays      # played by the engine
        assert f.witness.unit in ("money", "bool") and len({str(o.classic) for o in f.witness.outcomes}) > 1
    ids = [t["id"] for t in top]
    assert "contradiction:mortgage.interest_base" in ids and "contradiction:rent.jailed_owner_collects" in ids
    money = [t for t in top if t["why"] == "money"]
    assert ids[:len(money)] == [t["id"] for t in money]             # amounts first
    # a dispute without a played witness in money or who may act is not among them, nor a difference
    # that rests on an assumed side or on the medium
    apart = [f for f in comparison.findings if f.kind in ("inferred", "assumed", "medium")]
    assert apart and not [f for f in apart if f.id in ids]
    # (a dispute the engine cannot play is shown as its rulings side by side: never among them)
    internal = next(f for f in comparison.findings if f.kind == "internal" and f.witness.method == "direct")
    assert matters(internal) is None and internal.id not in ids


def test_index_lines_link_to_findings_on_their_topic_pages(tmp_path, comparison):
    out = tmp_path / "r"
    build(ReportOptions(out=out, run_check=False, run_simulation=False))
    index = page(out, "index.html")
    top = index[index.index('id="top"'):index.index('class="cards"')]
    links = re.findall(r'<a href="(findings-[^"#]+)#([^"]+)">', top)
    assert len(links) >= 10
    # only disagreements between stated rules; the rest one click away, counted
    by_anchor = {site.anchor(f.id): f for f in comparison.findings}
    assert {by_anchor[at].kind for _, at in links} <= {"contradiction", "internal"}
    kinds = comparison.counts()
    assert kinds["assumed"] and kinds["medium"]
    assert (f'<a href="contradictions.html">findings index</a> has the {kinds["assumed"]} difference(s) '
            f'resting on a value a rulebook does not state') in top
    assert f'and the {kinds["medium"]} that exist only because one game is played on a board' in top
    for file, at in links:
        assert f'id="{at}"' in page(out, file), (file, at)
    # every finding is on its topic page, once, and the findings index links to it
    findings_index = page(out, "contradictions.html")
    for f in comparison.findings:
        href = site.finding_href(f)
        assert f'href="{href}"' in findings_index, f.id
        file, at = href.split("#")
        assert page(out, file).count(f'id="{at}"') == 1
    assert findings_index.count("data-text=") == len(comparison.findings)
    assert len(findings_index) < len(page(out, "findings-rent.html")) * 8      # one line each, not the findings


def test_questions_side_by_side_with_readings(tabled):
    out, _, _ = tabled
    html = page(out, "questions.html")
    assert len(html.encode()) < 700_000                           # was 1.3 MB with 17 columns of quotes
    picked = re.findall(r'<input type="checkbox" name="pick" value="\d+" checked> ([^<]+?)[ <]', html)
    assert picked[:2] == ["summer-table", "kitchen-base+late-start"] and "official" in picked
    sec = html[html.index('id="q-rent-while-jailed"'):]
    sec = sec[:sec.index("</section>")]
    readings = re.findall(r'<summary><strong>(?:<span class="[^"]*">)?([^<]+)(?:</span>)?</strong> '
                          r'<span class="who">— (\d+) rulebook', sec)
    assert [r[0] for r in readings][:2] == ["yes", "no"] and ("silent", "1") in readings
    assert dict(readings)["yes"] == "2"                            # the Turkish and the Polish rulebooks
    assert sec.count("«W Więzieniu nadal możesz pobierać czynsze»") == 1   # each quote once
    row = html[html.index('<tr data-q="q-rent-while-jailed">'):]
    row = row[:row.index("</tr>")]
    assert len(re.findall(r'<td data-r="\d+" data-k="\d+"', row)) == len(picked) + row.count("<td") - len(picked)


def test_the_rulings_sheet_offers_every_reading(tabled):
    out, _, _ = tabled
    html = page(out, "rulings.html")
    assert html.count('<section class="ruling"') == len(load_questions())
    sec = html[html.index('id="r-auction-opening-bid"'):]
    sec = sec[:sec.index("</section>")]
    assert "data-values='[\"printed_price\"]'" in sec and "data-values='[10]'" in sec
    assert 'data-param="auction.opening_bid"' in sec and 'value="printed_price"' in sec
    assert '<option value="platform-classic" data-extends="platform-classic" data-table="no">' in html
    assert "@media print" in html


def test_the_rulings_sheet_starts_from_the_users_table(tabled):
    out, _, _ = tabled
    html = page(out, "rulings.html")
    assert re.search(r'<option value="summer-table" data-extends="summer-table.yaml" data-table="yes" selected>', html)
    assert 'id="t-id" value="summer-table-rulings"' in html                   # a name of its own
    sec = html[html.index('id="r-auction-opening-bid"'):]
    sec = sec[:sec.index("</section>")]
    # the table's own ruling is shown and preset (as the base when the base is the table, the reading else)
    assert "(your table summer-table: printed price)" in sec
    at = re.search(r'data-table-reading="(\d+)"', sec).group(1)
    assert re.search(rf'data-reading="{at}" data-values=\'\["printed_price"\]\' data-open=\'\[false\]\'> '
                     r'<strong>printed price</strong> <span class="who">— your table\'s ruling', sec)


def test_a_sheet_saved_on_a_table_extends_the_table(tmp_path):
    """What the sheet writes when the base is the user's table: an overlay extending it by file name."""
    import shutil
    folder = tmp_path / "tables"
    shutil.copytree(FIX, folder)
    sheet = folder / "rulings" / "summer-table-rulings.yaml"
    sheet.write_text('id: "summer-table-rulings"\ntitle: "Rulings for summer-table"\nkind: overlay\n'
                     'extends: "summer-table.yaml"\nrules:\n  jail.fine:\n    value: 20\n'
                     '    assumed: "ruled by our table (rulings sheet)"\n', encoding="utf-8")
    import importlib
    reg = importlib.import_module("verify.spec.registry").Registry.load()
    r = reg.resolve(str(sheet))
    assert r.chain == ("official", "kitchen-base", "summer-table", "summer-table-rulings")
    assert r.value("jail.fine") == 20 and r.value("go.salary") == 400


def test_a_file_in_the_sheets_format_loads_and_diffs():
    sheet = FIX / "sheet-rulings.yaml"
    res = CliRunner().invoke(main, ["show", str(sheet), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["chain"] == ["platform-classic", "sheet-rulings"]
    assert doc["rules"]["auction.opening_bid"]["value"] == 1000          # classic 100 on the ×10 platform
    assert doc["rules"]["rent.jailed_owner_collects"]["kind"] == "assumed"
    res = CliRunner().invoke(main, ["diff", str(sheet), "--json"])
    # the station rents restate the platform's own (250..2000 = 25..200 classic): no change
    assert {c["param"] for c in json.loads(res.output)["changes"]} == {
        "rent.jailed_owner_collects", "auction.opening_bid"}


def test_witness_charts_fit_and_mean_something(comparison):
    pictures = [(f, witness_picture(f.witness)) for f in comparison.findings]
    pictures = [(f, p) for f, p in pictures if p]
    assert len(pictures) >= 50
    for f, p in pictures:
        assert overflow(p) == [], (f.id, overflow(p))
        texts = [it["s"] for it in p["items"] if it["t"] == "text"]
        for o in f.witness.outcomes:
            assert o.ruleset in texts                              # the full label, never cut
        if "Situation" in texts:
            assert len(texts) > texts.index("Situation") + 1      # never an empty situation box
        bars = {it["fill"] for it in p["items"] if it["t"] == "rect" and it["h"] == 16}
        assert bars <= {ACCENT}                                   # one colour: the length is the message


def test_game_length_and_landing_charts_have_legends_and_fit():
    runs = [{"ruleset": "official+house-no-buying-first-round", "turns": {"mean": 150, "median": 140, "p90": 260}},
            {"ruleset": "classic-pl", "turns": {"mean": 90, "median": 80, "p90": 120}}]
    g = game_lengths(runs)
    texts = [it["s"] for it in g["items"] if it["t"] == "text"]
    assert overflow(g) == [] and {"median", "90th percentile", "mean player-turns per game"} <= set(texts)
    assert "official+house-no-buying-first-round" in texts
    land = landings(list(range(1, 41)), "official")
    assert overflow(land) == [] and any("corner" in t["s"] for t in land["items"] if t["t"] == "text")


def _results(rulesets=3, dead=True):
    out = []
    for i in range(rulesets):
        rid = f"ruleset-{i}"
        out.append({"ruleset": rid, "invariant": "constraint:c", "action": "(parameters)", "promised": True,
                    "verdict": "PROVED"})
        for a in ("buy", "casino_bet"):
            is_dead = dead and a == "casino_bet"
            out.append({"ruleset": rid, "invariant": "(enabled)", "action": a, "promised": not is_dead,
                        "verdict": "VIOLATED" if is_dead else "PROVED",
                        "reason": "dead rule: there is no casino in this ruleset" if is_dead else None})
            if not is_dead:
                out.append({"ruleset": rid, "invariant": "even-build", "action": a, "promised": True,
                            "verdict": "PROVED"})
                out.append({"ruleset": rid, "invariant": "house-supply", "action": a, "promised": False,
                            "verdict": "VIOLATED", "counterexample": {
                                "scenario": ["Before:", "  player 0: cash 200", "Action: player 0 buys X",
                                             "Broken: house-supply — ..."], "before": {"x": 1}}})
    return out


def test_matrix_keeps_promised_dead_and_informational_apart():
    v = view(_results(), ["ruleset-0"])
    assert v["failures"] == []                                        # nothing promised failed
    assert set(v["dead"]) == {"ruleset-0", "ruleset-1", "ruleset-2"}
    live = v["rows"][0]["cells"][v["columns"].index("rules can fire")]
    assert live.state == "DEAD" and live.short == "†1" and live.proved == 1   # flagged, never a tick
    info = v["rows"][0]["cells"][v["columns"].index("house-supply")]
    assert info.state == "FAILS" and info.short.startswith("~")
    assert v["informational"][0]["lines"][0] == "Before:"


def test_matrix_page_shows_board_lines_not_json(tmp_path):
    out = tmp_path / "r"
    build(ReportOptions(out=out, run_simulation=False),
          hooks={"check": lambda ids: CheckRun("ran", tuple(_results()), elapsed_s=0.1)})
    html = page(out, "matrix.html")
    assert '<pre class="board">Before:\n  player 0: cash 200\nAction: player 0 buys X' in html
    assert "&#34;before&#34;" not in html and '"before"' not in html
    assert "Every promised check PROVED" in html
    dead = html[html.index('id="dead"'):html.index('id="informational"')]
    assert "<code>casino_bet</code> — dead rule: there is no casino" in dead
    assert len(re.findall(r'<td class="v-DEAD"[^>]*><a href="#dead-f-ruleset-0">†1</a></td>', html)) == 1
    assert len(re.findall(r'<td class="v-PROVED"[^>]*>✓</td>', html)) == 6       # constraints, even-build


def test_cli_matrix_is_readable_in_80_columns_and_never_ticks_dead_rules():
    results = []
    for i in range(17):
        results += [dict(r, ruleset=f"a-long-ruleset-name-{i}") for r in _results(1)]
    console = Console(width=80, record=True, force_terminal=False, color_system=None)
    print_check(results, 1.0, matrix=True, console=console)
    text = console.export_text()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    live = [line for line in lines if line.startswith("rules can fire")]
    assert live and all("✓" not in line and "†1" in line for line in live)
    assert "† dead rules in 1, 2, 3" in text and "casino_bet †dead" in text
    assert "17=a-long-ruleset-name-16" in text


def test_check_command_flags_a_dead_rule_in_80_columns():
    res = CliRunner().invoke(main, ["check", "official", "--action", "buy", "--action", "casino_bet", "--matrix"],
                             env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    live = next(line for line in lines if line.startswith("rules can fire"))
    assert "†1" in live and "✓" not in live
    assert "† dead rules in 1: casino_bet" in res.output
    assert next(line for line in lines if line.startswith("casino_bet †dead")).split()[2:] == ["-"] * 12


def test_a_page_plugs_in_with_one_register_call(tmp_path):
    extra = Page("extra.html", "Extra", "base.html", lambda x: [("extra.html", {})],
                 lambda x: Card("extra.html", "42", "an extra page"))
    register(extra, before="simulation.html")
    try:
        out = tmp_path / "r"
        build(ReportOptions(out=out, run_check=False, run_simulation=False))
        assert (out / "extra.html").is_file()
        for name in ("index.html", "questions.html", "extra.html"):
            nav = page(out, name).split("</nav>")[0]
            assert '<a href="extra.html"' in nav and nav.index("extra.html") < nav.index("simulation.html")
        assert "an extra page" in page(out, "index.html")
    finally:
        site.PAGES[:] = [p for p in site.PAGES if p.file != "extra.html"]


def test_the_first_page_leads_a_table_to_its_rulings(tabled):
    out, _, _ = tabled
    html = page(out, "index.html")
    yours, decide, top = html.index('class="yours"'), html.index('id="decide"'), html.index('id="top"')
    assert yours < decide < top
    part = html[decide:top]
    assert '<a class="action" href="rulings.html">Rule on them: the rulings sheet →</a>' in part
    items = re.findall(r'<li id="d-([^"]+)">', part)
    assert set(items[:5]) == {"free-parking-money", "auction-or-not", "exact-go-bonus", "first-round-buying",
                              "rent-while-jailed"}
    assert "house rule house-free-parking-pot" in part and "3 games of 4 players" in part
    fp = part[part.index('<li id="d-free-parking-money">'):]
    fp = fp[:fp.index("</li>")]
    assert "official&#39;s own answer: what the others are measured against" in fp
    assert "as in official, classic-pl, platform-classic" in fp
    assert re.search(r"house rule house-free-parking-pot</td><td>game length", fp)
    for q in items:
        assert f'href="rulings.html#r-{q}"' in part and f'id="r-{q}"' in page(out, "rulings.html")
    # the sheet asks the same questions first, in the same order, so its numbers are the first page's
    sheet = re.findall(r'<section class="ruling" id="r-([^"]+)" data-q="[^"]+" data-disputed="(yes|no)"',
                       page(out, "rulings.html"))
    assert [q for q, _ in sheet[:len(items)]] == items
    assert all(d == "yes" for _, d in sheet[:len(items)]) and all(d == "no" for _, d in sheet[len(items):])


def test_a_tables_description_and_own_words_are_shown_not_played(tabled):
    out, _, _ = tabled
    html = page(out, "index.html")
    mine = html[html.index(f'id="table-{anchor("summer-table")}"'):html.index('id="decide"')]
    assert "What we play at the holiday house: our kitchen rules, richer and quicker." in mine
    assert "Rules in its own words (1) <span class=\"badge\">not played, not checked</span>" in mine
    assert "Whoever rolls double ones takes 500 from the bank." in mine
    assert "Whoever rolls double ones takes 500 from the bank." in page(out, "ruleset-summer-table.html")
    sheet = page(out, "rulings.html")
    extra = sheet[sheet.index('id="r-extra"'):]
    assert "Whoever rolls double ones takes 500 from the bank." in extra and 'id="t-extra"' in extra


def test_notes_are_shown_beside_their_values(tabled):
    out, _, _ = tabled
    from verify.spec.registry import registry
    noted = [e for e in registry().files["official"].entries.values() if e.note]
    html = page(out, "ruleset-official.html")
    for e in noted:
        row = html[html.index(f'<code class="muted">{e.param}</code>'):]
        row = row[:row.index("</tr>")]
        assert '<p class="note"><strong>Note</strong>: ' in row, e.param
    # an inherited value shows the note outside the folded evidence
    pre = page(out, "ruleset-official-pre2008.html")
    e = next(e for e in noted if e.param not in registry().files["official-pre2008"].entries)
    row = pre[pre.index(f'<code class="muted">{e.param}</code>'):]
    row = row[:row.index("</tr>")]
    assert row.index("</details>") < row.index('<p class="note">')
