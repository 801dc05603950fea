"""Scenarios for the harness: hypothesis strategies for a loaded state and the actions offered after it.

A scenario is a state the engine is loaded with and a short list of actions.
Everything is drawn through hypothesis, so a failing scenario shrinks: fewer
steps, simpler choices, a simpler loaded state. Generation runs the reference
engine only (it knows the successor of each step and records it), so
checking a scenario against an engine costs one reference run.

Loaded states come from four sources, cheapest first (hypothesis shrinks
towards the first): a new game; a **mid-game** state built directly (deeds
owned alone or as full groups, even buildings within the supply, mortgages,
cash, jail stays, jail cards held, mortgage ages) and then advanced by a few
legal reference steps, which is how auctions, debts and other pending
decisions come to be in progress; the **boundary** templates of the issue
(``BOUNDARIES``); and boundary states **found by z3** over the symbolic state of
``verify.smt`` (``smt_boundary.py``). Every loaded state satisfies the
invariants the ruleset promises (checked; a state that does not is never used).

At each step the action is drawn from a menu: a legal action (mostly the one
that moves the game on), a management action by any player on any square, a
trade (built and mortgaged streets preferred), a bid (at the minimum, at the
bidder's cash, above it) or an action by a player whose turn it is not.
Random fields are drawn too (``fill_random`` reads its dice from hypothesis),
so the reference's ``apply`` stays a function and a scenario replays exactly.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st

from ..config import EngineConfig
from ..engine.engines import rules_for
from ..engine.state import AUCTION, DEBT, OVER, PRE_ROLL, GameState
from ..engine.step import ACTION_TYPES, enumerate_actions, fill_random, new_game, actor
from ..errors import GameError
from ..invariants import check_state
from .oracle import ACCEPT, expect

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
#: Where loaded states come from, weighted by repetition (hypothesis shrinks towards the first).
SOURCES = ("new", "midgame", "boundary", "midgame", "boundary", "smt")


@dataclass
class Context:
    """What generation needs about the game and the engine under test."""

    config: EngineConfig
    promised: list[str]
    actions: tuple[str, ...] | None = None     # declared by the engine (None: all)
    max_steps: int = 12

    def __post_init__(self):
        self.rules = rules_for(self.config)
        self.allowed = set(self.actions or ACTION_TYPES)
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


@dataclass
class Scenario:
    """A loaded state and the actions after it; ``expected`` caches the reference outcome per action."""

    state: dict
    actions: list[dict]
    origin: str = "new game"
    expected: list[tuple[str, Any]] = field(default_factory=list, repr=False)

    def __repr__(self) -> str:          # hypothesis prints examples; a state is kilobytes
        return f"Scenario({self.origin!r}, {len(self.actions)} action(s))"

    def key(self) -> str:
        return json.dumps([self.state, self.actions], sort_keys=True, separators=(",", ":"))

    def truncated(self, n: int) -> "Scenario":
        return Scenario(self.state, self.actions[:n], self.origin, self.expected[:n])


@lru_cache(maxsize=None)
def ints(low: int, high: int):
    """``st.integers(low, high)``, built once (building strategies is a good part of a draw's cost)."""
    return st.integers(low, high)


def pick(draw, seq):
    """One element of ``seq`` (shrinks towards the first), cheaper than a fresh ``st.sampled_from``."""
    seq = seq if isinstance(seq, (list, tuple)) else list(seq)
    return seq[draw(ints(0, len(seq) - 1))]


class _DrawRandom(random.Random):
    """A ``random.Random`` whose draws come from hypothesis (so dice shrink like any choice)."""

    def __init__(self, draw):
        super().__init__(0)
        self._draw = draw

    def randint(self, a, b):
        return self._draw(ints(a, b))

    def randrange(self, start, stop=None, step=1):
        if stop is None:
            start, stop = 0, start
        return self._draw(ints(start, stop - 1))


# ---- loaded states ------------------------------------------------------------------------------

def _valid(ctx: Context, state: dict) -> bool:
    try:
        return not check_state(ctx.config, state, ctx.promised)
    except GameError:
        return False


def _fresh(draw, ctx: Context) -> GameState:
    n = pick(draw, ctx.player_counts)
    seed = draw(ints(0, 2 ** 16))
    return ctx.rules.from_json(new_game(ctx.config, n, seed))


def _out(ctx: Context, g: GameState) -> dict:
    return g.to_json(ctx.rules.ownable)


def _give_group(ctx: Context, g: GameState, grp: int, seat: int) -> None:
    for s in ctx.rules.groups[grp]:
        g.owner[s] = seat


def _build(ctx: Context, g: GameState, grp: int, houses: int, hotels: bool = True) -> int:
    """Put ``houses`` levels on a group evenly (one at a time on its lowest street), within the
    bank's stock; a street at the hotel threshold + 1 gets a hotel. Returns the levels placed."""
    r, b = ctx.rules, ctx.config.building
    placed = 0
    streets = list(r.groups[grp])
    for _ in range(houses):
        s = min(streets, key=lambda x: r.level(g, x))
        lvl = r.level(g, s)
        if lvl >= r.hotel_level or (lvl >= b.max_houses and lvl + 1 < r.hotel_level):
            break
        if lvl + 1 == r.hotel_level and lvl >= b.hotel_threshold:
            if g.bank_hotels < 1 or not hotels:
                break
            g.bank_hotels -= 1
            if b.hotel_returns_houses:
                g.bank_houses += g.houses[s]
                g.houses[s] = 0
            g.hotel[s] = True
        else:
            if g.bank_houses < 1:
                break
            g.bank_houses -= 1
            g.houses[s] += 1
        placed += 1
    return placed


def _set_jail_card(ctx: Context, g: GameState, seat: int, deck: str) -> None:
    for cid in ctx.jail_cards.get(deck, ()):
        pile = g.chance if deck == "chance" else g.chest
        if cid in pile:
            pile.remove(cid)
            g.jail_cards[seat].append(deck)
            return


def _jail(ctx: Context, g: GameState, seat: int, turns: int) -> None:
    g.in_jail[seat] = True
    g.pos[seat] = 10
    g.jail_turns[seat] = min(turns, max(0, ctx.config.jail.max_tries - 1))


def _midgame(draw, ctx: Context, g: GameState) -> None:
    """Deeds, buildings, mortgages, cash, jail and cards for a game under way (pre-roll of some player)."""
    r, cfg = ctx.rules, ctx.config
    n = g.n
    seats = list(range(n))
    start = cfg.setup.starting_cash
    for grp, squares in enumerate(r.groups):
        mode = pick(draw, ("bank", "group", "split", "group"))
        if mode == "group":
            _give_group(ctx, g, grp, pick(draw, seats))
        elif mode == "split":
            for s in squares:
                g.owner[s] = pick(draw, [-1] + seats)
    for grp in draw(st.permutations(range(len(r.groups)))):
        squares = r.groups[grp]
        owners = {g.owner[s] for s in squares}
        if r.group_kind[grp] == "street" and len(owners) == 1 and -1 not in owners:
            levels = draw(ints(0, len(squares) * r.hotel_level))
            if _build(ctx, g, grp, levels):
                continue
        for s in squares:
            if g.owner[s] >= 0 and draw(st.booleans()):
                g.mortgaged[s] = True
                if cfg.mortgage.expiry_rounds is not None:
                    g.mortgage_rounds[s] = draw(ints(0, max(0, cfg.mortgage.expiry_rounds - 1)))
    for p in seats:
        g.cash[p] = draw(ints(0, 2 * start))
        g.pos[p] = draw(ints(0, 39))
        if draw(st.booleans()):
            _jail(ctx, g, p, draw(ints(0, 2)))
    for deck in ("chance", "chest"):
        holder = pick(draw, [None] + seats)
        if holder is not None:
            _set_jail_card(ctx, g, holder, deck)
    _turn(draw, g)


def _turn(draw, g: GameState, current: int | None = None) -> None:
    g.current = draw(ints(0, g.n - 1)) if current is None else current
    g.round = draw(ints(0, 6))
    g.player_turns = g.round * g.n + g.current
    g.minute = g.player_turns * 0.5
    g.passed_go = [g.round > 0 or p < g.current for p in range(g.n)]


def _streets_by_group(ctx: Context) -> list[int]:
    return [grp for grp in ctx.rules.street_groups]


def _dice_to(draw, g: GameState, seat: int, target: int) -> list[int]:
    """Place ``seat`` so that a roll of two non-double dice brings it to ``target``; return the dice."""
    a = draw(ints(1, 6))
    b = pick(draw, [x for x in range(1, 7) if x != a])
    g.pos[seat] = (target - a - b) % 40
    g.in_jail[seat] = False
    return [a, b]


def _boundary(draw, ctx: Context, g: GameState) -> tuple[str, list[dict]]:
    """One of the issue's boundary states; returns its name and the legal prefix that sets it up."""
    r, cfg = ctx.rules, ctx.config
    n = g.n
    name = pick(draw, BOUNDARIES)
    p = draw(ints(0, n - 1))
    q = (p + 1) % n
    grp = pick(draw, _streets_by_group(ctx))
    other = pick(draw, [x for x in _streets_by_group(ctx) if x != grp])
    prefix: list[dict] = []
    _turn(draw, g, p)
    g.round = max(g.round, 1)
    g.passed_go = [True] * n
    cost = r.house_cost[r.groups[grp][0]]
    if name == "last-house":
        _give_group(ctx, g, grp, p)
        for x in _streets_by_group(ctx):
            if x == grp or g.bank_houses <= 1 or g.bank_houses >= (1 << 30):
                continue
            _give_group(ctx, g, x, q)
            _build(ctx, g, x, g.bank_houses - 1, hotels=False)
        g.cash[p] = cost * draw(ints(1, 3))
    elif name == "exact-cash":
        _give_group(ctx, g, grp, p)
        _build(ctx, g, grp, draw(ints(0, len(r.groups[grp]))))
        g.cash[p] = cost
    elif name == "even-limit":
        _give_group(ctx, g, grp, p)
        _build(ctx, g, grp, draw(ints(1, len(r.groups[grp]) - 1)) + len(r.groups[grp]) * draw(
            ints(0, max(0, cfg.building.max_houses - 1))))
        g.cash[p] = 3 * cost + draw(ints(0, cfg.setup.starting_cash))
    elif name in ("bankruptcy-to-player", "bankruptcy-to-bank"):
        _give_group(ctx, g, grp, p)
        _build(ctx, g, grp, draw(ints(1, len(r.groups[grp]) * 2)))
        for s in r.groups[other]:
            g.owner[s] = p if name == "bankruptcy-to-bank" else q
        mortgaged = [s for s in r.ownable if r.group_of[s] not in (grp, other)][:2]
        for s in mortgaged:
            g.owner[s] = p
            g.mortgaged[s] = True
        if name == "bankruptcy-to-player":
            _build(ctx, g, other, len(r.groups[other]) * r.hotel_level)
            target = r.groups[other][-1]
        else:
            target = pick(draw, [s for s in range(40) if r.kind[s] in ("income_tax", "luxury_tax")]
                                          or [30])
        g.cash[p] = draw(ints(0, 20))
        prefix.append({"type": "roll", "seat": p, "dice": _dice_to(draw, g, p, target)})
    elif name == "mortgage-expiry":
        s = pick(draw, r.ownable)
        g.owner[s] = p
        g.mortgaged[s] = True
        if cfg.mortgage.expiry_rounds is not None:
            g.mortgage_rounds[s] = max(0, cfg.mortgage.expiry_rounds - draw(ints(0, 1)))
        g.cash[p] = draw(ints(0, 2 * r.mortgage_value[s] + 50))
    elif name == "three-way-auction":
        free = [s for s in r.ownable if g.owner[s] < 0]
        target = pick(draw, free)
        dice = _dice_to(draw, g, p, target)
        for x in range(n):
            g.cash[x] = draw(ints(1, 2 * r.price[target]))
        prefix += [{"type": "roll", "seat": p, "dice": dice}, {"type": "decline", "seat": p}]
    elif name == "jail-with-card":
        _jail(ctx, g, p, draw(ints(0, 2)))
        _set_jail_card(ctx, g, p, pick(draw, ("chance", "chest")))
    elif name == "trade-built-street":
        _give_group(ctx, g, grp, p)
        _build(ctx, g, grp, draw(ints(1, len(r.groups[grp]) * 2)))
        for s in r.groups[other]:
            g.owner[s] = q
        g.mortgaged[r.groups[other][0]] = True
    return name, prefix


#: The issue's boundary states (``_boundary`` builds each).
BOUNDARIES = ("last-house", "exact-cash", "even-limit", "bankruptcy-to-player", "bankruptcy-to-bank",
              "mortgage-expiry", "three-way-auction", "jail-with-card", "trade-built-street")


def _advance(draw, ctx: Context, state: dict, prefix: list[dict], steps: int) -> dict:
    """Apply a scripted prefix, then up to ``steps`` legal progress actions, with the reference."""
    for a in prefix:
        try:
            kind, new, *_ = expect(ctx.config, state, a)
        except GameError:
            break
        if kind != ACCEPT:
            break
        state = new
    for _ in range(steps):
        legal = [a for a in enumerate_actions(ctx.rules, ctx.rules.from_json(state))
                 if a["type"] in PROGRESS]
        if not legal:
            break
        a = fill_random(ctx.config, state, pick(draw, legal), _DrawRandom(draw))
        kind, new, *_ = expect(ctx.config, state, a)
        if kind != ACCEPT:
            break
        state = new
    return state


def loaded_state(draw, ctx: Context) -> tuple[str, dict]:
    """A state satisfying the promised invariants, and where it came from."""
    source = pick(draw, SOURCES)
    g = _fresh(draw, ctx)
    fallback = _out(ctx, g)
    prefix: list[dict] = []
    origin = "new game"
    if source == "midgame":
        _midgame(draw, ctx, g)
        origin = "mid-game"
    elif source == "boundary":
        name, prefix = _boundary(draw, ctx, g)
        origin = f"boundary: {name}"
    elif source == "smt":
        from .smt_boundary import smt_state
        found = smt_state(draw, ctx)
        if found is not None:
            origin, g = f"found by z3: {found[0]}", found[1]
    state = _out(ctx, g)
    if source != "new" and not _valid(ctx, state):
        state, origin = fallback, "new game"
    warm = pick(draw, (0, 0, 0, 1, 2, 3))
    state = _advance(draw, ctx, state, prefix, warm)
    return origin, state


# ---- actions ------------------------------------------------------------------------------------

def _owned(g: GameState, seat: int, ownable) -> list[int]:
    return [s for s in ownable if g.owner[s] == seat]


def _management(draw, ctx: Context, g: GameState) -> dict | None:
    """A management action by any player: on a deed they own, or on any square (the edge of the
    building rules has its own entry in the menu: ``_edge``)."""
    kinds = [k for k in MANAGEMENT if k in ctx.allowed]
    r = ctx.rules
    pool = draw(ints(1, 3))
    if "sell_group" in ctx.allowed and (pool == 3 or not kinds):
        return {"type": "sell_group", "seat": draw(ints(0, g.n - 1)),
                "group": draw(ints(0, len(r.groups) - 1))}
    if not kinds:
        return None
    kind = pick(draw, kinds)
    seat = draw(ints(0, g.n - 1))
    own = _owned(g, seat, r.ownable)
    square = pick(draw, own if own and pool <= 1 else list(r.ownable))
    return {"type": kind, "seat": seat, "square": square}


def _edge(ctx: Context, g: GameState, kinds: list[str]) -> dict[str, list[tuple[str, int, int]]]:
    """Plausible illegal building decisions, by the rule that refuses them: by a player who may manage
    now, on a street of a group they own whole, refused by a rule of building itself (evenness, supply,
    cash, limits, mortgages in the group). Drawing the rule first gives every rule's edge the same
    chance, however many streets it concerns. The legal decisions are in the legal actions already."""
    r = ctx.rules
    guards = {"build_house": r.why_not_build_house, "build_hotel": r.why_not_build_hotel,
              "sell_house": r.why_not_sell_house, "sell_hotel": r.why_not_sell_hotel, "mortgage": r.why_not_mortgage}
    out: dict[str, list] = {}
    for p in range(g.n):
        if not r.may_manage_now(g, p):
            continue
        for s in r.street_squares:
            if g.owner[s] == p and all(g.owner[t] == p for t in r.groups[r.group_of[s]]):
                for k in kinds:
                    why = guards[k](g, p, s) if k in guards else None
                    if why is not None:
                        out.setdefault(f"{k}: {why}", []).append((k, p, s))
    return out


def _trade(draw, ctx: Context, g: GameState) -> dict | None:
    """A trade: mostly one the rules may allow (a deed without buildings in its group for cash the
    buyer has, or deed for deed), else one at their edge (streets of built groups, mortgaged deeds,
    more cash than a side holds, jail cards)."""
    if "trade" not in ctx.allowed or g.n < 2:
        return None
    r = ctx.rules
    seat = pick(draw, [g.current] + list(range(g.n)))
    other = pick(draw, [x for x in range(g.n) if x != seat])
    edge = draw(st.booleans())

    def deeds(who: int) -> list[int]:
        own = _owned(g, who, r.ownable)
        built = [s for s in own if g.mortgaged[s] or any(g.houses[t] or g.hotel[t] for t in r.groups[r.group_of[s]])]
        return (built if edge else [s for s in own if s not in built]) or own

    def side(who: int, deed: bool) -> dict:
        pool = deeds(who)
        cash = g.cash[who]
        out: dict = {"squares": [pick(draw, pool)] if deed and pool else [],
                     "cash": pick(draw, [0, cash + 1, cash] if edge else [0, min(cash, 10), cash // 2])}
        if g.jail_cards[who] and (edge or not out["squares"]) and draw(st.booleans()):
            out["cards"] = [g.jail_cards[who][0]]
        return out

    shape = draw(ints(0, 2))        # 0: my deed for cash, 1: deed for deed, 2: cash for their deed
    return {"type": "trade", "seat": seat, "with": other, "give": side(seat, shape < 2),
            "take": side(other, shape > 0)}


def _bid(draw, ctx: Context, g: GameState) -> dict | None:
    if "bid" not in ctx.allowed:
        return None
    seat = draw(ints(0, g.n - 1))
    if g.phase == AUCTION:
        low = ctx.rules.min_bid(g)
        amount = pick(draw, [low, g.cash[seat], g.cash[seat] + 1, g.pending["high"], low + 1])
    else:
        amount = draw(ints(1, 200))
    return {"type": "bid", "seat": seat, "amount": amount}


def _out_of_turn(draw, ctx: Context, g: GameState) -> dict | None:
    kinds = [k for k in OUT_OF_TURN if k in ctx.allowed]
    if not kinds:
        return None
    kind = pick(draw, kinds)
    waiting = actor(g)
    seat = pick(draw, [x for x in range(g.n) if x != waiting] or [waiting])
    a: dict = {"type": kind, "seat": seat}
    if kind == "roll":
        a["dice"] = [draw(ints(1, 6)) for _ in range(ctx.rules.dice_needed(g))]
    elif kind == "pay_tax":
        a["option"] = "fixed"
    elif kind == "bid":
        a["amount"] = draw(ints(1, 500))
    return a


def next_action(draw, ctx: Context, state: dict, g: GameState) -> tuple[dict, tuple] | None:
    """One action for ``state`` (read as ``g``) and the reference's outcome; None when nothing can be
    offered. What the menu does not need is not computed (listing legal actions is the costly part)."""
    legal_cache: list = []

    def legal() -> list[dict]:
        if not legal_cache:
            legal_cache.append([a for a in enumerate_actions(ctx.rules, g) if a["type"] in ctx.allowed])
        return legal_cache[0]

    menu = draw(ints(0, 9))
    action = None
    if menu <= 2:
        progress = [a for a in legal() if a["type"] in PROGRESS]
        if progress:
            action = pick(draw, progress)
    elif menu <= 4:                # by type first: management for every player would crowd out the rest
        if legal():
            kind = pick(draw, sorted({a["type"] for a in legal()}))
            action = pick(draw, [a for a in legal() if a["type"] == kind])
    elif menu <= 6:
        edge = _edge(ctx, g, [k for k in EDGE_KINDS if k in ctx.allowed])
        if edge:
            kind, seat, square = pick(draw, edge[pick(draw, sorted(edge))])
            action = {"type": kind, "seat": seat, "square": square}
        else:
            action = _management(draw, ctx, g)
    elif menu == 7:
        action = _management(draw, ctx, g)
    elif menu == 8:
        action = _trade(draw, ctx, g)
    else:
        action = pick(draw, (_bid, _out_of_turn))(draw, ctx, g)
    for _ in range(2):
        if action is None:
            moves = [a for a in legal() if a["type"] in PROGRESS] or legal()
            if not moves:
                return None
            action = moves[0]
        action = fill_random(ctx.config, g, action, _DrawRandom(draw))
        try:
            return action, expect(ctx.config, state, action, g)
        except GameError:          # malformed for this state: offer the game's own next step instead
            action = None
    return None


@st.composite
def scenarios(draw, ctx: Context) -> Scenario:
    """A loaded state and up to ``ctx.max_steps`` actions, with the reference outcome of each."""
    origin, state = loaded_state(draw, ctx)
    sc = Scenario(state, [], origin)
    g = ctx.rules.from_json(state)
    steps = draw(ints(1, ctx.max_steps))
    for _ in range(steps):
        if g.phase == OVER:
            break
        step = next_action(draw, ctx, state, g)
        if step is None:
            break
        action, outcome = step
        sc.actions.append(action)
        sc.expected.append(outcome[:3])
        if outcome[0] == ACCEPT:
            state, g = outcome[1], outcome[3]
    return sc


__all__ = ["Context", "Scenario", "scenarios", "loaded_state", "next_action", "BOUNDARIES", "SOURCES",
           "PROGRESS", "MANAGEMENT", "DEBT", "PRE_ROLL"]


# ---- simpler loaded states (the last shrinking pass) --------------------------------------------

def simplifications(ctx: Context, state: dict):
    """Simpler variants of a loaded state as ``(label, state or None)``, each still satisfying the promised
    invariants (None when it would not): a colour group handed back to the bank, a group's buildings
    sold back, a mortgage lifted, a player out of jail, a jail card back in its deck. The harness keeps
    each one under which the same rule still breaks."""
    r = ctx.rules
    try:
        base = r.from_json(state)
    except GameError:
        return
    unlimited = 1 << 30

    def clear(g: GameState, s: int, owner: bool) -> None:
        if g.houses[s] and g.bank_houses < unlimited:
            g.bank_houses += g.houses[s]
        if g.hotel[s] and g.bank_hotels < unlimited:
            g.bank_hotels += 1
        g.houses[s], g.hotel[s] = 0, False
        if owner:
            g.owner[s], g.mortgaged[s], g.mortgage_rounds[s], g.interest_paid[s] = -1, False, 0, False

    def variant(label: str, change) -> tuple[str, dict | None]:
        g = base.copy()
        change(g)
        out = _out(ctx, g)
        return label, (out if out != state and _valid(ctx, out) else None)

    for i, squares in enumerate(r.groups):
        if any(base.owner[s] >= 0 for s in squares):
            yield variant(f"bank {i}", lambda g, sq=squares: [clear(g, s, True) for s in sq])
        if any(base.houses[s] or base.hotel[s] for s in squares):
            yield variant(f"unbuild {i}", lambda g, sq=squares: [clear(g, s, False) for s in sq])
    for s in r.ownable:
        if base.mortgaged[s]:
            yield variant(f"unmortgage {s}", lambda g, s=s: (setattr_item(g.mortgaged, s, False),
                                                             setattr_item(g.mortgage_rounds, s, 0)))
    for p in range(base.n):
        if base.in_jail[p]:
            yield variant(f"free {p}", lambda g, p=p: (setattr_item(g.in_jail, p, False),
                                                       setattr_item(g.jail_turns, p, 0)))
        for deck in sorted(set(base.jail_cards[p])):
            def back(g, p=p, deck=deck):
                g.jail_cards[p].remove(deck)
                pile = g.chance if deck == "chance" else g.chest
                held = {c for q in range(g.n) for c in g.jail_cards[q]}
                pile += [c for c in ctx.jail_cards.get(deck, ()) if c not in pile][:1] if deck not in held else []
            yield variant(f"card {p} {deck}", back)


def setattr_item(seq: list, i: int, value: Any) -> None:
    seq[i] = value
