"""Rolling and moving: doubles, GO salary, landing on a square, jail (in, and every way out), the speed
die's choices.

A mixin of ``Rules`` (see ``verify.engine.rules``): methods read the tables ``RulesBase``
builds and change a ``GameState`` in place.
"""

from __future__ import annotations

from .common import (_r, BUS, BUY, CASINO, GameError, GameState, INCOME_TAX, JAIL_CHOICE, JAIL_SQUARE, MOVING,
                     POST_ROLL, PRE_ROLL, TRIPLES)


class MovementRules:
    """Rolling and moving (a mixin of ``Rules``)."""

    def why_not_roll(self, g: GameState, seat: int, dice) -> str | None:
        if g.phase != PRE_ROLL:
            return f"cannot roll in phase {g.phase}"
        if seat != g.current:
            return "only the current player rolls"
        need = self.dice_needed(g)
        if not isinstance(dice, (list, tuple)) or len(dice) != need or not all(
                isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
            return f"roll needs {need} dice, each 1..6"
        return None

    def roll(self, g: GameState, dice) -> None:
        p = g.current
        if g.claims:
            self._expire_claims(g)
        if g.received:          # a received mortgage is no longer lifted "at once" once the dice roll
            g.received = {}
        g.phase = MOVING
        g.stage = "move"
        g.rolled = True
        g.dice = dice = tuple(dice)
        g.salary_paid = g.salary_paid and self.salary_once   # once per turn: a re-roll does not reset it
        g.mr_pending = g.no_auction = g.jailed = g.reroll = g.still = False
        g.rent_factor, g.util_mult, g.steps_after_debts = 1, 0, 0
        if g.events is not None:
            self._ev(g, event="rolled", player=p, dice=list(dice))
        if g.timed_out is False:
            g.missed[p] = 0
        if g.in_jail[p]:
            self._jail_roll(g, p, dice)
            if g.phase == MOVING:
                self._continue(g)
            return
        mv = self.cfg.movement
        n = self.white
        d1 = dice[0]
        if n == 2:
            d2 = dice[1]
            doubles = d1 == d2
            steps = d1 + d2
        else:
            doubles = n >= 2 and d1 == dice[1]
            steps = sum(dice[:n])
        special = 0
        if len(dice) > n:
            sp = dice[n]
            sd = self.cfg.speed_die
            if sp <= self.pip_faces:
                if n >= 2 and d1 == dice[1] == sp:
                    doubles = sd.triples_count_as_doubles
                    special = 3
                elif not sd.doubles_white_only and not doubles and (d1 == sp or dice[1] == sp):
                    doubles = True
                steps += sp
            elif sp <= self.mr_faces_top:
                g.mr_pending = True
            else:
                special = 6
        if doubles:
            g.doubles[p] += 1
            if mv.doubles_to_jail is not None and g.doubles[p] >= mv.doubles_to_jail:
                if mv.last_double_moves:
                    self._advance(g, p, steps)
                g.mr_pending = False
                self.send_to_jail(g, p)
                self._continue(g)
                return
            g.reroll = mv.doubles_roll_again
        else:
            g.doubles[p] = 0
        if special == 3:
            g.phase = TRIPLES
            g.pending = {"player": p}
            return
        if special == 6:
            g.phase = BUS
            g.pending = {"player": p, "options": sorted({d1, dice[1], d1 + dice[1]})}
            return
        self._advance(g, p, steps)
        self._land(g, p)
        if g.phase == MOVING:
            self._continue(g)

    def _advance(self, g: GameState, p: int, steps: int) -> None:
        """Move forward, paying the GO salary for passing or landing as the rules say."""
        new = g.pos[p] + steps
        if new >= 40:
            new -= 40
            g.passed_go[p] = True
            mv = self.cfg.movement
            if new == 0:
                pay, bonus = (self.salary if mv.salary_on_landing else 0), mv.exact_landing_bonus
            else:
                pay, bonus = (self.salary if mv.salary_on_pass else 0), 0
            if not self.salary_paid_now(g):
                pay = 0
                if not mv.exact_landing_bonus_after_salary_stop:
                    bonus = 0
            pay += bonus
            # a second payment in one move (or turn): only the Advance to GO card after a pass, or any
            # second pass where the salary is not limited to once a turn, as the rules say
            if pay and not (g.salary_paid and not (mv.pass_then_card_pays_twice
                                                   and (new == 0 or not self.salary_once))):
                self._to_player(g, p, pay)
                g.salary_paid = True
                if g.events is not None:
                    self._ev(g, event="salary", player=p, amount=pay)
        g.pos[p] = new

    def _move_to(self, g: GameState, p: int, square: int) -> None:
        """Forward to ``square``; choosing the square one stands on (triples) is no move and no lap."""
        self._advance(g, p, (square - g.pos[p]) % 40)

    def send_to_jail(self, g: GameState, p: int) -> None:
        j = self.cfg.jail
        if j.sent_collects_salary and g.pos[p] > JAIL_SQUARE and self.salary_paid_now(g):
            self._to_player(g, p, self.salary)
        g.pos[p] = JAIL_SQUARE
        g.in_jail[p] = True
        g.jail_turns[p] = 0
        g.doubles[p] = 0
        g.jailed = True
        g.reroll = False
        if g.events is not None:
            self._ev(g, event="jailed", player=p)

    def _land(self, g: GameState, p: int) -> None:
        """Resolve the square the player stands on."""
        s = g.pos[p]
        if self.is_ownable[s]:
            o = g.owner[s]
            if o < 0:
                if self.first_round_buy or g.passed_go[p]:
                    g.phase = BUY
                    g.pending = {"player": p, "square": s}
                return
            if o != p:
                amount = self.rent(g, s, p)
                if amount:
                    rate = self.rent_tax_rate(g)
                    share = amount - _r(amount * rate) if rate else amount
                    if self.must_claim:   # owed only if the owner asks in time
                        g.claims.append([p, o, s, amount, share,
                                         g.player_turns + (self.claim_turns or self._claim_turns(g, o))])
                        if g.events is not None:
                            self._ev(g, event="rent_due", payer=p, owner=o, square=s, amount=amount)
                    else:
                        self.charge(g, p, o, amount, "rent", share)
            return
        k = self.kind[s]
        if k == "chance" or k == "chest":
            self._draw(g, p, k)
            return
        if k == "income_tax":
            t = self.cfg.taxes
            if t.income_percent is not None:
                g.phase = INCOME_TAX
                g.pending = {"player": p}
                return
            self.charge(g, p, -1, t.income, "tax")
            return
        if k == "luxury_tax":
            self.charge(g, p, -1, self.cfg.taxes.luxury, "tax")
            return
        if k == "go_to_jail":
            if self.cfg.jail.via_go_to_jail_square:
                self.send_to_jail(g, p)
            return
        if k == "free_parking":
            if self.pot_on and g.pot:
                g.cash[p] += g.pot
                if g.events is not None:
                    self._ev(g, event="pot", player=p, amount=g.pot)
                g.pot = 0
            return
        if k == "casino" and self.cfg.casino.enabled:
            g.phase = CASINO
            g.pending = {"player": p}

    def _claim_turns(self, g: GameState, owner: int) -> int:
        """Player-turns from now until the second player after the owner rolls (a full round when that
        player is the one moving now)."""
        n, bankrupt = g.n, g.bankrupt
        target, k = owner, 0
        while k < 2:
            target = (target + 1) % n
            if not bankrupt[target]:
                k += 1
        turns, q = 0, g.current
        while True:
            q = (q + 1) % n
            if not bankrupt[q]:
                turns += 1
                if q == target:
                    return turns

    def _jail_roll(self, g: GameState, p: int, dice) -> None:
        j = self.cfg.jail
        d1, d2 = dice[0], dice[1] if len(dice) > 1 else -1
        g.jail_turns[p] += 1
        steps = d1 + (d2 if d2 > 0 else 0)
        if d1 == d2:
            self._leave_jail(g, p, "doubles")
            if j.doubles_exit_moves:
                self._advance(g, p, steps)
                self._land(g, p)
            else:
                g.still = True
            g.reroll = j.doubles_exit_rolls_again
            return
        if g.jail_turns[p] >= j.max_tries:
            if j.after_last_try == "pay_fine_and_move":
                self.charge(g, p, -1, j.fine, "fine")
            self._leave_jail(g, p, "last_try")
            g.steps_after_debts = steps  # the fine is paid (or the cash raised) before the token moves
            return
        if j.fine_after_failed_roll_same_turn:
            g.phase = JAIL_CHOICE
            g.pending = {"player": p, "steps": steps}
            return
        g.jailed = True  # stays: the turn ends, the token did not move
        g.still = True

    def _leave_jail(self, g: GameState, p: int, how: str) -> None:
        g.in_jail[p] = False
        g.jail_turns[p] = 0
        if g.events is not None:
            self._ev(g, event="left_jail", player=p, how=how)

    def why_not_pay_fine(self, g: GameState, seat: int) -> str | None:
        j = self.cfg.jail
        if not g.in_jail[seat] or g.bankrupt[seat]:
            return "not in jail"
        if g.phase == JAIL_CHOICE and g.pending.get("player") == seat:
            return None if g.cash[seat] >= j.fine else "cannot pay the fine"
        if seat != g.current:
            return "only in one's own turn"
        if j.fine_timing == "before_rolling":
            if g.phase != PRE_ROLL:
                return "the fine is paid before rolling"
        elif g.phase not in (PRE_ROLL, POST_ROLL):
            return "not now"
        if j.fine_voluntary_turns is not None and g.jail_turns[seat] >= j.fine_voluntary_turns:
            return f"the fine may be paid voluntarily only in the first {j.fine_voluntary_turns} turns"
        if g.cash[seat] < j.fine:
            return "cannot pay the fine"
        return None

    def pay_fine(self, g: GameState, seat: int) -> None:
        j = self.cfg.jail
        self.charge(g, seat, -1, j.fine, "fine")
        self._leave_jail(g, seat, "fine")
        self._after_release(g, seat)

    def why_not_use_card(self, g: GameState, seat: int) -> str | None:
        j = self.cfg.jail
        if not j.card_exit:
            return "cards do not release from jail"
        if not g.in_jail[seat] or g.bankrupt[seat]:
            return "not in jail"
        if not g.jail_cards[seat]:
            return "holds no Get Out of Jail Free card"
        if seat != g.current or g.phase not in (PRE_ROLL, POST_ROLL, JAIL_CHOICE):
            return "only in one's own turn"
        if g.phase == POST_ROLL and j.fine_timing == "before_rolling":
            return "only before rolling"
        return None

    def use_card(self, g: GameState, seat: int, deck: str | None = None) -> None:
        cards = g.jail_cards[seat]
        deck = deck if deck in cards else cards[0]
        cards.remove(deck)
        self._return_cards(g, [deck])
        self._leave_jail(g, seat, "card")
        self._after_release(g, seat)

    def _after_release(self, g: GameState, seat: int) -> None:
        if g.phase == JAIL_CHOICE:      # paid or used a card after the failed roll: move by that roll,
            g.steps_after_debts = g.pending["steps"]     # once the fine is paid
            g.phase = MOVING
            g.pending = None
            self._continue(g)
            return
        if g.phase == PRE_ROLL and not self.cfg.jail.card_exit_then_roll:
            g.stage = "post"     # released, but no roll this turn
            g.rolled = True
        g.phase = MOVING
        self._continue(g)
        if (g.phase == POST_ROLL and g.stage == "post" and g.rolled
                and self.cfg.movement.turn_end == "automatic_after_square"):
            self.end_turn(g)

    def _jail_card_id(self, deck: str) -> str:
        for cid, c in self.cards[deck].items():
            if c.effect == "jail_free":
                return cid
        raise GameError(f"deck {deck} has no Get Out of Jail Free card")

    def why_not_stay(self, g: GameState, seat: int) -> str | None:
        if g.phase != JAIL_CHOICE or g.pending.get("player") != seat:
            return "no jail choice pending"
        return None

    def stay(self, g: GameState, seat: int) -> None:
        g.phase = MOVING
        g.pending = None
        g.jailed = True
        g.still = True
        self._continue(g)

    def why_not_bus(self, g: GameState, seat: int, steps) -> str | None:
        if g.phase != BUS or g.pending.get("player") != seat:
            return "no bus choice pending"
        if steps not in g.pending["options"]:
            return f"the bus moves by one of {g.pending['options']}"
        return None

    def bus(self, g: GameState, seat: int, steps: int) -> None:
        self._resume_move(g, seat, steps=steps)

    def _resume_move(self, g: GameState, seat: int, steps: int | None = None,
                     square: int | None = None) -> None:
        """A pending choice is settled: move (by steps, or straight to a square), land, go on."""
        g.phase = MOVING
        g.pending = None
        if square is None:
            self._advance(g, seat, steps)
        else:
            self._move_to(g, seat, square)
        self._land(g, seat)
        if g.phase == MOVING:
            self._continue(g)

    def why_not_move_to(self, g: GameState, seat: int, square) -> str | None:
        if g.phase != TRIPLES or g.pending.get("player") != seat:
            return "no triples choice pending"
        if not isinstance(square, int) or not 0 <= square < 40:
            return "a square 0..39"
        return None

    def move_to(self, g: GameState, seat: int, square: int) -> None:
        self._resume_move(g, seat, square=square)

    def _mr_monopoly(self, g: GameState) -> None:
        """After the normal move: on to the next unowned property, else the next that charges rent."""
        p = g.current
        if g.bankrupt[p] or g.in_jail[p]:
            return
        pos = g.pos[p]
        target = -1
        for k in range(1, 40):
            s = (pos + k) % 40
            if self.is_ownable[s] and g.owner[s] < 0:
                target = s
                break
        if target < 0:
            opponent = self.cfg.speed_die.mr_monopoly == "nearest_unowned_else_nearest_opponent"
            for k in range(1, 40):
                s = (pos + k) % 40
                if self.is_ownable[s] and g.owner[s] not in (-1, p) and (
                        (opponent and not self.same_team(g, p, g.owner[s])) or self.rent(g, s, p) > 0):
                    target = s
                    break
        if target < 0:
            return
        if g.events is not None:
            self._ev(g, event="mr_monopoly", player=p, square=target)
        g.phase = MOVING
        self._move_to(g, p, target)
        g.no_auction = not self.cfg.speed_die.mr_monopoly_decline_auction
        self._land(g, p)
