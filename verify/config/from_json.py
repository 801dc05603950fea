"""Read an EngineConfig back from its JSON form, checking every field against the dataclasses.

Another engine (the conformance harness's subprocess peers, a replayed
scenario file) receives the config as JSON: ``to_json`` on one side,
``from_json`` on the other, and ``from_json(to_json(c)) == c`` for every
compiled ruleset. The reader is driven by the dataclasses' own type hints, so
a field added to the config needs no change here; a missing, unknown or
mistyped field is error E031 naming its dotted path.
"""

from __future__ import annotations

import types
import typing
from dataclasses import MISSING, fields, is_dataclass
from functools import lru_cache
from typing import Any

from ..errors import SpecError
from .board import Card
from .model import EngineConfig

#: the ``schema`` of the document ``verify compile --target engine-config`` writes
CONFIG_SCHEMA = "verify.engine-config/1"


def config_from_json(doc: Any) -> EngineConfig:
    """An EngineConfig from ``to_json()`` output, or from the whole ``verify compile`` document."""
    if isinstance(doc, dict) and "config" in doc and "schema" in doc:
        if doc["schema"] != CONFIG_SCHEMA:
            raise SpecError("E031", f"engine config: schema {doc['schema']!r} is not {CONFIG_SCHEMA!r}")
        doc = doc["config"]
    return _read(EngineConfig, doc, "config")


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _fail(path: str, why: str) -> typing.NoReturn:
    raise SpecError("E031", f"engine config: {path}: {why}")


def _read(tp: Any, v: Any, path: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(tp)
        if v is None:
            if type(None) in options:
                return None
            _fail(path, "must not be null")
        for opt in options:
            if opt is type(None):
                continue
            try:
                return _read(opt, v, path)
            except SpecError:
                continue
        _fail(path, f"{v!r} is none of {', '.join(getattr(o, '__name__', str(o)) for o in options)}")
    if origin is tuple:
        if not isinstance(v, list):
            _fail(path, f"must be a list, got {type(v).__name__}")
        (item, *_rest) = typing.get_args(tp)
        return tuple(_read(item, x, f"{path}[{i}]") for i, x in enumerate(v))
    if tp is Card or (isinstance(tp, type) and is_dataclass(tp)):
        return _record(tp, v, path)
    if tp is float:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            _fail(path, f"must be a number, got {v!r}")
        return float(v)
    if tp is int:
        if isinstance(v, bool) or not isinstance(v, int):
            _fail(path, f"must be an integer, got {v!r}")
        return v
    if tp is bool or tp is str:
        if not isinstance(v, tp):
            _fail(path, f"must be a {tp.__name__}, got {v!r}")
        return v
    _fail(path, f"unsupported field type {tp!r}")   # pragma: no cover - a new kind of field


def _record(cls: type, v: Any, path: str) -> Any:
    if not isinstance(v, dict):
        _fail(path, f"must be an object, got {type(v).__name__}")
    hints = _hints(cls)
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(v) - names)
    if unknown:
        _fail(path, f"unknown field(s) {', '.join(unknown)}")
    kwargs = {}
    for f in fields(cls):
        if f.name in v:
            kwargs[f.name] = _read(hints[f.name], v[f.name], f"{path}.{f.name}")
        elif f.default is MISSING and f.default_factory is MISSING:
            _fail(path, f"missing field {f.name!r}")
    return cls(**kwargs)


__all__ = ["config_from_json", "CONFIG_SCHEMA"]
