"""The screen of a checked game: every promised invariant decided after every action, on the game loop's
fast path, by the functions generated from the invariants' trees (``verify.engine.screen_predicates``).

A checked game (``verify simulate --check-invariants``, a checked campaign) used to hand every action to a
recorder, which applied it, built the state's slices and ran the reference's bookkeeping
(``verify.engine.slices``, ``verify.incremental``): several times the cost of the game. The screen is
what the game loop calls natively after each action instead: it compares the columns the invariants read
with their copies from the last action (in C), runs the functions of the invariants that read a column
that changed (of a step invariant, that changed a slice of its frame: ``verify.frames``), and copies the
columns that changed. Everything held on the last state, so an invariant whose columns are as they were
holds still.

The screen only ever says "every promised invariant holds" or "not sure". On "not sure" (a function
found an invariant broken, or a bankruptcy the screen cannot read), the game loop stops and
``verify.engine.simulate.play_game`` plays the same seeded game again through the recorder, whose
reference checks give the verdict and the violation as they always did: the report of a broken
invariant is the reference's. A ruleset whose invariants are not all generated (an undecided rule
parameter, an expression the generator leaves out) gets no screen: the recorder checks it all the way.
``tests/test_screen.py`` holds the functions to the reference on real and corrupted states.
"""

from __future__ import annotations

from typing import Final, Optional

from .screen_predicates import PARAMETERS, STATES, STEPS, TABLES, Act, Before, Board, Changed, part, step, stock
from .state import GameState

#: the bit of the bankrupt column among the changes (``verify.screen_code.CHANGING``)
BANKRUPT: Final = 4


class Plan:
    """What a step that changed a given set of slices runs (``Screen.plan``): the state invariants' conjuncts
    run whole and locally (``part``'s numbers), the step invariants (``step``'s), and whether one of these
    reads the action."""

    def __init__(self, full: list[int], local: list[int], steps: list[int], acting: bool) -> None:
        self.full = full
        self.local = local
        self.steps = steps
        self.acting = acting


class Screen:
    """The screen of one game (see the module docstring): ``after(g)`` after each action, True when every
    promised invariant holds on ``g`` and on the step to it."""

    def __init__(self, board: Board, parts: list[tuple[int, int, int, int]], steps: list[tuple[int, bool, int]],
                 g: GameState) -> None:
        self.board = board
        #: the promised state invariants' conjuncts: (the changes they read, the function's number (``part``),
        #: the local function's or -1, the changes that rule the local one out)
        self.parts = parts
        #: the promised step invariants: (the changes they are decided on, whether they read the action, the
        #: function's number (``step``))
        self.steps_due = steps
        self.before = Before()
        self.nobody = Act(-1, -1, -1, False)
        self.everywhere = Changed([], [], [])
        self.changed: dict[int, Changed] = {}     # squares changed (bits) -> the deeds, streets, groups among them
        self.plans: dict[int, Plan] = {}          # slices changed (bits) -> what runs
        #: each square's colour group (an index into the board's groups), -1 for none
        self.group_at: list[int] = [-1] * (max(board.props) + 1 if board.props else 0)
        for gi in board.groups:
            for sq in board.gstreets[gi]:
                self.group_at[sq] = gi
        self.steps = 0
        self.creditors = 0              # the bankruptcies of the game seen so far (``GameState.creditors``)
        self.houses_raw = 0             # the bank's stocks as the engine holds them, before
        self.hotels_raw = 0
        self.ok = self.first(g)

    def first(self, g: GameState) -> bool:
        """Whether every state invariant holds on the game's first state (its columns copied)."""
        self.copy(g, -1, 0)
        board, d = self.board, self.everywhere
        for _, full, _, _ in self.parts:
            if not part(full, g, board, d):
                return False
        return True

    def after(self, g: GameState) -> bool:
        """Whether every promised invariant holds after the action just applied to ``g`` (False: not sure)."""
        self.steps += 1
        b = self.before
        bits = 0
        if g.cash != b.cash:
            bits = 1
        if g.in_jail != b.in_jail:
            bits |= 2
        if g.bankrupt != b.bankrupt:
            bits |= 4
        mask = 0
        dirty = g.dirty
        if dirty:
            # the squares whose deed columns a rule wrote: which of their columns now differ
            g.dirty = 0
            owner, mortgaged, houses, hotel = g.owner, g.mortgaged, g.houses, g.hotel
            sq = 0
            while dirty:
                if not dirty & 255:         # (eight squares at a time where none was written)
                    dirty >>= 8
                    sq += 8
                    continue
                if dirty & 1:
                    differs = False
                    if owner[sq] != b.owner[sq]:
                        bits |= 8
                        differs = True
                    if mortgaged[sq] != b.mortgaged[sq]:
                        bits |= 16
                        differs = True
                    if houses[sq] != b.houses[sq]:
                        bits |= 32
                        differs = True
                    if hotel[sq] != b.hotel[sq]:
                        bits |= 64
                        differs = True
                    if differs:
                        mask |= 1 << sq
                dirty >>= 1
                sq += 1
        if g.jail_cards != b.jail_cards:
            bits |= 128
        if g.bank_houses != self.houses_raw:
            bits |= 256
        if g.bank_hotels != self.hotels_raw:
            bits |= 512
        if g.bank_cash != b.bank_cash:
            bits |= 1024
        if g.pot != b.pot:
            bits |= 2048
        if g.jackpot != b.jackpot:
            bits |= 4096
        if bits == 0:
            return True
        plan = self.plans.get(bits)
        if plan is None:
            plan = self.plan(bits)
        board = self.board
        if plan.local:
            d = self.squares(mask)
            for i in plan.local:
                if not part(i, g, board, d):
                    return False
        for i in plan.full:
            if not part(i, g, board, self.everywhere):
                return False
        if plan.steps:
            act = self.nobody
            if plan.acting:
                record = self.bankruptcy(g)
                if record is None:
                    return False
                act = record
            for i in plan.steps:
                if not step(i, g, b, board, act):
                    return False
        self.copy(g, bits, mask)
        return True

    def plan(self, bits: int) -> Plan:
        """What a step that changed the slices ``bits`` runs (remembered)."""
        full, local, steps = [], [], []
        acting = False
        for reads, whole, part_local, shared in self.parts:
            if reads & bits:
                if part_local >= 0 and not (shared & bits):
                    local.append(part_local)
                else:
                    full.append(whole)
        for due, reads_action, fn in self.steps_due:
            if due & bits:
                steps.append(fn)
                acting = acting or reads_action
        out = self.plans[bits] = Plan(full, local, steps, acting)
        return out

    def squares(self, mask: int) -> Changed:
        """The deeds, streets and groups with a square in ``mask`` (the squares whose deed columns changed)."""
        out = self.changed.get(mask)
        if out is None:
            board = self.board
            deeds = [sq for sq in board.props if mask >> sq & 1]
            streets = [sq for sq in board.streets if mask >> sq & 1]
            groups: list[int] = []
            for sq in deeds:
                gi = self.group_at[sq]
                if gi >= 0 and gi not in groups:
                    groups.append(gi)
            groups.sort()
            if len(self.changed) >= 4096:
                self.changed.clear()
            out = self.changed[mask] = Changed(deeds, streets, groups)
        return out

    def bankruptcy(self, g: GameState) -> Optional[Act]:
        """The action's record on a step that made a player bankrupt (as the reference reads it: the first
        player newly bankrupt, the creditor of the first bankruptcy in the step); None when the step made
        nobody bankrupt."""
        was = self.before.bankrupt
        creditors = g.creditors
        for p in range(len(was)):
            if g.bankrupt[p] and not was[p]:
                if len(creditors) <= self.creditors:
                    return None
                creditor = creditors[self.creditors]
                self.creditors = len(creditors)
                return Act(p, creditor, self.board.teams[p], True)
        return None

    def copy(self, g: GameState, bits: int, mask: int) -> None:
        """Remember the slices that ``bits`` says changed (-1: all of them; the deed columns at the squares of
        ``mask``) as the next step's before."""
        b = self.before
        if bits & 1:
            b.cash = list(g.cash)
        if bits & 2:
            b.in_jail = list(g.in_jail)
        if bits & 4:
            b.bankrupt = list(g.bankrupt)
        if bits == -1:
            b.owner, b.mortgaged, b.houses, b.hotel = list(g.owner), list(g.mortgaged), list(g.houses), list(g.hotel)
            g.dirty = 0
        elif mask:
            sq = 0
            while mask:
                if not mask & 255:
                    mask >>= 8
                    sq += 8
                    continue
                if mask & 1:
                    b.owner[sq] = g.owner[sq]
                    b.mortgaged[sq] = g.mortgaged[sq]
                    b.houses[sq] = g.houses[sq]
                    b.hotel[sq] = g.hotel[sq]
                mask >>= 1
                sq += 1
        if bits & 128:
            b.jail_cards = [list(held) for held in g.jail_cards]
        if bits & 256:
            self.houses_raw = g.bank_houses
            b.bank_houses = stock(g.bank_houses)
        if bits & 512:
            self.hotels_raw = g.bank_hotels
            b.bank_hotels = stock(g.bank_hotels)
        if bits & 1024:
            b.bank_cash = g.bank_cash
        if bits & 2048:
            b.pot = g.pot
        if bits & 4096:
            b.jackpot = g.jackpot


def screen_checks(promised: list[str]) -> Optional[tuple[list, list]]:
    """The screen's checks for the invariants ``promised`` (ids): the state invariants' conjuncts and the step
    invariants (see ``Screen``); None when one of them has no function (the recorder then checks the game)."""
    states = {row[0]: row for row in STATES}
    steps = {row[0]: row for row in STEPS}
    parts: list = []
    step_checks: list = []
    for pid in promised:
        if pid in states:
            parts.extend(states[pid][2])
        elif pid in steps:
            _, due, acting, fn = steps[pid]
            if acting and due != BANKRUPT:      # (the screen knows the action of a bankruptcy only)
                return None
            step_checks.append((due, acting, fn))
        else:
            return None
    return parts, step_checks


__all__ = ["Screen", "Plan", "screen_checks", "BANKRUPT", "PARAMETERS", "TABLES"]
