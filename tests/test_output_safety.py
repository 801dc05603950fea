"""Nothing a user owns is deleted or overwritten without their say; every write is whole or not at all."""

from __future__ import annotations

import errno
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli_process import run_verify, verify_cmd, verify_env
from verify.cli import main
from verify.errors import VerifyError
from verify.output import MARKER, atomic_dir, atomic_file, write_text


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if ".new-" in p.name or ".old-" in p.name or p.suffix == ".part"]


# ------------------------------------------------------------------ verify report --out
def test_report_refuses_a_folder_of_user_files_before_any_work(tmp_path, monkeypatch):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "index.html").write_text("<p>my page</p>")
    (mine / "photo.png").write_bytes(b"\x89PNG my photo")
    (mine / "taxes.json").write_text('{"mine": true}')
    before = snapshot(mine)
    monkeypatch.setattr("verify.commands.report.build", lambda opts: pytest.fail("the report was computed"))
    res = CliRunner().invoke(main, ["report", "--out", str(mine), "--no-check", "--no-simulate"])
    assert res.exit_code == 1, res.output
    assert "[E024]" in res.output and all(n in res.output for n in ("index.html", "photo.png", "taxes.json"))
    assert snapshot(mine) == before and leftovers(tmp_path) == []


def test_files_a_user_added_to_a_report_are_kept(tmp_path):
    out = tmp_path / "reports"
    with atomic_dir(out) as tmp:
        (tmp / "index.html").write_text("old index")
        (tmp / "old-page.html").write_text("a page the new report no longer writes")
    (out / "notes.txt").write_text("my notes")
    (out / "pics").mkdir()
    (out / "pics" / "a.png").write_bytes(b"png")
    with atomic_dir(out) as tmp:
        (tmp / "index.html").write_text("new index")
        (tmp / "matrix.html").write_text("new matrix")
    assert (out / "index.html").read_text() == "new index"
    assert (out / "notes.txt").read_text() == "my notes" and (out / "pics" / "a.png").read_bytes() == b"png"
    assert not (out / "old-page.html").exists()          # the toolkit's own page, written and unchanged
    manifest = json.loads((out / MARKER).read_text())["files"]
    assert set(manifest) == {"index.html", "matrix.html"}    # the user's files are never listed as ours
    assert leftovers(tmp_path) == []


def test_a_page_the_user_edited_is_not_overwritten(tmp_path):
    out = tmp_path / "reports"
    with atomic_dir(out) as tmp:
        (tmp / "index.html").write_text("generated")
    (out / "index.html").write_text("generated, then annotated by hand")
    before = snapshot(out)
    with pytest.raises(VerifyError) as info:
        with atomic_dir(out) as tmp:
            (tmp / "index.html").write_text("regenerated")
    assert info.value.code == "E024" and "index.html" in str(info.value)
    assert snapshot(out) == before and leftovers(tmp_path) == []


def test_a_read_only_report_folder_is_refused_and_stays_read_only(tmp_path):
    out = tmp_path / "reports"
    with atomic_dir(out) as tmp:
        (tmp / "index.html").write_text("generated")
    out.chmod(0o555)
    try:
        res = CliRunner().invoke(main, ["report", "--out", str(out), "--no-check", "--no-simulate"])
        assert res.exit_code == 1 and "[E024]" in res.output and "read-only" in res.output
        assert stat.S_IMODE(out.stat().st_mode) == 0o555
        assert (out / "index.html").read_text() == "generated"
    finally:
        out.chmod(0o755)


def test_a_new_report_keeps_the_folder_mode(tmp_path):
    out = tmp_path / "reports"
    with atomic_dir(out) as tmp:
        (tmp / "index.html").write_text("1")
    out.chmod(0o750)
    with atomic_dir(out) as tmp:
        (tmp / "index.html").write_text("2")
    assert stat.S_IMODE(out.stat().st_mode) == 0o750


def test_a_fresh_clones_reports_folder_is_accepted(tmp_path):
    out = tmp_path / "reports"           # what the repository ships: README.md and .gitignore
    out.mkdir()
    (out / "README.md").write_text("regenerate with verify report")
    (out / ".gitignore").write_text("*\n")
    with atomic_dir(out) as tmp:
        (tmp / "index.html").write_text("x")
    assert (out / "README.md").read_text() == "regenerate with verify report"
    assert (out / ".gitignore").read_text() == "*\n" and (out / "index.html").is_file()


# ------------------------------------------------------------------ single files
def test_a_failed_write_leaves_the_previous_file(tmp_path, monkeypatch):
    target = tmp_path / "out.json"
    write_text(target, "previous good file\n")
    with pytest.raises(RuntimeError):
        with atomic_file(target) as fh:
            fh.write("half of a new")
            raise RuntimeError("the producer failed midway")
    assert target.read_text() == "previous good file\n" and leftovers(tmp_path) == []

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as info:
        write_text(target, "new\n")
    assert info.value.filename == str(target) and "No space left" in info.value.strerror
    assert "previous one is unchanged" in info.value.strerror
    assert target.read_text() == "previous good file\n" and leftovers(tmp_path) == []


def _file_size_limit(limit: int):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)     # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_full_disk_is_one_line_and_keeps_the_previous_file(tmp_path):
    target = tmp_path / "official.json"
    target.write_text("previous good file\n")
    res = subprocess.run(verify_cmd("compile", "official", "-o", target), capture_output=True, text=True,
                         env=verify_env(), timeout=300, preexec_fn=_file_size_limit(4096))
    assert res.returncode == 1, res.stderr
    assert res.stderr.strip().splitlines() == [f"{target}: cannot write: File too large; the previous one is unchanged"]
    assert target.read_text() == "previous good file\n" and leftovers(tmp_path) == []


def test_a_missing_output_folder_is_one_line(tmp_path):
    for args in (["compile", "official", "-o", tmp_path / "nodir" / "x.json"],
                 ["simulate", "--games", "1", "--trace", tmp_path / "nodir" / "t.jsonl"]):
        res = run_verify(*args)
        assert res.returncode == 1, res.stderr
        assert len(res.stderr.strip().splitlines()) == 1 and "does not exist" in res.stderr, res.stderr
    assert not (tmp_path / "nodir").exists()


def test_a_read_only_file_is_not_replaced(tmp_path):
    target = tmp_path / "x.json"
    target.write_text("protected\n")
    target.chmod(0o444)
    res = CliRunner().invoke(main, ["compile", "official", "-o", str(target)])
    assert res.exit_code == 1 and "[E024]" in res.output and "read-only" in res.output
    assert target.read_text() == "protected\n"


def _read_only_folder(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """Run verify with ``folder`` read-only: chmod for a user; for root (who may write anyway),
    a read-only bind mount in a private mount namespace."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            return subprocess.run(verify_cmd(*args), capture_output=True, text=True, env=verify_env(), timeout=300)
        finally:
            folder.chmod(0o755)
    if not shutil.which("unshare"):
        pytest.fail("running as root, this test needs unshare (util-linux) to make a folder read-only")
    script = (f'mount --bind "{folder}" "{folder}" && mount -o remount,ro,bind "{folder}" && exec '
              + " ".join(f'"{a}"' for a in verify_cmd(*args)))
    return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True,
                          env=verify_env(), timeout=300)


def test_a_read_only_parent_is_one_line(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    (ro / "x.json").write_text("previous\n")
    res = _read_only_folder(ro, "compile", "official", "-o", ro / "new.json")
    assert res.returncode == 1, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "new.json: [E024] the folder" in res.stderr and "is read-only" in res.stderr, res.stderr
    res = _read_only_folder(ro, "compile", "official", "-o", ro / "x.json")     # an existing file there
    assert res.returncode == 1 and "x.json: [E024] read-only" in res.stderr, res.stderr
    res = _read_only_folder(ro, "report", "--out", ro / "reports", "--no-check", "--no-simulate")
    assert res.returncode == 1 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "Traceback" not in res.stderr
    assert (ro / "x.json").read_text() == "previous\n" and sorted(p.name for p in ro.iterdir()) == ["x.json"]


def test_output_option_writes_what_the_command_prints(tmp_path):
    target = tmp_path / "cfg.json.gz"
    res = CliRunner().invoke(main, ["compile", "official", "-o", str(target)])
    assert res.exit_code == 0, res.output
    import gzip
    doc = json.loads(gzip.decompress(target.read_bytes()))
    printed = json.loads(CliRunner().invoke(main, ["compile", "official"]).output)
    assert doc == printed and doc["schema"] == "verify.engine-config/1"


def test_a_report_of_an_older_version_is_replaced_keeping_the_users_files(tmp_path):
    out = tmp_path / "reports"          # an older marker: plain text, no list of files
    out.mkdir()
    (out / MARKER).write_text("written by `verify report`; the folder is replaced as a whole\n")
    (out / "index.html").write_text("old report page")
    (out / "notes.txt").write_text("my notes")
    with atomic_dir(out) as tmp:
        (tmp / "index.html").write_text("new report page")
    assert (out / "index.html").read_text() == "new report page"
    assert (out / "notes.txt").read_text() == "my notes"
    assert json.loads((out / MARKER).read_text())["files"].keys() == {"index.html"}
