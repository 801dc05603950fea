"""The per-config tables every reading of the rules reads: one frozen value, built once from an EngineConfig.

Prices, rents, refunds, interest and the other numbers a config's rules play by are
derived here once, beside the compiled config, below both readings of the rules: the
engine's rules (``verify.engine.rules``) are plain functions of ``t`` (this ``Tables``:
the config and the flat board tables derived from it, never changed during play) and
``g`` (the mutable ``GameState``); the SMT model (``verify.smt.model.Model.tables``)
builds its transitions from the same ``Tables``. Money is rounded by one function,
``round_money`` (``verify.config.model``). Every field is annotated, so the compiled
engine (``verify.engine.native``) reads them as native attributes.

Tables hold what the config says in the shape a rule reads it: per-square tuples
(prices, rents, group of each square...), the groups, the nearest station or
utility from each square, the cards by id, and a few values derived from several
parameters (what a mortgage's interest is, when a rent claim lapses...). A rule
reads a parameter that needs no derivation straight from ``t.cfg``.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Callable, Final, Mapping

from .board import Card
from .model import EngineConfig, round_money

#: What goes into the Free Parking pot (free_parking.pot: "taxes and fines"); card payments go to the bank.
POT_KINDS = frozenset(("tax", "fine"))


@dataclass(frozen=True, eq=False)
class Tables:
    """Everything per-config a rule reads; ``cfg`` is the EngineConfig itself."""

    cfg: EngineConfig
    # ---- the board, per square (``size`` entries; 0 / () / -1 / "" where a square is no deed)
    size: int                               # squares on the board (cfg.board.size)
    kind: tuple[str, ...]                   # square kinds (verify.config.KINDS)
    is_ownable: tuple[bool, ...]
    price: tuple[int, ...]
    rents: tuple[tuple[int, ...], ...]      # streets: base, 1..4 houses, hotel
    house_cost: tuple[int, ...]
    mortgage_value: tuple[int, ...]
    group_of: tuple[int, ...]
    interest: tuple[int, ...]               # a mortgage's interest (mortgage.interest_rate of its base)
    transfer_interest: tuple[int, ...]      # the interest on a mortgage received in a bankruptcy
    sell_house_value: tuple[int, ...]       # what a house (or a hotel, each level) sells back for
    casino_payout: tuple[int, ...]          # what a casino bet on 1, 2... numbers pays when the die shows one
    next_station: tuple[int, ...]           # the nearest station forward from each square
    next_utility: tuple[int, ...]
    # ---- the deeds and groups
    ownable: tuple[int, ...]                # the 28 deed squares, in order
    groups: tuple[tuple[int, ...], ...]
    group_kind: tuple[str, ...]
    street_squares: tuple[int, ...]
    street_groups: tuple[int, ...]
    street_group_squares: tuple[tuple[int, ...], ...]
    stations: tuple[int, ...]
    utilities: tuple[int, ...]
    # ---- cards
    cards: Mapping[str, Mapping[str, Card]]   # deck -> card id -> card
    jail_card: Mapping[str, str]              # deck -> the id of its Get Out of Jail Free card
    # ---- values derived from several parameters
    hotel_level: int            # a hotel stands one level above the houses it needs
    hotel_back: int             # houses a hotel broken down gives back (hotel_threshold, or 0)
    pot_kinds: frozenset        # payments that go into the Free Parking pot
    minutes_per_turn: float     # the game clock per player-turn
    minutes_per_timeout: float  # ... per turn lost to the turn timer
    must_claim: bool            # rent is owed only once the owner asks, before a deadline
    claim_turns: int            # the deadline, in player-turns after the landing (0: counted from the owner)
    white: int                  # white dice rolled (dice.count counts the speed die when it is in play)
    mr_faces_top: int           # speed die faces pip_faces+1..mr_faces_top show Mr. Monopoly; above: the Bus
    lift_at_once: bool          # a received mortgage lifted at once costs the principal alone
    limit_end: bool             # the game may end on a time or round limit
    sold_vanish: bool           # supply accounting of a custom table: sold buildings leave the game
    builds_free: bool           # ... buildings put up are not taken from the bank's stock
    shortage_auction: bool      # a building can be short: the shortage auction is on and a supply is limited
    level_per_turn: bool        # building.per_turn_limit: one level per street per turn
    group_per_turn: bool        # ... one building per colour group per turn

    @classmethod
    def of(cls, cfg: EngineConfig) -> "Tables":
        return cls(cfg=cfg, **{name: derive(cfg) for name, derive in DERIVED.items()})


# ---------------------------------------------------------------------------- each table, from the config
# One function per field: ``Tables.of`` calls them all; a reader that records which config values it reads
# (the SMT model, ``verify.smt.reads``) calls only the ones it needs, on its recording view of the config.
def _per_square(cfg: EngineConfig, what: str) -> tuple:
    """A deed attribute per square (0, () or -1 where a square is no deed)."""
    empty: object = () if what == "rents" else -1 if what == "group" else 0
    out = [empty] * cfg.board.size
    for d in cfg.board.deeds:
        out[d.square] = getattr(d, what)
    return tuple(out)


def _is_ownable(cfg: EngineConfig) -> tuple[bool, ...]:
    out = [False] * cfg.board.size
    for d in cfg.board.deeds:
        out[d.square] = True
    return tuple(out)


def mortgage_interest(price: Any, mortgage: Any, rate: Any, base: str,
                      rounding: Callable[[Any], Any] = round_money) -> Any:
    """A mortgage's interest: ``rate`` (mortgage.interest_rate) of the printed price or of the mortgage value
    (``base``: mortgage.interest_base), in whole money; ``rounding`` the identity where a proof reads the
    formula over every price (``verify.compare.proofs``)."""
    return rounding((price if base == "price" else mortgage) * rate)


def casino_payout(stake: Any, numerator: Any, numbers: Any,
                  div: Callable[[Any, Any], Any] = operator.floordiv) -> Any:
    """What a casino bet on ``numbers`` numbers pays when the die shows one of them: the stake times
    casino.payout_numerator over the numbers, rounded down (``div``: z3's integer division in a proof)."""
    return div(stake * numerator, numbers)


def _interest(cfg: EngineConfig, base: str) -> tuple[int, ...]:
    """A mortgage's interest per square."""
    rate = cfg.mortgage.interest_rate
    price, mortgage = _per_square(cfg, "price"), _per_square(cfg, "mortgage")
    return tuple(mortgage_interest(price[s], mortgage[s], rate, base) for s in range(cfg.board.size))


def _kind_squares(cfg: EngineConfig, kind: str) -> tuple[int, ...]:
    return tuple(d.square for d in cfg.board.deeds if d.kind == kind)


def _street_groups(cfg: EngineConfig) -> tuple[int, ...]:
    return tuple(i for i, grp in enumerate(cfg.board.groups) if grp.kind == "street")


def _decks(cfg: EngineConfig) -> dict:
    return {"chance": cfg.cards.chance, "chest": cfg.cards.chest}


def _white(cfg: EngineConfig) -> int:
    n = cfg.movement.dice_count
    return n - 1 if cfg.speed_die.enabled and n >= 3 else n


#: every field of ``Tables`` but ``cfg``, with the function of the config that derives it
DERIVED: Final[dict[str, Callable[[EngineConfig], Any]]] = {
    "size": lambda c: c.board.size,
    "kind": lambda c: tuple(c.board.squares),
    "is_ownable": _is_ownable,
    "price": lambda c: _per_square(c, "price"),
    "rents": lambda c: _per_square(c, "rents"),
    "house_cost": lambda c: _per_square(c, "house_cost"),
    "mortgage_value": lambda c: _per_square(c, "mortgage"),
    "group_of": lambda c: _per_square(c, "group"),
    "interest": lambda c: _interest(c, c.mortgage.interest_base),
    "transfer_interest": lambda c: _interest(c, c.debt.transfer_interest_base),
    "casino_payout": lambda c: tuple(casino_payout(c.casino.stake, c.casino.payout_numerator, k)
                                     for k in range(1, c.casino.max_numbers + 1)),
    "sell_house_value": lambda c: tuple(round_money(x * c.building.sell_ratio) for x in _per_square(c, "house_cost")),
    "next_station": lambda c: _nearest(_kind_squares(c, "station"), c.board.size),
    "next_utility": lambda c: _nearest(_kind_squares(c, "utility"), c.board.size),
    "ownable": lambda c: c.board.ownable,
    "groups": lambda c: tuple(grp.squares for grp in c.board.groups),
    "group_kind": lambda c: tuple(grp.kind for grp in c.board.groups),
    "street_squares": lambda c: _kind_squares(c, "street"),
    "street_groups": _street_groups,
    "street_group_squares": lambda c: tuple(c.board.groups[i].squares for i in _street_groups(c)),
    "stations": lambda c: _kind_squares(c, "station"),
    "utilities": lambda c: _kind_squares(c, "utility"),
    "cards": lambda c: MappingProxyType({deck: MappingProxyType({card.id: card for card in cards})
                                         for deck, cards in _decks(c).items()}),
    "jail_card": lambda c: MappingProxyType({deck: card.id for deck, cards in _decks(c).items() for card in cards
                                             if card.effect == "jail_free"}),
    "hotel_level": lambda c: c.building.hotel_threshold + 1,
    "hotel_back": lambda c: c.building.hotel_threshold if c.building.hotel_returns_houses else 0,
    "pot_kinds": lambda c: POT_KINDS | {"card"} if c.taxes.pot_card_payments else POT_KINDS,
    "minutes_per_turn": lambda c: c.clock.seconds_per_turn / 60.0,
    "minutes_per_timeout": lambda c: (c.clock.turn_seconds or c.clock.seconds_per_turn) / 60.0,
    "must_claim": lambda c: c.rent.owner_must_claim and c.rent.claim_deadline != "automatic",
    "claim_turns": lambda c: {"before_second_next_roll": 2, "before_second_after_owner_rolls": 0}.get(
        c.rent.claim_deadline, 1),
    "white": _white,
    "mr_faces_top": lambda c: c.speed_die.pip_faces + c.speed_die.mr_monopoly_faces,
    "lift_at_once": lambda c: c.mortgage.transfer_interest and c.mortgage.transfer_lift_at_once == "principal_only",
    "limit_end": lambda c: c.end.condition in ("time_limit", "round_limit"),
    "sold_vanish": lambda c: c.building.supply_accounting == "sold_buildings_vanish",
    "builds_free": lambda c: c.building.supply_accounting == "builds_not_taken_from_stock",
    "shortage_auction": lambda c: c.building.shortage_auction and (c.building.house_supply is not None
                                                                   or c.building.hotel_supply is not None),
    "level_per_turn": lambda c: c.building.per_turn_limit == "one_level_per_street",
    "group_per_turn": lambda c: c.building.per_turn_limit == "one_per_group",
}


def _nearest(targets: tuple[int, ...], size: int) -> tuple[int, ...]:
    """For each of the ``size`` squares, the first of ``targets`` strictly ahead of it (-1 when there is none)."""
    out = []
    for start in range(size):
        out.append(next(((start + k) % size for k in range(1, size + 1) if (start + k) % size in targets), -1))
    return tuple(out)


TABLE_FIELDS = tuple(f.name for f in fields(Tables))

__all__ = ["Tables", "TABLE_FIELDS", "DERIVED", "POT_KINDS", "round_money", "mortgage_interest", "casino_payout"]
