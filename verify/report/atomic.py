"""Atomic report writing: render beside the target, swap at the end.

A report is rendered into a fresh temporary folder next to the target (same
file system, so the final renames are atomic); only when every page has
been written is the old report moved aside and the new one moved in. Any
failure removes the temporary folder and leaves the previous report as it
was. A marker file guards against replacing a folder that is not a report.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import SpecError

MARKER = ".verify-report"
#: Files a report folder may hold besides the pages; they are carried over to the new report.
KEEP = ("README*", ".gitkeep", ".gitignore")


def _kept(target: Path) -> list[Path]:
    return [p for p in target.iterdir() if p.is_file() and any(p.match(k) for k in KEEP)]


def _is_report(target: Path) -> bool:
    if (target / MARKER).exists():
        return True
    others = [p for p in target.iterdir() if p not in _kept(target)]
    return all(p.is_file() and p.suffix in (".html", ".png", ".json") for p in others)


@contextmanager
def atomic_dir(target: Path) -> Iterator[Path]:
    """Yield a temporary folder; on clean exit it replaces ``target``, on error it vanishes."""
    target = Path(target).absolute()
    if target.exists() and (not target.is_dir() or not _is_report(target)):
        raise SpecError("E009", f"{target} exists and is not a report folder written by `verify report` "
                        f"(no {MARKER} marker, and it holds other files); choose another --out")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=target.parent))
    try:
        yield tmp
        if target.exists():
            for keep in _kept(target):
                if not (tmp / keep.name).exists():
                    shutil.copy2(keep, tmp / keep.name)
        (tmp / MARKER).write_text("written by `verify report`; the folder is replaced as a whole\n",
                                  encoding="utf-8")
        os.chmod(tmp, 0o755)
        old = None
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
            old.rmdir()
            os.replace(target, old)
        try:
            os.replace(tmp, target)
        except OSError:
            if old is not None:
                os.replace(old, target)     # put the previous report back
            raise
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
