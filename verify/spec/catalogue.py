"""The rule catalogue: every parameter a ruleset can set, with its type and domain.

The catalogue (``specs/catalogue/*.yaml``) is the contract between rulesets
and every backend: a ruleset may only name catalogued parameters, each value
is checked against the parameter's type and domain, and the engine, the SMT
model and the comparison read parameters by these ids.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import Location, SpecError
from ..paths import display, specs_dir
from ..expr import parse, names
from .yamlsafe import load_yaml

TYPES = {"bool", "int", "money", "ratio", "enum", "int_or", "money_or", "ratio_or",
         "int_list", "money_list"}
MONEY_TYPES = {"money", "money_or", "money_list"}


@dataclass(frozen=True)
class Disables:
    """Values of a parameter that switch a mechanism off, and when a ruleset has that mechanism on.

    ``when`` (in the expression language, over other parameters) says that a ruleset enables
    the mechanism; without it, only an inherited ruling that keeps the mechanism on does. Lint
    (E019) reports a silent entry whose fallback is one of ``values`` in such a ruleset.
    """

    values: tuple[Any, ...]
    mechanism: str
    when: str | None = None
    expr: Any = field(default=None, compare=False, repr=False)

    def switches_off(self, value: Any) -> bool:
        return any(value == v and isinstance(value, bool) == isinstance(v, bool) for v in self.values)


@dataclass(frozen=True)
class Parameter:
    id: str
    area: str
    type: str
    question: str
    fallback: Any
    unit: str | None = None
    min: float | None = None
    max: float | None = None
    values: tuple[str, ...] = ()     # enum values
    symbols: tuple[str, ...] = ()    # symbols allowed beside numbers in *_or types
    length: int | None = None        # list length
    disables: tuple[Disables, ...] = ()   # values that switch a mechanism off (lint E019)
    #: when the parameter means anything at all (the expression language, over other parameters):
    #: a ruleset where it does not hold has no such mechanism, so its value is "not applicable"
    applies_when: str | None = None
    applies_expr: Any = field(default=None, compare=False, repr=False)
    #: ``online`` or ``board``: a feature that exists only because a game is played on that medium
    #: (turn timers, pause votes, rating; a banker, paper money); a difference resting on the
    #: other medium's unstated absence of it is a difference of medium, not of rules
    medium: str | None = None
    #: the value a witness plays an open value with when nobody supplies one and the fallback would switch
    #: the mechanism off (a round limit of ``none`` in a game that ends at a round limit); named as supplied
    witness_value: Any = None

    @property
    def is_money(self) -> bool:
        return self.type in MONEY_TYPES

    def domain_text(self) -> str:
        if self.type == "enum":
            return "one of " + ", ".join(self.values)
        parts = {"bool": "true or false", "ratio": "a number from 0 to 1",
                 "int": "a whole number", "money": "an amount of money (whole number)",
                 "int_or": "a whole number", "money_or": "an amount of money",
                 "ratio_or": "a number from 0 to 1", "int_list": "a list of whole numbers",
                 "money_list": "a list of amounts"}[self.type]
        if self.min is not None and self.type not in ("ratio", "ratio_or"):
            parts += f" >= {self.min:g}"
        if self.max is not None and self.type not in ("ratio", "ratio_or"):
            parts += f" <= {self.max:g}"
        if self.length:
            parts += f" of length {self.length}"
        if self.symbols:
            parts += " or one of " + ", ".join(self.symbols)
        return parts

    def check(self, value: Any) -> str | None:
        """Return why ``value`` is outside this parameter's domain, or None."""
        t = self.type
        if t == "bool":
            return None if isinstance(value, bool) else f"expected {self.domain_text()}"
        if t == "enum":
            if value in self.values:
                return None
            close = difflib.get_close_matches(str(value), self.values, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            return f"{value!r} is not {self.domain_text()}{hint}"
        if t.endswith("_or") and isinstance(value, str):
            return None if value in self.symbols else f"{value!r} is not {self.domain_text()}"
        if t in ("int_list", "money_list"):
            if not isinstance(value, list):
                return f"expected {self.domain_text()}"
            if self.length and len(value) != self.length:
                return f"expected {self.length} items, got {len(value)}"
            for item in value:
                why = self._number(item, integer=True)
                if why:
                    return why
            return None
        return self._number(value, integer=t not in ("ratio", "ratio_or"))

    def _number(self, value: Any, integer: bool) -> str | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"expected {self.domain_text()}, got {value!r}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"{value!r} is not a finite number: expected {self.domain_text()}"
        if integer and not isinstance(value, int):
            return f"expected a whole number, got {value!r}"
        lo, hi = self.min, self.max
        if self.type in ("ratio", "ratio_or"):
            lo = 0 if lo is None else lo
            hi = 1 if hi is None else hi
        if lo is not None and value < lo:
            return f"{value!r} is below the minimum {lo:g}"
        if hi is not None and value > hi:
            return f"{value!r} is above the maximum {hi:g}"
        return None

    def scaled_fallback(self, scale: int) -> Any:
        """The fallback in a source's own money scale."""
        fb = self.fallback
        if not self.is_money or scale == 1:
            return fb
        if isinstance(fb, list):
            return [v * scale for v in fb]
        return fb * scale if isinstance(fb, int) and not isinstance(fb, bool) else fb


@dataclass(frozen=True)
class Area:
    id: str
    title: str
    file: str


@dataclass(frozen=True)
class Catalogue:
    parameters: dict[str, Parameter]
    areas: tuple[Area, ...]
    lines: dict[str, Location] = field(default_factory=dict, compare=False)

    def __contains__(self, pid: str) -> bool:
        return pid in self.parameters

    def __getitem__(self, pid: str) -> Parameter:
        return self.parameters[pid]

    def suggest(self, pid: str) -> str:
        """A hint for an unknown parameter: the family's own parameter closest to it, else the closest of
        all; for a family without a close one (``auction.enabled``), where to look: its parameters, and
        the parameters having a value named after it (``purchase.on_decline``: auction or stays_unowned)."""
        family, _, name = pid.partition(".")
        own = {q.partition(".")[2]: q for q in self.parameters if q.partition(".")[0] == family}
        near = difflib.get_close_matches(name, list(own), n=1, cutoff=0.6) or \
            sorted(n for n in own if name and (n.startswith(name) or name.startswith(n)))   # fine_amount: fine
        close = [own[near[0]]] if near else \
            ([] if own else difflib.get_close_matches(pid, list(self.parameters), n=1, cutoff=0.6))
        if close:
            return f" (did you mean {close[0]!r}?)"
        if not own:
            return ""
        valued = [q for q, p in self.parameters.items() if q.split(".", 1)[0] != family and family in p.values]
        also = f"; a value {family!r} of {', '.join(valued)}" if valued else ""
        return f" (the {family} parameters: verify params {family}{also})"

    def by_area(self) -> dict[str, list[Parameter]]:
        out: dict[str, list[Parameter]] = {a.id: [] for a in self.areas}
        for p in self.parameters.values():
            out[p.area].append(p)
        return out


_FIELDS = {"type", "question", "fallback", "witness_value", "unit", "min", "max", "values", "symbols", "length",
           "disables",
           "applies_when", "medium"}
MEDIA = ("online", "board")


def load_catalogue(folder: Path | None = None) -> Catalogue:
    return _load_catalogue(str(folder or specs_dir() / "catalogue"))


@lru_cache(maxsize=4)
def _load_catalogue(folder: str) -> Catalogue:
    params: dict[str, Parameter] = {}
    areas = []
    lines = {}
    for path in sorted(Path(folder).glob("*.yaml")):
        name = display(path)
        data, where = load_yaml(path.read_text(encoding="utf-8"), name)
        if not isinstance(data, dict) or not isinstance(data.get("parameters"), dict):
            raise SpecError("E030", "a catalogue file needs 'area' and 'parameters'", Location(name, 1))
        area = str(data.get("area", path.stem))
        areas.append(Area(area, str(data.get("title", area)), name))
        for pid, spec in data["parameters"].items():
            loc = Location(name, where.get(("parameters", pid)))
            if pid in params:
                raise SpecError("E008", f"parameter {pid!r} is catalogued twice", loc)
            if not isinstance(spec, dict) or spec.get("type") not in TYPES:
                raise SpecError("E030", f"parameter {pid!r} needs a type, one of {sorted(TYPES)}", loc)
            extra = set(spec) - _FIELDS
            if extra:
                raise SpecError("E030", f"unknown catalogue field(s) {sorted(extra)} for {pid!r}", loc)
            p = Parameter(
                id=pid, area=area, type=spec["type"], question=str(spec.get("question", "")),
                fallback=spec.get("fallback"), unit=spec.get("unit"), min=spec.get("min"),
                max=spec.get("max"), values=tuple(spec.get("values", ())),
                symbols=tuple(spec.get("symbols", ())), length=spec.get("length"),
            )
            if not p.question:
                raise SpecError("E030", f"parameter {pid!r} needs a question", loc)
            why = p.check(p.fallback)
            if why:
                raise SpecError("E003", f"fallback of {pid!r}: {why}", loc)
            if spec.get("medium") is not None and spec["medium"] not in MEDIA:
                raise SpecError("E030", f"{pid}: medium is one of {', '.join(MEDIA)}", loc)
            if spec.get("applies_when") is not None:
                text = str(spec["applies_when"])
                p = replace(p, applies_when=text, applies_expr=parse(text, Location(
                    name, where.get(("parameters", pid, "applies_when")) or loc.line)))
            p = replace(p, medium=spec.get("medium"))
            if spec.get("witness_value") is not None:
                why = p.check(spec["witness_value"])
                if why:
                    raise SpecError("E003", f"witness_value of {pid!r}: {why}", loc)
                p = replace(p, witness_value=spec["witness_value"])
            if "disables" in spec:
                p = replace(p, disables=_disables(p, spec["disables"], Location(
                    name, where.get(("parameters", pid, "disables")) or loc.line)))
            params[pid] = p
            lines[pid] = loc
    for pid, p in params.items():
        for d in p.disables:
            for other in _names(d.expr):
                if other not in params:
                    raise SpecError("E002", f"{pid}: disables names unknown parameter {other!r}", lines[pid])
        for other in _names(p.applies_expr):
            if other not in params:
                raise SpecError("E002", f"{pid}: applies_when names unknown parameter {other!r}", lines[pid])
            if other == pid:
                raise SpecError("E030", f"{pid}: applies_when cannot name the parameter itself", lines[pid])
    return Catalogue(params, tuple(areas), lines)


def _disables(p: Parameter, raw: Any, loc: Location) -> tuple[Disables, ...]:
    if not isinstance(raw, list) or not raw:
        raise SpecError("E030", f"{p.id}: disables is a list of {{values, mechanism, when}}", loc)
    out = []
    for item in raw:
        if not isinstance(item, dict) or not {"values", "mechanism"} <= set(item) \
                or set(item) - {"values", "mechanism", "when"} or not isinstance(item["values"], list):
            raise SpecError("E030", f"{p.id}: each disables item has values (a list), mechanism and "
                            "optionally when", loc)
        for v in item["values"]:
            why = p.check(v)
            if why:
                raise SpecError("E003", f"{p.id}: disables value {v!r}: {why}", loc)
        when = item.get("when")
        out.append(Disables(tuple(item["values"]), str(item["mechanism"]), when,
                            parse(str(when), loc) if when is not None else None))
    return tuple(out)


def _names(expr: Any) -> set[str]:
    if expr is None:
        return set()
    return {".".join(n) for n in names(expr)}
