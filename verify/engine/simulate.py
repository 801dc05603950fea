"""The game loop and simulation campaigns.

``play_game`` drives one seeded game: it asks the seat's policy at each
decision point and applies the answer with the rule functions of the config's
engine (``verify.engine.engines``: the same code the step API runs). Without a recorder it takes a fast path: the
frequent actions (roll, buy/decline, end of turn) call the rule directly,
nothing is serialised and no event objects are built. With a recorder (a
trace file, invariant checks) every action goes through
``step.apply_state`` and the recorder sees the canonical state before and
after, so a recorded game is the same game as an unrecorded one.

``observe`` (the balance study's hook) is called with the state at the start
of every player-turn and once when the game stops; without it the loop does
not test for it (the turn-limit test doubles as the next-observation test).
Campaigns (many games, chunked for the execution layer) are
``verify.engine.campaign``; ``game_seed`` gives game ``i`` of a campaign its
seed, whatever chunk or process plays it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from .actions import ACTIONS, awaited
from .engines import Engine
from .state import AUCTION, BUY, DEBT, OVER, POST_ROLL, PRE_ROLL, GameState
from .step import apply_state

#: A game that has not ended after this many player-turns stops and counts as "hit a limit".
DEFAULT_MAX_TURNS = 2000


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a campaign (independent of how games are split over processes)."""
    return random.Random(f"{seed}:{index}").getrandbits(63)


@dataclass
class GameResult:
    seed: int
    finished: bool
    result: str | None
    winner: int | None
    rolls: int
    player_turns: int
    rounds: int
    bankrupt: list[int]
    landings: list[int]


class Recorder:
    """Sees every action with the canonical state before and after (traces, invariant checks)."""

    def start(self, rules: Engine, g: GameState) -> None:  # pragma: no cover - interface
        pass

    def step(self, rules: Engine, g: GameState, action: dict) -> None:
        apply_state(rules, g, action)

    def finish(self, rules: Engine, g: GameState) -> None:  # pragma: no cover - interface
        pass


def play_game(rules: Engine, policies: list, seed: int, max_turns: int = DEFAULT_MAX_TURNS,
              recorder: Recorder | None = None,
              observe: Callable[[GameState], None] | None = None) -> GameResult:
    rng = random.Random(seed)
    n = len(policies)
    g = rules.new_game(n, rng)
    g.landings = [0] * 40
    rnd = rng.random
    tracing = recorder is not None
    if tracing:
        g.events = []
        recorder.start(rules, g)

        def act(a: dict) -> None:
            recorder.step(rules, g, a)
    else:
        dispatch = rules.dispatch

        def act(a: dict) -> None:   # policies only propose actions whose guard they checked
            seat = a.get("seat")
            kind = a["type"]
            dispatch[kind][1](g, awaited(g) if seat is None else seat,
                              *[a.get(f.name, f.default) for f in ACTIONS[kind].fields])

    timed = rules.cfg.clock.on_timeout != "none"
    two_dice = rules.white == 2 and not rules.cfg.speed_die.enabled
    debt_timer = rules.cfg.debt.repayment_seconds is not None
    post_manage = [getattr(p, "name", "") == "random" for p in policies]
    rolls = 0
    guard = 0
    # the player-turn at which the loop next stops to look: the turn limit, or the next turn to observe
    stop_at = max_turns if observe is None else 0
    while True:
        ph = g.phase
        if g.claims and (ph == PRE_ROLL or ph == POST_ROLL or ph == BUY):
            claimed = False
            for c in list(g.claims):
                if c in g.claims and policies[c[1]].claims_rent(rules, g, c):
                    if tracing:
                        act({"type": "claim_rent", "seat": c[1], "square": c[2]})
                    else:
                        rules.claim_rent(g, c[1], c[2])
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
            pol = policies[p]
            acts = pol.manage(rules, g, p)
            if acts:
                for _ in range(40):
                    for a in acts:
                        if a["type"] == "trade" and not policies[a["with"]].accepts(
                                rules, g, a["with"], p, a.get("give", {}), a.get("take", {})):
                            continue
                        act(a)
                    if g.phase != PRE_ROLL or g.current != p:
                        break
                    acts = pol.manage(rules, g, p)
                    if not acts:
                        break
                if g.phase != PRE_ROLL or g.current != p:
                    continue
            k = 2 if two_dice else rules.dice_needed(g)
            if k == 2:
                dice = (int(rnd() * 6) + 1, int(rnd() * 6) + 1)
            else:
                dice = tuple(int(rnd() * 6) + 1 for _ in range(k))
            if timed and not g.rolled and hasattr(pol, "times_out") and pol.times_out(rules, g, p):
                act({"type": "timeout", "seat": p, "dice": list(dice)})
                if rules.cfg.clock.on_timeout == "default_choices":
                    rolls += 1
                continue
            rolls += 1
            if tracing:
                act({"type": "roll", "seat": p, "dice": list(dice)})
            else:
                rules.roll(g, p, dice)
                # the common case: the move ended with nothing left to decide or claim
                if g.phase == POST_ROLL and not g.claims and not post_manage[p]:
                    rules.next_turn(g)
        elif ph == POST_ROLL:
            p = g.current
            if post_manage[p]:
                for a in policies[p].manage(rules, g, p):
                    act(a)
                if g.phase != POST_ROLL:
                    continue
            if tracing:
                act({"type": "end_turn", "seat": p})
            else:
                rules.next_turn(g)
        elif ph == BUY:
            p = g.pending["player"]
            s = g.pending["square"]
            yes = policies[p].wants_buy(rules, g, p, s) and rules.why_not_buy(g, p) is None
            if tracing:
                act({"type": "buy" if yes else "decline", "seat": p})
            elif yes:
                rules.buy(g, p)
            else:
                rules.decline(g, p)
        elif ph == AUCTION:
            q = awaited(g)
            amount = policies[q].bid(rules, g, q)
            act({"type": "bid", "seat": q, "amount": amount} if amount is not None
                else {"type": "pass", "seat": q})
        elif ph == DEBT:
            p = g.pending["debtor"]
            amount = g.pending["amount"]
            if debt_timer and hasattr(policies[p], "times_out") and policies[p].times_out(rules, g, p):
                act({"type": "timeout", "seat": p})    # the repayment timer ran out
            elif g.cash[p] >= amount:
                if tracing:
                    act({"type": "pay", "seat": p})
                else:
                    rules.pay(g, p)
            else:
                a = policies[p].raise_cash(rules, g, p, amount) if rules.raisable(g, p) >= amount else None
                if a is not None:
                    act(a)
                elif rules.why_not_bankrupt(g, p) is None:
                    act({"type": "bankrupt", "seat": p})
                else:
                    # bankruptcy is refused although selling and mortgaging cannot raise the debt: the debt
                    # is within the debtor's worth (bankruptcy.threshold: debt_exceeds_worth): sell a deed to
                    # another player, else give up, else raise what can be raised while the timer runs
                    a = policies[p].debt_trade(rules, g, p, amount)
                    if a is not None:
                        if policies[a["with"]].accepts(rules, g, a["with"], p, a["give"], a["take"]):
                            act(a)
                        continue
                    if rules.why_not_surrender(g, p) is None:
                        act({"type": "surrender", "seat": p})
                    elif (a := policies[p].raise_cash(rules, g, p, amount)) is not None:
                        act(a)
                    elif debt_timer:
                        act({"type": "timeout", "seat": p})
                    else:
                        raise RuntimeError(f"seat {p} can neither pay, raise cash, trade nor go bankrupt")
        elif ph == OVER:
            break
        else:
            q = awaited(g)
            a = policies[q].decide(rules, g, q, rng)
            if a["type"] == "casino_bet":
                a["die"] = int(rnd() * 6) + 1
                a["jackpot"] = rng.randrange(rules.cfg.casino.jackpot_odds) == 0
            act(a)
        guard += 1
        if guard > max_turns * 400:
            raise RuntimeError(f"game {seed} does not progress (phase {g.phase})")
    if tracing:
        recorder.finish(rules, g)
    if observe is not None:
        observe(g)
    return GameResult(seed=seed, finished=g.phase == OVER, result=g.result, winner=g.winner, rolls=rolls,
                      player_turns=g.player_turns, rounds=g.round,
                      bankrupt=[i for i in range(n) if g.bankrupt[i]], landings=g.landings)


__all__ = ["play_game", "GameResult", "Recorder", "game_seed", "DEFAULT_MAX_TURNS"]
