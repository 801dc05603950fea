"""Income tax choice, the casino, and the turn timer (missed turns, the game's default choices).

A mixin of ``Rules`` (see ``verify.engine.rules``): methods read the tables ``RulesBase``
builds and change a ``GameState`` in place.
"""

from __future__ import annotations

from .common import (_r, BUS, BUY, CASINO, DEBT, GameState, INCOME_TAX, JAIL_CHOICE, MOVING, OVER, POST_ROLL,
                     PRE_ROLL, TRIPLES)


class ExtraRules:
    """Income tax choice, the casino, and the turn timer (missed turns, the game's default choices)."""

    def why_not_pay_tax(self, g: GameState, seat: int, option) -> str | None:
        if g.phase != INCOME_TAX or g.pending.get("player") != seat:
            return "no income tax choice pending"
        if option not in ("fixed", "percent"):
            return "option is fixed or percent"
        return None

    def pay_tax(self, g: GameState, seat: int, option: str) -> None:
        t = self.cfg.taxes
        amount = t.income if option == "fixed" else _r(self.tax_worth(g, seat) * t.income_percent)
        g.phase = MOVING
        g.pending = None
        self.charge(g, seat, -1, amount, "tax")
        self._continue(g)

    def why_not_casino_bet(self, g: GameState, seat: int, numbers, die, jackpot) -> str | None:
        c = self.cfg.casino
        if g.phase != CASINO or g.pending.get("player") != seat:
            return "no casino bet offered"
        if (not isinstance(numbers, list) or not 1 <= len(numbers) <= c.max_numbers
                or len(set(numbers)) != len(numbers) or not all(isinstance(x, int) and 1 <= x <= 6 for x in numbers)):
            return f"choose 1 to {c.max_numbers} different numbers from 1 to 6"
        if not isinstance(die, int) or not 1 <= die <= 6 or not isinstance(jackpot, bool):
            return "the bet needs the die (1..6) and the jackpot draw (true/false)"
        if g.cash[seat] < c.stake:
            return "cannot cover the stake"
        return None

    def casino_bet(self, g: GameState, seat: int, numbers: list, die: int, jackpot: bool) -> None:
        c = self.cfg.casino
        g.cash[seat] -= c.stake
        g.bank_cash += c.stake
        g.jackpot += c.jackpot_contribution
        g.bank_cash -= c.jackpot_contribution
        won = 0
        if die in numbers:
            won = c.stake * c.payout_numerator // len(numbers)
            self._to_player(g, seat, won)
        if jackpot and g.jackpot:
            g.cash[seat] += g.jackpot
            won += g.jackpot
            g.jackpot = 0
        if g.events is not None:
            self._ev(g, event="casino", player=seat, numbers=list(numbers), die=die, jackpot=jackpot, won=won)
        g.phase = MOVING
        g.pending = None
        self._continue(g)

    def why_not_casino_decline(self, g: GameState, seat: int) -> str | None:
        if g.phase != CASINO or g.pending.get("player") != seat:
            return "no casino bet offered"
        if not self.cfg.casino.may_decline and g.cash[seat] >= self.cfg.casino.stake:
            return "the bet may not be declined"
        return None

    def casino_decline(self, g: GameState, seat: int) -> None:
        g.phase = MOVING
        g.pending = None
        self._continue(g)

    def why_not_end_turn(self, g: GameState, seat: int) -> str | None:
        if g.phase != POST_ROLL:
            return "the turn ends after the move"
        if seat != g.current:
            return "only the current player ends the turn"
        return None

    def why_not_timeout(self, g: GameState, seat: int, dice=None) -> str | None:
        ck = self.cfg.clock
        if g.phase == DEBT and g.pending["debtor"] == seat:
            if self.cfg.debt.repayment_seconds is None:
                return "raising money is not timed"
            return None
        if ck.on_timeout == "none":
            return "turns are not timed"
        if g.phase != PRE_ROLL or seat != g.current or g.rolled:
            return "the turn timer runs out only before the roll"
        if ck.on_timeout == "default_choices":
            return self.why_not_roll(g, seat, dice)
        return None

    def timeout(self, g: GameState, seat: int, dice=None) -> None:
        """The turn timer ran out: a missed turn (skipped, or played with default choices).

        In a debt, the repayment timer ran out: the game raises the money for the debtor
        (selling, then mortgaging) and pays, or declares the bankruptcy; the clock runs the timer.
        """
        ck = self.cfg.clock
        if g.phase == DEBT:
            g.minute += self.cfg.debt.repayment_seconds / 60.0
            if g.events is not None:
                self._ev(g, event="debt_timeout", player=seat)
            while g.phase == DEBT and g.pending["debtor"] == seat:
                if g.cash[seat] >= g.pending["amount"]:
                    self.pay(g, seat)
                elif self.why_not_bankrupt(g, seat) is None or not self._liquidate_one(g, seat):
                    self.bankrupt(g, seat)
            return
        g.missed[seat] += 1
        g.timed_out = True
        if g.events is not None:
            self._ev(g, event="timeout", player=seat, missed=g.missed[seat])
        if ck.forfeit_after_missed is not None and g.missed[seat] >= ck.forfeit_after_missed:
            g.stage = "post"
            self.go_bankrupt(g, seat, -1, 0)
            return
        if ck.on_timeout == "skip_turn":
            self.end_turn(g)
            return
        self.roll(g, dice)
        self.play_defaults(g, seat)

    def play_defaults(self, g: GameState, seat: int) -> None:
        """The game decides for a player whose time ran out: decline, pay, cheapest choices."""
        guard = 0
        while g.phase not in (OVER, PRE_ROLL, POST_ROLL) and guard < 200:
            guard += 1
            ph, pend = g.phase, g.pending
            if ph == BUY and pend["player"] == seat:
                self.decline(g, seat)
            elif ph == DEBT and pend["debtor"] == seat:
                if g.cash[seat] >= pend["amount"]:
                    self.pay(g, seat)
                elif self.why_not_bankrupt(g, seat) is None:
                    self.bankrupt(g, seat)
                else:
                    self._liquidate_one(g, seat)
            elif ph == BUS and pend["player"] == seat:
                sd = self.cfg.speed_die
                self.bus(g, seat, max(pend["options"]) if sd.bus_timeout == "sum" else min(pend["options"]))
            elif ph == TRIPLES and pend["player"] == seat:
                self.move_to(g, seat, g.pos[seat])
            elif ph == CASINO and pend["player"] == seat:
                self.casino_decline(g, seat)
            elif ph == INCOME_TAX and pend["player"] == seat:
                self.pay_tax(g, seat, "fixed")
            elif ph == JAIL_CHOICE and pend["player"] == seat:
                self.stay(g, seat)
            else:
                return
        # the turn itself ends in FlowRules._after_move once its move is settled (g.timed_out), also
        # when a decision of the others (the auction of a declined deed) comes first

    def _liquidate_one(self, g: GameState, seat: int) -> bool:
        """Raise some cash: sell a building (evenly) or mortgage a deed. False when nothing is left."""
        for grp in range(len(self.groups)):
            if self.why_not_sell_group(g, seat, grp) is None:
                self.sell_group(g, seat, grp)
                return True
        for s in self.ownable:
            if self.why_not_mortgage(g, seat, s) is None:
                self.mortgage(g, seat, s)
                return True
        return False
