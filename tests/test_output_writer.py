"""One output writer for every command: protected files and folders are never written, new files get
the usual mode, a temporary file left by a killed run is cleaned by the next, ids name files without
clashing."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.cli_process import run_verify, verify_cmd, verify_env
from verify.cli import main
from verify.output import write_text
from verify.report.site import slug


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _protected(folder: Path) -> None:
    folder.chmod(0o555)


@pytest.fixture
def ro(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "keep.json").write_text("previous\n")
    _protected(folder)
    yield folder
    folder.chmod(0o755)


@pytest.mark.parametrize("args", [
    ["compile", "official", "-o", "{ro}/new.json"],
    ["simulate", "--games", "1", "--trace", "{ro}/game.jsonl"],
    ["study", "official", "--games", "2", "--out", "{ro}"],
    ["study", "official", "--games", "2", "--out", "{ro}/sub"],
    ["conform", "--engine", "verify.conform.reference:ReferenceEngine", "--examples", "1", "--junit",
     "{ro}/sub/conform.xml"],
    ["check", "official", "--action", "buy", "--json", "-o", "{ro}/check.json"],
    ["simulate", "--games", "1", "--resume", "{ro}/campaign"],
])
def test_a_read_only_folder_is_never_written_into(ro, args):
    """Mode bits count, also for root (who could write anyway): a folder made read-only is E024,
    before any work, and nothing appears in it."""
    res = run(*[a.format(ro=ro) for a in args])
    assert res.exit_code == 1, res.output
    assert "[E024]" in res.output and "read-only" in res.output
    assert sorted(p.name for p in ro.iterdir()) == ["keep.json"]


def test_a_read_only_study_file_is_not_replaced(tmp_path):
    out = tmp_path / "study"
    assert run("study", "official", "--games", "2", "--out", out).exit_code == 0
    (out / "study.json").write_text("mine\n")
    (out / "study.json").chmod(0o444)
    res = run("study", "official", "--games", "2", "--out", out)
    assert res.exit_code == 1 and "study.json: [E024] read-only" in res.output
    assert (out / "study.json").read_text() == "mine\n"


def test_new_files_get_the_usual_mode(tmp_path):
    mask = os.umask(0o022)
    os.umask(mask)
    out = tmp_path / "study"
    assert run("study", "official", "--games", "2", "--out", out).exit_code == 0
    for name in ("study.json", "study.html"):
        assert stat.S_IMODE((out / name).stat().st_mode) == 0o666 & ~mask, name
    from verify.execute.store import CampaignStore
    store = CampaignStore(tmp_path / "campaign")              # a campaign's --resume folder
    store.open("test", {"seed": 1}, 2)
    store.save(0, {"x": 1})
    store.finish({"x": 1})
    assert len(list(store.path.iterdir())) == 3
    for p in store.path.iterdir():
        assert stat.S_IMODE(p.stat().st_mode) == 0o666 & ~mask, p.name


def test_a_temporary_file_of_a_dead_process_is_removed_by_the_next_write(tmp_path):
    proc = subprocess.Popen(["sleep", "0"])
    proc.wait()
    dead = proc.pid                                     # a pid that no longer runs
    stale = tmp_path / f".out.json.{dead}-abcdefgh.part"
    stale.write_text("half")
    live = tmp_path / f".out.json.{os.getppid()}-abcdefgh.part"      # a running process's: kept
    live.write_text("busy")
    other = tmp_path / f".other.json.{dead}-abcdefgh.part"          # another target's: not ours to clean
    other.write_text("half")
    write_text(tmp_path / "out.json", "{}\n")
    assert not stale.exists() and live.exists() and other.exists()
    assert (tmp_path / "out.json").read_text() == "{}\n"


def test_a_killed_trace_leaves_nothing_after_the_next_run(tmp_path):
    trace = tmp_path / "game.jsonl"
    p = subprocess.Popen(verify_cmd("simulate", "--games", "2000", "--trace", trace), cwd=tmp_path,
                         env=verify_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        while not list(tmp_path.glob(".game.jsonl.*.part")) and time.time() < deadline:
            time.sleep(0.05)
        assert list(tmp_path.glob(".game.jsonl.*.part")), "the trace never started"
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert list(tmp_path.glob(".game.jsonl.*.part"))           # what SIGKILL leaves
    res = run_verify("simulate", "--games", "1", "--trace", trace, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert sorted(x.name for x in tmp_path.iterdir()) == ["game.jsonl"]


def test_ids_that_differ_name_different_files():
    from verify.output import file_stem
    ids = ["çay", "şay", "cay", "Cay", "official+house-no-auction", "our table", "a/b", "a-b", "x" * 300]
    stems = [file_stem(i) for i in ids]
    assert len(set(stems)) == len(ids)
    assert len({s.lower() for s in stems}) == len(ids)         # also where case is ignored
    assert all("/" not in s and not s.startswith(".") and len(s) < 100 for s in stems)
    assert file_stem("official+house-no-auction") == "official+house-no-auction"   # readable ids stay as they are
    assert file_stem("çay").startswith("cay~") and file_stem("şay").startswith("say~")
    assert slug("çay") != slug("şay")


def test_two_tables_differing_only_in_accents_get_a_page_each(tmp_path):
    for rid, fine in (("çay", 100), ("şay", 60)):
        (tmp_path / f"{fine}.yaml").write_text(
            f"id: {rid}\ntitle: {rid}\nextends: official\nrules:\n  jail.fine:\n    value: {fine}\n"
            f"    assumed: \"we pay {fine}\"\n", encoding="utf-8")
    out = tmp_path / "reports"
    res = run("report", tmp_path / "100.yaml", tmp_path / "60.yaml", "--out", out, "--no-check", "--no-simulate")
    assert res.exit_code == 0, res.output
    pages = {p.name: p.read_text(encoding="utf-8") for p in out.glob("ruleset-*.html")}
    assert "we pay 100" in pages[slug("çay")] and "we pay 60" in pages[slug("şay")]
    wrote = int(res.output.split("wrote ")[1].split(" pages")[0])
    assert wrote == len([p for p in out.iterdir() if p.suffix in (".html", ".json")])


def test_an_id_with_a_slash_is_one_clear_error(tmp_path):
    f = tmp_path / "t.yaml"
    f.write_text("title: t\nid: our/table\nextends: official\nrules: {}\n")
    res = run("lint", f)
    assert res.exit_code == 1
    assert f"{f}:2: [E009] 'id' 'our/table' holds '/'" in res.output
    assert "Traceback" not in res.output
