"""The promised invariants as Python functions over the slices of a state, specialised per config.

The reference reading of an invariant is ``verify.expr``'s closures over the *view* of a state (the
records ``verify.state_view`` builds). Checking every invariant after every action of a game that way
costs many times the game itself: a record per player and per deed, a closure call per node of the
tree. This module translates an invariant's parsed tree into the source of one Python function over
the slices themselves (``verify.state_view``), for one config: a player is an index into the players'
columns, a property its square, a colour group its index; the board's facts are tables bound beside
the function and the rule parameters are literals. ``verify.invariants.Monitor`` runs these functions
and, when one fails, asks the reference for the violation (its verdict and its explanation); tests
(``tests/test_invariant_code.py``) check that both readings agree, on real and corrupted states of
every bundled ruleset.

Nothing in a spec is executed as code: the source is built from the validated tree alone. Its
identifiers are this module's own (``s``, ``o``, ``a``, ``s_cash``, ``K_STREETS``, ``v0``: a loop
variable of the spec is renamed, never pasted), every literal is ``repr`` of a constant of the tree or
of a rule parameter's value (an int, a string, a boolean, None or a finite float; anything else is not
translated), every operator comes from the fixed tables below, and the function sees no builtins but
the few it calls. What this module does not translate (a whole record used as a value, ``old`` of a
loop variable, a name the view does not have) gets None, and the Monitor evaluates that invariant
with the reference closures, which then say what is wrong with it.
"""

from __future__ import annotations

import math
import operator
import re
from dataclasses import dataclass
from typing import Any, Callable

from .expr import UNDECIDED, Aggregate, _nodes, names, BinOp, BoolOp, Call, Compare, Const, IfExp, Name, Neg, Not, TupleLit
from .spec.invariants import ACTION_FIELDS, Invariant
from .state_view import BoardFacts, chance_cards, chest_cards

#: the slices a function reads (``verify.state_view``), by the name it binds them to (``s_cash``)
SLICES = ("seats", "in_jail", "bankrupt", "teams", "cards", "cash", "owner", "mortgaged", "houses", "hotel",
          "bank_houses", "bank_hotels", "pot", "jackpot")
#: a player's fields read straight from a column of the same name (the others: below)
PLAYER_COLUMNS = {"seat": "seats", "cash": "cash", "in_jail": "in_jail", "bankrupt": "bankrupt", "team": "teams"}
PROPERTY_COLUMNS = {"owner": "owner", "mortgaged": "mortgaged", "houses": "houses", "hotel": "hotel"}
#: a property's fields the board gives (a table per field, indexed by square)
PROPERTY_TABLES = {"kind": "K_KIND", "group": "K_GROUP", "price": "K_PRICE", "house_cost": "K_HOUSE_COST"}
ROOT_LISTS = {"properties": "K_PROPS", "streets": "K_STREETS", "groups": "K_GROUPS"}
_CMP = {op: op for op in ("==", "!=", "<", "<=", ">", ">=", "in", "not in")}
_BIN = {op: op for op in ("+", "-", "*", "/", "//", "%")}
_FUNCS = {name: name for name in ("abs", "min", "max", "len")}
_ACTION = {name: name for name in ACTION_FIELDS}
#: the only names the generated functions can reach besides their own tables
_BUILTINS = {"all": all, "any": any, "sum": sum, "min": min, "max": max, "abs": abs, "len": len, "bool": bool,
             "range": range}


class Untranslated(Exception):
    """The expression uses something this module does not translate (the reference evaluates it)."""


@dataclass(frozen=True)
class _T:
    """A translated subexpression: its source, and what it is (a value, a truth value, a list of items, an
    item, the bank), of which records (player, property, group) and in which state (``s`` after, ``o``
    before)."""

    code: str
    kind: str
    of: str = ""
    state: str = ""
    local: bool = False          # a list of the item being checked alone (``g.streets``: see ``parts``)


def _literal(value: Any) -> str:
    if value is None or type(value) in (bool, int, str):
        return repr(value)
    if type(value) is float and math.isfinite(value):
        return repr(value)
    raise Untranslated(f"a constant of type {type(value).__name__}")


class _Translator:
    def __init__(self, constants: dict[str, Any], step: bool):
        self.constants = constants
        self.step = step
        self.read: set[tuple[str, str]] = set()     # (state, slice) pairs the function reads
        self.shared: set[str] = set()     # the slices read other than at the square of a local variable
        self.local: set[str] = set()      # loop variables over the item checked alone and its streets
        self.bank_cash = False
        self.loops = 0

    def bind(self, state: str, name: str) -> str:
        """The line binding slice ``name`` of ``state`` to the name the code reads it by."""
        return f"    {state}_{name} = {state}[{name!r}]"

    def constant(self, pid: str, value: Any) -> _T:
        """Rule parameter ``pid`` (of ``value``) in the code: its literal."""
        return _T(_literal(value), "value")

    def column(self, state: str, name: str, index: str | None = None) -> str:
        assert name in SLICES and state in ("s", "o")
        self.read.add((state, name))
        if index is None or index not in self.local:
            self.shared.add(name)
        return f"{state}_{name}"

    def value(self, e: Any, scope: dict[str, _T], state: str) -> _T:
        t = self.tr(e, scope, state)
        if t.kind not in ("value", "bool"):
            raise Untranslated("a record or a list used as a value")
        return t

    def truth(self, e: Any, scope: dict[str, _T], state: str) -> str:
        t = self.value(e, scope, state)
        return t.code if t.kind == "bool" else f"bool({t.code})"

    def tr(self, e: Any, scope: dict[str, _T], state: str) -> _T:
        if isinstance(e, Const):
            return _T(_literal(e.value), "value")
        if isinstance(e, Name):
            return self.name(e.path, scope, state)
        if isinstance(e, Compare):
            parts = [self.value(x, scope, state).code for x in e.operands]
            code = parts[0]
            for op, part in zip(e.ops, parts[1:]):
                code += f" {_CMP[op]} {part}"
            return _T(f"({code})" if len(e.ops) == 1 else f"bool({code})", "bool")
        if isinstance(e, BoolOp):
            joiner = " and " if e.op == "and" else " or "
            return _T("(" + joiner.join(self.truth(x, scope, state) for x in e.operands) + ")", "bool")
        if isinstance(e, Not):
            return _T(f"(not {self.value(e.operand, scope, state).code})", "bool")
        if isinstance(e, Neg):
            return _T(f"(-{self.value(e.operand, scope, state).code})", "value")
        if isinstance(e, BinOp):
            return _T(f"({self.value(e.left, scope, state).code} {_BIN[e.op]} "
                      f"{self.value(e.right, scope, state).code})", "value")
        if isinstance(e, IfExp):
            test, then, orelse = (self.value(x, scope, state) for x in (e.test, e.then, e.orelse))
            kind = "bool" if then.kind == orelse.kind == "bool" else "value"
            return _T(f"({then.code} if {test.code} else {orelse.code})", kind)
        if isinstance(e, TupleLit):
            return _T("(" + "".join(self.value(x, scope, state).code + ", " for x in e.items) + ")", "value")
        if isinstance(e, Call):
            return self.call(e, scope, state)
        if isinstance(e, Aggregate):
            return self.aggregate(e, scope, state)
        raise Untranslated(type(e).__name__)

    def call(self, e: Call, scope: dict[str, _T], state: str) -> _T:
        if e.func == "old":
            # the state before: no loop variable of ours is bound there (as in the reference)
            if not self.step or state == "o" or len(e.args) != 1:
                raise Untranslated("old(...) outside a step invariant")
            return self.value(e.args[0], {}, "o")
        if e.func == "implies" and len(e.args) == 2:
            return _T(f"(not {self.value(e.args[0], scope, state).code} or "
                      f"{self.truth(e.args[1], scope, state)})", "bool")
        if e.func == "len" and len(e.args) == 1:
            t = self.tr(e.args[0], scope, state)
            if t.kind not in ("value", "bool", "list"):
                raise Untranslated("len of a record")
            return _T(f"len({t.code})", "value")
        if e.func not in _FUNCS:
            raise Untranslated(e.func)
        args = ", ".join(self.value(x, scope, state).code for x in e.args)
        return _T(f"{_FUNCS[e.func]}({args})", "value")

    def loops_of(self, e: Aggregate, scope: dict[str, _T], state: str,
                 first: str | None = None) -> tuple[dict[str, _T], list[str]]:
        """The scope inside aggregate ``e`` and its ``for`` clauses (``first``: see ``aggregate``)."""
        inner = dict(scope)
        fors = []
        for k, (var, iterable) in enumerate(e.loops):
            name = f"v{self.loops}"
            self.loops += 1
            field = (_one_player_field(e, k) if iterable == Name(("players",)) and "players" not in inner
                     and "players" not in self.constants else None)
            if field is not None:
                # the body reads one field of each player: the loop runs over that column itself
                inner[var] = _T(name, "elem", field)
                fors.append(f"for {name} in {self.column(state, PLAYER_COLUMNS[field])}")
                continue
            it = self.tr(iterable, inner, state)
            if k == 0 and first is not None:
                it = _T(first, "list", it.of, it.state, True)
            if it.local:
                self.local.add(name)
            if it.kind == "list":
                inner[var] = _T(name, "item", it.of, it.state)
            elif it.kind == "value":
                inner[var] = _T(name, "value")
            else:
                raise Untranslated("a loop over a record")
            fors.append(f"for {name} in {it.code}")
        return inner, fors

    def statements(self, e: Aggregate, decided: bool, first: str | None = None) -> list[str]:
        """``all``/``any`` aggregate ``e`` as nested ``for`` statements (no generator: nothing captured) that
        return ``decided`` at the first item that decides it; the caller says what follows."""
        inner, fors = self.loops_of(e, {}, "s", first)
        lines, pad = [], "    "
        for clause in fors + [f"if {self.value(c, inner, 's').code}" for c in e.conds]:
            lines.append(f"{pad}{clause}:")
            pad += "    "
        if e.func == "all":
            return lines + self.require(e.elt, inner, pad)
        lines.append(f"{pad}if {self.value(e.elt, inner, 's').code}:")
        lines.append(f"{pad}    return True")
        return lines

    def require(self, e: Any, scope: dict[str, _T], pad: str) -> list[str]:
        """Statements that return False where ``e`` is false and go on where it is true, deciding its
        operands in the order the expression does: a quantifier inside it is a loop, not a generator
        (``implies(any(P for x in xs), Q)``: Q decided at the first x where P holds)."""
        if isinstance(e, Call) and e.func == "implies" and len(e.args) == 2:
            e = BoolOp("or", (Not(e.args[0]), e.args[1]))
        if isinstance(e, BoolOp) and e.op == "and":
            return [line for x in e.operands for line in self.require(x, scope, pad)]
        if isinstance(e, BoolOp) and e.op == "or":
            head, rest = e.operands[0], e.operands[1:]
            then = rest[0] if len(rest) == 1 else BoolOp("or", rest)
            if isinstance(head, Not) and isinstance(head.operand, Aggregate) and head.operand.func == "any" \
                    and len(head.operand.loops) == 1:
                # not any(P for x in xs) or Q: at the first x where P holds, Q decides
                inner, fors = self.loops_of(head.operand, scope, "s")
                test = " and ".join([self.truth(c, inner, "s") for c in head.operand.conds]
                                    + [self.truth(head.operand.elt, inner, "s")])
                return ([f"{pad}{fors[0]}:", f"{pad}    if {test}:"] + self.require(then, scope, pad + "        ")
                        + [f"{pad}        break"])
            return [f"{pad}if not {self.truth(head, scope, 's')}:"] + self.require(then, scope, pad + "    ")
        if isinstance(e, Aggregate) and e.func == "all":
            inner, fors = self.loops_of(e, scope, "s")
            lines = []
            for clause in fors + [f"if {self.value(c, inner, 's').code}" for c in e.conds]:
                lines.append(f"{pad}{clause}:")
                pad += "    "
            return lines + self.require(e.elt, inner, pad)
        if isinstance(e, Aggregate) and e.func == "any" and len(e.loops) == 1:
            inner, fors = self.loops_of(e, scope, "s")
            test = " and ".join([self.truth(c, inner, "s") for c in e.conds] + [self.truth(e.elt, inner, "s")])
            return [f"{pad}{fors[0]}:", f"{pad}    if {test}:", f"{pad}        break", f"{pad}else:",
                    f"{pad}    return False"]
        return [f"{pad}if not {self.truth(e, scope, 's')}:", f"{pad}    return False"]

    def aggregate(self, e: Aggregate, scope: dict[str, _T], state: str, first: str | None = None) -> _T:
        """``e`` as a generator; ``first``: the source of its first loop's items instead (a local loop)."""
        if (first is None and e.func == "sum" and len(e.loops) == 1 and not e.conds and isinstance(e.elt, Name)
                and e.elt.path[:1] == e.loops[0][:1] and len(e.elt.path) == 2 and e.elt.path[1] in PLAYER_COLUMNS
                and e.loops[0][1] == Name(("players",)) and "players" not in scope and "players" not in self.constants):
            # sum(q.cash for q in players): the players' column itself (a player per index)
            return _T(f"sum({self.column(state, PLAYER_COLUMNS[e.elt.path[1]])})", "value")
        inner, fors = self.loops_of(e, scope, state, first)
        ifs = [f"if {self.value(c, inner, state).code}" for c in e.conds]
        elt = self.value(e.elt, inner, state).code
        loops = " ".join(fors + ifs)
        if e.func in ("all", "any"):
            return _T(f"{e.func}({elt} {loops})", "bool")
        if e.func == "sum":
            at = self.board_column(e, fors, elt)
            return _T(f"sum({at})" if at else f"sum({elt} {loops})", "value")
        if e.func == "count":
            return _T(f"sum(1 {loops} if {elt})", "value")
        if e.func in ("min", "max"):
            return _T(f"{e.func}(({elt} {loops}), default=0)", "value")
        raise Untranslated(e.func)

    def board_column(self, e: Aggregate, fors: list[str], elt: str) -> str:
        """``sum(x.houses for x in streets)``: the column's items at the board list's squares, taken at once
        (``K_AT_STREETS(s_houses)``); "" for any other aggregate."""
        if len(fors) != 1 or e.conds:
            return ""
        loop = re.fullmatch(r"for (v\d+) in (K_PROPS|K_STREETS)", fors[0])
        if loop is None or re.fullmatch(rf"[so]_[a-z_]+\[{loop[1]}\]", elt) is None:
            return ""
        return f"K_AT_{loop[2][2:]}({elt.split('[')[0]})"

    def name(self, path: tuple[str, ...], scope: dict[str, _T], state: str) -> _T:
        head = path[0]
        if head in scope:                     # a loop variable first, as the reference reads it
            item = scope[head]
            if item.kind == "elem":           # a player's one field, bound by its loop (see aggregate)
                if path[1:] != (item.of,):
                    raise Untranslated("another field of a column's element")
                return _T(item.code, "value")
            if len(path) == 1:
                if item.kind == "value":
                    return item
                raise Untranslated("a whole record")
            if item.kind != "item":
                raise Untranslated("a field of a value")
            return self.field(item, path[1:])
        full = ".".join(path)
        if full in self.constants:
            value = self.constants[full]
            if value is UNDECIDED:
                raise Untranslated(f"{full} is undecided")
            return self.constant(full, value)
        if head == "players" and len(path) == 1:
            return _T(f"range(len({self.column(state, 'seats')}))", "list", "player", state)
        if head in ROOT_LISTS and len(path) == 1:
            return _T(ROOT_LISTS[head], "list", "group" if head == "groups" else "property", state)
        if head in ("pot", "jackpot") and len(path) == 1:
            return _T(self.column(state, head), "value")
        if head == "bank" and len(path) == 2 and path[1] in ("houses", "hotels", "cash"):
            if path[1] == "cash":           # the caller's: it may be the counterparty of a step
                self.shared.add("bank_cash")
                self.bank_cash = True
                return _T("bc" if state == "s" else "obc", "value")
            return _T(self.column(state, "bank_" + path[1]), "value")
        if head == "action" and len(path) == 2 and path[1] in _ACTION and self.step and state == "s":
            return _T(f"a.{_ACTION[path[1]]}", "value")
        raise Untranslated(f"the name {full}")

    def field(self, item: _T, rest: tuple[str, ...]) -> _T:
        f, v, state = rest[0], item.code, item.state
        if f == "before":
            if item.of == "group" or state == "o" or not self.step or len(rest) == 1:
                raise Untranslated("this .before")
            return self.field(_T(v, "item", item.of, "o"), rest[1:])
        if len(rest) > 1:
            raise Untranslated("a field of a field")
        if item.of == "player":
            if f in PLAYER_COLUMNS:
                return _T(f"{self.column(state, PLAYER_COLUMNS[f], v)}[{v}]", "value")
            held = f"{self.column(state, 'cards', v)}[{v}]"
            if f == "jail_cards":
                return _T(f"len({held})", "value")
            if f == "chance_cards":
                return _T(f"_chance_cards({held})", "value")
            if f == "chest_cards":
                return _T(f"_chest_cards({held})", "value")
        elif item.of == "property":
            if f == "square":
                return _T(v, "value")
            if f in PROPERTY_COLUMNS:
                return _T(f"{self.column(state, PROPERTY_COLUMNS[f], v)}[{v}]", "value")
            if f == "hotels":
                return _T(f"(1 if {self.column(state, 'hotel', v)}[{v}] else 0)", "value")
            if f in PROPERTY_TABLES:
                return _T(f"{PROPERTY_TABLES[f]}[{v}]", "value")
        elif item.of == "group":
            if f == "name":
                return _T(f"K_GNAME[{v}]", "value")
            if f == "streets":
                return _T(f"K_GSTREETS[{v}]", "list", "property", state, v in self.local)
        raise Untranslated(f"the field {f}")


def _one_player_field(e: Aggregate, k: int) -> str | None:
    """The one field (read from a column as it is) that the rest of aggregate ``e`` reads of its ``k``-th loop
    variable, when it reads no other and nothing rebinds the variable; else None."""
    var = e.loops[k][0]
    rest = [e.elt, *e.conds, *(it for _, it in e.loops[k + 1:])]
    if any(v == var for v, _ in e.loops[k + 1:]) or any(
            isinstance(x, Aggregate) and any(v == var for v, _ in x.loops) for r in rest for x in _nodes(r)):
        return None
    paths = {p for r in rest for p in names(r, with_loop_variables=True) if p[0] == var}
    if len(paths) != 1:
        return None
    (path,) = paths
    return path[1] if len(path) == 2 and path[1] in PLAYER_COLUMNS else None


def tables(facts: BoardFacts) -> dict[str, Any]:
    """The board's facts as the generated functions read them (by square, or by group index)."""
    by_square: dict[str, list] = {name: [None] * facts.size for name in PROPERTY_TABLES.values()}
    for i, sq in enumerate(facts.squares):
        by_square["K_KIND"][sq] = facts.kinds[i]
        by_square["K_GROUP"][sq] = facts.groups[i]
        by_square["K_PRICE"][sq] = facts.prices[i]
        by_square["K_HOUSE_COST"][sq] = facts.house_costs[i]
    out: dict[str, Any] = {name: tuple(column) for name, column in by_square.items()}
    out["K_PROPS"] = tuple(facts.squares)
    out["K_STREETS"] = tuple(sq for sq, kind in zip(facts.squares, facts.kinds) if kind == "street")
    for name in ("PROPS", "STREETS"):      # a column's items at those squares, as a tuple (see board_column)
        squares = out[f"K_{name}"]
        out[f"K_AT_{name}"] = (operator.itemgetter(*squares) if len(squares) > 1
                               else lambda column, squares=squares: tuple(column[sq] for sq in squares))
    out["K_GROUPS"] = tuple(range(len(facts.group_members)))
    out["K_GNAME"] = tuple(name for name, _ in facts.group_members)
    out["K_GSTREETS"] = tuple(tuple(facts.squares[i] for i in idx) for _, idx in facts.group_members)
    return out


def _prelude(t: _Translator, bound: set[tuple[str, str]]) -> list[str]:
    """The lines binding the slices read since ``bound`` (which they join)."""
    lines = [t.bind(state, name) for state, name in sorted(t.read - bound)]
    bound |= t.read
    return lines


def source(inv: Invariant, constants: dict[str, Any]) -> str:
    """The source of ``inv``'s function ``predicate(s, o, a, bc, obc)``: ``s`` the slices after (or of the
    state), ``o`` before, ``a`` the action's record, ``bc`` and ``obc`` the bank's cash after and before.
    The operands of a top-level ``and``/``or`` (or ``implies``) are decided one after the other, each
    binding the slices it reads first (``not action.bankruptcy or ...`` reads no deed on most steps).
    Where a quantifier's generator would capture the function's variables (which Python then binds in
    cells on every call), each operand with a quantifier is a function of its own (``stage1``), called
    when it is reached. Raises ``Untranslated``."""
    text = _staged(inv, constants, False)
    code = compile(text, "<verify.invariant_code>", "exec")
    main = next(c for c in code.co_consts if hasattr(c, "co_cellvars") and c.co_name == "predicate")
    return _staged(inv, constants, True) if main.co_cellvars else text


def _staged(inv: Invariant, constants: dict[str, Any], apart: bool, t: _Translator | None = None,
            header: str = "def predicate(s, o, a, bc, obc):") -> str:
    """The function's source (see ``source``), written by ``t`` (a translator of another flavour: the
    engine's screen, ``verify.screen_code``) under ``header``."""
    t = t or _Translator(constants, inv.kind == "step")
    e = inv.expr
    if isinstance(e, Call) and e.func == "implies" and len(e.args) == 2:
        e = BoolOp("or", (Not(e.args[0]), e.args[1]))
    stages = list(e.operands) if isinstance(e, BoolOp) else [e]
    main = [header]
    helpers: list[str] = []
    bound: set[tuple[str, str]] = set()
    for k, part in enumerate(stages):
        last = k == len(stages) - 1
        if isinstance(part, Aggregate) and part.func in ("all", "any") and (
                last or (part.func == "all") == (len(stages) == 1 or e.op == "and")):
            # a quantifier that decides the predicate when an item decides it: a loop statement
            decided = part.func == "any"
            body = t.statements(part, decided)
            main += _prelude(t, bound) + body
            if last:
                main.append(f"    return {not decided}")
            continue
        if apart and any(isinstance(x, Aggregate) for x in _nodes(part)):
            before, t.read = t.read, set()     # a function of its own binds all it reads
            code = t.value(part, {}, "s").code if len(stages) == 1 else t.truth(part, {}, "s")
            helpers += [f"def stage{k}(s, o, a, bc, obc):"] + _prelude(t, set()) + [f"    return {code}", ""]
            t.read = before
            code = f"stage{k}(s, o, a, bc, obc)"
        else:
            code = t.value(part, {}, "s").code if len(stages) == 1 else t.truth(part, {}, "s")
            main += _prelude(t, bound)
        if k == len(stages) - 1:
            main.append(f"    return {code}")
        elif e.op == "and":
            main.append(f"    if not {code}:\n        return False")
        else:
            main.append(f"    if {code}:\n        return True")
    return "\n".join(helpers + main) + "\n"


#: the lists a local loop runs over instead of the whole board (``parts``): the deeds, streets and groups
#: with a square that changed
LOCAL_ITEMS = {"properties": "d[0]", "streets": "d[1]", "groups": "d[2]"}


@dataclass(frozen=True)
class Part:
    """A conjunct of a state invariant, evaluated on its own: ``full(s, bc, d)`` its value on the slices
    ``s``; ``reads``, the slices it reads. ``local(s, bc, d)``, when not None, is its value given that it
    held on a state that differs from ``s`` only in the deeds' columns at the squares of ``d`` (the deeds,
    streets and groups with such a square) and in no slice of ``shared``: it is ``all(...)`` over the
    deeds, streets or groups whose body reads the state only at the item's own squares (a group's
    streets) and in ``shared``, so the other items hold still."""

    reads: frozenset[str]
    full: str
    local: str | None
    shared: frozenset[str]


def _part(e: Any, constants: dict[str, Any], first: str | None) -> tuple[str, _Translator]:
    t = _Translator(constants, False)
    if isinstance(e, Aggregate) and e.func in ("all", "any"):
        body = t.statements(e, e.func == "any", first) + [f"    return {e.func == 'all'}"]
    else:
        body = [f"    return {t.value(e, {}, 's').code}"]
    lines = ["def part(s, bc, d):"] + _prelude(t, set()) + body
    return "\n".join(lines) + "\n", t


def part_sources(inv: Invariant, constants: dict[str, Any]) -> list[Part]:
    """The conjuncts of state invariant ``inv`` (its top-level ``and``, else itself), as sources of
    ``part(s, bc, d)``. Raises ``Untranslated``."""
    e = inv.expr
    out = []
    for conj in (e.operands if isinstance(e, BoolOp) and e.op == "and" else (e,)):
        full, t = _part(conj, constants, None)
        reads = {name for _, name in t.read} | ({"bank_cash"} if t.bank_cash else set())
        local, shared = None, frozenset()
        if (isinstance(conj, Aggregate) and conj.func == "all" and isinstance(conj.loops[0][1], Name)
                and len(conj.loops[0][1].path) == 1 and conj.loops[0][1].path[0] in LOCAL_ITEMS
                and conj.loops[0][1].path[0] not in constants):
            local, t = _part(conj, constants, LOCAL_ITEMS[conj.loops[0][1].path[0]])
            shared = frozenset(t.shared)
        out.append(Part(frozenset(reads), full, local, shared))
    return out


def _function(text: str, facts: BoardFacts) -> Callable:
    """The function defined by ``text`` (made above from a validated tree: see the module docstring),
    with the board's tables and the few builtins it calls as its only globals."""
    namespace: dict[str, Any] = {"__builtins__": _BUILTINS, "_chance_cards": chance_cards,
                                 "_chest_cards": chest_cards, **tables(facts)}
    exec(compile(text, "<verify.invariant_code>", "exec"), namespace)   # noqa: S102 - see the docstring
    return next(v for k, v in namespace.items() if k in ("predicate", "part"))


def predicate(inv: Invariant, constants: dict[str, Any], facts: BoardFacts) -> Callable | None:
    """``inv`` as a function of the slices (see ``source``), or None when it is not translated."""
    try:
        return _function(source(inv, constants), facts)
    except Untranslated:
        return None


def parts(inv: Invariant, constants: dict[str, Any],
          facts: BoardFacts) -> list[tuple[frozenset[str], Callable, Callable | None, frozenset[str]]] | None:
    """The conjuncts of state invariant ``inv`` as functions (see ``Part``): (reads, full, local, shared)
    each; None when one is not translated."""
    try:
        return [(p.reads, _function(p.full, facts), None if p.local is None else _function(p.local, facts),
                 p.shared) for p in part_sources(inv, constants)]
    except Untranslated:
        return None


__all__ = ["predicate", "parts", "source", "part_sources", "tables", "Part", "Untranslated", "SLICES", "LOCAL_ITEMS"]
