"""The engine of one config: the code it runs, the config's tables, and each action's guard and effect.

The rules are written once, as functions of ``(t, g, ...)`` in the rule families
(``verify.engine.rules``). An ``Engine`` holds what a caller needs to call them on one config:

* ``engine.t``: the config's tables (``verify.config.tables.Tables``: ``engine.t.price[square]``);
* ``engine.rules``: the rule families of the build it runs, by name, called where they are defined
  (``engine.rules.building.why_not_build_house(engine.t, g, seat, square)``);
* ``engine.dispatch``: action type -> (guard, effect), each called as ``(g, seat, *the action's
  fields)`` (the tables already given): the typed table the step API and the game loop use;
* ``engine.new_game``, ``engine.from_json``, ``engine.to_json``: states of its build.

The code an engine runs (``Code``: the state, the tables, the rule families, the bots and the game
loop) is one of two builds of the same source files: ``readable_code()``, the modules of
``verify.engine`` as written (the reference), or the compiled build (``verify.engine.native``: the
same files compiled by mypyc into the package). A compiled rule takes only its own build's tables
and states, so a caller reaches the rules through its engine, never by importing a family.

``verify.engine.engines.rules_for(config)`` returns the engine every caller uses (cached per config).
"""

from __future__ import annotations

import inspect
import random
from dataclasses import dataclass
from functools import partial
from types import ModuleType
from typing import Any, Callable

from ..config import EngineConfig, tables
from . import policies, state
from .actions import ACTIONS
from .rules import FAMILIES

#: a guard: the refusal, or None when the action is legal; an effect: performs it
Guard = Callable[..., Any]
Effect = Callable[..., None]


@dataclass(frozen=True)
class Rules:
    """One build's rule families, by name (the order and the meaning of each: ``verify.engine.rules``)."""

    base: ModuleType
    cards: ModuleType
    construction: ModuleType
    movement: ModuleType
    flow: ModuleType
    auctions: ModuleType
    building: ModuleType
    mortgages: ModuleType
    trades: ModuleType
    debts: ModuleType
    turns: ModuleType
    extras: ModuleType


class Code:
    """The modules one engine runs (``path``: ``readable`` or ``compiled``): ``state``, ``tables``,
    ``rules`` (the rule families), ``policies`` and ``loop``."""

    def __init__(self, path: str, state: ModuleType, tables: ModuleType, families: dict[str, ModuleType],
                 policies: ModuleType, loop: ModuleType, config_of: Callable[[EngineConfig], Any] | None = None,
                 where: str = ""):
        self.path, self.state, self.tables = path, state, tables
        self.rules = Rules(**families)
        self.policies, self.loop = policies, loop
        #: the config as these modules' tables take it (the compiled build's own model classes)
        self.config_of = config_of or (lambda config: config)
        self.where = where          # the compiled build's folder ("" for the readable modules)

    def own(self, fn: Callable) -> Callable:
        """This build's function of the same family and name as the readable rule function ``fn``."""
        return getattr(getattr(self.rules, family(fn)), fn.__name__)

    def __repr__(self) -> str:
        return f"<Code {self.path}{' ' + self.where if self.where else ''}>"


class Engine:
    """One config's tables and the rules of one build (``code``) to play them."""

    def __init__(self, config: EngineConfig, code: Code):
        t = code.tables.Tables.of(code.config_of(config))
        self.t = t
        self.config = config
        self.code = code
        self.path = code.path
        self.rules: Rules = code.rules
        #: the class of the game state this engine's rules take (``from_json`` builds one)
        self.GameState = code.state.GameState
        #: action type -> (guard, effect), each called as (g, seat, *the action's fields)
        self.dispatch: dict[str, tuple[Guard, Effect]] = {
            a.name: (partial(code.own(a.guard), t), partial(code.own(a.effect), t)) for a in ACTIONS.values()}
        #: action type -> (its effect, its fields with their defaults): the game loop's table (``loop.dispatch``)
        self.effects = code.loop.dispatch({name: pair[1] for name, pair in self.dispatch.items()})
        #: an action's precondition (a readable rule function) -> this build's, called as (g, seat)
        self.precondition: dict[Callable, Callable[..., bool]] = {
            a.precondition: partial(code.own(a.precondition), t) for a in ACTIONS.values() if a.precondition}

    def new_game(self, players: int, rng: random.Random) -> Any:
        """A new game of ``players`` (this build's ``GameState``)."""
        return self.rules.base.new_game(self.t, players, rng)

    def from_json(self, state: dict) -> Any:
        """The canonical state (``verify.state/1``) as this engine's ``GameState``."""
        return self.GameState.from_json(state, self.t.ownable, self.t.size)

    def to_json(self, g: Any) -> dict:
        return g.to_json(self.t.ownable)

    def __repr__(self) -> str:
        return f"<Engine {self.path} {self.config.hash()}>"


def family(fn: Callable) -> str:
    """The rule family a rule function is defined in."""
    return fn.__module__.rsplit(".", 1)[-1]


def rule_functions() -> dict[str, Callable]:
    """Every function of the readable rule families, as ``family.name``."""
    return {f"{family(fn)}.{name}": fn for mod in FAMILIES for name, fn in vars(mod).items()
            if inspect.isfunction(fn) and fn.__module__ == mod.__name__}


_READABLE: Code | None = None


def readable_code() -> Code:
    """The engine's modules as written."""
    global _READABLE
    if _READABLE is None:
        from . import loop      # the game loop imports the step API, which imports this module
        _READABLE = Code("readable", state, tables, {family_of(m): m for m in FAMILIES}, policies, loop)
    return _READABLE


def family_of(mod: ModuleType) -> str:
    return mod.__name__.rsplit(".", 1)[-1]


def readable(config: EngineConfig) -> Engine:
    """The reference engine of a config: the readable rule functions with its tables."""
    return Engine(config, readable_code())


__all__ = ["Code", "Engine", "Rules", "readable", "readable_code", "rule_functions", "family"]
