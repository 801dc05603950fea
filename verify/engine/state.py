"""The canonical game state ("verify.state/1") and the engine's flat, mutable form of it.

The canonical state is the JSON document every stage exchanges: traces,
replay, the conformance harness and the SMT differential tests (its JSON
Schema ships as ``verify/schemas/state.schema.json``). The engine works on
``GameState``: the same facts as flat per-seat and per-square lists (fast to
read and copy); ``to_json()`` / ``from_json()`` convert exactly, so the step
API and the fast simulator run the same rule code on the same object.

Beyond its core keys (players, properties, bank, pot, decks) the canonical state carries what a
game in progress needs to be resumed from JSON alone: the bank's cash ledger
(``bank.cash``: money the bank paid out is negative), the decision being
awaited (``pending``), queued debts and auctions (``queue``), per-turn
counters (``turn``), discard piles, the shuffle seed, the player-turn count
and the winner.
"""

from __future__ import annotations

from typing import Any, Final

from ..config.model import SQUARES
from ..errors import GameError

SCHEMA: Final = "verify.state/1"

#: phases: who is expected to act, and how
PRE_ROLL: Final = "pre_roll"
POST_ROLL: Final = "post_roll"
BUY: Final = "buy"
AUCTION: Final = "auction"
DEBT: Final = "debt"
CASINO: Final = "casino"
BUS: Final = "bus"
TRIPLES: Final = "triples"
INCOME_TAX: Final = "income_tax"
JAIL_CHOICE: Final = "jail_choice"
OVER: Final = "over"
PHASES = (PRE_ROLL, POST_ROLL, BUY, AUCTION, DEBT, CASINO, BUS, TRIPLES, INCOME_TAX, JAIL_CHOICE, OVER)
UNLIMITED: Final = 1 << 40         # internal stand-in for an unlimited building supply


class GameState:
    """One game in progress. Per-seat lists have one entry per player; per-square lists have 40."""

    # players
    n: int
    team: list[int | None]
    cash: list[int]
    pos: list[int]
    in_jail: list[bool]
    jail_turns: list[int]
    jail_cards: list[list[str]]
    bankrupt: list[bool]
    doubles: list[int]
    passed_go: list[bool]
    missed: list[int]
    # squares (only the 28 ownable ones are used)
    owner: list[int]
    mortgaged: list[bool]
    houses: list[int]
    hotel: list[bool]
    mortgage_rounds: list[int]
    interest_paid: list[bool]
    # bank, pots, decks
    bank_houses: int
    bank_hotels: int
    bank_cash: int
    pot: int
    jackpot: int
    chance: list[str]
    chest: list[str]
    chance_discards: list[str]
    chest_discards: list[str]
    seed: int
    shuffles: int
    # clock and flow
    round: int
    current: int
    minute: float
    phase: str
    stage: str
    pending: Any                 # the awaited decision (a dict), or None
    debts: list[list[Any]]
    auctions: list[list[Any]]
    claims: list[list[Any]]
    player_turns: int
    winner: int | None
    result: str | None
    # per-turn counters
    rolled: bool
    dice: tuple[int, ...]
    trades: int
    built_streets: set[int]
    built_groups: set[int]
    timed_out: bool
    # mortgaged deeds just received, liftable at once for the principal alone: {square: receiver}
    received: dict[int, int]
    # per-move scratch (reset at each roll; canonical under turn.move)
    salary_paid: bool
    rent_factor: int
    util_mult: int
    mr_pending: bool
    no_auction: bool
    jailed: bool
    reroll: bool
    still: bool
    steps_after_debts: int
    # instrumentation (not canonical): events list, landing counts, ownership/mortgage version, the
    # whole colour groups remembered for the last owner column seen
    events: list[dict[str, Any]] | None
    landings: list[int] | None
    ov: list[int]
    whole: tuple[list[int], tuple[tuple[int, ...], bool]] | None
    #: the creditor of each bankruptcy of the game so far, in order (-1: the bank), for the screen of a checked
    #: game (``verify.engine.screen``)
    creditors: list[int]
    #: a bit for each square whose deed columns (owner, mortgaged, houses, hotel) a rule wrote since the screen
    #: of a checked game last looked (``verify.engine.screen``; every such write sets it: tested)
    dirty: int
    #: the deed columns' version: one up at every write a rule makes (``mark``); what the rules remember between
    #: questions about the buildings keys on it (``construction.contest``)
    deeds: int
    contest: tuple[int, int, int, tuple[tuple[int, ...], int, int] | None] | None
    # the random values an action supplies for its step (verify.engine.actions: card_dice, reshuffle)
    card_dice: Any
    reshuffle: dict[str, list[str]] | None

    def copy(self) -> "GameState":
        """An independent copy (every list, set and dict of the state copied; the tuples shared)."""
        g = GameState()
        g.n, g.team, g.cash, g.pos = self.n, list(self.team), list(self.cash), list(self.pos)
        g.in_jail, g.jail_turns = list(self.in_jail), list(self.jail_turns)
        g.jail_cards = [list(held) for held in self.jail_cards]
        g.bankrupt, g.doubles, g.passed_go, g.missed = (list(self.bankrupt), list(self.doubles),
                                                        list(self.passed_go), list(self.missed))
        g.owner, g.mortgaged, g.houses, g.hotel = (list(self.owner), list(self.mortgaged), list(self.houses),
                                                   list(self.hotel))
        g.mortgage_rounds, g.interest_paid = list(self.mortgage_rounds), list(self.interest_paid)
        g.bank_houses, g.bank_hotels, g.bank_cash = self.bank_houses, self.bank_hotels, self.bank_cash
        g.pot, g.jackpot = self.pot, self.jackpot
        g.chance, g.chest = list(self.chance), list(self.chest)
        g.chance_discards, g.chest_discards = list(self.chance_discards), list(self.chest_discards)
        g.seed, g.shuffles, g.round, g.current, g.minute = self.seed, self.shuffles, self.round, self.current, self.minute
        g.phase, g.stage, g.pending = self.phase, self.stage, _deep(self.pending)
        g.debts = [list(d) for d in self.debts]
        g.auctions = [list(a) for a in self.auctions]
        g.claims = [list(c) for c in self.claims]
        g.player_turns, g.winner, g.result = self.player_turns, self.winner, self.result
        g.rolled, g.dice, g.trades, g.timed_out = self.rolled, self.dice, self.trades, self.timed_out
        g.built_streets, g.built_groups = set(self.built_streets), set(self.built_groups)
        g.received = dict(self.received)
        g.salary_paid, g.rent_factor, g.util_mult = self.salary_paid, self.rent_factor, self.util_mult
        g.mr_pending, g.no_auction, g.jailed = self.mr_pending, self.no_auction, self.jailed
        g.reroll, g.still, g.steps_after_debts = self.reroll, self.still, self.steps_after_debts
        g.events = None if self.events is None else list(self.events)
        g.landings = None if self.landings is None else list(self.landings)
        g.ov, g.whole = list(self.ov), self.whole
        g.creditors = list(self.creditors)
        g.dirty, g.deeds, g.contest = self.dirty, self.deeds, None
        g.card_dice = None if self.card_dice is None else list(self.card_dice)
        g.reshuffle = None if self.reshuffle is None else {k: list(v) for k, v in self.reshuffle.items()}
        return g

    # ----------------------------------------------------------------- canonical JSON
    def to_json(self, ownable: tuple[int, ...]) -> dict[str, Any]:
        teams = self.team
        doc = {
            "schema": SCHEMA,
            "round": self.round,
            "current": self.current,
            "minute": round(self.minute, 6),
            "phase": self.phase,
            "players": [
                {"seat": i, "team": teams[i], "cash": self.cash[i], "position": self.pos[i],
                 "in_jail": self.in_jail[i], "jail_turns": self.jail_turns[i],
                 "jail_cards": list(self.jail_cards[i]), "bankrupt": self.bankrupt[i],
                 "doubles": self.doubles[i], "passed_go": self.passed_go[i], "missed_turns": self.missed[i]}
                for i in range(self.n)],
            "properties": [
                {"square": s, "owner": None if self.owner[s] < 0 else self.owner[s],
                 "mortgaged": self.mortgaged[s], "houses": self.houses[s], "hotel": self.hotel[s],
                 "mortgage_rounds": self.mortgage_rounds[s], "interest_paid": self.interest_paid[s]}
                for s in ownable],
            "bank": {"houses": None if self.bank_houses >= UNLIMITED // 2 else self.bank_houses,
                     "hotels": None if self.bank_hotels >= UNLIMITED // 2 else self.bank_hotels,
                     "cash": self.bank_cash},
            "pot": self.pot,
            "jackpot": self.jackpot,
            "decks": {"chance": list(self.chance), "chest": list(self.chest)},
            "discards": {"chance": list(self.chance_discards), "chest": list(self.chest_discards)},
            "seed": self.seed,
            "shuffles": self.shuffles,
            "pending": _deep(self.pending),
            "queue": {"debts": [list(d) for d in self.debts], "auctions": [list(a) for a in self.auctions],
                      "claims": [list(c) for c in self.claims]},
            "turn": {"rolled": self.rolled, "dice": list(self.dice), "trades": self.trades,
                     "built_streets": sorted(self.built_streets), "built_groups": sorted(self.built_groups),
                     "timed_out": self.timed_out, "stage": self.stage,
                     "move": {"salary_paid": self.salary_paid, "rent_factor": self.rent_factor,
                              "util_mult": self.util_mult, "mr_pending": self.mr_pending,
                              "steps_after_debts": self.steps_after_debts,
                              "no_auction": self.no_auction, "jailed": self.jailed, "reroll": self.reroll,
                              "still": self.still}},
            "player_turns": self.player_turns,
            "winner": self.winner,
            "result": self.result,
        }
        if self.received:      # only while a received mortgage may still be lifted at once
            doc["turn"]["received"] = sorted([s, p] for s, p in self.received.items())
        return doc

    @classmethod
    def from_json(cls, data: dict, ownable: tuple[int, ...], size: int = SQUARES) -> "GameState":
        """Build from canonical JSON (a board of ``size`` squares, ``ownable`` the deeds' squares); missing
        extension keys take their start-of-turn defaults."""
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            got = data.get("schema") if isinstance(data, dict) else None
            raise GameError(f"not a {SCHEMA} state (schema key is {got!r})")
        try:
            g = cls()
            players = data["players"]
            g.n = len(players)
            if [p["seat"] for p in players] != list(range(g.n)):
                raise GameError("players must be listed by seat 0..n-1")
            g.team = [p.get("team") for p in players]
            g.cash = [int(p["cash"]) for p in players]
            g.pos = [int(p["position"]) for p in players]
            g.in_jail = [bool(p["in_jail"]) for p in players]
            g.jail_turns = [int(p.get("jail_turns", 0)) for p in players]
            g.jail_cards = [list(p.get("jail_cards", [])) for p in players]
            g.bankrupt = [bool(p.get("bankrupt", False)) for p in players]
            g.doubles = [int(p.get("doubles", 0)) for p in players]
            g.passed_go = [bool(p.get("passed_go", False)) for p in players]
            g.missed = [int(p.get("missed_turns", 0)) for p in players]
            g.clear_squares(size)
            props = data["properties"]
            if sorted(p["square"] for p in props) != sorted(ownable):
                raise GameError("properties must list the 28 ownable squares")
            for p in props:
                s = p["square"]
                o = p.get("owner")
                g.owner[s] = -1 if o is None else int(o)
                g.mortgaged[s] = bool(p.get("mortgaged", False))
                g.houses[s] = int(p.get("houses", 0))
                g.hotel[s] = bool(p.get("hotel", False))
                g.mortgage_rounds[s] = int(p.get("mortgage_rounds", 0))
                g.interest_paid[s] = bool(p.get("interest_paid", False))
            bank = data.get("bank", {})
            g.bank_houses = UNLIMITED if bank.get("houses") is None else int(bank["houses"])
            g.bank_hotels = UNLIMITED if bank.get("hotels") is None else int(bank["hotels"])
            g.bank_cash = int(bank.get("cash", 0))
            g.pot = int(data.get("pot", 0))
            g.jackpot = int(data.get("jackpot", 0))
            decks = data.get("decks", {})
            g.chance = list(decks.get("chance", []))
            g.chest = list(decks.get("chest", []))
            disc = data.get("discards", {})
            g.chance_discards = list(disc.get("chance", []))
            g.chest_discards = list(disc.get("chest", []))
            g.seed = int(data.get("seed", 0))
            g.shuffles = int(data.get("shuffles", 0))
            g.round = int(data.get("round", 0))
            g.current = int(data.get("current", 0))
            g.minute = float(data.get("minute", 0.0))
            g.phase = data.get("phase", PRE_ROLL)
            if g.phase not in PHASES:
                raise GameError(f"unknown phase {g.phase!r}; one of {', '.join(PHASES)}")
            g.pending = _deep(data.get("pending"))
            q = data.get("queue", {})
            g.debts = [list(d) for d in q.get("debts", [])]
            g.auctions = [list(a) for a in q.get("auctions", [])]
            g.claims = [list(c) for c in q.get("claims", [])]
            t = data.get("turn", {})
            g.rolled = bool(t.get("rolled", False))
            g.dice = tuple(t.get("dice", ()))
            g.trades = int(t.get("trades", 0))
            g.built_streets = set(t.get("built_streets", ()))
            g.built_groups = set(t.get("built_groups", ()))
            g.timed_out = bool(t.get("timed_out", False))
            g.received = {int(s): int(p) for s, p in t.get("received", ())}
            g.stage = t.get("stage", "pre")
            if g.stage not in ("pre", "move", "post"):
                raise GameError(f"unknown turn stage {g.stage!r}")
            g.reset_move()
            m = t.get("move") or {}
            g.salary_paid = bool(m.get("salary_paid", False))
            g.rent_factor = int(m.get("rent_factor", 1))
            g.util_mult = int(m.get("util_mult", 0))
            g.mr_pending = bool(m.get("mr_pending", False))
            g.steps_after_debts = int(m.get("steps_after_debts", 0))
            g.no_auction = bool(m.get("no_auction", False))
            g.jailed = bool(m.get("jailed", False))
            g.reroll = bool(m.get("reroll", False))
            g.still = bool(m.get("still", False))
            g.player_turns = int(data.get("player_turns", 0))
            g.winner = data.get("winner")
            g.result = data.get("result")
        except GameError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise GameError(f"malformed game state: {type(exc).__name__}: {exc}") from None
        if not (0 <= g.current < g.n):
            raise GameError(f"current seat {g.current} is not a player")
        _check_pending(g)
        g.clear_scratch(g.n)
        return g

    def mark(self, s: int) -> None:
        """A rule wrote square ``s`` of a deed column (owner, mortgaged, houses, hotel): the square's bit in
        ``dirty`` and the columns' version ``deeds`` one up. Every write in the rules is followed by its mark
        (tested); code that sets up a state by hand builds a fresh one (``from_json``) or marks its writes."""
        self.dirty |= 1 << s
        self.deeds += 1

    def clear_squares(self, size: int) -> None:
        """Every square of a board of ``size`` unowned, unmortgaged and unbuilt."""
        self.owner = [-1] * size
        self.mortgaged = [False] * size
        self.houses = [0] * size
        self.hotel = [False] * size
        self.mortgage_rounds = [0] * size
        self.interest_paid = [False] * size

    def clear_scratch(self, n: int) -> None:
        """The parts that are not canonical state: instrumentation and a step's supplied random values."""
        self.events = None
        self.landings = None
        self.ov = [0] * n
        self.whole = None
        self.creditors = []
        self.dirty = 0
        self.deeds = 0
        self.contest = None
        self.card_dice = None
        self.reshuffle = None

    def reset_move(self) -> None:
        self.salary_paid = False
        self.rent_factor = 1
        self.util_mult = 0
        self.mr_pending = False
        self.steps_after_debts = 0     # a move that waits until the debts queued before it are paid
        self.no_auction = False
        self.jailed = False
        self.reroll = False
        self.still = False


_PENDING_NEEDS = {BUY: ("player", "square"), CASINO: ("player",), BUS: ("player", "options"),
                  TRIPLES: ("player",), INCOME_TAX: ("player",), JAIL_CHOICE: ("player", "steps"),
                  DEBT: ("debtor", "creditor", "amount"), AUCTION: ("square", "bidders")}


def _check_pending(g: GameState) -> None:
    """A decision phase needs its pending decision; fill the optional fields a hand-made state may omit."""
    need = _PENDING_NEEDS.get(g.phase)
    if need is None:
        return
    p = g.pending
    if not isinstance(p, dict) or any(k not in p for k in need):
        raise GameError(f"phase {g.phase} needs pending with {', '.join(need)}")
    if g.phase == DEBT:
        p.setdefault("kind", "debt")
        if not g.debts or g.debts[0][0] != p["debtor"]:
            g.debts.insert(0, [p["debtor"], p["creditor"], p["amount"], p["amount"], p["kind"]])
    elif g.phase == AUCTION:
        for k, v in (("item", "deed"), ("min", 0), ("high", 0), ("leader", -1), ("turn", None),
                     ("mortgaged", False), ("proceeds_to", -1)):
            p.setdefault(k, v)


def _deep(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _deep(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_deep(x) for x in v]
    return v
