"""Playing a run of the SMT transitions on the reference engine: each move as the actions a game takes.

A run found over the transitions (``verify.smt.reach``) says what happens (player 1 buys Baltic
Avenue, builds a house on it...) but not how the game gets there: the model has no tokens and no
turns. ``play`` makes each move with a steered table (``verify.runs.table``): a purchase is a roll
onto the deed and ``buy``, a rent a roll onto the owner's deed, a build or a mortgage the action
itself, a forfeited mortgage the rounds that pass until the engine forfeits it. What the engine did
is the run's game, judged after every step by the engine's own invariant checker.

The engine is the judge: a move the table cannot make, or that the engine plays otherwise than
the transition said, leaves the game as far as it got, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..config import EngineConfig
from ..smt.reach import Move
from .table import Stuck, Table

#: transitions that are one engine action of a player on a deed (the action of the same name), at any time
_ON_A_DEED = ("build_house", "build_hotel", "sell_house", "sell_hotel", "mortgage", "unmortgage")
_RENT = ("rent_street", "rent_station", "rent_utility")


@dataclass
class Played:
    """How far a plan got on the table: the moves made and why the next one could not be."""

    table: Table
    done: int = 0                       # moves of the plan made
    stuck: str | None = None            # why the next move could not be made


def play(config: EngineConfig, players: int, seed: int, moves: list[Move], judged: list[str]) -> Played:
    """Play ``moves`` from a game's start; stop at the first move the table cannot make."""
    return play_on(Table(config, players, seed, judged), moves)


def play_on(table: Table, moves: list[Move]) -> Played:
    """Play ``moves`` on from where ``table``'s game stands (each made is added to ``table.moves``); stop at
    the first move it cannot make."""
    out = Played(table)
    for i, move in enumerate(moves):
        try:
            _move(table, move, moves[i + 1] if i + 1 < len(moves) else None)
        except Stuck as exc:
            out.stuck = f"move {len(table.moves) + 1} ({move.action}): {exc}"
            return out
        table.moves.append(move)
        table.ends.append(len(table.steps))
        out.done = i + 1
    return out


def _move(t: Table, mv: Move, following: Move | None) -> None:
    x, name = mv.args, mv.action
    a, b, square = x.get("a", 0), x.get("b", 1), x.get("square")
    if name == "buy":
        _offered(t, a, square)
        t.do({"type": "buy", "seat": a})
        t.settle(None)
    elif name == "auction_won":
        _offered(t, b, square)
        t.do({"type": "decline", "seat": b})
        t.auction(a, x["amt"])
        t.settle(None)
    elif name in _RENT:
        t.roll_to(a, square)
        t.settle(None)
        t.claim(a, square)
    elif name in _ON_A_DEED:
        t.manage({"type": name, "seat": a, "square": square})
    elif name == "sell_group":
        group = t.config.board.deeds[x["sq"]].group
        t.manage({"type": "sell_group", "seat": a, "group": group})
    elif name == "trade":
        t.manage(_trade(x))
    elif name == "surrender":
        t.manage({"type": "surrender", "seat": a})
    elif name == "auction_mortgaged":
        t.manage({"type": "auction_mortgaged", "seat": a, "square": square})
        t.auction(None if x["f1"] else b, x["amt"])
    elif name == "tax":
        tx = t.config.taxes
        t.roll_to(a, _square_of(t, "luxury_tax" if x["amt"] == tx.luxury and x["amt"] != tx.income
                                else "income_tax"))
        t.settle(None)
    elif name in ("bankrupt_to_player", "bankrupt_to_bank"):
        target = square if name == "bankrupt_to_player" else _square_of(
            t, "luxury_tax" if x["amt"] == t.config.taxes.luxury else "income_tax")
        t.roll_to(a, target)
        t.settle(None)
        t.claim(a, target)
        if t.phase != "debt" or t.awaited() != a:
            raise Stuck(f"player {a} landed on square {target} and owes nothing it cannot pay")
        why = t.try_do({"type": "bankrupt", "seat": a})
        if why:
            raise Stuck(f"player {a} may not declare bankruptcy: {why}")
        t.settle(None)
    elif name == "salary":
        before = t.state["players"][a]["cash"]
        for _ in range(12):
            t.turn_of(a)
            t.wander(a)
            if any(e.get("event") == "salary" and e.get("player") == a for _, ev, _ in t.steps[-6:] for e in ev):
                return
        raise Stuck(f"player {a} never passed GO (cash {before})")
    elif name == "new_round":
        # the turn that ends the round ages every mortgage and forfeits those due at once: when the plan's
        # next move is that forfeiture, the turn is left for it
        if _round_end(t):
            t.end_turn()
        _to_round_end(t)
        if following is None or following.action != "mortgage_expired":
            t.end_turn()
    elif name == "mortgage_expired":
        _expiry(t, mv)
    elif name == "free_parking":
        t.roll_to(a, _square_of(t, "free_parking"))
        t.settle(None)
    else:
        raise Stuck(f"a run cannot steer {name} yet (a card, the casino)")


def _offered(t: Table, seat: int, square: int) -> None:
    """``seat`` lands on ``square``, an unowned deed it is offered (to buy, or to decline for an auction)."""
    t.roll_to(seat, square)
    t.settle(seat)
    if t.phase != "buy":
        raise Stuck(f"player {seat} landed on square {square} but it is not for sale (phase {t.phase})")


def _round_end(t: Table) -> bool:
    """The next ``end_turn`` ends the round: the last player still in the game has moved."""
    live = [p["seat"] for p in t.state["players"] if not p["bankrupt"]]
    return t.phase == "post_roll" and t.current == max(live)


def _to_round_end(t: Table) -> None:
    """Play harmless turns until the round's last turn is about to end."""
    for _ in range(4 * t.players + 4):
        t.settle(None)
        if _round_end(t):
            return
        if t.phase == "post_roll":
            t.end_turn()
        else:
            t.leave_jail(t.current)
            t.wander_keep(t.current) if t.current == max(
                p["seat"] for p in t.state["players"] if not p["bankrupt"]) else t.wander(t.current)
    raise Stuck("the round never came to its end")


def _expiry(t: Table, mv: Move) -> None:
    """The engine forfeits a due mortgage as a round begins and auctions the deed: play to it."""
    x, square = mv.args, mv.args.get("square")
    if _round_end(t):
        t.end_turn()
    for _ in range(4 * t.players + 4):
        if t.phase == "auction" and (t.state.get("pending") or {}).get("square") == square:
            t.auction(None if x["f1"] else x["a"], x["amt"])
            t.settle(None)
            return
        t.settle(None) if t.phase != "auction" else t.auction(None, 0)
        if t.phase == "post_roll":
            t.end_turn()
        elif t.phase == "pre_roll":
            t.leave_jail(t.current)
            t.wander(t.current)
    raise Stuck(f"the mortgage on square {square} was never forfeited")


def _square_of(t: Table, kind: str) -> int:
    for i, k in enumerate(t.config.board.squares):
        if k == kind:
            return i
    raise Stuck(f"the board has no {kind.replace('_', ' ')} square")


def _trade(x: dict) -> dict:
    give: dict = {}
    take: dict = {}
    if x["f1"]:
        give["squares"] = [x["square"]]
    if x["f2"]:
        take["squares"] = [x["square2"]]
    if x["amt"] > 0:
        give["cash"] = x["amt"]
    elif x["amt"] < 0:
        take["cash"] = -x["amt"]
    give_cards = [d for f, d in (("f3", "chance"), ("f4", "chest")) if x[f]]
    take_cards = [d for f, d in (("f5", "chance"), ("f6", "chest")) if x[f]]
    if give_cards:
        give["cards"] = give_cards
    if take_cards:
        take["cards"] = take_cards
    return {"type": "trade", "seat": x["a"], "with": x["b"], "give": give, "take": take}
