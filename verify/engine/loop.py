"""The game loop of one seeded game: ask the seat's bot, apply its answer with the rules.

``verify.engine.simulate.play_game`` (the public entry) runs this loop of the engine it is given:
the readable one (this module as written) or the compiled one (this module compiled with the
rules, the state and the bots by ``verify.engine.native``), so the loop calls the rule functions
by name with the config's tables (``turns.roll(t, g, seat, dice)``), which the compiled code
turns into direct calls.

Without a recorder the loop takes a fast path: the frequent actions (roll, buy/decline, end of
turn, paying, a bot's building, selling and mortgaging) call the rule directly, nothing is
serialised and no event objects are built; a bot's move on a square (``next_move``, ``next_sale``)
becomes no action dict.
With a recorder (a trace file, invariant checks) every action goes through the recorder
(``step.apply_state`` by default), which sees the state before and after, so a recorded game is
the same game as an unrecorded one.
"""

from __future__ import annotations

import random
from typing import Any, Final, Optional, cast

from .actions import ACTIONS
from .policies import MOVE, NOTHING, HeuristicPolicy, adopt
from .rules import auctions, base, building, debts, flow, mortgages, trades, turns
from .screen import Screen
from .simulate import GameResult, Unscreened
from .state import AUCTION, BUY, DEBT, OVER, POST_ROLL, PRE_ROLL, GameState
from .step import enumerate_actions
from ..config.tables import Tables

#: at most this many rounds of a bot's management before its roll (each round: every action it asks for)
MANAGE_ROUNDS: Final = 40
#: each action's fields in order, with their defaults (from the registry): the fast path's dispatch
FIELDS: dict[str, tuple[tuple[str, Any], ...]] = {
    name: tuple((f.name, f.default) for f in a.fields) for name, a in ACTIONS.items()}


def dispatch(effects: dict[str, Any]) -> dict[str, tuple[Any, tuple[tuple[str, Any], ...]]]:
    """Action type -> (its effect, its fields with their defaults): one look-up per action."""
    return {name: (effect, FIELDS.get(name, ())) for name, effect in effects.items()}


def act(table: dict[str, tuple[Any, tuple[tuple[str, Any], ...]]], g: GameState, a: dict[str, Any]) -> None:
    """Apply action ``a`` to ``g`` through its effect in ``table`` (``dispatch``)."""
    seat = a.get("seat")
    effect, fields = table[a["type"]]
    who = flow.awaited(g) if seat is None else seat
    if not fields:
        effect(g, who)
    elif len(fields) == 1:      # (most actions: a square, a group...; called without building a tuple)
        name, default = fields[0]
        effect(g, who, a.get(name, default))
    else:
        effect(g, who, *[a.get(name, default) for name, default in fields])


def apply(t: Tables, table: dict[str, tuple[Any, tuple[tuple[str, Any], ...]]], g: GameState,
          a: dict[str, Any]) -> None:
    """Apply action ``a`` as ``act`` does, calling the rule of the actions the bots take most (management,
    leaving jail, debts, trades) by name: a direct call in the compiled build, where a call through the
    table's effects is a call of a Python object."""
    kind: str = a["type"]
    seat = a.get("seat")
    who: int = flow.awaited(g) if seat is None else seat
    if kind == "pay_fine":
        turns.pay_fine(t, g, who)
    elif kind == "bankrupt":
        debts.bankrupt(t, g, who)
    elif kind == "trade":
        trades.trade(t, g, who, a["with"], a.get("give", {}), a.get("take", {}))
    elif not ("square" in a and on_square(t, g, who, kind, a["square"])):
        act(table, g, a)


def on_square(t: Tables, g: GameState, seat: int, kind: str, square: int) -> bool:
    """Apply the management action ``kind`` of ``seat`` on ``square`` (building, selling, mortgaging) by
    name; False for an action of another type (nothing applied). A bot's move (``next_move``) comes
    here without an action dict."""
    if kind == "build_house":
        building.build_house(t, g, seat, square)
    elif kind == "build_hotel":
        building.build_hotel(t, g, seat, square)
    elif kind == "unmortgage":
        mortgages.unmortgage(t, g, seat, square)
    elif kind == "mortgage":
        mortgages.mortgage(t, g, seat, square)
    elif kind == "sell_house":
        building.sell_house(t, g, seat, square)
    elif kind == "sell_hotel":
        building.sell_hotel(t, g, seat, square)
    else:
        return False
    return True


def bot_move(t: Tables, g: GameState, seat: int, kind: str, square: int) -> None:
    """Apply a bot's move on a square (``HeuristicPolicy.next_move``) without its action dict."""
    if not on_square(t, g, seat, kind, square):
        raise ValueError(f"a bot's move {kind!r} is no action on a square")


def screened(screen: Screen, g: GameState) -> None:
    """After an action of a checked game on the fast path: stop the game when its screen is not sure that
    every promised invariant holds (``verify.engine.simulate.play_game`` then plays it through the recorder)."""
    if not screen.after(g):
        raise Unscreened(screen.steps)


def play(e: Any, policies: list[Any], seed: int, max_turns: int, recorder: Any, observe: Any) -> GameResult:
    t: Tables = e.t
    rng = random.Random(seed)
    n = len(policies)
    legal = lambda g: enumerate_actions(e, g)  # noqa: E731 - the random bot's choices
    bots: list[HeuristicPolicy] = [adopt(policy, legal) for policy in policies]
    g = base.new_game(t, n, rng)
    g.landings = [0] * t.size
    rnd = rng.random
    tracing = recorder is not None
    table = e.effects     # the fast path's
    # a checked game's screen (``verify.engine.screen``): the game on the fast path, checked after each action
    screen: Optional[Screen] = None
    if tracing and observe is None:
        make = getattr(recorder, "screen_for", None)
        screen = make(e, g) if make is not None else None
    if screen is not None:
        tracing = False
        if not screen.ok:
            raise Unscreened(0)
    elif tracing:
        g.events = []
        recorder.start(e, g)
    cfg = t.cfg
    timed = cfg.clock.on_timeout != "none"
    default_choices = cfg.clock.on_timeout == "default_choices"
    two_dice = t.white == 2 and not cfg.speed_die.enabled
    debt_timer = cfg.debt.repayment_seconds is not None
    post_manage = [b.name == "random" for b in bots]
    rolls = 0
    guard = 0
    # the player-turn at which the loop next stops to look: the turn limit, or the next turn to observe
    stop_at = max_turns if observe is None else 0
    while True:
        ph = g.phase
        if g.claims and (ph == PRE_ROLL or ph == POST_ROLL or ph == BUY):
            claimed = False
            for c in list(g.claims):
                owner: int = c[1]
                if c in g.claims and bots[owner].claims_rent(t, g, c):
                    if tracing:
                        recorder.step(e, g, {"type": "claim_rent", "seat": owner, "square": c[2]})
                    else:
                        debts.claim_rent(t, g, owner, c[2])
                        if screen is not None:
                            screened(screen, g)
                    claimed = True
                    if g.phase not in (PRE_ROLL, POST_ROLL, BUY):
                        break
            if claimed:
                continue
        if ph == PRE_ROLL:
            p = g.current
            if g.player_turns >= stop_at:
                if g.player_turns >= max_turns:
                    break
                observe(g)
                stop_at = min(max_turns, g.player_turns + 1)
            pol = bots[p]
            # the bot's management (``manage``, one action at a time): a move on a square is applied
            # without building its action, unless a recorder is to see it
            kind, square = pol.next_move(t, g, p)
            if kind:
                for _ in range(MANAGE_ROUNDS):
                    if kind != MOVE and not tracing:
                        bot_move(t, g, p, kind, square)
                        if screen is not None:
                            screened(screen, g)
                    else:
                        move: dict[str, Any] = (pol.move if kind == MOVE
                                                else {"type": kind, "seat": p, "square": square})
                        if move["type"] != "trade" or bots[move["with"]].accepts(
                                t, g, move["with"], p, move.get("give", {}), move.get("take", {})):
                            if tracing:
                                recorder.step(e, g, move)
                            else:
                                apply(t, table, g, move)
                                if screen is not None:
                                    screened(screen, g)
                    if g.phase != PRE_ROLL or g.current != p:
                        break
                    kind, square = pol.next_move(t, g, p)
                    if not kind:
                        break
                if g.phase != PRE_ROLL or g.current != p:
                    continue
            k = 2 if two_dice else base.dice_needed(t, g)
            if k == 2:
                dice: tuple[int, ...] = (int(rnd() * 6) + 1, int(rnd() * 6) + 1)
            else:
                dice = tuple([int(rnd() * 6) + 1 for _ in range(k)])
            if timed and not g.rolled and pol.times_out(t, g, p):
                a = {"type": "timeout", "seat": p, "dice": list(dice)}
                if tracing:
                    recorder.step(e, g, a)
                else:
                    apply(t, table, g, a)
                    if screen is not None:
                        screened(screen, g)
                if default_choices:
                    rolls += 1
                continue
            rolls += 1
            if tracing:
                recorder.step(e, g, {"type": "roll", "seat": p, "dice": list(dice)})
            else:
                turns.roll(t, g, p, dice)
                if screen is not None:
                    screened(screen, g)
                # the common case: the move ended with nothing left to decide or claim
                if g.phase == POST_ROLL and not g.claims and not post_manage[p]:
                    flow.next_turn(t, g)
                    if screen is not None:
                        screened(screen, g)
        elif ph == POST_ROLL:
            p = g.current
            if post_manage[p]:
                for a in bots[p].manage(t, g, p):
                    if tracing:
                        recorder.step(e, g, a)
                    else:
                        apply(t, table, g, a)
                        if screen is not None:
                            screened(screen, g)
                if g.phase != POST_ROLL:
                    continue
            if tracing:
                recorder.step(e, g, {"type": "end_turn", "seat": p})
            else:
                flow.next_turn(t, g)
                if screen is not None:
                    screened(screen, g)
        elif ph == BUY:
            p = cast(int, g.pending["player"])     # (typed: the bot is called natively)
            s: int = g.pending["square"]
            yes = bots[p].wants_buy(t, g, p, s) and auctions.why_not_buy(t, g, p) is None
            if tracing:
                recorder.step(e, g, {"type": "buy" if yes else "decline", "seat": p})
            else:
                if yes:
                    auctions.buy(t, g, p)
                else:
                    auctions.decline(t, g, p)
                if screen is not None:
                    screened(screen, g)
        elif ph == AUCTION:
            q = flow.awaited(g)
            amount = bots[q].bid(t, g, q)
            if tracing:
                recorder.step(e, g, {"type": "bid", "seat": q, "amount": amount} if amount is not None
                              else {"type": "pass", "seat": q})
            else:
                if amount is not None:
                    auctions.bid(t, g, q, amount)
                else:
                    auctions.pass_bid(t, g, q)
                if screen is not None:
                    screened(screen, g)
        elif ph == DEBT:
            p = cast(int, g.pending["debtor"])
            owed: int = g.pending["amount"]
            a = None
            if debt_timer and bots[p].times_out(t, g, p):
                a = {"type": "timeout", "seat": p}    # the repayment timer ran out
            elif g.cash[p] >= owed:
                if tracing:
                    a = {"type": "pay", "seat": p}
                else:
                    debts.pay(t, g, p)
                    if screen is not None:
                        screened(screen, g)
            else:
                kind, square = bots[p].next_sale(t, g, p, owed) if base.raisable(t, g, p, owed) >= owed else NOTHING
                if kind == MOVE or (kind and tracing):
                    a = bots[p].move if kind == MOVE else {"type": kind, "seat": p, "square": square}
                elif kind:      # (a sale or a mortgage, applied without its action dict)
                    bot_move(t, g, p, kind, square)
                    if screen is not None:
                        screened(screen, g)
                else:
                    if debts.why_not_bankrupt(t, g, p) is None:
                        a = {"type": "bankrupt", "seat": p}
                    else:
                        # bankruptcy is refused although selling and mortgaging cannot raise the debt: the
                        # debt is within the debtor's worth (bankruptcy.threshold: debt_exceeds_worth): sell
                        # a deed to another player, else give up, else raise what can be raised while the
                        # timer runs
                        offer = bots[p].debt_trade(t, g, p, owed)
                        if offer is not None:
                            if bots[offer["with"]].accepts(t, g, offer["with"], p, offer["give"], offer["take"]):
                                if tracing:
                                    recorder.step(e, g, offer)
                                else:
                                    apply(t, table, g, offer)
                                    if screen is not None:
                                        screened(screen, g)
                            continue
                        if debts.why_not_surrender(t, g, p) is None:
                            a = {"type": "surrender", "seat": p}
                        else:
                            a = bots[p].raise_cash(t, g, p, owed)
                            if a is None:
                                if not debt_timer:
                                    raise RuntimeError(f"seat {p} can neither pay, raise cash, trade nor go "
                                                       "bankrupt")
                                a = {"type": "timeout", "seat": p}
            if a is not None:
                if tracing:
                    recorder.step(e, g, a)
                else:
                    apply(t, table, g, a)
                    if screen is not None:
                        screened(screen, g)
        elif ph == OVER:
            break
        else:
            q = flow.awaited(g)
            a = bots[q].decide(t, g, q, rng)
            if a["type"] == "casino_bet":
                a["die"] = int(rnd() * 6) + 1
                a["jackpot"] = rng.randrange(cfg.casino.jackpot_odds) == 0
            if tracing:
                recorder.step(e, g, a)
            else:
                apply(t, table, g, a)
                if screen is not None:
                    screened(screen, g)
        guard += 1
        if guard > max_turns * 400:
            raise RuntimeError(f"game {seed} does not progress (phase {g.phase})")
    if tracing or screen is not None:
        recorder.finish(e, g)
    if observe is not None:
        observe(g)
    landings = g.landings
    return GameResult(seed=seed, finished=g.phase == OVER, result=g.result, winner=g.winner, rolls=rolls,
                      player_turns=g.player_turns, rounds=g.round,
                      bankrupt=[i for i in range(n) if g.bankrupt[i]],
                      landings=landings if landings is not None else [])


__all__ = ["play", "act", "apply", "on_square", "dispatch", "FIELDS"]
