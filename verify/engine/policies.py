"""Bots: how a seat decides, kept apart from the rules.

A policy never changes the state itself: it returns actions (small dicts, the
step API's vocabulary) that the game loop applies through the same rule code
as ``verify.engine.step.apply``. It reads the state and asks the rules' guards
(``verify.engine.rules``, called with the config's tables ``t``), like the game
loop, so the bots are compiled with the rules on the compiled path
(``verify.engine.native``). The loop asks a policy only at decision points:

* ``manage(t, g, seat)``   -> list of actions (build, unmortgage, leave jail...) before
  rolling or after moving; before rolling the loop asks ``next_move(t, g, seat)``, the same
  answer as a move: an action's type and square, so that the loop applies a build without
  building the action's dict (``MOVE``: the action kept in the bot's ``move``);
* ``wants_buy(t, g, seat, square)`` -> bool;
* ``bid(t, g, seat)``      -> amount or None (pass);
* ``raise_cash(t, g, seat, amount)`` -> one action that raises cash, or None; the loop asks
  ``next_sale(t, g, seat, amount)``, the same answer as a move;
* ``debt_trade(t, g, seat, amount)`` -> a trade selling a deed for cash to another player, or None,
  when the debt cannot be raised by selling and mortgaging but bankruptcy is refused
  (``bankruptcy.threshold: debt_exceeds_worth``); the other player's ``accepts`` decides;
* ``claims_rent(t, g, claim)`` -> bool, where the owner must ask for rent;
* ``decide(t, g, seat, rng)`` -> an action for the rarer decisions
  (income tax, casino, bus, triples, the jail choice after a failed roll).

``make_policies`` gives the bots of one game; the game loop of the engine that plays it
takes them as they are, or as its own (compiled) bots of the same kind and settings
(``adopt``).

``HeuristicPolicy`` buys above a cash reserve, builds evenly, raises cash by
selling buildings and then mortgaging, bids up to the printed price.
``RandomPolicy`` picks uniformly among the legal actions (with the main action
of each phase favoured, so that games end). Both take a jail strategy:
``leave`` (pay or use a card at once) or ``stay`` (roll for doubles while allowed).
"""

from __future__ import annotations

import random
from typing import Any, Final

from .rules import auctions, base, building, construction, mortgages, trades, turns
from .state import BUS, CASINO, INCOME_TAX, JAIL_CHOICE, PRE_ROLL, TRIPLES, GameState
from ..config.tables import Tables

JAIL_STRATEGIES = ("leave", "stay")
#: more cash than any game holds: "no action becomes possible" (a native int: 1 << 62 would be a boxed one)
NEVER: Final = 1 << 60
#: ``next_move``'s answers: the action kept in the bot's ``move``; nothing to do
MOVE: Final = "*"
NOTHING: Final = ("", -1)


class HeuristicPolicy:
    """One seat's bot (``make_policies`` gives each seat its own): what it remembers between questions (its
    holdings, that management found nothing to do) is of the seat it last answered for. ``manage`` and
    ``raise_cash`` are built from ``next_move`` and ``next_sale``: a subclass changes each pair together
    (``RandomPolicy`` answers its moves from its own actions)."""

    name = "heuristic"

    def __init__(self, jail: str = "leave", reserve_ratio: float = 0.1):
        if jail not in JAIL_STRATEGIES:
            raise ValueError(jail)
        self.jail = jail
        self.reserve_ratio = reserve_ratio
        self._reserve = -1
        # what was tried this turn, once a turn: a street (a build a shortage auction may take, or a trade for it),
        # as ``player_turns * board size + square``; a deed offered to a player to pay a debt
        self._tried: set[int] = set()
        self._offered: set[tuple[int, int, int]] = set()
        # the last holdings read (``_holdings``): of which game and seat, at which ownership version
        self._held_game: GameState | None = None
        self._held_seat = -1
        self._held_ov = -1
        self._held: tuple[list[int], list[int], list[int]] = ([], [], [])
        # the last time management found nothing to do (``manage``): of which game and seat, at which ownership
        # version, below which cash, at which scarce house stock
        self._idle_game: GameState | None = None
        self._idle_seat = -1
        self._idle_ov = -1
        self._idle_need = 0
        self._idle_stock = 0
        self.move: dict[str, Any] = {}       # the action of the last move (``next_move``) that is one

    def memory(self) -> tuple[set[int], set[tuple[int, int, int]]]:
        """What the bot carries from one action to the next beyond its caches (what it tried this turn), so
        that a game can be played again from its start as it was played (``restore``)."""
        return set(self._tried), set(self._offered)

    def restore(self, memory: tuple[set[int], set[tuple[int, int, int]]]) -> None:
        self._tried, self._offered = set(memory[0]), set(memory[1])

    def reserve(self, t: Tables) -> int:
        if self._reserve < 0:
            self._reserve = int(t.cfg.setup.starting_cash * self.reserve_ratio)
        return self._reserve

    # --------------------------------------------------------------- decisions
    def _holdings(self, t: Tables, g: GameState, seat: int) -> tuple[list[int], list[int], list[int]]:
        """(full street groups, mortgaged deeds, the missing street of each group short of one), cached
        until ownership or a mortgage changes (``g.ov``)."""
        ov = g.ov[seat]
        if self._held_game is g and self._held_seat == seat and self._held_ov == ov:
            return self._held
        # (one pass over the deeds and one over the street groups, nothing built but the three lists)
        owner, mortgaged = g.owner, g.mortgaged
        held_mortgaged: list[int] = []
        for s in t.ownable:
            if mortgaged[s] and owner[s] == seat:
                held_mortgaged.append(s)
        full: list[int] = []
        wanted: list[int] = []
        street_groups, group_squares = t.street_groups, t.street_group_squares
        for i in range(len(street_groups)):
            squares = group_squares[i]
            k = 0
            missing = -1
            for s in squares:
                if owner[s] == seat:
                    k += 1
                else:
                    missing = s
            if k == len(squares):
                full.append(street_groups[i])
            elif k and k == len(squares) - 1:
                wanted.append(missing)      # whether someone owns it is checked when used
        data = (full, held_mortgaged, wanted)
        self._held_game, self._held_seat, self._held_ov, self._held = g, seat, ov, data
        return data

    def manage(self, t: Tables, g: GameState, seat: int) -> list[dict[str, Any]]:
        # (this class's own moves: a subclass's next_move may ask its manage, which may ask this one)
        kind, square = HeuristicPolicy.next_move(self, t, g, seat)
        return self.move_actions(seat, kind, square)

    def move_actions(self, seat: int, kind: str, square: int) -> list[dict[str, Any]]:
        """``manage``'s actions for a move of ``next_move``."""
        if not kind:
            return []
        if kind == MOVE:
            return [self.move]
        return [{"type": kind, "seat": seat, "square": square}]

    def next_move(self, t: Tables, g: GameState, seat: int) -> tuple[str, int]:
        """What ``manage`` asks for, without building its action: (an action on a square: its type and
        the square), (``MOVE``, -1): the action ``self.move``, or ("", -1): nothing. The game loop of the
        compiled engine applies a move on a square without an action dict (``verify.engine.loop``)."""
        if g.in_jail[seat] and g.phase == PRE_ROLL and self.jail == "leave":
            if turns.why_not_use_card(t, g, seat) is None:
                return self.act({"type": "use_card", "seat": seat})
            if turns.why_not_pay_fine(t, g, seat) is None:
                return self.act({"type": "pay_fine", "seat": seat})
        reserve = self.reserve(t)
        cash = g.cash[seat]
        if cash < reserve * 2:
            return NOTHING
        # nothing to do last time, and nothing that matters has changed since: still nothing to do
        # (the bank's house stock matters only once it is short)
        stock = g.bank_houses if g.bank_houses < g.n else -1
        ov = g.ov[seat]
        if (cash < self._idle_need and self._idle_game is g and self._idle_seat == seat and self._idle_ov == ov
                and self._idle_stock == stock):
            return NOTHING
        kind, square, need = self._manage(t, g, seat, reserve, cash)
        if not kind:
            self._idle_game, self._idle_seat, self._idle_ov, self._idle_need, self._idle_stock = g, seat, ov, need, stock
        return kind, square

    def act(self, action: dict[str, Any]) -> tuple[str, int]:
        """The move that is ``action`` (kept in ``self.move``)."""
        self.move = action
        return MOVE, -1

    def _manage(self, t: Tables, g: GameState, seat: int, reserve: int,
                cash: int) -> tuple[str, int, int]:
        """(the move's type, its square, the cash from which some move might become possible): see
        ``next_move``."""
        need = NEVER
        short = -1
        full, mortgaged, wanted = self._holdings(t, g, seat)
        for s in mortgaged:      # unmortgage first, then build
            cost = base.unmortgage_cost(t, g, s) + reserve * 2
            if cash >= cost and mortgages.why_not_unmortgage(t, g, seat, s) is None:
                return "unmortgage", s, 0
            need = min(need, cost)
        for grp in full:
            squares = t.groups[grp]
            best, best_level = -1, 99          # lowest street without a hotel first keeps the group even
            hotel, houses = g.hotel, g.houses
            for s in squares:
                if not hotel[s] and houses[s] < best_level:
                    best, best_level = s, houses[s]
            if best < 0:                       # hotels everywhere: nothing left to build
                continue
            cost = t.house_cost[best] + reserve * 2
            if cash < cost:
                need = min(need, cost)
                continue
            key = g.player_turns * t.size + best
            if key in self._tried:             # a shortage auction already ran for it this turn
                continue
            if short < 0:                      # (the state is the same for every group asked here)
                short = 1 if construction.shortage_possible(t, g) else 0
            if short:
                self._tried.add(key)
            # (a street at the house limit takes no house: its refusal is not worth asking for)
            if houses[best] < t.cfg.building.max_houses and building.why_not_build_house(t, g, seat, best) is None:
                return "build_house", best, 0
            # (nor one below the houses a hotel needs)
            if (houses[best] >= t.cfg.building.hotel_threshold
                    and building.why_not_build_hotel(t, g, seat, best) is None):
                return "build_hotel", best, 0
            need = 0    # refused for another reason (a per-turn limit, timing...): look again next time
        if wanted:
            if g.phase == PRE_ROLL:
                offer = self.trade_for_group(t, g, seat, reserve, wanted)
                if offer is not None:
                    self.move = offer
                    return MOVE, -1, 0
            for s in wanted:
                if g.owner[s] >= 0:
                    need = min(need, t.price[s] * 3 // 2 + reserve * 2 + 1)
        return "", -1, need

    def trade_for_group(self, t: Tables, g: GameState, seat: int, reserve: int,
                        wanted: list[int]) -> dict[str, Any] | None:
        """Offer cash for the one street that completes a group (once per street and turn)."""
        tr = t.cfg.trade
        if not tr.allowed or not tr.cash:
            return None
        for missing in wanted:
            if g.owner[missing] < 0:
                continue
            key = g.player_turns * t.size + missing
            if key in self._tried:
                continue
            offer = t.price[missing] * 3 // 2
            if g.cash[seat] - offer < reserve * 2:
                continue
            self._tried.add(key)
            other = g.owner[missing]
            give: dict[str, Any] = {"cash": offer}
            take: dict[str, Any] = {"squares": [missing]}
            if trades.why_not_trade(t, g, seat, other, give, take) is None:
                return {"type": "trade", "seat": seat, "with": other, "give": give, "take": take}
        return None

    def accepts(self, t: Tables, g: GameState, seat: int, proposer: int, give: dict, take: dict) -> bool:
        """Accept when what we get is worth at least 1.4 times what we give, and it is not our own group."""
        got = trades.side_value(t, g, give)
        lost = trades.side_value(t, g, take)
        for s in take.get("squares", ()):
            grp = t.group_of[s]
            if t.group_kind[grp] == "street" and sum(1 for x in t.groups[grp] if g.owner[x] == seat) > 1:
                return False
        return got >= lost * 1.4

    def wants_buy(self, t: Tables, g: GameState, seat: int, square: int) -> bool:
        return g.cash[seat] - t.price[square] >= self.reserve(t)

    def claims_rent(self, t: Tables, g: GameState, claim: list) -> bool:
        """Ask for rent the moment it is due (where the owner must claim it)."""
        return True

    def bid(self, t: Tables, g: GameState, seat: int) -> int | None:
        a = g.pending
        low = auctions.min_bid(t, g)
        if a["item"] == "deed":
            value = t.price[a["square"]]
        else:
            value = t.house_cost[a["square"]] * 2
        cap = min(value, g.cash[seat] - self.reserve(t) // 2)
        if low > cap:
            return None
        # jump straight to our value (an English auction in one step) unless bids rise by a fixed step
        amount = low if t.cfg.purchase.fixed_step else cap
        return amount if auctions.why_not_bid(t, g, seat, amount) is None else None

    def debt_trade(self, t: Tables, g: GameState, seat: int, amount: int) -> dict[str, Any] | None:
        """Sell a deed to another player for cash (each offer once a turn): the offer that raises most
        first, to the richest buyer first, at five sevenths of the deed's value (what ``accepts`` takes,
        within the balance limits of the rules)."""
        offers: list[tuple[int, int, int, int]] = []
        for s in t.ownable:
            if g.owner[s] == seat:
                price = trades.side_value(t, g, {"squares": [s]}) * 5 // 7
                for q in range(g.n):
                    if q != seat and not g.bankrupt[q] and 0 < price <= g.cash[q]:
                        offers.append((-price, -g.cash[q], s, q))
        for neg_price, _, s, q in sorted(offers):
            offer = (g.player_turns, s, q)
            if offer in self._offered:
                continue
            self._offered.add(offer)
            give: dict[str, Any] = {"squares": [s]}
            take: dict[str, Any] = {"cash": -neg_price}
            if trades.why_not_trade(t, g, seat, q, give, take) is None:
                return {"type": "trade", "seat": seat, "with": q, "give": give, "take": take}
        return None

    def raise_cash(self, t: Tables, g: GameState, seat: int, amount: int) -> dict[str, Any] | None:
        """One step of raising cash: sell the highest building, else mortgage the cheapest deed."""
        kind, square = HeuristicPolicy.next_sale(self, t, g, seat, amount)
        acts = self.move_actions(seat, kind, square)
        return acts[0] if acts else None

    def next_sale(self, t: Tables, g: GameState, seat: int, amount: int) -> tuple[str, int]:
        """``raise_cash``'s action as a move (see ``next_move``)."""
        best, best_level = -1, 0
        for s in t.street_squares:
            if g.owner[s] == seat and (g.houses[s] or g.hotel[s]):
                lv = base.level(t, g, s)
                if lv > best_level:
                    best, best_level = s, lv
        if best >= 0:
            if g.hotel[best]:
                if building.why_not_sell_hotel(t, g, seat, best) is None:
                    return "sell_hotel", best
            elif building.why_not_sell_house(t, g, seat, best) is None:
                return "sell_house", best
            if building.why_not_sell_group(t, g, seat, t.group_of[best]) is None:
                return self.act({"type": "sell_group", "seat": seat, "group": t.group_of[best]})
        # the cheapest deed the rules let us mortgage (the first of equals): asked cheapest first
        owner, mortgaged = g.owner, g.mortgaged
        for s in by_mortgage_value(t):
            if owner[s] == seat and not mortgaged[s] and mortgages.why_not_mortgage(t, g, seat, s) is None:
                return "mortgage", s
        return NOTHING

    def decide(self, t: Tables, g: GameState, seat: int, rng: random.Random) -> dict[str, Any]:
        ph, pend = g.phase, g.pending
        if ph == INCOME_TAX:
            pct = t.cfg.taxes.income_percent or 0
            cheaper = base.tax_worth(t, g, seat) * pct < t.cfg.taxes.income
            return {"type": "pay_tax", "seat": seat, "option": "percent" if cheaper else "fixed"}
        if ph == CASINO:
            c = t.cfg.casino
            if g.cash[seat] >= c.stake * 5 or not c.may_decline:
                if g.cash[seat] >= c.stake:
                    return {"type": "casino_bet", "seat": seat, "numbers": list(range(1, c.max_numbers + 1))}
            return {"type": "casino_decline", "seat": seat}
        if ph == BUS:
            for steps in sorted(pend["options"], reverse=True):
                s = (g.pos[seat] + steps) % t.size
                if t.is_ownable[s] and g.owner[s] < 0:
                    return {"type": "bus", "seat": seat, "steps": steps}
            return {"type": "bus", "seat": seat, "steps": max(pend["options"])}
        if ph == TRIPLES:
            for k in range(1, t.size):
                s = (g.pos[seat] + k) % t.size
                if t.is_ownable[s] and g.owner[s] < 0 and g.cash[seat] > t.price[s]:
                    return {"type": "move_to", "seat": seat, "square": s}
            return {"type": "move_to", "seat": seat, "square": 0}
        if ph == JAIL_CHOICE:
            if self.jail == "leave" and turns.why_not_pay_fine(t, g, seat) is None:
                return {"type": "pay_fine", "seat": seat}
            return {"type": "stay", "seat": seat}
        raise AssertionError(f"no decision for phase {ph}")

    def times_out(self, t: Tables, g: GameState, seat: int) -> bool:
        return False


class RandomPolicy(HeuristicPolicy):
    """Uniform among legal actions, favouring each phase's main action so games progress. It lists the
    legal actions with the step API's enumeration (``legal``: set by the game loop to the engine's)."""

    name = "random"

    def __init__(self, jail: str = "leave", rng: random.Random | None = None, main_weight: float = 0.75,
                 timeout_rate: float = 0.01):
        super().__init__(jail)
        self.rng = rng or random.Random(0)
        self.main_weight = main_weight
        self._claim_choice: dict[tuple, bool] = {}
        self.timeout_rate = timeout_rate
        self.legal: Any = None         # g -> the legal actions (the engine's enumeration)

    def manage(self, t: Tables, g: GameState, seat: int) -> list[dict[str, Any]]:
        rng = self.rng
        if g.in_jail[seat] and g.phase == PRE_ROLL and self.jail == "leave":
            out = super().manage(t, g, seat)
            if out:
                return out
        if rng.random() < self.main_weight:
            return []
        acts = [a for a in self.legal(g)
                if a.get("seat") == seat and a["type"] not in ("roll", "end_turn", "timeout", "surrender")]
        builds = [a for a in acts if a["type"] in ("build_house", "build_hotel", "unmortgage")]
        if builds and rng.random() < 0.7:
            return [rng.choice(builds)]
        return [rng.choice(acts)] if acts else []

    def next_move(self, t: Tables, g: GameState, seat: int) -> tuple[str, int]:
        """Its management's action as a move (``MOVE``: the action is kept in ``move``)."""
        acts = self.manage(t, g, seat)      # (one action at most)
        return self.act(acts[0]) if acts else NOTHING

    def wants_buy(self, t: Tables, g: GameState, seat: int, square: int) -> bool:
        return self.rng.random() < 0.7

    def claims_rent(self, t: Tables, g: GameState, claim: list) -> bool:
        """Decide once per claim; one in five is forgotten (and lapses at its deadline)."""
        key = (id(g), tuple(claim))
        if key not in self._claim_choice:
            self._claim_choice[key] = self.rng.random() < 0.8
        return self._claim_choice[key]

    def bid(self, t: Tables, g: GameState, seat: int) -> int | None:
        low = auctions.min_bid(t, g)
        if self.rng.random() < 0.5 and auctions.why_not_bid(t, g, seat, low) is None:
            return low
        return None

    def raise_cash(self, t: Tables, g: GameState, seat: int, amount: int) -> dict[str, Any] | None:
        acts = [a for a in self.legal(g) if a.get("seat") == seat and a["type"] in (
            "sell_house", "sell_hotel", "sell_group", "mortgage")]
        return self.rng.choice(acts) if acts else None

    def next_sale(self, t: Tables, g: GameState, seat: int, amount: int) -> tuple[str, int]:
        """Its sale as a move (``MOVE``: the action is kept in ``move``)."""
        a = self.raise_cash(t, g, seat, amount)
        return self.act(a) if a is not None else NOTHING

    def decide(self, t: Tables, g: GameState, seat: int, rng: random.Random) -> dict[str, Any]:
        acts = [a for a in self.legal(g) if a.get("seat") == seat and a["type"] in (
            "pay_tax", "casino_bet", "casino_decline", "bus", "move_to", "pay_fine", "use_card", "stay")]
        return self.rng.choice(acts)

    def times_out(self, t: Tables, g: GameState, seat: int) -> bool:
        return self.rng.random() < self.timeout_rate


#: the tables ``by_mortgage_value`` last sorted, with their order (a game's bots are made afresh for each game)
_SORTED: list[tuple[Tables, list[int]]] = []


def by_mortgage_value(t: Tables) -> list[int]:
    """The deeds of ``t`` by mortgage value, the first of equals first: sorted once for every bot playing
    with ``t`` (callers never change the list)."""
    for tables, order in _SORTED:      # (one entry, read at once)
        if tables is t:
            return order
    value = t.mortgage_value
    order = sorted(t.ownable, key=value.__getitem__)
    _SORTED[:] = [(t, order)]
    return order


def make_policies(kind: str, players: int, jail: str, seed: int) -> list:
    if kind == "heuristic":
        return [HeuristicPolicy(jail) for _ in range(players)]
    if kind == "random":
        return [RandomPolicy(jail, random.Random(seed * 7919 + i)) for i in range(players)]
    raise ValueError(f"unknown policy {kind!r}")


def adopt(policy: Any, legal: Any) -> HeuristicPolicy:
    """``policy`` as a bot of this module (the same kind, settings and random generator): the game loop
    of a compiled engine plays the bots compiled with it. ``legal``: the engine's enumeration of the
    legal actions (``g -> list``), which the random bot chooses from."""
    if isinstance(policy, HeuristicPolicy):
        bot = policy
    elif getattr(policy, "name", None) == "random":
        bot = RandomPolicy(policy.jail, policy.rng, policy.main_weight, policy.timeout_rate)
    elif getattr(policy, "name", None) == "heuristic":
        bot = HeuristicPolicy(policy.jail, policy.reserve_ratio)
    else:
        raise TypeError(f"not a policy of verify.engine.policies: {policy!r}")
    if isinstance(bot, RandomPolicy):
        bot.legal = legal
    return bot


POLICIES = ("heuristic", "random")
__all__ = ["HeuristicPolicy", "RandomPolicy", "make_policies", "adopt", "POLICIES", "JAIL_STRATEGIES"]
