"""Trace validation: is each transition of an engine's own game log explained by legal actions?

An engine that plays a whole turn in one call cannot answer protocol 1 action by
action, but it can log the states it passes through (``verify.conform.tracelog``,
format ``verify.game-log/1``). For each logged transition this module searches
for a sequence of legal actions of the ruleset that leads from the state before
to the state after, in the manner of TLA+ trace validation: the reference engine
(the step API) plays from the state before, every ``roll`` takes the next dice
the log says were thrown, the cards the log says were drawn are put on top of
their decks, and a reached state explains the transition when it equals the
logged one on every value the log carries and used every throw and draw.

The search is best-first on the number of logged values still different (plus
throws and draws still unused), bounded by ``Budget``: it explores at most
``states`` states and sequences of at most ``actions`` actions. Values the log
does not carry (doubles count, rent claims, deck order, ...) are the
reference's own: the explanations found (up to ``keep``, differing only there)
are where the next transition's search starts. A transition nothing explains is
reported with the closest explanation (the reached state with the fewest
differences) and its diff; the check then goes on from the logged state laid
over that closest state, so one log shows every kind of deviation it holds.
Transitions not explained are grouped by their cause (``cause.py``), as a
step's: the closest explanation's actions played link by link from where it
started, the logged state laid over where it ended, the first link whose
outcome differs.

The actions searched are every finite legal action (``legal_actions``), except
that a building, selling or mortgage action is tried only on a deed whose logged
values it would change (an explanation never touches a deed the log shows as it
was), a bid is tried at the minimum and at the amount the logged cash implies,
and a trade only as the exchange the logged owners and cash imply.
"""

from __future__ import annotations

import copy
import heapq
import itertools
import json
import re
from typing import Any, Iterator

from ..config import EngineConfig
from ..engine.state import GameState
from ..engine.step import IllegalAction, apply_state, enumerate_actions, new_game, rules_for
from ..errors import GameError, Location
from . import ConformInputError
from . import signature as sig
from .cause import card_names, successor
from .chain import STEP_OF, Link, play, words
from .oracle import expect
from .protocol import STATE_KEYS
from .session import load_target
from .trace_report import DEFAULT_BUDGET, Budget, GameCheck, TraceCheck, Unexplained, text
from .tracelog import LoggedGame, Record, read_log

#: actions never part of an explanation: a turn timer the logging engine does not have
SKIPPED = frozenset({"timeout"})
#: management actions on one deed, with the deed's values each changes: tried only where the log
#: shows one of them changed (or does not carry them)
ON_A_DEED = {"build_house": ("houses", "hotel"), "build_hotel": ("houses", "hotel"), "sell_house": ("houses",),
             "sell_hotel": ("houses", "hotel"), "mortgage": ("mortgaged",), "unmortgage": ("mortgaged",),
             "lift_mortgage": ("mortgaged",), "auction_mortgaged": ("owner", "mortgaged")}


# ---- one logged state as the values to reach ------------------------------------------------------

class Target:
    """The values a logged state carries, as (path into a full canonical state, value) pairs.

    ``distance`` counts the values still different, except a deed's buildings: their level (houses,
    or one more than the hotel threshold for a hotel) counts as far as it is from the logged one, so
    that building up to a logged hotel is a way down, not a plateau."""

    def __init__(self, partial: dict, index: dict[int, int], where: Location, hotel_level: int = 5):
        self.leaves: list[tuple[tuple, Any]] = []
        self.deeds: dict[int, list[tuple[str, Any]]] = {}
        self.levels: list[tuple[int, int]] = []        # (index into properties, logged level)
        self.hotel_level = hotel_level
        for key, value in partial.items():
            if key == "players":
                for i, p in enumerate(value):
                    self.leaves += [(("players", i, k), v) for k, v in p.items()]
            elif key == "properties":
                for p in value:
                    s = p["square"]
                    if s not in index:
                        raise ConformInputError(f"square {s} is not a deed of the ruleset's board", where)
                    fields = [(k, v) for k, v in p.items() if k != "square"]
                    self.deeds[s] = fields
                    self.leaves += [(("properties", index[s], k), v) for k, v in fields]
                    if "houses" in p and "hotel" in p:
                        self.levels.append((index[s], self._level(p)))
            elif isinstance(value, dict) and value:
                self.leaves += [((key, k), v) for k, v in value.items()]
            else:
                self.leaves.append(((key,), value))
        graded = {i for i, _ in self.levels}
        self.plain = [(path, v) for path, v in self.leaves
                      if not (path[0] == "properties" and path[1] in graded and path[2] in ("houses", "hotel"))]
        self.partial = partial

    def _level(self, deed: dict) -> int:
        return self.hotel_level if deed.get("hotel") else int(deed.get("houses") or 0)

    def misses(self, full: dict) -> list[tuple[tuple, Any, Any]]:
        out = []
        for path, want in self.leaves:
            got = _get(full, path)
            if got != want:
                out.append((path, got, want))
        return out

    def distance(self, full: dict) -> int:
        d = sum(1 for path, want in self.plain if _get(full, path) != want)
        props = full["properties"]
        return d + sum(abs(self._level(props[i]) - want) for i, want in self.levels)

    def deed_done(self, full: dict, index: dict[int, int], square: int, keys: tuple = ()) -> bool:
        """The log carries these values of the deed (all it carries when ``keys`` is empty) and the
        state already shows them as logged."""
        fields = self.deeds.get(square)
        if fields is None:
            return False
        logged = dict(fields)
        if any(k not in logged for k in keys):
            return False
        have = full["properties"][index[square]]
        return all(have.get(k) == logged[k] for k in keys or logged)


_MISSING = object()


def _get(doc: Any, path: tuple) -> Any:
    for p in path:
        try:
            doc = doc[p]
        except (KeyError, IndexError, TypeError):
            return _MISSING
    return doc


# ---- the check ---------------------------------------------------------------------------------------

class Checker:
    """Checks the games of a log against one compiled ruleset."""

    def __init__(self, config: EngineConfig, budget: Budget = DEFAULT_BUDGET):
        self.config = config
        self.rules = rules_for(config)
        self.ownable = self.rules.t.ownable
        self.index = {s: i for i, s in enumerate(self.ownable)}
        self.budget = budget
        self.card_ids = {"chance": {c.id for c in config.cards.chance}, "chest": {c.id for c in config.cards.chest}}
        self.groups = [tuple(g.squares) for g in config.board.groups]
        self.jail_ids = {"chance": [c.id for c in config.cards.chance if c.effect == "jail_free"],
                         "chest": [c.id for c in config.cards.chest if c.effect == "jail_free"]}
        self.fresh_turn = new_game(config, config.setup.players_min, 0).get("turn")
        self.kinds = {d.square: d.kind for d in config.board.deeds}
        self.cards = card_names(config)

    def check_game(self, game: LoggedGame, number: int, file: str) -> GameCheck:
        header = game.header
        out = GameCheck(number, game.line, str(header["engine"]))
        first = game.records[0]
        where = Location(file, first.line)
        n = len(first.state["players"])
        try:
            base = new_game(self.config, n, int(header.get("seed", 0)))
        except GameError as exc:
            raise ConformInputError(f"the ruleset cannot start a game of {n} players: {exc.message}", where) from None
        target = self._target(first.state, where)
        if header.get("new_game"):
            misses = [m for m in target.misses(base) if not self._drawn_at_setup(m[0])]
            if misses:
                out.unexplained.append(Unexplained(
                    number, first.line, first.label or "setup", [], [], [], self._diff(misses, "setup"), len(misses),
                    0, True, "setup: " + self._signature(misses, first, [], None, "", [])))
        frontier = [self._laid_over(base, first.state, where)]
        for rec in game.records[1:]:
            where = Location(file, rec.line)
            self._check_draws(rec, where)
            out.transitions += 1
            frontier, miss = self._transition(frontier, rec, where, number)
            if miss is not None:
                out.unexplained.append(miss)
        return out

    # ---- one transition ------------------------------------------------------------------------------
    def _transition(self, frontier: list[dict], rec: Record, where: Location,
                    number: int) -> tuple[list[dict], Unexplained | None]:
        target = self._target(rec.state, where)
        rolls = [list(d) for d in rec.dice]
        cards = [(c["deck"], c["card"]) for c in rec.cards]
        roots, reason = [], ""
        for state in frontier:
            stacked, why = self._stack(state, cards)
            roots.append(stacked)
            reason = reason or why
        goals, closest, searched, complete = self._search(roots, target, rolls, cards)
        if goals and not reason:
            return [full for full, *_ in goals], None
        best = closest if not goals else goals[0]
        full, used_d, used_c, actions, landed, root = best
        misses = target.misses(full)
        diff = self._diff(misses, "explained")
        if used_d < len(rolls):
            diff.append(f"dice: explained uses {used_d} of the {len(rolls)} logged throw(s); "
                        f"unused: {', '.join('+'.join(map(str, r)) for r in rolls[used_d:])}")
        if used_c < len(cards):
            diff.append(f"cards: explained draws {used_c} of the {len(cards)} logged card(s); "
                        f"not drawn: {', '.join(c for _, c in cards[used_c:])}")
        unused = (" + unused throws" if used_d < len(rolls) else "") + (" + undrawn cards" if used_c < len(cards) else "")
        mover = frontier[0]["current"]
        chain_words = ""
        if frontier[0]["players"][mover]["bankrupt"]:
            sig = "a bankrupt player's turn"       # whatever it does, the ruleset gives it no turn
        else:
            sig, chain_words = self._cause(root.to_json(self.ownable), actions, full, rec, where, mover, unused)
        if reason:
            sig = reason if not misses else f"{reason} + {sig}"
        miss = Unexplained(number, rec.line, rec.label, rolls, [c for _, c in cards], actions, diff,
                           len(misses) + (len(rolls) - used_d) + (len(cards) - used_c), searched, complete, sig,
                           reason, chain_words)
        return [self._laid_over(full, rec.state, where, settle=True)], miss

    def _stack(self, state: dict, cards: list[tuple[str, str]]) -> tuple[dict, str]:
        """``state`` with the logged draws on top of their decks; the reason when one is not in its deck."""
        out = copy.deepcopy(state)
        reason = ""
        for deck in ("chance", "chest"):
            wanted = [c for d, c in cards if d == deck]
            if not wanted:
                continue
            pile, discards = out["decks"][deck], out.setdefault("discards", {}).setdefault(deck, [])
            for cid in wanted:
                if cid in pile:
                    pile.remove(cid)
                elif cid in discards:
                    discards.remove(cid)
                elif not reason:
                    held = [p["seat"] for p in out["players"] if deck in p["jail_cards"]]
                    reason = (f"card {cid} drawn while not in the {deck} deck"
                              + (f" (seat {held[0]} holds it)" if held else ""))
            out["decks"][deck] = wanted + pile
        return out, reason

    def _search(self, roots: list[dict], target: Target, rolls: list, cards: list) -> tuple:
        """Best-first search: (explanations, closest, states expanded, whether the bounds were exhausted)."""
        rules, ownable = self.rules, self.ownable
        budget = self.budget
        tie = itertools.count()
        heap: list = []
        seen: set = set()
        best = None
        for root in roots:
            g = rules.from_json(root)
            node = (g, 0, 0, None, None)
            d = target.distance(root) + len(rolls) + len(cards)
            key = (json.dumps(root, sort_keys=True), 0, 0)
            if key in seen:
                continue
            seen.add(key)
            heapq.heappush(heap, (d, 0, next(tie), node, root, d))
            if best is None or (d, 0, 0) < best[0]:
                best = ((d, 0, 0), 0, node, root)
        goals: list = []
        expanded = 0
        stop_at = budget.states
        while heap and expanded < stop_at and len(goals) < budget.keep:
            _, depth, _, node, full, d = heapq.heappop(heap)
            if d == 0:
                goals.append(node + (full,))
                stop_at = min(stop_at, expanded + 25)     # a few more, differing in what the log does not carry
                continue
            if depth >= budget.actions:
                continue
            expanded += 1
            g, used_d, used_c = node[0], node[1], node[2]
            for action in self._actions(g, full, target, rolls, used_d):
                child = g.copy()
                child.events = []
                try:
                    apply_state(rules, child, action)
                except (IllegalAction, GameError, IndexError, KeyError, TypeError, ValueError):
                    continue
                cd, cc = used_d + (action["type"] == "roll"), used_c
                ok = True
                for e in child.events:
                    if e.get("event") == "card":
                        if cc >= len(cards) or (e.get("deck"), e.get("card")) != cards[cc]:
                            ok = False
                            break
                        cc += 1
                    elif e.get("event") == "card_throw":
                        if cd >= len(rolls) or rolls[cd] != e.get("dice"):
                            ok = False
                            break
                        cd += 1
                if not ok:
                    continue
                child.events = None
                cfull = child.to_json(ownable)
                key = (json.dumps(cfull, sort_keys=True), cd, cc)
                if key in seen:
                    continue
                seen.add(key)
                cdist = target.distance(cfull) + (len(rolls) - cd) + (len(cards) - cc)
                if "card_dice" in action and cd == used_d + 1:     # no card throw: the field played no part
                    action = {k: v for k, v in action.items() if k != "card_dice"}
                cnode = (child, cd, cc, node, action)
                heapq.heappush(heap, (cdist + budget.weight * (depth + 1), depth + 1, next(tie), cnode, cfull, cdist))
                rank = (cdist, -cd - cc, depth + 1)     # the fewest differences, the most of the log used
                if rank < best[0]:
                    best = (rank, depth + 1, cnode, cfull)
        complete = not heap and expanded < budget.states
        return [self._unwind(n) for n in goals], self._unwind(best[2] + (best[3],)), expanded, complete

    @staticmethod
    def _unwind(node: tuple) -> tuple[dict, int, int, list[dict], list[int]]:
        """(the state reached, throws used, draws used, the actions, where each roll left the roller)."""
        g, used_d, used_c, parent, action, full = node
        actions, landed = [], []
        n = node
        while n is not None and n[4] is not None:
            actions.append(n[4])
            if n[4]["type"] == "roll":
                landed.append(n[0].pos[n[4]["seat"]])
            n = n[3]
        return full, used_d, used_c, actions[::-1], landed[::-1], n[0]

    def _actions(self, g: GameState, full: dict, target: Target, rolls: list, used: int) -> Iterator[dict]:
        for a in enumerate_actions(self.rules, g):
            kind = a["type"]
            if kind in SKIPPED:
                continue
            if kind == "roll":
                if used >= len(rolls):
                    continue
                a = dict(a, dice=rolls[used])
                if used + 1 < len(rolls):     # the nearest-utility card's own throw, if the move draws it
                    a["card_dice"] = rolls[used + 1]
            elif kind in ON_A_DEED and target.deed_done(full, self.index, a["square"], ON_A_DEED[kind]):
                continue
            elif kind == "sell_group" and all(target.deed_done(full, self.index, s) for s in self.groups[a["group"]]):
                continue
            elif kind == "bid":
                yield from self._bids(g, a, target)
                continue
            yield a
        yield from self._trades(full, target)

    def _bids(self, g: GameState, a: dict, target: Target) -> Iterator[dict]:
        """The bid the logged cash implies (what the winner paid) instead of the minimum one listed; a
        seat whose logged cash did not go down only passes. Without the seat's cash logged: the minimum."""
        seat = a["seat"]
        want = dict(target.leaves).get(("players", seat, "cash"))
        if not isinstance(want, (int, float)):
            yield a
        elif g.cash[seat] - want >= a["amount"]:
            yield dict(a, amount=int(g.cash[seat] - want))

    def _trades(self, full: dict, target: Target) -> Iterator[dict]:
        """The exchange the logged owners imply between two seats: without cash, and with the cash
        difference either side's logged cash implies (other payments of the turn may blur one of them)."""
        moves: dict[tuple[int, int], list[int]] = {}
        for s, fields in target.deeds.items():
            want = dict(fields).get("owner", _MISSING)
            have = full["properties"][self.index[s]]["owner"]
            if want is not _MISSING and want is not None and have is not None and want != have:
                moves.setdefault((have, want), []).append(s)
        cash = dict(target.leaves)
        for (p, q) in sorted({tuple(sorted(k)) for k in moves}):
            give, take = moves.get((p, q), []), moves.get((q, p), [])
            deltas = {0}
            for seat, sign in ((p, 1), (q, -1)):
                want = cash.get(("players", seat, "cash"))
                if isinstance(want, (int, float)):
                    deltas.add(sign * int(want - full["players"][seat]["cash"]))
            for delta in sorted(deltas):
                a = {"type": "trade", "seat": p, "with": q, "give": {"squares": give}, "take": {"squares": take}}
                if delta > 0:
                    a["take"]["cash"] = delta
                elif delta < 0:
                    a["give"]["cash"] = -delta
                yield a

    def _cause(self, start: dict, actions: list[dict], full: dict, rec: Record, where: Location, mover: int,
               unused: str) -> tuple[str, str]:
        """The cause of a transition nothing explains, as a step's: the closest explanation's actions played link
        by link from where it started (each the ruleset's, with its events), the logged state laid over where it
        ended; the first link whose outcome differs, named by its step, with the fields the log shows different
        and how (``mover`` the player whose turn it was). Throws or draws the log has and the explanation does not
        use are named after it. Returns the cause and the chain in words."""
        links, state = [], start
        for a in actions:
            out = play((), expect, self.config, state, a)
            if out[0] != "state":
                break
            link = out[4][-1]
            # a move or a decision of the player is a link of its own; what the ruleset has follow it (a claim, the
            # turn's end, a payment) is named by its step
            links.append(link if not links or a["type"] not in STEP_OF else
                         Link(STEP_OF[a["type"]], a, link.before, link.after, link.events, True))
            state = out[1]
        logged = self._laid_over(full, rec.state, where)
        if not links:
            links = [Link("roll", {"type": "roll", "seat": mover}, start, start)]
        roles = sig.Roles(start, dict(links[0].action, seat=mover), self.kinds)
        cause = successor(start, tuple(links), logged, STATE_KEYS, roles, cards=self.cards)
        text = cause.key if cause is not None else "successor at " + links[0].step
        return text + unused, cause.chain if cause is not None else words(tuple(links))

    # ---- bad input, diffs and signatures ---------------------------------------------------------------
    def _drawn_at_setup(self, path: tuple) -> bool:
        """A value a new game draws at random (the decks, who starts, deeds dealt): the log's is as good as
        the reference's."""
        setup = self.config.setup
        return (path[0] in ("decks", "discards", "seed", "shuffles")
                or path[0] == "current" and setup.first_player != "seat_order"
                or path[0] == "properties" and path[-1] == "owner" and (setup.dealt_per_player or setup.dealt_all))

    def _target(self, partial: dict, where: Location) -> Target:
        return Target(partial, self.index, where, self.config.building.hotel_threshold + 1)

    def _check_draws(self, rec: Record, where: Location) -> None:
        for c in rec.cards:
            if c["card"] not in self.card_ids[c["deck"]]:
                known = ", ".join(sorted(self.card_ids[c["deck"]]))
                raise ConformInputError(f"card {c['card']!r} is not in the ruleset's {c['deck']} deck "
                                        f"(its cards: {known})", where)

    def _laid_over(self, full: dict, partial: dict, where: Location, settle: bool = False) -> dict:
        """``full`` with every value ``partial`` logs; the bank's stock follows the board when not logged.

        ``settle``: ``full`` is a closest explanation, possibly in the middle of a turn (a debt, an
        auction); when the log says the game is at rest (before or after a roll, or over), what was in
        progress is dropped (a logged start of turn also starts the turn afresh) before the logged
        values are laid over it."""
        out = copy.deepcopy(full)
        players = out["players"]
        phase = partial.get("phase")
        if settle and phase in ("pre_roll", "post_roll", "over"):
            out["pending"] = None
            out["queue"] = dict(out.get("queue") or {}, debts=[], auctions=[])
            if phase == "pre_roll":
                out["turn"] = copy.deepcopy(self.fresh_turn)
                for p in players:
                    p["doubles"] = 0
        if len(partial["players"]) != len(players):
            raise ConformInputError(f"the state lists {len(partial['players'])} players, the game "
                                    f"{len(players)}", where)
        for i, p in enumerate(partial["players"]):
            players[i].update(p)
        for p in partial.get("properties", []):
            out["properties"][self.index[p["square"]]].update(p)
        for key, value in partial.items():
            if key in ("players", "properties"):
                continue
            if isinstance(value, dict) and isinstance(out.get(key), dict):
                out[key].update(copy.deepcopy(value))
            else:
                out[key] = copy.deepcopy(value)
        if "decks" not in partial:       # a jail card a player holds is out of its deck
            for deck in ("chance", "chest"):
                held = sum(p["jail_cards"].count(deck) for p in players)
                for cid in self.jail_ids[deck]:
                    for pile in (out["decks"][deck], out.get("discards", {}).get(deck, [])):
                        while held and cid in pile:
                            pile.remove(cid)
                            held -= 1
        bank = partial.get("bank", {})
        for kind, supply, count in (("houses", full["bank"]["houses"], lambda d: 0 if d["hotel"] else d["houses"]),
                                    ("hotels", full["bank"]["hotels"], lambda d: 1 if d["hotel"] else 0)):
            if kind not in bank and supply is not None:
                before = sum(count(d) for d in full["properties"])
                out["bank"][kind] = supply + before - sum(count(d) for d in out["properties"])
        try:
            GameState.from_json(out, self.ownable)
        except (GameError, KeyError, TypeError, ValueError) as exc:
            msg = exc.message if isinstance(exc, GameError) else f"{type(exc).__name__}: {exc}"
            raise ConformInputError(f"a state the reference engine cannot hold: {msg}", where) from None
        return out

    def _diff(self, misses: list, left: str) -> list[str]:
        return [f"{_label(path, self.ownable)}: {left} {_show(got)}, logged {_show(want)}"
                for path, got, want in misses]

    def _signature(self, misses: list, rec: Record, cards: list[tuple[str, str]], mover: int | None,
                   unused: str, landed: list[int]) -> str:
        """What kind of deviation a transition shows: the values that differ, the player's role (the
        mover, whose turn it was, or another) instead of its seat and "a deed" instead of its square;
        where the mover's throws took it (the squares' kinds, along the closest explanation) and, when
        it ends on a card square or elsewhere than logged, the cards drawn (the id without a copy number).
        A mover standing elsewhere than logged is named alone: what follows from it (rent, a purchase)
        would only split one deviation by where it led; so is another player than logged moving next.
        Throws or draws the closest explanation leaves unused are named last."""
        def role(path: tuple) -> str:
            if path[0] == "players" and len(path) > 2:
                return f"{'mover' if path[1] == mover else 'other'}.{path[2]}"
            if path[0] == "properties" and len(path) > 2:
                return f"deed.{path[2]}"
            return _label(path, self.ownable)
        names = {role(p) for p, _, _ in misses}
        if "mover.position" in names:
            names = {n for n in names if n in ("mover.position", "mover.in_jail", "current", "phase")}
        text = ", ".join(sorted(names))
        kinds: list[str] = []
        if names == {"current"} and not unused:     # who plays next: where the mover stands is by the way
            return text
        squares = self.config.board.squares
        if mover is not None:
            pos = rec.state["players"][mover].get("position")
            if "mover.position" in names or not landed:     # where the engine put it
                landed = [pos] if isinstance(pos, int) and 0 <= pos < len(squares) else []
            kinds = sorted({squares[s] for s in landed})
            text += f" at {', '.join(kinds)}" if kinds else ""
        if {"chance", "chest"} & set(kinds) or "mover.position" in names:    # a card that may be the cause
            drawn = sorted({re.sub(r"-\d+$", "", c) for _, c in cards})
            text += f" after {', '.join(drawn)}" if drawn else ""
        return text + unused


def _label(path: tuple, ownable: tuple) -> str:
    text = ""
    for i, p in enumerate(path):
        if path[0] == "properties" and i == 1:
            text += f"[square {ownable[p]}]"
        elif isinstance(p, int) or p == "[]":
            text += f"[{'' if p == '[]' else p}]"
        else:
            text += f".{p}" if text else str(p)
    return text


def _show(v: Any) -> str:
    if v is _MISSING:
        return "(missing)"
    text = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= 60 else text[:60] + "…"


def check_log(path: str, ruleset: str = "official", settings: dict | None = None,
              budget: Budget = DEFAULT_BUDGET) -> TraceCheck:
    """Check every game of the log at ``path`` against ``ruleset`` (with ``settings`` supplied)."""
    config, _ = load_target(ruleset, settings)
    checker = Checker(config, budget)
    result = TraceCheck(str(path), ruleset, dict(settings or {}), budget)
    for number, game in enumerate(read_log(path), start=1):
        result.games.append(checker.check_game(game, number, str(path)))
    return result


__all__ = ["Budget", "Checker", "GameCheck", "TraceCheck", "Unexplained", "check_log", "text"]
