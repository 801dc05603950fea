"""The engine every caller uses: ``rules_for(config)``, cached per config, on the compiled path when it can.

Two builds of the same source files play a config (``verify.engine.bound.Code``): the readable
modules of ``verify.engine`` as written, and the compiled ones (``verify.engine.native``: those
files compiled by mypyc into the package when it is built). ``rules_for`` returns the compiled
engine unless asked otherwise (``path="readable"``, or the environment variable
``VERIFY_ENGINE=readable``); when the install holds no compiled build of the current source (built
without a C compiler, or an editable install whose engine changed since) it plays the readable
modules and says so once on stderr. ``engine.path`` is the path an engine runs; ``engine_path()`` the one
``rules_for`` takes by default. The tests play every bundled ruleset on both and compare the games.
"""

from __future__ import annotations

import os
import sys
from dataclasses import fields, is_dataclass
from typing import Any

from ..config import EngineConfig
from ..errors import VerifyError
from .bound import Code, Engine, Rules, readable, readable_code, rule_functions

#: ``VERIFY_ENGINE=readable`` makes ``rules_for`` build the readable engine; ``compiled`` insists on the
#: compiled one (an error when it cannot be loaded); unset (or ``auto``): compiled when it can be loaded.
ENGINE_ENV = "VERIFY_ENGINE"
PATHS = ("readable", "compiled")

_ENGINES: dict[tuple[int, str], tuple[EngineConfig, Engine]] = {}
_COMPILED: list[Code] = []
_FALLBACK: list[str] = []        # why the compiled path is not available (said once)


def check_playable(config: EngineConfig) -> None:
    """Refuse (E018) a config with values the engine does not play (``EngineConfig.unplayable``)."""
    if config.unplayable:
        raise VerifyError("E018", "the reference engine cannot play this ruleset as written: "
                          + "; ".join(config.unplayable) + " (see docs/engine.md, 'What the engine does not model')")


def compiled_code(required: bool = False) -> Code | None:
    """The compiled modules (``verify.engine.native``), or None when this install holds no build of the
    current source (said once per process on stderr); ``required``: raise E035 instead."""
    if _COMPILED:
        return _COMPILED[0]
    if _FALLBACK and not required:
        return None
    from . import native        # (not at the top: ``python -m verify.engine.native`` would load it twice)
    try:
        mods = native.modules()
    except native.Unavailable as exc:
        if required:
            raise VerifyError("E035", f"the compiled engine is not available: {exc}") from None
        if not _FALLBACK:
            _FALLBACK.append(str(exc))
            print(f"verify: playing the readable engine, about 4 times slower: the compiled engine is not "
                  f"available ({exc})", file=sys.stderr)
        return None
    families = {m.rsplit(".", 1)[1]: mod for m, mod in mods.items()
                if m.startswith("engine.rules.") and m != "engine.rules.common"}
    classes = {name: cls for m in ("config.model", "config.board") for name, cls in vars(mods[m]).items()
               if isinstance(cls, type) and is_dataclass(cls)}
    code = Code("compiled", mods["engine.state"], mods["config.tables"], families, mods["engine.policies"],
                mods["engine.loop"], config_of=lambda config: mirror(config, classes), where=str(native.TARGET))
    _COMPILED.append(code)
    return code


def mirror(value: Any, classes: dict[str, type]) -> Any:
    """``value`` (an EngineConfig, or any part of one) rebuilt from the compiled model's classes of the same
    names, field by field."""
    if is_dataclass(value) and not isinstance(value, type):
        cls = classes[type(value).__name__]
        return cls(**{f.name: mirror(getattr(value, f.name), classes) for f in fields(value)})
    if isinstance(value, tuple):
        return tuple(mirror(x, classes) for x in value)
    return value


def engine_path() -> str:
    """The path ``rules_for`` takes by default: ``readable`` or ``compiled`` (``VERIFY_ENGINE``, else compiled
    when it can be loaded)."""
    want = os.environ.get(ENGINE_ENV) or "auto"
    if want not in PATHS + ("auto",):
        raise VerifyError("E036", f"unknown engine path {want!r} in {ENGINE_ENV}; one of {', '.join(PATHS)}, auto")
    if want == "readable":
        return "readable"
    return "compiled" if compiled_code(required=want == "compiled") is not None else "readable"


def rules_for(config: EngineConfig, path: str | None = None) -> Engine:
    """The (cached) engine of a config; keyed by identity first, as hashing a config is not free.

    ``path``: ``readable`` or ``compiled`` (default: ``engine_path()``). Refuses (E018) a config with values
    the engine does not play."""
    check_playable(config)
    if path is None:
        path = engine_path()
    elif path not in PATHS:
        raise VerifyError("E036", f"unknown engine path {path!r}; one of {', '.join(PATHS)}")
    key = (id(config), path)
    hit = _ENGINES.get(key)
    if hit is not None and hit[0] is config:
        return hit[1]
    for (_, p), (cfg, known) in _ENGINES.items():
        if p == path and cfg == config:
            engine = known
            break
    else:
        if path == "compiled":
            code = compiled_code(required=True)
            assert code is not None
            engine = Engine(config, code)
        else:
            engine = readable(config)
        if len(_ENGINES) >= 64:
            _ENGINES.pop(next(iter(_ENGINES)))
    _ENGINES[key] = (config, engine)
    return engine


def compiled(config: EngineConfig) -> Engine:
    """The compiled engine of a config (an error when the compiled modules cannot be loaded)."""
    return rules_for(config, "compiled")


__all__ = ["Engine", "Code", "readable", "readable_code", "compiled", "compiled_code", "rules_for",
           "rule_functions", "Rules", "check_playable", "engine_path", "ENGINE_ENV", "PATHS"]
