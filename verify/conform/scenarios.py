"""Scenarios for the harness: a loaded state and the actions offered after it, drawn from a seed.

A scenario is a state the engine is loaded with (``states.loaded_state``) and a
short list of actions. Every choice comes from a ``draw.Draw`` seeded for that
scenario alone, so a scenario is a function of its seed (``scenario(seed,
ctx)``), whatever ran before it and wherever it runs. Generation plays the
reference engine only (it knows the outcome of each step and records it), so
checking a scenario against an engine costs one run of that engine.

At each step the action is drawn from a menu: a legal action (mostly the one
that moves the game on), a building decision refused by a building rule (the
rule drawn first), a management action by any player on any square, a trade
(built and mortgaged streets preferred), a bid (at the minimum, at the
bidder's cash, above it) or an action by a player whose turn it is not. Only
the action types the engine declares are offered. Random fields are drawn too
(``fill_random`` reads its dice from the same source), so a scenario replays
exactly.

``strategy(ctx)`` is the same generation as a hypothesis strategy, for
property tests of the generation itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..config import EngineConfig
from ..engine.rules import rules_for
from ..engine.state import AUCTION, OVER, GameState
from ..engine.step import ACTION_TYPES, actor, enumerate_actions, fill_random
from ..errors import GameError
from ..invariants import Monitor
from .automatic import compose
from .draw import Draw
from .oracle import ACCEPT, expect
from .states import loaded_state

#: Action types that move the game on (answer the pending decision or take the turn).
PROGRESS = ("roll", "timeout", "end_turn", "buy", "decline", "bid", "pass", "pay", "bankrupt", "pay_tax",
            "casino_bet", "casino_decline", "bus", "move_to", "stay", "pay_fine", "use_card", "claim_rent")
MANAGEMENT = ("build_house", "build_hotel", "sell_house", "sell_hotel", "mortgage", "unmortgage",
              "lift_mortgage", "auction_mortgaged")
#: Management decided at the edge of the building rules (evenness, supply, cash, mortgages in the group).
EDGE_KINDS = ("build_house", "build_hotel", "sell_house", "sell_hotel", "mortgage")
#: Decisions offered out of turn (by a player nobody waits for).
OUT_OF_TURN = ("roll", "end_turn", "buy", "decline", "pass", "pay", "bankrupt", "pay_fine", "use_card", "stay",
               "pay_tax", "bid")


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
        """The reference outcome of ``action`` (see ``oracle.expect``), followed by the choices the engine
        makes on its own (``automatic.compose``)."""
        if self.automatic:
            return compose(self.automatic, expect, self.config, state, action, g)
        return expect(self.config, state, action, g)

    def broken(self, state: dict) -> list:
        """The promised state invariants ``state`` breaks (compiled once per context)."""
        if self._monitor is None:
            self._monitor = Monitor(self.config, self.promised)
        return self._monitor.reset()(None, state, None)

    def holds(self, state: dict) -> bool:
        """The engine can hold ``state`` (its phase is one it declares)."""
        return self.phases is None or state.get("phase") in self.phases

    def legal(self, g: GameState) -> list[dict]:
        return [a for a in enumerate_actions(self.rules, g) if a["type"] in self.allowed]

    def progress(self, g: GameState) -> list[dict]:
        return [a for a in enumerate_actions(self.rules, g) if a["type"] in self.progress_types]


@dataclass
class Scenario:
    """A loaded state and the actions after it; ``expected`` caches the reference outcome per action."""

    state: dict
    actions: list[dict]
    origin: str = "new game"
    expected: list[tuple[str, Any]] = field(default_factory=list, repr=False)
    setup: dict | None = None           # a new game as set up: {"players", "seed"} (sent as new_game)

    def __repr__(self) -> str:          # a state is kilobytes
        return f"Scenario({self.origin!r}, {len(self.actions)} action(s))"

    def key(self) -> str:
        import json
        return json.dumps([self.state, self.actions], sort_keys=True, separators=(",", ":"))

    def truncated(self, n: int) -> "Scenario":
        return Scenario(self.state, self.actions[:n], self.origin, self.expected[:n], self.setup)


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
        return {"type": "sell_group", "seat": d.int(0, g.n - 1), "group": d.int(0, len(r.groups) - 1)}
    if not kinds:
        return None
    kind = d.pick(kinds)
    seat = d.int(0, g.n - 1)
    own = _owned(g, seat, r.ownable)
    square = d.pick(own if own and pool <= 1 else list(r.ownable))
    return {"type": kind, "seat": seat, "square": square}


def _edge(ctx: Context, g: GameState, kinds: list[str]) -> dict[str, list[tuple[str, int, int]]]:
    """Plausible illegal building decisions, by the rule that refuses them: by a player who may manage
    now, on a street of a group they own whole, refused by a rule of building itself (evenness, supply,
    cash, limits, mortgages in the group). Drawing the rule first gives every rule's edge the same
    chance, however many streets it concerns. The legal decisions are in the legal actions already."""
    r = ctx.rules
    guards = {"build_house": r.why_not_build_house, "build_hotel": r.why_not_build_hotel,
              "sell_house": r.why_not_sell_house, "sell_hotel": r.why_not_sell_hotel, "mortgage": r.why_not_mortgage}
    found: dict[str, list] = {}
    for p in range(g.n):
        if r._manage_window(g, p, "anytime", raises_cash=True) is not None:
            continue
        for s in r.street_squares:
            if g.owner[s] == p and all(g.owner[t] == p for t in r.groups[r.group_of[s]]):
                for k in kinds:
                    why = guards[k](g, p, s) if k in guards else None
                    if why is not None:
                        found.setdefault(f"{k}: {why}", []).append((k, p, s))
    return found


def _trade(d, ctx: Context, g: GameState) -> dict | None:
    """A trade: mostly one the rules may allow (a deed without buildings in its group for cash the
    buyer has, or deed for deed), else one at their edge (streets of built groups, mortgaged deeds,
    more cash than a side holds, jail cards)."""
    if "trade" not in ctx.allowed or g.n < 2:
        return None
    r = ctx.rules
    seat = d.pick([g.current] + list(range(g.n)))
    other = d.pick([x for x in range(g.n) if x != seat])
    edge = d.bool()

    def deeds(who: int) -> list[int]:
        own = _owned(g, who, r.ownable)
        built = [s for s in own if g.mortgaged[s] or any(g.houses[t] or g.hotel[t] for t in r.groups[r.group_of[s]])]
        return (built if edge else [s for s in own if s not in built]) or own

    def side(who: int, deed: bool) -> dict:
        pool = deeds(who)
        cash = g.cash[who]
        out: dict = {"squares": [d.pick(pool)] if deed and pool else [],
                     "cash": d.pick([0, cash + 1, cash] if edge else [0, min(cash, 10), cash // 2])}
        if g.jail_cards[who] and (edge or not out["squares"]) and d.bool():
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
        low = ctx.rules.min_bid(g)
        amount = d.pick([low, g.cash[seat], g.cash[seat] + 1, g.pending["high"], low + 1])
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
        a["dice"] = [d.uniform(1, 6) for _ in range(ctx.rules.dice_needed(g))]
    elif kind == "pay_tax":
        a["option"] = "fixed"
    elif kind == "bid":
        a["amount"] = d.int(1, 500)
    return a


def next_action(d, ctx: Context, state: dict, g: GameState) -> tuple[dict, tuple] | None:
    """One action for ``state`` (read as ``g``) and the reference's outcome; None when nothing can be
    offered. What the menu does not need is not computed (listing legal actions is the costly part)."""
    legal_cache: list = []

    def legal() -> list[dict]:
        if not legal_cache:
            legal_cache.append(ctx.legal(g))
        return legal_cache[0]

    menu = d.uniform(0, 9)
    action = None
    if menu <= 2:
        if g.phase == AUCTION and d.bool():          # the bidding rules are met in auctions only
            action = _bid(d, ctx, g)
        else:
            progress = [a for a in legal() if a["type"] in ctx.progress_types]
            if progress:
                action = d.pick(progress)
    elif menu <= 4:                # by type first: management for every player would crowd out the rest
        if legal():
            kind = d.pick(sorted({a["type"] for a in legal()}))
            action = d.pick([a for a in legal() if a["type"] == kind])
    elif menu <= 6:
        edge = _edge(ctx, g, [k for k in EDGE_KINDS if k in ctx.allowed])
        if edge:
            kind, seat, square = d.pick(edge[d.pick(sorted(edge))])
            action = {"type": kind, "seat": seat, "square": square}
        else:
            action = _management(d, ctx, g)
    elif menu == 7:
        action = _management(d, ctx, g)
    elif menu == 8:
        action = _trade(d, ctx, g)
    else:
        action = d.pick((_bid, _out_of_turn))(d, ctx, g)
    for _ in range(2):
        if action is None:
            moves = [a for a in legal() if a["type"] in ctx.progress_types] or legal()
            if not moves:
                return None
            action = moves[0]
        action = fill_random(ctx.config, g, action, d.dice())
        try:
            return action, ctx.expect(state, action, g)
        except GameError:          # malformed for this state: offer the game's own next step instead
            action = None
    return None


def build(d, ctx: Context) -> Scenario:
    """A loaded state and up to ``ctx.max_steps`` actions, with the reference outcome of each."""
    origin, state, setup = loaded_state(d, ctx)
    sc = Scenario(state, [], origin, setup=setup)
    g = GameState.from_json(state, ctx.rules.ownable)
    for _ in range(d.int(1, ctx.max_steps)):
        if g.phase == OVER:
            break
        step = next_action(d, ctx, state, g)
        if step is None:
            break
        action, outcome = step
        sc.actions.append(action)
        sc.expected.append(outcome)
        if outcome[0] == ACCEPT:
            state, g = outcome[1], outcome[3]
    return sc


def scenario(seed: int, ctx: Context) -> Scenario:
    """The scenario of ``seed`` (a function of the seed and the context alone)."""
    return build(Draw(seed), ctx)


def strategy(ctx: Context):
    """The scenarios as a hypothesis strategy (choices from hypothesis: for property tests)."""
    from hypothesis import strategies as st

    from .draw import HypothesisDraw
    return st.composite(lambda draw: build(HypothesisDraw(draw), ctx))()


__all__ = ["Context", "Scenario", "scenario", "build", "strategy", "next_action", "PROGRESS", "MANAGEMENT",
           "EDGE_KINDS", "OUT_OF_TURN"]
