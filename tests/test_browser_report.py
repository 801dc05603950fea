"""Browser test: chromium (headless, via Playwright) opens every page of a generated report.

Checks that no page logs a console error or throws, that every internal link
(page and #anchor) resolves, that the key elements are present and that the
clarification filter works; keeps screenshots under test-artifacts/.
Run with ``pytest -m browser``. The browser is found or installed by
``tests/browser_env.py`` (Debian chromium, else Playwright's own); when none
can be had the test fails, it never skips.
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


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory):
    from verify.report import ReportOptions, build
    out = tmp_path_factory.mktemp("browser") / "reports"
    build(ReportOptions(out=out, games=3))
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
    assert {"index.html", "contradictions.html", "questions.html", "matrix.html", "simulation.html"} <= set(pages)
    assert any(p.startswith("ruleset-") for p in pages)
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
        assert page.locator("nav a").count() >= 5, name
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


def test_key_elements_and_filters(report_dir, server, browser):
    ARTIFACTS.mkdir(exist_ok=True)
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    page.goto(server + "contradictions.html")
    assert page.locator("article.finding").count() > 20
    assert page.locator("article.finding.contradiction svg").count() >= 1
    for lang in ("tr", "pl", "vi", "sr"):
        assert page.locator(f"blockquote[lang='{lang}']").count() >= 1, lang
    page.click("button[data-kind='internal']")
    visible = page.locator("article.finding:visible")
    assert visible.count() >= 1
    assert all(k == "internal" for k in visible.evaluate_all("els => els.map(e => e.dataset.kind)"))
    page.click("button[data-kind='all']")
    page.select_option("#r-filter", "online-vn")
    shown = page.locator("article.finding:visible")
    assert shown.count() >= 5
    assert all(" online-vn " in r for r in shown.evaluate_all("els => els.map(e => e.dataset.rulesets)"))
    page.select_option("#r-filter", "")
    page.screenshot(path=str(ARTIFACTS / "report-contradictions.png"), full_page=False)

    page.goto(server + "questions.html")
    total = page.locator("section.question").count()
    assert total >= 40
    page.fill("#q-filter", "jail")
    shown = page.locator("section.question:visible").count()
    assert 0 < shown < total
    page.select_option("#r-filter", "official")
    rows = page.locator("section.question:visible tr[data-ruleset]:visible")
    assert rows.count() == shown
    page.screenshot(path=str(ARTIFACTS / "report-questions.png"))

    page.goto(server + "matrix.html")
    assert page.locator("#check-state").count() == 1
    page.goto(server + "simulation.html")
    assert page.locator("#sim-state").count() == 1
    page.goto(server + "index.html")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(ARTIFACTS / "report-index-phone.png"), full_page=True)
    ctx.close()
