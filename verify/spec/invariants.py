"""The invariants a ruleset may promise (``specs/invariants.yaml``), loaded and checked against the catalogue.

Invariants are declared once in the safe expression language. Reading that
declaration is the spec stage's work, like the catalogue's: the loader rejects an
expression that names anything outside the *view* of a state (E014, with file and
line) and ``by_id`` an unknown id (E013). The view is the contract between the two
readings of an invariant, the Python predicates over concrete states
(``verify.invariants``, ``verify.state_view``) and the z3 formulas over the
symbolic state (``verify.smt``): ``players``, ``properties``, ``streets``,
``groups`` (each with ``.streets``), ``bank``, ``pot``, ``jackpot``, the rule
parameters by id, and for step invariants the ``action`` and each
player's/property's ``before``, with the fields listed below.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from ..errors import ExprError, Location, SpecError
from ..expr import Aggregate, BinOp, BoolOp, Call, Compare, Const, IfExp, Name, Neg, Not, TupleLit, names, parse
from ..paths import display, specs_dir
from .catalogue import load_catalogue
from .yamlsafe import load_yaml

#: The fields of each kind of object in the view.
PLAYER_FIELDS = ("seat", "cash", "in_jail", "bankrupt", "team", "chance_cards", "chest_cards", "jail_cards")
PROPERTY_FIELDS = ("square", "kind", "group", "owner", "mortgaged", "houses", "hotel", "hotels", "price",
                   "house_cost")
GROUP_FIELDS = ("name", "streets")
BANK_FIELDS = ("houses", "hotels", "cash")
ACTION_FIELDS = ("kind", "player", "creditor", "team", "bankruptcy")
ROOTS = {"players": "player*", "properties": "property*", "streets": "property*", "groups": "group*",
         "bank": "bank", "pot": "int", "jackpot": "int"}
KINDS = ("state", "step")
#: each record type of the expression language: how an error names it, its fields, whether
#: ``.before`` reads its value before a step
_RECORDS = {"player": ("a player", PLAYER_FIELDS, True), "property": ("a property", PROPERTY_FIELDS, True),
            "group": ("a group", GROUP_FIELDS, False), "bank": ("the bank", BANK_FIELDS, False),
            "action": ("an action", ACTION_FIELDS, False)}


@dataclass(frozen=True)
class Invariant:
    id: str
    title: str
    kind: str                      # state | step
    text: str
    expr: Any
    reads: tuple[str, ...]         # rule parameters the expression reads
    where: Location



def load_invariants(path: Path | None = None) -> list[Invariant]:
    """Every invariant of ``specs/invariants.yaml`` (or ``path``), validated."""
    return list(_load(str(path or specs_dir() / "invariants.yaml")))


def invariant_ids() -> list[str]:
    return [i.id for i in load_invariants()]


def by_id(ids: Iterable[str] | None = None) -> list[Invariant]:
    """The invariants named by ``ids`` (all when None), in file order; unknown ids raise E013."""
    invs = load_invariants()
    if ids is None:
        return invs
    wanted = list(ids)
    known = {i.id for i in invs}
    for w in wanted:
        if w not in known:
            close = difflib.get_close_matches(w, sorted(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise SpecError("E013", f"unknown invariant {w!r}{hint}; known: {', '.join(sorted(known))}")
    return [i for i in invs if i.id in wanted]


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[Invariant, ...]:
    cat = load_catalogue()
    name = display(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError("E001", f"cannot read invariants: {exc}", Location(name)) from None
    data, lines = load_yaml(text, name)
    items = (data or {}).get("invariants") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise SpecError("E030", "the invariants file needs a list 'invariants'", Location(name, 1))
    out: list[Invariant] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        where = Location(name, lines.get(("invariants", i)))
        if not isinstance(item, dict) or not {"id", "title", "kind", "expr"} <= set(item):
            raise SpecError("E030", "an invariant needs id, title, kind and expr", where)
        extra = sorted(set(item) - {"id", "title", "kind", "expr", "reads"})
        if extra:
            raise SpecError("E030", f"invariant {item['id']}: unknown field(s) {extra}", where)
        iid = item["id"]
        if iid in seen:
            raise SpecError("E008", f"invariant {iid!r} is declared twice", where)
        seen.add(iid)
        kind = item["kind"]
        if kind not in KINDS:
            raise SpecError("E030", f"invariant {iid}: kind must be state or step, not {kind!r}",
                            Location(name, lines.get(("invariants", i, "kind"))))
        ewhere = Location(name, lines.get(("invariants", i, "expr")) or where.line)
        if not isinstance(item["expr"], str):
            raise ExprError(f"invariant {iid}: expr must be a string", ewhere)
        # YAML folded blocks keep the newlines of indented lines; an expression is one line
        expr = parse(" ".join(item["expr"].split()), ewhere)
        params = _validate(expr, kind, cat, iid, ewhere)
        declared = item.get("reads")
        if declared is not None:
            if not isinstance(declared, list) or not all(isinstance(x, str) for x in declared):
                raise SpecError("E030", f"invariant {iid}: reads is a list of parameter ids", where)
            for p in declared:
                if p not in cat:
                    raise ExprError(f"invariant {iid} reads unknown parameter {p!r}{cat.suggest(p)}",
                                    Location(name, lines.get(("invariants", i, "reads"))))
            if set(declared) != set(params):
                raise SpecError("E030", f"invariant {iid}: reads {sorted(declared)} but the expression "
                                f"reads {sorted(params)}", Location(name, lines.get(("invariants", i, "reads"))))
        out.append(Invariant(iid, str(item["title"]), kind, item["expr"], expr, tuple(sorted(params)), where))
    return tuple(out)


def _validate(expr: Any, kind: str, cat, iid: str, where: Location) -> set[str]:
    """Check every name against the view (or the catalogue); return the parameter ids read."""
    params: set[str] = set()
    step = kind == "step"

    in_old = False

    def field_type(typ: str, path: tuple[str, ...], full: str) -> str:
        for attr in path:
            if typ not in _RECORDS:
                raise ExprError(f"invariant {iid}: {full!r} has no fields", where)
            what, fields, has_before = _RECORDS[typ]
            if has_before and attr == "before" and step and not in_old:
                continue
            if attr not in fields:
                raise ExprError(f"invariant {iid}: {what} has no field {attr!r} in {full!r}; "
                                f"fields: {', '.join(fields)}", where)
            typ = "property*" if (typ, attr) == ("group", "streets") else "int"
        return typ

    def name_type(path: tuple[str, ...], scope: dict[str, str]) -> str:
        full = ".".join(path)
        if path[0] in scope:
            return field_type(scope[path[0]], path[1:], full)
        if full in cat:
            params.add(full)
            return "param"
        if path[0] in ROOTS:
            return field_type(ROOTS[path[0]], path[1:], full)
        if path[0] == "action":
            if not step:
                raise ExprError(f"invariant {iid}: 'action' is only available in step invariants", where)
            if in_old:
                raise ExprError(f"invariant {iid}: old(...) reads the state before the action, not the action",
                                where)
            return field_type("action", path[1:], full)
        raise ExprError(f"invariant {iid}: unknown name {full!r}{cat.suggest(full)}; a state has "
                        f"{', '.join(sorted(ROOTS))}" + (", action" if step else "")
                        + " and the rule parameters by id", where)

    def walk(e: Any, scope: dict[str, str]) -> None:
        if isinstance(e, Name):
            name_type(e.path, scope)
        elif isinstance(e, Aggregate):
            inner = dict(scope)
            for var, it in e.loops:
                walk(it, inner)
                t = name_type(it.path, inner) if isinstance(it, Name) else "?"
                if not t.endswith("*"):
                    raise ExprError(f"invariant {iid}: {var} must range over players, properties, "
                                    "streets, groups or a group's streets", where)
                inner[var] = t[:-1]
            walk(e.elt, inner)
            for c in e.conds:
                walk(c, inner)
        elif isinstance(e, Call):
            nonlocal in_old
            if e.func == "old" and not step:
                raise ExprError(f"invariant {iid}: old(...) is only allowed in step invariants", where)
            outer = in_old
            in_old = in_old or e.func == "old"      # inside old(...), x.before and the action mean nothing
            for a in e.args:
                walk(a, scope)
            in_old = outer
        elif isinstance(e, (Compare, BoolOp)):
            for x in e.operands:
                walk(x, scope)
        elif isinstance(e, TupleLit):
            for x in e.items:
                walk(x, scope)
        elif isinstance(e, (Not, Neg)):
            walk(e.operand, scope)
        elif isinstance(e, BinOp):
            walk(e.left, scope), walk(e.right, scope)
        elif isinstance(e, IfExp):
            walk(e.test, scope), walk(e.then, scope), walk(e.orelse, scope)
        elif not isinstance(e, Const):
            raise ExprError(f"invariant {iid}: unsupported expression {e!r}", where)

    walk(expr, {})
    assert names(expr) is not None
    return params


__all__ = ["Invariant", "load_invariants", "invariant_ids", "by_id", "KINDS", "ROOTS", "PLAYER_FIELDS",
           "PROPERTY_FIELDS", "GROUP_FIELDS", "BANK_FIELDS", "ACTION_FIELDS"]
