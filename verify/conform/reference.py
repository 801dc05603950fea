"""The reference engine behind engine protocol 1: the oracle, and the engine every adapter is compared with.

``ReferenceEngine`` is the in-process form (``verify.conform.reference:ReferenceEngine``):
it wraps the step API of ``verify.engine`` over the JSON config and state an
engine under test receives, so it is exactly what a conforming engine should do.
"""

from __future__ import annotations

from typing import Any

from ..config import EngineConfig
from ..engine.engines import rules_for
from ..engine.step import IllegalAction, apply, new_game
from . import Illegal

PROTOCOL = 1


class ReferenceEngine:
    """The reference engine as an in-process protocol-1 engine."""

    name = "verify-reference"

    def __init__(self) -> None:
        self._config: EngineConfig | None = None
        self._config_doc: dict | None = None
        self._state: dict | None = None

    def hello(self) -> dict:
        from importlib.metadata import PackageNotFoundError, version
        try:
            v = version("monopoly-verify")
        except PackageNotFoundError:   # pragma: no cover - running from a bare checkout
            v = "0"
        return {"engine": self.name, "version": v, "protocol": PROTOCOL, "setup": True}

    def _read(self, config: dict) -> EngineConfig:
        if config is not self._config_doc and config != self._config_doc:   # most loads repeat the config
            self._config = EngineConfig.from_json(config)
            self._config_doc = config
            rules_for(self._config)    # the config's engine is built now, not inside the first (timed) step
        return self._config

    def load(self, config: dict, state: dict) -> None:
        self._read(config)
        self._state = state

    def new_game(self, config: dict, players: int, seed: int, draws: dict) -> dict:
        """A new game with the setup's random outcomes the harness supplies (decks, first player, deeds
        dealt, the reshuffle seed) in place of the engine's own draws."""
        state = new_game(self._read(config), players, seed)
        state["decks"] = {"chance": list(draws["chance"]), "chest": list(draws["chest"])}
        state["current"] = draws["first"]
        dealt = {int(k): v for k, v in draws.get("dealt", {}).items()}
        for p in state["properties"]:
            p["owner"] = dealt.get(p["square"])
        state["seed"] = draws.get("seed", state.get("seed"))
        self._state = state
        return state

    def apply(self, action: dict) -> dict:
        if self._config is None or self._state is None:
            raise RuntimeError("apply before load")
        try:
            new, _events = apply(self._config, self._state, action)
        except IllegalAction as exc:
            raise Illegal(exc.message) from None
        self._state = new
        return new

    def state(self) -> Any:
        return self._state


__all__ = ["ReferenceEngine", "PROTOCOL"]


if __name__ == "__main__":   # python -m verify.conform.reference: the subprocess form
    import sys

    from .serve import serve
    sys.exit(serve(ReferenceEngine()))
