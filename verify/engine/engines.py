"""The engine every caller uses: ``rules_for(config)``, the specialised engine of a config, cached.

Two engines play a config from the same rules (``verify.engine.bound``): the readable one
(the rule functions with the tables bound) and the specialised one
(``verify.engine.specialise``: generated from them for the config). ``rules_for`` returns
the specialised one unless asked otherwise (``path="readable"``, or the environment
variable ``VERIFY_ENGINE=readable``); the tests play every bundled ruleset on both and
compare the games.
"""

from __future__ import annotations

import os
from typing import Callable

from ..config import EngineConfig
from ..errors import VerifyError
from .bound import Engine, readable, rule_functions, takes_tables
from .specialise import specialised

#: ``VERIFY_ENGINE=readable`` makes ``rules_for`` build the readable engine instead of the specialised one.
ENGINE_ENV = "VERIFY_ENGINE"

_ENGINES: dict[tuple[int, str], tuple[EngineConfig, Engine]] = {}


def check_playable(config: EngineConfig) -> None:
    """Refuse (E018) a config with values the engine does not play (``EngineConfig.unplayable``)."""
    if config.unplayable:
        raise VerifyError("E018", "the reference engine cannot play this ruleset as written: "
                          + "; ".join(config.unplayable) + " (see docs/engine.md, 'What the engine does not model')")


def rules_for(config: EngineConfig, path: str | None = None) -> Engine:
    """The (cached) engine of a config; keyed by identity first, as hashing a config is not free.

    ``path``: ``readable`` or ``specialised`` (default: ``specialised``, or what the ``VERIFY_ENGINE``
    environment variable says). Refuses (E018) a config with values the engine does not play."""
    check_playable(config)
    path = path or os.environ.get(ENGINE_ENV) or DEFAULT_PATH
    if path not in BUILDERS:
        raise VerifyError("E017", f"unknown engine path {path!r}; one of {', '.join(BUILDERS)}")
    key = (id(config), path)
    hit = _ENGINES.get(key)
    if hit is not None and hit[0] is config:
        return hit[1]
    for (_, p), (cfg, known) in _ENGINES.items():
        if p == path and cfg == config:
            engine = known
            break
    else:
        engine = BUILDERS[path](config)
        if len(_ENGINES) >= 64:
            _ENGINES.pop(next(iter(_ENGINES)))
    _ENGINES[key] = (config, engine)
    return engine


BUILDERS: dict[str, Callable[[EngineConfig], Engine]] = {"readable": readable, "specialised": specialised}
DEFAULT_PATH = "specialised"



__all__ = ["Engine", "readable", "specialised", "rules_for", "rule_functions", "takes_tables", "check_playable",
           "ENGINE_ENV", "BUILDERS"]
