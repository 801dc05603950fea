"""Which rule parameters a witness's actions read: the engine replayed with its config watched.

A witness says what each side rests on in what it plays: every parameter the
situation's actions read whose evidence on that side is not a quote (assumed,
silent, borrowed, supplied...). Which parameters those are is not guessed from
the question: the witness's actions are applied again by the readable engine,
its rules bound to tables that record every config value they read — the
config through ``verify.smt.reads.Recorder``, each derived table (prices,
interest, refunds...) through ``TableView``, which derives it on first read by
the function ``Tables.of`` uses and so logs exactly the config values it is made
of — and the values are mapped back to the catalogue's parameters
(``verify.config.parameters``: where each parameter goes).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..config import EngineConfig
from ..config.parameters import PLACES, Derived, Field
from ..engine.actions import ACTIONS
from ..engine.bound import readable
from ..engine.rules import IllegalAction
from ..engine.step import apply_state
from ..errors import GameError
from ..smt.reads import Log, Recorder, TableView

#: Tables made of the deeds' mortgage values, which the board is compiled with from mortgage.value.
_MORTGAGE_TABLES = {"mortgage_value", "interest", "transfer_interest"}


class _Tables:
    """The tables a rule is bound to: ``cfg`` is the recorded config, every other field a recorded table."""

    __slots__ = ("_rec", "_view", "_names")

    def __init__(self, cfg: EngineConfig, log: Log):
        rec = Recorder(cfg, log)
        object.__setattr__(self, "_rec", rec)
        object.__setattr__(self, "_view", TableView(rec))
        object.__setattr__(self, "_names", set())

    def __getattr__(self, name: str) -> Any:
        if name == "cfg":
            return self._rec
        self._names.add(name)
        return getattr(self._view, name)


def _watched_engine(cfg: EngineConfig, t: _Tables):
    """The readable engine of ``cfg`` with each action's guard and effect given tables that record what
    they are asked (the rules hand their tables on to each other, so every read goes through them)."""
    eng = readable(cfg)
    code = eng.code
    eng.dispatch = {a.name: (partial(code.own(a.guard), t), partial(code.own(a.effect), t))
                    for a in ACTIONS.values()}
    eng.precondition = {a.precondition: partial(code.own(a.precondition), t)
                        for a in ACTIONS.values() if a.precondition}
    return eng


def fields_read(cfg: EngineConfig, state: dict, actions: list[dict], refused: dict | None = None) -> set[str]:
    """The config values the engine reads applying ``actions`` to ``state`` (and asking about ``refused``,
    the action the rules turned down): ``section.field`` paths, ``table:NAME`` for a derived table."""
    log = Log()
    t = _Tables(cfg, log)
    eng = _watched_engine(cfg, t)
    g = eng.from_json(state)
    g.events = []
    for action in list(actions) + ([refused] if refused else []):
        try:
            apply_state(eng, g, action)
        except (IllegalAction, GameError):
            break
    return {".".join(path) for path in log.all} | {f"table:{n}" for n in t._names}


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
        if f.startswith("table:"):
            if f[6:] in _MORTGAGE_TABLES:
                out.add("mortgage.value")
        elif f.startswith("board") and f not in _BY_FIELD:
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


__all__ = ["fields_read", "params_read"]
