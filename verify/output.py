"""Everything the toolkit writes goes through here: a whole new file or folder, or nothing.

``atomic_file(path)`` writes into a temporary file in the target's own folder
(same file system), flushes and fsyncs it and renames it over the target: a
full disk, a read-only folder, a crash or Ctrl-C leaves the previous file as
it was and no temporary file behind. A name ending in ``.gz`` is written
gzip-compressed. A file or folder the user made read-only is never replaced
(E024), and a write that fails is one ``OSError`` naming the target.

``atomic_dir(path)`` does the same for a folder of pages (``verify report``):
it fills a temporary folder and swaps it in at the end. It replaces only a
folder the toolkit wrote, known by its marker file, which lists every file
written with its SHA-256; anything else in the folder (a file the user added,
or a page the user edited) is the user's: it is carried into the new folder,
or, when the new report needs its name, the run is refused naming it (E024).
A folder without the marker that holds anything but the files a fresh clone
ships there (README, .gitignore, .gitkeep) is refused before any work is done.

``output_option`` gives a command ``-o/--output FILE``: what the command
prints goes to FILE instead, written as above.

A temporary file or folder carries the writing process's id in its name; one
left behind by a process that was killed outright (SIGKILL, a power cut) is
removed by the next write to the same target. ``file_stem(id)`` is the one way
an id (a ruleset, a finding) becomes part of a file name or an anchor: ids that
differ give names that differ, on every file system.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import unicodedata
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

from .errors import Location, VerifyError
from .interrupt import deferred

MARKER = ".verify-report"
#: Files a report folder may hold without the marker (what a fresh clone ships in reports/).
KEEP = ("README*", ".gitkeep", ".gitignore")


class OutputRefused(VerifyError):
    """An output location holds files the toolkit did not write, or is read-only."""

    def __init__(self, message: str, where: Path):
        super().__init__("E024", message, Location(str(where)))


def _default_mode(is_dir: bool) -> int:
    mask = os.umask(0)
    os.umask(mask)
    return (0o777 if is_dir else 0o666) & ~mask


def _read_only(path: Path) -> bool:
    """Made read-only by its owner (mode bits, which hold for root too), or not writable by us."""
    st = path.stat()
    return not (st.st_mode & stat.S_IWUSR) or not os.access(path, os.W_OK)


_SAFE_STEM = re.compile(r"[a-z0-9][a-z0-9._+@-]*")
_UNSAFE = re.compile(r"[^a-z0-9._+@-]+")


def file_stem(text: str) -> str:
    """``text`` (a ruleset or finding id) as part of a file name or an HTML anchor.

    An id of lower-case ASCII letters, digits and ``._+@-`` is kept as it is
    (``official+house-no-auction``). Any other id is shown in ASCII (accents
    dropped, other characters as ``-``) and followed by ``~`` and 8 hex digits of
    its SHA-256, so two ids never share a name: not ``çay`` and ``şay``, not
    ``Table`` and ``table`` on a file system that ignores case.
    """
    if _SAFE_STEM.fullmatch(text) and len(text) <= 120:
        return text
    ascii_ = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    shown = _UNSAFE.sub("-", ascii_).strip(".-")[:80] or "x"
    return f"{shown}~{hashlib.sha256(text.encode('utf-8')).hexdigest()[:8]}"


def _temp_prefix(name: str) -> str:
    """The start of the name of a temporary file or folder for target ``name``: hidden, with our pid."""
    return f".{name}.{os.getpid()}-"


def _clean_stale(folder: Path, name: str) -> None:
    """Remove temporary files and folders left for target ``name`` by processes that no longer run."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        m = _TEMP.fullmatch(entry.name)
        if not m or m["target"] != name or _alive(int(m["pid"])):
            continue
        with contextlib.suppress(OSError):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)


_TEMP = re.compile(r"\.(?P<target>.+)\.(?P<pid>\d+)-[^./]*\.(?:part|probe|new|old)")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True                 # someone else's process: alive
    return True


def _cannot_write(target: Path, exc: OSError) -> OSError:
    why = exc.strerror or str(exc)
    if isinstance(exc, FileNotFoundError) and not target.parent.is_dir():
        why = f"the folder {str(target.parent)!r} does not exist"
    kept = "; the previous one is unchanged" if target.exists() else ""
    return OSError(exc.errno or errno.EIO, f"cannot write: {why}{kept}", str(target))


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _probe(folder: Path, target: Path) -> None:
    """Refuse a folder made read-only (E024); then create and remove a temporary file in it: the one
    test of writability that also holds for special file systems."""
    if _read_only(folder):
        raise OutputRefused(f"the folder {str(folder)!r} is read-only: verify does not write into a folder "
                            "you protected (make it writable or choose another place)", target)
    try:
        fd, name = tempfile.mkstemp(prefix=_temp_prefix(target.name), suffix=".probe", dir=folder)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot write in {str(folder)!r}: {exc.strerror or exc}", str(target)) from None
    os.close(fd)
    os.unlink(name)


def _existing_ancestor(path: Path) -> Path:
    ancestor = path
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    return ancestor


def check_file_target(target: Path, make_parents: bool = False) -> None:
    """Raise before any work when ``target`` cannot be written: its folder is missing (unless
    ``make_parents``), it or its folder is read-only (E024), or it is a folder."""
    target = Path(target)
    if make_parents and not target.parent.exists():
        ancestor = _existing_ancestor(target.parent)
        if not ancestor.is_dir():
            raise OSError(errno.ENOTDIR, f"cannot write: {str(ancestor)!r} is not a folder", str(target))
        _probe(ancestor, target)
        return
    if not target.parent.is_dir():
        raise OSError(errno.ENOENT, f"cannot write: the folder {str(target.parent)!r} does not exist",
                      str(target))
    if target.is_dir():
        raise OSError(errno.EISDIR, "cannot write: it is a folder", str(target))
    if target.exists() and _read_only(target):
        raise OutputRefused("read-only: verify does not replace a file you protected", target)
    _probe(target.parent, target)


@contextmanager
def atomic_file(path: str | Path, binary: bool = False, encoding: str = "utf-8",
                make_parents: bool = False) -> Iterator[IO]:
    """Yield a file to write; on clean exit it replaces ``path`` whole, on any error it vanishes.

    The new file gets the mode of the file it replaces, or the usual mode of a new file (0666
    less the umask). ``make_parents`` creates missing folders first."""
    target = Path(path)
    check_file_target(target, make_parents)
    if make_parents:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _cannot_write(target, exc) from None
    _clean_stale(target.parent, target.name)
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else _default_mode(False)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=_temp_prefix(target.name), suffix=".part", dir=target.parent)
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    tmp = Path(tmp_name)
    raw = os.fdopen(fd, "wb")
    try:
        try:
            packed = gzip.GzipFile(filename=target.name[:-3], mode="wb", fileobj=raw, mtime=0) \
                if target.name.endswith(".gz") else None
            stream = packed or raw
            handle = stream if binary else io.TextIOWrapper(stream, encoding=encoding, newline="\n")
            yield handle
            if not binary:
                handle.flush()
                handle.detach()
            if packed is not None:
                packed.close()                      # the gzip trailer; raw stays open
            raw.flush()
            os.fsync(raw.fileno())
            raw.close()
            os.chmod(tmp, mode)
            os.replace(tmp, target)
        except OSError as exc:
            if exc.filename not in (None, tmp_name, str(target)):
                raise                               # the caller's own I/O (reading an input)
            raise _cannot_write(target, exc) from None
    except BaseException:
        with contextlib.suppress(OSError):
            raw.close()
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(target.parent)


def write_text(path: str | Path, text: str, encoding: str = "utf-8", make_parents: bool = False) -> None:
    with atomic_file(path, encoding=encoding, make_parents=make_parents) as fh:
        fh.write(text)


def write_bytes(path: str | Path, data: bytes, make_parents: bool = False) -> None:
    with atomic_file(path, binary=True, make_parents=make_parents) as fh:
        fh.write(data)


def write_json(path: str | Path, doc, make_parents: bool = False, **dumps) -> None:
    """``doc`` as JSON (UTF-8, non-ASCII kept), written like ``write_text``."""
    write_text(path, json.dumps(doc, ensure_ascii=False, **dumps) + "\n", make_parents=make_parents)


def output_option(command):
    """Give a click command ``-o/--output FILE``: what it prints is written to FILE atomically.

    The file is written when the command ends with status 0 or 1 (a finished check that found
    a problem still has a result); a usage error, an error or Ctrl-C leaves FILE as it was.
    """
    import click

    @functools.wraps(command)
    def run(*args, output: Path | None = None, **kwargs):
        if output is None:
            return command(*args, **kwargs)
        check_file_target(output)
        buf = io.StringIO()
        status: int | str | None = 0
        with contextlib.redirect_stdout(buf):
            try:
                command(*args, **kwargs)
            except SystemExit as exc:
                status = exc.code
        if status in (0, 1, None):
            write_text(output, buf.getvalue())
            click.echo(f"wrote {output}", err=True)
        if status:
            sys.exit(status)

    return click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
                        help="Write what the command prints to this file (atomically: the previous "
                             "file stays until the new one is complete). A name ending in .gz is "
                             "compressed.")(run)


# ---------------------------------------------------------------------------- report folders
def _entries(folder: Path) -> tuple[list[str], list[str]]:
    """(files and links, folders) under ``folder`` as relative POSIX paths; the marker excluded."""
    files, dirs = [], []
    for root, subdirs, names in os.walk(folder):
        rel = Path(root).relative_to(folder)
        for d in list(subdirs):
            if (Path(root) / d).is_symlink():
                subdirs.remove(d)
                files.append((rel / d).as_posix())
            else:
                dirs.append((rel / d).as_posix())
        files += [(rel / n).as_posix() for n in names if (rel / n).as_posix() != MARKER]
    return sorted(files), sorted(dirs)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _manifest(target: Path) -> dict[str, str] | None:
    """The files the toolkit wrote (name -> SHA-256), or None for a marker of an older version."""
    try:
        doc = json.loads((target / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    files = doc.get("files") if isinstance(doc, dict) else None
    return files if isinstance(files, dict) else None


def _is_kept_name(rel: str) -> bool:
    return "/" not in rel and any(Path(rel).match(k) for k in KEEP)


def _theirs(target: Path) -> list[str]:
    """Files in a marked folder that the toolkit did not write, or that changed since it did."""
    files, _ = _entries(target)
    manifest = _manifest(target)
    if manifest is None:        # a report of an older version: it wrote only top-level pages
        return [f for f in files if "/" in f or not f.endswith((".html", ".json"))]
    return [f for f in files if manifest.get(f) is None or (target / f).is_symlink()
            or _sha256(target / f) != manifest[f]]


def _named(files: list[str]) -> str:
    shown = ", ".join(files[:6])
    return shown + (f" and {len(files) - 6} more" if len(files) > 6 else "")


def check_report_dir(target: Path) -> None:
    """Raise E024 unless ``target`` may become a report folder: absent, empty, marked, or a fresh one."""
    target = Path(target).absolute()
    if not target.exists():
        ancestor = target.parent
        while not ancestor.exists():
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            raise OSError(errno.ENOTDIR, f"cannot write: {str(ancestor)!r} is not a folder", str(target))
        _probe(ancestor, target)
        return
    if not target.is_dir():
        raise OutputRefused("is a file, not a report folder; choose another --out", target)
    if _read_only(target):
        raise OutputRefused("read-only: verify report does not replace a folder you protected "
                            "(make it writable or choose another --out)", target)
    _probe(target.parent, target)
    if (target / MARKER).exists():
        return
    files, dirs = _entries(target)
    foreign = [f for f in files if not _is_kept_name(f)] + [d + "/" for d in dirs]
    if foreign:
        raise OutputRefused(f"holds files verify report did not write ({_named(foreign)}); "
                            f"it has no {MARKER} marker, so nothing in it is replaced: choose another "
                            "--out or move them", target)


def _carry(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if src.is_symlink():
        os.symlink(os.readlink(src), dst)
        return
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


@contextmanager
def atomic_dir(target: str | Path, writer: str = "verify report") -> Iterator[Path]:
    """Yield a temporary folder; on clean exit it replaces ``target``, on any error it vanishes."""
    target = Path(target).absolute()
    check_report_dir(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _clean_stale(target.parent, target.name)
        tmp = Path(tempfile.mkdtemp(prefix=_temp_prefix(target.name), suffix=".new", dir=target.parent))
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    try:
        yield tmp
        written, _ = _entries(tmp)
        mode = _default_mode(True)
        if target.exists():
            check_report_dir(target)            # again: the folder may have changed during the run
            mode = stat.S_IMODE(target.stat().st_mode)
            theirs = _theirs(target) if (target / MARKER).exists() else _entries(target)[0]
            clash = [f for f in theirs if f in written]
            if clash:
                raise OutputRefused(f"holds files {writer} did not write or that were changed "
                                    f"since ({_named(clash)}), and the new report needs their names: "
                                    "move them or choose another --out", target)
            for f in theirs:
                _carry(target / f, tmp / f)
            for d in _entries(target)[1]:
                (tmp / d).mkdir(parents=True, exist_ok=True)
        files = {}
        for f in written:
            with (tmp / f).open("rb") as fh:
                os.fsync(fh.fileno())
            files[f] = _sha256(tmp / f)
        (tmp / MARKER).write_text(json.dumps({"written_by": writer, "files": files}, indent=1) + "\n",
                                  encoding="utf-8")
        os.chmod(tmp, mode)
        old = None
        with deferred():                        # Ctrl-C waits for both renames
            if target.exists():
                old = Path(tempfile.mkdtemp(prefix=_temp_prefix(target.name), suffix=".old", dir=target.parent))
                old.rmdir()
                os.replace(target, old)
            try:
                os.replace(tmp, target)
            except OSError:
                if old is not None:
                    os.replace(old, target)     # put the previous report back
                raise
        _fsync_dir(target.parent)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, OSError) and not isinstance(exc, VerifyError) and exc.filename is None:
            raise _cannot_write(target, exc) from None
        raise


__all__ = ["atomic_file", "atomic_dir", "write_text", "write_bytes", "write_json", "output_option",
           "check_file_target", "check_report_dir", "file_stem", "OutputRefused", "MARKER", "KEEP"]
