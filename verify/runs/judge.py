"""Judging a ruleset's refuted steps and its live rules on real games: roots, consequences, CTIs, dead rules.

``verify check`` proves each action x invariant step from every state that satisfies the
invariants: sound for PROVED, not for VIOLATED, since such a state may be one no game reaches. For
each promised check it did not prove, this module decides what the refutation means:

1. **A counterexample to induction** (CTI): the invariants strengthened with lemmas
   (``verify.smt.lemmas``: the largest set of facts true at a game's start and kept by every
   action) exclude every state the step breaks from. The check is PROVED, and says which lemmas
   its proof needed.
2. **A root**: a run from a game's start over the transitions (``verify.smt.reach``), every state
   on the way keeping every promise, whose last step breaks the invariant, played on the engine
   (``verify.runs.play``) whose own checker reports the break at that step. VIOLATED, with the run.
3. **A consequence**: the step breaks the invariant only in a game where another promise broke
   first. VIOLATED, naming that root as its cause, with the run; counts and the exit status follow
   the roots (``verify.report.matrix``).
4. Otherwise UNKNOWN, with what was searched: never a break, never a proof.

An action the invariants allow (the check's ``(enabled)``) is live only when a game shows it: a
bot game on the engine (``verify.runs.seen``) or a run over the transitions from a game's start.
It is dead when the strengthened invariants exclude its guard, and otherwise reported as enabled
by the invariants but reached by no run within the bound (UNKNOWN).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.step import new_game
from ..invariants import Invariant, load_invariants
from ..smt import reach
from ..smt.transitions import BY_NAME, TRANSITIONS, Transition
from ..smt.lemmas import Strengthening, candidates, strengthen
from ..smt.model import Model
from ..smt.oracle import sym_from_state
from ..smt.reads import Log, Recorder, same_reads
from ..smt.scenario import describe, story
from ..smt.verdict import CheckResult, Verdict
from .play import play_on
from .seen import seen, transitions
from .table import Table

#: the seed of every run's game (it fixes the decks' order and who starts)
RUN_SEED = 1
#: how many times a run is planned again from where the engine's game stands, when the last plan fell short
REPLANS = 3
#: the deepest search for a witness that an action can fire, and its budget in z3's work
LIVE_DEPTH = 4
LIVE_RLIMIT = 20_000_000
LIVE = "(enabled)"

#: moves of the first, small searches: building up, mortgages, trades, the GO salary, rounds
_CORE = ("buy", "build_house", "build_hotel", "sell_house", "sell_hotel", "mortgage", "unmortgage", "trade",
         "salary", "new_round", "mortgage_expired")
#: moves of the quick search for a witness that an action can fire
_BUILD = ("buy", "auction_won", "build_house", "build_hotel", "mortgage", "sell_house", "salary")
#: moves of the first search for a bankruptcy: a rent too high to pay, and a debtor with nothing to raise
_DEBT = ("buy", "build_house", "mortgage", "trade")
#: transitions a run cannot steer on the engine yet (a card drawn, the casino's die)
_UNSTEERED = ("card_bank", "card_repairs", "card_each_player", "card_destroy_building", "casino_bet")


@dataclass
class _Ruleset:
    """What judging one ruleset needs: its model, the game's start, the invariants, the lemmas (lazily)."""

    target: Any
    m: Model
    start: dict
    invariants: dict[str, Invariant]
    inductive: set[str]
    actions: tuple[str, ...]
    timeout_s: float
    depth: int
    _lemmas: Strengthening | None = None
    #: every game a search played on the engine, kept: a game that broke one check may show another's break
    played: list[Table] = field(default_factory=list)

    @property
    def backstop(self) -> float:
        """A search's wall-clock limit: only a backstop, since its budget is counted in z3's work."""
        return max(60.0, 6 * self.timeout_s)

    @property
    def promised(self) -> list[str]:
        return list(self.target.promised)

    def lemmas(self) -> Strengthening:
        if self._lemmas is None:
            self._lemmas = strengthen(self.m, sym_from_state(self.m, self.start), _all_actions(self.m),
                                      candidates(self.m, self.invariants.values()), self.timeout_s,
                                      inductive=self.inductive, over=self.actions)
        return self._lemmas


def _all_actions(m: Model) -> list[Transition]:
    return [a for a in TRANSITIONS if not a.disabled(m)] + [reach.SALARY, reach.NEW_ROUND]


def judge(target, rows: list[CheckResult], timeout_s: float = 10.0, depth: int = reach.DEFAULT_DEPTH,
          actions: tuple[str, ...] = ()) -> list[CheckResult]:
    """``rows`` (the check's results for ``target``) with every promised refutation and live rule judged
    on real games (see the module docstring)."""
    invs = {i.id: i for i in load_invariants()}
    state_ids = {i for i, v in invs.items() if v.kind == "state"}
    inductive = {i for i in state_ids if all(r.verdict is Verdict.PROVED and not r.reason
                                              for r in rows if r.invariant == i)}
    cells = [k for k, r in enumerate(rows) if r.promised and r.invariant in invs
             and (r.verdict is Verdict.VIOLATED or (r.invariant in state_ids and r.invariant not in inductive))]
    live = [k for k, r in enumerate(rows) if r.invariant == LIVE and r.promised and r.verdict is Verdict.PROVED]
    if not cells and not live:
        return rows
    m = Model.from_config(target.config)
    j = _Ruleset(target, m, new_game(target.config, m.players, RUN_SEED), invs, inductive,
                 actions or tuple(a.name for a in TRANSITIONS), timeout_s, depth)
    out = list(rows)
    pending = []
    for k in cells:
        r = rows[k]
        # from a reachable state (the lemmas) that keeps the invariant, can the step break it?
        status, used = j.lemmas().proves(BY_NAME[r.action], invs[r.invariant], also=[r.invariant])
        if status == "unsat":
            if r.verdict is not Verdict.PROVED:
                out[k] = replace(r, verdict=Verdict.PROVED, counterexample=None, reason=_cti_text(r, used, invs))
        else:
            pending.append(k)
    reached = {k: _reach(j, rows[k]) for k in pending}
    for k, outcome in reached.items():
        out[k] = outcome.result(rows[k], j)
    # "broken by another action" stays said only of an invariant some check still finds broken
    broken = {r.invariant for r in out if r.verdict is not Verdict.PROVED}
    for k in cells:
        r = out[k]
        if r.verdict is Verdict.PROVED and r.invariant not in broken and (r.reason or "").endswith("another action"):
            out[k] = replace(r, reason=None)
    if live:
        _liveness(j, out, live)
    return out


def _cti_text(r: CheckResult, used: list, invs: dict) -> str:
    lemmas = [lm.title for lm in used if lm.invariant is None]
    also = [lm.id for lm in used if lm.invariant is not None and lm.id != r.invariant]
    why = (f"with the lemma{'s' if len(lemmas) > 1 else ''} {'; '.join(lemmas)}" if lemmas
           else "with the invariants that hold in every reachable state")
    if also and lemmas:
        why += f" (and {', '.join(also)})"
    return (f"{r.action} breaks {r.invariant} only from states no game reaches (a counterexample to induction): "
            f"proved {why}, true at a game's start and kept by every action")


# ---- runs ---------------------------------------------------------------------------------------------

@dataclass
class _Outcome:
    """What the search for a run found for one refuted check."""

    kind: str                               # root | consequence | none
    table: Table | None = None
    step: int = 0                           # the game's step that breaks the promise
    cause: tuple[str, str] | None = None    # (invariant, move) broken first, for a consequence
    searched: str = ""
    seconds: float = 0.0

    def result(self, r: CheckResult, j: _Ruleset) -> CheckResult:
        if self.kind == "none":
            return replace(r, verdict=Verdict.UNKNOWN, counterexample=None,
                           reason=(f"{r.action} breaks {r.invariant} from a state that satisfies the invariants, "
                                   f"but no run from a game's start reaches one ({self.searched}): a "
                                   "counterexample to induction the lemmas do not exclude; not a break"))
        cex = _run_story(j, r, self)
        if self.kind == "root":
            reason = (f"{r.action} breaks {r.invariant} in a game from its start (a run of {self.step} engine "
                      "steps, every promise kept until its last)")
        else:
            reason = (f"{r.action} breaks {r.invariant} only after {self.cause[0]} broke "
                      f"(by {self.cause[1]}): a consequence")
        return replace(r, verdict=Verdict.VIOLATED, counterexample=cex, reason=reason)


@dataclass(frozen=True)
class _Slice:
    """What one search for a run may do: its moves (``alphabet``), the deeds they touch, the players who make
    them (every one when None), and all that in words for a reason."""

    alphabet: list[Transition]
    deeds: list[int]
    words: str
    seats: tuple[int, ...] | None = None


def _slices(j: _Ruleset, r: CheckResult) -> list[_Slice]:
    """The searches for a run, smallest first: the moves that build up a board (buy, build, sell, mortgage,
    trade, rounds) on the cheapest colour group; on the groups the counterexample shows; then every move
    the engine can steer, on both and a station. A bankruptcy is searched first between its debtor and its
    creditor alone (seats 0 and 1, as ``reach.goal_step`` puts them): a third player only multiplies the
    moves to choose from."""
    m = j.m
    action = BY_NAME[r.action]
    shown = {p["square"] for part in ("before", "after") for p in ((r.counterexample or {}).get(part) or {})
             .get("properties", [])}
    index = {d.square: i for i, d in enumerate(m.deeds)}
    groups = sorted({t for sq in shown if sq in index for t in m.group_members(index[sq])})
    cheap = sorted(_cheapest(m))
    every = [a for a in _all_actions(m) if a.name not in _UNSTEERED]
    core = [a for a in every if a.name in _CORE or a is action]
    names = lambda deeds: ", ".join(dict.fromkeys(m.group_name(i) for i in deeds))  # noqa: E731
    out = [_Slice(core, cheap, f"moves that build, sell, mortgage and trade on {names(cheap)}")]
    if r.action in ("bankrupt_to_player", "bankrupt_to_bank"):
        # a debt no cash can raise: the creditor builds where the rent is highest, the debtor gives its cash away
        dear = sorted(max((idx for _, idx in m.street_groups), key=lambda idx: max(m.deeds[i].price for i in idx)))
        debt = [a for a in every if a.name in _DEBT or a is action]
        both = sorted(set(cheap) | set(dear))
        out.insert(0, _Slice(debt, both, f"moves of the debtor and its creditor that buy, build, mortgage and "
                                         f"trade on {names(both)}", seats=(0, 1)))
    if groups and groups != cheap:
        out.append(_Slice(core, groups, f"moves that build, sell, mortgage and trade on {names(groups)}"))
    station = [i for i, d in enumerate(m.deeds) if d.kind == "station"][:1]
    wide = sorted(set(cheap) | set(groups) | set(station))
    out.append(_Slice(every, wide, f"every move a run can steer on {names(wide)}"))
    return out


def _cheapest(m: Model) -> tuple[int, ...]:
    """The street group whose deeds and full houses cost least."""
    b = m.config.building
    return min((idx for _, idx in m.street_groups),
               key=lambda idx: sum(m.deeds[i].price + m.deeds[i].house_cost * (b.max_houses + 1) for i in idx))


def _reach(j: _Ruleset, r: CheckResult) -> _Outcome:
    """Runs from a game's start that break ``r``'s invariant by ``r``'s action: a root (every promise kept
    before the last move) where one can exist, else a consequence."""
    t0 = time.perf_counter()
    inv, action = j.invariants[r.invariant], BY_NAME[r.action]
    clean = [j.invariants[i] for i in j.promised if j.invariants[i].kind == "state"]
    # a root's last move starts from a reachable state that keeps every promise: where the lemmas and the
    # promises together exclude every such state, only a consequence is left to look for
    can_root = j.lemmas().proves(action, inv, also=[i.id for i in clean])[0] != "unsat"
    for table in j.played:
        # a game played for another check may break this one too (one bankruptcy breaks two promises)
        outcome = _judged(j, table, inv.id, action.name)
        if outcome is not None and (outcome.kind == "root" or not can_root):
            outcome.seconds = time.perf_counter() - t0
            return outcome
    tried, gave_up = [], None
    budget = [reach.SEARCH_RLIMIT]      # shared by every search of this check: its work is bounded
    for sl in _slices(j, r):
        for mode in (("root", "any") if can_root else ("any",)):
            outcome, why = _attempt(j, inv, action, sl, clean if mode == "root" else [], budget)
            if outcome is not None:
                outcome.seconds = time.perf_counter() - t0
                return outcome
            gave_up = gave_up or why
            if budget[0] <= 0:
                break
        tried.append(sl.words)
        if budget[0] <= 0:
            gave_up = gave_up or f"the searches' budget of {reach.SEARCH_RLIMIT // 1_000_000} million z3 steps ran out"
            break
    searched = f"at most {j.depth} moves before it, of {'; or '.join(tried)}"
    if gave_up:
        searched += f"; {gave_up}"
    return _Outcome("none", searched=searched, seconds=time.perf_counter() - t0)


def _attempt(j: _Ruleset, inv: Invariant, action: Transition, sl: _Slice, clean,
             budget: list[int]) -> tuple[_Outcome | None, str | None]:
    """Plan a run over the transitions, play it on the engine, plan again from where the game stands, until
    the engine's checker reports ``inv`` broken by a step that is ``action`` (the engine's own reading of
    the step: ``verify.runs.seen.transitions``). ``budget``: z3's work left for this check's searches (each
    search takes its share off it)."""
    table = Table(j.target.config, j.m.players, RUN_SEED, j.promised)
    j.played.append(table)
    avoid: list = []
    why = None
    for _ in range(REPLANS):
        if budget[0] <= 0:
            return None, why
        found = reach.search(j.m, sym_from_state(j.m, table.state), sl.alphabet, action, inv, j.depth, clean,
                             j.backstop, deeds=sl.deeds, slack=True, avoid=avoid, budget=budget[0], seats=sl.seats)
        budget[0] -= found.spent
        if found.status == "none" and not table.steps and action.name.startswith("bankrupt") and budget[0] > 0:
            found = reach.search(j.m, sym_from_state(j.m, table.state), sl.alphabet, action, inv, j.depth, clean,
                                 j.backstop, deeds=sl.deeds, budget=budget[0], seats=sl.seats)
            budget[0] -= found.spent
        if found.status == "unknown":
            budget[0] = 0           # the solver gave up: no further search of this check is more likely to end
            return None, found.reason
        if found.status != "found":
            return None, why
        played = play_on(table, list(found.moves))
        outcome = _judged(j, table, inv.id, action.name)
        if outcome is not None:
            return outcome, None
        why = (f"a run the engine could not play ({played.stuck})" if played.stuck else
               f"a run the engine played without the break ({len(found.moves)} moves)")
        if table.breaks and clean:
            return None, why     # the engine broke another promise on the way: not a root of this check
        avoid.append(list(found.moves))
    return None, why


def _judged(j: _Ruleset, table: Table, inv: str, action: str) -> _Outcome | None:
    """What ``table``'s game shows of ``inv`` broken by ``action``: a root when that break is the game's first,
    a consequence of the first when another promise broke before; None when the game does not break it so."""
    step = _breaking_step(j, table, inv, action)
    if step is None:
        return None
    first = table.breaks[0]
    if first.step == step:
        return _Outcome("root", table, step=step)
    return _Outcome("consequence", table, step=step, cause=(first.invariants[0], _made_at(j, table, first.step)))


def _breaking_step(j: _Ruleset, table: Table, inv: str, action: str) -> int | None:
    """The first step of the game that broke ``inv`` and that the engine played as ``action``."""
    for b in table.breaks:
        if inv in b.invariants:
            act, events, _ = table.steps[b.step - 1]
            if action in transitions(j.target.config, act, events):
                return b.step
    return None


def _made_at(j: _Ruleset, table: Table, step: int) -> str:
    """What the game's ``step`` was, as a transition (the engine's action when it models none)."""
    act, events, _ = table.steps[step - 1]
    made = sorted(transitions(j.target.config, act, events))
    return made[0] if made else act["type"]


def _run_story(j: _Ruleset, r: CheckResult, o: _Outcome) -> dict:
    """The run as a counterexample: its moves in words (to the one that breaks the promise), then the board
    before and after the breaking step of the game."""
    table, m, k = o.table, j.m, o.step
    states = [table.first] + [s for _, _, s in table.steps]
    before, after = _canonical(states[k - 1]), _canonical(states[k])
    last = table.move_of_step(k)
    moves = table.moves[:last + 1] if last is not None else list(table.moves)
    act, events, _ = table.steps[k - 1]
    lines = [f"Run: {len(moves)} moves from a game's start ({m.players} players, seed {RUN_SEED}; "
             f"{k} engine steps, `--runs DIR` writes them for `verify replay`):"]
    for i, mv in enumerate(moves):
        broke = [inv for b in table.breaks if b.step <= k and table.move_of_step(b.step) == i for inv in b.invariants]
        mark = f"   ← breaks {', '.join(broke)}" if broke else ""
        lines.append(f"  {i + 1}. {describe(m, mv.action, mv.args)}{mark}")
    if o.kind == "consequence":
        lines.insert(0, f"Consequence: {o.cause[0]} broke first (by {o.cause[1]}); in that game {r.action} "
                        f"then breaks {r.invariant}")
    goal = moves[-1] if moves and moves[-1].action == r.action else None
    text = describe(m, goal.action, goal.args) if goal else _step_text(m, r.action, act, events)
    involved = {act.get("seat", 0)} | ({goal.args.get("a", 0), goal.args.get("b", 1)} if goal else set())
    story_lines, small = story(m, before, after, text, involved)
    lines += [f"At step {k} of the game:"] + story_lines
    lines.append(f"Broken: {r.invariant} — {j.invariants[r.invariant].title}")
    run = {"seed": RUN_SEED, "players": m.players, "moves": [mv.to_json() for mv in moves],
           "actions": [a for a, _, _ in table.steps[:k]], "steps": k, "breaks_at": k, "kind": o.kind}
    out = {"invariant": r.invariant, "action": r.action, "args": dict(goal.args) if goal else {},
           "before": small(before), "after": small(after), "scenario": lines, "run": run}
    if o.kind == "consequence":
        out["cause"] = {"invariant": o.cause[0], "action": o.cause[1]}
    return out


def _step_text(m: Model, name: str, action: dict, events: list[dict]) -> str:
    """A step of the game that the plan did not name (the game made it on the way), in words."""
    squares = [e["square"] for e in events if "square" in e]
    index = {d.square: i for i, d in enumerate(m.deeds)}
    deed = m.deeds[index[squares[0]]].name if squares and squares[0] in index else "a deed"
    if name == "mortgage_expired":
        return f"a round ends: the unlifted mortgage on {deed} is forfeited to the bank, which auctions it"
    return f"{action.get('type')} by player {action.get('seat', '?')} ({name} on {deed})"


def _canonical(state: dict) -> dict:
    """The fields of an engine state a story tells (the canonical subset ``verify.smt.state.concrete`` gives)."""
    return {"players": [{k: p.get(k) for k in ("seat", "team", "cash", "in_jail", "jail_cards", "bankrupt")}
                        for p in state["players"]],
            "properties": [{k: p.get(k) for k in ("square", "owner", "mortgaged", "houses", "hotel",
                                                  "mortgage_rounds")} for p in state["properties"]],
            "bank": dict(state["bank"]), "pot": state.get("pot", 0), "jackpot": state.get("jackpot", 0)}


# ---- dead rules ---------------------------------------------------------------------------------------

def _liveness(j: _Ruleset, out: list[CheckResult], live: list[int]) -> None:
    """Each action the invariants allow: seen in a bot game, reached by a short run, proved dead, or said to
    be none of these (then not counted as a promise: nothing shows it live or dead)."""
    sights = seen(j.target.config, j.m.players, {out[k].action for k in live})
    m = j.m
    # the cheapest group, a station, a utility, and the deeds the acting player holds at the start (dealt)
    small = sorted(set(_small_board(m)) | {i for i, p in enumerate(j.start["properties"]) if p["owner"] == 0})
    depth = min(j.depth, LIVE_DEPTH)
    for k in live:
        r = out[k]
        s = sights.get(r.action)
        if s is not None:
            out[k] = replace(r, reason=s.text(m.players))
            continue
        action = BY_NAME[r.action]
        found = _live_search(j, action, _BUILD, depth, small)
        if found.status == "found":
            out[k] = replace(r, reason=_reached_text(m, found))
            continue
        status, used = j.lemmas().enables(action)
        if status == "unsat":
            lemmas = [lm.title for lm in used if lm.invariant is None] or [lm.id for lm in used]
            out[k] = replace(r, verdict=Verdict.VIOLATED,
                             reason=(f"dead rule: no state a game reaches allows it (proved with the "
                                     f"lemma{'s' if len(lemmas) > 1 else ''} {'; '.join(lemmas)}, true at a "
                                     "game's start and kept by every action)"))
            continue
        names = ", ".join(dict.fromkeys(m.group_name(i) for i in small))
        out[k] = replace(r, verdict=Verdict.UNKNOWN, promised=False,
                         reason=(f"not shown live: the invariants allow it, but no bot game, and no run of at most "
                                 f"{depth} moves from a game's start (moves that build and mortgage on {names}), "
                                 "reaches a state that allows it, and no lemma rules it out"
                                 + (f"; {found.reason}" if found.reason else "")))


#: searches for a witness that an action can fire, kept with the config values they read (``verify.smt.reads``):
#: a ruleset that agrees with an earlier one at every one of them has the same answer
_LIVE: list[tuple[tuple, dict, reach.Found]] = []


def _live_search(j: _Ruleset, action: Transition, moves: tuple[str, ...], depth: int, deeds: list[int]) -> reach.Found:
    """A run from the game's start after which ``action`` is allowed, over ``moves`` on ``deeds``."""
    start = {k: j.start[k] for k in ("players", "properties", "bank", "pot", "jackpot")}
    key = (action.name, moves, tuple(deeds), depth, json.dumps(start, sort_keys=True, default=str),
           j.timeout_s)
    for k, reads, found in _LIVE:
        if k == key and same_reads(j.target.config, reads):
            return found
    log = Log()
    m = Model.from_config(Recorder(j.target.config, log))
    alphabet = [a for a in _all_actions(m) if a.name in moves or a.name == action.name]
    found = reach.search(m, sym_from_state(m, j.start), alphabet, BY_NAME[action.name], None, depth,
                         timeout_s=j.backstop, deeds=deeds, budget=LIVE_RLIMIT)
    if found.status != "unknown":
        _LIVE.append((key, dict(log.all), found))
    return found


def _small_board(m: Model) -> list[int]:
    """The deeds of a quick search: the cheapest colour group, a station and a utility."""
    group = _cheapest(m)
    extra = [next(i for i, d in enumerate(m.deeds) if d.kind == kind) for kind in ("station", "utility")
             if any(d.kind == kind for d in m.deeds)]
    return sorted(set(group) | set(extra))


def _reached_text(m: Model, found: reach.Found) -> str:
    moves = "; ".join(describe(m, mv.action, mv.args) for mv in found.moves)
    return f"reached by a run of {len(found.moves)} move(s) of the transitions from a game's start: {moves}"


__all__ = ["judge", "RUN_SEED"]
