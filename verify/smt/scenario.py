"""Counterexamples: a solver model made small and told as a game scenario.

A violating model is first minimised: every deed that does not need to be
owned, built on or mortgaged is pushed to "the bank holds it, nothing on it",
every player that needs no card or jail stay loses them (soft constraints,
one z3 Optimize call). What is left is printed as before / action / after,
naming only the squares and players that matter.
"""

from __future__ import annotations

from typing import Any

import z3

from ..interrupt import raise_if_interrupted
from ..invariants import NOBODY
from .state import concrete


def _neutral(p) -> Any:
    return z3.And(p.owner == NOBODY, z3.Not(p.mortgaged), p.houses == 0, p.hotels == 0, p.mrounds == 0)


#: The minimisation's budget in z3's resource units, not in seconds: the same counterexample on a busy
#: machine as on an idle one (a wall-clock limit left a loaded machine with the whole unminimised board).
#: The counterexamples of the negative tables take 1-20 million units; the wall limit is only a backstop.
MINIMISE_RLIMIT = 250_000_000
MINIMISE_BACKSTOP_MS = 60_000


def minimise(m, step, solver: z3.Solver, timeout_ms: int, assumptions=()) -> z3.ModelRef:
    """A model of the solver's assertions with as few deeds and player details in play as possible."""
    base_model = solver.model()
    opt = z3.Optimize()
    opt.set("rlimit", MINIMISE_RLIMIT)
    opt.set("timeout", MINIMISE_BACKSTOP_MS)
    opt.add(solver.assertions())
    opt.add(list(assumptions))
    for p in step.before.props:
        opt.add_soft(_neutral(p), 3)
    for pl in step.before.players:
        opt.add_soft(z3.Not(pl.in_jail), 1)
        opt.add_soft(z3.Not(pl.chance), 1)
        opt.add_soft(z3.Not(pl.chest), 1)
        opt.add_soft(z3.Not(pl.bankrupt), 1)
    opt.add_soft(step.before.pot == 0, 1)
    opt.add_soft(step.before.jackpot == 0, 1)
    opt.add_soft(step.before.bank_cash == 0, 1)
    try:
        if opt.check() == z3.sat:
            return opt.model()
    except z3.Z3Exception:
        raise_if_interrupted()
    return base_model


def _arg(model, x) -> int | bool:
    if isinstance(x, (int, bool)):
        return x
    v = model.eval(x, model_completion=True)
    if z3.is_int_value(v):
        return v.as_long()
    return z3.is_true(v)


def _deed_line(m, i: int, p: dict) -> str:
    d = m.deeds[i]
    who = "the bank" if p["owner"] is None else f"player {p['owner']}"
    bits = [f"owned by {who}"]
    if p["hotel"]:
        bits.append("a hotel" + (f" (+{p['houses']} houses)" if p["houses"] else ""))
    elif p["houses"]:
        bits.append(f"{p['houses']} house{'s' if p['houses'] != 1 else ''}")
    if p["mortgaged"]:
        bits.append("mortgaged")
    return f"{d.name} (square {d.square}, {m.group_name(i)}): " + ", ".join(bits)


def _player_line(p: dict) -> str:
    bits = [f"cash {p['cash']}"]
    if p["bankrupt"]:
        bits.append("bankrupt")
    if p["in_jail"]:
        bits.append("in jail")
    if p["jail_cards"]:
        bits.append("holds " + " and ".join(f"the {c} Get Out of Jail Free card" for c in p["jail_cards"]))
    return f"player {p['seat']}" + (f" (team {p['team']})" if p.get("team") is not None else "") + ": " \
        + ", ".join(bits)


def _bank_line(s: dict) -> str:
    b = s["bank"]
    parts = []
    if b["houses"] is not None:
        parts.append(f"{b['houses']} houses")
    if b["hotels"] is not None:
        parts.append(f"{b['hotels']} hotels")
    parts.append(f"ledger {b['cash']}")
    text = "bank: " + ", ".join(parts)
    if s["pot"]:
        text += f"; Free Parking pot {s['pot']}"
    if s["jackpot"]:
        text += f"; jackpot {s['jackpot']}"
    return text


def describe(m, name: str, args: dict) -> str:
    """A move (an action and its arguments) in words."""
    deed = lambda k: m.deeds[args[k]].name if 0 <= args[k] < len(m.deeds) else f"deed #{args[k]}"  # noqa: E731
    a, b = f"player {args['a']}", f"player {args['b']}"
    if name == "buy":
        return f"{a} buys {deed('sq')}"
    if name == "auction_won":
        return f"{a} wins the auction of {deed('sq')} for {args['amt']}"
    if name.startswith("rent_"):
        extra = f" (dice {args['dice']})" if name == "rent_utility" else ""
        return f"{a} lands on {deed('sq')} and pays rent{extra}"
    verbs = {"build_house": "builds a house on", "build_hotel": "builds a hotel on",
             "sell_house": "sells a house on", "sell_hotel": "breaks down the hotel on",
             "card_destroy_building": "draws a card that destroys a building on"}
    if name in verbs:
        return f"{a} {verbs[name]} {deed('sq')}"
    if name in ("mortgage", "unmortgage"):
        return f"{a} {'mortgages' if name == 'mortgage' else 'lifts the mortgage on'} {deed('sq')}"
    if name == "mortgage_expired":
        won = "nobody bids" if args["f1"] else f"{a} wins it for {args['amt']}"
        return f"the mortgage on {deed('sq')} expires and is auctioned: {won}"
    if name == "trade":
        parts = []
        if args["f1"]:
            parts.append(f"{a} gives {deed('sq')}")
        if args["f2"]:
            parts.append(f"{b} gives {deed('sq2')}")
        if args["amt"]:
            parts.append(f"{a} pays {b} {args['amt']}" if args["amt"] > 0 else f"{b} pays {a} {-args['amt']}")
        for flag, who, card in (("f3", a, "Chance"), ("f4", a, "Chest"), ("f5", b, "Chance"), ("f6", b, "Chest")):
            if args[flag]:
                parts.append(f"{who} hands over the {card} jail card")
        return f"{a} and {b} trade: " + "; ".join(parts or ["nothing"])
    if name == "card_bank":
        k = args["amt"]
        return f"{a} draws a card: " + (f"pays the bank {-k}" if k < 0 else f"collects {k} from the bank")
    if name == "card_repairs":
        return f"{a} draws a repairs card and pays {args['dice']}"
    if name == "card_each_player":
        k = args["amt"]
        return f"{a} draws a card: " + (f"pays every other player {-k}" if k < 0 else f"collects {k} from each")
    if name == "casino_bet":
        return (f"{a} bets on {args['amt']} number(s)" + (", the die shows one" if args["f1"] else "")
                + (", and wins the jackpot" if args["f2"] else ""))
    if name == "free_parking":
        return f"{a} lands on Free Parking and takes the pot"
    if name == "auction_mortgaged":
        return (f"{a} auctions the mortgaged {deed('sq')}: "
                + ("nobody bids" if args["f1"] else f"{b} wins it for {args['amt']}"))
    if name == "tax":
        return f"{a} pays a tax of {args['amt']}"
    if name == "bankrupt_to_player":
        return f"{a} owes {b} {args['amt']}, cannot raise it and goes bankrupt to {b}"
    if name == "bankrupt_to_bank":
        return f"{a} owes the bank {args['amt']}, cannot raise it and goes bankrupt"
    if name == "surrender":
        return f"{a} gives up"
    if name == "sell_group":
        return f"{a} sells every building of the {m.group_name(args['sq'])} group" \
            if 0 <= args["sq"] < len(m.deeds) else f"{a} sells a group's buildings"
    if name == "salary":
        return f"{a} passes GO and collects the salary"
    if name == "new_round":
        return "a round ends (every mortgage runs one more round)"
    return f"{name} by {a}"


_describe_action = describe      # the name other layers import


def _matters(m, before: dict, after: dict) -> list[int]:
    out = []
    for i, (p, q) in enumerate(zip(before["properties"], after["properties"])):
        neutral = lambda x: (x["owner"] is None and not x["mortgaged"] and not x["houses"]  # noqa: E731
                             and not x["hotel"])
        if not (neutral(p) and neutral(q)) or _prop(p) != _prop(q):
            out.append(i)
    return out


def counterexample(m, step, inv, solver: z3.Solver, timeout_ms: int, act, assumptions=()) -> dict:
    """The minimised counterexample of a SAT inductive query, as JSON with a readable scenario."""
    model = minimise(m, step, solver, timeout_ms, assumptions)
    before = concrete(m, step.before, model)
    after = concrete(m, step.after, model)
    x = step.args
    args = {k: _arg(model, getattr(x, k)) for k in ("a", "b", "sq", "sq2", "amt", "dice",
                                                     "f1", "f2", "f3", "f4", "f5", "f6")}
    involved = {args["a"]}
    if step.action.name in ("trade", "bankrupt_to_player", "auction_mortgaged") or \
            step.action.name.startswith("rent_"):
        involved.add(args["b"])
    lines, small = story(m, before, after, describe(m, step.action.name, args), involved)
    lines.append(f"Broken: {inv.id} — {inv.title}")
    return {"invariant": inv.id, "action": step.action.name, "args": args,
            "before": small(before), "after": small(after), "scenario": lines}


def story(m, before: dict, after: dict, action_text: str, involved: set) -> tuple[list[str], Any]:
    """A step told as the board before, the action, the board after, naming only what matters: the deeds
    that are not with the bank and bare, or that change; the players ``involved``, that change, own a
    shown deed or hold something. ``before``/``after`` are canonical states (``verify.smt.state.concrete``,
    or the engine's own). Returns the lines and a function that keeps a state's shown deeds only."""
    keep = _matters(m, before, after)
    involved = set(involved)
    for p, q in zip(before["players"], after["players"]):
        if _player(p) != _player(q) or p["jail_cards"] or p["bankrupt"] or p["in_jail"]:
            involved.add(p["seat"])
    for i in keep:
        for state in (before, after):
            if state["properties"][i]["owner"] is not None:
                involved.add(state["properties"][i]["owner"])
    players = sorted(involved)
    lines = ["Before:"]
    lines += ["  " + _player_line(p) for p in before["players"] if p["seat"] in players]
    if len(players) < len(before["players"]):
        lines.append(f"  ({len(before['players']) - len(players)} other player(s), not involved)")
    lines += ["  " + _deed_line(m, i, before["properties"][i]) for i in keep]
    if not keep:
        lines.append("  every deed is with the bank, nothing built")
    lines.append("  " + _bank_line(before))
    lines.append("Action: " + action_text)
    lines.append("After:")
    lines += ["  " + _player_line(q) for p, q in zip(before["players"], after["players"]) if _player(p) != _player(q)]
    lines += ["  " + _deed_line(m, i, after["properties"][i])
              + ("" if _prop(after["properties"][i]) != _prop(before["properties"][i]) else " (unchanged)")
              for i in keep]
    if [before["bank"].get(k) for k in _BANK] != [after["bank"].get(k) for k in _BANK] \
            or before["pot"] != after["pot"] or before["jackpot"] != after["jackpot"]:
        lines.append("  " + _bank_line(after))
    small = lambda s: {**s, "properties": [s["properties"][i] for i in keep]}  # noqa: E731
    return lines, small


#: the fields of a player, a deed and the bank that a story tells (an engine's state holds more: positions...)
_PLAYER = ("seat", "team", "cash", "in_jail", "jail_cards", "bankrupt")
_PROP = ("square", "owner", "mortgaged", "houses", "hotel")
_BANK = ("houses", "hotels", "cash")


def _player(p: dict) -> tuple:
    return tuple(p.get(k) for k in _PLAYER)


def _prop(p: dict) -> tuple:
    return tuple(p.get(k) for k in _PROP)


def render(cex: dict) -> str:
    return "\n".join(cex.get("scenario") or [])
