"""The suite of deliberately broken engines (issue 9 item 9): the reference engine with one rule bug each.

Each engine is ``verify.conform.reference:ReferenceEngine`` with a small
override, the kind of slip an engine author makes: a guard that checks too
little (the engine accepts what the ruleset refuses: it runs the reference on
a state where the forgotten condition does not bite, then puts the state
back), or a consequence computed wrongly (it edits the reference's successor).
``BUG`` is one line on what each gets wrong, ``CAUGHT_BY`` the rule the
harness must report (``legality``, ``successor`` or an invariant id), ``ACTION``
the action type of the step that shows it, ``CAUSES`` the exact causes a
default run reports (``verify.conform.cause``), and ``AREA`` the part of the
rules it breaks. tests/test_conform_broken.py checks
that a default run catches every one, with a short scenario.

The crashing, hanging and garbage-printing engines are in ``faults.py``.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

from verify.conform import Illegal
from verify.conform.reference import ReferenceEngine
from verify.engine.step import IllegalAction, apply as reference_apply


class _Broken(ReferenceEngine):
    """The reference engine with one bug: a guard it skips (``SKIPS``) or a successor it tampers with."""

    BUG = ""
    CAUGHT_BY = ""
    #: the action type of the step that shows it (a tuple: any of them), and the exact causes a default run reports
    ACTION: str | tuple = ""
    CAUSES: tuple[str, ...] = ()
    #: the silent or assumed parameter the deviation rests on in official (None: the rulebook states it)
    UNSTATED: str | None = None
    AREA = ""
    #: (action type, the reference's refusal reason it fails to check); None: no guard skipped
    SKIPS: tuple[str, str] | None = None

    def hello(self) -> dict:
        return {**super().hello(), "engine": f"broken:{type(self).__name__}"}

    def apply(self, action: dict) -> dict:
        before = self._state
        try:
            after = super().apply(action)
        except Illegal as exc:
            kind, reason = self.SKIPS or (None, None)
            if action.get("type") != kind or reason not in exc.reason:
                raise
            after = self._accept_anyway(before, action, exc)
        else:
            after = self.tamper(before, action, after)
        self._state = after
        return after

    def _accept_anyway(self, before: dict, action: dict, refusal: Illegal) -> dict:
        relaxed = copy.deepcopy(before)
        restore = self.relax(relaxed, action)
        try:
            after, _ = reference_apply(self._config, relaxed, action)
        except IllegalAction:          # refused for another reason as well: that refusal stands
            raise refusal from None
        restore(after)
        return after

    # -- the bug (one of the two) -----------------------------------------------------------
    def relax(self, state: dict, action: dict) -> Callable[[dict], None]:
        """Edit ``state`` so the skipped guard passes; return what puts the successor back."""
        return lambda after: None

    def tamper(self, before: dict, action: dict, after: dict) -> dict:
        return after

    # -- helpers -----------------------------------------------------------------------------
    def group_of(self, square: int) -> list[int]:
        board = self._config.board
        return list(board.groups[board.deed(square).group].squares)


def _prop(state: dict, square: int) -> dict:
    return next(p for p in state["properties"] if p["square"] == square)


def _move_cash(state: dict, seat: int, amount: Any) -> None:
    """``seat`` gets ``amount`` from the bank (negative: pays it)."""
    state["players"][seat]["cash"] += amount
    state["bank"]["cash"] = state["bank"].get("cash", 0) - amount


def _keep(state: dict, squares: list[int], fields: tuple[str, ...]) -> Callable[[dict], None]:
    """Remember ``fields`` of ``squares``; the returned function writes them back into a successor."""
    saved = {s: {f: _prop(state, s)[f] for f in fields} for s in squares}

    def restore(after: dict) -> None:
        for s, vals in saved.items():
            _prop(after, s).update(vals)
    return restore


def _without_buildings(state: dict, squares: list[int]) -> Callable[[dict], None]:
    """Clear the buildings of ``squares`` (the bank's stock untouched); the result puts them back."""
    restore = _keep(state, squares, ("houses", "hotel"))
    for s in squares:
        _prop(state, s).update(houses=0, hotel=False)
    return restore


# ---- building --------------------------------------------------------------------------------

class UnevenSeller(_Broken):
    BUG = "sells a house from a street while another street of its group stands higher"
    CAUGHT_BY = "legality"
    ACTION = "sell_house"
    CAUSES = ('legality at sell_house: accepted: sell evenly',)
    AREA = "building (even selling)"
    SKIPS = ("sell_house", "sell evenly")

    def relax(self, state, action):
        s = action["square"]
        others = [t for t in self.group_of(s) if t != s]
        restore = _keep(state, others, ("houses", "hotel"))
        h = _prop(state, s)["houses"]
        for t in others:
            p = _prop(state, t)
            p["hotel"], p["houses"] = False, min(p["houses"], h)
        return restore


class MortgagedGroupBuilder(_Broken):
    BUG = "builds on an unmortgaged street while another street of its group is mortgaged"
    CAUGHT_BY = "legality"
    ACTION = "build_house"
    CAUSES = ('legality at build_house: accepted: a street of the group is mortgaged',)
    AREA = "building (mortgaged group)"
    SKIPS = ("build_house", "a street of the group is mortgaged")

    def relax(self, state, action):
        s = action["square"]
        others = [t for t in self.group_of(s) if t != s]
        restore = _keep(state, others, ("mortgaged",))
        for t in others:
            _prop(state, t)["mortgaged"] = False
        return restore


class EarlyHotel(_Broken):
    BUG = "builds a hotel on a street with four houses while its group-mates have fewer"
    CAUGHT_BY = "legality"
    ACTION = "build_hotel"
    CAUSES = ('legality at build_hotel: accepted: every street of the group needs # houses first',)
    AREA = "building (hotel after full houses)"
    SKIPS = ("build_hotel", "every street of the group needs")

    def relax(self, state, action):
        s = action["square"]
        others = [t for t in self.group_of(s) if t != s]
        restore = _keep(state, others, ("houses", "hotel"))
        need = self._config.building.hotel_threshold
        for t in others:
            p = _prop(state, t)
            if not p["hotel"]:
                p["houses"] = max(p["houses"], need)
        return restore


# ---- house supply ----------------------------------------------------------------------------

class HotelKeepsHouses(_Broken):
    BUG = "a new hotel's houses never go back to the bank"
    CAUGHT_BY = "house-supply"
    ACTION = "build_hotel"
    CAUSES = ('house-supply at build_hotel',)
    AREA = "house supply"

    def tamper(self, before, action, after):
        if action.get("type") == "build_hotel" and self._config.building.hotel_returns_houses:
            after["bank"]["houses"] -= _prop(before, action["square"])["houses"]
        return after


class EmptyBankBuilder(_Broken):
    BUG = "builds a house when the bank has none left"
    CAUGHT_BY = "legality"
    ACTION = "build_house"
    CAUSES = ('legality at build_house: accepted: the bank has no houses left',)
    AREA = "house supply"
    SKIPS = ("build_house", "the bank has no houses left")

    def relax(self, state, action):
        stock = state["bank"]["houses"]
        state["bank"]["houses"] = 1

        def restore(after):
            after["bank"]["houses"] = stock - 1
        return restore


# ---- rent --------------------------------------------------------------------------------------

class MortgagedRent(_Broken):
    BUG = "charges the base rent at once when a player lands on another's mortgaged street"
    CAUGHT_BY = "successor"
    ACTION = "roll"
    CAUSES = ('successor at rent: players[actor].cash -, players[other].cash +',)
    AREA = "rent"

    def tamper(self, before, action, after):
        p = before["current"]
        me = after["players"][p]
        if action.get("type") not in ("roll", "pay_fine", "use_card") or me["in_jail"] or me["bankrupt"] \
                or me["position"] == before["players"][p]["position"]:
            return after
        s = me["position"]
        board = self._config.board
        if board.squares[s] != "street":
            return after
        prop = _prop(after, s)
        owner = prop["owner"]
        if prop["mortgaged"] and owner is not None and owner != p:
            rent = board.deed(s).rents[0]
            after["players"][p]["cash"] -= rent
            after["players"][owner]["cash"] += rent
        return after


# ---- auctions ----------------------------------------------------------------------------------

class OverCashBidder(_Broken):
    BUG = "takes a bid larger than the bidder's cash"
    CAUGHT_BY = "legality"
    ACTION = "bid"
    CAUSES = ("legality at bid: accepted: a bid cannot exceed the bidder's cash",)
    #: official only assumes that a bid may not exceed the bidder's cash: the deviation is unstated
    UNSTATED = "auction.bid_above_cash"
    AREA = "auctions"
    SKIPS = ("bid", "a bid cannot exceed the bidder's cash")

    def relax(self, state, action):
        seat = action.get("seat", state["pending"].get("turn"))
        cash = state["players"][seat]["cash"]
        state["players"][seat]["cash"] = action["amount"]

        def restore(after):
            after["players"][seat]["cash"] -= action["amount"] - cash
        return restore


class FreeAuctionWin(_Broken):
    BUG = "hands the deed to the auction's winner without charging the winning bid"
    CAUGHT_BY = "successor"
    ACTION = ("pass", "bid")
    CAUSES = ('successor at auction_won: bank.cash -, players[actor].cash +',)
    AREA = "auctions"

    def tamper(self, before, action, after):
        if before["phase"] != "auction" or after["phase"] == "auction":
            return after
        square = before["pending"]["square"]
        winner = _prop(after, square)["owner"]
        if winner is not None and _prop(before, square)["owner"] is None:
            paid = before["players"][winner]["cash"] - after["players"][winner]["cash"]
            if paid > 0:
                _move_cash(after, winner, paid)
        return after


# ---- jail --------------------------------------------------------------------------------------

class JailDoublesRollAgain(_Broken):
    BUG = "a player who rolls doubles out of jail rolls again"
    CAUGHT_BY = "successor"
    ACTION = "roll"
    CAUSES = ('successor at doubles: phase "post_roll">"pre_roll"',)
    AREA = "jail"

    owed: int | None = None        # the seat owed its extra roll once its move is resolved

    def load(self, config, state):
        super().load(config, state)
        self.owed = None

    def tamper(self, before, action, after):
        p = before["current"]
        dice = action.get("dice") or []
        if action.get("type") == "roll" and before["players"][p]["in_jail"] and len(dice) >= 2 \
                and dice[0] == dice[1] and not after["players"][p]["in_jail"]:
            self.owed = p
        if self.owed is not None and after["current"] != self.owed:
            self.owed = None
        if self.owed is not None and after["phase"] == "post_roll":
            after["phase"] = "pre_roll"
            after["turn"]["stage"] = "pre"
            self.owed = None
        return after


# ---- cards -------------------------------------------------------------------------------------

class CardBackOnTop(_Broken):
    BUG = "puts a drawn card back on top of its deck instead of underneath"
    CAUGHT_BY = "successor"
    ACTION = "roll"
    CAUSES = ('successor at card *: decks[card] order',)
    AREA = "cards"

    def tamper(self, before, action, after):
        for deck in ("chance", "chest"):
            old = before["decks"][deck]
            if old and after["decks"][deck] == old[1:] + old[:1]:
                after["decks"][deck] = list(old)
        return after


# ---- mortgages ---------------------------------------------------------------------------------

class InterestFreeUnmortgage(_Broken):
    BUG = "lifts a mortgage for the mortgage value alone, without the 10 % interest"
    CAUGHT_BY = "successor"
    ACTION = "unmortgage"
    CAUSES = ('successor at unmortgage: bank.cash -, players[actor].cash +',)
    AREA = "mortgages"

    def tamper(self, before, action, after):
        if action.get("type") == "unmortgage":
            seat = action.get("seat", before["current"])
            paid = before["players"][seat]["cash"] - after["players"][seat]["cash"]
            interest = paid - self._config.board.deed(action["square"]).mortgage
            if interest > 0:
                _move_cash(after, seat, interest)
        return after


class BuiltGroupMortgager(_Broken):
    BUG = "mortgages an unbuilt street while its group-mates still carry buildings"
    CAUGHT_BY = "legality"
    ACTION = "mortgage"
    CAUSES = ("legality at mortgage: accepted: sell the group's buildings first",)
    AREA = "mortgages"
    SKIPS = ("mortgage", "sell the group's buildings first")

    def relax(self, state, action):
        s = action["square"]
        return _without_buildings(state, [t for t in self.group_of(s) if t != s])


# ---- bankruptcy --------------------------------------------------------------------------------

class BankruptcyToBank(_Broken):
    BUG = "a player bankrupted by another player hands the deeds to the bank, not to the creditor"
    CAUGHT_BY = "bankruptcy-transfer"
    ACTION = "bankrupt"
    CAUSES = ('bankruptcy-transfer at bankrupt',)
    AREA = "bankruptcy transfers"

    def tamper(self, before, action, after):
        pend = before.get("pending") or {}
        if action.get("type") != "bankrupt" or before["phase"] != "debt" or pend.get("creditor", -1) < 0:
            return after
        debtor, creditor = pend["debtor"], pend["creditor"]
        for old, new in zip(before["properties"], after["properties"]):
            if old["owner"] == debtor and new["owner"] == creditor:
                new.update(owner=None, mortgaged=False, mortgage_rounds=0, interest_paid=False)
        return after


class InterestFreeInheritance(_Broken):
    BUG = "a creditor takes a bankrupt player's mortgaged deeds without paying the bank the interest on them"
    CAUGHT_BY = "successor"
    ACTION = "bankrupt"
    CAUSES = ('successor at bankrupt: bank.cash -, players[other].cash +',)
    AREA = "bankruptcy transfers"

    def tamper(self, before, action, after):
        if action.get("type") != "bankrupt" or (before.get("pending") or {}).get("creditor", -1) < 0:
            return after
        creditor = before["pending"]["creditor"]
        _, events = reference_apply(self._config, before, action)
        for e in events:                     # the interest the creditor paid at once is handed back
            if e.get("event") == "paid" and e.get("kind") == "interest" and e.get("debtor") == creditor:
                after["players"][creditor]["cash"] += e["amount"]
                after["bank"]["cash"] -= e["amount"]
        return after


# ---- trades ------------------------------------------------------------------------------------

class BuiltStreetTrader(_Broken):
    BUG = "trades away a street whose group still carries buildings"
    CAUGHT_BY = "legality"
    ACTION = "trade"
    CAUSES = ("legality at trade: accepted: sell the group's buildings before trading its deeds",)
    AREA = "trades"
    SKIPS = ("trade", "buildings before trading")

    def relax(self, state, action):
        squares = list((action.get("give") or {}).get("squares", [])) + \
            list((action.get("take") or {}).get("squares", []))
        return _without_buildings(state, sorted({t for s in squares if self._config.board.squares[s] == "street"
                                                 for t in self.group_of(s)}))


class OverdrawnTrader(_Broken):
    BUG = "takes a trade whose cash is more than the paying side has"
    CAUGHT_BY = "legality"
    ACTION = "trade"
    CAUSES = ('legality at trade: accepted: not enough cash',)
    AREA = "trades"
    SKIPS = ("trade", "not enough cash")

    def relax(self, state, action):
        sides = ((action.get("seat", state["current"]), action.get("give") or {}),
                 (action.get("with"), action.get("take") or {}))
        extra = {}
        for seat, side in sides:
            have, pay = state["players"][seat]["cash"], side.get("cash", 0)
            if isinstance(pay, int) and pay > have:
                extra[seat] = pay - have
                state["players"][seat]["cash"] = pay

        def restore(after):
            for seat, more in extra.items():
                after["players"][seat]["cash"] -= more
        return restore


# ---- setup ------------------------------------------------------------------------------------

class RichStart(_Broken):
    BUG = "sets up a new game with 100 more starting cash than the ruleset says"
    CAUGHT_BY = "setup"
    ACTION = "new_game"
    CAUSES = ('setup at new_game: bank.cash -, players[actor].cash +, players[other].cash +',)
    AREA = "setup"

    def new_game(self, config, players, seed, draws):
        state = super().new_game(config, players, seed, draws)
        for p in state["players"]:
            p["cash"] += 100
        state["bank"]["cash"] = state["bank"].get("cash", 0) - 100 * len(state["players"])
        return state


#: every broken engine, in the order of the README's list
ENGINES = (UnevenSeller, MortgagedGroupBuilder, EarlyHotel, HotelKeepsHouses, EmptyBankBuilder, MortgagedRent,
           OverCashBidder, FreeAuctionWin, JailDoublesRollAgain, CardBackOnTop, InterestFreeUnmortgage,
           BuiltGroupMortgager, BankruptcyToBank, InterestFreeInheritance, BuiltStreetTrader, OverdrawnTrader, RichStart)
