"""The game loop and simulation campaigns.

``play_game`` drives one seeded game: it asks the seat's policy at each
decision point and applies the answer with the rule code of ``rules.py`` (the
same code the step API runs). Without a recorder it takes a fast path: the
frequent actions (roll, buy/decline, end of turn) call the rule directly,
nothing is serialised and no event objects are built. With a recorder (a
trace file, invariant checks) every action goes through
``step.apply_state`` and the recorder sees the canonical state before and
after, so a recorded game is the same game as an unrecorded one.

``run_campaign`` plays N games with per-game seeds derived from the campaign
seed and the game's index, optionally over several processes; the summary
does not depend on the number of processes.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable

from ..config import EngineConfig
from .policies import make_policies
from .rules import Rules, rules_for
from .state import AUCTION, BUY, DEBT, OVER, POST_ROLL, PRE_ROLL, GameState
from .step import _DISPATCH, actor, apply_state

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

    def start(self, rules: Rules, g: GameState) -> None:  # pragma: no cover - interface
        pass

    def step(self, rules: Rules, g: GameState, action: dict) -> None:
        apply_state(rules, g, action)

    def finish(self, rules: Rules, g: GameState) -> None:  # pragma: no cover - interface
        pass


def play_game(rules: Rules, policies: list, seed: int, max_turns: int = DEFAULT_MAX_TURNS,
              recorder: Recorder | None = None) -> GameResult:
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
        def act(a: dict) -> None:   # policies only propose actions whose guard they checked
            seat = a.get("seat")
            _DISPATCH[a["type"]][1](rules, g, actor(g) if seat is None else seat, a)

    timed = rules.cfg.clock.on_timeout != "none"
    two_dice = rules.white == 2 and not rules.speed_on
    debt_timer = rules.cfg.debt.repayment_seconds is not None
    post_manage = [getattr(p, "name", "") == "random" for p in policies]
    rolls = 0
    guard = 0
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
            if g.player_turns >= max_turns:
                break
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
                rules.roll(g, dice)
                # the common case: the move ended with nothing left to decide or claim
                if g.phase == POST_ROLL and not g.claims and not post_manage[p]:
                    rules.end_turn(g)
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
                rules.end_turn(g)
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
            q = actor(g)
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
                elif rules.why_not_surrender(g, p) is None:
                    act({"type": "surrender", "seat": p})
                else:
                    a = policies[p].raise_cash(rules, g, p, amount)
                    if a is None:
                        raise RuntimeError(f"seat {p} can neither pay, raise cash nor go bankrupt")
                    act(a)
        elif ph == OVER:
            break
        else:
            q = actor(g)
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
    return GameResult(seed=seed, finished=g.phase == OVER, result=g.result, winner=g.winner, rolls=rolls,
                      player_turns=g.player_turns, rounds=g.round,
                      bankrupt=[i for i in range(n) if g.bankrupt[i]], landings=g.landings)


# ---------------------------------------------------------------------- campaigns
@dataclass(frozen=True)
class CampaignSpec:
    config: EngineConfig
    players: int
    seed: int
    policy: str = "heuristic"
    jail: str = "leave"
    max_turns: int = DEFAULT_MAX_TURNS
    #: invariant ids to evaluate after every action (None: no checks, the fast path)
    check: tuple[str, ...] | None = None


@dataclass
class Summary:
    ruleset: str
    games: int
    players: int
    seed: int
    policy: str
    jail: str
    results: list[GameResult] = field(default_factory=list)
    elapsed_s: float = 0.0
    #: the first invariant violation (lowest game index), as InvariantBroken.report() plus game and seed
    violation: dict | None = None

    def to_json(self) -> dict:
        rs = self.results
        turns = [r.player_turns for r in rs]
        rolls = [r.rolls for r in rs]
        landings = [0] * 40
        wins = [0] * self.players
        bankruptcies = [0] * self.players
        results: dict[str, int] = {}
        for r in rs:
            for i, v in enumerate(r.landings):
                landings[i] += v
            if r.finished and r.winner is not None:
                wins[r.winner] += 1
            for b in r.bankrupt:
                bankruptcies[b] += 1
            key = r.result or "limit"
            results[key] = results.get(key, 0) + 1
        finished = sum(1 for r in rs if r.finished)
        total_turns = sum(turns)
        return {
            "ruleset": self.ruleset, "games": self.games, "players": self.players, "seed": self.seed,
            "policy": self.policy, "jail_strategy": self.jail,
            "finished": finished, "hit_limit": len(rs) - finished, "end_reasons": results,
            "rolls": sum(rolls), "player_turns": total_turns,
            "turns": _dist(turns), "rolls_per_game": _dist(rolls),
            "landings": landings, "wins": wins, "bankruptcies": bankruptcies,
            "bankruptcies_total": sum(bankruptcies),
            "elapsed_s": round(self.elapsed_s, 3),
            "player_turns_per_s": round(total_turns / self.elapsed_s, 1) if self.elapsed_s > 0 else None,
        }


def _dist(xs: list[int]) -> dict:
    if not xs:
        return {"mean": 0, "median": 0, "p90": 0}
    s = sorted(xs)
    p90 = s[min(len(s) - 1, int(round(0.9 * (len(s) - 1))))]
    return {"mean": round(statistics.fmean(s), 2), "median": statistics.median(s), "p90": p90}


def _play_range(spec: CampaignSpec, start: int, stop: int) -> tuple[list[GameResult], dict | None]:
    """Games start..stop-1; with checks, stop at the first violation (returned as a plain dict)."""
    rules = rules_for(spec.config)
    out = []
    checker = None
    if spec.check is not None:
        from .trace import InvariantBroken, InvariantChecker, TraceRecorder
        checker = InvariantChecker(spec.config, spec.check)
    for i in range(start, stop):
        s = game_seed(spec.seed, i)
        pols = make_policies(spec.policy, spec.players, spec.jail, s)
        if checker is None:
            out.append(play_game(rules, pols, s, spec.max_turns))
            continue
        try:
            out.append(play_game(rules, pols, s, spec.max_turns, TraceRecorder(None, None, checker)))
        except InvariantBroken as exc:
            return out, dict(exc.report(), game=i, seed=s)
    return out, None


def _worker(args):
    spec, start, stop = args
    return start, _play_range(spec, start, stop)


def run_campaign(spec: CampaignSpec, games: int, ruleset: str, jobs: int = 1,
                 progress: Callable[[int], None] | None = None) -> Summary:
    rules_for(spec.config)  # fail early on a bad config
    summary = Summary(ruleset, games, spec.players, spec.seed, spec.policy, spec.jail)
    t0 = time.perf_counter()
    if jobs <= 1 or games < 2:
        for i in range(games):
            res, bad = _play_range(spec, i, i + 1)
            summary.results.extend(res)
            if progress:
                progress(1)
            if bad:
                summary.violation = bad
                break
    else:
        import multiprocessing as mp

        from ..interrupt import worker_init
        chunk = max(1, min(50 if spec.check is None else 5, games // (jobs * 4) or 1))
        tasks = [(spec, i, min(games, i + chunk)) for i in range(0, games, chunk)]
        parts: dict[int, tuple[list[GameResult], dict | None]] = {}
        ctx = mp.get_context("fork") if hasattr(mp, "get_context") else mp
        with ctx.Pool(jobs, initializer=worker_init) as pool:
            for start, part in pool.imap_unordered(_worker, tasks):
                parts[start] = part
                if progress:
                    progress(len(part[0]))
        for start in sorted(parts):   # in game order: the first violation is the lowest game index
            res, bad = parts[start]
            summary.results.extend(res)
            if bad:
                summary.violation = bad
                break
    summary.elapsed_s = time.perf_counter() - t0
    return summary


__all__ = ["play_game", "run_campaign", "CampaignSpec", "Summary", "GameResult", "Recorder", "game_seed",
           "DEFAULT_MAX_TURNS"]
