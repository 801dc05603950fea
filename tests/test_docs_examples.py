"""Every command the documentation shows with its output runs and prints that output.

A shown example is a fenced block whose first line starts with ``$ verify``: the command, then the
lines it prints (more ``$`` lines may follow in the same block). Output is compared line by line
after trailing spaces are stripped; a line ending in ``...`` matches any line that starts with the
text before it, and a line that is only ``...`` stands for any number of lines. Commands run in a
scratch folder that sees the repository's ``tests/`` and ``docs/`` (so a command that writes files,
such as ``verify conform``, writes them there), with 80 columns.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.S | re.M)


def examples() -> list[tuple[str, int, str, list[str]]]:
    """(page, line, command, expected output lines) for every shown command with output."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in FENCE.finditer(text):
            lines = block.group(1).splitlines()
            if not lines or not lines[0].startswith("$ verify "):
                continue
            line_no = text.count("\n", 0, block.start()) + 2
            current = None
            for i, line in enumerate(lines):
                if line.startswith("$ "):
                    current = (page.relative_to(ROOT).as_posix(), line_no + i, line[2:], [])
                    found.append(current)
                else:
                    current[3].append(line)
    return found


def matches(expected: list[str], actual: list[str]) -> bool:
    exp = [e.rstrip() for e in expected]
    act = [a.rstrip() for a in actual]
    while exp and not exp[-1]:
        exp.pop()
    while act and not act[-1]:
        act.pop()

    def at(i: int, j: int) -> bool:
        if i == len(exp):
            return j == len(act)
        if exp[i] == "...":
            return any(at(i + 1, k) for k in range(j, len(act) + 1))
        if j == len(act):
            return False
        e, a = exp[i], act[j]
        ok = a.startswith(e[:-3]) if e.endswith("...") else a == e
        return ok and at(i + 1, j + 1)

    return at(0, 0)


def test_the_pages_show_examples():
    """The pages this test reads do show commands with their output (a broken pattern finds none)."""
    shown = {page for page, *_ in examples()}
    assert {"docs/commands.md", "docs/verification.md", "docs/conformance.md"} <= shown


@pytest.mark.parametrize("page,line,cmd,expected", examples(), ids=lambda v: v if isinstance(v, str) and
                         v.startswith(("docs", "README")) else None)
def test_a_shown_command_prints_what_the_page_shows(page, line, cmd, expected, tmp_path):
    for name in ("tests", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="80", NO_COLOR="1", TERM="dumb")
    argv = shlex.split(cmd)
    assert argv[0] == "verify"
    res = subprocess.run([sys.executable, "-m", "verify", *argv[1:]], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    actual = (res.stdout + res.stderr).splitlines()
    assert matches(expected, actual), (f"{page}:{line}: `{cmd}` printed (exit {res.returncode}):\n"
                                       + "\n".join(actual))


def test_the_matcher_elides_and_compares():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "b..."], ["a", "bcd"])
    assert not matches(["a", "b"], ["a", "c"])
    assert not matches(["a"], ["a", "b"])


def test_the_commands_page_lists_every_error_code_once():
    from verify.errors import CODES
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if re.match(r"\| E\d{3}", line)]
    listed = [code for row in rows for code in re.findall(r"E\d{3}", row.split("|")[1])]
    assert sorted(listed) == sorted(CODES) and len(listed) == len(set(listed))


def _readme_file(name: str) -> str:
    """The YAML block of the README that starts with ``# NAME``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = next(b.group(1) for b in FENCE.finditer(text) if b.group(1).startswith(f"# {name}\n"))
    return block


def _readme_commands(after: str) -> list[list[str]]:
    """The ``verify`` commands of the first sh block after the heading ``after``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    text = text[text.index(after):]
    block = next(b.group(1) for b in FENCE.finditer(text) if b.group(0).startswith("```sh"))
    return [shlex.split(line.split("  #")[0]) for line in block.splitlines() if line.startswith("verify ")]


def _run(tmp_path, argv):
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "verify", *argv[1:]], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_readmes_table_walk_through_runs(tmp_path):
    (tmp_path / "our-table.yaml").write_text(_readme_file("our-table.yaml"), encoding="utf-8")
    commands = _readme_commands("## Walk-through: a table of house rules")
    assert [c[1] for c in commands] == ["lint", "diff", "ask", "simulate", "report"]
    for argv in commands[:4]:
        if argv[1] == "simulate":
            argv = argv[:argv.index("--games")] + ["--games", "3"]
        res = _run(tmp_path, argv)
        assert res.returncode == 0, (argv, res.stdout, res.stderr)
    assert "setup.starting_cash = 2000: supplied with --set" in res.stderr


def test_the_readmes_variant_walk_through_says_what_it_says(tmp_path):
    (tmp_path / "quick-hotels.yaml").write_text(_readme_file("quick-hotels.yaml"), encoding="utf-8")
    [argv] = _readme_commands("## Walk-through: a variant designer's check")
    res = _run(tmp_path, argv + ["--jobs", "1", "--action", "build_hotel"])
    assert res.returncode == 1
    assert "quick-hotels: hotel-after-full-houses VIOLATED by build_hotel" in res.stdout
    assert "hotel-after-full-houses is promised by official, which quick-hotels builds on" in res.stdout


def test_the_readme_opens_with_its_two_commands_and_stays_short():
    """A newcomer's first lines: the install that also runs the main job, then the tests; the guide stays
    short (the depth is in docs/) and neither it nor a docs page speaks of issues."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = FENCE.search(text)
    assert text.count("\n", 0, first.start()) <= 3, "the commands come first"
    install, tests = first.group(1).splitlines()
    assert install.startswith("pip install -e '.[") and install.endswith("&& verify report")
    assert tests == "python -m pytest"
    assert len(text.splitlines()) <= 200
    for page in PAGES + sorted((ROOT / "docs" / "adr").glob("*.md")):
        found = re.findall(r"[Ii]ssues? ?#?\d+|(?:^|[\s(])#\d+\b", page.read_text(encoding="utf-8"))
        assert not found, (page.name, found)


def test_the_readme_reports_what_the_recorded_default_runs_found():
    """The README's figures for the two open engines are the recorded runs' (docs/evidence), so a
    regenerated run cannot leave the README telling an older count."""
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    gnome = json.loads((ROOT / "docs/evidence/gnome/default-run.json").read_text(encoding="utf-8"))
    unstated = sum(1 for v in gnome["violations"] if v["status"] == "unstated")
    assert (f"{len(gnome['violations'])} causes from `official`, {unstated} of them resting only on "
            "values the rulebook leaves unstated") in text
    trace = json.loads((ROOT / "docs/evidence/simclasses/validate-trace.json").read_text(encoding="utf-8"))
    assert f"`--validate-trace`), {len(trace['deviations'])} causes" in text
