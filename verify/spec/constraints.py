"""Cross-parameter constraints (``specs/constraints.yaml``) checked on resolved rulesets.

A constraint that names a silent or host-set parameter cannot be decided for
that ruleset; it is reported as undecided, never as satisfied.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import ExprError, Location, SpecError
from ..expr import UNDECIDED, Undecided, evaluate, names, parse
from ..paths import display, specs_dir
from .applicability import played_env
from .ruleset import Ruleset
from .yamlsafe import load_yaml
from .catalogue import load_catalogue


@dataclass(frozen=True)
class Constraint:
    id: str
    text: str
    expr: Any
    message: str
    params: tuple[str, ...]
    where: Location


@dataclass(frozen=True)
class ConstraintResult:
    constraint: Constraint
    status: str   # holds | broken | undecided
    undecided: tuple[str, ...] = ()


def load_constraints(path: Path | None = None) -> list[Constraint]:
    return list(_load(str(path or specs_dir() / "constraints.yaml")))


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[Constraint, ...]:
    cat = load_catalogue()
    name = display(path)
    data, lines = load_yaml(Path(path).read_text(encoding="utf-8"), name)
    out = []
    for i, item in enumerate((data or {}).get("constraints", [])):
        where = Location(name, lines.get(("constraints", i)))
        if not isinstance(item, dict) or not {"id", "expr", "message"} <= set(item):
            raise SpecError("E030", "a constraint needs id, expr and message", where)
        expr = parse(item["expr"], where)
        params = tuple(sorted(".".join(n) for n in names(expr)))
        for p in params:
            if p not in cat:
                raise ExprError(f"constraint {item['id']} names unknown parameter {p!r}"
                                f"{cat.suggest(p)}", where)
        out.append(Constraint(item["id"], item["expr"], expr, item["message"], params, where))
    return tuple(out)


def check_constraints(r: Ruleset, played: bool = False) -> list[ConstraintResult]:
    """Each constraint on ``r``'s stated values (a silent value leaves it undecided: what lint reports),
    or with ``played`` on the values a game plays (a silent value is its fallback): a command that
    plays ``r`` refuses a combination the engine could not play through."""
    if played:
        env = played_env(r)
    else:
        env = {pid: (e.value if e.has_value else UNDECIDED) for pid, e in r.entries.items()}
    for pid in r.catalogue.parameters:
        env.setdefault(pid, UNDECIDED)
    out = []
    for c in load_constraints():
        missing = tuple(p for p in c.params if env[p] is UNDECIDED)
        try:
            ok = evaluate(c.expr, env)
        except Undecided:
            out.append(ConstraintResult(c, "undecided", missing))
            continue
        except TypeError:
            ok = False
        out.append(ConstraintResult(c, "holds" if ok else "broken", missing))
    return out


def broken_at(r: Ruleset, params) -> Location | None:
    """Where a broken constraint is broken: the value among ``params`` set last in ``r``'s chain (the file
    that made the combination: a table's own value, not the rulebook it builds on), and within that file
    the one written last."""
    chain = list(r.chain)
    entries = [r.entries[p] for p in params if p in r.entries and r.entries[p].where is not None]
    entries.sort(key=lambda e: (chain.index(e.ruleset) if e.ruleset in chain else len(chain), e.where.line or 0))
    return entries[-1].where if entries else None


def setters(r: Ruleset, params) -> str:
    """Which file set each of ``params`` (``board.corner_20 in platform-classic, ...``)."""
    return ", ".join(f"{p} in {r.entries[p].ruleset}" for p in params if p in r.entries)
