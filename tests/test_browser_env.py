"""The browser test provisions its browser on a fresh machine, and fails (never skips) when it cannot."""

from __future__ import annotations

import subprocess
import sys

import pytest

from browser_env import DEBIAN_CHROMIUM, Machine, ProvisionError, chromium


class Fake:
    """A machine: which programs exist, who we are, what each command does."""

    def __init__(self, chromium_there=False, root=True, apt=True, apt_works=True, playwright_works=True):
        self.installed = chromium_there
        self.root, self.apt, self.apt_works, self.playwright_works = root, apt, apt_works, playwright_works
        self.ran: list[list[str]] = []

    def run(self, cmd, **kw):
        self.ran.append(list(cmd))
        ok = True
        if cmd[0] == "apt-get":
            ok = self.apt_works
            if ok and "install" in cmd:
                self.installed = True
        elif cmd[1:4] == ["-m", "playwright", "install"]:
            ok = self.playwright_works
        return subprocess.CompletedProcess(cmd, 0 if ok else 1, "", "" if ok else "E: no network")

    def machine(self) -> Machine:
        return Machine(run=self.run, which=lambda n: "/usr/bin/apt-get" if n == "apt-get" and self.apt else None,
                       is_root=lambda: self.root, exists=lambda p: p == DEBIAN_CHROMIUM and self.installed)


def test_debian_chromium_is_used_when_present():
    f = Fake(chromium_there=True)
    assert chromium(f.machine()) == str(DEBIAN_CHROMIUM) and f.ran == []


def test_root_installs_debian_chromium():
    f = Fake()
    assert chromium(f.machine()) == str(DEBIAN_CHROMIUM)
    assert [c[:2] for c in f.ran] == [["apt-get", "update"], ["apt-get", "install"]]


def test_without_root_playwrights_own_browser_is_installed():
    f = Fake(root=False)
    assert chromium(f.machine()) is None                 # None: launch Playwright's own build
    assert f.ran == [[sys.executable, "-m", "playwright", "install", "chromium"]]


def test_apt_failing_falls_back_to_playwright():
    f = Fake(apt_works=False)
    assert chromium(f.machine()) is None and f.ran[-1][1:4] == ["-m", "playwright", "install"]


def test_nothing_possible_is_a_failure_saying_what_was_tried():
    f = Fake(apt_works=False, playwright_works=False)
    with pytest.raises(ProvisionError) as info:
        chromium(f.machine())
    text = str(info.value)
    assert "apt-get update -qq` exited 1: E: no network" in text and "playwright install chromium` exited 1" in text
