"""Board and card data the engine plays on, read from ``rulesets/reference``.

No rulebook prints the deeds or the cards, so the classic US 2008 figures live
as reference data (the deed CSV and ``decks.yaml``); a ruleset only names
which table and which decks it uses (``board.deeds``, ``cards.*_deck``). This
module reads them once, in classic amounts; ``config`` scales them.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, replace
from functools import lru_cache

import yaml

from ..errors import Location, SpecError
from ..paths import display, reference_dir

#: deed table name (catalogue value of ``board.deeds``) -> CSV file in rulesets/reference
DEED_TABLES = {"us-2008": "board-us-2008-deeds.csv"}
CARD_EFFECTS = ("advance_to", "advance_nearest", "go_back", "go_to_jail", "bank", "each_player",
                "repairs", "jail_free", "destroy_building")


@dataclass(frozen=True)
class RawDeed:
    square: int
    name: str
    group: str
    kind: str                   # street | station | utility
    price: int
    rents: tuple[int, ...]      # streets: base, 1-4 houses, hotel; others: ()
    house_cost: int
    mortgage: int


@dataclass(frozen=True)
class Card:
    """One card. Amounts are already in the ruleset's money scale once in an EngineConfig."""

    id: str
    effect: str
    square: int = -1            # advance_to
    kind: str = ""              # advance_nearest: station | utility
    rent_factor: int = 1        # advance_nearest station: multiple of the normal rent
    utility_multiplier: int = 0  # advance_nearest utility: 0 = the normal utility rent
    spaces: int = 0             # go_back
    amount: int = 0             # bank / each_player (+ receive, - pay)
    house: int = 0              # repairs
    hotel: int = 0

    def to_json(self) -> dict:
        out = {"id": self.id, "effect": self.effect}
        for f, default in (("square", -1), ("kind", ""), ("rent_factor", 1), ("utility_multiplier", 0),
                           ("spaces", 0), ("amount", 0), ("house", 0), ("hotel", 0)):
            v = getattr(self, f)
            if v != default:
                out[f] = v
        return out

    def scaled(self, scale: int) -> "Card":
        if scale == 1:
            return self
        # a utility multiplier is money per pip of the dice, so it scales like any amount
        return replace(self, amount=self.amount * scale, house=self.house * scale, hotel=self.hotel * scale,
                       utility_multiplier=self.utility_multiplier * scale)


@lru_cache(maxsize=4)
def load_deeds(table: str = "us-2008") -> tuple[RawDeed, ...]:
    if table not in DEED_TABLES:
        raise SpecError("E003", f"unknown deed table {table!r}; known: {sorted(DEED_TABLES)}")
    path = reference_dir() / DEED_TABLES[table]
    deeds = []
    with open(path, newline="", encoding="utf-8") as fh:
        for i, row in enumerate(csv.DictReader(fh), start=2):
            try:
                group = row["group"].strip()
                kind = {"Railroad": "station", "Utility": "utility"}.get(group, "street")
                rents = () if kind != "street" else tuple(
                    int(row[k]) for k in ("rent", "rent_1h", "rent_2h", "rent_3h", "rent_4h", "rent_hotel"))
                deeds.append(RawDeed(int(row["pos"]), row["name"].strip(), group, kind, int(row["price"]),
                                     rents, int(row["house_cost"] or 0), int(row["mortgage"])))
            except (KeyError, ValueError) as exc:
                raise SpecError("E030", f"bad deed row: {exc}", Location(display(path), i)) from None
    deeds.sort(key=lambda d: d.square)
    if len(deeds) != 28 or len({d.square for d in deeds}) != 28:
        raise SpecError("E030", "the deed table must list 28 distinct squares", Location(display(path)))
    return tuple(deeds)


@lru_cache(maxsize=2)
def load_decks() -> dict[str, tuple[Card, ...]]:
    path = reference_dir() / "decks.yaml"
    # libyaml's safe loader where PyYAML has it (the same values, about ten times faster than the pure one)
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    out = {}
    for name, cards in (data.get("decks") or {}).items():
        built = []
        for raw in cards:
            raw = dict(raw)
            if raw.get("effect") not in CARD_EFFECTS:
                raise SpecError("E030", f"deck {name}: unknown card effect {raw.get('effect')!r}",
                                Location(display(path)))
            built.append(Card(**raw))
        ids = [c.id for c in built]
        if len(set(ids)) != len(ids):
            raise SpecError("E030", f"deck {name}: card ids must be unique", Location(display(path)))
        out[name] = tuple(built)
    return out
