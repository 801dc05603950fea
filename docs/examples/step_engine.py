"""A protocol-1 adapter for an engine with a step API: an in-process Python class.

    verify conform --engine docs/examples/step_engine.py:StepEngine --examples 50

``StepEngine`` is what the harness talks to; ``hello`` declares what the engine is (its profile),
``load`` sets up a position, ``apply`` plays one action or refuses it, ``state`` reads the position
back. The reference engine's step API stands in for your engine on the lines marked "your engine":
replace them with calls into your engine and translations between its objects and verify.state/1.
"""
from verify.conform import Illegal, Unsupported
from verify.config import EngineConfig
from verify.engine.step import IllegalAction, apply

#: the phases this engine can hold (an engine that charges rent at once has no debt phase, say)
PHASES = ["pre_roll", "post_roll", "buy", "auction", "debt", "over"]


class StepEngine:
    def hello(self) -> dict:
        return {"engine": "step-example", "version": "1.0", "protocol": 1,
                # the profile: the actions it implements (only these are sent), the state keys it keeps
                # (only these are compared), the phases it can hold, what it does on its own where the
                # rules have a player decide (see the guide), whether it sets up a new game itself
                "actions": ["roll", "buy", "decline", "bid", "pass", "end_turn", "pay", "bankrupt", "claim_rent",
                            "pay_fine", "use_card", "build_house", "build_hotel", "sell_house", "sell_hotel",
                            "mortgage", "unmortgage", "trade"],
                "compare": ["schema", "current", "phase", "players", "properties", "bank", "decks"],
                "phases": PHASES, "automatic": [], "setup": False}

    def load(self, config: dict, state: dict) -> None:
        if state["phase"] not in PHASES:
            raise Unsupported(f"this engine has no {state['phase']} phase")   # skipped and counted, not a fault
        self.config = EngineConfig.from_json(config)                 # your engine: read the rules it needs
        self.game = state                                            # your engine: set up this position

    def apply(self, action: dict) -> dict:
        try:
            self.game, _events = apply(self.config, self.game, action)    # your engine: play the action
        except IllegalAction as exc:
            raise Illegal(exc.message) from None                     # your engine's refusal, with its reason
        return self.state()

    def state(self) -> dict:
        return self.game                                             # your engine: its position, as verify.state/1
