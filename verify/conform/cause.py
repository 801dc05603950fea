"""What makes two violations the same deviation: its cause, the first link where the engine and the ruleset part.

A run files every violation under its cause, the way hypothesis keeps
failures apart by their origin: each distinct cause is reported once, with
how many scenarios showed it and in which contexts, and a shrink step that
would turn it into another cause is not taken. A cause is

* for ``legality``: the engine accepted what the ruleset refuses, named by the
  action and the ruleset's refusal (its template in the action registry,
  values as ``#``): ``legality at buy: accepted: not enough cash``; or the
  engine refused what the ruleset allows, named by the engine's reason alone
  (amounts, seats and deed names taken out), whatever action it refused:
  ``legality: refused: <reason>`` (one guard of the engine, met on several
  actions, is one cause);
* for ``successor``: the first link of the step's chain (``chain.py``: the
  action, then what the engine resolves on its own) whose outcome differs,
  named by that link (a step of ``verify.vocabulary``: ``card
  chest-hospital``, ``rent``, ``jail_roll``, ``doubles``, ``turn_ended``...) and
  the fields it changes differently with their directions
  (``successor at card chest-hospital: bank.cash -, players[actor].cash +``);
* for an invariant: the action and the clause that fails;
* for ``setup`` and ``protocol``: the request and what differs or broke.

The turn, the phase and the context reached after the cause's link are not
part of it (``successor``): a mover left elsewhere is the link that moved it
and what followed from standing there is not in the key (the rent, the
purchase offer); a difference in the turn's flow alone (whose turn, which
phase) is the link that decides it (``doubles``: the same player rolls again;
``turn_ended``; ``debt``; ``offer``; ``auction``). The text is the identity:
stable across runs and machines (a function of the step alone), readable,
and what a baseline lists.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from . import signature as sig
from .chain import Link, words

#: Top-level keys of the turn's flow: whose turn, which phase, what is awaited (decided by the last link).
FLOW_KEYS = frozenset({"phase", "current", "pending", "turn", "round", "player_turns", "minute", "winner",
                       "result"})
#: Paths of the flow below other keys: queued debts and auctions, a player's doubles this turn.
FLOW_PATHS = ("queue.debts", "queue.auctions")
FLOW_FIELDS = frozenset({"doubles"})
#: The mover's place: where a move left the token.
PLACE = ("players[actor].position", "players[actor].in_jail")
_COPY = re.compile(r"-\d+$")


@dataclass(frozen=True)
class Cause:
    """A deviation's cause: the rule broken, the link (empty for a refusal, named by its reason alone), the
    effect (the fields and their directions, or the reason, or the clause), where it was met (``context``)
    and the chain up to its link in words."""

    rule: str
    link: str
    effect: str
    context: str = ""
    chain: str = ""

    @property
    def key(self) -> str:
        return key(self.rule, self.link, self.effect)


def key(rule: str, link: str, effect: str) -> str:
    """The cause's text: ``rule at link: effect`` (``rule: effect`` for a refusal)."""
    head = f"{rule} at {link}" if link else rule
    return f"{head}: {effect}" if effect else head


def parse(text: str) -> tuple[str, str, str]:
    """``(rule, link, effect)`` of a cause's text."""
    head, _, effect = text.partition(": ")
    rule, _, link = head.partition(" at ")
    return rule, link, effect


def identity(text: str) -> str:
    """What a cause is, without its effect: ``rule at link`` (a refusal: its whole text). A baseline's
    accepted cause whose identity shows another effect has *changed*."""
    rule, link, effect = parse(text)
    if not link:
        return text
    return key(rule, link, "")


def card_names(config) -> dict[str, str]:
    """Each card of the config's decks as a link names it: copies of one card (``chance-railroad-1``,
    ``chance-railroad-2``: the same effect) are one card, ``chance-railroad``."""
    out: dict[str, str] = {}
    for cards in (config.cards.chance, config.cards.chest):
        base: dict[str, list] = {}
        for c in cards:
            base.setdefault(_COPY.sub("", c.id), []).append(c)
        for name, copies in base.items():
            same = len(copies) > 1 and len({_effect(c) for c in copies}) == 1
            for c in copies:
                out[c.id] = name if same else c.id
    return out


def _effect(card) -> tuple:
    """A card's effect and its values, without its id (copies of a card are equal on it)."""
    return tuple(sorted((k, repr(v)) for k, v in dataclasses.asdict(card).items() if k != "id"))


def atom_path(atom: str) -> str:
    return atom.split(" ", 1)[0]


def _flow(path: str) -> bool:
    top = path.split(".", 1)[0].split("[", 1)[0]
    return top in FLOW_KEYS or path.startswith(FLOW_PATHS) or path.rsplit(".", 1)[-1] in FLOW_FIELDS


def _place(path: str) -> bool:
    return path in PLACE


# ---- the action's own link: named by what the move met --------------------------------------------

#: Money moved in a step, by the accounts its step involves (``bank`` is the bank's ledger or the pot).
_ACCOUNTS = {"salary": {"actor", "bank"}, "tax": {"actor", "bank"}, "rent": {"actor", "other"},
             "free_parking": {"actor", "bank"}, "auction_won": {"actor", "bank", "other"}}


def _accounts(paths) -> set[str]:
    out = set()
    for p in paths:
        if p.startswith("players[actor]."):
            out.add("actor")
        elif p.startswith("players["):
            out.add("other")
        elif p in ("bank.cash", "pot", "jackpot"):
            out.add("bank")
    return out


def _cash(state: dict, seat: Any, settle: bool = True) -> Any:
    try:
        return (settled(state) if settle else state)["players"][seat]["cash"]
    except (KeyError, IndexError, TypeError):
        return None


def _money_steps(link: Link, seat: Any, cards: dict | None) -> list[tuple[str, Any]]:
    """The steps of the action's own link that moved ``seat``'s money, in order, with what each moved (a card's
    amount is what the link moved less the other steps')."""
    steps: list[tuple[str, Any]] = []
    for e in link.events:
        ev = e.get("event")
        if ev == "salary" and e.get("player") == seat:
            steps.append(("salary", e.get("amount", 0)))
        elif ev == "paid" and seat in (e.get("debtor"), e.get("creditor")) and e.get("kind") in ("rent", "tax"):
            sign = -1 if e.get("debtor") == seat else 1
            steps.append((e["kind"], sign * (e.get("amount", 0) if sign < 0 else e.get("to_creditor", 0))))
        elif ev == "pot" and e.get("player") == seat:
            steps.append(("free_parking", e.get("amount", 0)))
        elif ev == "card" and e.get("player") == seat:
            cid = str(e.get("card"))
            steps.append((f"card {(cards or {}).get(cid, cid)}", None))
    unknown = [i for i, (_, v) in enumerate(steps) if v is None]
    was, now = _cash(link.before, seat), _cash(link.after, seat)
    if len(unknown) == 1 and isinstance(was, (int, float)) and isinstance(now, (int, float)):
        known = sum(v for _, v in steps if v is not None)
        steps[unknown[0]] = (steps[unknown[0]][0], now - was - known)
    return steps


def _left_out(steps: list[tuple[str, Any]], delta: Any) -> str | None:
    """The first money step whose leaving out, with the ones after it up to some step, is exactly the engine's
    difference ``delta`` (a bank that pays nothing leaves out the GO salary and a card's payment)."""
    if not isinstance(delta, (int, float)) or not delta:
        return None
    for k in range(len(steps)):
        run = 0
        for j in range(k, len(steps)):
            if steps[j][1] is None:
                break
            run += steps[j][1]
            if run and -run == delta:
                return steps[k][0]
    return None


def _own_link(link: Link, seat: Any, paths, place: bool, cards: dict | None = None,
              delta: Any = None) -> tuple[str, Any]:
    """The name of the action's own link and the player it is about: the card drawn (for a place, the move
    that drew it), a roll from jail, going to jail, an auction's end (its winner), rent, a tax, Free
    Parking, the GO salary, else the action's type. ``paths``: the differing fields it is named for (their
    accounts pick a step that moves money between them: rent between players, a tax between a player and
    the bank); ``place``: the token did not move at all in the engine."""
    kind = str(link.action.get("type"))
    events = link.events
    before = link.before
    was_jailed = _jailed(before, seat)
    drawn = [e for e in events if e.get("event") == "card" and e.get("player") == seat]
    if place and was_jailed and kind == "roll":
        return "jail_roll", seat
    skipped = _left_out(_money_steps(link, seat, cards), delta) if delta is not None else None
    if skipped is not None and not (was_jailed and kind == "roll"):
        return skipped, seat
    if drawn:
        cid = str(drawn[0]["card"])
        return f"card {(cards or {}).get(cid, cid)}", seat
    accounts = _accounts(paths)
    won = next((e for e in events if e.get("event") == "auction_won"), None)
    if won is not None and isinstance(won.get("player"), int):
        return "auction_won", won["player"]
    steps = []
    for e in events:
        ev = e.get("event")
        if ev == "paid" and e.get("kind") in ("rent", "tax"):
            steps.append(e["kind"])
        elif ev == "rent_due":
            steps.append("rent")
        elif ev == "pot":
            steps.append("free_parking")
        elif ev == "salary":
            steps.append("salary")
    if kind == "roll" and _on_others_deed(link.after, seat):
        steps.append("rent")        # rent is what landing there resolves, even when the ruleset charges none
    for step in ("rent", "tax", "free_parking"):       # the most specific first
        if step in steps and (not accounts or accounts <= _ACCOUNTS[step]):
            return step, seat
    if was_jailed and kind == "roll":
        return "jail_roll", seat
    if any(e.get("event") == "jailed" for e in events):
        return "jailed", seat
    if "salary" in steps and (not accounts or accounts <= _ACCOUNTS["salary"]):
        return "salary", seat
    return kind, seat


def _on_others_deed(state: dict, seat: Any) -> bool:
    square = _position(state, seat)
    for p in state.get("properties") or []:
        if p.get("square") == square:
            return p.get("owner") is not None and p.get("owner") != seat
    return False


def _principal(link: Link, seat: Any) -> Any:
    """The player an automatic link is about: the payer of rent, the debtor of a liquidation, a payment or a
    bankruptcy, the player whose turn ends."""
    if link.step == "rent":
        claim = next((e for e in link.events if e.get("event") == "rent_claimed"), None)
        return claim.get("payer", seat) if claim else seat
    return link.action.get("seat", seat)


def _after_card(step: str, own: Link, seat: Any, cards: dict | None) -> str:
    """An automatic link named with the card that led to it (rent after a card is the card's rent: double on a
    station, ten times a fresh throw on a utility)."""
    drawn = [e for e in own.events if e.get("event") == "card" and e.get("player") == seat]
    if step != "rent" or not drawn:
        return step
    cid = str(drawn[-1]["card"])
    return f"{step} after card {(cards or {}).get(cid, cid)}"


_DECK = re.compile(r"^(decks|discards)\.(chance|chest)\b")


def _decks(atoms: list[str], own: Link, name: str, seat: Any) -> list[str]:
    """The deck fields of a card's link named by their part: ``decks[card]`` for the deck of the card it drew
    (a card put back in the wrong place is one cause, whichever deck); a deck a later card of the same step
    drew from is that card's, not this link's."""
    drawn = [e.get("deck") for e in own.events if e.get("event") == "card" and e.get("player") == seat]
    if not name.startswith("card ") or not drawn:
        return atoms
    mine, later = drawn[0], set(drawn[1:]) - {drawn[0]}
    out = []
    for a in atoms:
        m = _DECK.match(a)
        if m is None:
            out.append(a)
        elif m.group(2) == mine:
            out.append(f"{m.group(1)}[card]{a[m.end():]}")
        elif m.group(2) not in later:
            out.append(a)
    return out or atoms


def _jailed(state: dict, seat: Any) -> bool:
    try:
        return bool(state["players"][seat]["in_jail"])
    except (KeyError, IndexError, TypeError):
        return False


def _position(state: dict, seat: Any) -> Any:
    try:
        return state["players"][seat]["position"]
    except (KeyError, IndexError, TypeError):
        return None


# ---- the flow: who plays next, in which phase ----------------------------------------------------

def _jail_step(links: tuple[Link, ...]) -> str | None:
    """``jailed`` when the action sent its player to jail, ``jail_roll`` when it was a roll from jail."""
    own = next((link for link in links if not link.automatic), None)
    if own is None:
        return None
    if any(e.get("event") == "jailed" for e in own.events):
        return "jailed"
    seat = own.action.get("seat", own.before.get("current"))
    if own.action.get("type") == "roll" and _jailed(own.before, seat):
        return "jail_roll"
    return None


def _flow_link(before: dict, links: tuple[Link, ...], expected: dict, engine: dict, own: str) -> str:
    """The link that decides the turn's flow, from the ruleset's outcome and the engine's: a debt opened, the
    turn passed (after what ended it), an auction, a deed offered, the same player rolling again (doubles)."""
    phases = {expected.get("phase"), engine.get("phase")}
    if "debt" in phases:
        why = _jail_step(links)
        return f"debt after {why}" if why else "debt"
    was = before.get("current")
    if expected.get("current") != was or engine.get("current") != was:
        if any(link.automatic and link.step == "turn_ended" for link in links):
            return "turn_ended"
        why = "bankruptcy" if any(e.get("event") == "bankrupt" for link in links for e in link.events) \
            else _jail_step(links)
        return f"turn_ended after {why}" if why else "turn_ended"
    if "auction" in phases:
        return "auction"
    if "buy" in phases:
        return "offer"
    acted = next((link.action for link in links if not link.automatic), {})
    if "pre_roll" in phases and (before.get("phase") != "pre_roll" or acted.get("type") == "roll"):
        return "doubles"      # the same player rolls again (or does not), after a move
    return own


# ---- successor ------------------------------------------------------------------------------------

def _paths(a: dict, b: dict, compare, roles: sig.Roles) -> set[str]:
    return {atom_path(x) for x in sig.diff_atoms(a, b, compare, roles)}


def settled(state: dict) -> dict:
    """``state`` as it will be once its open debts are paid: each debtor's cash less the amount, the creditor's
    (or the bank's ledger) more, and a move waiting for them made (``turn.move.steps_after_debts``). A debt is
    a payment postponed: the payment is the link's effect, the waiting is the turn's flow (``debt``)."""
    debts = list((state.get("queue") or {}).get("debts") or [])      # the debt awaited is the first of them
    pend = state.get("pending") or {}
    if not debts and state.get("phase") == "debt" and isinstance(pend.get("debtor"), int):
        debts = [[pend["debtor"], pend.get("creditor", -1), pend.get("amount", 0), pend.get("amount", 0)]]
    steps = ((state.get("turn") or {}).get("move") or {}).get("steps_after_debts") or 0
    if not debts and not steps:
        return state
    players = [dict(p) for p in state.get("players") or []]
    bank = dict(state.get("bank") or {})
    for d in debts:
        debtor, creditor, amount, share = d[0], d[1], d[2], d[3] if len(d) > 3 else d[2]
        if not (isinstance(debtor, int) and 0 <= debtor < len(players)):
            continue
        players[debtor]["cash"] = players[debtor].get("cash", 0) - amount
        rest = amount
        if isinstance(creditor, int) and 0 <= creditor < len(players):
            players[creditor]["cash"] = players[creditor].get("cash", 0) + share
            rest = amount - share
        if rest and isinstance(bank.get("cash"), (int, float)):
            bank["cash"] += rest
    cur = state.get("current")
    if steps and isinstance(cur, int) and 0 <= cur < len(players):
        players[cur]["position"] = (players[cur].get("position", 0) + steps) % 40
    return dict(state, players=players, bank=bank)


def _card_not_drawn(own: Link, engine: dict, seat: Any, cards: dict | None) -> str | None:
    """The first card's link, when the ruleset's step drew a card after it from a deck the engine left as it was
    (a card moving its drawer onto another card square the engine does not resolve)."""
    drawn = [e for e in own.events if e.get("event") == "card" and e.get("player") == seat]
    if len(drawn) < 2:
        return None
    decks = engine.get("decks") or {}
    first = drawn[0].get("deck")
    if decks.get(first) == (own.before.get("decks") or {}).get(first):
        return None                  # the engine's decks do not show its draws (a card put back on top)
    for e in drawn[1:]:
        deck = e.get("deck")
        if deck in decks and decks[deck] == (own.before.get("decks") or {}).get(deck) \
                and (own.after.get("decks") or {}).get(deck) != decks[deck]:
            cid = str(drawn[0]["card"])
            return f"card {(cards or {}).get(cid, cid)}"
    return None


_STOCK = ("bank.houses", "bank.hotels")
#: Actions that move a token (their own link is where a token was left).
_MOVES = ("roll", "pay_fine", "use_card", "bus", "move_to", "stay")


def _deed_field(path: str) -> bool:
    return path.startswith("properties[") and path.rsplit(".", 1)[-1] in ("houses", "hotel", "mortgaged")


def _management(atoms: list[str]) -> str:
    """The management step a deed's differing buildings or mortgage are the work of."""
    for a in atoms:
        path, _, how = a.partition(" ")
        if not path.startswith("properties["):
            continue
        field = path.rsplit(".", 1)[-1]
        if field == "mortgaged":
            return "mortgage" if how.endswith(">true") else "unmortgage"
        if field == "hotel":
            return "build_hotel" if how.endswith(">true") else "sell_hotel"
        if field == "houses":
            return "build_house" if how == "+" else "sell_house"
    return "management"


def _moved(own: Link, engine: dict, place: list[str], seat: Any, cards: dict | None) -> tuple[str, list[str]]:
    """The link that left the mover elsewhere (or in or out of jail), and the place fields it names: what
    followed from standing elsewhere (a rent, a purchase offer) is not the cause.

    * a roll from jail: ``jail_roll`` (``unmoved`` when the engine left the token where it was);
    * the engine moved the token by the dice, or drew the card the ruleset's move met: the ruleset's next move
      is the cause (the card that moved it further, going to jail);
    * else the move by the dice (``roll``): where the engine's token stands instead."""
    before = own.before
    jail = [a for a in place if atom_path(a) == "players[actor].in_jail"]
    where = [a for a in place if atom_path(a) == "players[actor].position"]
    kind = own.action.get("type")
    if kind == "roll" and _jailed(before, seat):
        if not jail and _position(engine, seat) == _position(before, seat):
            where = ["players[actor].position unmoved"]
        return "jail_roll", jail or where
    dice = own.action.get("dice")
    start = _position(before, seat)
    by_dice = (start + sum(dice[:2])) % 40 if isinstance(start, int) and isinstance(dice, list) and len(dice) >= 2 \
        else None
    drawn = [e for e in own.events if e.get("event") == "card" and e.get("player") == seat]
    met = drawn and (engine.get("decks") or {}).get(drawn[0].get("deck")) != (before.get("decks") or {}).get(
        drawn[0].get("deck"))
    got = _position(engine, seat)
    if kind == "roll" and (got == by_dice or met):
        if drawn:
            cid = str(drawn[0]["card"])
            return f"card {(cards or {}).get(cid, cid)}", jail or where
        if any(e.get("event") == "jailed" for e in own.events):
            return "jailed", jail or where
    if kind == "roll" and by_dice is not None and isinstance(got, int) and got != by_dice:
        # the move by the dice itself: where the token stands against the square the dice lead to
        return "roll", [f"players[actor].position {'+' if (got - by_dice) % 40 < 20 else '-'}"]
    return str(kind), where or jail


def successor(before: dict, links: tuple[Link, ...], engine: dict, compare, roles: sig.Roles,
              context: str = "", seen=None, cards: dict | None = None) -> Cause | None:
    """The cause of a successor difference: the engine's state ``engine`` against the chain ``links`` played
    from ``before`` (see the module docstring); None when they agree on ``compare``. ``seen``: a state as far
    as the engine keeps it (its nested ``compare`` keys); ``cards``: how a link names each card."""
    if not links:
        return None
    seen = seen or (lambda s: s)
    if not sig.diff_atoms(seen(links[-1].after), seen(engine), compare, roles):
        return None
    # open debts count as paid: what a payment moves is its link's effect; that it waits is the flow's
    expected, now = seen(settled(links[-1].after)), seen(settled(engine))
    atoms = sig.diff_atoms(expected, now, compare, roles)
    if not atoms:         # the same payments, one of them waiting: the debt is the flow's difference
        atoms = [a for a in sig.diff_atoms(seen(links[-1].after), seen(engine), compare, roles)
                 if _flow(atom_path(a))] or sig.diff_atoms(seen(links[-1].after), seen(engine), compare, roles)
    seat = roles.actor
    first = next((i for i, link in enumerate(links) if not link.automatic), 0)
    own = links[first]
    skipped = _card_not_drawn(own, engine, seat, cards)
    if skipped is not None:
        # the engine did not draw the card the first one led to: what that card would have done is not this
        # link's, and which card it was is chance
        return Cause("successor", skipped, "decks[next] not drawn", context, words(links, first))
    place = [a for a in atoms if _place(atom_path(a))]
    if place:
        # the last move of the chain left the token where it is (a step has one; a logged turn may have several)
        last = max((i for i, link in enumerate(links) if not link.automatic and link.action.get("type") in _MOVES),
                   default=first)
        name, place = _moved(links[last], engine, place, seat, cards)
        return Cause("successor", name, ", ".join(place), context, words(links, last))
    effect = [a for a in atoms if not _flow(atom_path(a))]
    if not effect:
        name, _ = _own_link(own, seat, (), False, cards)
        return Cause("successor", _flow_link(before, links, seen(links[-1].after), seen(engine), name),
                     ", ".join(atoms), context, words(links))
    feet = [_paths(seen(settled(link.before)), seen(settled(link.after)), compare, roles) for link in links]
    wanted = {atom_path(a) for a in effect}
    alone = wanted - set().union(*feet)
    if alone and any(_deed_field(p) for p in alone) and all(_deed_field(p) or p in _STOCK for p in alone):
        # buildings or a mortgage no link of the ruleset's chain touches: the engine took a management step the
        # ruleset's chain has not (a house built where building is refused); named by that step
        keep = [a for a in effect if _deed_field(atom_path(a)) or atom_path(a) in _STOCK]
        return Cause("successor", _management(keep), ", ".join(keep), context, words(links, first))
    if alone:
        # the engine changed a field no link of the ruleset's chain changes: its own action did more (a salary
        # the ruleset does not pay); the mover's cash goes with it, what later links left undone does not
        i = first
        keep = [a for a in effect if atom_path(a) in alone | feet[i] | {"players[actor].cash"}]
    else:
        # the first link that changes every differing field (a wrong rent, not the GO salary paid on the way
        # there), else the first that changes one of them
        i = next((k for k in range(len(links)) if wanted <= feet[k]),
                 next((k for k in range(len(links)) if wanted & feet[k]), first))
        later = set().union(*feet[i + 1:])
        keep = [a for a in effect if atom_path(a) in feet[i] or atom_path(a) not in later]
    link = links[i]
    if link.automatic:
        name, who = _after_card(link.step, own, seat, cards), _principal(link, seat)
    else:
        mine, theirs = _cash(now, seat, False), _cash(expected, seat, False)
        delta = mine - theirs if isinstance(mine, (int, float)) and isinstance(theirs, (int, float)) else None
        name, who = _own_link(link, seat, [atom_path(a) for a in keep], False, cards, delta)
    if who != seat and isinstance(who, int):     # players named by their part in the link: its winner, its debtor
        mine = sig.Roles(before, {"seat": who}, roles.kinds)
        mine.targets = roles.targets
        paths = {atom_path(a) for a in keep}
        keep = [a for a in sig.diff_atoms(expected, now, compare, mine)
                if atom_path(a.replace("[actor]", "[x]").replace("[other]", "[x]")) in
                {p.replace("[actor]", "[x]").replace("[other]", "[x]") for p in paths}]
    return Cause("successor", name, ", ".join(_decks(keep, own, name, seat)), context, words(links, i))


def context_of(before: dict, action: dict, after: dict | None, moves: bool, squares: dict | None = None) -> str:
    """Where a cause was met, for the listing: the action's type, and for a move what it met (``roll at card
    chest-hospital``, ``roll at jail``)."""
    kind = str(action.get("type"))
    where = sig.step_context(before, after, action, squares) if moves and after is not None else ""
    return f"{kind} at {where}" if where else kind


__all__ = ["Cause", "key", "parse", "identity", "successor", "context_of", "card_names", "atom_path"]
