"""Option types and checks shared by the commands, so every command validates the same way.

A bad value is a click usage error (exit status 2) naming the option, raised
while the arguments are parsed, before any work: ``--games 0``, ``--jobs 0``,
``--timeout -1``, ``--jobs 1000`` on a 2-core machine, ``--area bogus``. Output
locations are checked up front too (``--out``, ``--trace``), so a run does not
compute for minutes and then fail to write.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

#: A count that must be at least one (games, players, turns).
POSITIVE = click.IntRange(min=1)
class Seconds(click.ParamType):
    """A time limit in seconds: a finite number above zero, at most a day."""

    name = "seconds"

    def convert(self, value, param, ctx):
        import math
        try:
            x = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(x) or x <= 0 or x > 86400:
            self.fail(f"{value!r}: a time limit is a number of seconds above 0 and at most 86400", param, ctx)
        return x


#: A solver or step time limit in seconds.
SECONDS = Seconds()
#: Worker processes per CPU at most: the work is CPU-bound, so processes beyond the cores only
#: share them; a few per core still overlap start-up and I/O, more only cost memory (every worker
#: holds the compiled rulesets) and start-up time (``--jobs 1000`` started 955 processes on 2 cores).
JOBS_PER_CPU = 4


def cpus() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Jobs(click.ParamType):
    """Worker processes: 1 up to ``JOBS_PER_CPU`` x the CPUs this process may use."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            n = value
        else:
            try:
                n = int(str(value), 10)
            except ValueError:
                self.fail(f"{value!r} is not a whole number", param, ctx)
        most = JOBS_PER_CPU * cpus()
        if n < 1:
            self.fail(f"{n} workers: at least 1 is needed", param, ctx)
        if n > most:
            self.fail(f"{n} workers is more than {JOBS_PER_CPU} per CPU ({cpus()} CPUs here, so at most "
                      f"{most}): the work is CPU-bound, extra processes only share the cores and cost memory",
                      param, ctx)
        return n


JOBS = Jobs()


def area_callback(ctx, param, value):
    """``--area``: one of the catalogue's areas (with a suggestion for a near miss)."""
    if value is None:
        return value
    from ..spec.catalogue import load_catalogue
    areas = list(load_catalogue().by_area())
    if value not in areas:
        import difflib
        close = difflib.get_close_matches(value, areas, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise click.BadParameter(f"unknown area {value!r}{hint}; areas: {', '.join(areas)}", ctx, param)
    return value


def output_file_callback(ctx, param, value):
    """A file the command will write (``--trace``): its folder must exist; a protected file is refused."""
    if value is not None:
        from ..output import check_file_target
        check_file_target(Path(value))
    return value


def report_dir_callback(ctx, param, value):
    """``--out`` of a report: refused before any work unless the toolkit may replace it (E024)."""
    if value is not None:
        from ..output import check_report_dir
        check_report_dir(Path(value))
    return value


__all__ = ["POSITIVE", "SECONDS", "Seconds", "JOBS", "JOBS_PER_CPU", "Jobs", "cpus", "area_callback",
           "output_file_callback", "report_dir_callback"]
