"""The USC/ISI GNOME Monopoly simulator as an in-process protocol-1 engine.

    verify conform --engine verify.conform.adapters.gnome:GnomeEngine --ruleset official

GNOME (PyPI ``monopoly-simulator-test`` 0.0.9) plays whole games: its loop
(``gameplay.simulate_game_instance``) gives, each turn, the current player a
pre-roll phase and the others out-of-turn phases, rolls, moves, resolves the
square, gives the current player a post-roll phase, then bankrupts the player
if its cash is still negative. The adapter drives that turn one action at a
time, calling GNOME's own rule code for every action and deciding nothing
itself:

* a management action (build, sell, mortgage, unmortgage, trade, jail exit) is
  the ``action_choices`` function GNOME's agents call, allowed in the phase
  GNOME would ask that player in (before the roll: pre-roll for the current
  player, out-of-turn for the others; after it: post-roll, current player
  only), and only if it is among the actions GNOME itself lists as allowable
  there (``Player.compute_allowable_*_actions``); GNOME's failure code is a
  refusal, with GNOME's own log line as the reason;
* ``roll`` is the loop's roll with the action's dice (``roll_die`` with each die
  showing that face), then its move and ``process_move_consequences``, or,
  for a jailed player, its release without a move;
* ``buy`` is ``buy_property``; ``decline`` is ``_force_buy_outcome`` with the
  agent answering no, which starts GNOME's ``Bank.auction``; ``bid``/``pass``
  answer the bidder it asks (see gnome_agent);
* ``end_turn`` is the rest of the loop's turn: the negative-cash check and
  bankruptcy, the next player, the runaway-cash termination check.

Not modelled: the order of GNOME's phases inside the turn before the roll and
their caps (4 actions a phase, 6 out-of-turn phases a turn) - loop limits of
its driver - and its offers to sell a single property (no canonical action).
GNOME keeps no dice doubles, jail tries, GO-passed flag, clock, rounds,
missed turns or deck order: those canonical facts are carried from the loaded
state (the deck is the adapter's record of which card GNOME must draw), and
``compare`` declares only what GNOME maintains.
"""

from __future__ import annotations

import copy
import json
import logging
import weakref
from typing import Any

from ...config import EngineConfig
from .. import Illegal, Unsupported
from ...errors import AdapterError
from .gnome_agent import BidQuestion, Channel, Puppet, Runner
from .gnome_board import (CARD_NAMES, JAIL_FREE, PACKS, gnome, gnome_version, load_state, money, new_board,
                          read_bank, read_players, read_properties, seat_of)

PROTOCOL = 1
SCHEMA = "verify.state/1"
#: the action types the adapter drives through GNOME
ACTIONS = ("roll", "buy", "decline", "bid", "pass", "end_turn", "build_house", "build_hotel", "sell_house",
           "sell_hotel", "mortgage", "unmortgage", "trade", "pay_fine", "use_card")
#: the state keys GNOME maintains (the rest are carried from the loaded state): of a player its cash, square, jail,
#: jail cards and bankruptcy (GNOME counts no doubles, jail tries or GO passes); of a deed its owner, mortgage and
#: buildings (no mortgage age, no transfer interest)
COMPARE = ("schema", "current", "phase", "players.cash", "players.position", "players.in_jail", "players.jail_cards",
           "players.bankrupt", "properties.owner", "properties.mortgaged", "properties.houses", "properties.hotel",
           "bank")
#: the phases a loaded state may be in (GNOME has no debt in progress: it charges at once and lets cash go
#: negative until the end of the turn); a load it cannot hold (another phase, an auction standing its
#: fixed bidding turn cannot reach) is answered ``unsupported``
LOADABLE = ("pre_roll", "post_roll", "buy", "auction", "over")
#: what GNOME does on its own where the ruleset has a player decide: rent is taken on landing
AUTOMATIC = ("rent_at_once",)
#: action type -> (GNOME's action name, the call)
_MANAGE = {
    "build_house": ("improve_property", lambda g, p, a, gb: g.actions.improve_property(p, a, gb, True, False)),
    "build_hotel": ("improve_property", lambda g, p, a, gb: g.actions.improve_property(p, a, gb, False, True)),
    "sell_house": ("sell_house_hotel", lambda g, p, a, gb: g.actions.sell_house_hotel(p, a, gb, True, False)),
    "sell_hotel": ("sell_house_hotel", lambda g, p, a, gb: g.actions.sell_house_hotel(p, a, gb, False, True)),
    "mortgage": ("mortgage_property", lambda g, p, a, gb: g.actions.mortgage_property(p, a, gb)),
    "unmortgage": ("free_mortgage", lambda g, p, a, gb: g.actions.free_mortgage(p, a, gb)),
}


class _GnomeLog(logging.Handler):
    """GNOME explains each refusal in a debug line; the adapter keeps the lines of the action applied."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if self.lines is not None:
            self.lines.append(record.getMessage())


_LOG = _GnomeLog()


def _gnome_logger() -> logging.Logger:
    log = logging.getLogger("monopoly_simulator")
    if _LOG not in log.handlers:
        log.addHandler(_LOG)
        log.propagate = False      # GNOME logs every step; it is the adapter's to read, not the user's
        log.setLevel(logging.WARNING)
    return log


def _reason(lines: list[str]) -> str:
    for line in reversed(lines):
        if "failure code" in line.lower() or "cannot" in line.lower() or "not " in line.lower():
            text = line.strip()
            for tail in (" Returning failure code", "...Returning failure code", ". Returning failure code"):
                text = text.replace(tail, "")
            return f"GNOME: {text.strip().rstrip('.')}"
    return "GNOME returned its failure code"


class GnomeEngine:
    """GNOME behind protocol 1 (``hello``, ``load``, ``apply``, ``state``)."""

    name = "gnome"
    #: the action types this class declares (the narrower classes below declare part of them)
    actions = ACTIONS

    def __init__(self) -> None:
        self._g = gnome()                      # a clear error here when GNOME is not installed
        self._gb: dict | None = None
        self._channel = Channel()
        self._config: tuple[dict, EngineConfig] | None = None   # the last config read (loads mostly repeat it)
        weakref.finalize(self, _abort, self._channel)

    # ---- protocol ------------------------------------------------------------------------------
    def hello(self) -> dict:
        return {"engine": "GNOME (USC/ISI monopoly-simulator-test)", "version": gnome_version(),
                "protocol": PROTOCOL, "actions": list(self.actions), "compare": list(COMPARE),
                "phases": list(LOADABLE), "automatic": list(AUTOMATIC)}

    def load(self, config: dict, state: dict) -> None:
        _abort(self._channel)
        if self._config is None or (config is not self._config[0] and config != self._config[0]):
            self._config = (config, EngineConfig.from_json(config))
        cfg = self._config[1]
        phase = state.get("phase")
        if phase not in LOADABLE:
            raise Unsupported(f"GNOME has no counterpart of phase {phase!r} (it can hold {', '.join(LOADABLE)}): "
                               "it charges a debt at once and lets cash go negative")
        self._ownable = tuple(d.square for d in cfg.board.deeds)
        self._jail_ids = {deck: next((cid for cid, name in CARD_NAMES[deck].items() if name == JAIL_FREE), None)
                          for deck in PACKS}
        n = len(state["players"])
        gb = new_board(n, lambda i: Puppet(self._channel, self._g.success))
        load_state(gb, state, self._ownable)
        self._gb = gb
        self._base = json.loads(json.dumps(state))      # a deep copy (of JSON data: faster than deepcopy)
        self._carried = [dict(p) for p in state["players"]]
        self._positions = [int(p["position"]) for p in state["players"]]
        self._props = {p["square"]: dict(p) for p in state["properties"]}
        decks = state.get("decks", {})
        self._piles = {"chance": list(decks.get("chance", [])), "chest": list(decks.get("chest", []))}
        self._current = int(state["current"])
        self._round = int(state.get("round", 0))
        self._player_turns = int(state.get("player_turns", 0))
        self._winner, self._result = state.get("winner"), state.get("result")
        turn = state.get("turn") or {}
        self._dice = list(turn.get("dice", []))
        gb["current_die_total"] = sum(self._dice)
        for deck, (_, loc_name, _) in PACKS.items():
            loc = gb["location_objects"][loc_name]
            loc.perform_action = self._forced_draw(deck, loc.perform_action)
        cur = gb["players"][self._current]
        if cur.status != "lost":
            cur.status = "current_move"
        self._stage = {"pre_roll": "pre", "over": "over"}.get(phase, "post")
        if phase == "buy":
            pend = state.get("pending") or {}
            if pend.get("player") != self._current or pend.get("square") != cur.current_position:
                raise Unsupported("GNOME offers a deed only to the current player, on the square it stands on")
            cur._option_to_buy = True
        elif phase == "auction":
            self._resume_auction(state.get("pending") or {})

    def apply(self, action: dict) -> dict:
        if self._gb is None:
            raise RuntimeError("apply before load")
        kind = action.get("type")
        if kind not in self.actions:
            raise Illegal(f"the GNOME adapter does not drive {kind!r} actions")
        seat = action.get("seat")
        if seat is None:
            seat = self._actor()
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self._gb["players"]):
            raise Illegal(f"no seat {seat!r}")
        before = self.state()
        log = _gnome_logger()
        _LOG.lines = lines = []
        log.setLevel(logging.DEBUG)
        self._gb["history"] = {"function": [], "param": [], "return": [], "time_step": []}
        try:
            if kind in _MANAGE:
                code = self._manage(kind, seat, action)
            else:
                code = getattr(self, f"_do_{kind}")(seat, action)
        finally:
            log.setLevel(logging.WARNING)
            _LOG.lines = None
        self._note_go_passes()
        after = self.state()
        if code == self._g.failure and after == before:
            raise Illegal(_reason(lines))
        return after

    def state(self) -> dict:
        if self._gb is None:
            raise RuntimeError("state before load")
        gb = self._gb
        phase, pending = self._phase()
        base = self._base
        return {
            "schema": SCHEMA, "round": self._round, "current": self._current, "minute": base.get("minute", 0),
            "phase": phase,
            "players": read_players(gb, self._carried, self._positions),
            "properties": read_properties(gb, self._ownable, self._props),
            "bank": read_bank(gb), "pot": base.get("pot", 0), "jackpot": base.get("jackpot", 0),
            "decks": {k: list(v) for k, v in self._piles.items()},
            "discards": copy.deepcopy(base.get("discards", {"chance": [], "chest": []})),
            "seed": base.get("seed", 0), "shuffles": base.get("shuffles", 0),
            "pending": pending, "queue": {"debts": [], "auctions": [], "claims": []},
            "turn": {"rolled": self._stage != "pre", "dice": list(self._dice), "trades": 0, "built_streets": [],
                     "built_groups": [], "timed_out": False,
                     "stage": {"pre": "pre", "over": "post"}.get(self._stage, "move" if phase in ("buy", "auction")
                                                                 else "post"),
                     "move": {}},
            "player_turns": self._player_turns, "winner": self._winner, "result": self._result,
        }

    # ---- where GNOME is ------------------------------------------------------------------------
    def _auction(self) -> BidQuestion | None:
        r = self._channel.runner
        return r.question if r is not None and not r.done else None

    def _phase(self) -> tuple[str, dict | None]:
        q = self._auction()
        if q is not None:
            players = self._gb["players"]
            bidders = [i for i in range(len(players)) if i not in q.out and players[i].status != "lost"]
            return "auction", {"square": q.square, "item": "deed", "min": money(q.high) + 1, "high": money(q.high),
                               "leader": q.leader, "bidders": bidders, "turn": q.seat, "mortgaged": False,
                               "proceeds_to": -1}
        if self._stage == "over":
            return "over", None
        if self._stage == "pre":
            return "pre_roll", None
        p = self._gb["players"][self._current]
        if p._option_to_buy:
            return "buy", {"player": self._current, "square": int(p.current_position)}
        return "post_roll", None

    def _actor(self) -> int:
        q = self._auction()
        return self._current if q is None else q.seat

    def _player(self, seat: int):
        p = self._gb["players"][seat]
        if p.status == "lost":
            raise Illegal(f"seat {seat} has left the game: GNOME asks it nothing")
        return p

    def _window(self, seat: int) -> tuple[str, set]:
        """The phase GNOME would ask ``seat`` in now, and the actions it lists as allowable there."""
        p = self._player(seat)
        if self._auction() is not None:
            raise Illegal("GNOME's auction is running: it asks only the next bidder for a bid")
        if self._stage == "over":
            raise Illegal("the game is over")
        gb = self._gb
        if self._stage == "pre":
            if seat == self._current:
                return "pre-roll", p.compute_allowable_pre_roll_actions(gb)
            return "out-of-turn", p.compute_allowable_out_of_turn_actions(gb)
        if seat == self._current:
            return "post-roll", p.compute_allowable_post_roll_actions(gb)
        raise Illegal("GNOME gives the other players no phase after the current player's roll "
                      "(their out-of-turn moves come before it)")

    def _allowed(self, seat: int, name: str) -> Any:
        window, allowed = self._window(seat)
        if name not in allowed:
            raise Illegal(f"GNOME does not list this action among the allowable actions of its {window} phase")
        return self._gb["players"][seat]

    def _square(self, action: dict, key: str = "square"):
        s = action.get(key)
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < 40:
            raise Illegal(f"{action.get('type')} needs a square 0..39, got {s!r}")
        return self._gb["location_sequence"][s]

    # ---- actions -------------------------------------------------------------------------------
    def _manage(self, kind: str, seat: int, action: dict) -> int:
        name, call = _MANAGE[kind]
        asset = self._square(action)
        p = self._allowed(seat, name)
        return call(self._g, p, asset, self._gb)

    def _do_pay_fine(self, seat: int, action: dict) -> int:
        return self._g.actions.pay_jail_fine(self._allowed(seat, "pay_jail_fine"), self._gb)

    def _do_use_card(self, seat: int, action: dict) -> int:
        p = self._allowed(seat, "use_get_out_of_jail_card")
        held = (p.has_get_out_of_jail_chance_card, p.has_get_out_of_jail_community_chest_card)
        code = self._g.actions.use_get_out_of_jail_card(p, self._gb)
        self._cards_returned(held, p)
        return code

    def _do_trade(self, seat: int, action: dict) -> int:
        g, gb = self._g, self._gb
        other = action.get("with")
        if not isinstance(other, int) or isinstance(other, bool) or not 0 <= other < len(gb["players"]) \
                or other == seat:
            raise Illegal(f"a trade needs another seat, got {other!r}")
        give, take = action.get("give") or {}, action.get("take") or {}
        if give.get("cards") or take.get("cards"):
            raise Illegal("GNOME's trade offers carry no Get Out of Jail Free cards")
        p = self._allowed(seat, "make_trade_offer")
        q = self._player(other)
        if self._stage != "pre":
            raise Illegal("GNOME's trade offers are made and accepted before the roll")
        offer = {"property_set_offered": {self._square({"square": s}) for s in give.get("squares", [])},
                 "property_set_wanted": {self._square({"square": s}) for s in take.get("squares", [])},
                 "cash_offered": give.get("cash", 0), "cash_wanted": take.get("cash", 0)}
        code = g.actions.make_trade_offer(p, offer, q, gb)
        if code != g.failure:
            code = g.actions.accept_trade_offer(q, gb)
        q.is_trade_offer_outstanding = False
        q.outstanding_trade_offer.update(property_set_offered=set(), property_set_wanted=set(), cash_offered=0,
                                         cash_wanted=0, from_player=None)
        return code

    def _do_roll(self, seat: int, action: dict) -> int:
        g, gb = self._g, self._gb
        if self._auction() is not None or self._stage != "pre":
            raise Illegal("GNOME rolls once a turn, after the pre-roll phase")
        if seat != self._current:
            raise Illegal("GNOME rolls only for the current player")
        p = self._player(seat)
        dice, dies = action.get("dice"), gb["dies"]
        if not isinstance(dice, list) or len(dice) != len(dies) or not all(
                isinstance(v, int) and not isinstance(v, bool) and v in d.die_state for v, d in zip(dice, dies)):
            raise Illegal(f"GNOME rolls {len(dies)} dice, each one of its faces")
        import numpy as np
        faces = [d.die_state for d in dies]
        try:
            for d, v in zip(dies, dice):
                d.die_state = [v]            # the die shows the action's face (GNOME draws with np.random.choice)
            rolled = g.actions.roll_die(dies, np.random.choice, gb)
        finally:
            for d, f in zip(dies, faces):
                d.die_state = f
        total = int(sum(rolled))
        gb["current_die_total"] = total
        for i, v in enumerate(rolled):
            gb["die_sequence"][i].append(int(v))
        self._dice = [int(v) for v in rolled]
        if not p.currently_in_jail:
            gb["move_player_after_die_roll"](p, total, gb, True)
            p.process_move_consequences(gb)
        else:
            g.cards.set_currently_in_jail_to_false(p, gb)    # GNOME's jail: one turn without a move
        self._stage = "post"
        return g.success

    def _need_option(self, seat: int):
        if self._auction() is not None or self._stage != "post" or seat != self._current \
                or not self._gb["players"][seat]._option_to_buy:
            raise Illegal("GNOME offers the deed only to the current player who landed on it, after the roll")
        return self._player(seat)

    def _do_buy(self, seat: int, action: dict) -> int:
        p = self._need_option(seat)
        asset = self._gb["location_sequence"][p.current_position]
        return self._run(lambda: self._g.actions.buy_property(p, asset, self._gb))

    def _do_decline(self, seat: int, action: dict) -> int:
        p = self._need_option(seat)
        self._run(lambda: p._force_buy_outcome(self._gb))   # the agent says no: GNOME's Bank.auction
        return self._g.success

    def _do_bid(self, seat: int, action: dict, amount: Any = None) -> int:
        q = self._auction()
        if q is None:
            raise Illegal("no auction is running in GNOME")
        if seat != q.seat:
            raise Illegal(f"GNOME's auction asks seat {q.seat} now: bidders speak in turn")
        if amount is None:
            amount = action.get("amount")
            if not isinstance(amount, (int, float)) or isinstance(amount, bool):
                raise Illegal(f"a bid needs an amount, got {amount!r}")
        runner = self._channel.runner
        runner.answer(amount)
        if runner.done:
            self._channel.runner = None
        return self._g.success

    def _do_pass(self, seat: int, action: dict) -> int:
        return self._do_bid(seat, action, amount=0)     # GNOME: a bid of 0 leaves the auction

    def _do_end_turn(self, seat: int, action: dict) -> int:
        g, gb = self._g, self._gb
        if self._auction() is not None or self._stage != "post" or seat != self._current:
            raise Illegal("GNOME ends the current player's turn after its roll")
        p = self._player(seat)
        if p._option_to_buy:
            raise Illegal("GNOME would ask its agent whether to buy first (the adapter needs buy or decline)")
        g.actions.concluded_actions()
        players = gb["players"]
        if p.current_cash < 0:
            held = (p.has_get_out_of_jail_chance_card, p.has_get_out_of_jail_community_chest_card)
            code = p.handle_negative_cash_balance(gb)
            if code == g.failure or p.current_cash < 0:
                self._positions[seat] = int(p.current_position)
                p.begin_bankruptcy_proceedings(gb)
                self._cards_returned(held, p)
                active = [q for q in players if q.status != "lost"]
                if len(active) == 1:
                    active[0].status = "won"
                    return self._game_over(players.index(active[0]))
            else:
                p.status = "waiting_for_move"
        else:
            p.status = "waiting_for_move"
        self._carried[seat]["doubles"] = 0
        nxt = (seat + 1) % len(players)
        while players[nxt].status == "lost":
            nxt = (nxt + 1) % len(players)
        self._player_turns += 1
        if nxt <= seat:
            self._round += 1
        self._current = nxt
        players[nxt].status = "current_move"
        self._stage = "pre"
        self._dice = []
        if g.cards.check_for_game_termination(gb, 0):    # GNOME's runaway-cash limit
            w = g.cards.check_for_winner(gb)
            return self._game_over(None if w is None else players.index(w))
        return g.success

    def _game_over(self, winner: int | None) -> int:
        self._stage = "over"
        self._winner = winner
        self._result = "last_standing"
        return self._g.success

    # ---- GNOME's calls that ask for bids ---------------------------------------------------------
    def _run(self, fn) -> Any:
        """Run a GNOME call that may hold an auction; it pauses at the first bid GNOME asks for."""
        runner = Runner(fn)
        self._channel.runner = runner
        runner.start()
        if runner.done:
            self._channel.runner = None
        return runner.result

    def _resume_auction(self, pend: dict) -> None:
        """A loaded auction: GNOME's ``Bank.auction`` for the deed, bid through to the loaded standing."""
        gb, players = self._gb, self._gb["players"]
        if pend.get("item", "deed") != "deed" or pend.get("mortgaged") or pend.get("proceeds_to", -1) != -1:
            raise Unsupported("GNOME auctions only unowned deeds for the bank")
        asset = gb["location_sequence"][pend["square"]]
        high, leader, bidders = pend.get("high", 0), pend.get("leader", -1), set(pend.get("bidders", []))
        live = [i for i, p in enumerate(players) if p.status != "lost"]
        plan = auction_history(live, bidders, leader, high, first=(self._current + 1) % len(players))
        if plan is None:
            raise Unsupported(f"GNOME's auction cannot reach this standing (high {high} by seat {leader}, "
                               f"bidders {sorted(bidders)}): it asks bidders in turn and a pass is final")
        start, answers = plan
        self._run(lambda: self._g.Bank.auction(start, gb, asset))
        for amount in answers:
            self._channel.runner.answer(amount)


    # ---- cards -----------------------------------------------------------------------------------
    def _forced_draw(self, deck: str, original):
        """GNOME's card square, drawing the card on top of the canonical deck (as dice are given)."""
        key = PACKS[deck][0]
        names = CARD_NAMES[deck]
        piles = self._piles

        def perform(player, gb):
            pile = piles[deck]
            if not pile:
                return original(player, gb)
            cid = pile[0]
            if cid not in names:
                raise AdapterError(f"card {cid!r} has no counterpart in GNOME's {deck} pack")
            full = gb[key]
            pick = next((c for c in full if c.name == names[cid]), None)
            if pick is None:
                raise AdapterError(f"GNOME's {deck} pack has no {names[cid]!r} left to draw")
            gb[key] = {pick}
            try:
                original(player, gb)
            finally:
                gb[key] = full if pick in gb[key] else full - {pick}
            pile.pop(0)
            if names[cid] != JAIL_FREE:
                pile.append(cid)       # the canonical deck's order; GNOME's pack has none
        return perform

    def _cards_returned(self, held: tuple[bool, bool], p) -> None:
        now = (p.has_get_out_of_jail_chance_card, p.has_get_out_of_jail_community_chest_card)
        for deck, was, has in zip(("chance", "chest"), held, now):
            if was and not has and self._jail_ids[deck]:
                self._piles[deck].append(self._jail_ids[deck])

    def _note_go_passes(self) -> None:
        """GNOME records each GO increment it pays in its history: that player has passed GO."""
        for param in self._gb["history"]["param"]:
            if isinstance(param, dict) and param.get("description") == "go increment":
                seat = seat_of(self._gb, param.get("self"))
                if seat is not None:
                    self._carried[seat]["passed_go"] = True



# A run shrinks every failure to the simplest scenario that breaks the same rule, so with every action
# declared, GNOME's missing doubles rule (met in almost every game) stands for all its successor
# differences. Declaring part of the actions keeps a run on one area of the rules.

class GnomeManagementEngine(GnomeEngine):
    """GNOME, driven only through management: building, selling, mortgages, trades, jail exits."""

    actions = ("build_house", "build_hotel", "sell_house", "sell_hotel", "mortgage", "unmortgage", "trade",
               "pay_fine", "use_card")


class GnomeAuctionEngine(GnomeEngine):
    """GNOME, driven only through the purchase decision and its auctions."""

    actions = ("buy", "decline", "bid", "pass")

def auction_history(live: list[int], bidders: set[int], leader: int, high: int,
                    first: int = 0) -> tuple[int, list] | None:
    """Where GNOME's auction starts and the answers that bring it to a standing (or None).

    GNOME asks the live seats in turn from a starting seat; a bid at most the current one is a
    final pass. A standing (``high`` by ``leader``, ``bidders`` still in) is reached within one
    round of asking: the seats asked pass unless they are bidders; bidders asked before the
    leader stay in with rising bids below ``high``; the leader bids ``high`` last."""
    if not bidders or not bidders <= set(live) or (leader >= 0) != (high > 0) \
            or (leader >= 0 and leader not in bidders):
        return None
    order = sorted(range(len(live)), key=lambda i: (live[i] < first, live[i]))
    for start in order:
        for length in range(len(live)):
            arc = [live[(start + k) % len(live)] for k in range(length)]
            if set(live) - bidders - set(arc):
                continue                       # a player out of the auction was never asked
            raisers = [s for s in arc if s in bidders]
            if leader < 0 and raisers:
                continue
            if leader >= 0 and (not raisers or raisers[-1] != leader or len(raisers) > high):
                continue
            answers, bid = [], 0
            for s in arc:
                if s not in bidders:
                    answers.append(0)
                else:
                    bid = high if s == leader else bid + 1
                    answers.append(bid)
            if len(arc) < len(live) or leader < 0:
                return live[start], answers
    return None


def _abort(channel: Channel) -> None:
    if channel.runner is not None:
        channel.runner.abort()
        channel.runner = None


__all__ = ["GnomeEngine", "GnomeManagementEngine", "GnomeAuctionEngine", "ACTIONS", "COMPARE", "LOADABLE", "AUTOMATIC",
           "auction_history"]
