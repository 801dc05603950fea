"""Scenarios for the harness: a loaded state and the actions offered after it, drawn from a seed.

A scenario is a state the engine is loaded with (``states.loaded_state``) and a
short list of actions. Every choice comes from a ``draw.Draw`` seeded for that
scenario alone, so a scenario is a function of its seed (``scenario(seed,
ctx)``), whatever ran before it and wherever it runs. Generation plays the
reference engine only (it knows the outcome of each step and records it), so
checking a scenario against an engine costs one run of that engine.

At each step the action is drawn from a menu: a legal action (mostly the one
that moves the game on), a decision at the edge of a guard (the refusal the
chunk has offered least drawn first, and one it has not offered yet at the
first step whose state meets it: ``coverage.py``), a management action by
any player on any square, a trade (built and mortgaged streets preferred), a
bid (at the minimum, at the bidder's cash, above it) or an action by a player
whose turn it is not. Only the action types the engine declares are offered.
Random fields are drawn too (``fill_random`` reads its dice from the same
source; a roll's dice then turned towards the landing least offered), so a
scenario replays exactly; a step keeps only the optional random
fields it used (``oracle.used_only``).

``strategy(ctx)`` is the same generation as a hypothesis strategy, for
property tests of the generation itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..config import EngineConfig
from ..engine.engines import rules_for
from ..engine.state import AUCTION, BUY, DEBT, OVER, GameState
from ..engine.actions import ACTIONS, enumerate_legal
from ..engine.step import ACTION_TYPES, actor, enumerate_actions, fill_random
from ..errors import GameError
from ..invariants import Monitor
from .chain import play
from .coverage import EDGE_CANDIDATES, Coverage, deed_key, situation, steer_dice, verdict
from .draw import Draw, HypothesisDraw
from .oracle import ACCEPT, expect, used_only
from .signature import template_key
from .situations import situation_for
from .states import loaded_state

def _reads_only(act, prefixes: tuple[str, ...]) -> bool:
    return bool(act.reads) and all(p.startswith(prefixes) for p in act.reads)


def _fills(act) -> bool:
    """The menu can fill the action's fields itself (random ones come from ``fill_random``)."""
    return all(f.random or f.optional or f.name in ("option", "amount") for f in act.fields)


#: Everything below is read off the action registry (``verify.engine.actions``): a new action joins the menu.
#: Actions that move the game on: the decisions the game awaits from one player, and the ways out of jail.
PROGRESS = tuple(n for n, a in ACTIONS.items()
                 if a.actor != "any" or _reads_only(a, ("jail.", "cards.")))
#: Board management: any player, on a square.
MANAGEMENT = tuple(n for n, a in ACTIONS.items()
                   if a.actor == "any" and n not in PROGRESS and any(f.name == "square" for f in a.fields))
#: Management decided at the edge of the building rules (evenness, supply, cash, mortgages in the group).
EDGE_KINDS = tuple(n for n in MANAGEMENT if any("building" in p for p in ACTIONS[n].reads))
#: Decisions offered out of turn, or to the awaited player when the state does not allow them.
OUT_OF_TURN = tuple(n for n in PROGRESS if _fills(ACTIONS[n]) and ACTIONS[n].actor != "claimant")
#: The ways out of jail anyone may take at any time: offered at the edge of their guards for every player.
SEAT_EDGE = tuple(n for n in PROGRESS if ACTIONS[n].actor == "any" and all(f.optional for f in ACTIONS[n].fields))


#: (config, promised) -> the monitor compiled for them: the contexts of one process's sessions on a
#: config (``session.load_target`` compiles a bundled ruleset once) share it
_MONITORS: dict[tuple[int, tuple[str, ...]], tuple[EngineConfig, Monitor]] = {}


@dataclass
class Context:
    """What generation needs about the game and the engine under test (its profile)."""

    config: EngineConfig
    promised: list[str]
    actions: tuple[str, ...] | None = None     # declared by the engine (None: all)
    max_steps: int = 12
    phases: tuple[str, ...] | None = None      # the phases a loaded state may be in (None: all)
    automatic: tuple[str, ...] = ()            # the engine's automatic behaviours (protocol.AUTOMATIC)

    def __post_init__(self):
        self.rules = rules_for(self.config)
        self.allowed = set(self.actions or ACTION_TYPES)
        self.progress_types = [t for t in PROGRESS if t in self.allowed]
        self._progress = frozenset(self.progress_types)
        self.jail_cards = {deck: [c.id for c in cards if c.effect == "jail_free"]
                           for deck, cards in (("chance", self.config.cards.chance),
                                               ("chest", self.config.cards.chest))}
        s = self.config.setup
        low = max(2, s.players_min)
        high = max(low, min(s.players_max, 5))
        if self.config.teams.enabled and self.config.teams.size > 1:
            size = self.config.teams.size
            counts = [k for k in range(low, max(high, 2 * size) + 1) if k % size == 0]
        else:
            counts = list(range(low, high + 1))
        self.player_counts = counts or [low]
        self._monitor: Monitor | None = None

    @classmethod
    def for_engine(cls, config: EngineConfig, promised: list[str], hello, max_steps: int = 12) -> "Context":
        """The context of an engine's profile (its answer to ``hello``)."""
        return cls(config, promised, hello.actions, max_steps, hello.phases, tuple(hello.automatic))

    def expect(self, state: dict, action: dict, g: GameState | None = None) -> tuple:
        """The reference outcome of ``action`` (see ``oracle.expect``) as a chain: followed by the choices the
        engine makes on its own (``chain.play``; its last item the links)."""
        return play(self.automatic, expect, self.config, state, action, g)

    def monitor(self) -> Monitor:
        """The promised invariants' monitor, compiled once per context and shared by generation and the
        oracle: it evaluates again only what a state changes from the last one it saw (a state loaded
        right after it was checked costs nothing more), which holds for any sequence of states."""
        if self._monitor is None:
            key = (id(self.config), tuple(self.promised))
            hit = _MONITORS.get(key)
            if hit is None or hit[0] is not self.config:
                hit = _MONITORS[key] = (self.config, Monitor(self.config, self.promised))
            self._monitor = hit[1]
        return self._monitor

    def broken(self, state: dict) -> list:
        """The promised state invariants ``state`` breaks."""
        return self.monitor()(None, state, None)

    def holds(self, state: dict) -> bool:
        """The engine can hold ``state`` (its phase is one it declares)."""
        return self.phases is None or state.get("phase") in self.phases

    def legal(self, g: GameState) -> list[dict]:
        return [a for a in enumerate_actions(self.rules, g) if a["type"] in self.allowed]

    def progress(self, g: GameState) -> list[dict]:
        """The legal actions that move the game on (``legal`` restricted to ``PROGRESS``, without asking the
        guards of every player's management, which is most of ``legal``)."""
        if g.phase == OVER:
            return []
        return enumerate_legal(self.rules, g, self._progress)


@dataclass
class Scenario:
    """A loaded state and the actions after it; ``expected`` caches the reference outcome per action."""

    state: dict
    actions: list[dict]
    origin: str = "new game"
    expected: list[tuple[str, Any]] = field(default_factory=list, repr=False)
    setup: dict | None = None           # a new game as set up: {"players", "seed"} (sent as new_game)
    history: dict | None = None         # the steps that led to the loaded state: {"state", "actions"}
    more: Any = field(default=None, repr=False, compare=False)   # draws the next step (lazy generation)

    def step(self, i: int) -> dict | None:
        """Action ``i`` (1-based), drawn now when the scenario is generated as it is played (a scenario that
        fails at its first step costs the drawing of one step); None past its end."""
        while len(self.actions) < i and self.more is not None:
            if not self.more():
                self.more = None
        return self.actions[i - 1] if i <= len(self.actions) else None

    def __repr__(self) -> str:          # a state is kilobytes
        return f"Scenario({self.origin!r}, {len(self.actions)} action(s))"

    def key(self) -> str:
        return json.dumps([self.state, self.actions], sort_keys=True, separators=(",", ":"))

    def truncated(self, n: int) -> "Scenario":
        return Scenario(self.state, self.actions[:n], self.origin, self.expected[:n], self.setup, self.history)


# ---- actions ------------------------------------------------------------------------------------

def _owned(g: GameState, seat: int, ownable) -> list[int]:
    return [s for s in ownable if g.owner[s] == seat]


def _management(d, ctx: Context, g: GameState) -> dict | None:
    """A management action by any player: on a deed they own, or on any square (the edge of the
    building rules has its own entry in the menu: ``_edge``)."""
    kinds = [k for k in MANAGEMENT if k in ctx.allowed]
    r = ctx.rules
    pool = d.int(1, 3)
    if "sell_group" in ctx.allowed and (pool == 3 or not kinds):
        return {"type": "sell_group", "seat": d.int(0, g.n - 1), "group": d.int(0, len(r.t.groups) - 1)}
    if not kinds:
        return None
    kind = d.pick(kinds)
    seat = d.int(0, g.n - 1)
    own = _owned(g, seat, r.t.ownable)
    square = d.pick(own if own and pool <= 1 else list(r.t.ownable))
    return {"type": kind, "seat": seat, "square": square}


def _edge(ctx: Context, g: GameState) -> dict[tuple[str, str], list[dict]]:
    """Plausible illegal decisions, by the guard's refusal that meets them (``(type, template)``): a building
    decision by a player who may manage now on a street of a group they own whole (``EDGE_KINDS``), any
    other management by such a player on a deed they own, and the ways out of jail (``SEAT_EDGE``) by any
    player. Drawing the refusal first (the least offered: ``coverage``) gives every guard's edge its
    chance, however many squares it concerns. The legal decisions are in the legal actions already."""
    r = ctx.rules
    found: dict[tuple[str, str], list[dict]] = {}

    def add(kind: str, why, a: dict) -> None:
        if why is not None:
            key = (kind, template_key(getattr(why, "template", why)))
            if key in found:
                found[key].append(a)
            else:
                found[key] = [a]

    building = tuple(k for k in EDGE_KINDS if k in ctx.allowed)
    other = tuple(k for k in MANAGEMENT if k in ctx.allowed and k not in EDGE_KINDS
             and [f.name for f in ACTIONS[k].fields] == ["square"])
    for p in range(g.n):
        if g.bankrupt[p]:
            continue
        for k in SEAT_EDGE:
            if k in ctx.allowed:
                add(k, r.dispatch[k][0](g, p, *[None] * len(ACTIONS[k].fields)), {"type": k, "seat": p})
        if not r.rules.construction.may_manage_now(r.t, g, p):
            continue
        for s in r.t.ownable:
            if g.owner[s] != p:
                continue
            whole = all(g.owner[t] == p for t in r.t.groups[r.t.group_of[s]])
            for k in (building if whole and r.t.kind[s] == "street" else ()) + other:
                add(k, r.dispatch[k][0](g, p, s), {"type": k, "seat": p, "square": s})
            if "trade" in ctx.allowed and g.n > 1:     # the deed alone, given to the next player
                a = {"type": "trade", "seat": p, "with": (p + 1) % g.n, "give": {"squares": [s], "cash": 0},
                     "take": {"squares": [], "cash": 0}}
                why = verdict(r, g, a)
                if why not in ("legal", "malformed"):
                    found.setdefault(("trade", why), []).append(a)
    return found


def _trade(d, ctx: Context, g: GameState, cov: Coverage) -> dict | None:
    """A trade: mostly one the rules may allow (a deed without buildings in its group for cash the
    buyer has, or deed for deed), else one at one of their edges, the rest of it plain (so one edge's
    refusal does not hide another's): streets of built groups or mortgaged deeds, more cash than a side
    holds or all of it, jail cards."""
    if "trade" not in ctx.allowed or g.n < 2:
        return None
    r = ctx.rules
    seat = d.pick([g.current] + list(range(g.n)))
    other = d.pick([x for x in range(g.n) if x != seat])
    edge = d.pick(("deed", "cash", "card")) if d.bool() else None

    def deeds(who: int) -> list[int]:
        own = _owned(g, who, r.t.ownable)
        built = [s for s in own if g.mortgaged[s] or any(g.houses[t] or g.hotel[t] for t in r.t.groups[r.t.group_of[s]])]
        return (built if edge == "deed" else [s for s in own if s not in built]) or own

    def side(who: int, deed: bool) -> dict:
        pool = deeds(who)
        cash = g.cash[who]
        if edge == "deed" and pool:   # the deed whose circumstances trades have offered least
            pool = [cov.least(d.perm(pool), lambda s: cov.seen.get(deed_key(r, g, seat, s), 0))]
        out: dict = {"squares": [d.pick(pool)] if deed and pool else [],
                     "cash": d.pick([0, cash + 1, cash] if edge == "cash" else [0, min(cash, 10), cash // 2])}
        if g.jail_cards[who] and (edge == "card" or edge is None and not out["squares"] and d.bool()):
            out["cards"] = [g.jail_cards[who][0]]
        return out

    shape = d.int(0, 2)        # 0: my deed for cash, 1: deed for deed, 2: cash for their deed
    return {"type": "trade", "seat": seat, "with": other, "give": side(seat, shape < 2),
            "take": side(other, shape > 0)}


def _bid(d, ctx: Context, g: GameState) -> dict | None:
    """A bid at the edge of the bidding rules: at the minimum, at the bidder's cash, above it."""
    if "bid" not in ctx.allowed:
        return None
    if g.phase == AUCTION:
        seat = d.pick([actor(g)] + list(range(g.n)))
        low = ctx.rules.rules.auctions.min_bid(ctx.rules.t, g)
        amount = max(1, d.pick([low, g.cash[seat], g.cash[seat] + 1, g.pending["high"], low + 1]))
    else:
        seat = d.int(0, g.n - 1)
        amount = d.int(1, 200)
    return {"type": "bid", "seat": seat, "amount": amount}


def _out_of_turn(d, ctx: Context, g: GameState) -> dict | None:
    kinds = [k for k in OUT_OF_TURN if k in ctx.allowed]
    if not kinds:
        return None
    kind = d.pick(kinds)
    waiting = actor(g)
    seat = d.pick([x for x in range(g.n) if x != waiting] or [waiting])
    a: dict = {"type": kind, "seat": seat}
    if kind == "roll":
        a["dice"] = [d.uniform(1, 6) for _ in range(ctx.rules.rules.base.dice_needed(ctx.rules.t, g))]
    elif kind == "pay_tax":
        a["option"] = "fixed"
    elif kind == "bid":
        a["amount"] = d.int(1, 500)
    return a


def _actor_edge(d, ctx: Context, g: GameState) -> dict | None:
    """A decision by the player the game waits for, legal or not now: a purchase without the cash, a fine
    without the money, a card not held, the turn ended before the roll (the refusal an engine forgets)."""
    kinds = [k for k in OUT_OF_TURN if k in ctx.allowed]
    if not kinds:
        return None
    kind = d.pick(kinds)
    a: dict = {"type": kind, "seat": actor(g)}
    if kind == "roll":
        a["dice"] = [d.uniform(1, 6) for _ in range(ctx.rules.rules.base.dice_needed(ctx.rules.t, g))]
    elif kind == "pay_tax":
        a["option"] = d.pick(("fixed", "percent"))
    elif kind == "bid":
        a["amount"] = d.int(1, max(1, g.cash[a["seat"]] + 1))
    return a


class _Step:
    """What the menu reads about one state, each computed once and only when asked for (listing the legal
    actions and the edge of the guards are the costly parts)."""

    def __init__(self, ctx: Context, g: GameState):
        self.ctx, self.g = ctx, g
        self._legal: list[dict] | None = None
        self._progress: list[dict] | None = None
        self._edge: dict | None = None

    def legal(self) -> list[dict]:
        if self._legal is None:
            self._legal = self.ctx.legal(self.g)
        return self._legal

    def progress(self) -> list[dict]:
        """``legal`` restricted to the actions that move the game on (without listing the others)."""
        if self._progress is None:
            self._progress = (self.ctx.progress(self.g) if self._legal is None
                              else [a for a in self._legal if a["type"] in self.ctx.progress_types])
        return self._progress

    def edge(self) -> dict:
        if self._edge is None:
            self._edge = _edge(self.ctx, self.g)
        return self._edge


def _offered(cov: Coverage, key: tuple) -> tuple:
    """How often a situation was offered: its guard side first, then the situation at each grain."""
    return (cov.side(*key[0][:2]),) + cov.count(key)


def _menu(d, ctx: Context, g: GameState, now: _Step, cov: Coverage) -> dict | None:
    """One candidate action from the menu (see the module doc); None when its entry has nothing to offer."""
    edge = now.edge()
    unmet = [k for k in sorted(edge) if not cov.side(*k)]
    if unmet:                      # a refusal the chunk has not offered yet, where this state meets it
        side = d.pick(unmet)
        return cov.least(d.perm(edge[side]), lambda a: cov.count(situation(ctx.rules, g, a, side[1])))
    menu = d.uniform(0, 9)
    action = None
    if menu <= 2:
        if g.phase == AUCTION and d.bool():          # the bidding rules are met in auctions only
            action = _bid(d, ctx, g)
        elif g.phase in (BUY, DEBT) and d.bool():    # buying or paying, whether the cash is there or not
            kind = "buy" if g.phase == BUY else "pay"
            action = {"type": kind, "seat": actor(g)} if kind in ctx.allowed else None
        else:
            progress = now.progress()
            if progress:
                action = d.pick(progress)
    elif menu <= 4:                # by type first: management for every player would crowd out the rest
        if now.legal():
            kind = d.pick(sorted({a["type"] for a in now.legal()}))
            action = d.pick([a for a in now.legal() if a["type"] == kind])
    elif menu <= 6:
        if edge:                   # the guard's refusal least offered, then its least offered situation
            side = cov.least(d.perm(sorted(edge)), lambda k: cov.side(*k))
            action = cov.least(d.perm(edge[side]), lambda a: cov.count(situation(ctx.rules, g, a, side[1])))
        else:
            action = _management(d, ctx, g)
    elif menu == 7:
        action = _management(d, ctx, g)
    elif menu == 8:                # the least offered of a few trades (the deeds' group-mates, the cash)
        options = [a for a in (_trade(d, ctx, g, cov) for _ in range(EDGE_CANDIDATES)) if a is not None]
        action = cov.least(options, lambda a: _offered(cov, situation(ctx.rules, g, a))) if options else None
        if action is not None:
            for part in ("give", "take"):
                for s in action[part]["squares"]:
                    cov.count_deed(deed_key(ctx.rules, g, action["seat"], s))
    else:
        action = d.pick((_bid, _out_of_turn, _actor_edge))(d, ctx, g)
    return action


def next_action(d, ctx: Context, state: dict, g: GameState,
                cov: Coverage | None = None) -> tuple[dict, tuple] | None:
    """One action for ``state`` (read as ``g``) and the reference's outcome; None when nothing can be
    offered. The menu's choice follows ``cov``'s counts (``coverage``), which count the situation of
    the action taken; the step's random fields it did not use are left out of it."""
    cov = cov if cov is not None else Coverage()
    now = _Step(ctx, g)
    action, key = _menu(d, ctx, g, now, cov), None
    if action is not None:
        action = steer_dice(d, cov, ctx.rules, g, fill_random(ctx.config, g, action, d.dice()))
        key = situation(ctx.rules, g, action)
    for _ in range(2):
        if action is None:
            moves = now.progress() or now.legal()
            if not moves:
                return None
            action = fill_random(ctx.config, g, moves[0], d.dice())
            key = situation(ctx.rules, g, action)
        try:
            outcome = ctx.expect(state, action, g)
        except GameError:          # malformed for this state: offer the game's own next step instead
            action = None
            continue
        cov.add(key)
        if outcome[0] == ACCEPT:
            cov.drew(g, outcome[3])
        return used_only(action, outcome), outcome
    return None


def _given(ctx: Context, state: dict, g: GameState, action: dict, cov: Coverage) -> tuple[dict, tuple] | None:
    """A given action and the reference's outcome (None when it is malformed for the state)."""
    try:
        outcome = ctx.expect(state, action, g)
    except GameError:
        return None
    cov.add(situation(ctx.rules, g, action))
    if outcome[0] == ACCEPT:
        cov.drew(g, outcome[3])
    return used_only(action, outcome), outcome


def build(d, ctx: Context, lazy: bool = False, cov: Coverage | None = None) -> Scenario:
    """A loaded state and up to ``ctx.max_steps`` actions, with the reference outcome of each (``lazy``: each
    action drawn when it is first asked for, ``Scenario.step``; the same actions either way). ``cov``: the
    situations met so far (a chunk's, shared by its scenarios; default this scenario's own)."""
    cov = cov if cov is not None else Coverage()
    found = situation_for(d, ctx, cov)      # every few scenarios a rare circumstance (situations.py)
    if found is not None:
        origin, state, history, first = found
        setup = None
    else:
        (origin, state, setup, history), first = loaded_state(d, ctx, cov), None
    sc = Scenario(state, [], origin, setup=setup, history=history)
    now = {"state": state, "g": ctx.rules.from_json(state), "left": d.int(1, ctx.max_steps), "first": first}

    def more() -> bool:
        if now["left"] <= 0 or now["g"].phase == OVER:
            return False
        now["left"] -= 1
        step = None
        if now["first"] is not None:           # the decision a situation's state was built for
            step = _given(ctx, now["state"], now["g"], now.pop("first"), cov)
            now["first"] = None
        if step is None:
            step = next_action(d, ctx, now["state"], now["g"], cov)
        if step is None:
            return False
        action, outcome = step
        sc.actions.append(action)
        sc.expected.append(outcome)
        if outcome[0] == ACCEPT:
            now["state"], now["g"] = outcome[1], outcome[3]
        return True

    if lazy:
        sc.more = more
    else:
        while more():
            pass
    return sc


def scenario(seed: int, ctx: Context, lazy: bool = False, cov: Coverage | None = None) -> Scenario:
    """The scenario of ``seed``: a function of the seed, the context and ``cov`` (the situations the
    chunk met before it; without it, of the seed and the context alone)."""
    return build(Draw(seed), ctx, lazy, cov)


def strategy(ctx: Context):
    """The scenarios as a hypothesis strategy (choices from hypothesis: for property tests)."""
    from hypothesis import strategies as st

    @st.composite
    def scenarios(draw):
        return build(HypothesisDraw(draw), ctx)

    return scenarios()


__all__ = ["Context", "Scenario", "scenario", "build", "strategy", "next_action", "PROGRESS", "MANAGEMENT",
           "EDGE_KINDS", "OUT_OF_TURN"]
