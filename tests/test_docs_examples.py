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


def _sh_commands(page: str) -> list[str]:
    """Every ``verify`` command line of the page's sh blocks, without its trailing comment."""
    text = (ROOT / page).read_text(encoding="utf-8")
    return [line.split("  #")[0].strip() for b in FENCE.finditer(text) if b.group(0).startswith("```sh")
            for line in b.group(1).splitlines() for line in line.split(" && ") if line.strip().startswith("verify ")]


#: Every command the README and the comparison page show, with the test that runs it exactly as written
#: and checks what the page says it does.
COMMANDS = {
    "README.md": {
        "verify report": "test_the_readmes_first_command_writes_the_bundled_report",
        "verify lint our-table.yaml": "test_the_readmes_table_walk_through",
        "verify diff our-table.yaml": "test_the_readmes_table_walk_through",
        'verify ask "rent in jail" our-table.yaml': "test_the_readmes_table_walk_through",
        "verify simulate our-table.yaml --set setup.starting_cash=2000 --games 1000":
            "test_the_readmes_table_walk_through",
        "verify report our-table.yaml --set setup.starting_cash=2000": "test_the_readmes_table_report",
        "verify check quick-hotels.yaml": "test_the_readmes_variant_walk_through_says_what_it_says",
        'verify conform --engine-cmd "./my-engine" --write-baseline conform-baseline.json':
            "test_the_readmes_engine_walk_through",
        'verify conform --engine-cmd "./my-engine" --seed 7 --baseline conform-baseline.json --junit conform.xml':
            "test_the_readmes_engine_walk_through",
        'verify conform --engine-cmd "./my-engine" --baseline conform-baseline.json --prune-baseline':
            "test_the_readmes_engine_walk_through",
    },
    "docs/comparison.md": {
        "verify contradictions --json": "test_the_comparison_pages_commands",
        "verify contradictions official platform-classic --kind contradiction": "test_the_comparison_pages_commands",
        "verify contradictions my-table.yaml": "test_the_comparison_pages_commands",
        "verify contradictions --witnesses w/": "test_the_comparison_pages_commands",
        "verify replay w/contradiction-mortgage.interest_base~d9560f27.jsonl": "test_the_comparison_pages_commands",
        'verify ask "rent while in jail"': "test_the_comparison_pages_questions",
        "verify ask rent while in jail my-table.yaml": "test_the_comparison_pages_questions",
    },
}


def test_every_command_of_the_readme_and_the_comparison_page_runs_in_a_test():
    for page, covered in COMMANDS.items():
        assert _sh_commands(page) == list(covered), page
        for name in covered.values():
            assert callable(globals().get(name)), name


def _page_command(page: str, start: str) -> list[str]:
    """The page's command starting with ``start``, as argv (so a test runs exactly what the page shows)."""
    (line,) = [c for c in COMMANDS[page] if c.startswith(start)]
    assert line in _sh_commands(page)
    return shlex.split(line)


@pytest.fixture(scope="module")
def walk(tmp_path_factory):
    """A new user's folder: the README's table, and the same table as the comparison page's my-table.yaml."""
    folder = tmp_path_factory.mktemp("walk")
    ours = _readme_file("our-table.yaml")
    (folder / "our-table.yaml").write_text(ours, encoding="utf-8")
    (folder / "my-table.yaml").write_text(ours.replace("id: our-table", "id: my-table"), encoding="utf-8")
    return folder


def test_the_readmes_table_walk_through(walk):
    assert [c.split()[1] for c in COMMANDS["README.md"] if "our-table.yaml" in c] == [
        "lint", "diff", "ask", "simulate", "report"]
    # lint: "clean: 1 ruleset(s)", or each problem's file, line and code
    res = _run(walk, _page_command("README.md", "verify lint"))
    assert res.returncode == 0 and res.stdout.strip() == "clean: 1 ruleset(s)", res.stderr
    typo = walk / "typo" / "our-table.yaml"
    typo.parent.mkdir(exist_ok=True)
    typo.write_text(_readme_file("our-table.yaml").replace("jail.fine:", "jail.fien:"), encoding="utf-8")
    bad = _run(typo.parent, _page_command("README.md", "verify lint"))
    assert bad.returncode == 1 and "our-table.yaml:9: [E002] unknown parameter 'jail.fien'" in bad.stderr
    # diff: each change against official: both rulings, a witness, the rulebooks (and every value it sets)
    res = _run(walk, _page_command("README.md", "verify diff"))
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert out.startswith("our-table against official: 3 change(s)\n")
    for param, official, ours in (("jail.fine", "50", "100 — assumed: we have always paid 100"),
                                  ("free_parking.pot", "no", "yes — assumed: taxes and fines go to the middle")):
        block = out[out.index(f"{param} — "):]
        block = block[:block.index("\n== ") if "\n== " in block else len(block)]
        assert f"  official (000_91979e7e1d6b8ee6.txt): {official}\n      «" in block, param
        assert f"  our-table: {ours}" in block and "witness (played by the engine)" in block, param
        assert "  the rulebooks:\n    official" in block and "classic-pl (001_" in block, param
    assert "our-table: open: we agree on it before each game" in out
    assert ("rules in the table's own words (not played, not checked):\n"
            "  - Whoever rolls double ones takes 500 from the bank.") in out
    # ask: your answer first, then every rulebook's, quoted
    res = _run(walk, _page_command("README.md", "verify ask"))
    assert res.returncode == 0, res.stderr
    lines = res.stdout.strip().splitlines()
    assert lines[0] == "Does a player in jail still collect rent?  [rent-while-jailed]"
    assert lines[1] == "  your table our-table" and lines[2] == "    rent.jailed_owner_collects = yes"
    rulebooks = lines[lines.index("  official"):]
    assert rulebooks[1] == "    rent.jailed_owner_collects = yes" and rulebooks[2].strip().startswith("«")
    assert any(line.strip().startswith("«W Więzieniu nadal możesz pobierać czynsze") for line in rulebooks)
    # simulate: it says what it played for the value the table leaves open, and plays the games
    res = _run(walk, _page_command("README.md", "verify simulate"))
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("ruleset our-table: 1000 games, 4 players")
    assert "setup.starting_cash = 2000: supplied with --set" in res.stderr
    assert "not played (a rule in our-table's own words, no parameter for it): Whoever rolls" in res.stderr


@pytest.mark.slow
def test_the_readmes_table_report(walk):
    """The full report of the walk-through, led by the table, its open value given: the table is checked and
    played; the rulings sheet starts from it; a sheet saved next to the table is read by show and diff."""
    res = _run(walk, _page_command("README.md", "verify report our-table.yaml"))
    assert res.returncode == 0, res.stderr
    assert "; led by our-table" in res.stdout and "check: ran" in res.stdout
    assert "our-table" not in res.stdout.split("not played, open values:")[-1]
    index = (walk / "reports" / "index.html").read_text(encoding="utf-8")
    assert index.index('class="yours"') < index.index('id="decide"') < index.index('id="top"')
    assert "Whoever rolls double ones takes 500 from the bank." in index
    assert "<code>--set setup.starting_cash=2000</code>" in index
    assert "our-table plays" in index or "cannot tell whether our-table" in index      # its games were played
    sheet = (walk / "reports" / "rulings.html").read_text(encoding="utf-8")
    assert 'id="t-id" value="our-table-rulings"' in sheet and 'data-extends="our-table.yaml"' in sheet
    (walk / "our-table-rulings.yaml").write_text(
        'id: "our-table-rulings"\ntitle: "Rulings for our-table"\nkind: overlay\nextends: "our-table.yaml"\n'
        'rules:\n  rent.jailed_owner_collects:\n    value: false\n    assumed: "ruled by our table (rulings sheet)"\n',
        encoding="utf-8")
    shown = _run(walk, ["verify", "show", "our-table-rulings.yaml"])
    assert shown.returncode == 0 and "your table our-table-rulings" in shown.stdout
    diff = _run(walk, ["verify", "diff", "our-table-rulings.yaml", "--json"])
    assert [c["param"] for c in json.loads(diff.stdout)["changes"]] == ["rent.jailed_owner_collects"]


@pytest.mark.slow
def test_the_readmes_first_command_writes_the_bundled_report(tmp_path):
    [argv] = [shlex.split(c) for c in COMMANDS["README.md"] if c == "verify report"]
    res = _run(tmp_path, argv)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("wrote ") and " to reports in " in res.stdout
    parts = list(dict.fromkeys(line.split(":")[1].strip() for line in res.stderr.splitlines()
                               if line.startswith("report: ")))
    assert parts == ["comparing 17 rulesets (findings and their z3 witnesses)", "check", "simulation", "effects",
                     "pages"]
    assert (tmp_path / "reports" / "index.html").is_file()


@pytest.mark.slow
def test_the_readmes_engine_walk_through(tmp_path):
    """Record what an engine does today (exit 0, saying how many causes), then fail only on a cause that is new or
    changed, with another seed; drop the causes no longer seen."""
    engine = tmp_path / "my-engine"
    engine.write_text(f"#!/bin/sh\nexec {sys.executable} {ROOT / 'docs/examples/conform_engine.py'}\n")
    engine.chmod(0o755)
    record, ci, prune = [shlex.split(c) for c in COMMANDS["README.md"] if c.startswith("verify conform")]
    res = _run(tmp_path, record)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "wrote 0 cause(s) to conform-baseline.json as accepted" in res.stderr
    baseline = json.loads((tmp_path / "conform-baseline.json").read_text(encoding="utf-8"))
    assert baseline["schema"] == "verify.conform-baseline/2"
    assert baseline["causes"] == []              # the example engine plays by the reference engine
    res = _run(tmp_path, ci)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "<testsuite" in (tmp_path / "conform.xml").read_text(encoding="utf-8")
    res = _run(tmp_path, prune)
    assert res.returncode == 0 and "dropped 0 cause(s) no longer seen from conform-baseline.json" in res.stderr


@pytest.mark.slow
def test_the_comparison_pages_commands(walk):
    page = "docs/comparison.md"
    # every finding between the bundled rulesets
    res = _run(walk, _page_command(page, "verify contradictions --json"))
    doc = json.loads(res.stdout)
    involved = {s["ruleset"] for f in doc["findings"] for s in f["sides"]}
    assert {"official", "classic-pl", "online-vn", "platform-classic"} <= involved
    # two rulesets, one kind
    res = _run(walk, _page_command(page, "verify contradictions official platform-classic"))
    kinds = re.findall(r"^\[(\w+)\] ", res.stdout, re.M)
    assert kinds and set(kinds) == {"contradiction"}
    assert not (involved_here := set(re.findall(r"^    ([a-z0-9+-]+) \(0", res.stdout, re.M))) - {
        "official", "platform-classic"}, involved_here
    # one table alone: its changes, and the rulebooks that differ
    res = _run(walk, _page_command(page, "verify contradictions my-table.yaml"))
    ids = re.findall(r"^\[\w+\] (\S+)$", res.stdout, re.M)
    assert "variant:my-table:jail.fine" in ids and "contradiction:my-table:jail.fine" in ids
    assert all(":my-table:" in i for i in ids)
    # every witness as a replayable trace file, and one played again, every side, every step
    res = _run(walk, _page_command(page, "verify contradictions --witnesses"))
    assert res.returncode == 0, res.stderr
    replay = _page_command(page, "verify replay")
    assert (walk / replay[2]).is_file()
    res = _run(walk, replay)
    assert res.returncode == 0, res.stdout + res.stderr
    finding = next(f for f in doc["findings"] if f["id"] == "contradiction:mortgage.interest_base")
    sides = len(finding["witness"]["outcomes"])
    assert f"{replay[2]}: {sides} game(s)" in res.stdout and "checked: every step follows the rules" in res.stdout


def test_the_comparison_pages_questions(walk):
    page = "docs/comparison.md"
    res = _run(walk, _page_command(page, 'verify ask "rent while in jail"'))
    assert res.returncode == 0 and res.stdout.lstrip().startswith(
        "Does a player in jail still collect rent?  [rent-while-jailed]")
    for words in ("hapiste kira", "czynsz więzienie"):             # any language
        res = _run(walk, ["verify", "ask", words, "--limit", "1"])
        assert res.stdout.lstrip().startswith("Does a player in jail still collect rent?"), words
    # QUESTION... [TABLE...]: your tables answer first
    res = _run(walk, _page_command(page, "verify ask rent while in jail my-table.yaml"))
    lines = res.stdout.strip().splitlines()
    assert lines[1] == "  your table my-table"


def test_the_readmes_variant_walk_through_says_what_it_says(tmp_path):
    (tmp_path / "quick-hotels.yaml").write_text(_readme_file("quick-hotels.yaml"), encoding="utf-8")
    [argv] = _readme_commands("## Walk-through: a variant designer's check")
    assert " ".join(argv) in COMMANDS["README.md"]
    res = _run(tmp_path, argv)
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
