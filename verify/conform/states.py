"""Loaded states for the harness: where a scenario starts, and simpler variants of it for shrinking.

Loaded states come from four sources: a new game; a **mid-game** state built
directly (deeds owned alone or as full groups, even buildings within the
supply, mortgages and their age, cash, jail stays, jail cards held); the
**boundary** states of the rules (``BOUNDARIES``: the last house in the bank,
exactly enough cash, a bankruptcy to a player and to the bank, ...); and
boundary states **found by z3** over the symbolic state of ``verify.smt``
(``smt_boundary.py``). A state is then advanced by a few legal steps of the
reference engine (how auctions, debts and other pending decisions come to be
in progress), using only the actions the engine under test declares and
stopping before a phase it cannot hold. Every loaded state satisfies the
invariants the ruleset promises (checked; a state that does not is never used).
Given the chunk's ``coverage.Coverage``, a state built directly has on top of
each deck the card the chunk has drawn least, and a mid-game state's stock of
buildings is brought to the supply situation the chunk has reached least (the
bank out of houses, short of a hotel's break-down, out of hotels).

``simplifications`` gives simpler variants of a loaded state (a group handed
back to the bank, buildings sold back, a mortgage lifted, a player out of
jail, a jail card back in its deck), each still satisfying the invariants:
the shrinker keeps those under which a deviation still shows.

Every choice comes from a ``draw.Draw`` (``d``); ``ctx`` is the scenario
``Context`` (config, promised invariants, the engine's profile).
"""

from __future__ import annotations

from typing import Any

from ..config.model import JAIL_SQUARE
from ..engine.state import GameState
from ..engine.step import fill_random, new_game
from ..errors import GameError
from .coverage import SUPPLIES, Coverage

#: Where loaded states come from, weighted by repetition.
SOURCES = ("new", "midgame", "boundary", "midgame", "boundary", "smt")
#: The boundary states of the rules (``_boundary`` builds each).
BOUNDARIES = ("last-house", "exact-cash", "even-limit", "bankruptcy-to-player", "bankruptcy-to-bank",
              "mortgage-expiry", "three-way-auction", "jail-with-card", "trade-built-street")
#: Warm-up steps after a loaded state is built, by repetition (most states are used as built).
WARM_UP = (0, 0, 0, 1, 2, 3)


def valid(ctx, state: dict) -> bool:
    """The state satisfies every promised invariant (and can be read)."""
    try:
        return not ctx.broken(state)
    except GameError:
        return False


def fresh(d, ctx) -> tuple[GameState, dict]:
    """A new game and its setup (players, seed): what a ``new_game`` request asks for."""
    setup = {"players": d.pick(ctx.player_counts), "seed": d.int(0, 2 ** 16)}
    return ctx.rules.from_json(new_game(ctx.config, setup["players"], setup["seed"])), setup


def out(ctx, g: GameState) -> dict:
    return g.to_json(ctx.rules.t.ownable)


def _give_group(ctx, g: GameState, grp: int, seat: int) -> None:
    for s in ctx.rules.t.groups[grp]:
        g.owner[s] = seat


def _build(ctx, g: GameState, grp: int, houses: int, hotels: bool = True) -> int:
    """Put ``houses`` levels on a group evenly (one at a time on its lowest street), within the
    bank's stock; a street at the hotel threshold + 1 gets a hotel. Returns the levels placed."""
    r, b = ctx.rules, ctx.config.building
    placed = 0
    streets = list(r.t.groups[grp])
    for _ in range(houses):
        s = min(streets, key=lambda x: r.rules.base.level(r.t, g, x))
        lvl = r.rules.base.level(r.t, g, s)
        if lvl >= r.t.hotel_level or (lvl >= b.max_houses and lvl + 1 < r.t.hotel_level):
            break
        if lvl + 1 == r.t.hotel_level and lvl >= b.hotel_threshold:
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


def _set_jail_card(ctx, g: GameState, seat: int, deck: str) -> None:
    for cid in ctx.jail_cards.get(deck, ()):
        pile = g.chance if deck == "chance" else g.chest
        if cid in pile:
            pile.remove(cid)
            g.jail_cards[seat].append(deck)
            return


def _jail(ctx, g: GameState, seat: int, turns: int) -> None:
    g.in_jail[seat] = True
    g.pos[seat] = JAIL_SQUARE
    g.jail_turns[seat] = min(turns, max(0, ctx.config.jail.max_tries - 1))


def _midgame(d, ctx, g: GameState) -> None:
    """Deeds, buildings, mortgages, cash, jail and cards for a game under way (pre-roll of some player)."""
    r, cfg = ctx.rules, ctx.config
    seats = list(range(g.n))
    start = cfg.setup.starting_cash
    for grp, squares in enumerate(r.t.groups):
        mode = d.pick(("bank", "group", "split", "group"))
        if mode == "group":
            _give_group(ctx, g, grp, d.pick(seats))
        elif mode == "split":
            for s in squares:
                g.owner[s] = d.pick([-1] + seats)
    for grp in d.perm(range(len(r.t.groups))):
        squares = r.t.groups[grp]
        owners = {g.owner[s] for s in squares}
        if r.t.group_kind[grp] == "street" and len(owners) == 1 and -1 not in owners:
            if _build(ctx, g, grp, d.int(0, len(squares) * r.t.hotel_level)):
                continue
        for s in squares:
            if g.owner[s] >= 0 and d.bool():
                g.mortgaged[s] = True
                if cfg.mortgage.expiry_rounds is not None:
                    g.mortgage_rounds[s] = d.int(0, max(0, cfg.mortgage.expiry_rounds - 1))
    for p in seats:
        g.cash[p] = d.int(0, 2 * start)
        g.pos[p] = d.int(0, len(g.owner) - 1)
        if d.int(0, 2) == 0:
            _jail(ctx, g, p, d.int(0, 2))
    for deck in ("chance", "chest"):
        holder = d.pick([None] + seats)
        if holder is not None:
            _set_jail_card(ctx, g, holder, deck)
    turn(d, g)


def _supply(d, ctx, g: GameState, target: tuple[str, str]) -> None:
    """Bring the bank's stock of buildings towards ``target`` (``coverage.SUPPLIES``) by building on street
    groups owned whole (a group a single player owns partly is handed to one of its owners, one owned by
    nobody to a player, as needed; mortgages lifted where it builds): for the houses short of a hotel's
    break-down, a group of hotels first (what selling one meets), then houses on the other groups until
    the bank holds ``out``: none, ``short``: fewer than a break-down needs; for hotels ``out``, hotels
    group by group. Stops where the board can take no more (the state is then only closer)."""
    r = ctx.rules
    houses, hotels = target
    if g.bank_houses >= (1 << 30) or g.bank_hotels >= (1 << 30):
        return
    groups = d.perm(r.t.street_groups)

    def take(grp: int) -> None:
        owners = [g.owner[s] for s in r.t.groups[grp] if g.owner[s] >= 0]
        if len(set(owners)) != 1 or len(owners) != len(r.t.groups[grp]):
            _give_group(ctx, g, grp, d.pick(owners or list(range(g.n))))
        for s in r.t.groups[grp]:
            g.mortgaged[s], g.mortgage_rounds[s] = False, 0

    if houses == "short" or hotels == "out":
        for grp in groups if hotels == "out" else groups[:1]:
            if g.bank_hotels <= 0:
                break
            take(grp)
            _build(ctx, g, grp, len(r.t.groups[grp]) * r.t.hotel_level)
    if houses in ("out", "short"):
        keep = 0 if houses == "out" else d.int(1, max(1, r.t.hotel_back - 1))
        for grp in groups[1:] if houses == "short" else groups:
            if g.bank_houses <= keep:
                break
            take(grp)
            _build(ctx, g, grp, g.bank_houses - keep, hotels=False)


def turn(d, g: GameState, current: int | None = None) -> None:
    """Whose turn, in which round (the clock and GO passes to match)."""
    g.current = d.int(0, g.n - 1) if current is None else current
    g.round = d.int(0, 6)
    g.player_turns = g.round * g.n + g.current
    g.minute = g.player_turns * 0.5
    g.passed_go = [g.round > 0 or p < g.current for p in range(g.n)]


def _dice_to(d, g: GameState, seat: int, target: int) -> list[int]:
    """Place ``seat`` so that a roll of two non-double dice brings it to ``target``; return the dice."""
    a = d.int(1, 6)
    b = d.pick([x for x in range(1, 7) if x != a])
    g.pos[seat] = (target - a - b) % len(g.owner)
    g.in_jail[seat] = False
    return [a, b]


def _boundary(d, ctx, g: GameState) -> tuple[str, list[dict]]:
    """One of the boundary states; returns its name and the legal prefix that sets it up."""
    r, cfg = ctx.rules, ctx.config
    n = g.n
    name = d.pick(BOUNDARIES)
    p = d.int(0, n - 1)
    q = (p + 1) % n
    streets = list(r.t.street_groups)
    grp = d.pick(streets)
    other = d.pick([x for x in streets if x != grp])
    prefix: list[dict] = []
    turn(d, g, p)
    g.round = max(g.round, 1)
    g.passed_go = [True] * n
    cost = r.t.house_cost[r.t.groups[grp][0]]
    if name == "last-house":
        _give_group(ctx, g, grp, p)
        for x in streets:
            if x == grp or g.bank_houses <= 1 or g.bank_houses >= (1 << 30):
                continue
            _give_group(ctx, g, x, q)
            _build(ctx, g, x, g.bank_houses - 1, hotels=False)
        g.cash[p] = cost * d.int(1, 3)
    elif name == "exact-cash":
        _give_group(ctx, g, grp, p)
        _build(ctx, g, grp, d.int(0, len(r.t.groups[grp])))
        g.cash[p] = cost
    elif name == "even-limit":
        _give_group(ctx, g, grp, p)
        _build(ctx, g, grp, d.int(1, len(r.t.groups[grp]) - 1) + len(r.t.groups[grp]) * d.int(
            0, max(0, cfg.building.max_houses - 1)))
        g.cash[p] = 3 * cost + d.int(0, cfg.setup.starting_cash)
    elif name in ("bankruptcy-to-player", "bankruptcy-to-bank"):
        _give_group(ctx, g, grp, p)
        _build(ctx, g, grp, d.int(1, len(r.t.groups[grp]) * 2))
        for s in r.t.groups[other]:
            g.owner[s] = p if name == "bankruptcy-to-bank" else q
        for s in [s for s in r.t.ownable if r.t.group_of[s] not in (grp, other)][:2]:
            g.owner[s] = p
            g.mortgaged[s] = True
        if name == "bankruptcy-to-player":
            _build(ctx, g, other, len(r.t.groups[other]) * r.t.hotel_level)
            target = r.t.groups[other][-1]
        else:
            target = d.pick([s for s in range(r.t.size) if r.t.kind[s] in ("income_tax", "luxury_tax")] or [30])
        g.cash[p] = d.int(0, 20)
        prefix.append({"type": "roll", "seat": p, "dice": _dice_to(d, g, p, target)})
    elif name == "mortgage-expiry":
        s = d.pick(r.t.ownable)
        g.owner[s] = p
        g.mortgaged[s] = True
        if cfg.mortgage.expiry_rounds is not None:
            g.mortgage_rounds[s] = max(0, cfg.mortgage.expiry_rounds - d.int(0, 1))
        g.cash[p] = d.int(0, 2 * r.t.mortgage_value[s] + 50)
    elif name == "three-way-auction":
        target = d.pick([s for s in r.t.ownable if g.owner[s] < 0])
        dice = _dice_to(d, g, p, target)
        for x in range(n):
            g.cash[x] = d.int(1, 2 * r.t.price[target])
        prefix += [{"type": "roll", "seat": p, "dice": dice}, {"type": "decline", "seat": p}]
    elif name == "jail-with-card":
        _jail(ctx, g, p, d.int(0, 2))
        _set_jail_card(ctx, g, p, d.pick(("chance", "chest")))
    elif name == "trade-built-street":
        _give_group(ctx, g, grp, p)
        _build(ctx, g, grp, d.int(1, len(r.t.groups[grp]) * 2))
        for s in r.t.groups[other]:
            g.owner[s] = q
        g.mortgaged[r.t.groups[other][0]] = True
    return name, prefix


def advance(d, ctx, state: dict, prefix: list[dict], steps: int) -> tuple[dict, list[dict]]:
    """Apply a scripted prefix, then up to ``steps`` legal progress actions, with the reference; only
    actions the engine declares, never into a phase it cannot hold (the state before is kept). Returns
    the state and the actions applied."""
    done: list[dict] = []
    for a in prefix:
        if a["type"] not in ctx.allowed:
            break
        try:
            kind, new, *_ = ctx.expect(state, a)
        except GameError:
            break
        if kind != "state" or not ctx.holds(new):
            break
        state = new
        done.append(a)
    for _ in range(steps):
        g = ctx.rules.from_json(state)
        legal = ctx.progress(g)
        if not legal:
            break
        a = fill_random(ctx.config, g, d.pick(legal), d.dice())
        kind, new, *_ = ctx.expect(state, a, g)
        if kind != "state" or not ctx.holds(new):
            break
        state = new
        done.append(a)
    return state, done


def loaded_state(d, ctx, cov: Coverage | None = None) -> tuple[str, dict, dict | None, dict | None]:
    """A state satisfying the promised invariants, in a phase the engine can hold, where it came from, for
    a new game as set up its setup (players, seed; else None), and for a state reached by steps from
    another its history (``{"state", "actions"}``; else None). ``cov``: the chunk's coverage, which steers
    a mid-game state's supply of buildings to the situation least reached (``coverage.SUPPLIES``) and
    puts the card each deck has drawn least on top of it (a new game's decks are its setup's)."""
    source = d.pick(SOURCES)
    g, setup = fresh(d, ctx)
    fallback = out(ctx, g)
    prefix: list[dict] = []
    origin = "new game"
    if source == "midgame":
        _midgame(d, ctx, g)
        origin = "mid-game"
        if cov is not None:
            target = cov.least(SUPPLIES, cov.reached)
            cov.reach(target)
            _supply(d, ctx, g, target)
    elif source == "boundary":
        name, prefix = _boundary(d, ctx, g)
        origin = f"boundary: {name}"
    elif source == "smt":
        from .smt_boundary import smt_state
        found = smt_state(d, ctx)
        if found is not None:
            origin, g = f"found by z3: {found[0]}", found[1]
    if cov is not None and source != "new":
        cov.top(g)
    state = out(ctx, g)
    if source != "new" and not valid(ctx, state):
        state, origin, prefix = fallback, "new game", []
    warm, steps = advance(d, ctx, state, prefix, d.pick(WARM_UP))
    return (origin, warm, (setup if origin == "new game" and not steps else None),
            {"state": state, "actions": steps} if steps else None)


# ---- simpler loaded states (shrinking) ------------------------------------------------------------

def simplification_units(ctx, state: dict) -> list[tuple[str, Any]]:
    """The simplifications of a loaded state that can be applied together, each ``(label, change)`` with
    ``change(g)`` editing a ``GameState``: a colour group handed back to the bank, a group's buildings sold
    back, a mortgage lifted, a player out of jail, a jail card back in its deck."""
    r = ctx.rules
    try:
        base = r.from_json(state)
    except GameError:
        return []
    unlimited = 1 << 30

    def clear(g: GameState, s: int, owner: bool) -> None:
        if g.houses[s] and g.bank_houses < unlimited:
            g.bank_houses += g.houses[s]
        if g.hotel[s] and g.bank_hotels < unlimited:
            g.bank_hotels += 1
        g.houses[s], g.hotel[s] = 0, False
        if owner:
            g.owner[s], g.mortgaged[s], g.mortgage_rounds[s], g.interest_paid[s] = -1, False, 0, False

    units: list[tuple[str, Any]] = []
    for i, squares in enumerate(r.t.groups):
        if any(base.owner[s] >= 0 for s in squares):
            units.append((f"bank {i}", lambda g, sq=squares: [clear(g, s, True) for s in sq]))
        if any(base.houses[s] or base.hotel[s] for s in squares):
            units.append((f"unbuild {i}", lambda g, sq=squares: [clear(g, s, False) for s in sq]))
    for s in r.t.ownable:
        if base.mortgaged[s]:
            units.append((f"unmortgage {s}", lambda g, s=s: (_set(g.mortgaged, s, False),
                                                              _set(g.mortgage_rounds, s, 0))))
    for p in range(base.n):
        if base.in_jail[p]:
            units.append((f"free {p}", lambda g, p=p: (_set(g.in_jail, p, False), _set(g.jail_turns, p, 0))))
        for deck in sorted(set(base.jail_cards[p])):
            def back(g, p=p, deck=deck):
                if deck not in g.jail_cards[p]:
                    return
                g.jail_cards[p].remove(deck)
                pile = g.chance if deck == "chance" else g.chest
                held = {c for q in range(g.n) for c in g.jail_cards[q]}
                pile += [c for c in ctx.jail_cards.get(deck, ()) if c not in pile][:1] if deck not in held else []
            units.append((f"card {p} {deck}", back))
    return units


def simplified(ctx, state: dict, changes) -> dict | None:
    """``state`` with every change of ``changes`` applied (``simplification_units``), or None when that
    breaks a promised invariant or changes nothing."""
    try:
        g = ctx.rules.from_json(state)
    except GameError:
        return None
    for change in changes:
        change(g)
    new = out(ctx, g)
    return new if new != state and valid(ctx, new) else None


def simplifications(ctx, state: dict):
    """Each simplification of a loaded state alone, as ``(label, state or None)``."""
    for label, change in simplification_units(ctx, state):
        yield label, simplified(ctx, state, [change])


def _set(seq: list, i: int, value: Any) -> None:
    seq[i] = value


__all__ = ["loaded_state", "advance", "simplifications", "simplification_units", "simplified", "valid", "fresh", "out", "turn", "SOURCES",
           "BOUNDARIES"]
