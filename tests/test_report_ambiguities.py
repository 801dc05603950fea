"""The clarification page lists every ambiguity: its readings side by side, the witness, the other
rulebooks' answers; the section escapes what it did not write."""

from __future__ import annotations

import html
import re

import pytest

from verify.compare import compare
from verify.compare.from_rulesets import load_registry
from verify.compare.model import Comparison, Finding, Side
from verify.report import ReportOptions, build
from verify.report.ambiguities import ambiguity_rows
from verify.report.build import environment
from verify.report.runs import CheckRun, Simulation

pytestmark = pytest.mark.usefixtures("one_bundled_comparison")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("r") / "reports"
    build(ReportOptions(out=out), hooks={
        "check": lambda ids: CheckRun("not run", reason="not in this test"),
        "simulate": lambda t, g, s: Simulation("not run", g, "—", s, reason="not in this test")})
    return out


@pytest.fixture(scope="module")
def page(report):
    return (report / "ambiguities.html").read_text(encoding="utf-8")


def test_every_ambiguity_is_listed_with_its_readings(page):
    findings = [f for f in compare(reg=load_registry()).findings if f.kind == "ambiguous"]
    assert findings and 'id="ambiguities"' in page
    section = page[page.index('id="ambiguities"'):]
    for f in findings:
        row = ambiguity_rows(Comparison((), (f,)))[0]
        article = section[section.index(f'id="{row["anchor"]}"'):]
        article = article[:article.index("</article>")]
        for s in f.sides[1:]:
            assert f"{html.escape(s.ruleset)}@{s.reading}" in article
        for s in f.related:
            assert f'>{s.ruleset}</a>' in article
        if f.witness:
            assert "Witness" in article and all(html.escape(o.text) in article for o in f.witness.outcomes)


def test_section_links_resolve_to_pages(page, report):
    section = page[page.index('id="ambiguities"'):]
    hrefs = re.findall(r'href="([^"#]+)"', section)
    for href in hrefs:
        assert (href.startswith("ruleset-") and "@" not in href) or href.startswith("witnesses/"), href
        assert (report / html.unescape(href)).is_file(), href
    assert any(h.startswith("witnesses/") for h in hrefs)        # the witnesses the engine played


def test_section_escapes_text():
    evil = "<script>alert(1)</script>"
    own = Side("x", None, None, evil, 1, kind="assumed", param="jail.fine")
    alt = Side("x", None, None, evil, 2, kind="reading", param="jail.fine", reading="two")
    comp = Comparison(("x",), (Finding("ambiguous:x:jail.fine", "jail", "ambiguous", evil, (own, alt), None,
                                       ("jail.fine",), related=(own,)),))
    out = environment().get_template("ambiguities.html").render(ambiguities=ambiguity_rows(comp))
    assert evil not in out and "&lt;script&gt;" in out
