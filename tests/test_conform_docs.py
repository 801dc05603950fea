"""The conformance page's examples are the ones that run: the stand-alone script engine passes
`verify conform` over the subprocess transport, and the plugin example is the one pytester runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from click.testing import CliRunner

from verify.cli import main

ROOT = Path(__file__).parents[1]
SCRIPT = ROOT / "docs" / "examples" / "conform_engine.py"


def test_the_readme_shows_the_example_engine_and_plugin_verbatim():
    readme = (ROOT / "docs" / "conformance.md").read_text()
    assert "```python\n" + SCRIPT.read_text() + "```" in readme
    from tests.test_conform_plugin import EXAMPLE
    assert EXAMPLE.strip() in readme


def test_the_example_script_engine_conforms(tmp_path, monkeypatch):
    # the script engine is a child process: it must import this repository's verify, not an installed one
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    r = CliRunner().invoke(main, ["conform", "--engine-cmd", f"{sys.executable} {SCRIPT}", "--examples", "15",
                                  "--seed", "4", "--json", "--scenarios", str(tmp_path)])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["engine"] == "example-script" and doc["violations"] == [] and doc["steps"] > 0


def test_the_shown_run_prints_what_the_page_shows(tmp_path, monkeypatch):
    """The page's example run, command and output, is what the command prints (run where the scenario
    folder is the default one, so the Replay line is the same)."""
    import re
    page = (ROOT / "docs" / "conformance.md").read_text()
    block = re.search(r"```\n\$ (verify conform [^\n]+)\n(.*?)```", page, re.S)
    assert block, "the page shows a run"
    argv = block.group(1).split()[1:]
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, argv)
    assert r.exit_code == 1
    assert r.stdout == block.group(2)


def test_the_page_lists_every_broken_engine_as_it_is_caught():
    from conform_engines import broken
    page = (ROOT / "docs" / "conformance.md").read_text()
    for e in broken.ENGINES:
        row = next((line for line in page.splitlines() if line.startswith(f"| `{e.__name__}` |")), None)
        assert row, e.__name__
        assert all(f"`{c}`" in row for c in e.CAUSES), e.__name__
