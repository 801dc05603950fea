"""The HTML report: index, a page per ruleset, contradictions, clarifications, verification, simulation.

``build(ReportOptions(out=...))`` renders everything atomically; see
:mod:`verify.report.build`. Templates ship in ``verify/report/templates``.
"""

from .build import PAGES, ReportOptions, build, slug

__all__ = ["PAGES", "ReportOptions", "build", "slug"]
