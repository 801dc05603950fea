"""Open values: supplied by the user (``--set PARAM=VALUE`` or an overlay), never played silently.

An ``open`` entry says who sets a value (a table's host, the players before a
timed game) but not the value. Checks and comparisons can reason about it for
every value of its domain; a game cannot be played without one. Commands that
play (``verify simulate``, ``replay``, ``conform``) therefore call
:func:`playable` (or :func:`require_supplied`), which refuses a ruleset with an
open value nobody supplied (E020) and names the parameter and how to supply it.

``--set`` values are validated like ruleset values (E002 unknown parameter,
E003 outside the domain, E004 a cross-parameter constraint broken) and are
written in the ruleset's own money, as ``verify show`` prints it. They enter
the ruleset as ``assumed`` entries whose reason says where they came from.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable

from ..errors import ErrorList, Location, SpecError, VerifyError
from ..paths import display
from .constraints import broken_at, check_constraints, setters
from .ruleset import Entry, Ruleset
from .yamlsafe import load_yaml
from .readings import with_readings
from .registry import Registry, load_ruleset, registry

#: How an entry supplied on the command line is labelled (its "ruleset" and its reason).
ORIGIN = "--set"


def parse_assignment(text: str) -> tuple[str, Any]:
    """``"end.time_limit_minutes=90"`` -> ("end.time_limit_minutes", 90); the value is read as a YAML
    scalar or list (``true``, ``0.5``, ``none``, ``[25, 50, 75, 100]``). ValueError when malformed."""
    pid, sep, raw = text.partition("=")
    pid, raw = pid.strip(), raw.strip()
    if not sep or not pid or not raw:
        raise ValueError(f"{text!r} is not PARAM=VALUE (e.g. end.time_limit_minutes=90)")
    try:
        value, _ = load_yaml(raw, "--set")
    except VerifyError as exc:
        raise ValueError(f"{text!r}: the value is not readable ({exc.message})") from None
    if isinstance(value, dict) or value is None:
        raise ValueError(f"{text!r}: the value must be a number, true/false, a word or a [list]")
    return pid, value


def parse_assignments(items: Iterable[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for text in items:
        pid, value = parse_assignment(text)
        if pid in out and out[pid] != value:
            raise ValueError(f"{pid} is set twice ({out[pid]!r} and {value!r})")
        out[pid] = value
    return out


def supply(r: Ruleset, values: dict[str, Any]) -> Ruleset:
    """``r`` with ``values`` as assumed entries (E002/E003 per value, E004 for a broken constraint)."""
    if not values:
        return r
    cat = r.catalogue
    errors: list[VerifyError] = []
    entries = dict(r.entries)
    where = Location(ORIGIN)
    for pid, value in values.items():
        if pid not in cat:
            errors.append(SpecError("E002", f"unknown parameter {pid!r}{cat.suggest(pid)}", where))
            continue
        why = cat[pid].check(value)
        if why:
            errors.append(SpecError("E003", f"{pid}: {why}", where))
            continue
        before = r.entries.get(pid)
        was = f" (the ruleset's entry was {before.kind})" if before is not None else ""
        entries[pid] = Entry(param=pid, kind="assumed", value=value, ruleset=ORIGIN, where=where,
                             reason=f"supplied with --set {pid}={_text(value)}{was}")
    if errors:
        raise ErrorList(errors)
    out = replace(r, entries=entries, supplied=tuple(sorted(values.items(), key=lambda kv: kv[0])))
    broken = [res for res in check_constraints(out, played=True)
              if res.status == "broken" and set(res.constraint.params) & set(values)]
    if broken:
        raise ErrorList([SpecError("E004", f"{r.id}: constraint {b.constraint.id} is broken by --set: "
                                   f"{b.constraint.message} ({b.constraint.text})", where) for b in broken])
    return out


def unsupplied(r: Ruleset) -> list[Entry]:
    """The open entries of ``r`` that nothing has given a value."""
    return [e for e in r.entries.values() if e.kind == "open"]


def overlay_hint(r: Ruleset, reg: Registry | None = None) -> str:
    """How a stacked overlay would supply the values (``official-timed+my-table.yaml``), on the command
    line's terms: a table of one's own is named by its file (``our-table.yaml+my-table.yaml``), its id
    being unknown to a command that has not read the file."""
    base = r.id.split("+")[0].split("@")[0]
    reg = reg or registry()
    f = reg.files.get(base)
    if f is not None and not reg.is_bundled(base):
        base = display(f.path)
    return f"{base}+my-table.yaml"


def not_played(r: Ruleset) -> str | None:
    """Why a run over many rulesets (the report's simulations, the checked campaign) leaves ``r`` out,
    or None when it can be played: one line naming its open values and how to supply them. Such runs
    skip the ruleset and show this line rather than play a value nobody gave (or stop at E020)."""
    missing = unsupplied(r)
    if not missing:
        return None
    if len(missing) == 1:
        e = missing[0]
        what = f"{e.param} is open ({' '.join((e.reason or '').split())})"
        how = f"it with --set {e.param}=VALUE"
    else:
        what = f"{len(missing)} values are open ({', '.join(e.param for e in missing)})"
        how = "them with --set PARAM=VALUE each"
    return f"not played: {what}; supply {how} or an overlay ({overlay_hint(r)})"


def require_supplied(r: Ruleset, doing: str = "play") -> None:
    """Raise E020 (one per parameter) when ``r`` still has an open value, and E004 when its values break a
    constraint (``require_consistent``); ``doing`` names the command."""
    missing = unsupplied(r)
    if not missing:
        require_consistent(r, doing)
        return
    errors = []
    for e in missing:
        p = r.catalogue[e.param]
        errors.append(SpecError(
            "E020", f"{r.id}: {e.param} is open ({e.reason}) and has no value to {doing}; supply it with "
            f"--set {e.param}=VALUE (repeatable; VALUE: {p.domain_text()}) or stack an overlay file that "
            f"sets it ({overlay_hint(r)})", e.where))
    raise ErrorList(errors)


def playable(name: str, settings: Iterable[str] | dict | None = None, readings: Iterable[str] = (),
             doing: str = "play") -> Ruleset:
    """Resolve ``name`` (with ``@READING`` parts or ``readings``), apply ``--set`` values, refuse open ones.

    The one call a command that plays a ruleset needs (``verify conform`` uses it too)."""
    values = settings if isinstance(settings, dict) else parse_assignments(settings or ())
    r = supply(load_ruleset(with_readings(name, tuple(readings))), values)
    require_supplied(r, doing)
    return r


def require_consistent(r: Ruleset, doing: str = "play") -> None:
    """Raise E004 (one per constraint) when ``r``'s own values break a cross-parameter constraint: a
    stack or a table can combine values no single file breaks (a Free Parking pot on a board whose
    corner 20 is a casino), and a game of them would play a rule that cannot happen."""
    broken = [res for res in check_constraints(r, played=True) if res.status == "broken"]
    if broken:
        raise ErrorList([SpecError("E004", f"{r.id}: constraint {b.constraint.id} is broken: {b.constraint.message} "
                                   f"({b.constraint.text}; set by {setters(r, b.constraint.params)}); "
                                   f"there is nothing to {doing}", broken_at(r, b.constraint.params))
                         for b in broken])


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(map(_text, value)) + "]"
    return str(value)
