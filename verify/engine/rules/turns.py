"""A player's turn: rolling the dice (doubles, the speed die), the ways out of jail, the speed die's bus and
triples choices; each hands the move to ``movement`` and the game on to ``flow``.

Functions of the per-config ``Tables`` ``t`` and the ``GameState`` ``g`` (see
``verify.engine.rules``); they change ``g`` in place.
"""

from __future__ import annotations

from typing import Final, Sequence

from . import base, debts, flow, movement
from .common import BUS, JAIL_CHOICE, MOVING, POST_ROLL, PRE_ROLL, TRIPLES, GameState, Tables
from ..reasons import refusal, structural

ROLL_PHASE: Final = structural("cannot roll in phase {phase}", "phase")
ROLL_TURN: Final = structural("only the current player rolls", "turn")
ROLL_DICE: Final = structural("roll needs {n} dice, each 1..6", "fields")
NOT_IN_JAIL: Final = structural("not in jail", "phase")
FINE_CASH: Final = structural("cannot pay the fine", "ownership")
OWN_TURN: Final = structural("only in one's own turn", "turn")
FINE_BEFORE_ROLL: Final = refusal("the fine is paid before rolling", "jail.fine_timing")
NOT_NOW: Final = structural("not now", "phase")
FINE_VOLUNTARY: Final = refusal("the fine may be paid voluntarily only in the first {n} turns",
                         "jail.fine_voluntary_turns")
NO_CARD_EXIT: Final = refusal("cards do not release from jail", "jail.card_exit")
NO_JAIL_CARD: Final = structural("holds no Get Out of Jail Free card", "ownership")
CARD_BEFORE_ROLL: Final = refusal("only before rolling", "jail.fine_timing")
NO_JAIL_CHOICE: Final = structural("no jail choice pending", "phase")
NO_BUS: Final = structural("no bus choice pending", "phase")
BUS_STEPS: Final = structural("the bus moves by one of {options}", "fields")
NO_TRIPLES: Final = structural("no triples choice pending", "phase")
A_SQUARE: Final = structural("a square 0..39", "fields")


def why_not_roll(t: Tables, g: GameState, seat: int, dice) -> str | None:
    if g.phase != PRE_ROLL:
        return ROLL_PHASE.format(phase=g.phase)
    if seat != g.current:
        return ROLL_TURN
    need = base.dice_needed(t, g)
    if not isinstance(dice, (list, tuple)) or len(dice) != need or not all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
        return ROLL_DICE.format(n=need)
    return None


def roll(t: Tables, g: GameState, seat: int, thrown: Sequence[int]) -> None:
    p = g.current
    if g.claims:
        debts.expire_claims(t, g)
    if g.received:          # a received mortgage is no longer lifted "at once" once the dice roll
        g.received = {}
    g.phase = MOVING
    g.stage = "move"
    g.rolled = True
    dice: tuple[int, ...] = tuple(thrown)
    g.dice = dice
    g.salary_paid = g.salary_paid and t.cfg.movement.salary_once_per_turn   # a re-roll does not reset it
    g.mr_pending = g.no_auction = g.jailed = g.reroll = g.still = False
    g.rent_factor, g.util_mult, g.steps_after_debts = 1, 0, 0
    if g.events is not None:
        g.events.append({"event": "rolled", "player": p, "dice": list(dice)})
    if g.timed_out is False:
        g.missed[p] = 0
    if g.in_jail[p]:
        jail_roll(t, g, p, dice)
        if g.phase == MOVING:
            flow.resume(t, g)
        return
    mv = t.cfg.movement
    n = t.white
    d1 = dice[0]
    if n == 2:
        d2 = dice[1]
        doubles = d1 == d2
        steps = d1 + d2
    else:
        doubles = n >= 2 and d1 == dice[1]
        steps = sum(dice[:n])
    special = 0
    sd = t.cfg.speed_die
    if sd.enabled and len(dice) > n:     # the speed die, where it is in play, is the last die
        sp = dice[n]
        if sp <= sd.pip_faces:
            if n >= 2 and d1 == dice[1] == sp:
                doubles = sd.triples_count_as_doubles
                special = 3
            elif not sd.doubles_white_only and not doubles and (d1 == sp or dice[1] == sp):
                doubles = True
            steps += sp
        elif sp <= t.mr_faces_top:
            g.mr_pending = True
        else:
            special = 6
    if doubles:
        g.doubles[p] = g.doubles[p] + 1
        if mv.doubles_to_jail is not None and g.doubles[p] >= mv.doubles_to_jail:
            if mv.last_double_moves:
                movement.advance(t, g, p, steps)
            g.mr_pending = False
            movement.send_to_jail(t, g, p)
            flow.resume(t, g)
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
    movement.advance(t, g, p, steps)
    movement.land(t, g, p)
    if g.phase == MOVING:
        flow.resume(t, g)


def jail_roll(t: Tables, g: GameState, p: int, dice: tuple[int, ...]) -> None:
    j = t.cfg.jail
    d1, d2 = dice[0], dice[1] if len(dice) > 1 else -1
    g.jail_turns[p] = g.jail_turns[p] + 1
    steps = d1 + (d2 if d2 > 0 else 0)
    if d1 == d2:
        leave_jail(g, p, "doubles")
        if j.doubles_exit_moves:
            movement.advance(t, g, p, steps)
            movement.land(t, g, p)
        else:
            g.still = True
        g.reroll = j.doubles_exit_rolls_again
        return
    if g.jail_turns[p] >= j.max_tries:
        if j.after_last_try == "pay_fine_and_move":
            base.charge(t, g, p, -1, j.fine, "fine")
        leave_jail(g, p, "last_try")
        g.steps_after_debts = steps  # the fine is paid (or the cash raised) before the token moves
        return
    if j.fine_after_failed_roll_same_turn:
        g.phase = JAIL_CHOICE
        g.pending = {"player": p, "steps": steps}
        return
    g.jailed = True  # stays: the turn ends, the token did not move
    g.still = True


def leave_jail(g: GameState, p: int, how: str) -> None:
    g.in_jail[p] = False
    g.jail_turns[p] = 0
    if g.events is not None:
        g.events.append({"event": "left_jail", "player": p, "how": how})


def why_not_pay_fine(t: Tables, g: GameState, seat: int) -> str | None:
    j = t.cfg.jail
    if not g.in_jail[seat] or g.bankrupt[seat]:
        return NOT_IN_JAIL
    if g.phase == JAIL_CHOICE and g.pending.get("player") == seat:
        return None if g.cash[seat] >= j.fine else FINE_CASH
    if seat != g.current:
        return OWN_TURN
    if j.fine_timing == "before_rolling":
        if g.phase != PRE_ROLL:
            return FINE_BEFORE_ROLL
    elif g.phase not in (PRE_ROLL, POST_ROLL):
        return NOT_NOW
    if j.fine_voluntary_turns is not None and g.jail_turns[seat] >= j.fine_voluntary_turns:
        return FINE_VOLUNTARY.format(n=j.fine_voluntary_turns)
    if g.cash[seat] < j.fine:
        return FINE_CASH
    return None


def pay_fine(t: Tables, g: GameState, seat: int) -> None:
    base.charge(t, g, seat, -1, t.cfg.jail.fine, "fine")
    leave_jail(g, seat, "fine")
    after_release(t, g, seat)


def why_not_use_card(t: Tables, g: GameState, seat: int, deck: str | None = None) -> str | None:
    j = t.cfg.jail
    if not j.card_exit:
        return NO_CARD_EXIT
    if not g.in_jail[seat] or g.bankrupt[seat]:
        return NOT_IN_JAIL
    if not g.jail_cards[seat]:
        return NO_JAIL_CARD
    if seat != g.current or g.phase not in (PRE_ROLL, POST_ROLL, JAIL_CHOICE):
        return OWN_TURN
    if g.phase == POST_ROLL and j.fine_timing == "before_rolling":
        return CARD_BEFORE_ROLL
    return None


def use_card(t: Tables, g: GameState, seat: int, deck: str | None = None) -> None:
    held = g.jail_cards[seat]
    deck = deck if deck in held else held[0]
    held.remove(deck)
    base.return_cards(t, g, [deck])
    leave_jail(g, seat, "card")
    after_release(t, g, seat)


def after_release(t: Tables, g: GameState, seat: int) -> None:
    if g.phase == JAIL_CHOICE:      # paid or used a card after the failed roll: move by that roll,
        g.steps_after_debts = g.pending["steps"]     # once the fine is paid
        g.phase = MOVING
        g.pending = None
        flow.resume(t, g)
        return
    if g.phase == PRE_ROLL and not t.cfg.jail.card_exit_then_roll:
        g.stage = "post"     # released, but no roll this turn
        g.rolled = True
    g.phase = MOVING
    flow.resume(t, g)
    if (g.phase == POST_ROLL and g.stage == "post" and g.rolled
            and t.cfg.movement.turn_end == "automatic_after_square"):
        flow.next_turn(t, g)


def why_not_stay(t: Tables, g: GameState, seat: int) -> str | None:
    if g.phase != JAIL_CHOICE or g.pending.get("player") != seat:
        return NO_JAIL_CHOICE
    return None


def stay(t: Tables, g: GameState, seat: int) -> None:
    g.phase = MOVING
    g.pending = None
    g.jailed = True
    g.still = True
    flow.resume(t, g)


def why_not_bus(t: Tables, g: GameState, seat: int, steps) -> str | None:
    if g.phase != BUS or g.pending.get("player") != seat:
        return NO_BUS
    if steps not in g.pending["options"]:
        return BUS_STEPS.format(options=g.pending["options"])
    return None


def bus(t: Tables, g: GameState, seat: int, steps: int) -> None:
    resume_move(t, g, seat, steps=steps)


def resume_move(t: Tables, g: GameState, seat: int, steps: int = 0, square: int | None = None) -> None:
    """A pending choice is settled: move (by steps, or straight to a square), land, go on."""
    g.phase = MOVING
    g.pending = None
    if square is None:
        movement.advance(t, g, seat, steps)
    else:
        movement.move_forward_to(t, g, seat, square)
    movement.land(t, g, seat)
    if g.phase == MOVING:
        flow.resume(t, g)


def why_not_move_to(t: Tables, g: GameState, seat: int, square) -> str | None:
    if g.phase != TRIPLES or g.pending.get("player") != seat:
        return NO_TRIPLES
    if not isinstance(square, int) or not 0 <= square < t.size:
        return A_SQUARE
    return None


def move_to(t: Tables, g: GameState, seat: int, square: int) -> None:
    resume_move(t, g, seat, square=square)
