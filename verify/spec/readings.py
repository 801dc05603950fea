"""Alternative readings of a quote: ambiguity kept as data, playable like any ruleset.

A rulebook sentence can often be read more than one way. The entry records the
reading the ruleset plays (its ``value``, with the reason in its gloss or
note) and, under ``readings:``, every other reading of the same words::

    speed_die.triples_count_as_doubles:
      value: true
      quote: "Çift kontrolünde yalnızca beyaz zarlara bakılır"
      gloss: "When checking for doubles only the white dice are looked at ..."
      readings:
        - name: triples-not-doubles
          value: false
          gloss: "Triples are a result of their own and replace the doubles re-roll."
          why: "The same page gives triples their own effect right after the doubles rule."

``RULESET@NAME`` (or ``--reading NAME``) resolves the ruleset with every entry
in force that has a reading of that name switched to it; one name on several
entries of a file is one reading of one sentence that rules several
parameters. Readings apply left to right with overlays:
``official@a+house-no-auction`` reads ``a`` in ``official`` and then stacks
the house rule; ``official+house-x@b`` looks for ``b`` in the stack so far.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from typing import Any

from ..errors import Location, SpecError

NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_FIELDS = {"name", "value", "gloss", "why"}


@dataclass(frozen=True)
class Reading:
    """Another reading of an entry's quote: the value it gives and what it takes the words to say."""

    name: str
    value: Any
    gloss: str
    why: str | None = None
    where: Location | None = None

    def to_json(self) -> dict:
        out = {"name": self.name, "value": self.value, "gloss": self.gloss}
        if self.why:
            out["why"] = self.why
        return out


def parse_readings(pid: str, raw: Any, kind: str, value: Any, param, loc) -> tuple[list[Reading], list[SpecError]]:
    """The readings of one entry, and every problem found in them (E021, or E003 for a value)."""
    where = loc("rules", pid, "readings")
    if kind not in ("cited", "assumed"):
        return [], [SpecError("E021", f"{pid}: readings belong to an entry with a value (cited or assumed), "
                              f"not to a {kind} one", where)]
    if not isinstance(raw, list) or not raw:
        return [], [SpecError("E021", f"{pid}: 'readings' is a list of {{name, value, gloss, why}}", where)]
    out: list[Reading] = []
    errors: list[SpecError] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        at = loc("rules", pid, "readings", i)
        if not isinstance(item, dict):
            errors.append(SpecError("E021", f"{pid}: reading {i + 1} must be a mapping with name, value, "
                                    "gloss and optionally why", at))
            continue
        extra = sorted(set(map(str, item)) - _FIELDS)
        missing = sorted({"name", "value", "gloss"} - set(item))
        name = item.get("name")
        if extra or missing:
            errors.append(SpecError("E021", f"{pid}: reading {name or i + 1}: "
                                    + (f"unknown field(s) {extra}; " if extra else "")
                                    + (f"missing {missing}; " if missing else "")
                                    + "a reading has name, value, gloss and optionally why", at))
            continue
        if not isinstance(name, str) or not NAME.match(name):
            errors.append(SpecError("E021", f"{pid}: reading name {name!r} must be lower-case letters, digits "
                                    "and hyphens", loc("rules", pid, "readings", i, "name")))
            continue
        if name in seen:
            errors.append(SpecError("E021", f"{pid}: reading {name!r} is given twice", at))
            continue
        seen.add(name)
        why = param.check(item["value"])
        if why:
            errors.append(SpecError("E003", f"{pid}: reading {name}: {why}",
                                    loc("rules", pid, "readings", i, "value")))
            continue
        if item["value"] == value:
            errors.append(SpecError("E021", f"{pid}: reading {name} gives the entry's own value "
                                    f"{value!r}; a reading is another value the words allow", at))
            continue
        gloss, reason = item.get("gloss"), item.get("why")
        if not isinstance(gloss, str) or not gloss.strip() or (reason is not None and not isinstance(reason, str)):
            errors.append(SpecError("E021", f"{pid}: reading {name} needs a gloss (and why, if given, as text)",
                                    at))
            continue
        out.append(Reading(name, item["value"], " ".join(gloss.split()),
                           " ".join(reason.split()) if isinstance(reason, str) else None, at))
    return out, errors


def split_name(token: str) -> tuple[str, tuple[str, ...]]:
    """``official-speed-die@a@b`` -> (``official-speed-die``, (``a``, ``b``)). E021 when a name is empty."""
    base, *names = token.split("@")
    for n in names:
        if not n:
            raise SpecError("E021", f"malformed reading in {token!r}: write RULESET@READING")
    return base, tuple(names)


def available(r) -> dict[str, list[str]]:
    """Reading name -> the parameters it rules, over the entries in force in ``r``."""
    out: dict[str, list[str]] = {}
    for pid, e in r.entries.items():
        for rd in e.readings:
            out.setdefault(rd.name, []).append(pid)
    return out


def apply_reading(r, name: str):
    """``r`` with every entry in force that has reading ``name`` switched to it (E021 if none has)."""
    if not NAME.match(name):
        raise SpecError("E021", f"malformed reading name {name!r} for {r.id}: lower-case letters, digits "
                        "and hyphens")
    known = available(r)
    if name not in known:
        close = difflib.get_close_matches(name, list(known), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        listed = ", ".join(sorted(known)) or "none"
        raise SpecError("E021", f"{r.id} has no reading {name!r}{hint}; its readings: {listed} "
                        f"(`verify contradictions --kind ambiguous` lists them)")
    entries = dict(r.entries)
    for pid in known[name]:
        e = entries[pid]
        rd = next(x for x in e.readings if x.name == name)
        entries[pid] = replace(e, value=rd.value, gloss=rd.gloss if e.kind == "cited" else e.gloss,
                               reason=e.reason if e.kind == "cited" else f"{e.reason} — read as: {rd.gloss}",
                               reading=name, claims=())   # the claims are of the entry's own value
    return replace(r, id=f"{r.id}@{name}", entries=entries, title=f"{r.title} (reading {name})",
                   readings_applied=r.readings_applied + (name,))


def with_readings(name: str, readings: tuple[str, ...] | list[str]) -> str:
    """A ruleset name with ``--reading`` options appended (``official`` + (``a``,) -> ``official@a``)."""
    return name + "".join(f"@{n}" for n in readings)
