"""The conformance page on its own (``verify conform --html DIR``), in the report's look.

A conformance run is told by ``verify.conform.render`` (its document and the
template context); writing it as a page takes the report's templates and
filters, which belong to this layer, so the page is written here and the
conformance stage stays below the report.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ..conform.render import RUN_DOC, run_document, view
from ..output import atomic_dir
from .site import environment


def html(result, files: list[str | None], out: Path, engine_arg: str = "") -> None:
    """Write the conformance page, ``conform.json`` and the scenario files into ``out``, atomically."""
    doc = run_document(result, files, engine_arg)
    page = environment().get_template("conform.html").render(page="index.html", generated=doc["generated"],
                                                             **view([doc], standalone=True))
    with atomic_dir(out, writer="verify conform --html") as tmp:
        (tmp / "scenarios").mkdir()
        for src, it in zip(files, doc["violations"]):
            if src:
                shutil.copyfile(src, tmp / it["file"])
        (tmp / RUN_DOC).write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        (tmp / "index.html").write_text(page, encoding="utf-8")


__all__ = ["html"]
