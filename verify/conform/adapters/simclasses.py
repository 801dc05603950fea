"""simulation-classes-catherineannie13 (PyPI 0.0.1), checked through its own game log.

    pip install simulation-classes-catherineannie13==0.0.1
    python -m verify.conform.adapters.simclasses --out simclasses.jsonl     # its own games, logged
    verify conform --validate-trace simclasses.jsonl

The package (module ``simulation_classes``, a Monopoly simulator written to
compare playing strategies) plays whole games: ``MonopolyBoard.play_game``
calls ``take_turn`` for every player in turn; a turn lets the player's
``Strategy`` lift mortgages and build, throws the dice, moves, resolves the
square (buying by the strategy's choice, paying rent, tax and cards at once,
raising cash by the strategy's own selling and mortgaging) and, on doubles,
calls itself again. No part of it takes one action at a time, so it is checked
the way an engine author would check it: by logging (``verify.conform.tracelog``)
and trace validation. This shim runs the engine's own game loop and, after
every ``take_turn``, writes the board as a canonical state with the dice
thrown (the board module's ``random.randint`` calls) and the cards drawn (its
``choose_card`` calls) since the state before. It translates representations
only:

* seat ``i`` is ``board.players[i]`` after the engine's own shuffle of the order;
* a hotel: the engine keeps a street's 4 houses beside its hotel flag; a
  canonical hotel stands alone (``houses`` 0, ``hotel`` true);
* a card is named by its id in the ruleset's deck (``CARD_IDS``: the engine
  prints the UK board, so Mayfair is Boardwalk, Trafalgar Square Illinois
  Avenue, King's Cross Reading Railroad); its two nearest-station cards are
  told apart by their place in the engine's shuffled pile;
* after a turn, ``current`` is the player the engine's loop calls next
  (bankrupt ones too: the loop does) and ``phase`` is ``pre_roll``, or ``over``
  once fewer than two players are not bankrupt (the loop stops there).

Two faults of the package itself are worked around, neither a rule: its
modules import each other by bare name (``from Chance import Chance``), which
fails once installed, so they are loaded under the package's names with the
bare names mapped to them during the import only; and ``play_game`` counts
``self.rounds``, which ``MonopolyBoard.__init__`` never sets (an
``AttributeError`` on the first round), so the shim sets it to 0. Every random
draw of the engine comes from seeded generators the shim gives its modules, so
a seed gives one log.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from types import ModuleType
from typing import Any

from ...errors import AdapterError
from ..tracelog import GameLog

PACKAGE = "simulation-classes-catherineannie13"
VERSION = "0.0.1"
INSTALL = f"pip install {PACKAGE}=={VERSION}"
#: the package's modules, in an order that imports each after the ones it needs
MODULES = ("Chance", "CommunityChest", "FreeParking", "Go", "GoToJail", "Jail", "Player", "Station", "Strategy",
           "RandomStrategy", "Street", "Tax", "Utility", "MonopolyBoard")
#: the engine's card text (the first words suffice) -> the card's id in the official decks
CARD_IDS = {
    "chance": {
        "Advance to Go": "chance-go", "Advance to Trafalgar Square": "chance-illinois",
        "Advance to Mayfair": "chance-boardwalk", "Advance to Pall Mall": "chance-st-charles",
        "Advance to the nearest Station": ("chance-railroad-1", "chance-railroad-2"),
        "Advance token to nearest Utility": "chance-utility", "Bank pays you a dividend": "chance-dividend",
        "Get Out of Jail Free": "chance-jail-free", "Go back 3 Spaces": "chance-back-3",
        "Go to Jail": "chance-go-to-jail", "Make general repairs": "chance-repairs",
        "Speeding fine": "chance-speeding", "Take a trip to King's Cross": "chance-reading",
        "You have been elected Chairman": "chance-chairman", "Your building loan matures": "chance-loan",
    },
    "chest": {
        "Advance to Go": "chest-go", "Bank error in your favor": "chest-bank-error", "Doctor": "chest-doctor",
        "From sale of stock": "chest-stock", "Get Out of Jail Free": "chest-jail-free", "Go to Jail": "chest-go-to-jail",
        "Holiday fund matures": "chest-holiday", "Income tax refund": "chest-tax-refund",
        "It is your birthday": "chest-birthday", "Life insurance matures": "chest-life-insurance",
        "Pay hospital fees": "chest-hospital", "Pay school fees": "chest-school",
        "Receive £25 consultancy fee": "chest-consultancy", "You are assessed for street repairs": "chest-repairs",
        "You have won second prize": "chest-beauty", "You inherit": "chest-inherit",
    },
}


def load() -> dict[str, ModuleType]:
    """The package's modules (a clear error when it is not installed)."""
    saved = {name: sys.modules.get(name) for name in MODULES}
    mods: dict[str, ModuleType] = {}
    try:
        for name in MODULES:
            mods[name] = sys.modules[name] = importlib.import_module(f"simulation_classes.{name}")
    except ImportError as exc:
        raise AdapterError(f"the simulation-classes shim needs {PACKAGE} {VERSION}, which cannot be imported "
                           f"({exc}); install it with: {INSTALL}") from None
    finally:
        for name, mod in saved.items():           # the bare names were for the package's own imports only
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod
    return mods


def version() -> str:
    from importlib.metadata import PackageNotFoundError, version as installed
    try:
        return installed(PACKAGE)
    except PackageNotFoundError:
        return VERSION


class _Dice(random.Random):
    """The board module's generator: every ``randint`` it serves is a die's face (the only use it has)."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.faces: list[int] = []

    def randint(self, a: int, b: int) -> int:
        v = super().randint(a, b)
        self.faces.append(v)
        return v


def card_ids(deck: str, pile: list[str]) -> list[str]:
    """The id of each card of the engine's pile, by its place in the pile."""
    out, seen = [], {}
    for text in pile:
        key = next((k for k in CARD_IDS[deck] if text.startswith(k)), None)
        if key is None:
            raise AdapterError(f"the engine's {deck} card {text!r} has no counterpart in the official deck")
        cid = CARD_IDS[deck][key]
        if isinstance(cid, tuple):                 # two cards of one text: told apart by their order
            k = seen.get(key, 0)
            seen[key] = k + 1
            cid = cid[k]
        out.append(cid)
    return out


def view(board: Any, current: int) -> dict:
    """The board as a canonical state (the part the engine keeps), ``current`` moving next."""
    players = board.players
    seat = {id(p): i for i, p in enumerate(players)}
    deeds = []
    for square, space in enumerate(board.board):
        if getattr(space, "type", None) not in ("Street", "Station", "Utility"):
            continue
        hotel = bool(getattr(space, "hotel", False))
        deeds.append({"square": square, "owner": seat.get(id(space.owner)) if space.owner else None,
                      "mortgaged": bool(space.is_mortgaged), "houses": 0 if hotel else getattr(space, "num_houses", 0),
                      "hotel": hotel})
    live = sum(1 for p in players if not p.bankrupt)
    return {"current": current, "phase": "pre_roll" if live >= 2 else "over",
            "players": [{"cash": _money(p.money), "position": p.position, "in_jail": bool(p.in_jail),
                         "bankrupt": bool(p.bankrupt)} for p in players],
            "properties": deeds}


def _money(v: Any) -> Any:
    return int(v) if isinstance(v, float) and v.is_integer() else v


def play(log: GameLog, players: int = 4, seed: int = 0, rounds: int = 100) -> None:
    """One game of the engine's own loop (at most ``rounds`` rounds), logged after every turn."""
    mods = load()
    dice = _Dice(seed)
    shuffles = random.Random(seed * 7919 + 1)
    mods["MonopolyBoard"].random = dice            # the dice and the seating order
    mods["Chance"].random = mods["CommunityChest"].random = shuffles
    board = mods["MonopolyBoard"].MonopolyBoard()
    board.rounds = 0                               # play_game counts it; __init__ never sets it
    for i in range(players):
        board.add_player(mods["Player"].Player(f"player {i + 1}"))
    log.game(PACKAGE, version=version(), new_game=True)

    for deck, pile in (("chance", board.chance), ("chest", board.community_chest)):
        ids = card_ids(deck, pile.cards)
        draw = pile.choose_card

        def logged_draw(draw=draw, pile=pile, ids=ids, deck=deck):
            log.card(deck, ids[pile.top_card_idx])
            return draw()
        pile.choose_card = logged_draw

    turn = board.take_turn
    depth = [0]
    started = []

    def logged_turn(player, doubles=0):
        if not started:                            # the seats are in the order the loop shuffled them into
            started.append(True)
            log.state(view(board, 0), label="start")
        depth[0] += 1
        try:
            turn(player, doubles)
        finally:
            depth[0] -= 1
        if depth[0] == 0:
            faces, dice.faces = dice.faces, []
            for k in range(0, len(faces), 2):
                log.dice(*faces[k:k + 2])
            seat = board.players.index(player)
            log.state(view(board, (seat + 1) % len(board.players)), label=f"round {board.rounds}, seat {seat}")
    board.take_turn = logged_turn
    board.play_game(stopping_condition=rounds)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m verify.conform.adapters.simclasses",
                                 description=f"Play {PACKAGE} games and write its game log (verify.game-log/1).")
    ap.add_argument("--games", type=int, default=2, help="games to play (default 2)")
    ap.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game; game k uses seed + k (default 0)")
    ap.add_argument("--rounds", type=int, default=60, help="rounds at most per game (default 60)")
    ap.add_argument("--out", default=None, help="the log file (default: standard output)")
    args = ap.parse_args(argv)
    try:
        with GameLog(args.out) as log:
            for k in range(args.games):
                play(log, args.players, args.seed + k, args.rounds)
    except AdapterError as exc:
        print(f"[{exc.code}] {exc.message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["PACKAGE", "VERSION", "CARD_IDS", "load", "play", "view", "card_ids", "main"]
