"""The comparison's own declarations (``specs/comparison.yaml``), loaded and checked.

Which ruleset is each source's base game, which parameters state one
quantity (for ``internal`` findings: a rulebook that states it twice, differently), which source clauses are implied by
others (for ``redundancy`` findings), and which single rule of a rulebook rules several parameters (``statements``:
the findings it decides are one disagreement, ``verify.compare.merge``). Another reading of a passage is not
declared here: it is a ``reading`` of the ruleset entry that cites the passage
(``verify.spec.readings``), reported as ``ambiguous``. Quotes here are verbatim like every
other quote: one that does not occur in its source is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import Location, SpecError
from ..paths import display, specs_dir
from ..spec.catalogue import load_catalogue
from ..spec.sources import load_source
from ..spec.yamlsafe import load_yaml
from ..expr import parse


@dataclass(frozen=True)
class Statement:
    """A parameter whose cited value states a quantity: ``mapping`` translates its values (only the
    values it lists state the quantity; none listed: the value itself), ``when`` limits it to the
    rulesets where the condition holds (the game the quantity is about)."""

    param: str
    mapping: tuple[tuple[Any, Any], ...] = ()
    when: str | None = None
    when_expr: Any = field(default=None, compare=False, repr=False)

    def meaning(self, value: Any) -> tuple[bool, Any]:
        """(whether the value states the quantity, what it states)."""
        if not self.mapping:
            return True, value
        for k, v in self.mapping:
            if k == value and isinstance(k, bool) == isinstance(value, bool):
                return True, v
        return False, None


@dataclass(frozen=True)
class Quantity:
    """One quantity a rulebook may define in several places (for ``internal`` findings)."""

    id: str
    topic: str
    question: str
    param: str                  # the parameter that carries the quantity in play (the witness sets it)
    statements: tuple[Statement, ...]
    where: Location | None = None


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
class OneRule:
    """One rule of a rulebook, quoted, that answers several questions (``params``) at once: findings on
    those parameters where that rulebook's side rests on it are one disagreement."""

    id: str
    source: str
    quote: str
    params: tuple[str, ...]
    why: str = ""
    where: Location | None = None


@dataclass(frozen=True)
class Declared:
    base_games: tuple[str, ...]
    quantities: tuple[Quantity, ...]
    redundancies: tuple[Redundancy, ...]
    statements: tuple[OneRule, ...] = ()


_RED_KEYS = {"id", "topic", "proof", "premise", "summary", "conclusion_param", "source", "quote", "gloss"}


def load_declared(path: Path | None = None) -> Declared:
    return _load(str(path or specs_dir() / "comparison.yaml"))


@lru_cache(maxsize=4)
def _load(path: str) -> Declared:
    p = Path(path)
    if not p.is_file():
        return Declared((), (), ())
    name = display(p)
    data, lines = load_yaml(p.read_text(encoding="utf-8"), name)
    if not isinstance(data, dict):
        raise SpecError("E030", "comparison.yaml must be a mapping", Location(name, 1))
    cat = load_catalogue()

    def check_param(pid, where):
        if pid not in cat:
            raise SpecError("E002", f"unknown parameter {pid!r}{cat.suggest(pid)}", where)
        return pid

    quantities = []
    for i, item in enumerate(data.get("quantities") or []):
        where = Location(name, lines.get(("quantities", i)))
        try:
            stated = []
            for st in item["described_by"]:
                check_param(st["param"], where)
                mapping = tuple((st.get("map") or {}).items())
                when = st.get("when")
                stated.append(Statement(st["param"], mapping, when, parse(str(when), where) if when else None))
            target = check_param(item["param"], where)
            for st in stated:
                for _, v in st.mapping:
                    why = cat[target].check(v)
                    if why:
                        raise SpecError("E003", f"quantity {item['id']}: {st.param} maps to {v!r}, which "
                                        f"{target} cannot hold: {why}", where)
            if len(stated) < 2:
                raise SpecError("E030", f"quantity {item['id']} needs two statements or more", where)
            quantities.append(Quantity(str(item["id"]), str(item["topic"]), " ".join(str(item["question"]).split()),
                                       target, tuple(stated), where))
        except (KeyError, TypeError) as exc:
            raise SpecError("E030", f"a quantity needs id, topic, question, param and described_by (a list of "
                            f"{{param, map?, when?}}) ({exc})", where) from None
    if data.get("same_quantity"):
        raise SpecError("E030", "same_quantity is now quantities: one quantity, the parameters that state it "
                        "(described_by)", Location(name, lines.get(("same_quantity",))))
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
    if data.get("applies_when"):
        raise SpecError("E030", "applies_when belongs to the catalogue: declare the condition once, on the "
                        "parameter (specs/catalogue/*.yaml, `applies_when:`)",
                        Location(name, lines.get(("applies_when",))))
    if data.get("clause_readings"):
        raise SpecError("E030", "clause_readings are gone: record another reading of a passage as a "
                        "reading of the ruleset entry that cites it (readings:)",
                        Location(name, lines.get(("clause_readings",))))
    rules = []
    for i, item in enumerate(data.get("statements") or []):
        where = Location(name, lines.get(("statements", i)))
        if not isinstance(item, dict) or not {"id", "source", "quote", "params"} <= set(item) or \
                not isinstance(item["params"], list) or len(item["params"]) < 2:
            raise SpecError("E030", "a statement needs id, source, quote and params (two parameters or more "
                            "that the quoted rule answers)", where)
        for pid in item["params"]:
            check_param(pid, where)
        src = load_source(item["source"])
        if not src.contains(item["quote"]):
            raise SpecError("E007", f"quote does not occur in {src.name}: {item['quote'][:80]!r}", where)
        rules.append(OneRule(str(item["id"]), src.name, str(item["quote"]), tuple(item["params"]),
                             " ".join(str(item.get("why") or "").split()), where))
    return Declared(tuple(data.get("base_games") or ()), tuple(quantities), tuple(reds), tuple(rules))
