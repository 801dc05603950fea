"""Which values a command plays for a table of one's own where the table decides nothing itself.

A table (a ruleset file of the user's, not a bundled one) may leave a value
``silent`` (the engine then plays the catalogue's fallback), leave it ``open``
(someone must supply it: ``--set`` or an overlay), or get it from ``--set``;
or keep a value its bundled base calls "not applicable" while switching on the
mechanism it depends on (the base's value is then played).
Commands that play, check or report a table say which values those were and
where each came from, so a fallback is never played without a word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click

from .applicability import applies, marked, played_env
from .open_values import ORIGIN, overlay_hint
from .registry import Registry, registry
from .ruleset import Ruleset


@dataclass(frozen=True)
class TableValue:
    """One value of a table that the table itself does not state."""

    param: str
    how: str                  # fallback | open | set | kept
    value: Any                # the value played (None for an open value nobody supplied)
    file: str                 # the ruleset file (or --set) it came from
    reason: str | None
    stack: str | None = None  # an open value: how a stacked overlay supplies it, on the command line's terms

    def text(self, checking: bool = False, fallback=None) -> str:
        if self.how == "set":
            return f"{self.param} = {as_written(self.value)}: supplied with --set"
        if self.how == "kept":
            return (f"{self.param} = {as_written(self.value)}: kept from {self.file}, which marks it not applicable; your "
                    f"table switches on what it depends on (state it to play another value)")
        if self.how == "fallback":
            why = f" ({self.reason})" if self.reason else ""
            return (f"{self.param} = {as_written(self.value)}: the catalogue's fallback, because your table "
                    f"{self.file} is silent{why}")
        why = f" ({self.reason})" if self.reason else ""
        if checking == "compile":
            tail = f"compiled as the catalogue's fallback {as_written(fallback)} (a command that plays refuses it until supplied)"
        elif checking:
            tail = "checked for every value where it can be, else with the fallback (see the results)"
        else:
            tail = (f"not played until supplied: --set {self.param}=VALUE (simulate, study, report), or an overlay "
                    f"file that sets it stacked on the table ({self.stack})")
        return f"{self.param}: open in your table {self.file}{why}; {tail}"

    def to_json(self) -> dict:
        return {"param": self.param, "how": self.how, "value": self.value, "file": self.file,
                "reason": self.reason}


def as_written(value: Any) -> str:
    """``value`` as a table writes it (YAML, ``--set``): ``true``, ``unlimited``, ``2000``, ``[2, 17]``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list):
        return "[" + ", ".join(as_written(v) for v in value) + "]"
    return str(value)


def own_files(r: Ruleset, reg: Registry | None = None) -> set[str]:
    """The user's own files in ``r``'s chain (not shipped with the toolkit)."""
    reg = reg or registry()
    return {f for f in r.chain if not reg.is_bundled(f)}


def table_values(r: Ruleset, reg: Registry | None = None) -> list[TableValue]:
    """The values of ``r`` that a user's file leaves silent or open, or that ``--set`` supplied, in
    catalogue order; empty for a bundled ruleset played as shipped. ``reg``: the registry that read the
    user's files (the process's own by default)."""
    mine = own_files(r, reg)
    env = played_env(r)
    out = []
    for pid in r.catalogue.parameters:
        e = r.entries.get(pid)
        if e is None:
            continue
        if e.ruleset == ORIGIN:
            out.append(TableValue(pid, "set", e.value, ORIGIN, e.reason))
        elif e.ruleset in mine and e.kind == "silent":
            out.append(TableValue(pid, "fallback", r.value(pid), e.ruleset, e.reason))
        elif e.ruleset in mine and e.kind == "open":
            out.append(TableValue(pid, "open", None, e.ruleset, e.reason, overlay_hint(r, reg)))
        elif r.chain[-1] in mine and marked(e) and applies(r, pid, env):
            # a bundled file's "not applicable", where the table switches the mechanism on
            out.append(TableValue(pid, "kept", r.value(pid), e.ruleset, e.reason))
    return out


def announce(r: Ruleset, checking: bool | str = False, echo=None) -> list[TableValue]:
    """Say on stderr which values were played (or checked, ``checking=True``; or compiled,
    ``checking="compile"``) for the table and where they came from."""
    values = table_values(r)
    echo = echo or (lambda line: click.echo(line, err=True))
    doing = "compiled" if checking == "compile" else "checked" if checking else "played"
    if values:
        echo(f"{r.id}: values it does not state itself, {doing} as follows:")
        for v in values:
            echo(f"  {v.text(checking, r.value(v.param))}")
    for fid, text in r.extra_rules:        # no parameter says them: never played nor checked, and said so
        echo(f"{r.id}: not {doing} (a rule in {fid}'s own words, no parameter for it): {text}")
    return values


__all__ = ["TableValue", "announce", "own_files", "table_values"]
