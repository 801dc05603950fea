"""Engines that misbehave, for the conformance harness's own tests.

Protocol faults (each also runnable as a subprocess: ``python tests/conform_engines/faults.py NAME``):
``crash`` exits in the middle of a game, ``hang`` stops answering (and starts a
grandchild that must die with it), ``garbage`` prints something that is not
JSON, ``chatty`` answers one request with two lines, ``wrong-protocol`` claims
protocol 2. Rule bugs (in-process classes): ``SupplyLeak`` never takes a house
from the bank, ``UnevenBuilder`` builds wherever the ruleset refuses an uneven
house, ``ShortMover`` reports a token one square short after a roll. The suite of broken engines for issue 9 item 9 lives in ``broken.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

if __package__ in (None, ""):                       # run as a script: make `verify` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from verify.conform import Illegal                    # noqa: E402
from verify.conform.reference import ReferenceEngine  # noqa: E402


class _Faulty(ReferenceEngine):
    """The reference engine that misbehaves at its ``after``-th apply (counted across games)."""

    after = 3

    def __init__(self) -> None:
        super().__init__()
        self.applied = 0

    def apply(self, action: dict) -> dict:
        self.applied += 1
        if self.applied >= self.after:
            self.misbehave()
        return super().apply(action)

    def misbehave(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


class Crashing(_Faulty):
    name = "crashing"

    def misbehave(self) -> None:
        raise RuntimeError("simulated crash inside the engine")


class Hanging(_Faulty):
    name = "hanging"

    def misbehave(self) -> None:
        time.sleep(3600)


class SupplyLeak(ReferenceEngine):
    """Builds a house without taking it from the bank (house-supply breaks)."""

    name = "supply-leak"

    def apply(self, action: dict) -> dict:
        new = super().apply(action)
        if action.get("type") == "build_house" and new["bank"]["houses"] is not None:
            new["bank"]["houses"] += 1
            self._state = new
        return new


class UnevenBuilder(ReferenceEngine):
    """Accepts a house the even-building rule refuses (legality breaks)."""

    name = "uneven-builder"

    def apply(self, action: dict) -> dict:
        try:
            return super().apply(action)
        except Illegal as exc:
            if action.get("type") != "build_house" or "even" not in exc.reason:
                raise
            import copy
            new = copy.deepcopy(self._state)
            for p in new["properties"]:
                if p["square"] == action["square"]:
                    p["houses"] += 1
            new["bank"]["houses"] = None if new["bank"]["houses"] is None else new["bank"]["houses"] - 1
            self._state = new
            return new


class ShortMover(ReferenceEngine):
    """Moves a token one square short of where a roll takes it, and resolves the square it lands on (successor
    breaks, no invariant does)."""

    name = "short-mover"

    def apply(self, action: dict) -> dict:
        state = self._state
        seat = action.get("seat", state.get("current"))
        if action.get("type") == "roll" and isinstance(seat, int) and 0 <= seat < len(state["players"]) \
                and not state["players"][seat]["in_jail"]:
            import copy
            start = copy.deepcopy(state)
            start["players"][seat]["position"] = (start["players"][seat]["position"] - 1) % 40
            self._state = start             # the same roll from one square back
            try:
                return super().apply(action)
            except Exception:
                self._state = state
                raise
        return super().apply(action)


class Partial(ReferenceEngine):
    """Implements a few action types and keeps no decks or clock (reports them empty), and says so."""

    name = "partial"
    declare = True

    def hello(self) -> dict:
        h = super().hello()
        if self.declare:
            from verify.conform.protocol import REQUIRED_STATE_KEYS
            h["actions"] = ["roll", "end_turn", "buy", "decline", "build_house"]
            h["compare"] = [k for k in REQUIRED_STATE_KEYS if k not in ("decks", "minute")]
        return h

    def apply(self, action: dict) -> dict:
        if self.declare and action["type"] not in ("roll", "end_turn", "buy", "decline", "build_house"):
            raise RuntimeError(f"sent an undeclared action {action['type']}")
        new = dict(super().apply(action))
        new["decks"], new["minute"] = {"chance": [], "chest": []}, 0
        return new

    def state(self):
        s = super().state()
        return s if s is None else {**s, "decks": {"chance": [], "chest": []}, "minute": 0}


class Undeclared(Partial):
    """The same engine without its declarations: its empty decks are now differences."""

    name = "undeclared"
    declare = False


class Picky(ReferenceEngine):
    """Holds only states before a roll; answers ``unsupported`` to any other load (skipped, not a fault)."""

    name = "picky"

    def load(self, config, state):
        if state.get("phase") != "pre_roll":
            from verify.conform import Unsupported
            raise Unsupported(f"picky holds no state in phase {state.get('phase')}")
        super().load(config, state)


def _claims(state: dict) -> list:
    return [tuple(c) for c in (state.get("queue") or {}).get("claims", [])]


class AutoRent(ReferenceEngine):
    """Takes rent the moment a token lands (the owner never claims it) and declares it (rent_at_once)."""

    name = "auto-rent"
    declare = True

    def hello(self) -> dict:
        h = super().hello()
        if self.declare:
            from verify.engine.step import ACTION_TYPES
            h["automatic"] = ["rent_at_once"]
            h["actions"] = [t for t in ACTION_TYPES if t != "claim_rent"]
        return h

    def apply(self, action: dict) -> dict:
        old = set(_claims(self._state))
        new = super().apply(action)
        for c in _claims(new):
            if c not in old:
                try:
                    new = super().apply({"type": "claim_rent", "seat": c[1], "square": c[2]})
                except Illegal:
                    break
        return new


class UndeclaredAutoRent(AutoRent):
    """The same engine without saying so: every rent it takes at once is a deviation."""

    name = "undeclared-auto-rent"
    declare = False


class Named(ReferenceEngine):
    """The reference engine under a name that is HTML (the report must escape it)."""

    name = "<script>alert(1)</script>"


def _serve_faulty(kind: str) -> int:
    """The subprocess faults: a reference server that breaks at its third apply."""
    import json
    from verify.conform.serve import handle
    engine = ReferenceEngine()
    applies = 0
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("op") == "hello" and kind == "wrong-protocol":
            print(json.dumps({"ok": True, "engine": "wrong", "version": "1", "protocol": 2}), flush=True)
            continue
        if req.get("op") == "apply":
            applies += 1
            if applies >= 3:
                if kind == "crash":
                    print("engine: fatal error, giving up", file=sys.stderr, flush=True)
                    os._exit(3)
                if kind == "hang":
                    with open(os.environ.get("FAULTS_CHILD_PIDS", os.devnull), "a") as fh:
                        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
                        fh.write(f"{child.pid}\n")
                    time.sleep(3600)
                if kind == "garbage":
                    print("Traceback (most recent call last): this is not JSON", flush=True)
                    continue
        answer = handle(engine, req)
        if answer is None:
            return 0
        extra = ""
        if kind == "chatty" and applies >= 3:
            # one write with both lines, so the harness sees them together however busy the machine is
            extra = json.dumps({"ok": True, "illegal": "debug line"}) + "\n"
        sys.stdout.write(extra + json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_serve_faulty(sys.argv[1]))


class SeatOrderAuctions(ReferenceEngine):
    """Plays the ruleset but lets bidders speak in seat order (``auction.bidding_order: seat_order``), a value
    ``official`` leaves silent: its refusals of out-of-turn bids are unstated by the rulebook."""

    name = "seat-order-auctions"

    def load(self, config, state):
        import dataclasses
        from verify.config import EngineConfig
        from verify.conform import Unsupported
        cfg = EngineConfig.from_json(config)
        self._config = dataclasses.replace(cfg, purchase=dataclasses.replace(cfg.purchase, bidding_order="seat_order"))
        self._config_doc = None
        pend = state.get("pending") or {}
        if state.get("phase") == "auction" and pend.get("turn") is None:
            if pend.get("leader", -1) >= 0:
                raise Unsupported("an auction under way in any order: whose turn is it?")
            state = dict(state, pending=dict(pend, turn=pend["bidders"][0]))    # the first in seat order
        self._state = state


class NoDoublesShortMover(ShortMover):
    """Two bugs of the roll at once: no roll again on doubles, and a token one square short."""

    name = "no-doubles-short-mover"

    def apply(self, action: dict) -> dict:
        new = super().apply(action)
        dice = action.get("dice") or []
        if action.get("type") == "roll" and len(dice) == 2 and dice[0] == dice[1] and new["phase"] == "pre_roll" \
                and new["current"] == action.get("seat"):
            import copy
            new = copy.deepcopy(new)
            new["phase"] = "post_roll"
            new["players"][action["seat"]]["doubles"] = 0
            new["turn"]["stage"] = "post"
            self._state = new
        return new


class ChainEngine(ReferenceEngine):
    """The reference engine resolving on its own what ``AUTOMATIC`` names, link by link, as an engine that
    plays a landing in one go does: a jail card used on rolling, rent taken at once, its own liquidation (a
    debt paid once the cash covers it, else sales and mortgages, else bankruptcy), a debt paid as soon as a
    sale covers it, the turn passed when nothing is left to decide or after its player's bankruptcy. It
    declares them when ``declare`` (then none is a deviation); ``bug`` names one link it gets wrong."""

    name = "chain"
    AUTOMATIC: tuple = ()
    declare = True
    bug = ""

    def hello(self) -> dict:
        from verify.conform.protocol import PHASES
        from verify.engine.step import ACTION_TYPES
        h = super().hello()
        if self.declare:
            h["automatic"] = list(self.AUTOMATIC)
            taken = {"claim_rent"} if "rent_at_once" in self.AUTOMATIC else set()
            if "liquidation" in self.AUTOMATIC:
                taken |= {"pay", "bankrupt"}
                h["phases"] = [p for p in PHASES if p != "debt"]
            h["actions"] = [t for t in ACTION_TYPES if t not in taken]
        return h

    def _play(self, action: dict) -> dict:
        return super().apply(action)

    def apply(self, action: dict) -> dict:
        state = self._state
        auto = self.AUTOMATIC
        seat = action.get("seat", state.get("current"))
        if "jail_card_at_once" in auto and action.get("type") == "roll" and isinstance(seat, int) \
                and state["players"][seat]["in_jail"] and state["players"][seat]["jail_cards"]:
            self._play({"type": "use_card", "seat": seat})
        old = set(_claims(self._state))
        new = self._play(action)
        if "rent_at_once" in auto:
            for c in _claims(new):
                if c not in old:
                    try:
                        before = new
                        new = self._play({"type": "claim_rent", "seat": c[1], "square": c[2]})
                        if self.bug == "rent" and new["players"][c[0]]["cash"] != before["players"][c[0]]["cash"]:
                            new = self._tamper(new, c[0], -1, c[1], +1)        # a dollar too much
                    except Illegal:
                        break
        if "liquidation" in auto:
            new = self._liquidate(new)
        if "debt_paid_at_once" in auto and new["phase"] == "debt" \
                and new["players"][new["pending"]["debtor"]]["cash"] >= new["pending"]["amount"]:
            new = self._play({"type": "pay", "seat": new["pending"]["debtor"]})
        cur = new["current"]
        if new["phase"] == "post_roll" and ("end_turn_at_once" in auto or
                                            "bankrupt_turn_ends" in auto and new["players"][cur]["bankrupt"]):
            new = self._play({"type": "end_turn", "seat": cur})
        return new

    def _liquidate(self, new: dict) -> dict:
        from verify.engine.step import legal_actions
        while new["phase"] == "debt":
            debtor = new["pending"]["debtor"]
            acts = [a for a in legal_actions(self._config, new) if a.get("seat") == debtor]
            pick = next((a for kind in ("pay", "sell_hotel", "sell_house", "mortgage", "bankrupt")
                         for a in acts if a["type"] == kind), None)
            if pick is None:
                break
            before = new
            new = self._play(pick)
            if self.bug == "liquidation" and pick["type"] == "sell_house":
                new = self._tamper(new, debtor, -1)                # a house sold a dollar short
            if self.bug == "bankruptcy" and pick["type"] == "bankrupt":
                creditor = before["pending"]["creditor"]
                if creditor >= 0:                                   # the creditor gets a dollar less
                    new = self._tamper(new, creditor, -1)
        return new

    def _tamper(self, state: dict, seat: int, by: int, other: int | None = None, other_by: int = 0) -> dict:
        import copy
        state = copy.deepcopy(state)
        state["players"][seat]["cash"] += by
        if other is not None:
            state["players"][other]["cash"] += other_by
        else:
            state["bank"]["cash"] -= by
        self._state = state
        return state


def chain_engine(*automatic: str, declare: bool = True, bug: str = "") -> type:
    """A ``ChainEngine`` class resolving ``automatic`` (declared or not), with one link wrong (``bug``)."""
    return type("Chain_" + "_".join(automatic) + ("" if declare else "_undeclared") + (f"_{bug}" if bug else ""),
                (ChainEngine,), {"AUTOMATIC": automatic, "declare": declare, "bug": bug,
                                 "name": "chain:" + "+".join(automatic)})


class Liquidator(ChainEngine):
    """Settles every debt itself (sells buildings, mortgages, pays or goes bankrupt: never a debt phase) and
    declares it (automatic liquidation, no debt phase, no pay/bankrupt actions)."""

    name = "liquidator"
    AUTOMATIC = ("liquidation",)
