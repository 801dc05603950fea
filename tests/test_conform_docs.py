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
