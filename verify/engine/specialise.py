"""The engine of one config, generated from the readable rules: every table read a constant, every branch
on the config folded, so a rule the ruleset switches off is not in the code at all.

The rules are written once (``verify.engine.rules``), as functions of ``(t, g, ...)``.
For a config, ``t`` is known, so each rule function can be partially evaluated:

* every read of the tables (``t.cfg.speed_die.enabled``, ``t.price``, ``mv.go_salary`` where
  ``mv = t.cfg.movement``) becomes its value: a literal when it is one (numbers, strings,
  tuples of them), else a module global bound to the object;
* every expression whose operands became constants is computed (comparisons, ``and``/``or``,
  ``not``, arithmetic, ``x if c else y``, subscripts and attributes of constants, ``len``);
* an ``if`` whose test is a constant keeps only the branch taken, and code after a ``return``
  goes; a local assigned once from a constant is replaced by it;
* ``t`` disappears: the rule functions lose their first parameter and call each other by name
  in one generated module (``base.charge(t, g, ...)`` becomes ``charge(g, ...)``).

Nothing else changes, so the generated functions are the readable ones restricted to this
config (the tests play every bundled ruleset on both and compare the games). The module's
source is kept (``SpecialisedSource.text``) and registered with ``linecache``, so a traceback
shows the generated line.
"""

from __future__ import annotations

import ast
import copy
import inspect
import linecache
import operator
import textwrap
import types
from dataclasses import dataclass, is_dataclass
from typing import Any, Callable

from ..config import EngineConfig
from .bound import Engine, rule_functions, takes_tables
from .rules import FAMILIES
from .tables import Tables


class K(ast.expr):
    """A value known when specialising (an expression node while the passes run)."""

    _fields = ()

    def __init__(self, value: Any, name: str | None = None):
        super().__init__()
        self.value = value
        self.name = name            # where the value was read (the global's name when it is bound)

    def __deepcopy__(self, memo: dict) -> "K":
        return K(self.value, self.name)           # the value itself is shared, never copied


def _literal(v: Any) -> bool:
    if v is None or type(v) in (bool, int, float, str):     # exact types: a Reason is a str, not a literal
        return type(v) is not float or v == v and v not in (float("inf"), float("-inf"))
    if type(v) is tuple:
        return all(_literal(x) for x in v)
    return False


#: values whose attributes and items may be read at specialisation time (they never change)
def _frozen(v: Any) -> bool:
    if isinstance(v, (Tables, EngineConfig, tuple, str, types.MappingProxyType, frozenset)):
        return True
    return is_dataclass(v) and not isinstance(v, type) and type(v).__dataclass_params__.frozen


def _method(v: Any) -> bool:
    """A method of a value (kept as a call on the value, not bound at specialisation time)."""
    return isinstance(v, (types.MethodType, types.BuiltinMethodType, types.MethodWrapperType))


_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
            ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
           ast.Div: operator.truediv, ast.Mod: operator.mod}
#: builtins computed on constant arguments
_PURE = {"len": len, "min": min, "max": max, "int": int, "float": float, "bool": bool, "abs": abs}


class _Resolve(ast.NodeTransformer):
    """Reads of ``t``, module constants and other modules' names become K values or generated names."""

    def __init__(self, spec: "Specialiser", fn: Callable):
        self.spec, self.fn, self.globals = spec, fn, fn.__globals__

    def visit_Name(self, node: ast.Name) -> Any:
        if not isinstance(node.ctx, ast.Load):
            return node
        if node.id == "t":
            return K(self.spec.t)
        return self.spec.global_ref(node.id, self.globals, node)

    def visit_Constant(self, node: ast.Constant) -> Any:
        return K(node.value)

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        node = self.generic_visit(node)
        base = node.value
        if isinstance(base, K) and isinstance(node.ctx, ast.Load) and _frozen(base.value):
            value = getattr(base.value, node.attr)
            if not _method(value):
                return K(value, node.attr)
        if isinstance(base, _ModuleRef):
            return self.spec.global_ref(node.attr, vars(base.module), node)
        return node

    def visit_Call(self, node: ast.Call) -> Any:
        node = self.generic_visit(node)
        f = node.func
        if isinstance(f, _RuleRef):
            args = node.args
            if f.takes_t:
                if not (args and isinstance(args[0], K) and args[0].value is self.spec.t):
                    raise SpecialiseError(f"{self.fn.__name__}: {f.name} is called without t first")
                args = args[1:]
            return ast.Call(func=ast.Name(f.name, ast.Load()), args=args, keywords=node.keywords)
        return node


class _ModuleRef(ast.expr):
    _fields = ()

    def __init__(self, module: types.ModuleType):
        super().__init__()
        self.module = module


class _RuleRef(ast.expr):
    _fields = ()

    def __init__(self, name: str, takes_t: bool):
        super().__init__()
        self.name, self.takes_t = name, takes_t


class SpecialiseError(Exception):
    """The readable rules break a convention the specialiser relies on (a bug in the rules' source)."""


class _Fold(ast.NodeTransformer):
    """Compute what the constants decide; drop branches never taken."""

    changed = False

    def _k(self, node: ast.AST, value: Any) -> K:
        self.changed = True
        return ast.copy_location(K(value), node)

    def visit_BoolOp(self, node: ast.BoolOp) -> Any:
        node = self.generic_visit(node)
        is_and = isinstance(node.op, ast.And)
        kept: list[ast.expr] = []
        last = len(node.values) - 1
        for i, v in enumerate(node.values):
            if not isinstance(v, K):
                kept.append(v)
                continue
            if bool(v.value) != is_and:           # decides: a false operand of `and`, a true one of `or`
                if not kept:
                    return self._k(node, v.value)
                kept.append(v)                    # the operands after it are never evaluated
                break
            if i == last:                         # the value when every operand before passes
                kept.append(v)
        if len(kept) == 1:
            self.changed = True
            return kept[0]
        if len(kept) != len(node.values):
            self.changed = True
            node.values = kept
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> Any:
        node = self.generic_visit(node)
        if isinstance(node.operand, K):
            if isinstance(node.op, ast.Not):
                return self._k(node, not node.operand.value)
            if isinstance(node.op, ast.USub) and isinstance(node.operand.value, (int, float)):
                return self._k(node, -node.operand.value)
        return node

    def visit_Compare(self, node: ast.Compare) -> Any:
        node = self.generic_visit(node)
        operands = [node.left] + node.comparators
        if all(isinstance(x, K) for x in operands):
            result = True
            for op, a, b in zip(node.ops, operands, operands[1:]):
                result = result and _COMPARE[type(op)](a.value, b.value)
            return self._k(node, bool(result))
        return node

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        node = self.generic_visit(node)
        if isinstance(node.left, K) and isinstance(node.right, K) and type(node.op) in _BINARY:
            try:
                return self._k(node, _BINARY[type(node.op)](node.left.value, node.right.value))
            except (TypeError, ZeroDivisionError):
                return node
        return node

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        node = self.generic_visit(node)
        if isinstance(node.value, K) and isinstance(node.ctx, ast.Load) and _frozen(node.value.value):
            value = getattr(node.value.value, node.attr)
            if not _method(value):
                return self._k(node, value)

        return node

    def visit_IfExp(self, node: ast.IfExp) -> Any:
        node = self.generic_visit(node)
        node.test = self.truth(node.test)
        if isinstance(node.test, K):
            self.changed = True
            return node.body if node.test.value else node.orelse
        return node

    def visit_Subscript(self, node: ast.Subscript) -> Any:
        node = self.generic_visit(node)
        if (isinstance(node.value, K) and isinstance(node.slice, K) and isinstance(node.ctx, ast.Load)
                and _frozen(node.value.value)):
            try:
                return self._k(node, node.value.value[node.slice.value])
            except (TypeError, KeyError, IndexError):
                return node
        return node

    def visit_Call(self, node: ast.Call) -> Any:
        node = self.generic_visit(node)
        if (isinstance(node.func, ast.Name) and node.func.id in _PURE and not node.keywords
                and all(isinstance(a, K) for a in node.args)):
            return self._k(node, _PURE[node.func.id](*(a.value for a in node.args)))
        return node

    def truth(self, e: ast.expr) -> ast.expr:
        """``e`` where only its truth counts (a test): constants that cannot decide drop out, and one
        that decides after pure operands decides the whole."""
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            e.operand = self.truth(e.operand)
            return self._k(e, not e.operand.value) if isinstance(e.operand, K) else e
        if not isinstance(e, ast.BoolOp):
            return e
        is_and = isinstance(e.op, ast.And)
        out: list[ast.expr] = []
        for v in (self.truth(v) for v in e.values):
            if isinstance(v, K):
                if bool(v.value) == is_and:        # True in `and`, False in `or`: no effect on the truth
                    self.changed = True
                    continue
                if all(_pure(x) for x in out):
                    return self._k(e, not is_and)
                out.append(v)
                break
            out.append(v)
        if not out:
            return self._k(e, is_and)
        if len(out) == 1:
            self.changed = True
            return out[0]
        if len(out) != len(e.values):
            self.changed = True
            e.values = out
        return e

    def visit_If(self, node: ast.If) -> Any:
        node = self.generic_visit(node)
        node.test = self.truth(node.test)
        if isinstance(node.test, K):
            self.changed = True
            return (node.body if node.test.value else node.orelse) or []
        return node

    def visit_While(self, node: ast.While) -> Any:
        node = self.generic_visit(node)
        node.test = self.truth(node.test)
        if isinstance(node.test, K) and not node.test.value:
            self.changed = True
            return node.orelse or []
        return node


def _assigned(fn: ast.FunctionDef) -> dict[str, int]:
    """How many times each local name is bound in the function (parameters, targets, loops, ...)."""
    counts: dict[str, int] = {}
    for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs:
        counts[a.arg] = counts.get(a.arg, 0) + 2          # a parameter is never a constant
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            counts[node.id] = counts.get(node.id, 0) + 1
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            counts[node.target.id] = counts.get(node.target.id, 0) + 2
        elif isinstance(node, (ast.For, ast.comprehension, ast.NamedExpr, ast.With)):
            pass                                            # their targets are Name(Store) nodes, counted above
    return counts


class _Propagate(ast.NodeTransformer):
    """A local bound exactly once in the function, from a constant: every use becomes the constant (a use
    the binding did not reach first would be an UnboundLocalError in the readable rules)."""

    def __init__(self, fn: ast.FunctionDef):
        self.counts = _assigned(fn)
        self.known: dict[str, K] = {}
        self.changed = False
        for stmt in ast.walk(fn):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                self._record(stmt.targets[0], stmt.value)

    def _record(self, target: ast.expr, value: ast.expr) -> None:
        if isinstance(target, ast.Name) and isinstance(value, K) and self.counts.get(target.id) == 1:
            self.known[target.id] = value
        elif isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
            for a, b in zip(target.elts, value.elts):
                self._record(a, b)

    def visit_Name(self, node: ast.Name) -> Any:
        if isinstance(node.ctx, ast.Load) and node.id in self.known:
            self.changed = True
            known = self.known[node.id]
            return ast.copy_location(K(known.value, known.name), node)
        return node

    def visit_Assign(self, node: ast.Assign) -> Any:
        names = [n.id for n in ast.walk(node.targets[0]) if isinstance(n, ast.Name)]
        if names and all(n in self.known for n in names) and len(node.targets) == 1:
            if isinstance(node.value, K) or (isinstance(node.value, ast.Tuple)
                                             and all(isinstance(v, K) for v in node.value.elts)):
                self.changed = True
                return []
        return self.generic_visit(node)


class _Cleanup(ast.NodeTransformer):
    """No statement after one that always leaves the block; no empty block; no bare constant statement."""

    changed = False

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if not isinstance(block, list) or (block and not isinstance(block[0], ast.stmt)):
                continue
            if not block:
                if name == "body" and isinstance(node, (ast.If, ast.For, ast.While, ast.With, ast.Try,
                                                        ast.FunctionDef, ast.ExceptHandler)):
                    node.body = [ast.Pass()]
                continue
            out: list[ast.stmt] = []
            for i, stmt in enumerate(block):
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, K) and not (
                        i == 0 and isinstance(node, ast.FunctionDef)):
                    self.changed = True
                    continue
                out.append(stmt)
                if isinstance(stmt, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
                    self.changed = self.changed or i < len(block) - 1
                    break
            if not out and name in ("body",):
                out = [ast.Pass()]
            setattr(node, name, out)
        return node


class _Emit(ast.NodeTransformer):
    """K values become literals or names of module globals bound to them."""

    def __init__(self, spec: "Specialiser"):
        self.spec = spec

    def visit_K(self, node: K) -> ast.expr:
        return ast.copy_location(self.spec.emit(node.value, node.name), node)

    def visit_arg(self, node: ast.arg) -> ast.arg:
        node.annotation = None
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        node.returns = None
        node.decorator_list = []
        return self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> Any:
        if node.value is None:
            return []
        return ast.copy_location(ast.Assign(targets=[node.target], value=self.visit(node.value)), node)


@dataclass(frozen=True)
class SpecialisedSource:
    """The generated module of one config: its source and the globals it runs with."""

    text: str
    namespace: dict
    filename: str


class Specialiser:
    """Generates the rule functions of one config (``t``) as one module."""

    def __init__(self, t: Tables):
        self.t = t
        self.functions = rule_functions()
        self.modules = {m.__name__: m for m in FAMILIES}
        self.bound: dict[int, tuple[str, Any]] = {}       # id(value) -> (global name, value)
        self.names: set[str] = set(self.functions)

    # ---- names
    def global_ref(self, name: str, scope: dict, node: ast.AST) -> Any:
        """A module-level name of a rule module: another family module, a rule function, or a value."""
        if name not in scope:
            return node                                     # a local, a builtin
        v = scope[name]
        if isinstance(v, types.ModuleType) and v in FAMILIES:
            return _ModuleRef(v)
        if inspect.isfunction(v) and self.functions.get(v.__name__) is v:
            return _RuleRef(v.__name__, takes_tables(v))
        return K(v, name)

    def _bind(self, hint: str, v: Any) -> str:
        hit = self.bound.get(id(v))
        if hit is not None:
            return hit[0]
        name = hint if hint.isidentifier() and hint.isupper() else "_" + (hint if hint.isidentifier() else "K")
        base, k = name, 1
        while name in self.names:
            k += 1
            name = f"{base}_{k}"
        self.names.add(name)
        self.bound[id(v)] = (name, v)
        return name

    def emit(self, v: Any, hint: str | None = None) -> ast.expr:
        if _literal(v):
            return ast.Constant(v)
        hint = hint or getattr(v, "__name__", None) or "_K"
        return ast.Name(self._bind(hint, v), ast.Load())

    # ---- functions
    def function(self, fn: Callable) -> ast.FunctionDef:
        """One rule function with ``t`` read and folded away."""
        node = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
        assert isinstance(node, ast.FunctionDef)
        if takes_tables(fn):
            node.args.args = node.args.args[1:]
        _rename_locals(node, set(self.functions))
        node = _simplify(_Resolve(self, fn).visit(node))
        for sub in ast.walk(node):
            if isinstance(sub, (_ModuleRef, _RuleRef)):
                raise SpecialiseError(f"{fn.__name__}: a rule module or function is used as a value")
            if isinstance(sub, K) and sub.value is self.t:
                raise SpecialiseError(f"{fn.__name__}: the tables t are used as a value")
        return node

    def generate(self) -> SpecialisedSource:
        defs = {name: self.function(fn) for name, fn in self.functions.items()}
        for _ in range(6):                  # inlining can make more functions one expression
            bodies = {name: e for name, d in defs.items() if (e := _expression_body(d)) is not None}
            inline = _InlineExpressions(bodies, defs)
            changed = False
            for name, d in defs.items():
                inline.current = name
                before = inline.count
                d = inline.visit(d)
                if inline.count != before:
                    defs[name] = _simplify(d)
                    changed = True
            if not changed:
                break
        module = ast.Module(body=[_Emit(self).visit(d) for d in defs.values()], type_ignores=[])
        ast.fix_missing_locations(module)
        body = ast.unparse(module)
        head = (f'"""The rules of config {self.t.cfg.hash()}, specialised (generated by verify.engine.specialise '
                'from verify/engine/rules: do not edit)."""\n\n')
        text = head + body + "\n"
        namespace = {name: v for name, v in self.bound.values()}
        namespace["__name__"] = f"verify.engine.specialised_{self.t.cfg.hash()}"
        return SpecialisedSource(text, namespace, f"<specialised rules {self.t.cfg.hash()}>")


def _rename_locals(fn: ast.FunctionDef, taken: set[str]) -> None:
    """A local named like a rule function (``building_sale = ...`` beside ``base.building_sale``) is renamed:
    in the generated module every rule function is a global of that name."""
    params = {a.arg for a in fn.args.args + fn.args.kwonlyargs} & taken
    if params:
        raise SpecialiseError(f"{fn.name}: a parameter is named like a rule function: {sorted(params)}")
    clash = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))} & taken
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and n.id in clash:
            n.id += "_"


def _simplify(node: ast.FunctionDef) -> ast.FunctionDef:
    """Propagate, fold, clean and drop dead stores until nothing changes."""
    for _ in range(50):
        prop = _Propagate(node)
        node = prop.visit(node)
        fold = _Fold()
        node = fold.visit(node)
        clean = _Cleanup()
        node = clean.visit(node)
        dead = _DeadStores(node)
        node = dead.visit(node)
        if not (prop.changed or fold.changed or clean.changed or dead.changed):
            break
    return node


def _pure(e: ast.expr) -> bool:
    """Evaluating ``e`` changes nothing (names, constants, reads of attributes and items, operators on them)."""
    if isinstance(e, (ast.Name, K, ast.Constant)):
        return True
    if isinstance(e, ast.Attribute):
        return _pure(e.value)
    if isinstance(e, ast.Subscript):
        return _pure(e.value) and _pure(e.slice)
    if isinstance(e, ast.BinOp):
        return _pure(e.left) and _pure(e.right)
    if isinstance(e, ast.UnaryOp):
        return _pure(e.operand)
    if isinstance(e, ast.Compare):
        return _pure(e.left) and all(_pure(c) for c in e.comparators)
    if isinstance(e, ast.BoolOp):
        return all(_pure(v) for v in e.values)
    if isinstance(e, ast.IfExp):
        return _pure(e.test) and _pure(e.body) and _pure(e.orelse)
    if isinstance(e, ast.Tuple):
        return all(_pure(x) for x in e.elts)
    return False


class _DeadStores(ast.NodeTransformer):
    """An assignment of a pure value to locals never read is dropped."""

    def __init__(self, fn: ast.FunctionDef):
        self.loaded = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        self.changed = False

    def visit_Assign(self, node: ast.Assign) -> Any:
        names = [n for t in node.targets for n in ast.walk(t)]
        if (all(isinstance(n, (ast.Name, ast.Tuple)) for n in names) and _pure(node.value)
                and not any(isinstance(n, ast.Name) and n.id in self.loaded for n in names)):
            self.changed = True
            return []
        return node


def _expression_body(fn: ast.FunctionDef) -> ast.expr | None:
    """The expression a function returns when its body is that one ``return`` (a docstring aside)."""
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, (ast.Constant, K)):
        body = body[1:]
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        if fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs or fn.args.posonlyargs:
            return None
        if any(isinstance(n, (ast.Lambda, ast.NamedExpr)) for n in ast.walk(body[0].value)):
            return None
        return body[0].value
    return None


class _Substitute(ast.NodeTransformer):
    def __init__(self, values: dict[str, ast.expr]):
        self.values = values

    def visit_Name(self, node: ast.Name) -> Any:
        if isinstance(node.ctx, ast.Load) and node.id in self.values:
            return copy.deepcopy(self.values[node.id])
        return node


class _InlineExpressions(ast.NodeTransformer):
    """A call of a rule function that is one returned expression, with pure arguments, becomes that
    expression with the arguments in place of the parameters."""

    def __init__(self, bodies: dict[str, ast.expr], defs: dict[str, ast.FunctionDef]):
        self.bodies, self.defs = bodies, defs
        self.current = ""
        self.count = 0

    def visit_Call(self, node: ast.Call) -> Any:
        node = self.generic_visit(node)
        f = node.func
        if not (isinstance(f, ast.Name) and f.id in self.bodies and f.id != self.current):
            return node
        fn = self.defs[f.id]
        params = [a.arg for a in fn.args.args]
        if any(isinstance(a, ast.Starred) for a in node.args) or len(node.args) > len(params):
            return node
        values: dict[str, ast.expr] = dict(zip(params, node.args))
        for kw in node.keywords:
            if kw.arg is None or kw.arg not in params or kw.arg in values:
                return node
            values[kw.arg] = kw.value
        defaults = dict(zip(params[len(params) - len(fn.args.defaults):], fn.args.defaults))
        for p in params:
            if p not in values:
                if p not in defaults:
                    return node
                values[p] = defaults[p]
        if not all(_pure(v) for v in values.values()):
            return node
        body = self.bodies[f.id]
        if any(isinstance(n, ast.Name) and n.id == f.id for n in ast.walk(body)):
            return node                                  # recursive
        self.count += 1
        return _Substitute(values).visit(copy.deepcopy(body))


def source_of(config: EngineConfig) -> SpecialisedSource:
    """The generated module of a config (not run)."""
    return Specialiser(Tables.of(config)).generate()


def specialised(config: EngineConfig) -> Engine:
    """The specialised engine of a config: the generated rule functions, with the same names and
    signatures as the readable ones (less ``t``)."""
    t = Tables.of(config)
    src = Specialiser(t).generate()
    code = compile(src.text, src.filename, "exec")
    linecache.cache[src.filename] = (len(src.text), None, src.text.splitlines(True), src.filename)
    ns = dict(src.namespace)
    exec(code, ns)  # noqa: S102 - our own rules' source, with constants of the config (no spec text)
    functions = {name: ns[name] for name in rule_functions()}
    engine = Engine(t, functions, "specialised")
    engine.source = src
    return engine


__all__ = ["specialised", "source_of", "Specialiser", "SpecialisedSource", "SpecialiseError"]
