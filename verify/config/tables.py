"""The per-config tables every reading of the rules reads: one frozen value, built once from an EngineConfig.

Prices, rents, refunds, interest and the other numbers a config's rules play by are
derived here once, beside the compiled config, below both readings of the rules: the
engine's rules (``verify.engine.rules``) are plain functions of ``t`` (this ``Tables``:
the config and the flat board tables derived from it, never changed during play) and
``g`` (the mutable ``GameState``); the SMT model (``verify.smt.model.Model.tables``)
builds its transitions from the same ``Tables``. Money is rounded by one function,
``round_money`` (``verify.config.model``). Every field is annotated, so the compiled
engine (``verify.engine.native``) reads them as native attributes.

Tables hold what the config says in the shape a rule reads it: per-square tuples of
40 (prices, rents, group of each square...), the groups, the nearest station or
utility from each square, the cards by id, and a few values derived from several
parameters (what a mortgage's interest is, when a rent claim lapses...). A rule
reads a parameter that needs no derivation straight from ``t.cfg``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Mapping

from .board import Card
from .model import EngineConfig, round_money

#: What goes into the Free Parking pot (free_parking.pot: "taxes and fines"); card payments go to the bank.
POT_KINDS = frozenset(("tax", "fine"))


@dataclass(frozen=True, eq=False)
class Tables:
    """Everything per-config a rule reads; ``cfg`` is the EngineConfig itself."""

    cfg: EngineConfig
    # ---- the board, per square (40 entries; 0 / () / -1 / "" where a square is no deed)
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

    @classmethod
    def of(cls, cfg: EngineConfig) -> "Tables":
        b = cfg.board
        kind = list(b.squares)
        is_ownable, price, house_cost, mortgage = [False] * 40, [0] * 40, [0] * 40, [0] * 40
        rents: list[tuple[int, ...]] = [()] * 40
        group_of = [-1] * 40
        for d in b.deeds:
            s = d.square
            is_ownable[s] = True
            price[s], rents[s], house_cost[s], mortgage[s], group_of[s] = (d.price, d.rents, d.house_cost,
                                                                           d.mortgage, d.group)
        groups = tuple(grp.squares for grp in b.groups)
        group_kind = tuple(grp.kind for grp in b.groups)
        street_groups = tuple(i for i, k in enumerate(group_kind) if k == "street")
        stations = tuple(d.square for d in b.deeds if d.kind == "station")
        utilities = tuple(d.square for d in b.deeds if d.kind == "utility")
        mo, bu, rc, sd, m = cfg.mortgage, cfg.building, cfg.rent, cfg.speed_die, cfg.movement

        def rate_of(base: str) -> tuple[int, ...]:
            return tuple(round_money((price[s] if base == "price" else mortgage[s]) * mo.interest_rate)
                         for s in range(40))

        decks = {"chance": cfg.cards.chance, "chest": cfg.cards.chest}
        speed_on = sd.enabled
        return cls(
            cfg=cfg, kind=tuple(kind), is_ownable=tuple(is_ownable), price=tuple(price), rents=tuple(rents),
            house_cost=tuple(house_cost), mortgage_value=tuple(mortgage), group_of=tuple(group_of),
            interest=rate_of(mo.interest_base), transfer_interest=rate_of(cfg.debt.transfer_interest_base),
            sell_house_value=tuple(round_money(c * bu.sell_ratio) for c in house_cost),
            next_station=_nearest(stations), next_utility=_nearest(utilities),
            ownable=b.ownable, groups=groups, group_kind=group_kind,
            street_squares=tuple(d.square for d in b.deeds if d.kind == "street"),
            street_groups=street_groups, street_group_squares=tuple(groups[i] for i in street_groups),
            stations=stations, utilities=utilities,
            cards=MappingProxyType({deck: MappingProxyType({c.id: c for c in cards})
                                    for deck, cards in decks.items()}),
            jail_card=MappingProxyType({deck: c.id for deck, cards in decks.items() for c in cards
                                        if c.effect == "jail_free"}),
            hotel_level=bu.hotel_threshold + 1,
            hotel_back=bu.hotel_threshold if bu.hotel_returns_houses else 0,
            pot_kinds=POT_KINDS | {"card"} if cfg.taxes.pot_card_payments else POT_KINDS,
            minutes_per_turn=cfg.clock.seconds_per_turn / 60.0,
            minutes_per_timeout=(cfg.clock.turn_seconds or cfg.clock.seconds_per_turn) / 60.0,
            must_claim=rc.owner_must_claim and rc.claim_deadline != "automatic",
            claim_turns={"before_second_next_roll": 2, "before_second_after_owner_rolls": 0}.get(
                rc.claim_deadline, 1),
            white=m.dice_count - 1 if speed_on and m.dice_count >= 3 else m.dice_count,
            mr_faces_top=sd.pip_faces + sd.mr_monopoly_faces,
            lift_at_once=mo.transfer_interest and mo.transfer_lift_at_once == "principal_only",
            limit_end=cfg.end.condition in ("time_limit", "round_limit"),
            sold_vanish=bu.supply_accounting == "sold_buildings_vanish",
            builds_free=bu.supply_accounting == "builds_not_taken_from_stock",
            shortage_auction=bu.shortage_auction and (bu.house_supply is not None or bu.hotel_supply is not None),
        )


def _nearest(targets: tuple[int, ...]) -> tuple[int, ...]:
    """For each square, the first of ``targets`` strictly ahead of it (-1 when there is none)."""
    out = []
    for start in range(40):
        out.append(next(((start + k) % 40 for k in range(1, 41) if (start + k) % 40 in targets), -1))
    return tuple(out)


TABLE_FIELDS = tuple(f.name for f in fields(Tables))

__all__ = ["Tables", "TABLE_FIELDS", "POT_KINDS", "round_money"]
