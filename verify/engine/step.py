"""The step API: which actions are legal in a canonical state, and what applying one does.

    from verify.engine.step import new_game, legal_actions, apply, IllegalAction
    state = new_game(config, players=4, seed=1)          # canonical JSON (verify.state/1)
    acts = legal_actions(config, state)                  # small JSON-able dicts
    state, events = apply(config, state, {"type": "roll", "dice": [3, 4]})

Actions are dicts with a ``type`` and, when someone other than the expected
actor acts, a ``seat`` (default: the pending decision's player, else the
current player). Types and their fields:

    roll {dice}            buy | decline          bid {amount} | pass
    build_house {square}   build_hotel {square}   sell_house {square}
    sell_hotel {square}    (break a hotel down)   sell_group {group} (every building of a group)
    mortgage {square}      unmortgage {square}    lift_mortgage {square}   auction_mortgaged {square}
    trade {with, give, take}   (each side: {"squares": [...], "cash": n, "cards": ["chance"|"chest"]})
    pay_fine | use_card {deck?} | stay       pay | bankrupt | surrender    claim_rent {square}
    pay_tax {option: fixed|percent}          casino_bet {numbers, die, jackpot} | casino_decline
    bus {steps}            move_to {square}       end_turn        timeout {dice?}

Randomness is never drawn inside ``apply``: ``roll`` carries the dice (two
white dice, then the speed die when it is in play: its faces as the config
says, 1-3 = pips, 4-5 = Mr. Monopoly, 6 = Bus on the Hasbro die), ``casino_bet`` the casino die and the jackpot draw; a deck
reshuffle and the nearest-utility card's fresh throw use a generator seeded
from the state's ``seed``, so ``apply`` stays a function of state and action.
``legal_actions`` lists such actions without those fields; ``fill_random``
completes one from a ``random.Random``. ``legal_actions`` lists every finite
action (bids at the minimum amount, no trades: a trade is checked when
applied). A refused action raises ``IllegalAction`` (a ``GameError``) with the
rule's reason; a malformed state or action raises ``GameError``.
"""

from __future__ import annotations

import random
from typing import Any

from ..errors import GameError
from ..config import EngineConfig
from .rules import IllegalAction, Rules, rules_for
from .state import AUCTION, BUS, BUY, CASINO, DEBT, INCOME_TAX, JAIL_CHOICE, OVER, POST_ROLL, PRE_ROLL, \
    TRIPLES, GameState

__all__ = ["IllegalAction", "new_game", "legal_actions", "apply", "apply_state", "fill_random",
           "actor", "check"]


def new_game(config: EngineConfig, players: int, seed: int) -> dict:
    rules = rules_for(config)
    return rules.new_game(players, random.Random(seed)).to_json(rules.ownable)


def actor(g: GameState) -> int:
    """Who is expected to act now."""
    p = g.pending
    if g.phase == DEBT:
        return p["debtor"]
    if g.phase == AUCTION:
        if p["turn"] is not None:
            return p["turn"]
        for q in p["bidders"]:
            if q != p["leader"]:
                return q
        return p["bidders"][0]
    if p and "player" in p:
        return p["player"]
    return g.current


def _seat(g: GameState, action: dict) -> int:
    seat = action.get("seat")
    if seat is None:
        return actor(g)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < g.n:
        raise GameError(f"seat must be a player 0..{g.n - 1}, got {seat!r}")
    return seat


def _int(action: dict, key: str) -> int:
    v = action.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise GameError(f"action {action.get('type')!r} needs an integer {key!r}")
    return v


# action type -> (guard, perform) over (rules, g, seat, action)
_DISPATCH = {
    "roll": (lambda r, g, s, a: r.why_not_roll(g, s, a.get("dice")), lambda r, g, s, a: r.roll(g, a["dice"])),
    "buy": (lambda r, g, s, a: r.why_not_buy(g, s), lambda r, g, s, a: r.buy(g, s)),
    "decline": (lambda r, g, s, a: r.why_not_decline(g, s), lambda r, g, s, a: r.decline(g, s)),
    "bid": (lambda r, g, s, a: r.why_not_bid(g, s, a.get("amount")),
            lambda r, g, s, a: r.bid(g, s, a["amount"])),
    "pass": (lambda r, g, s, a: r.why_not_pass(g, s), lambda r, g, s, a: r.pass_bid(g, s)),
    "build_house": (lambda r, g, s, a: r.why_not_build_house(g, s, _int(a, "square")),
                    lambda r, g, s, a: r.build_house(g, s, a["square"])),
    "build_hotel": (lambda r, g, s, a: r.why_not_build_hotel(g, s, _int(a, "square")),
                    lambda r, g, s, a: r.build_hotel(g, s, a["square"])),
    "sell_house": (lambda r, g, s, a: r.why_not_sell_house(g, s, _int(a, "square")),
                   lambda r, g, s, a: r.sell_house(g, s, a["square"])),
    "sell_hotel": (lambda r, g, s, a: r.why_not_sell_hotel(g, s, _int(a, "square")),
                   lambda r, g, s, a: r.sell_hotel(g, s, a["square"])),
    "sell_group": (lambda r, g, s, a: r.why_not_sell_group(g, s, _int(a, "group")),
                   lambda r, g, s, a: r.sell_group(g, s, a["group"])),
    "mortgage": (lambda r, g, s, a: r.why_not_mortgage(g, s, _int(a, "square")),
                 lambda r, g, s, a: r.mortgage(g, s, a["square"])),
    "unmortgage": (lambda r, g, s, a: r.why_not_unmortgage(g, s, _int(a, "square")),
                   lambda r, g, s, a: r.unmortgage(g, s, a["square"])),
    "lift_mortgage": (lambda r, g, s, a: r.why_not_lift(g, s, _int(a, "square")),
                      lambda r, g, s, a: r.lift(g, s, a["square"])),
    "auction_mortgaged": (lambda r, g, s, a: r.why_not_auction_mortgaged(g, s, _int(a, "square")),
                          lambda r, g, s, a: r.auction_mortgaged(g, s, a["square"])),
    "trade": (lambda r, g, s, a: r.why_not_trade(g, s, a.get("with"), a.get("give", {}), a.get("take", {})),
              lambda r, g, s, a: r.trade(g, s, a["with"], a.get("give", {}), a.get("take", {}))),
    "pay_fine": (lambda r, g, s, a: r.why_not_pay_fine(g, s), lambda r, g, s, a: r.pay_fine(g, s)),
    "use_card": (lambda r, g, s, a: r.why_not_use_card(g, s),
                 lambda r, g, s, a: r.use_card(g, s, a.get("deck"))),
    "stay": (lambda r, g, s, a: r.why_not_stay(g, s), lambda r, g, s, a: r.stay(g, s)),
    "pay": (lambda r, g, s, a: r.why_not_pay(g, s), lambda r, g, s, a: r.pay(g, s)),
    "claim_rent": (lambda r, g, s, a: r.why_not_claim_rent(g, s, a.get("square")),
                   lambda r, g, s, a: r.claim_rent(g, s, a.get("square"))),
    "bankrupt": (lambda r, g, s, a: r.why_not_bankrupt(g, s), lambda r, g, s, a: r.bankrupt(g, s)),
    "surrender": (lambda r, g, s, a: r.why_not_surrender(g, s), lambda r, g, s, a: r.surrender(g, s)),
    "pay_tax": (lambda r, g, s, a: r.why_not_pay_tax(g, s, a.get("option")),
                lambda r, g, s, a: r.pay_tax(g, s, a["option"])),
    "casino_bet": (lambda r, g, s, a: r.why_not_casino_bet(g, s, a.get("numbers"), a.get("die"),
                                                           a.get("jackpot")),
                   lambda r, g, s, a: r.casino_bet(g, s, a["numbers"], a["die"], a["jackpot"])),
    "casino_decline": (lambda r, g, s, a: r.why_not_casino_decline(g, s),
                       lambda r, g, s, a: r.casino_decline(g, s)),
    "bus": (lambda r, g, s, a: r.why_not_bus(g, s, a.get("steps")), lambda r, g, s, a: r.bus(g, s, a["steps"])),
    "move_to": (lambda r, g, s, a: r.why_not_move_to(g, s, a.get("square")),
                lambda r, g, s, a: r.move_to(g, s, a["square"])),
    "end_turn": (lambda r, g, s, a: r.why_not_end_turn(g, s), lambda r, g, s, a: r.end_turn(g)),
    "timeout": (lambda r, g, s, a: r.why_not_timeout(g, s, a.get("dice")),
                lambda r, g, s, a: r.timeout(g, s, a.get("dice"))),
}
ACTION_TYPES = tuple(_DISPATCH)


def check(rules: Rules, g: GameState, action: Any) -> tuple[int, Any]:
    """Validate an action against the rules; return (seat, perform). Raises IllegalAction/GameError."""
    if not isinstance(action, dict) or action.get("type") not in _DISPATCH:
        kind = action.get("type") if isinstance(action, dict) else type(action).__name__
        raise GameError(f"unknown action {kind!r}; one of {', '.join(ACTION_TYPES)}")
    if g.phase == OVER:
        raise IllegalAction("the game is over")
    seat = _seat(g, action)
    guard, perform = _DISPATCH[action["type"]]
    why = guard(rules, g, seat, action)
    if why:
        raise IllegalAction(f"{action['type']} by seat {seat} refused in phase {g.phase}: {why}")
    return seat, perform


def apply_state(rules: Rules, g: GameState, action: dict) -> None:
    """Apply an action to a GameState in place (the step API's core; the simulator uses it too)."""
    seat, perform = check(rules, g, action)
    perform(rules, g, seat, action)


def apply(config: EngineConfig, state: dict, action: dict) -> tuple[dict, list[dict]]:
    """Apply one action to a canonical state: the successor state and the events it produced."""
    rules = rules_for(config)
    g = GameState.from_json(state, rules.ownable)
    g.events = []
    seat, perform = check(rules, g, action)
    try:
        perform(rules, g, seat, action)
    except (IndexError, KeyError, TypeError, ValueError) as exc:   # a hand-made state the rules cannot follow
        raise GameError(f"{action['type']}: the state is inconsistent ({type(exc).__name__}: {exc})") from None
    return g.to_json(rules.ownable), g.events


def fill_random(config: EngineConfig, state: dict | GameState, action: dict, rng: random.Random) -> dict:
    """Complete an action's random fields (dice, casino draw) from ``rng``."""
    rules = rules_for(config)
    g = state if isinstance(state, GameState) else GameState.from_json(state, rules.ownable)
    a = dict(action)
    if a["type"] in ("roll", "timeout") and "dice" not in a:
        if a["type"] == "roll" or config.clock.on_timeout == "default_choices":
            a["dice"] = [rng.randint(1, 6) for _ in range(rules.dice_needed(g))]
    if a["type"] == "casino_bet":
        a.setdefault("die", rng.randint(1, 6))
        a.setdefault("jackpot", rng.randrange(config.casino.jackpot_odds) == 0)
    return a


def legal_actions(config: EngineConfig, state: dict | GameState) -> list[dict]:
    """Every finite legal action (random fields left out; see ``fill_random``)."""
    rules = rules_for(config)
    g = state if isinstance(state, GameState) else GameState.from_json(state, rules.ownable)
    return enumerate_actions(rules, g)


def enumerate_actions(rules: Rules, g: GameState) -> list[dict]:
    out: list[dict] = []
    ph = g.phase
    if ph == OVER:
        return out
    pend = g.pending
    cur = g.current
    r = rules
    if ph == PRE_ROLL:
        if r.why_not_roll(g, cur, [1] * r.dice_needed(g)) is None:
            out.append({"type": "roll", "seat": cur})
        if r.why_not_timeout(g, cur, [1] * r.dice_needed(g)) is None:
            out.append({"type": "timeout", "seat": cur})
    elif ph == POST_ROLL:
        out.append({"type": "end_turn", "seat": cur})
    elif ph == BUY:
        p = pend["player"]
        if r.why_not_buy(g, p) is None:
            out.append({"type": "buy", "seat": p})
        out.append({"type": "decline", "seat": p})
    elif ph == AUCTION:
        seats = [pend["turn"]] if pend["turn"] is not None else list(pend["bidders"])
        for q in seats:
            amount = r.min_bid(g)
            if r.why_not_bid(g, q, amount) is None:
                out.append({"type": "bid", "seat": q, "amount": amount})
            if r.why_not_pass(g, q) is None:
                out.append({"type": "pass", "seat": q})
    elif ph == DEBT:
        p = pend["debtor"]
        if r.why_not_pay(g, p) is None:
            out.append({"type": "pay", "seat": p})
        if r.why_not_bankrupt(g, p) is None:
            out.append({"type": "bankrupt", "seat": p})
        if r.why_not_timeout(g, p) is None:
            out.append({"type": "timeout", "seat": p})
    elif ph == INCOME_TAX:
        p = pend["player"]
        out += [{"type": "pay_tax", "seat": p, "option": o} for o in ("fixed", "percent")]
    elif ph == CASINO:
        p = pend["player"]
        c = r.cfg.casino
        if g.cash[p] >= c.stake:
            for k in range(1, c.max_numbers + 1):
                out.append({"type": "casino_bet", "seat": p, "numbers": list(range(1, k + 1))})
        if r.why_not_casino_decline(g, p) is None:
            out.append({"type": "casino_decline", "seat": p})
    elif ph == BUS:
        for steps in pend["options"]:
            out.append({"type": "bus", "seat": pend["player"], "steps": steps})
    elif ph == TRIPLES:
        out += [{"type": "move_to", "seat": pend["player"], "square": s} for s in range(40)]
    elif ph == JAIL_CHOICE:
        p = pend["player"]
        out.append({"type": "stay", "seat": p})
    # jail exits, management and surrender, for every player who may act now
    for p in range(g.n):
        if g.bankrupt[p]:
            continue
        if r.why_not_pay_fine(g, p) is None:
            out.append({"type": "pay_fine", "seat": p})
        if r.why_not_use_card(g, p) is None:
            out.append({"type": "use_card", "seat": p})
        if r._manage_window(g, p, "anytime", raises_cash=True) is None:   # the widest window; each guard decides
            for s in r.ownable:
                if g.owner[s] != p and not (g.mortgaged[s] and r.cfg.mortgage.others_may_lift):
                    continue
                for kind, guard in (("build_house", r.why_not_build_house), ("build_hotel", r.why_not_build_hotel),
                                    ("sell_house", r.why_not_sell_house), ("sell_hotel", r.why_not_sell_hotel),
                                    ("mortgage", r.why_not_mortgage), ("unmortgage", r.why_not_unmortgage),
                                    ("lift_mortgage", r.why_not_lift),
                                    ("auction_mortgaged", r.why_not_auction_mortgaged)):
                    if guard(g, p, s) is None:
                        out.append({"type": kind, "seat": p, "square": s})
            for grp in range(len(r.groups)):
                if r.why_not_sell_group(g, p, grp) is None:
                    out.append({"type": "sell_group", "seat": p, "group": grp})
        if r.why_not_surrender(g, p) is None:
            out.append({"type": "surrender", "seat": p})
    if g.claims and ph in (PRE_ROLL, POST_ROLL, BUY):
        for c in g.claims:
            out.append({"type": "claim_rent", "seat": c[1], "square": c[2]})
    return out


__all__ += ["enumerate_actions", "ACTION_TYPES"]
