"""GNOME's game board built from a canonical state, and the canonical facts read back from it.

GNOME (the USC/ISI Monopoly simulator, PyPI ``monopoly-simulator-test``) keeps a
game in a dict of Python objects (``game_elements``: locations, players, bank,
card packs). This module translates representations only, in both directions:

* square ``i`` of the canonical state is ``game_elements['location_sequence'][i]``
  of GNOME's own board (read from GNOME's own schema file, never from the
  ruleset: where GNOME's board differs, the harness finds it);
* seat ``i`` is GNOME's player ``player_{i+1}``, in seat order (GNOME's own
  game loop shuffles the seats; the adapter does not);
* ownership, houses, hotels and mortgages are set through GNOME's own
  bookkeeping (``Player.add_asset``), so its derived counts (full colour sets,
  railroads, houses per player) are its own;
* the bank's canonical cash ledger (0 at the start of a game) is GNOME's bank
  cash minus the 10,000 a GNOME bank starts with;
* GNOME keeps money as floats: read back, a value is rounded to 6 decimals and
  becomes an int when whole (a fractional amount stays fractional: that is
  GNOME's arithmetic, not the adapter's);
* a canonical card is GNOME's card of the same text (``CARD_NAMES``); GNOME
  draws at random from a set, so the adapter makes its draw pick the card on
  top of the canonical deck, as the dice of a roll are given.
"""

from __future__ import annotations

import json
import pickle
import sys
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

from ...errors import AdapterError

PACKAGE = "monopoly-simulator-test"
VERSION = "0.0.9"
INSTALL = (f"pip install --no-deps --ignore-requires-python --only-binary numpy {PACKAGE}=={VERSION} numpy xlsxwriter")
SCHEMA_FILE = "monopoly_game_schema_v1-2.json"
#: cash a GNOME ``Bank()`` starts with (bank.py); the canonical ledger starts at 0
BANK_START = 10000.0
#: GNOME's stand-in for an unlimited building supply (its bank counts buildings down)
UNLIMITED = 10 ** 9

#: canonical card id (the official decks, verify/config/board.py) -> GNOME card name (its schema)
CARD_NAMES = {
    "chance": {
        "chance-boardwalk": "go_to_boardwalk", "chance-go": "advance_to_go",
        "chance-illinois": "go_to_illinois_avenue", "chance-st-charles": "go_to_st_charles",
        "chance-railroad-1": "go_to_nearest_railroad_pay_double",
        "chance-railroad-2": "go_to_nearest_railroad_pay_double",
        "chance-utility": "go_to_nearest_utility", "chance-dividend": "bank_dividend",
        "chance-jail-free": "get_out_of_jail_free", "chance-back-3": "go_back_three_spaces",
        "chance-go-to-jail": "go_to_jail", "chance-repairs": "general_repairs",
        "chance-speeding": "pay_poor_tax", "chance-reading": "go_to_reading_railroad",
        "chance-chairman": "elected_board_chairman", "chance-loan": "building_loan_matures",
    },
    "chest": {
        "chest-go": "advance_to_go", "chest-bank-error": "bank_error", "chest-doctor": "doctor_fee",
        "chest-stock": "sale_of_stock", "chest-jail-free": "get_out_of_jail_free",
        "chest-go-to-jail": "go_to_jail", "chest-holiday": "holiday_fund_matures",
        "chest-tax-refund": "income_tax_refund", "chest-birthday": "birthday",
        "chest-life-insurance": "life_insurance_matures", "chest-hospital": "hospital_fee",
        "chest-school": "school_fee", "chest-consultancy": "consultancy_fee",
        "chest-repairs": "street_repairs", "chest-beauty": "win_beauty_contest",
        "chest-inherit": "inherit_money",
    },
}
#: canonical deck -> (GNOME's card-pack key, its pick function's name, the pack name GNOME uses)
PACKS = {"chance": ("chance_cards", "Chance", "chance"),
         "chest": ("community_chest_cards", "Community Chest", "community_chest")}
JAIL_FREE = "get_out_of_jail_free"


def gnome() -> SimpleNamespace:
    """GNOME's modules, imported on first use (a clear error when the simulator is not installed)."""
    try:
        from monopoly_simulator import action_choices, card_utility_actions, flag_config, initialize_game_elements
        from monopoly_simulator.bank import Bank
    except ImportError as exc:
        raise AdapterError(f"the GNOME adapter needs the USC/ISI GNOME simulator ({PACKAGE} {VERSION}), which "
                           f"cannot be imported ({exc}); install it with: {INSTALL}") from None
    codes = flag_config.flag_config_dict
    return SimpleNamespace(actions=action_choices, cards=card_utility_actions, init=initialize_game_elements,
                           Bank=Bank, failure=codes["failure_code"], success=codes["successful_action"])


def gnome_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(PACKAGE)
    except PackageNotFoundError:   # importable from a checkout without metadata
        return VERSION


@lru_cache(maxsize=1)
def game_schema() -> dict:
    """GNOME's own game schema (board, decks, dice), installed next to the package as a data file."""
    import monopoly_simulator
    pkg = Path(monopoly_simulator.__file__).resolve().parent
    candidates = [Path(sys.prefix) / SCHEMA_FILE, pkg.parents[2] / SCHEMA_FILE, pkg.parent / SCHEMA_FILE,
                  pkg / SCHEMA_FILE]
    for path in candidates:
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    raise AdapterError(f"GNOME is installed but its game schema {SCHEMA_FILE} is not where pip puts it "
                       f"(looked in {', '.join(str(c.parent) for c in candidates)}); reinstall it: {INSTALL}")


def money(x: Any) -> int | float:
    """A GNOME amount as the canonical state carries it (whole amounts as ints)."""
    v = round(float(x), 6)
    return int(v) if v == int(v) else v


def new_board(players: int, make_agent: Callable[[int], Any]) -> dict:
    """A fresh GNOME game for ``players`` seats, as GNOME's own ``initialize_board`` makes it.

    GNOME makes a board in about 1.6 ms, most of it deep-copying every card into a lookup table, and a
    conformance run loads a board per scenario and per shrinking attempt (a third of a default run's
    CPU). So the board GNOME makes is kept per number of seats, pickled before anything touches it, and
    each game gets its own copy (0.3 ms) with its own agents: no two games share an object."""
    blob = _BOARDS.get(players)
    if blob is None:
        schema = dict(game_schema())
        ps = dict(schema["players"])
        states = dict(ps["player_states"])
        states["player_name"] = [f"player_{i + 1}" for i in range(players)]
        ps["player_states"] = states
        ps["player_count"] = players
        schema["players"] = ps
        made = gnome().init.initialize_board(schema, {name: None for name in states["player_name"]})
        blob = _BOARDS[players] = pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL)
    gb = pickle.loads(blob)
    for i, player in enumerate(gb["players"]):       # in seat order: player_1, player_2, ...
        player.agent = make_agent(i)
    gb["card_seed"] = 0
    gb["seed"] = 0
    gb["time_step_indicator"] = 0
    gb["start_time"] = 0.0
    return gb


#: GNOME's freshly made board per number of seats, pickled (see ``new_board``)
_BOARDS: dict[int, bytes] = {}


def load_state(gb: dict, state: dict, ownable: tuple[int, ...]) -> None:
    """Put the canonical ``state``'s deeds, buildings, cash, positions, jail and cards on GNOME's board."""
    players = gb["players"]
    bank = gb["bank"]
    seq = gb["location_sequence"]
    for p, ps in zip(players, state["players"]):
        p.current_cash = float(ps["cash"])
        p.current_position = int(ps["position"])
        p.currently_in_jail = bool(ps["in_jail"])
        p.status = "lost" if ps.get("bankrupt") else "waiting_for_move"
    for prop in state["properties"]:
        s = prop["square"]
        loc = seq[s]
        if s not in ownable or not hasattr(loc, "owned_by"):
            raise AdapterError(f"square {s} is ownable in the ruleset but {loc.name!r} on GNOME's board")
        houses, hotel = int(prop.get("houses", 0)), bool(prop.get("hotel", False))
        if loc.loc_class == "real_estate":
            loc.num_houses, loc.num_hotels = houses, int(hotel)
        elif houses or hotel:
            raise AdapterError(f"square {s} holds buildings but {loc.name!r} is not a street on GNOME's board")
        loc.is_mortgaged = bool(prop.get("mortgaged", False))
        owner = prop.get("owner")
        if owner is not None:
            loc.owned_by = players[owner]
            players[owner].add_asset(loc, gb)     # GNOME's own bookkeeping: colour sets, counts, mortgages
    houses, hotels = state["bank"].get("houses"), state["bank"].get("hotels")
    bank.total_houses = UNLIMITED if houses is None else int(houses)
    bank.total_hotels = UNLIMITED if hotels is None else int(hotels)
    bank.total_cash_with_bank = BANK_START + float(state["bank"].get("cash", 0))
    for seat, ps in enumerate(state["players"]):
        for deck in ps.get("jail_cards", []):
            take_jail_card(gb, players[seat], deck)


def take_jail_card(gb: dict, player: Any, deck: str) -> None:
    """``player`` holds the deck's Get Out of Jail Free card: it leaves GNOME's pack, as when drawn."""
    key = PACKS[deck][0]
    for card in list(gb[key]):
        if card.name == JAIL_FREE:
            gb[key].remove(card)
            break
    if deck == "chance":
        player.has_get_out_of_jail_chance_card = True
    else:
        player.has_get_out_of_jail_community_chest_card = True


def seat_of(gb: dict, owner: Any) -> int | None:
    for i, p in enumerate(gb["players"]):
        if p is owner:
            return i
    return None


def read_players(gb: dict, carried: list[dict], positions: list[int]) -> list[dict]:
    """The canonical players: GNOME's facts, and the carried ones GNOME does not keep (see GnomeEngine)."""
    out = []
    for i, (p, c) in enumerate(zip(gb["players"], carried)):
        cards = (["chance"] if p.has_get_out_of_jail_chance_card else []) + \
            (["chest"] if p.has_get_out_of_jail_community_chest_card else [])
        pos = p.current_position
        out.append({"seat": i, "team": c.get("team"), "cash": money(p.current_cash),
                    "position": positions[i] if pos is None else int(pos),
                    "in_jail": bool(p.currently_in_jail),
                    "jail_turns": int(c.get("jail_turns", 0)) if p.currently_in_jail else 0,
                    "jail_cards": cards, "bankrupt": p.status == "lost", "doubles": int(c.get("doubles", 0)),
                    "passed_go": bool(c.get("passed_go", False)), "missed_turns": int(c.get("missed_turns", 0))})
    return out


def read_properties(gb: dict, ownable: tuple[int, ...], carried: dict[int, dict]) -> list[dict]:
    g = gnome()
    seq = gb["location_sequence"]
    out = []
    for s in ownable:
        loc = seq[s]
        owner = None if isinstance(loc.owned_by, g.Bank) else seat_of(gb, loc.owned_by)
        street = loc.loc_class == "real_estate"
        out.append({"square": s, "owner": owner, "mortgaged": bool(loc.is_mortgaged),
                     "houses": int(loc.num_houses) if street else 0,
                     "hotel": bool(street and loc.num_hotels > 0),
                     "mortgage_rounds": int(carried.get(s, {}).get("mortgage_rounds", 0))})
    return out


def read_bank(gb: dict) -> dict:
    b = gb["bank"]
    return {"houses": None if b.total_houses >= UNLIMITED // 2 else int(b.total_houses),
            "hotels": None if b.total_hotels >= UNLIMITED // 2 else int(b.total_hotels),
            "cash": money(b.total_cash_with_bank - BANK_START)}


__all__ = ["gnome", "gnome_version", "game_schema", "money", "new_board", "load_state", "take_jail_card",
           "seat_of", "read_players", "read_properties", "read_bank", "CARD_NAMES", "PACKS", "JAIL_FREE",
           "BANK_START", "INSTALL", "PACKAGE", "VERSION"]
