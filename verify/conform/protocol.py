"""Engine protocol 1, message by message: what the harness sends and what it accepts back.

The messages are shipped as JSON Schemas in ``verify/schemas/protocol/`` (one
file per request and response). This module is the harness's side of that
contract: it builds requests and reads responses, turning anything out of
protocol into an ``EngineFault`` (rule ``protocol``). It is deliberately
hand-written rather than a schema validator: it runs on every step, and
jsonschema is only a test dependency (the tests check that both agree on
every message).

An engine describes itself in its answer to ``hello`` (its **profile**, every
part optional, so an engine that declares nothing is tested on everything):
the action types it implements (``actions``), the state keys it maintains
(``compare``), the phases a loaded state may be in (``phases``), what it does
on its own where the ruleset has a player decide (``automatic``, the words of
``AUTOMATIC``) and whether it answers ``new_game`` (``setup``). ``load`` and
``new_game`` may be answered ``{"ok": true, "unsupported": REASON}``: the
engine cannot hold that state, and the scenario is skipped and counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..engine.step import ACTION_TYPES
from ..paths import schemas_dir

PROTOCOL = 1

#: The top-level keys of the state schema that every engine must report and, unless it
#: declares ``compare``, maintain (verify/schemas/state.schema.json "required").
REQUIRED_STATE_KEYS = ("schema", "round", "current", "minute", "phase", "players", "properties", "bank",
                       "pot", "jackpot", "decks")
#: Every top-level key a state may have (what ``compare`` may name).
STATE_KEYS = REQUIRED_STATE_KEYS + ("discards", "seed", "shuffles", "pending", "queue", "turn",
                                    "player_turns", "winner", "result")


#: Keys inside a state's top-level values whose items are objects a nested ``compare`` key names a field of
#: (``players.cash``: every player's cash).
LISTS = ("players", "properties")


@lru_cache(maxsize=1)
def nested_keys() -> dict[str, tuple[str, ...]]:
    """The fields a nested ``compare`` key may name under each top-level key (``players.cash``, ``bank.cash``,
    ``turn.dice``), read off the state schema."""
    schema = json.loads((schemas_dir() / "state.schema.json").read_text(encoding="utf-8"))
    out: dict[str, tuple[str, ...]] = {}
    for top, sub in schema["properties"].items():
        node = sub.get("items", sub)
        fields = node.get("properties") if isinstance(node, dict) else None
        if isinstance(fields, dict) and fields:
            out[top] = tuple(fields)
    return out


def compared_keys(names) -> tuple[tuple[str, ...], dict[str, frozenset]]:
    """The top-level keys a ``compare`` declaration covers, and for those named by nested keys only
    (``players.cash``) the fields compared under each."""
    tops: list[str] = []
    fields: dict[str, set] = {}
    whole = set()
    for name in names:
        top, _, field = name.partition(".")
        if top not in tops:
            tops.append(top)
        if field:
            fields.setdefault(top, set()).add(field)
        else:
            whole.add(top)
    return tuple(tops), {k: frozenset(v) for k, v in fields.items() if k not in whole}


def project(state: dict, fields: dict[str, frozenset]) -> dict:
    """``state`` with only the declared fields under the keys ``compare`` names by nested keys (a player's
    seat and a deed's square kept: they name the item)."""
    if not fields or not isinstance(state, dict):
        return state
    out = dict(state)
    for top, keep in fields.items():
        value = state.get(top)
        if isinstance(value, list):
            out[top] = [{k: v for k, v in item.items() if k in keep or k in ("seat", "square")}
                        if isinstance(item, dict) else item for item in value]
        elif isinstance(value, dict):
            out[top] = {k: v for k, v in value.items() if k in keep}
    return out


#: The phases of the state schema (what ``phases`` may name).
PHASES = ("pre_roll", "post_roll", "buy", "auction", "debt", "casino", "bus", "triples", "income_tax",
          "jail_choice", "over")

#: What an engine may do on its own where the ruleset has a player decide (``automatic`` in ``hello``).
#: The oracle then compares the engine's step with the ruleset's outcome of the step followed by the
#: choices named here, instead of flagging every occurrence.
AUTOMATIC = {
    "rent_at_once": "rent is paid when a player lands on an owned deed: the ruleset's step is followed by "
                    "the owner's claim_rent (where the ruleset has the owner claim it)",
    "liquidation": "a debt is settled by the engine itself: the ruleset's step is followed by the debtor's "
                   "sales and mortgages (read from the engine's state), then pay, or bankrupt when they do "
                   "not cover the debt",
    "jail_card_at_once": "a player in jail who holds a Get Out of Jail Free card uses it on rolling: the "
                         "ruleset's use_card comes before the roll",
    "debt_paid_at_once": "a debt is paid as soon as the debtor's cash covers it (after a sale or a mortgage "
                         "that raises enough): the ruleset's step is followed by the debtor's pay",
    "end_turn_at_once": "the turn passes as soon as nothing is left to decide: the ruleset's step is "
                        "followed by end_turn when it leaves the current player only that",
    "bankrupt_turn_ends": "a bankrupt player's turn ends at once: the ruleset's step is followed by end_turn "
                          "when the current player went bankrupt in it",
}


class EngineFault(Exception):
    """The engine broke protocol 1: crashed, hung, printed something that is not a response, or answered
    out of protocol. ``kind`` is one of crash, timeout, garbage, protocol, error."""

    def __init__(self, kind: str, message: str, log: str = ""):
        self.kind = kind
        self.message = message
        self.log = log            # the tail of the engine's stderr, when there is one
        super().__init__(message)


@dataclass(frozen=True)
class Hello:
    """What an engine declared in its answer to ``hello`` (its profile)."""

    engine: str
    version: str
    actions: tuple[str, ...] | None      # None: every action type
    compare: tuple[str, ...]             # state keys compared: top-level, or nested (``players.cash``)
    phases: tuple[str, ...] | None = None    # phases a loaded state may be in (None: every phase)
    automatic: tuple[str, ...] = ()      # words of AUTOMATIC
    setup: bool = False                  # answers new_game

    def to_json(self) -> dict:
        return {"engine": self.engine, "version": self.version,
                "actions": None if self.actions is None else list(self.actions), "compare": list(self.compare),
                "phases": None if self.phases is None else list(self.phases), "automatic": list(self.automatic),
                "setup": self.setup}


def hello_request() -> dict:
    return {"op": "hello", "protocol": PROTOCOL}


def load_request(config: dict, state: dict) -> dict:
    return {"op": "load", "config": config, "state": state}


def new_game_request(config: dict, players: int, seed: int, draws: dict) -> dict:
    """Set up a new game; ``draws`` are the setup's random outcomes, supplied (``setup_draws``)."""
    return {"op": "new_game", "config": config, "players": players, "seed": seed, "draws": draws}


def setup_draws(state: dict) -> dict:
    """The random outcomes of a new game, as the ``new_game`` request supplies them: each deck's order
    (top first), the first player, the deeds dealt (square -> seat) and the seed of later reshuffles."""
    return {"chance": list(state["decks"]["chance"]), "chest": list(state["decks"]["chest"]),
            "first": state["current"],
            "dealt": {str(p["square"]): p["owner"] for p in state["properties"] if p.get("owner") is not None},
            "seed": state.get("seed", 0)}


def apply_request(action: dict) -> dict:
    return {"op": "apply", "action": action}


STATE_REQUEST = {"op": "state"}
BYE_REQUEST = {"op": "bye"}


def _ok(resp: Any, what: str) -> dict:
    if not isinstance(resp, dict):
        raise EngineFault("protocol", f"the answer to {what} is not a JSON object: {_short(resp)}")
    ok = resp.get("ok")
    if ok is False:
        raise EngineFault("error", f"the engine answered {what} with an error: {_short(resp.get('error'))}")
    if ok is not True:
        raise EngineFault("protocol", f"the answer to {what} has no \"ok\": true/false: {_short(resp)}")
    return resp


def read_hello(resp: Any) -> Hello:
    r = _ok(resp, "hello")
    engine, version, protocol = r.get("engine"), r.get("version"), r.get("protocol")
    if not isinstance(engine, str) or not engine:
        raise EngineFault("protocol", f"hello: \"engine\" must name the engine, got {_short(engine)}")
    if protocol != PROTOCOL:
        raise EngineFault("protocol", f"hello: the engine speaks protocol {_short(protocol)}, the harness {PROTOCOL}")
    if not isinstance(version, (str, int, float)) or isinstance(version, bool):
        raise EngineFault("protocol", f"hello: \"version\" must be a string, got {_short(version)}")
    actions = _declared(r, "actions", ACTION_TYPES, "action type")
    compare = _declared(r, "compare", STATE_KEYS + _nested_names(), "state key")
    phases = _declared(r, "phases", PHASES, "phase")
    automatic = _declared(r, "automatic", tuple(AUTOMATIC), "automatic behaviour")
    setup = r.get("setup", False)
    if not isinstance(setup, bool):
        raise EngineFault("protocol", f"hello: \"setup\" must be true or false, got {_short(setup)}")
    return Hello(engine, str(version), actions, REQUIRED_STATE_KEYS if compare is None else compare,
                 phases, automatic or (), setup)


def _nested_names() -> tuple[str, ...]:
    return tuple(f"{top}.{f}" for top, fields in nested_keys().items() for f in fields)


def _declared(r: dict, key: str, known: tuple[str, ...], what: str) -> tuple[str, ...] | None:
    """A hello declaration (``actions``, ``compare``): known names, in their canonical order."""
    names = r.get(key)
    if names is None:
        return None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise EngineFault("protocol", f"hello: \"{key}\" must be a list of {what}s")
    unknown = sorted(set(names) - set(known))
    if unknown:
        listed = [k for k in known if "." not in k]
        more = " (or TOP.FIELD, a field of the state schema under one of them)" if len(listed) < len(known) else ""
        raise EngineFault("protocol", f"hello: unknown {what}(s) in {key} {unknown}; known: {', '.join(listed)}{more}")
    return tuple(n for n in known if n in names)


def read_load(resp: Any, what: str = "load") -> str | None:
    """None when the engine holds the state; the reason when it answered ``unsupported``."""
    r = _ok(resp, what)
    why = r.get("unsupported")
    if why is None:
        return None
    if not isinstance(why, str) or not why:
        raise EngineFault("protocol", f"{what}: \"unsupported\" must be the reason as a string, got {_short(why)}")
    return why


def read_new_game(resp: Any) -> tuple[str, Any]:
    """``("state", STATE)`` or ``("unsupported", REASON)``."""
    why = read_load(resp, "new_game")
    if why is not None:
        return "unsupported", why
    return "state", read_state(resp, "new_game")


def read_state(resp: Any, what: str = "state") -> dict:
    state = _ok(resp, what).get("state")
    check_state_shape(state, what)
    return state


def read_apply(resp: Any) -> tuple[str, Any]:
    """``("state", NEW_STATE)`` or ``("illegal", REASON)``."""
    r = _ok(resp, "apply")
    if ("state" in r) == ("illegal" in r):
        raise EngineFault("protocol", "the answer to apply must hold exactly one of \"state\" and \"illegal\": "
                          + _short(r))
    if "illegal" in r:
        if not isinstance(r["illegal"], str):
            raise EngineFault("protocol", f"apply: \"illegal\" must be the reason as a string, got {_short(r['illegal'])}")
        return "illegal", r["illegal"]
    check_state_shape(r["state"], "apply")
    return "state", r["state"]


def check_state_shape(state: Any, what: str) -> None:
    """A reported state must be a verify.state/1 object with the schema's required keys."""
    if not isinstance(state, dict):
        raise EngineFault("protocol", f"{what}: the state is not a JSON object: {_short(state)}")
    if state.get("schema") != "verify.state/1":
        raise EngineFault("protocol", f"{what}: the state's \"schema\" is {_short(state.get('schema'))}, "
                          "not \"verify.state/1\"")
    missing = [k for k in REQUIRED_STATE_KEYS if k not in state]
    if missing:
        raise EngineFault("protocol", f"{what}: the state lacks required key(s) {', '.join(missing)}")
    if not isinstance(state["players"], list) or not isinstance(state["properties"], list):
        raise EngineFault("protocol", f"{what}: \"players\" and \"properties\" must be lists")


def _short(value: Any, limit: int = 160) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


__all__ = ["PROTOCOL", "EngineFault", "Hello", "REQUIRED_STATE_KEYS", "STATE_KEYS", "PHASES", "AUTOMATIC",
           "hello_request", "load_request", "new_game_request", "setup_draws", "apply_request", "STATE_REQUEST",
           "BYE_REQUEST", "read_hello", "read_load", "read_new_game", "read_apply", "read_state",
           "check_state_shape", "compared_keys", "project", "nested_keys", "LISTS"]
