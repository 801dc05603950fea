"""The study's HTML page and JSON document, written atomically.

The page extends the main report's ``base.html`` (same look, same escaping:
jinja2 autoescape with strict undefined names), so it can stand alone (``verify
study --out DIR``: the report's navigation is replaced by a plain header) or
be one page of the main report (``verify report --study study.json``).
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

import jinja2

from ..output import write_json, write_text
from ..errors import SpecError
from ..jsondoc import read_doc
from . import charts
from .analysis import SCHEMA

PAGE = "study.html"
DOC = "study.json"


def environment() -> jinja2.Environment:
    loader = jinja2.ChoiceLoader([jinja2.PackageLoader("verify.study", "templates"),
                                  jinja2.PackageLoader("verify.report", "templates")])
    return jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True)


def view(doc: dict) -> dict:
    """What the template needs: the document and the chart geometry."""
    rows = doc["rows"]
    return {
        "d": doc, "rows": rows,
        "outcomes": charts.outcome_bars(rows),
        "length": charts.length_distribution(rows),
        "seats": charts.seat_chart(rows),
        "houses": charts.time_series(rows, "houses", "houses on the board (mean)"),
        "bank": charts.time_series(rows, "bank_houses", "houses in the bank (mean)"),
        "money": charts.time_series(rows, "money", "cash held by the players still in (mean, classic amounts)"),
        "running": charts.time_series(rows, "running", "share of games still running", charts.percent),
        "first_group": charts.first_group_curve(rows),
        "unlimited_bank": [r["ruleset"] for r in rows if r["series"]["bank_houses"] is None],
    }


def render(doc: dict, standalone: bool = True, env: jinja2.Environment | None = None) -> str:
    env = env or environment()
    generated = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return env.get_template(PAGE).render(page=PAGE, standalone=standalone, generated=generated,
                                         pct=charts.percent, **view(doc))


def write_study(doc: dict, out: Path) -> tuple[Path, Path]:
    """``out/study.json`` and ``out/study.html``, each replaced only once completely written."""
    out = Path(out)
    html = render(doc)                          # render first: a failure leaves both files as they were
    write_json(out / DOC, doc, make_parents=True, separators=(",", ":"))
    write_text(out / PAGE, html, make_parents=True)
    return out / DOC, out / PAGE


def load(path: Path) -> dict:
    """A saved study document (a study.json, or the folder holding one)."""
    doc, where = read_doc(path, "study document", SCHEMA, lambda message, at: SpecError("E031", message, at),
                          in_folder=DOC, written_by="`verify study`")
    if not isinstance(doc.get("rows"), list):
        raise SpecError("E031", "the study document needs \"rows\" (a list)", where)
    return doc


__all__ = ["render", "write_study", "load", "view", "PAGE", "DOC"]
