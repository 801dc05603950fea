"""The engine of one config: the code it runs, its tables, and every rule function bound to them.

The rules are written once, as functions of ``(t, g, ...)`` (``verify.engine.rules``).
An ``Engine`` is what the step API, the game loop, the bots and the conformance
harness call: ``engine.roll(g, seat, dice)``, ``engine.why_not_build_house(g, seat,
square)``, ``engine.price[square]``... Its attributes are the config's tables
(``verify.config.tables.Tables``, also as ``engine.t``) and one callable per rule
function, with ``t`` already given.

The code an engine runs (``Code``: the state, the tables, the rule families, the bots and
the game loop) is one of two builds of the same source files:

* ``readable_code()``: the modules of ``verify.engine`` as written (the reference);
* the compiled build (``verify.engine.native``): the same files compiled by mypyc, loaded
  from a cache keyed by their source, so a changed rule is never played by a stale build.

``verify.engine.engines.rules_for(config)`` returns the engine every caller uses (cached per config).
"""

from __future__ import annotations

import inspect
from functools import partial
from types import ModuleType
from typing import Any, Callable

from ..config import EngineConfig, tables
from ..config.tables import TABLE_FIELDS
from . import policies, state
from .actions import ACTIONS
from .rules import FAMILIES


class Code:
    """The modules one engine runs (``path``: ``readable`` or ``compiled``): ``state``, ``tables``,
    ``families`` (the rule modules by family name), ``policies`` and ``loop``."""

    def __init__(self, path: str, state: ModuleType, tables: ModuleType, families: dict[str, ModuleType],
                 policies: ModuleType, loop: ModuleType, config_of: Callable[[EngineConfig], Any] | None = None,
                 where: str = ""):
        self.path, self.state, self.tables, self.families = path, state, tables, families
        self.policies, self.loop = policies, loop
        #: the config as these modules' tables take it (the compiled build's own model classes)
        self.config_of = config_of or (lambda config: config)
        self.where = where          # the compiled build's folder ("" for the readable modules)

    def __repr__(self) -> str:
        return f"<Code {self.path}{' ' + self.where if self.where else ''}>"


class Engine:
    """One config's tables and rule functions, run by ``code``."""

    def __init__(self, config: EngineConfig, code: Code):
        t = code.tables.Tables.of(code.config_of(config))
        self.t = t
        self.config = config
        self.code = code
        self.path = code.path
        #: the class of the game state this engine's rules take (``from_json`` builds one)
        self.GameState = code.state.GameState
        for name in TABLE_FIELDS:
            setattr(self, name, getattr(t, name))
        functions = rule_functions()
        clash = set(functions) & (set(TABLE_FIELDS) | set(vars(self)) | {"dispatch", "from_json", "to_json"})
        if clash:
            raise AssertionError(f"rule functions named like tables: {sorted(clash)}")
        for name, fn in functions.items():
            own = getattr(code.families[_family(fn)], name)
            setattr(self, name, partial(own, t) if takes_tables(fn) else own)
        #: action type -> (guard, effect), each called as (g, seat, *the action's fields)
        self.dispatch: dict[str, tuple[Callable, Callable]] = {
            a.name: (getattr(self, a.guard.__name__), getattr(self, a.effect.__name__)) for a in ACTIONS.values()}

    def from_json(self, state: dict) -> Any:
        """The canonical state (``verify.state/1``) as this engine's ``GameState``."""
        return self.GameState.from_json(state, self.ownable)

    def to_json(self, g: Any) -> dict:
        return g.to_json(self.ownable)

    def __repr__(self) -> str:
        return f"<Engine {self.path} {self.config.hash()}>"


def _family(fn: Callable) -> str:
    return fn.__module__.rsplit(".", 1)[-1]


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


_READABLE: Code | None = None


def readable_code() -> Code:
    """The engine's modules as written."""
    global _READABLE
    if _READABLE is None:
        from . import loop      # the game loop imports the step API, which imports this module
        _READABLE = Code("readable", state, tables, {_family_of(m): m for m in FAMILIES}, policies, loop)
    return _READABLE


def _family_of(mod: ModuleType) -> str:
    return mod.__name__.rsplit(".", 1)[-1]


def readable(config: EngineConfig) -> Engine:
    """The reference engine of a config: the readable rule functions with its tables bound."""
    return Engine(config, readable_code())


__all__ = ["Code", "Engine", "readable", "readable_code", "rule_functions", "takes_tables"]
