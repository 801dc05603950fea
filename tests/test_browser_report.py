"""Browser test: chromium (headless, via Playwright) opens every page of a generated report.

The report is built with two of the user's tables (a file extending a file,
and a stack with an overlay of their own). Checks that no page logs a console
error or throws, that every internal link (page and #anchor) resolves, that
the findings search and filters, the questions' ruleset picker and highlight
work, and that the rulings sheet produces an overlay file the toolkit loads;
keeps screenshots under test-artifacts/. Run with ``pytest -m browser``. The
browser is found or installed by ``tests/browser_env.py`` (Debian chromium,
else Playwright's own); when none can be had the test fails, it never skips.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from urllib.parse import urldefrag, urlparse

import pytest

pytestmark = pytest.mark.browser

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
TABLES = Path(__file__).resolve().parent / "fixtures" / "tables"
MY_TABLES = (str(TABLES / "rulings" / "summer-table.yaml"),
             f"{TABLES / 'kitchen-base.yaml'}+{TABLES / 'late-start.yaml'}")


@pytest.fixture(scope="module")
def study_dir(tmp_path_factory):
    """A small balance study (verify study), standalone; the report below includes it too."""
    from click.testing import CliRunner

    from verify.cli import main
    out = tmp_path_factory.mktemp("study")
    res = CliRunner().invoke(main, ["study", "official", "official+house-no-buying-first-round", "platform-fast",
                                    "--games", "30", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out


@pytest.fixture(scope="module")
def conform_dir(tmp_path_factory):
    """A conformance run with a violation (verify conform --html); the report below links it."""
    from click.testing import CliRunner

    from verify.cli import main
    out = tmp_path_factory.mktemp("conform")
    res = CliRunner().invoke(main, ["conform", "--engine", "tests.conform_engines.faults:ShortMover", "--examples",
                                    "10", "--html", str(out / "html"), "--scenarios", str(out / "sc")])
    assert res.exit_code == 1, res.output
    return out / "html"


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory, study_dir, conform_dir):
    from verify.report import ReportOptions, build
    out = tmp_path_factory.mktemp("browser") / "reports"
    build(ReportOptions(out=out, games=3, tables=MY_TABLES, study=study_dir / "study.json", conform=(conform_dir,),
                        effect_games=3))
    return out


@pytest.fixture(scope="module")
def server(report_dir):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(report_dir))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    from browser_env import ProvisionError, chromium, playwright_api
    try:                        # find or install what is missing; never skip (tests/browser_env.py)
        api = playwright_api()
        executable = chromium()
    except ProvisionError as exc:
        pytest.fail(str(exc))
    with api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=ARGS, headless=True)
        yield b
        b.close()


def test_every_page_loads_without_errors_and_links_resolve(report_dir, server, browser):
    pages = sorted(p.name for p in report_dir.glob("*.html"))
    assert {"index.html", "contradictions.html", "questions.html", "ambiguities.html", "rulings.html", "matrix.html",
            "simulation.html", "study.html", "conformance.html", "findings-rent.html",
            "ruleset-summer-table.html"} <= set(pages)
    assert len([p for p in pages if p.startswith("findings-")]) >= 10
    ctx = browser.new_context(viewport={"width": 390, "height": 844})   # a phone
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    external = []
    page.on("request", lambda r: external.append(r.url) if not r.url.startswith(server) else None)
    ids_by_page: dict[str, set[str]] = {}
    links: list[tuple[str, str]] = []
    for name in pages:
        resp = page.goto(server + name)
        assert resp is not None and resp.status == 200, name
        ids_by_page[name] = set(page.eval_on_selector_all("[id]", "els => els.map(e => e.id)"))
        for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))"):
            links.append((name, href))
        assert page.locator("header nav a").count() >= 6, name
        assert page.locator("h1").count() == 1, name
    assert not errors, errors
    assert not external, f"pages fetched something from outside the report: {external[:5]}"
    broken = []
    for name, href in links:
        if urlparse(href).scheme in ("http", "https", "mailto"):
            broken.append((name, href))      # the report is self-contained: no external links
            continue
        target, frag = urldefrag(href)
        target = target or name
        if not target.endswith(".html") and (report_dir / target).is_file() and not frag:
            continue                          # a data file of the report (contradictions.json)
        if target not in ids_by_page:
            broken.append((name, href))
        elif frag and frag not in ids_by_page[target]:
            broken.append((name, href))
    assert not broken, broken[:10]
    ctx.close()


def _context(browser, width=1200):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def test_index_and_findings_search(report_dir, server, browser):
    ARTIFACTS.mkdir(exist_ok=True)
    ctx, page, errors = _context(browser)
    page.goto(server + "index.html")
    assert page.locator("section.yours").count() == 2
    assert page.locator("#top li").count() >= 10
    first = page.locator("#top li a").first
    href = first.get_attribute("href")
    first.click()
    page.wait_for_load_state()
    assert page.url.endswith(href) and page.locator(f'[id="{href.split("#")[1]}"]').is_visible()

    page.goto(server + "contradictions.html")
    lines = page.locator("ul.lines li")
    total = lines.count()
    assert total > 200
    page.fill("#f-search", "jail rent")
    shown = page.locator("ul.lines li:visible")
    assert 0 < shown.count() < total
    assert all("jail" in t and "rent" in t for t in shown.evaluate_all("els => els.map(e => e.dataset.text)"))
    assert page.locator("#f-count").inner_text().startswith(str(shown.count()))
    page.fill("#f-search", "")
    page.click("button[data-kind='internal']")
    visible = page.locator("ul.lines li:visible")
    assert visible.count() >= 1
    assert set(visible.evaluate_all("els => els.map(e => e.dataset.kind)")) == {"internal"}
    page.click("button[data-kind='all']")
    page.select_option("#r-filter", "summer-table")
    mine = page.locator("ul.lines li:visible").evaluate_all("els => els.map(e => e.dataset.rulesets)")
    assert len(mine) >= 4 and all(" summer-table " in r for r in mine)
    page.screenshot(path=str(ARTIFACTS / "report-findings.png"))

    page.goto(server + "findings-rent.html")
    assert page.locator("article.finding").count() >= 5
    assert page.locator("article.finding.contradiction svg").count() >= 1
    langs = set()
    for topic in sorted(p.name for p in report_dir.glob("findings-*.html")):
        page.goto(server + topic)
        langs |= set(page.eval_on_selector_all("blockquote[lang]", "els => els.map(e => e.lang)"))
    assert {"tr", "pl", "vi", "sr"} <= langs
    assert not errors, errors
    ctx.close()


def test_questions_picker_and_highlight(report_dir, server, browser):
    ctx, page, errors = _context(browser)
    page.goto(server + "questions.html")
    names = page.eval_on_selector_all("#picker label", "els => els.map(e => e.textContent.trim().split(' ')[0])")
    index = {n: i for i, n in enumerate(names)}
    assert page.locator("#q-compare thead th:visible").count() == 1 + page.locator("input[name=pick]:checked").count()
    for box in page.locator("input[name=pick]").all():
        box.uncheck()
    page.check(f"input[name=pick][value='{index['official']}']")
    page.check(f"input[name=pick][value='{index['platform-classic']}']")
    heads = page.locator("#q-compare thead th:visible").all_inner_texts()
    assert heads[1:] == ["official", "platform-classic"]
    row = page.locator("#q-compare tr[data-q='q-rent-while-jailed']")
    assert row.locator("td:visible").count() == 2 and row.locator("td.diff:visible").count() == 1
    assert "differs" in row.get_attribute("class")
    total = page.locator("#q-compare tbody tr").count()
    page.check("#d-filter")
    shown = page.locator("#q-compare tbody tr:visible")
    assert 0 < shown.count() < total
    assert all("differs" in c for c in shown.evaluate_all("els => els.map(e => e.className)"))
    assert page.locator("section.question:visible").count() == shown.count()
    page.uncheck("#d-filter")
    page.fill("#q-filter", "jail")
    assert 0 < page.locator("section.question:visible").count() < total
    page.fill("#q-filter", "")
    page.locator("#q-rent-while-jailed details.reading").first.locator("summary").click()
    assert page.locator("#q-rent-while-jailed details[open] blockquote[lang='tr']").first.is_visible()
    page.screenshot(path=str(ARTIFACTS / "report-questions.png"))
    assert not errors, errors
    ctx.close()


def test_rulings_sheet_starts_from_the_table_and_saves_an_overlay_on_it(report_dir, server, browser, tmp_path):
    import shutil

    from cli_process import run_verify
    ctx, page, errors = _context(browser)
    page.goto(server + "rulings.html")
    assert page.input_value("#t-base") == "summer-table" and page.input_value("#t-id") == "summer-table-rulings"
    # the sheet's commands name the file it saves, as its id is typed
    assert "verify show summer-table-rulings.yaml" in page.locator("p.no-print").first.inner_text()
    page.fill("#t-id", "friday")
    assert "verify diff friday.yaml" in page.locator("p.no-print").first.inner_text()
    # on the table itself nothing is changed until the group changes it
    assert page.locator("#r-auction-opening-bid input[value='']").is_checked()
    page.fill("#t-id", "summer-table")                                   # the table's own name: refused
    page.click("#build")
    assert "needs a name of its own" in page.locator("#errors").inner_text()
    page.fill("#t-id", "summer-table-rulings")
    page.locator("#r-rent-while-jailed input[data-values='[true]']").check()
    page.click("#build")
    text = page.locator("#out").inner_text()
    assert 'extends: "summer-table.yaml"' in text and 'id: "summer-table-rulings"' in text
    # on another base, every question starts at the table's own reading
    page.select_option("#t-base", "official")
    assert page.locator("#r-auction-opening-bid input[data-values='[\"printed_price\"]']").is_checked()
    assert not errors, errors
    ctx.close()
    folder = tmp_path / "tables"
    shutil.copytree(TABLES, folder)
    saved = folder / "rulings" / "summer-table-rulings.yaml"
    saved.write_text(text, encoding="utf-8")
    res = run_verify("show", saved, "--json")             # a fresh process: the copies are the only tables
    assert res.returncode == 0, res.stderr
    import json
    doc = json.loads(res.stdout)
    assert doc["chain"][-2:] == ["summer-table", "summer-table-rulings"]
    assert doc["rules"]["rent.jailed_owner_collects"]["value"] is True     # kitchen-base's false, changed
    assert doc["rules"]["go.salary"]["value"] == 400 and doc["rules"]["jail.fine"]["value"] == 100


def _save(page, folder: Path, name: str) -> Path:
    """Build the sheet's file (no error), download it under the name the sheet gives it, keep it in ``folder``."""
    page.click("#build")
    assert page.locator("#errors").inner_text() == ""
    with page.expect_download() as dl:
        page.click("#download")
    assert dl.value.suggested_filename == name
    path = folder / name
    dl.value.save_as(path)
    return path


def test_rulings_sheet_saves_an_overlay_the_toolkit_reads(report_dir, server, browser, tmp_path):
    import json

    from click.testing import CliRunner

    from verify.cli import main
    ctx, page, errors = _context(browser)
    page.goto(server + "rulings.html")
    page.fill("#t-id", "browser-table")
    page.select_option("#t-base", "platform-classic")
    page.locator("#r-rent-while-jailed input[data-values='[true]']").check()
    page.fill("#r-rent-while-jailed .notes", "jail is no holiday from business")
    page.locator("#r-auction-opening-bid input[value='own']").check()
    page.fill("#r-auction-opening-bid input[data-number-for='auction.opening_bid']", "100")
    page.locator("#r-go-salary input[value='own']").check()          # own ruling left blank: an error
    page.click("#build")
    assert "How much salary do you get for passing GO, and does it ever stop?: give a value" in \
        page.locator("#errors").inner_text()
    assert page.locator("#saved").is_hidden()
    page.locator("#r-go-salary input[value='']").check()
    path = _save(page, tmp_path, "browser-table.yaml")
    assert path.read_text(encoding="utf-8") == page.locator("#out").inner_text()
    page.emulate_media(media="print")
    page.screenshot(path=str(ARTIFACTS / "report-rulings-print.png"))
    assert not errors, errors
    ctx.close()
    res = CliRunner().invoke(main, ["show", str(path), "--json"])
    assert res.exit_code == 0, res.output
    rules = json.loads(res.output)["rules"]
    assert rules["rent.jailed_owner_collects"]["value"] is True
    assert "jail is no holiday" in rules["rent.jailed_owner_collects"]["assumed"]
    assert rules["auction.opening_bid"]["value"] == 1000           # 100 classic on the ×10 platform
    diff = json.loads(CliRunner().invoke(main, ["diff", str(path), "--json"]).output)
    assert diff["base"] == "platform-classic"
    changes = {c["param"] for c in diff["changes"]}
    # what was chosen, and the report's table's own rulings that the platform rules otherwise (the sheet
    # starts every question from the table); go.salary was set back to the base's
    assert {"rent.jailed_owner_collects", "auction.opening_bid"} <= changes and "go.salary" not in changes


def test_rulings_sheet_saves_an_id_in_any_script_every_kind_of_answer_and_rules_in_own_words(
        report_dir, server, browser, tmp_path):
    """The id the sheet takes is the id lint takes (any script); a rulebook's answer writes what it states,
    leaves out what does not apply, and writes an open entry where it leaves the value to the table; the
    group's own rules in words are saved as extra_rules; show, diff and lint read the file back."""
    import json

    from click.testing import CliRunner

    from verify.cli import main
    ctx, page, errors = _context(browser)
    page.goto(server + "rulings.html")
    page.select_option("#t-base", "official")
    for bad, why in (("a+b", 'may not hold "+"'), (" çay", "may not start or end with a space")):
        page.fill("#t-id", bad)
        page.click("#build")
        assert why in page.locator("#errors").inner_text(), bad
    page.fill("#t-id", "çay-masası-kararlar")
    page.fill("#t-title", "Çay masası kararları")
    fp = page.locator("#r-free-parking-money input[data-values='[false, null, false]']")
    assert "as in official" in fp.locator("xpath=..").inner_text()              # official's "no pot" is a choice
    page.locator("#r-free-parking-money input[data-values='[true, true, false]']").check()
    page.locator("#r-auction-or-not input[data-values='[\"stays_unowned\", null]']").check()
    page.locator("#r-game-end input[data-open='[false, false, true, false]']").check()   # the timed game's answer
    page.fill("#t-extra", "Whoever rolls double ones takes 500 from the bank.\n\nNo trading after midnight.")
    path = _save(page, tmp_path, "çay-masası-kararlar.yaml")
    page.screenshot(path=str(ARTIFACTS / "report-rulings-saved.png"))
    assert not errors, errors
    ctx.close()
    assert CliRunner().invoke(main, ["lint", str(path)]).exit_code == 0
    res = CliRunner().invoke(main, ["show", str(path), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    rules = doc["rules"]
    assert doc["id"] == "çay-masası-kararlar" and doc["chain"] == ["official", "çay-masası-kararlar"]
    assert rules["free_parking.pot"]["value"] is True and rules["free_parking.pot_card_payments"]["value"] is True
    assert rules["purchase.on_decline"]["value"] == "stays_unowned"
    assert rules["end.condition"]["value"] == "time_limit" and rules["end.time_limit_minutes"]["kind"] == "open"
    assert rules["end.round_limit"]["ruleset"] == "official"                 # not applicable: not written
    assert [x["text"] for x in doc["extra_rules"]] == ["Whoever rolls double ones takes 500 from the bank.",
                                                       "No trading after midnight."]
    diff = json.loads(CliRunner().invoke(main, ["diff", str(path), "--json"]).output)
    assert {"free_parking.pot", "free_parking.pot_card_payments", "purchase.on_decline", "end.condition",
            "end.time_limit_minutes"} <= {c["param"] for c in diff["changes"]}
    assert len(diff["extra_rules"]) == 2


def test_matrix_and_simulation_pages(report_dir, server, browser):
    ctx, page, errors = _context(browser)
    page.goto(server + "matrix.html")
    assert page.locator("#check-state").count() == 1
    heads = page.locator("#grid thead th").all_inner_texts()
    live = heads.index("rules can fire")
    cells = page.locator("#grid tbody tr").evaluate_all(
        f"rows => rows.map(r => r.children[{live}].textContent.trim())")
    assert cells and all(c != "✓" for c in cells if c.startswith("†")) and any(c.startswith("†") for c in cells)
    assert page.locator("#dead tr, #dead ~ div tr").count() >= 1
    page.goto(server + "simulation.html")
    assert page.locator("#sim-state").count() == 1
    assert page.locator("#lengths svg text", has_text="90th percentile").count() == 1
    page.goto(server + "index.html")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(ARTIFACTS / "report-index-phone.png"), full_page=True)
    assert not errors, errors
    ctx.close()


#: every text of every chart lies inside its drawing (labels and legends that fit), in SVG user units
_OVERFLOW = """() => {
  const out = [];
  for (const svg of document.querySelectorAll("figure svg")) {
    const vb = svg.viewBox.baseVal;
    for (const t of svg.querySelectorAll("text")) {
      const b = t.getBBox();
      if (b.x < vb.x - 1 || b.y < vb.y - 1 || b.x + b.width > vb.x + vb.width + 1 || b.y + b.height > vb.y + vb.height + 1)
        out.push(svg.closest("figure").id + ": " + t.textContent);
    }
  }
  return out;
}"""


def test_study_page_renders_its_charts_with_labels_that_fit(report_dir, study_dir, server, browser):
    ARTIFACTS.mkdir(exist_ok=True)
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "index.html")
    page.click(".cards a[href=\"study.html\"]")
    assert page.url.endswith("study.html")
    assert page.locator("#study-state").count() == 1
    for chart in ("outcomes", "length", "seats", "houses", "bank", "money", "running", "first-group"):
        fig = page.locator(f"#chart-{chart}")
        assert fig.count() == 1 and fig.locator("svg[role=img]").is_visible(), chart
    assert page.locator("#chart-length polyline").count() == 3
    assert page.locator("#chart-seats circle").count() == 12            # 3 rulesets x 4 seats
    legend = page.locator("#chart-money .legend li")
    assert legend.count() == 3 and "platform-fast" in legend.all_inner_texts()
    assert page.evaluate(_OVERFLOW) == []
    page.screenshot(path=str(ARTIFACTS / "report-study.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})             # a phone: charts shrink, still fit
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    standalone = ctx.new_page()
    standalone.on("pageerror", lambda e: errors.append(str(e)))
    standalone.goto((study_dir / "study.html").as_uri())
    assert standalone.locator("nav a").count() == 2 and standalone.locator("#chart-seats svg").count() == 1
    assert not errors, errors
    ctx.close()
