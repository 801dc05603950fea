"""Compile a resolved ruleset into an EngineConfig: one pass, every catalogued value read once.

Where each parameter goes is declared in ``parameters.py`` (``PLACES``): the
parameters that are a field as they are fill their sections from there (a
symbol of the catalogue that means "no value", such as ``never``, ``none`` or
``unlimited``, becomes ``None``); this module compiles the others (an auction's
opening, the dealt properties, the board and the decks, which come from the
reference data in ``board.py`` and are multiplied into the ruleset's own money
scale). Values the engine plays only one way are listed with their file:line
in ``EngineConfig.unplayable`` so the engine can refuse them (E018).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from ..errors import SpecError
from .board import Card, load_deeds, load_decks
from .model import (CORNER_20, GO, GO_TO_JAIL, INCOME_TAX, JAIL_SQUARE, LUXURY_TAX, SQUARES,
                    Board, Building, Cards, Casino, Clock, Debt, Deed, End, EngineConfig, Group, Jail, Mortgage,
                    Movement, Purchase, Rent, Setup, SpeedDie, Taxes, Teams, Trade, round_money)
from .parameters import check_places, compile_fields

#: Parameters the engine plays with one value only ("What the engine does not model" in
#: verify/engine/README.md): every bundled ruleset gives these values. A ruleset that gives
#: another compiles (the SMT layer and the reports still read it), but the engine refuses
#: to play it (E018) rather than silently play a different game.
PLAYED_ONLY: dict[str, Any] = {
    "building.max_hotels_per_street": 1, "building.shortage_queue": False, "building.sell_to_players": False,
    "trade.side_deals": False, "trade.loans": False, "jail.just_visiting_effect": False,
    "free_parking.reward": False, "bank.unlimited_cash": True, "bankruptcy.leaves_at_once": True,
    "tokens.affect_play": False,
}


def compile_ruleset(ruleset) -> EngineConfig:
    """The EngineConfig of a resolved ``verify.spec.Ruleset`` (unset parameters take catalogue fallbacks)."""
    cfg = _compile(ruleset.value, ruleset.catalogue)
    bad = []
    for pid, played in PLAYED_ONLY.items():
        value = ruleset.value(pid)
        if value != played:
            entry = ruleset.entries.get(pid)
            where = f"{entry.where}: " if entry is not None and entry.where else ""
            bad.append(f"{where}{pid} = {json.dumps(value)} (the engine plays only {json.dumps(played)})")
    return replace(cfg, unplayable=tuple(bad)) if bad else cfg


def _board(v, scale: int) -> Board:
    raw = load_deeds(v("board.deeds"))
    ratio = float(v("mortgage.value"))
    group_names: list[str] = []
    for d in raw:
        if d.group not in group_names:
            group_names.append(d.group)
    deeds = tuple(Deed(d.square, d.name, group_names.index(d.group), d.kind, d.price * scale,
                       tuple(r * scale for r in d.rents), d.house_cost * scale,
                       d.mortgage * scale if ratio == 0.5 else round_money(d.price * scale * ratio))
                  for d in raw)
    groups = tuple(Group(n, next(d.kind for d in deeds if d.group == i),
                         tuple(d.square for d in deeds if d.group == i))
                   for i, n in enumerate(group_names))
    squares = ["" for _ in range(SQUARES)]
    for d in deeds:
        squares[d.square] = d.kind
    chance = tuple(v("board.chance_squares"))
    chest = tuple(v("board.chest_squares"))
    fixed = {GO: "go", JAIL_SQUARE: "jail", GO_TO_JAIL: "go_to_jail", INCOME_TAX: "income_tax",
             LUXURY_TAX: "luxury_tax", CORNER_20: v("board.corner_20")}
    for sq, kind in list(fixed.items()) + [(s, "chance") for s in chance] + [(s, "chest") for s in chest]:
        if squares[sq]:
            raise SpecError("E004", f"square {sq} cannot be both {squares[sq]} and {kind}")
        squares[sq] = kind
    missing = [i for i, k in enumerate(squares) if not k]
    if missing:
        raise SpecError("E004", f"squares {missing} have no kind (board.chance_squares / chest_squares "
                        "must cover the squares that are not deeds, corners or taxes)")
    return Board(tuple(squares), deeds, groups, chance, chest)


def _deck(name: str, scale: int) -> tuple[Card, ...]:
    if name == "none":
        return ()
    decks = load_decks()
    if name not in decks:
        raise SpecError("E003", f"no card deck {name!r} in rulesets/reference/decks.yaml")
    return tuple(c.scaled(scale) for c in decks[name])


#: The config's sections, by the name ``PLACES`` gives them.
SECTIONS = {"setup": Setup, "movement": Movement, "purchase": Purchase, "rent": Rent, "jail": Jail, "cards": Cards,
            "taxes": Taxes, "casino": Casino, "building": Building, "mortgage": Mortgage, "trade": Trade,
            "debt": Debt, "end": End, "speed_die": SpeedDie, "teams": Teams, "clock": Clock}


def _compile(v, catalogue) -> EngineConfig:
    check_places(catalogue)
    sections = compile_fields(v, catalogue)         # every parameter that is a field as it is
    scale = v("money.scale")
    dealt = v("setup.dealt_properties")
    sections["setup"].update(dealt_per_player=0 if dealt == "all" else dealt, dealt_all=dealt == "all")
    opening = v("auction.opening_bid")
    increment = v("auction.min_increment")
    sections["purchase"].update(
        opening=opening if isinstance(opening, str) else "amount",
        opening_amount=increment if opening == "any" else (0 if isinstance(opening, str) else opening))
    own_open = v("mortgage.immediate_auction_opening")
    sections["mortgage"].update(
        immediate_auction_opening=own_open if isinstance(own_open, str) else "amount",
        immediate_auction_opening_amount=0 if isinstance(own_open, str) else own_open)
    sections["cards"].update(chance=_deck(v("cards.chance_deck"), scale), chest=_deck(v("cards.chest_deck"), scale))
    faces = (v("speed_die.pip_faces"), v("speed_die.mr_monopoly_faces"), v("speed_die.bus_faces"))
    if sum(faces) != 6:
        raise SpecError("E004", f"the speed die has six faces, not {sum(faces)} (speed_die.pip_faces, "
                        "mr_monopoly_faces and bus_faces)")
    return EngineConfig(board=_board(v, scale), **{name: cls(**sections[name]) for name, cls in SECTIONS.items()})


__all__ = ["compile_ruleset", "PLAYED_ONLY", "Card"]
