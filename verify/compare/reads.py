"""Which rule parameters a witness's actions read: the engine replayed with its config watched.

A witness says what each side rests on in what it plays: every parameter the
situation's actions read whose evidence on that side is not a quote (assumed,
silent, borrowed, supplied...). Which parameters those are is not guessed from
the question: the witness's actions are applied again by the readable engine
whose tables and config record every field a rule reads, and the fields are
mapped back to the catalogue's parameters (``verify.config.parameters``: where
each parameter goes; ``TABLE_READS`` below: what each derived table is made of).
"""

from __future__ import annotations

from dataclasses import is_dataclass
from functools import partial
from typing import Any

from ..config import EngineConfig
from ..config.parameters import PLACES, Derived, Field
from ..engine.actions import ACTIONS
from ..engine.bound import readable, rule_functions, takes_tables
from ..engine.rules import IllegalAction
from ..engine.step import apply_state
from ..errors import GameError

#: What each of the engine's derived tables (``verify.engine.tables.Tables``) is made of, as config fields
#: (``board.deeds``: the deeds' printed figures, in the game's money). A test holds this to the tables' fields.
TABLE_READS: dict[str, tuple[str, ...]] = {
    "kind": ("board.squares",),
    "is_ownable": ("board.deeds",), "price": ("board.deeds",), "rents": ("board.deeds",), "house_cost": ("board.deeds",),
    "group_of": ("board.deeds",), "next_station": ("board.deeds",), "next_utility": ("board.deeds",), "ownable": ("board.deeds",),
    "groups": ("board.deeds",), "group_kind": ("board.deeds",), "street_squares": ("board.deeds",), "street_groups": ("board.deeds",),
    "street_group_squares": ("board.deeds",), "stations": ("board.deeds",), "utilities": ("board.deeds",),
    "mortgage_value": ("board.deeds", "mortgage.value_ratio"),
    "interest": ("board.deeds", "mortgage.value_ratio", "mortgage.interest_rate", "mortgage.interest_base"),
    "transfer_interest": ("board.deeds", "mortgage.value_ratio", "mortgage.interest_rate",
                          "debt.transfer_interest_base"),
    "sell_house_value": ("board.deeds", "building.sell_ratio"),
    "cards": ("cards.chance", "cards.chest"), "jail_card": ("cards.chance", "cards.chest"),
    "hotel_level": ("building.hotel_threshold",),
    "hotel_back": ("building.hotel_threshold", "building.hotel_returns_houses"),
    "pot_kinds": ("taxes.pot_card_payments",),
    "minutes_per_turn": ("clock.seconds_per_turn",),
    "minutes_per_timeout": ("clock.turn_seconds", "clock.seconds_per_turn"),
    "must_claim": ("rent.owner_must_claim", "rent.claim_deadline"),
    "claim_turns": ("rent.claim_deadline",),
    "white": ("speed_die.enabled", "movement.dice_count"),
    "mr_faces_top": ("speed_die.pip_faces", "speed_die.mr_monopoly_faces"),
    "lift_at_once": ("mortgage.transfer_interest", "mortgage.transfer_lift_at_once"),
    "limit_end": ("end.condition",),
    "sold_vanish": ("building.supply_accounting",), "builds_free": ("building.supply_accounting",),
    "shortage_auction": ("building.shortage_auction", "building.house_supply", "building.hotel_supply"),
}


class _Watched:
    """A config section (or the config, or the tables) whose attribute reads are written to ``log``."""

    __slots__ = ("_obj", "_prefix", "_log")

    def __init__(self, obj: Any, prefix: str, log: set[str]):
        object.__setattr__(self, "_obj", obj)
        object.__setattr__(self, "_prefix", prefix)
        object.__setattr__(self, "_log", log)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._obj, name)
        path = self._prefix + name
        if self._prefix == "" and is_dataclass(value):       # a section of the config: watch its fields
            return _Watched(value, name + ".", self._log)
        self._log.add(path)
        return value


class _WatchedTables:
    __slots__ = ("_t", "_log", "_cfg")

    def __init__(self, t: Any, log: set[str]):
        object.__setattr__(self, "_t", t)
        object.__setattr__(self, "_log", log)
        object.__setattr__(self, "_cfg", _Watched(t.cfg, "", log))

    def __getattr__(self, name: str) -> Any:
        if name == "cfg":
            return self._cfg
        self._log.update(TABLE_READS.get(name, ()))
        return getattr(self._t, name)


def _watched_engine(cfg: EngineConfig, log: set[str]):
    """The readable engine of ``cfg`` with every rule bound to tables that record what they are asked."""
    eng = readable(cfg)
    t = _WatchedTables(eng.t, log)
    for name, fn in rule_functions().items():
        own = getattr(eng.code.families[fn.__module__.rsplit(".", 1)[-1]], name)
        setattr(eng, name, partial(own, t) if takes_tables(fn) else own)
    eng.dispatch = {a.name: (getattr(eng, a.guard.__name__), getattr(eng, a.effect.__name__))
                    for a in ACTIONS.values()}
    return eng


def fields_read(cfg: EngineConfig, state: dict, actions: list[dict], refused: dict | None = None) -> set[str]:
    """The config fields the engine reads applying ``actions`` to ``state`` (and asking about ``refused``,
    the action the rules turned down): ``section.field``, ``board...``, ``cards.chance``..."""
    log: set[str] = set()
    eng = _watched_engine(cfg, log)
    g = eng.from_json(state)
    g.events = []
    for action in list(actions) + ([refused] if refused else []):
        try:
            apply_state(eng, g, action)
        except (IllegalAction, GameError):
            break
    return log


def _by_field() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for pid, place in PLACES.items():
        if isinstance(place, Field):
            out.setdefault(f"{place.section}.{place.name}", set()).add(pid)
            if place.gate:
                out[f"{place.section}.{place.name}"].add(place.gate)
        elif isinstance(place, Derived):
            for f in place.fields:
                out.setdefault(f, set()).add(pid)
    return out


_BY_FIELD = _by_field()
#: a deed's printed figures, in the game's money
_DEEDS = {"board.deeds", "money.scale"}


def params_read(fields: set[str], ruleset) -> set[str]:
    """The catalogue parameters behind config ``fields`` (a symbol standing for another parameter's value,
    such as the salary's stop at ``tax_start``, reads that parameter too)."""
    out: set[str] = set()
    for f in fields:
        if f.startswith("board") and f not in _BY_FIELD or f == "board":
            out |= _DEEDS
        else:
            out |= _BY_FIELD.get(f, set())
    for pid in list(out):
        place = PLACES.get(pid)
        if isinstance(place, Field) and place.refs:
            ref = place.refs.get(ruleset.value(pid)) if isinstance(ruleset.value(pid), str) else None
            if ref:
                out.add(ref)
    return out


__all__ = ["TABLE_READS", "fields_read", "params_read"]
