"""Options every command that takes a ruleset shares: ``--reading NAME`` and ``--set PARAM=VALUE``.

``--reading`` is the same as writing ``RULESET@NAME`` (``verify.spec.readings``);
``--set`` supplies a value, above all an ``open`` one, validated against the
catalogue like a ruleset value (``verify.spec.open_values``).
"""

from __future__ import annotations

import click

from ..spec.open_values import parse_assignments


def _parse_set(ctx, param, items):
    try:
        return parse_assignments(items)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def reading_option(f):
    return click.option("--reading", "readings", multiple=True, metavar="NAME",
                        help="Play, check or show this alternative reading of an entry "
                             "(repeatable; the same as RULESET@NAME).")(f)


def set_option(f):
    return click.option("--set", "settings", multiple=True, metavar="PARAM=VALUE", callback=_parse_set,
                        help="Give a parameter a value (repeatable), above all an open one the source "
                             "leaves to the host or the players; in the ruleset's own money.")(f)
