"""What the browser test needs, provisioned on a machine where nothing was installed by hand.

The README's test command must pass on a fresh machine, so the browser test
does not ask for a browser: it finds or installs one, in this order:

1. Debian's chromium, if it is there (``/usr/bin/chromium`` or ``chromium`` on PATH);
2. running as root with apt-get: ``apt-get install chromium``, then 1 again;
3. Playwright's own build: ``python -m playwright install chromium``.

The Playwright package itself is pip-installed when it is missing. When
nothing works the test FAILS with what was tried (``ProvisionError``); it
never skips, so a missing browser can not pass for a green run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
TIMEOUT_S = 900


class ProvisionError(RuntimeError):
    """No browser could be found or installed; the message says what was tried."""


@dataclass
class Machine:
    """The parts of the machine provisioning looks at (replaced by fakes in the tests)."""

    run: Callable = subprocess.run
    which: Callable[[str], str | None] = shutil.which
    is_root: Callable[[], bool] = field(default=lambda: hasattr(os, "geteuid") and os.geteuid() == 0)
    exists: Callable[[Path], bool] = field(default=lambda p: p.exists())


def _debian(m: Machine) -> str | None:
    if m.exists(DEBIAN_CHROMIUM):
        return str(DEBIAN_CHROMIUM)
    return m.which("chromium")


def _ok(m: Machine, cmd: list[str], tried: list[str], **kw) -> bool:
    try:
        res = m.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S, **kw)
    except (OSError, subprocess.SubprocessError) as exc:
        tried.append(f"`{' '.join(cmd)}`: {exc}")
        return False
    if res.returncode != 0:
        tail = ((res.stderr or res.stdout or "").strip().splitlines() or ["no output"])[-1]
        tried.append(f"`{' '.join(cmd)}` exited {res.returncode}: {tail}")
        return False
    return True


def chromium(m: Machine | None = None) -> str | None:
    """The chromium to launch: a path (Debian's), or None for Playwright's own build."""
    m = m or Machine()
    found = _debian(m)
    if found:
        return found
    tried: list[str] = []
    if m.is_root() and m.which("apt-get"):
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        if _ok(m, ["apt-get", "update", "-qq"], tried, env=env) and \
                _ok(m, ["apt-get", "install", "-y", "-qq", "chromium"], tried, env=env):
            found = _debian(m)
            if found:
                return found
            tried.append("apt-get installed chromium, but no chromium executable appeared")
    else:
        tried.append("Debian chromium: not installed, and apt-get needs root" if m.which("apt-get")
                     else "Debian chromium: not installed, and there is no apt-get")
    if _ok(m, [sys.executable, "-m", "playwright", "install", "chromium"], tried):
        return None
    raise ProvisionError("no browser for the browser test; tried: " + "; ".join(tried)
                         + ". Install one (apt-get install chromium, or python -m playwright install "
                           "chromium) and run the tests again.")


def playwright_api(m: Machine | None = None):
    """``playwright.sync_api``, pip-installing the package (the ``browser`` extra) when it is missing."""
    try:
        from playwright import sync_api
        return sync_api
    except ImportError:
        pass
    m = m or Machine()
    tried: list[str] = []
    if not _ok(m, [sys.executable, "-m", "pip", "install", "-q", "playwright>=1.40"], tried):
        raise ProvisionError("the Playwright package is missing and could not be installed: " + "; ".join(tried))
    import importlib
    importlib.invalidate_caches()
    from playwright import sync_api
    return sync_api
