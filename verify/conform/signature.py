"""The words a deviation's cause is made of, read off the step that broke (``cause.py`` puts them together).

A cause names players by their part in the step (``actor``, ``other``), deeds
as ``target`` (named by the action) or by kind (``street``, ``railroad``,
``utility``), and the fields that differ and how: ``players[actor].cash +``
(the engine's value is higher), ``phase "pre_roll">"post_roll"`` (an
enumerated value: the ruleset's, then the engine's), ``decks.chance order``.
A refusal's reason is kept without what varies from one occurrence to the
next (amounts, seats, deed names), a guard's by its template. Causes met on
several cards alike are one of any card (``generalize``: ``card *``), which a
baseline's ``card *`` accepts (``matches``). Every text is a function of the
step alone: stable across runs and machines.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, Iterable

from ..config.model import SQUARES

#: Optional keys inside a compared value: compared only when the engine reports them.
OPTIONAL_FIELDS = {("bank", "cash"), ("properties", "interest_paid")}
#: Keys whose value is a seat (or null / -1 for nobody, the bank).
SEAT_KEYS = frozenset({"current", "owner", "player", "leader", "debtor", "creditor", "winner", "seat", "with"})
#: Keys holding a seat inside ``pending`` only (``turn`` is a dict at the top level).
PENDING_SEAT_KEYS = frozenset({"turn"})
#: Longest reason text kept in a signature.
REASON_CHARS = 120
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_SPACE = re.compile(r"\s+")
_PREFIX = re.compile(r"^[a-z_]+ by seat \S+ refused in phase \S+: ")


def acting_seat(state: dict, action: dict) -> int | None:
    """The seat acting in ``action`` on ``state`` (the action's ``seat``, else whoever is awaited)."""
    seat = action.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        return seat
    pend = state.get("pending") or {}
    phase = state.get("phase")
    if phase == "debt" and "debtor" in pend:
        return pend["debtor"]
    if phase == "auction" and pend.get("turn") is not None:
        return pend["turn"]
    if "player" in pend:
        return pend["player"]
    return state.get("current")


def action_squares(action: dict) -> set:
    out = set()
    if isinstance(action.get("square"), int):
        out.add(action["square"])
    for side in ("give", "take"):
        s = action.get(side)
        if isinstance(s, dict):
            out.update(x for x in s.get("squares", []) if isinstance(x, int))
    return out


_FIELD = re.compile(r"\{[^{}]*\}")


@lru_cache(maxsize=4096)
def template_key(template: str) -> str:
    """A refusal's template (``verify.engine.reasons``) with its placeholders as ``#``: the guard's identity."""
    return _FIELD.sub("#", template)


def reason_key(reason: Any, names: Iterable[str] = ()) -> str:
    """A refusal's reason without what varies from one occurrence to the next: the harness's prefix
    (action, seat, phase), deed names, numbers."""
    text = _SPACE.sub(" ", str(reason)).strip()
    text = _PREFIX.sub("", text)
    for name in sorted(names, key=len, reverse=True):
        if name and name in text:
            text = text.replace(name, "<deed>")
    text = _NUMBER.sub("#", text)
    return text[:REASON_CHARS]


class Roles:
    """How a step names players and deeds in a signature."""

    def __init__(self, state: dict, action: dict, kinds: dict[int, str] | None = None):
        self.actor = acting_seat(state, action)
        self.targets = action_squares(action)
        self.kinds = kinds or {}

    def seat(self, value: Any) -> str:
        if value is None or value == -1:
            return "nobody" if value is None else "bank"
        if isinstance(value, int) and not isinstance(value, bool):
            return "actor" if value == self.actor else "other"
        return _short(value)

    def square(self, square: Any) -> str:
        if square in self.targets:
            return "target"
        return self.kinds.get(square, "deed")


def _short(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text if len(text) <= 40 else text[:40] + "…"


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def diff_atoms(expected: Any, actual: Any, keys: Iterable[str], roles: Roles) -> list[str]:
    """The differences between the ruleset's and the engine's state on ``keys`` as signature atoms
    (sorted, each once): ``path +``/``path -`` for numbers, ``path A>B`` for other scalars,
    ``path order``/``path longer``/``path shorter`` for lists, ``path missing``/``path extra`` for keys."""
    atoms: set[str] = set()

    def walk(a: Any, b: Any, path: str, top: str, key: str) -> None:
        if a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for k in a.keys() | b.keys():
                if k not in b and (top, k) in OPTIONAL_FIELDS:
                    continue
                sub = f"{path}.{k}"
                if k not in b:
                    atoms.add(f"{sub} missing")
                elif k not in a:
                    atoms.add(f"{sub} extra")
                else:
                    walk(a[k], b[k], sub, top, k)
            return
        if isinstance(a, list) and isinstance(b, list) and key in ("players", "properties") and len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b)):
                if key == "players":
                    label = roles.seat(i)
                else:
                    label = roles.square(x.get("square") if isinstance(x, dict) else i)
                walk(x, y, f"{path}[{label}]", top, "")
            return
        if key in SEAT_KEYS or (top == "pending" and key in PENDING_SEAT_KEYS):
            ra, rb = roles.seat(a), roles.seat(b)
            if ra == rb == "other":         # two players other than the actor: which ones is not the point
                rb = "another"
            atoms.add(f"{path} {ra}>{rb}" if ra != rb else f"{path} {_short(a)}>{_short(b)}")
            return
        if _number(a) and _number(b):
            ahead = (b - a) % SQUARES < SQUARES // 2 if key == "position" else b > a   # a token goes round the board
            atoms.add(f"{path} {'+' if ahead else '-'}")
            return
        if isinstance(a, list) and isinstance(b, list):
            atoms.add(f"{path} {'order' if len(a) == len(b) else ('longer' if len(b) > len(a) else 'shorter')}")
            return
        atoms.add(f"{path} {_short(a)}>{_short(b)}")

    for k in keys:
        a, b = (expected or {}).get(k), (actual or {}).get(k)
        walk(a, b, k, k, k)
    return sorted(atoms)


#: Squares that name the rule a move met (a landing on these is part of a successor's signature).
NAMED_SQUARES = frozenset({"go", "go_to_jail", "income_tax", "luxury_tax", "free_parking"})


def step_context(before: dict, after: dict, action: dict, kinds: dict[int, str] | None = None) -> str:
    """What rules a move met, in the ruleset's step: ``jail`` when the actor rolled from jail, ``to jail``
    when the step sent it there, the card drawn (``card chance-back-3``), else the named square the actor
    landed on (``square income_tax``); "" for any other step. It keeps apart deviations that differ in
    the same fields (a card paying too much, a tax paying too little)."""
    seat = acting_seat(before, action)
    try:
        old, new = before["players"][seat], after["players"][seat]
        was, now = old["position"], new["position"]
    except (KeyError, IndexError, TypeError):
        return ""
    parts = []
    if old.get("in_jail"):
        parts.append("jail")
    elif new.get("in_jail"):
        parts.append("to jail")
    for deck in ("chance", "chest"):
        top = (before.get("decks") or {}).get(deck) or []
        if top and ((after.get("decks") or {}).get(deck) or []) != top:
            parts.append(f"card {top[0]}")
            break
    else:
        kind = (kinds or {}).get(now)
        if now != was and kind in NAMED_SQUARES:
            parts.append(f"square {kind}")
    return ", ".join(parts)


#: Distinct cards (or named squares) a deviation must be met on to be one of every card, not of each.
ANY_OF = 3
_PLACE = re.compile(r"(card|square) [^,:]+")
_CARD = re.compile(r"card ([^,:]+)")


def generalize(counts: dict[str, int], drawn: Iterable[str] | None = None) -> dict[str, str]:
    """Deviations that differ only in the card drawn (or the named square landed on), met on ``ANY_OF`` or
    more of them, are one deviation of every card: each such signature mapped to its general form, the
    card written ``card *`` (a card put back on top of its deck is one bug, whichever card it was).
    ``drawn``: the cards the run drew (``chance-go``, ...); when given, a deviation is one of every card
    only if it was also met on at least half of the cards drawn from its decks: a bug of every card shows
    on nearly every card drawn, while cards that each pay wrongly in the same direction (a card charging
    too little, another paying GO on the way back) stay apart."""
    groups: dict[str, list[str]] = {}
    for s in counts:
        head, _, detail = s.partition(": ")
        general = _PLACE.sub(lambda m: f"{m.group(1)} *", head)
        if general != head:
            groups.setdefault(f"{general}: {detail}", []).append(s)
    cards = set(drawn) if drawn is not None else None
    out: dict[str, str] = {}
    for g, members in groups.items():
        need = ANY_OF
        met = {c for s in members for c in _CARD.findall(s.partition(": ")[0])}
        if cards is not None and met:
            decks = {c.split("-")[0] for c in met}
            need = max(need, -(-len({c for c in cards | met if c.split("-")[0] in decks}) // 2))
        if len(members) >= need:
            out.update((s, g) for s in members)
    return out


def matches(pattern: str, sig: str) -> bool:
    """Whether ``sig`` is ``pattern`` or an instance of it (``card *`` standing for any card)."""
    if pattern == sig:
        return True
    if "*" not in pattern:
        return False
    head, _, detail = sig.partition(": ")
    return _PLACE.sub(lambda m: f"{m.group(1)} *", head) + (": " + detail if detail or ": " in sig else "") == pattern


__all__ = ["Roles", "acting_seat", "action_squares", "reason_key", "template_key", "diff_atoms", "step_context",
           "generalize", "matches"]
