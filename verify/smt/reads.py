"""Which config values an encoding read: the canonical key under which its results are reused.

The SMT model reads the EngineConfig through a :class:`Recorder`, which logs
every leaf value read (``building.max_houses``, ``board.deeds`` ...). An
encoding depends on nothing else, so a second ruleset that has the same
values at every logged path yields the identical formula and the identical
verdicts: its checks are answered from the first one without building or
solving anything. (Branches taken on other values would read other paths,
so the comparison is exact, not a heuristic.)

The config's ``Tables`` (``verify.config.tables``: prices, rents, refunds...) are read
the same way: ``tables_of`` gives a view whose fields are derived on first read by the
very functions ``Tables.of`` uses (``verify.config.tables.DERIVED``), from the recorded
config, so a table read logs exactly the config values that table is made of.
"""

from __future__ import annotations

from dataclasses import is_dataclass
from typing import Any

from ..config.tables import DERIVED, Tables


class Log:
    """The paths read so far (swappable, so that each action gets its own record)."""

    def __init__(self):
        self.entries: dict[tuple[str, ...], Any] = {}
        self.all: dict[tuple[str, ...], Any] = {}     # every read, whatever ``entries`` is now


class Recorder:
    """A read-only view of a frozen dataclass tree that logs every leaf it hands out."""

    __slots__ = ("_obj", "_path", "_log")

    def __init__(self, obj: Any, log: Log, path: tuple[str, ...] = ()):
        object.__setattr__(self, "_obj", obj)
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_log", log)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._obj, name)
        path = self._path + (name,)
        if is_dataclass(value) and not isinstance(value, type):
            return Recorder(value, self._log, path)
        if callable(value):
            raise AttributeError(f"{'.'.join(path)}: methods are not read through the recorder")
        self._log.entries[path] = value
        self._log.all[path] = value
        return value

    def __setattr__(self, name, value):
        raise AttributeError("read-only")


class TableView:
    """The ``Tables`` of a recorded config, one field at a time: a field is derived on its first read
    (``DERIVED``, from the config itself) with the config values it read noted, and every read of it,
    first or not, logs those values in the recorder's current log."""

    __slots__ = ("_cfg", "_log", "_done")

    def __init__(self, recorder: Recorder):
        object.__setattr__(self, "_cfg", recorder._obj)
        object.__setattr__(self, "_log", recorder._log)
        object.__setattr__(self, "_done", {})

    def __getattr__(self, name: str) -> Any:
        done = self._done.get(name)
        if done is None:
            derive = DERIVED.get(name)
            if derive is None:
                raise AttributeError(f"tables.{name}: not a derived table")
            own = Log()
            done = self._done[name] = (derive(Recorder(self._cfg, own)), dict(own.all))
        value, reads = done
        self._log.entries.update(reads)
        self._log.all.update(reads)
        return value

    def __setattr__(self, name, value):
        raise AttributeError("read-only")


def tables_of(cfg: Any) -> Any:
    """The ``Tables`` of a config; of a recorded config, a ``TableView`` (each read logged)."""
    if isinstance(cfg, Recorder):
        return TableView(cfg)
    return Tables.of(cfg)


def value_at(obj: Any, path: tuple[str, ...]) -> Any:
    for name in path:
        obj = getattr(obj, name)
    return obj


def same_reads(obj: Any, entries: dict[tuple[str, ...], Any]) -> bool:
    """True when ``obj`` has the logged value at every logged path."""
    try:
        return all(value_at(obj, p) == v for p, v in entries.items())
    except AttributeError:
        return False
