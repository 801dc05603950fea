"""Helpers for the tests that run ``verify`` as a user would: in a process of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def verify_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "verify.cli", *map(str, args)]


def verify_env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="120")


def run_verify(*args, timeout: float = 300, **kw) -> subprocess.CompletedProcess:
    """Run ``verify ARGS`` in a child process; returns the CompletedProcess (text)."""
    return subprocess.run(verify_cmd(*args), capture_output=True, text=True, timeout=timeout,
                          env=verify_env(), **kw)
