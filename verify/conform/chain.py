"""An engine's automatic chain: what it resolves on its own after an action, played on the reference link by link.

Many engines decide on their own what the ruleset leaves to a player, and
resolve a landing in one go: rent is taken when a token lands (the ruleset
has the owner claim it), a debt is settled by the engine's own liquidation
(the ruleset opens a debt the debtor settles by selling, mortgaging and
paying), a debt is paid as soon as a sale covers it, a bankrupt player's
turn ends at once, a held jail card is used on rolling. An engine declares
such behaviours in its profile (``automatic`` in ``hello``, the words of
``protocol.AUTOMATIC``). The reference then plays the same **chain**: the
action, then each declared behaviour as the ruleset's own choice, in the order
an engine applies them:

    use_card (jail_card_at_once) › the action › rent (rent_at_once) ›
    liquidation: sales and mortgages, then debt_paid or bankruptcy (liquidation) ›
    debt_paid (debt_paid_at_once) › turn_ended (end_turn_at_once, bankrupt_turn_ends)

Every link is a step of the one vocabulary (``verify.vocabulary``) played as
an action of the reference, so each has its own state before and after
(``Link``), and a link that draws at random uses the draws the action
carries (``card_dice``, ``reshuffle``: the engine's own randomness inside the
chain is the harness's, as for the action itself). The oracle judges the
engine's step against the chain's last state, and a deviation is reported at
the first link whose outcome differs (``cause.py``), with the chain shown in
words (``words``). A link the ruleset refuses ends the chain there: the
engine's step is then judged against the outcome so far.

``play`` composes what does not depend on the engine; ``settle`` finishes the
chain of a debt the engine settled itself (``liquidation``: the debtor's sales
and mortgages read off the engine's state, applied in an order the ruleset
allows: hotels, then houses from the highest street, then mortgages; then
``pay``, or ``bankrupt`` when the engine bankrupted the debtor).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..engine.actions import ACTIONS
from ..errors import GameError

ACCEPT = "state"

#: (config, state, action, game or None) -> the reference outcome (``oracle.expect``: five items, the last the
#: step's events)
Expect = Callable[..., tuple]

#: The step of the vocabulary each automatic action of a chain plays.
STEP_OF = {"claim_rent": "rent", "sell_house": "liquidation", "sell_hotel": "liquidation",
           "mortgage": "liquidation", "pay": "debt_paid", "bankrupt": "bankruptcy", "end_turn": "turn_ended",
           "use_card": "left_jail"}
#: The step's random fields a chain's links may use (``verify.engine.actions.STEP_RANDOM``).
DRAWS = ("card_dice", "reshuffle")


@dataclass(frozen=True)
class Link:
    """One link of a chain: the action itself (``step`` is its type) or an automatic one (``step`` a step of
    ``verify.vocabulary.STEPS``), the reference action played for it, the states around it and its events."""

    step: str
    action: dict
    before: dict
    after: dict
    events: tuple = ()
    automatic: bool = False


def _outcome(kind, state, checked, game, links) -> tuple:
    return kind, state, checked, game, tuple(links)


def _drawn(action: dict, kind: str, seat: int, **fields) -> dict:
    """The chain's action of ``kind``, carrying the step's draws where the action takes them."""
    out = {"type": kind, "seat": seat, **fields}
    names = {f.name for f in ACTIONS[kind].fields} if kind in ACTIONS else set()
    for k in DRAWS:
        if k in action and k in names:
            out[k] = action[k]
    return out


def _acted(outcome: tuple) -> dict:
    """The action a chain was played for (its draws are the chain's)."""
    return next((link.action for link in outcome[4] if not link.automatic), {})


def _link(expect: Expect, config, outcome: tuple, action: dict, step: str | None = None) -> tuple | None:
    """``outcome`` followed by ``action`` as a link of the chain (None when the ruleset refuses it)."""
    try:
        nxt = expect(config, outcome[1], action, outcome[3])
    except GameError:
        return None
    if nxt[0] != ACCEPT:
        return None
    link = Link(step or STEP_OF.get(action["type"], action["type"]), action, outcome[1], nxt[1],
                tuple(nxt[4]), True)
    return _outcome(ACCEPT, nxt[1], outcome[2], nxt[3], outcome[4] + (link,))


def before_step(automatic: tuple[str, ...], expect: Expect, config, state: dict, action: dict,
                game=None) -> tuple | None:
    """The chain's links before ``action`` (a jail card used on rolling), as an outcome to start from; None."""
    if "jail_card_at_once" in automatic and action.get("type") == "roll":
        seat = action.get("seat", state.get("current"))
        players = state.get("players") or []
        if isinstance(seat, int) and 0 <= seat < len(players) and players[seat].get("in_jail") \
                and players[seat].get("jail_cards"):
            start = _outcome(ACCEPT, state, action, game, ())
            return _link(expect, config, start, {"type": "use_card", "seat": seat})
    return None


def after_step(automatic: tuple[str, ...], expect: Expect, config, outcome: tuple) -> tuple:
    """The accepted ``outcome`` of a step followed by the links that do not depend on the engine's answer:
    rent taken at once, a debt paid once covered, the end of the turn."""
    if outcome[0] != ACCEPT:
        return outcome
    action = _acted(outcome)
    if "rent_at_once" in automatic:
        old = {tuple(c) for c in ((outcome[4][-1].before if outcome[4] else {}).get("queue") or {}).get("claims", [])}
        for c in (outcome[1].get("queue") or {}).get("claims", []):
            if tuple(c) not in old:
                nxt = _link(expect, config, outcome, _drawn(action, "claim_rent", c[1], square=c[2]))
                if nxt is None:
                    break
                outcome = nxt
    return finish(automatic, expect, config, outcome)


def finish(automatic: tuple[str, ...], expect: Expect, config, outcome: tuple) -> tuple:
    """The last links of a chain: a debt paid as soon as the debtor's cash covers it, then the end of the turn
    (when nothing is left to decide, or after the current player's bankruptcy)."""
    action = _acted(outcome)
    state = outcome[1]
    if "debt_paid_at_once" in automatic and state.get("phase") == "debt":
        pend = state.get("pending") or {}
        debtor = pend.get("debtor")
        if isinstance(debtor, int) and state["players"][debtor]["cash"] >= pend.get("amount", 0):
            nxt = _link(expect, config, outcome, _drawn(action, "pay", debtor))
            if nxt is not None:
                outcome = nxt
                state = outcome[1]
    if state.get("phase") == "post_roll":
        cur = state.get("current")
        bankrupt = isinstance(cur, int) and state["players"][cur].get("bankrupt")
        if "end_turn_at_once" in automatic or ("bankrupt_turn_ends" in automatic and bankrupt):
            nxt = _link(expect, config, outcome, {"type": "end_turn", "seat": cur})
            if nxt is not None:
                outcome = nxt
    return outcome


def play(automatic: tuple[str, ...], expect: Expect, config, state: dict, action: dict, game=None) -> tuple:
    """The ruleset's outcome of ``action`` on ``state`` under the engine's automatic behaviours, as
    ``(kind, state, checked action, game, links)``: everything but a liquidation, which needs the engine's
    answer (``settle``)."""
    start = before_step(automatic, expect, config, state, action, game) if automatic else None
    if start is not None:
        out = expect(config, start[1], action, start[3])
        links = start[4]
        base = start[1]
    else:
        out = expect(config, state, action, game)
        links, base = (), state
    if out[0] != ACCEPT:
        return _outcome(out[0], out[1], out[2], out[3], links)
    first = Link(str(action.get("type")), action, base, out[1], tuple(out[4]))
    outcome = _outcome(ACCEPT, out[1], out[2], out[3], links + (first,))
    return after_step(automatic, expect, config, outcome) if automatic else outcome


def settle(automatic: tuple[str, ...], expect: Expect, config, outcome: tuple,
           engine_state: dict) -> tuple[tuple, dict] | None:
    """The ruleset's debt ``outcome`` settled as the engine settled it (``liquidation``: see the module
    docstring), then the rest of the chain (``finish``), and the state once the cash was raised, before
    paying (the step invariants judge a bankruptcy from there: the debtor's own sales and mortgages are
    not part of the transfer); None when the engine's state shows no settlement of this debt."""
    if "liquidation" not in automatic:
        return None
    state = outcome[1]
    if state.get("phase") != "debt" or engine_state.get("phase") == "debt":
        return None
    debtor = (state.get("pending") or {}).get("debtor")
    if not isinstance(debtor, int):
        return None
    action = _acted(outcome)
    mine = {p["square"]: p for p in state["properties"] if p.get("owner") == debtor}
    theirs = {p["square"]: p for p in engine_state.get("properties", [])}
    sells: dict[int, list[str]] = {}
    mortgages: list[int] = []
    b = config.building
    for s, p in mine.items():
        q = theirs.get(s)
        if q is None:
            continue
        houses = p.get("houses") or 0
        ops = []
        if p.get("hotel") and not q.get("hotel"):
            ops.append("sell_hotel")
            if b.hotel_returns_houses:
                houses = b.hotel_threshold     # a hotel breaks down into the houses it needs
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
            nxt = _link(expect, config, outcome, _drawn(action, kind, debtor, square=s))
            if nxt is not None:
                break
        else:
            return outcome, outcome[1]
        outcome = nxt
        if kind == "mortgage":
            mortgages.remove(s)
        else:
            sells[s].pop(0)
            level[s] = (b.hotel_threshold if b.hotel_returns_houses else mine[s].get("houses") or 0) \
                if kind == "sell_hotel" else level[s] - 1
    raised = outcome[1]
    players = engine_state.get("players") or []
    bankrupt = bool(players[debtor].get("bankrupt")) if debtor < len(players) else False
    if outcome[1].get("phase") == "debt":
        nxt = _link(expect, config, outcome, _drawn(action, "bankrupt" if bankrupt else "pay", debtor))
        if nxt is not None:
            outcome = nxt
    return finish(automatic, expect, config, outcome), raised


def words(links: tuple[Link, ...], upto: int | None = None) -> str:
    """A chain in words: ``roll › rent › liquidation › bankruptcy › turn_ended`` (a run of one step once, with
    how many times), up to link ``upto`` (its index) when given."""
    out: list[str] = []
    for i, link in enumerate(links):
        if upto is not None and i > upto:
            break
        name = link.step
        if out and out[-1].split(" ×")[0] == name:
            n = int(out[-1].split(" ×")[1]) + 1 if " ×" in out[-1] else 2
            out[-1] = f"{name} ×{n}"
        else:
            out.append(name)
    return " › ".join(out)


__all__ = ["Link", "play", "settle", "finish", "before_step", "after_step", "words", "STEP_OF", "ACCEPT"]
