"""Progress over a whole campaign: a rich bar with rate and ETA on a terminal, plain lines otherwise.

The unit is the campaign's (games, rulesets, scenarios), counted over every
chunk; chunks loaded from a resumed directory count as done from the start
but not toward the rate, so the ETA reflects this run's speed. Plain lines
(a log file, CI) come at most every ``interval`` seconds, plus a last line
when the campaign took long enough to print any.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _rate(per_s: float, unit: str) -> str:
    if per_s >= 1 or per_s <= 0:
        return f"{per_s:,.1f} {unit}/s"
    return f"{1 / per_s:,.1f} s each"


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


class Progress:
    def __init__(self, total: int, unit: str = "chunks", label: str = "campaign", stream: TextIO | None = None,
                 mode: str | None = None, interval: float = 10.0):
        self.total, self.unit, self.label, self.interval = total, unit, label, interval
        self.stream = stream or sys.stderr
        isatty = getattr(self.stream, "isatty", lambda: False)()
        self.mode = mode or ("bar" if isatty else "lines")
        self.done = 0
        self._start_done = 0
        self._t0 = self._last = 0.0
        self._printed = False
        self._bar = None
        self._task = None
        self.current: str | None = None

    def start(self, done: int = 0) -> None:
        self.done = self._start_done = done
        self._t0 = self._last = time.monotonic()
        if self.mode == "bar":
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)
            self._bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"),
                            TimeRemainingColumn(), console=Console(file=self.stream), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(f"{self.label} ({self.unit})", total=self.total, completed=done,
                                            rate="")
        elif done and self.mode == "lines":
            self._line(f"resumed with {done}/{self.total} {self.unit} already done")

    def _rate(self) -> float:
        dt = time.monotonic() - self._t0
        return (self.done - self._start_done) / dt if dt > 0 else 0.0

    def advance(self, k: int) -> None:
        self.done += k
        rate = self._rate()
        if self._bar is not None:
            self._bar.update(self._task, advance=k, rate=_rate(rate, self.unit))
        elif self.mode == "lines" and self.done < self.total and time.monotonic() - self._last >= self.interval:
            left = (self.total - self.done) / rate if rate > 0 else 0.0
            pct = 100 * self.done / self.total if self.total else 100.0
            now = f", now {self.current}" if self.current else ""
            self._line(f"{self.done}/{self.total} {self.unit} ({pct:.0f}%){now}, {_rate(rate, self.unit)}, "
                       f"ETA {_clock(left)}")

    def describe(self, current: str | None) -> None:
        """Name the item being worked on (a ruleset): in the bar's label, and in the next plain line."""
        self.current = current
        if self._bar is not None:
            self._bar.update(self._task, description=f"{self.label} ({self.unit})" + (f": {current}" if current else ""))

    def note(self, message: str) -> None:
        if self._bar is not None:
            self._bar.console.print(message, markup=False, highlight=False)
        elif self.mode != "off":
            self._line(message)

    def _line(self, text: str) -> None:
        self.stream.write(f"{self.label}: {text}\n")
        self.stream.flush()
        self._last = time.monotonic()
        self._printed = True

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        elif self.mode == "lines" and self._printed:
            self._line(f"{self.done}/{self.total} {self.unit} in {_clock(time.monotonic() - self._t0)}")


__all__ = ["Progress"]
