"""The view of a game state that the invariants read, built from a few slices of the state.

An invariant (``specs/invariants.yaml``) reads ``players``, ``properties``,
``streets``, ``groups``, ``bank``, ``pot`` and ``jackpot`` (the contract is in
``verify.invariants``). This module builds that view from *slices*: values
that compare by value, so that an invariant which held on some slices holds
again on equal ones (what lets ``verify.invariants.Monitor`` skip it). A
slice is a column of the state, so that an invariant about buildings is not
evaluated again when a deed is only mortgaged, nor one about deeds when a
player only goes to jail:

    seats, in_jail, bankrupt, teams, cards, cash     the players' columns (a tuple, a player per index;
                        a team is the seat when there are no teams, cards the deck names of the jail
                        cards held)
    listed              the squares the state lists properties for (a frozenset)
    owner, mortgaged, houses, hotel     the properties' columns, indexed by square (40 entries; the bank
                        owns -1)
    bank_houses, bank_hotels, bank_cash     the bank's stock (None when unlimited) and money (None when the
                        state does not record it)
    pot, jackpot

A canonical state (``verify.state/1``) gives its slices through
``state_slices``; the engine gives equal slices from its own ``GameState``
without serialising it (``verify.engine.slices.GameSlicer``). The records of
the view are built only when an expression reads them (``verify.expr.LazyEnv``) and reused
while their slices stay equal (``ViewCache``): a step that moves some money
rebuilds four player records and no deed.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from operator import ne
from types import SimpleNamespace
from typing import Any

from .config import EngineConfig
from .config.model import SQUARES
from .errors import GameError
from .expr import LazyEnv
from .spec.invariants import PLAYER_FIELDS, PROPERTY_FIELDS   # the fields of the view (the contract with verify.smt)

NOBODY = -1  #: owner of a deed the bank holds; creditor of a debt to the bank

#: The slices the players' and the properties' records are built from.
PLAYER_SLICES = ("seats", "in_jail", "bankrupt", "teams", "cards", "cash")
PROPERTY_SLICES = ("listed", "owner", "mortgaged", "houses", "hotel")
BANK_SLICES = ("bank_houses", "bank_hotels", "bank_cash")
#: The slice a record's field is read from (a property's square, kind, group and prices are the board's).
SLICE_OF_FIELD = {"seat": "seats", "cash": "cash", "in_jail": "in_jail", "bankrupt": "bankrupt", "team": "teams",
                  "chance_cards": "cards", "chest_cards": "cards", "jail_cards": "cards",
                  "square": "listed", "kind": "listed", "group": "listed", "price": "listed",
                  "house_cost": "listed", "owner": "owner", "mortgaged": "mortgaged", "houses": "houses",
                  "hotel": "hotel", "hotels": "hotel"}


def state_slices(state: dict) -> dict[str, Any]:
    """The slices of a canonical state (see the module docstring)."""
    try:
        players = state["players"]
        seats = tuple(int(p.get("seat", i)) for i, p in enumerate(players))
        teams = tuple(seat if p.get("team") is None else p.get("team") for seat, p in zip(seats, players))
        people = (seats, tuple(bool(p.get("in_jail")) for p in players),
                  tuple(bool(p.get("bankrupt")) for p in players), teams,
                  tuple(tuple(str(c) for c in (p.get("jail_cards") or ())) for p in players))
        owner, mortgaged, houses, hotel = [NOBODY] * SQUARES, [False] * SQUARES, [0] * SQUARES, [False] * SQUARES
        listed = set()
        for p in state["properties"]:
            sq = int(p["square"])
            if not 0 <= sq < SQUARES:
                raise ValueError(f"property square {sq} is not on the board")
            listed.add(sq)
            owner[sq] = NOBODY if p.get("owner") is None else int(p["owner"])
            mortgaged[sq] = bool(p.get("mortgaged"))
            houses[sq] = int(p.get("houses") or 0)
            hotel[sq] = bool(p.get("hotel"))
        bank = state.get("bank") or {}
        return dict(zip(PLAYER_SLICES, people), cash=tuple(p.get("cash", 0) for p in players), listed=frozenset(listed), owner=tuple(owner),
                    mortgaged=tuple(mortgaged), houses=tuple(houses), hotel=tuple(hotel),
                    bank_houses=bank.get("houses"), bank_hotels=bank.get("hotels"), bank_cash=bank.get("cash"),
                    pot=state.get("pot", 0) or 0, jackpot=state.get("jackpot", 0) or 0)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise GameError(f"not a canonical game state: {exc!r}") from None


def share(slices: dict[str, Any], reference: dict[str, Any]) -> set[str]:
    """Replace each slice equal to the reference's by the reference's own object (later comparisons and
    cache look-ups then succeed on identity); the names of the slices that differ."""
    changed = set()
    for key, value in slices.items():
        ref = reference.get(key, reference)
        if ref is not value:
            if ref == value:
                slices[key] = ref
            else:
                changed.add(key)
    return changed


def chance_cards(held: Any) -> int:
    """How many of the jail cards ``held`` (their deck names: the ``cards`` slice of a player) are Chance's."""
    return sum(1 for c in held if c.startswith("chance")) if held else 0


def chest_cards(held: Any) -> int:
    """How many of the jail cards ``held`` are Community Chest's."""
    return sum(1 for c in held if c.startswith("chest")) if held else 0


# ---- records ------------------------------------------------------------------------

class Record(SimpleNamespace):
    """A plain record of the view (the bank, an action); attribute access only."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "(" + ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items() if k != "before") + ")"


class _Fixed:
    """A record with fixed fields (players, properties and groups: many, rebuilt often); ``before`` is set
    in steps. ``memo_key`` determines every field (for one board): memoised quantifiers
    (``verify.expr.compile_expr``) remember their verdict on an item by it."""

    __slots__ = ()
    FIELDS: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return "(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in self.FIELDS) + ")"


class PlayerRecord(_Fixed):
    FIELDS = PLAYER_FIELDS
    __slots__ = PLAYER_FIELDS + ("before",)

    def __init__(self, seat, cash, in_jail, bankrupt, team, chance_cards, chest_cards, jail_cards):
        self.seat, self.cash, self.in_jail, self.bankrupt, self.team = seat, cash, in_jail, bankrupt, team
        self.chance_cards, self.chest_cards, self.jail_cards = chance_cards, chest_cards, jail_cards

    @property
    def memo_key(self) -> tuple:      # (rebuilt with every change of cash: computed only when asked)
        return ("player",) + tuple(getattr(self, f) for f in PLAYER_FIELDS)


class PropertyRecord(_Fixed):
    FIELDS = PROPERTY_FIELDS
    __slots__ = PROPERTY_FIELDS + ("before", "memo_key")

    def __init__(self, square, kind, group, owner, mortgaged, houses, hotel, price, house_cost):
        self.square, self.kind, self.group, self.owner, self.mortgaged = square, kind, group, owner, mortgaged
        self.houses, self.hotel, self.hotels = houses, hotel, 1 if hotel else 0
        self.price, self.house_cost = price, house_cost
        # the board gives a square its kind, group and prices
        self.memo_key = ("property", square, owner, mortgaged, houses, hotel)


class GroupRecord(_Fixed):
    FIELDS = ("name", "streets")
    __slots__ = ("name", "streets", "memo_key")

    def __init__(self, name: str, streets: list):
        self.name, self.streets = name, streets
        self.memo_key = ("group", name) + tuple(s.memo_key for s in streets)


@dataclass(frozen=True)
class BoardFacts:
    """The static facts the view needs about the 28 deeds, from an EngineConfig."""

    squares: tuple[int, ...]
    kinds: tuple[str, ...]
    groups: tuple[str, ...]          # group name per deed
    prices: tuple[int, ...]
    house_costs: tuple[int, ...]
    group_members: tuple[tuple[str, tuple[int, ...]], ...]   # (name, deed indexes) for street groups
    size: int = SQUARES              # squares on the board


_FACTS: dict[int, tuple[Any, BoardFacts]] = {}


def board_facts(config: Any) -> BoardFacts:
    board = getattr(config, "board", None)
    if board is None:
        board = EngineConfig.from_ruleset(config).board
    hit = _FACTS.get(id(board))              # by identity: hashing a board is not free
    if hit is not None and hit[0] is board:
        return hit[1]
    deeds = board.deeds
    gname = [board.groups[d.group].name if isinstance(d.group, int) else str(d.group) for d in deeds]
    members = []
    for g in dict.fromkeys(gname[i] for i, d in enumerate(deeds) if d.kind == "street"):
        members.append((g, tuple(i for i, d in enumerate(deeds) if gname[i] == g)))
    facts = BoardFacts(tuple(d.square for d in deeds), tuple(d.kind for d in deeds), tuple(gname),
                       tuple(d.price for d in deeds), tuple(d.house_cost for d in deeds), tuple(members),
                       len(board.squares))
    if len(_FACTS) >= 64:
        _FACTS.clear()
    _FACTS[id(board)] = (board, facts)
    return facts


class ViewCache:
    """The records built for the last two distinct slices of each kind (a step reads two states). A new
    view reuses the previous one's records where their fields did not change, so that quantifiers over
    them (``verify.expr.compile_expr`` with ``memo``) see at once, by identity, what changed."""

    def __init__(self, facts: BoardFacts):
        self.facts = facts
        self._squares = frozenset(facts.squares)
        self._street_index = [i for i, kind in enumerate(facts.kinds) if kind == "street"]
        self._deed_of = {sq: i for i, sq in enumerate(facts.squares)}            # square -> deed index
        self._group_of = {i: j for j, (_, idx) in enumerate(facts.group_members) for i in idx}
        self._players: list[tuple[tuple, list]] = []
        self._deeds: list[tuple[tuple, tuple]] = []

    def players(self, sl: dict[str, Any]) -> list[PlayerRecord]:
        key = (sl["seats"], sl["in_jail"], sl["bankrupt"], sl["teams"], sl["cards"], sl["cash"])
        for k, v in self._players:
            if k == key:
                return v
        records = [PlayerRecord(seat, cash, jailed, out, team, chance_cards(held), chest_cards(held), len(held))
                   for seat, jailed, out, team, held, cash in zip(*key)]
        self._players = [(key, records)] + self._players[:1]
        return records

    def deeds(self, sl: dict[str, Any]) -> tuple[list, list, list]:
        """(properties, streets, groups)."""
        key = (sl["listed"], sl["owner"], sl["mortgaged"], sl["houses"], sl["hotel"])
        for k, v in self._deeds:
            if k == key:
                return v
        listed, owner, mortgaged, houses, hotel = key
        f = self.facts
        if not self._squares <= listed:
            missing = next(sq for sq in f.squares if sq not in listed)
            raise GameError(f"the state lists no property on square {missing}")
        if self._deeds:                       # the last view, with the deeds that changed since rebuilt
            last_key, (properties, _, groups) = self._deeds[0]
            changed = set()
            for new_column, old_column in zip(key[1:], last_key[1:]):
                if new_column is not old_column:
                    changed.update(compress(range(len(new_column)), map(ne, new_column, old_column)))
            deeds = sorted(self._deed_of[sq] for sq in changed if sq in self._deed_of)
            regroup = sorted({self._group_of[i] for i in deeds if i in self._group_of})
            properties = list(properties)
            groups = list(groups)
        else:
            deeds = range(len(f.squares))
            regroup = range(len(f.group_members))
            properties = [None] * len(f.squares)
            groups = [None] * len(f.group_members)
        for i in deeds:
            sq = f.squares[i]
            properties[i] = PropertyRecord(sq, f.kinds[i], f.groups[i], owner[sq], mortgaged[sq], houses[sq],
                                           hotel[sq], f.prices[i], f.house_costs[i])
        for j in regroup:
            name, idx = f.group_members[j]
            groups[j] = GroupRecord(name, [properties[i] for i in idx])
        view = (properties, [properties[i] for i in self._street_index], groups)
        self._deeds = [(key, view)] + self._deeds[:1]
        return view


class ViewEnv(LazyEnv):
    """The view of some slices as an evaluation environment; with ``before`` (the state before a step),
    each player's and property's ``before`` is its record in that state. The records are built when
    first read."""

    __slots__ = ("cache", "slices", "before", "linked", "memo")
    lazy = frozenset(("players", "properties", "streets", "groups"))

    def __init__(self, cache: ViewCache, sl: dict[str, Any], before: ViewEnv | None = None):
        bank_cash = sl["bank_cash"]
        super().__init__(bank=Record(houses=sl["bank_houses"], hotels=sl["bank_hotels"],
                                     cash=0 if bank_cash is None else bank_cash),
                         pot=sl["pot"], jackpot=sl["jackpot"])
        self.cache, self.slices, self.before, self.linked = cache, sl, before, False
        # values of subexpressions that old(...) reads when this is the state before the next step
        # (none where a step puts in the bank's money: the view then changes from one step to the next)
        self.memo: dict | None = {} if bank_cash is not None else None

    def link(self, before: ViewEnv) -> None:
        """Make this the state after a step from ``before`` (which may be this very view, when the step
        changed nothing it shows): each record's ``before`` is its record there."""
        self.before = before
        self.linked = False
        for key in self.lazy:          # read again (from the cache), they are linked then, if they are read
            dict.pop(self, key, None)

    #: the players' fields that are a slice as it is (a player per index, as the records are built)
    COLUMNS = {"seat": "seats", "cash": "cash", "in_jail": "in_jail", "bankrupt": "bankrupt", "team": "teams"}

    def column(self, key: str, field: str) -> Any:
        """A field of every player read from its slice, without building the records (``sum(q.cash for q in
        players)``, ``all(p.cash >= 0 for p in players)``: a step that moves money builds no record);
        None for other fields, for the deeds, and once the records are built (read them then)."""
        if key != "players" or dict.__contains__(self, key):
            return None
        name = self.COLUMNS.get(field)
        return None if name is None else self.slices[name]

    def _link(self, records: list, key: str) -> None:
        olds = records if self.before is self else self.before[key]
        for record, old in zip(records, olds):
            record.before = old

    def build(self, key: str) -> Any:
        if key == "players":
            records = self.cache.players(self.slices)
            if self.before is not None:
                self._link(records, "players")
            return records
        view = self.cache.deeds(self.slices)
        if self.before is not None and not self.linked:
            self._link(view[0], "properties")
            self.linked = True
        return view[("properties", "streets", "groups").index(key)]


def view_env(cache: ViewCache, sl: dict[str, Any], params: dict[str, Any] | None = None,
             before: ViewEnv | None = None) -> ViewEnv:
    """The view of some slices, with the rule parameters when given (compiled predicates hold them as
    constants already)."""
    env = ViewEnv(cache, sl, before)
    if params:
        env.update(params)
    return env


__all__ = ["state_slices", "share", "Record", "PlayerRecord", "PropertyRecord", "GroupRecord", "BoardFacts", "board_facts",
           "ViewCache", "ViewEnv", "view_env", "NOBODY", "PLAYER_FIELDS", "PROPERTY_FIELDS", "PLAYER_SLICES",
           "PROPERTY_SLICES", "BANK_SLICES", "SLICE_OF_FIELD"]
