"""The comparison's own declarations (``specs/comparison.yaml``), loaded and checked.

Which ruleset is each source's base game, which parameter pairs define one
quantity (for ``internal`` findings) and which source clauses are implied by
others (for ``redundancy`` findings). Another reading of a passage is not
declared here: it is a ``reading`` of the ruleset entry that cites the passage
(``verify.spec.readings``), reported as ``ambiguous``. Quotes here are verbatim like every
other quote: one that does not occur in its source is an error.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import Location, SpecError
from ..paths import display, specs_dir
from ..spec.catalogue import load_catalogue
from ..spec.sources import load_source
from ..spec.yamlsafe import load_yaml
from ..expr import parse, names
from .outcomes import BY_ID


@dataclass(frozen=True)
class PairSide:
    param: str
    as_param: str | None = None
    mapping: tuple[tuple[Any, Any], ...] = ()

    def meaning(self, value: Any) -> Any:
        for k, v in self.mapping:
            if k == value:
                return v
        return value


@dataclass(frozen=True)
class SameQuantity:
    id: str
    topic: str
    question: str
    family: str
    a: PairSide
    b: PairSide


@dataclass(frozen=True)
class Redundancy:
    id: str
    topic: str
    proof: str
    premise: tuple[str, ...]
    summary: str
    conclusion_param: str | None = None
    source: str | None = None
    quote: str | None = None
    gloss: str | None = None
    args: dict = field(default_factory=dict)
    where: Location | None = None


@dataclass(frozen=True)
class Guard:
    pattern: str                 # a parameter id or a glob such as speed_die.*
    text: str
    expr: Any


@dataclass(frozen=True)
class Declared:
    base_games: tuple[str, ...]
    same_quantity: tuple[SameQuantity, ...]
    redundancies: tuple[Redundancy, ...]
    guards: tuple[Guard, ...] = ()

    def guard(self, pid: str) -> Guard | None:
        """The first condition that governs ``pid`` (never the parameter's own switch)."""
        for g in self.guards:
            if fnmatch.fnmatchcase(pid, g.pattern) and pid not in _param_names(g.expr):
                return g
        return None


_RED_KEYS = {"id", "topic", "proof", "premise", "summary", "conclusion_param", "source", "quote", "gloss"}


def load_declared(path: Path | None = None) -> Declared:
    return _load(str(path or specs_dir() / "comparison.yaml"))


@lru_cache(maxsize=4)
def _load(path: str) -> Declared:
    p = Path(path)
    if not p.is_file():
        return Declared((), (), (), ())
    name = display(p)
    data, lines = load_yaml(p.read_text(encoding="utf-8"), name)
    if not isinstance(data, dict):
        raise SpecError("E030", "comparison.yaml must be a mapping", Location(name, 1))
    cat = load_catalogue()

    def check_param(pid, where):
        if pid not in cat:
            raise SpecError("E002", f"unknown parameter {pid!r}{cat.suggest(pid)}", where)
        return pid

    pairs = []
    for i, item in enumerate(data.get("same_quantity") or []):
        where = Location(name, lines.get(("same_quantity", i)))
        try:
            sides = []
            for key in ("a", "b"):
                s = item[key]
                check_param(s["param"], where)
                if s.get("as"):
                    check_param(s["as"], where)
                sides.append(PairSide(s["param"], s.get("as"), tuple((s.get("map") or {}).items())))
            if item["family"] not in BY_ID:
                raise SpecError("E030", f"unknown outcome family {item['family']!r}", where)
            question = " ".join(str(item["question"]).split())
            pairs.append(SameQuantity(str(item["id"]), str(item["topic"]), question, item["family"],
                                      sides[0], sides[1]))
        except (KeyError, TypeError) as exc:
            raise SpecError("E030", f"same_quantity entry needs id, topic, question, family, a, b ({exc})",
                            where) from None
    reds = []
    for i, item in enumerate(data.get("redundancies") or []):
        where = Location(name, lines.get(("redundancies", i)))
        if not isinstance(item, dict) or not {"id", "topic", "proof", "premise", "summary"} <= set(item):
            raise SpecError("E030", "a redundancy needs id, topic, proof, premise, summary", where)
        for pid in item["premise"]:
            check_param(pid, where)
        if item.get("conclusion_param"):
            check_param(item["conclusion_param"], where)
        if item.get("quote"):
            src = load_source(item.get("source") or "")
            if not src.contains(item["quote"]):
                raise SpecError("E007", f"quote does not occur in {src.name}: {item['quote'][:80]!r}", where)
        reds.append(Redundancy(
            id=str(item["id"]), topic=str(item["topic"]), proof=str(item["proof"]),
            premise=tuple(item["premise"]), summary=" ".join(str(item["summary"]).split()),
            conclusion_param=item.get("conclusion_param"), source=item.get("source"), quote=item.get("quote"),
            gloss=item.get("gloss"), args={k: v for k, v in item.items() if k not in _RED_KEYS}, where=where))
    guards = []
    for pattern, text in (data.get("applies_when") or {}).items():
        where = Location(name, lines.get(("applies_when", pattern)))
        expr = parse(str(text), where)
        for pid in _param_names(expr):
            check_param(pid, where)
        guards.append(Guard(str(pattern), str(text), expr))
    if data.get("clause_readings"):
        raise SpecError("E030", "clause_readings are gone: record another reading of a passage as a "
                        "reading of the ruleset entry that cites it (readings:)",
                        Location(name, lines.get(("clause_readings",))))
    return Declared(tuple(data.get("base_games") or ()), tuple(pairs), tuple(reds), tuple(guards))


def _param_names(expr) -> set[str]:
    return {".".join(n) if isinstance(n, tuple) else str(n) for n in names(expr)}
