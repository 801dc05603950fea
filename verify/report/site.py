"""The report as a site: one list of pages, one base template, one navigation.

Every page is a ``Page``: the file(s) it writes, its label in the navigation
(or none), and a function from the report's ``Inputs`` to the template
context of each file it writes (nothing at all leaves the page out, and its
link with it). An index card is one more optional function. Adding a page —
a conformance summary, a balance study — is one ``register(Page(...))``
call plus a template that extends ``base.html``; the navigation, the index
card and the browser test's link check follow by themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

import jinja2

from ..compare.values import show
from ..compare.witness import file_name
from ..output import file_stem

#: (file name, template context) pairs a page writes.
Files = Iterable[tuple[str, dict[str, Any]]]


@dataclass(frozen=True)
class Card:
    """An entry on the index: a headline number (or word), a line of text, the page it opens."""

    href: str
    num: str
    text: str


@dataclass(frozen=True)
class Page:
    file: str                                   # the page the navigation links to
    label: str | None                           # its navigation label (None: not in the navigation)
    template: str
    files: Callable[[Any], Files]               # Inputs -> (file, context) for every file written
    card: Callable[[Any], Card | None] | None = None


PAGES: list[Page] = []


def register(page: Page, before: str | None = None) -> Page:
    """Add a page to the report (after the others, or before the page whose file is ``before``)."""
    PAGES[:] = [p for p in PAGES if p.file != page.file]
    at = next((i for i, p in enumerate(PAGES) if p.file == before), len(PAGES))
    PAGES.insert(at, page)
    return page


def slug(rid: str) -> str:
    """The page of a ruleset (``verify.output.file_stem``: distinct ids, distinct pages)."""
    return f"ruleset-{file_stem(rid)}.html"


def anchor(fid: str) -> str:
    return f"f-{file_stem(fid)}"


def topic_file(topic: str) -> str:
    return f"findings-{file_stem(topic)}.html"


def finding_href(f) -> str:
    """Where a finding is shown in full: its topic page, at its anchor."""
    return f"{topic_file(f.topic)}#{anchor(f.id)}"


def environment() -> jinja2.Environment:
    # the balance study's page template lives with verify.study (which renders it stand-alone too)
    loader = jinja2.ChoiceLoader([jinja2.PackageLoader("verify.report", "templates"),
                                  jinja2.PackageLoader("verify.study", "templates")])
    env = jinja2.Environment(loader=loader,
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["show"] = show
    env.filters["slug"] = slug
    env.filters["anchor"] = anchor
    env.filters["finding_href"] = finding_href
    env.filters["witness_file"] = file_name
    env.globals["note_of"] = lambda side: None      # the report sets the rulesets' own (``notes``)
    return env


def notes(reg) -> Callable[[Any], str | None]:
    """The ``note:`` of the entry a side shows (by the file that set it and its parameter), so every page
    that shows a value shows the note beside it: a reading set aside, a caveat on the value."""
    found = {(fid, pid): " ".join(e.note.split()) for fid, f in reg.files.items()
             for pid, e in f.entries.items() if isinstance(e.note, str) and e.note.strip()}
    return lambda side: found.get((getattr(side, "origin", None), getattr(side, "param", None)))
