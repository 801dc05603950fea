"""What a rule function can reach, read from its source: the rule functions it calls, the refusals it
can give.

The action registry lists each action's refusals from its guard (``refusals_of``),
so the docs and the conformance harness see them without a hand-kept list. The
reading is syntactic and conservative: every name the source mentions that is a
rule function (called) or a ``Reason`` (given) counts.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import types
from functools import lru_cache
from typing import Callable

from .reasons import Reason


@lru_cache(maxsize=None)
def _tree(fn: Callable) -> ast.FunctionDef:
    node = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    assert isinstance(node, ast.FunctionDef), fn
    return node


def _rule_function(obj) -> bool:
    return inspect.isfunction(obj) and obj.__module__.startswith("verify.engine.rules.")


def mentioned(fn: Callable) -> list:
    """The objects of ``fn``'s globals its source names (``name`` or ``module.name``), in source order."""
    out = []
    g = fn.__globals__
    for node in ast.walk(_tree(fn)):
        obj = None
        if isinstance(node, ast.Name) and node.id in g:
            obj = g[node.id]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            mod = g.get(node.value.id)
            if isinstance(mod, types.ModuleType):
                obj = getattr(mod, node.attr, None)
        if obj is not None:
            out.append(obj)
    return out


def reached(fn: Callable) -> list[Callable]:
    """``fn`` and every rule function it calls, transitively (each once)."""
    seen: list[Callable] = []
    todo = [fn]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.append(f)
        todo.extend(obj for obj in mentioned(f) if _rule_function(obj))
    return seen


def refusals_reached(guard: Callable) -> list[Reason]:
    """The refusals a guard can give: the ``Reason`` objects it and the rule functions it calls name."""
    out: list[Reason] = []
    for f in reached(guard):
        for obj in mentioned(f):
            if isinstance(obj, Reason) and not any(obj is r for r in out):
                out.append(obj)
    return out


__all__ = ["mentioned", "reached", "refusals_reached"]
