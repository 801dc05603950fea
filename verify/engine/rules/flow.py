"""The flow of play: resolving queued debts and auctions, finishing a move, ending a turn, new rounds,
the end of the game.

A mixin of ``Rules`` (see ``verify.engine.rules``): methods read the tables ``RulesBase``
builds and change a ``GameState`` in place.
"""

from __future__ import annotations

from .common import DEBT, GameState, MOVING, OVER, POST_ROLL, PRE_ROLL


class FlowRules:
    """The flow of play (a mixin of ``Rules``)."""

    def _continue(self, g: GameState) -> None:
        """Resolve queued debts and auctions, then finish the move or start the next turn."""
        while True:
            if g.phase == OVER:
                return
            if g.debts:
                d = g.debts[0]
                if g.bankrupt[d[0]]:
                    g.debts.pop(0)
                    continue
                if d[1] >= 0 and g.bankrupt[d[1]]:
                    d[1] = -1
                if not self.explicit_pay and g.cash[d[0]] >= d[2]:
                    g.debts.pop(0)
                    self._settle(g, d)
                    continue
                g.phase = DEBT
                g.pending = {"debtor": d[0], "creditor": d[1], "amount": d[2], "kind": d[4]}
                return
            if g.auctions:
                if self._start_auction(g, g.auctions.pop(0)):
                    return
                continue
            if g.mr_pending:
                g.mr_pending = False
                self._mr_monopoly(g)
                if g.phase != MOVING:
                    return
                continue
            if g.steps_after_debts:    # a jail exit, its fine paid first: now the token moves
                steps, g.steps_after_debts = g.steps_after_debts, 0
                p = g.current
                if not g.bankrupt[p]:
                    self._advance(g, p, steps)
                    self._land(g, p)
                    if g.phase != MOVING:
                        return
                continue
            g.pending = None
            if g.stage == "move":
                self._after_move(g)
            elif g.bankrupt[g.current]:
                g.stage = "post"       # a bankrupt player's turn ends with its own end_turn step
                g.phase = POST_ROLL
            else:
                g.phase = PRE_ROLL if g.stage == "pre" else POST_ROLL
            return

    def _after_move(self, g: GameState) -> None:
        p = g.current
        g.stage = "post"
        if g.landings is not None and not g.bankrupt[p] and not g.still:   # a move ended here
            g.landings[g.pos[p]] += 1
        if g.bankrupt[p]:
            g.phase = POST_ROLL     # its end_turn is a step of its own
            return
        if g.timed_out:             # the game plays a timed-out turn to its end: no extra roll for doubles
            self.end_turn(g)
            return
        if g.reroll and not g.jailed and not g.in_jail[p]:
            g.stage = "pre"
            g.phase = PRE_ROLL
            return
        if g.jailed and self.cfg.jail.sent_ends_turn:
            self.end_turn(g)
            return
        if self.cfg.movement.turn_end == "automatic_after_square":
            self.end_turn(g)
            return
        g.phase = POST_ROLL

    def end_turn(self, g: GameState) -> None:
        p = g.current
        g.doubles[p] = 0
        g.player_turns += 1
        g.minute += self.secs_timeout if g.timed_out else self.sec_per_turn
        if not g.timed_out and not g.bankrupt[p]:
            g.missed[p] = 0
        g.rolled, g.dice, g.trades, g.timed_out = False, (), 0, False
        if g.built_streets:
            g.built_streets = set()
            g.built_groups = set()
        if g.received:
            g.received = {}
        g.reset_move()
        g.pending = None
        if self.limit_end and self._check_end(g):
            return
        n = g.n
        i = p
        wrapped = False
        while True:
            i += 1
            if i >= n:
                i = 0
                wrapped = True
            if not g.bankrupt[i]:
                break
        g.current = i
        if wrapped:
            g.round += 1
            self._new_round(g)
            if self.limit_end and self._check_end(g):
                return
        g.stage = "pre"
        g.phase = MOVING
        self._continue(g)

    def _new_round(self, g: GameState) -> None:
        mo = self.cfg.mortgage
        if mo.expiry_rounds is None:
            return
        self._touch_all(g)
        for s in self.ownable:
            if g.mortgaged[s] and g.owner[s] >= 0:
                g.mortgage_rounds[s] += 1
                if g.mortgage_rounds[s] >= mo.expiry_rounds:
                    former = g.owner[s]
                    g.owner[s] = -1
                    g.mortgaged[s] = False
                    g.mortgage_rounds[s] = 0
                    g.interest_paid[s] = False
                    opening = self.price[s] if mo.expiry_auction_opening is None else mo.expiry_auction_opening
                    g.auctions.append([s, "deed", opening, -1 if mo.expiry_auction_owner_bids else former,
                                       False, -1])
                    if g.events is not None:
                        self._ev(g, event="mortgage_expired", square=s, former_owner=former)

    def _check_end(self, g: GameState) -> bool:
        e = self.cfg.end
        live = [i for i in range(g.n) if not g.bankrupt[i]]
        sides = {g.team[i] if self.teams_on else i for i in live}
        winner = None
        if len(sides) <= 1 and (e.condition == "last_standing" or e.last_standing_also
                                or e.condition == "first_bankruptcy"):
            winner = max(live, key=lambda i: (self.net_worth(g, i), -i)) if live else None
            result = "last_standing"
        elif e.condition == "first_bankruptcy" and len(live) < g.n:
            result = "first_bankruptcy"
        elif e.condition == "time_limit" and e.time_limit_minutes is not None and g.minute >= e.time_limit_minutes:
            result = "time_limit"
        elif e.condition == "round_limit" and e.round_limit is not None and g.round >= e.round_limit:
            result = "round_limit"
        else:
            return False
        if winner is None and live and e.winner == "richest":
            winner = max(live, key=lambda i: (self.net_worth(g, i), -i))
        g.phase = OVER
        g.pending = None
        g.winner = winner
        g.result = result
        if g.events is not None:
            self._ev(g, event="game_over", winner=winner, result=result)
        return True
