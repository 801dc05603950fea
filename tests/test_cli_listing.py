"""``verify --help`` lists every command from ``verify.cli.COMMANDS`` without importing any of them."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import click

from verify.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]


def test_every_command_module_is_listed_once():
    modules = sorted(p.stem for p in (ROOT / "verify" / "commands").glob("*.py")
                     if isinstance(getattr(importlib.import_module(f"verify.commands.{p.stem}"), "command", None),
                                   click.Command))
    assert sorted(COMMANDS) == modules


def test_help_lists_the_commands_without_importing_them():
    code = ("import sys\nfrom verify.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print('LOADED', sorted(m for m in sys.modules if m.startswith('verify.commands.')))\n"
            "print('HEAVY', sorted(m for m in ('z3', 'jinja2', 'rich', 'hypothesis', 'yaml') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    listed = [line.split()[0] for line in lines[lines.index("Commands:") + 1:] if line.startswith("  ") and
              not line.startswith("   ")]
    assert listed == list(COMMANDS)
    for name, summary in COMMANDS.items():
        assert f"  {name}" in run.stdout and summary in run.stdout
    assert "LOADED []" in run.stdout and "HEAVY []" in run.stdout
