"""An engine's automatic behaviours: the ruleset's outcome of the choices the engine makes on its own.

Many engines decide on their own what the ruleset leaves to a player: rent
is taken when a token lands (the ruleset has the owner claim it), a debt is
settled by the engine's own liquidation (the ruleset opens a debt the debtor
settles by selling, mortgaging and paying), a held jail card is used at once.
An engine declares such behaviours in its profile (``automatic`` in
``hello``, the words of ``protocol.AUTOMATIC``); the oracle then judges its
step against the ruleset's step *followed by the corresponding choices*, so
the behaviour itself is not a deviation, and what the engine gets wrong
inside it (the amount, who pays, an uneven sale) still is.

``before_step`` and ``after_step`` compose the choices that do not depend on
the engine (claims, a jail card, ending the turn); ``liquidation`` reads the
debtor's sales and mortgages from the engine's state, applies them in an
order the ruleset allows (hotels, then houses from the highest street of a
group, then mortgages) and then ``pay``, or ``bankrupt`` when the engine
bankrupted the debtor. A choice the ruleset refuses ends the composition:
the engine's step is then judged against the outcome so far.
"""

from __future__ import annotations

from typing import Callable

from ..errors import GameError

ACCEPT = "state"

#: (config, state, action, game or None) -> outcome tuple, as ``oracle.expect``
Expect = Callable[..., tuple]


def _apply(expect: Expect, config, outcome: tuple, action: dict) -> tuple | None:
    """``outcome`` followed by ``action`` (None when the ruleset refuses it or cannot read it)."""
    try:
        nxt = expect(config, outcome[1], action, outcome[3])
    except GameError:
        return None
    return nxt if nxt[0] == ACCEPT else None


def before_step(automatic: tuple[str, ...], expect: Expect, config, state: dict, action: dict,
                game=None) -> tuple | None:
    """An outcome to start from instead of ``state`` (the choices made before ``action``), or None."""
    if "jail_card_at_once" in automatic and action.get("type") == "roll":
        seat = action.get("seat", state.get("current"))
        players = state.get("players") or []
        if 0 <= seat < len(players) and players[seat].get("in_jail") and players[seat].get("jail_cards"):
            try:
                out = expect(config, state, {"type": "use_card", "seat": seat}, game)
            except GameError:
                return None
            return out if out[0] == ACCEPT else None
    return None


def after_step(automatic: tuple[str, ...], expect: Expect, config, before: dict, outcome: tuple) -> tuple:
    """The accepted ``outcome`` of a step followed by the choices the engine makes on its own."""
    if outcome[0] != ACCEPT:
        return outcome
    if "rent_at_once" in automatic:
        old = {tuple(c) for c in (before.get("queue") or {}).get("claims", [])}
        for c in (outcome[1].get("queue") or {}).get("claims", []):
            if tuple(c) not in old:
                nxt = _apply(expect, config, outcome, {"type": "claim_rent", "seat": c[1], "square": c[2]})
                if nxt is None:
                    break
                outcome = (nxt[0], nxt[1], outcome[2], nxt[3])
    if "end_turn_at_once" in automatic and outcome[1].get("phase") == "post_roll":
        nxt = _apply(expect, config, outcome, {"type": "end_turn", "seat": outcome[1]["current"]})
        if nxt is not None:
            outcome = (nxt[0], nxt[1], outcome[2], nxt[3])
    return outcome


def liquidation(expect: Expect, config, outcome: tuple, engine_state: dict) -> tuple[tuple, dict] | None:
    """The ruleset's debt ``outcome`` settled as the engine settled it (see the module docstring), and the
    state once the cash was raised, before paying (the step invariants judge a bankruptcy from there:
    the debtor's own sales and mortgages are not part of the transfer); None when the engine's state
    shows no settlement of this debt."""
    state = outcome[1]
    if state.get("phase") != "debt" or engine_state.get("phase") == "debt":
        return None
    debtor = (state.get("pending") or {}).get("debtor")
    if not isinstance(debtor, int):
        return None
    mine = {p["square"]: p for p in state["properties"] if p.get("owner") == debtor}
    theirs = {p["square"]: p for p in engine_state.get("properties", [])}
    sells: dict[int, list[str]] = {}
    mortgages: list[int] = []
    for s, p in mine.items():
        q = theirs.get(s)
        if q is None:
            continue
        houses = p.get("houses") or 0
        ops = []
        if p.get("hotel") and not q.get("hotel"):
            ops.append("sell_hotel")
            if config.building.hotel_returns_houses:
                houses = config.building.hotel_threshold     # a hotel breaks down into the houses it needs
        ops += ["sell_house"] * max(0, houses - (q.get("houses") or 0))
        sells[s] = ops
        if q.get("mortgaged") and not p.get("mortgaged"):
            mortgages.append(s)
    level = {s: (5 if p.get("hotel") else (p.get("houses") or 0)) for s, p in mine.items()}
    while any(sells.values()) or mortgages:
        # a sale the ruleset allows now, the highest street first (the order even selling asks for; a hotel
        # may have to wait for houses back in the bank), else a mortgage; stuck when none is allowed
        order = [(s, sells[s][0]) for s in sorted((s for s, left in sells.items() if left),
                                                  key=lambda s: (-level[s], s))]
        order += [(s, "mortgage") for s in sorted(mortgages)]
        for s, kind in order:
            nxt = _apply(expect, config, outcome, {"type": kind, "seat": debtor, "square": s})
            if nxt is not None:
                break
        else:
            return outcome, outcome[1]
        outcome = (nxt[0], nxt[1], outcome[2], nxt[3])
        if kind == "mortgage":
            mortgages.remove(s)
        else:
            sells[s].pop(0)
            level[s] = (config.building.hotel_threshold if config.building.hotel_returns_houses
                        else mine[s].get("houses") or 0) if kind == "sell_hotel" else level[s] - 1
    raised = outcome[1]
    bankrupt = bool((engine_state.get("players") or [{}] * (debtor + 1))[debtor].get("bankrupt"))
    if outcome[1].get("phase") == "debt":
        nxt = _apply(expect, config, outcome, {"type": "bankrupt" if bankrupt else "pay", "seat": debtor})
        if nxt is not None:
            outcome = (nxt[0], nxt[1], outcome[2], nxt[3])
    return outcome, raised


def compose(automatic: tuple[str, ...], expect: Expect, config, state: dict, action: dict,
            game=None) -> tuple:
    """The ruleset's outcome of ``action`` on ``state`` under the engine's automatic behaviours (all but
    the liquidation, which needs the engine's answer: ``liquidation``)."""
    start = before_step(automatic, expect, config, state, action, game) if automatic else None
    if start is not None:
        out = expect(config, start[1], action, start[3])
    else:
        out = expect(config, state, action, game)
    return after_step(automatic, expect, config, state, out) if automatic else out


__all__ = ["compose", "liquidation", "before_step", "after_step"]
