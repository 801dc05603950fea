"""The engine of one config: its tables and every rule function bound to them.

The rules are written once, as functions of ``(t, g, ...)`` (``verify.engine.rules``).
An ``Engine`` is what the step API, the game loop, the bots and the conformance
harness call: ``engine.roll(g, seat, dice)``, ``engine.why_not_build_house(g, seat,
square)``, ``engine.price[square]``... Its attributes are the config's tables
(``verify.engine.tables.Tables``, also as ``engine.t``) and one callable per rule
function, with ``t`` already given. Two kinds are built from the same source:

* ``readable(config)``: the rule functions themselves, ``t`` bound with
  ``functools.partial`` (the reference: the only place a rule is written);
* ``specialised(config)`` (``verify.engine.specialise``): the same functions
  generated for this config, every read of ``t`` replaced by its value and every
  branch on it folded, so rules the ruleset switches off are not there at all.

``verify.engine.engines.rules_for(config)`` returns the engine every caller uses (cached per config).
"""

from __future__ import annotations

import inspect
from functools import partial
from typing import Callable

from ..config import EngineConfig
from .actions import ACTIONS
from .rules import FAMILIES
from .tables import TABLE_FIELDS, Tables

class Engine:
    """One config's tables and rule functions (``path``: ``readable`` or ``specialised``)."""

    def __init__(self, t: Tables, functions: dict[str, Callable], path: str):
        self.t = t
        self.config = t.cfg
        self.path = path
        for name in TABLE_FIELDS:
            setattr(self, name, getattr(t, name))
        clash = set(functions) & (set(TABLE_FIELDS) | {"t", "config", "path", "dispatch"})
        if clash:
            raise AssertionError(f"rule functions named like tables: {sorted(clash)}")
        for name, fn in functions.items():
            setattr(self, name, fn)
        #: action type -> (guard, effect), each called as (g, seat, *the action's fields)
        self.dispatch: dict[str, tuple[Callable, Callable]] = {
            a.name: (getattr(self, a.guard.__name__), getattr(self, a.effect.__name__)) for a in ACTIONS.values()}

    def __repr__(self) -> str:
        return f"<Engine {self.path} {self.config.hash()}>"


def rule_functions() -> dict[str, Callable]:
    """Every function of the rule families, by name (names are unique across the families)."""
    out: dict[str, Callable] = {}
    for mod in FAMILIES:
        for name, fn in vars(mod).items():
            if inspect.isfunction(fn) and fn.__module__ == mod.__name__:
                if name in out:
                    raise AssertionError(f"rule function {name} defined twice ({out[name].__module__}, {mod.__name__})")
                out[name] = fn
    return out


def takes_tables(fn: Callable) -> bool:
    params = list(inspect.signature(fn).parameters)
    return bool(params) and params[0] == "t"


def readable(config: EngineConfig) -> Engine:
    """The reference engine of a config: the rule functions with its tables bound."""
    t = Tables.of(config)
    return Engine(t, {name: partial(fn, t) if takes_tables(fn) else fn for name, fn in rule_functions().items()},
                  "readable")


__all__ = ["Engine", "readable", "rule_functions", "takes_tables"]
