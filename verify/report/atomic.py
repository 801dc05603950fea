"""Atomic report writing lives in ``verify.output`` (one mechanism for every file the toolkit writes).

Kept so that ``from verify.report.atomic import atomic_dir, MARKER`` goes on working.
"""

from __future__ import annotations

from ..output import KEEP, MARKER, atomic_dir, check_report_dir

__all__ = ["atomic_dir", "check_report_dir", "MARKER", "KEEP"]
