"""The HTML report: index, findings by topic, questions, rulings sheet, verification, simulation.

``build(ReportOptions(out=...))`` renders everything atomically; see
:mod:`verify.report.build`. The pages are ``site.PAGES`` (add one with
``site.register``); templates ship in ``verify/report/templates``.
"""

from .build import ReportOptions, build
from .site import PAGES, Card, Page, register, slug

__all__ = ["PAGES", "Card", "Page", "ReportOptions", "build", "register", "slug"]
