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


@contextmanager
def atomic_dir(target: Path) -> Iterator[Path]:
    """Yield a temporary folder; on clean exit it replaces ``target``, on error it vanishes."""
    target = Path(target).absolute()
    if target.exists() and (not target.is_dir() or (any(target.iterdir()) and not (target / MARKER).exists())):
        raise SpecError("E009", f"{target} exists and is not a report folder written by `verify report` "
                        f"(no {MARKER} marker); choose another --out")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=target.parent))
    try:
        yield tmp
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
