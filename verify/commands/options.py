"""Option types and checks shared by the commands, so every command validates the same way.

A bad value is a click usage error (exit status 2) naming the option, raised
while the arguments are parsed, before any work: ``--games 0``, ``--jobs 0``,
``--timeout -1``, ``--jobs 1000`` on a 2-core machine, ``--area bogus``. Output
locations are checked up front too (``--out``, ``--trace``), so a run does not
compute for minutes and then fail to write.
"""

from __future__ import annotations

import difflib
import math
from pathlib import Path

import click

from ..spec.catalogue import load_catalogue
from ..output import check_file_target, check_report_dir
from ..engine.campaign import players_for as checked
from ..errors import GameError

#: A count that must be at least one (games, players, turns).
POSITIVE = click.IntRange(min=1)
class Seconds(click.ParamType):
    """A time limit in seconds: a finite number above zero, at most a day."""

    name = "seconds"

    def convert(self, value, param, ctx):
        try:
            x = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(x) or x <= 0 or x > 86400:
            self.fail(f"{value!r}: a time limit is a number of seconds above 0 and at most 86400", param, ctx)
        return x


#: A solver or step time limit in seconds.
SECONDS = Seconds()


def area_callback(ctx, param, value):
    """``--area``: one of the catalogue's areas (with a suggestion for a near miss)."""
    if value is None:
        return value
    areas = list(load_catalogue().by_area())
    if value not in areas:
        close = difflib.get_close_matches(value, areas, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise click.BadParameter(f"unknown area {value!r}{hint}; areas: {', '.join(areas)}", ctx, param)
    return value


def output_file_callback(ctx, param, value):
    """A file the command will write (``--trace``): its folder must exist; a protected file is refused."""
    if value is not None:
        check_file_target(Path(value))
    return value


def output_path_callback(ctx, param, value):
    """A file the command will write, creating its folder when missing (``conform --junit``): refused
    before any work when it or its folder is read-only (E024)."""
    if value is not None:
        check_file_target(Path(value), make_parents=True)
    return value


def output_files_callback(*names: str):
    """``--out DIR`` of a command that writes ``names`` into DIR (created when missing): refused before
    any work when DIR or one of those files is read-only (E024) or cannot be written."""
    def check(ctx, param, value):
        if value is not None:
            for name in names:
                check_file_target(Path(value) / name, make_parents=True)
        return value
    return check


def report_dir_callback(ctx, param, value):
    """``--out`` of a report: refused before any work unless the toolkit may replace it (E024)."""
    if value is not None:
        check_report_dir(Path(value))
    return value


def players_for(cfg, rid: str, players: int | None) -> int:
    """``--players`` checked against the ruleset (or its default count); a count it does not allow is a
    usage error naming the option (``verify.engine.campaign.players_for`` says why)."""
    try:
        return checked(cfg, rid, players)
    except GameError as exc:
        raise click.BadParameter(exc.message, param_hint="--players") from None


__all__ = ["POSITIVE", "players_for", "SECONDS", "Seconds", "area_callback",
           "output_file_callback", "output_path_callback", "output_files_callback", "report_dir_callback"]
