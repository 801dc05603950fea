"""One game on the reference engine, steered move by move: a table where every roll of the dice is chosen.

Dice are a field of the ``roll`` action, so a run can put a player on the deed it must buy and every
other player on a square where nothing happens (a square of their own, Just Visiting, an unowned
deed they decline...). Every action goes through the engine's step API, and after each one the
engine's concrete invariant checker (the one ``verify simulate --check-invariants`` and
``verify replay`` use) judges the new state: the first broken invariant is kept with its step.

A move the table cannot make (no harmless square in reach, a refusal of the rules) raises
``Stuck`` with the reason, which the caller reports; the table never bends a rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..config import EngineConfig
from ..engine.step import IllegalAction, apply, legal_actions, new_game
from ..engine.trace import InvariantChecker, _action_for_check
from .. import invariants as inv

#: turns a table plays to bring a player to a square, or the turn to a player, before it gives up
PATIENCE = 60
#: square kinds where landing changes nothing
_QUIET = ("jail", "free_parking", "go")


class Stuck(Exception):
    """The table cannot make the move it was asked for (the reason is the message)."""


@dataclass(frozen=True)
class Broken:
    """A step that broke invariants: the engine's checker found them violated after it, not before."""

    step: int
    invariants: tuple[str, ...]
    messages: tuple[str, ...]


class Table:
    """A game of ``players`` from its start (``new_game(config, players, seed)``), steered."""

    def __init__(self, config: EngineConfig, players: int, seed: int, judged: list[str]):
        self.config, self.players, self.seed = config, players, seed
        self.first = new_game(config, players, seed)
        self.state = self.first
        self.steps: list[tuple[dict, list, dict]] = []       # (action, events, state after)
        self.judged = sorted(set(judged))
        self._checker = InvariantChecker(config, self.judged, check_state=inv.check_state,
                                         check_step=inv.check_step)
        self.breaks: list[Broken] = []      # every step that broke an invariant, in order
        self._violated: set[str] = set()    # the invariants violated after the last step
        self.moves: list = []               # the moves of a run made so far (verify.runs.play)
        self.ends: list[int] = []           # per move made: the game's step count after it
        self._judge(None, self.state, None, [])

    # ---- the step API, judged -----------------------------------------------------------------------
    def do(self, action: dict) -> list[dict]:
        """Apply ``action`` (IllegalAction when the rules refuse it); judge the new state."""
        before = self.state
        after, events = apply(self.config, before, action)
        self.state = after
        self.steps.append((action, events, after))
        self._judge(before, after, action, events)
        return events

    def move_of_step(self, step: int) -> int | None:
        """The move (an index into ``moves``) during which the game's ``step`` was taken."""
        begin = 0
        for i, end in enumerate(self.ends):
            if begin < step <= end:
                return i
            begin = end
        return None

    @property
    def broken(self) -> Broken | None:
        """The first break (None while every judged invariant holds)."""
        return self.breaks[0] if self.breaks else None

    def _judge(self, before, after, action, events) -> None:
        """Note the invariants this step broke: violated now, and not already before it (a broken state
        invariant stays broken on the steps that follow)."""
        bad = self._checker(before, after, _action_for_check(action, events) if action else None)
        now = {v.invariant for v in bad}
        new = [v for v in bad if v.invariant not in self._violated]
        self._violated = now
        if new:
            self.breaks.append(Broken(len(self.steps), tuple(dict.fromkeys(v.invariant for v in new)),
                                      tuple(str(v) for v in new)))

    def try_do(self, action: dict) -> str | None:
        """Apply ``action``; the rules' reason when they refuse it (nothing applied), else None."""
        try:
            self.do(action)
        except IllegalAction as exc:
            return exc.message
        return None

    # ---- reading the state -----------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self.state["phase"]

    @property
    def current(self) -> int:
        return self.state["current"]

    def position(self, seat: int) -> int:
        return self.state["players"][seat]["position"]

    def owner(self, square: int) -> int | None:
        return self._prop(square)["owner"]

    def _prop(self, square: int) -> dict:
        return next(p for p in self.state["properties"] if p["square"] == square)

    def awaited(self) -> int:
        """Who the state waits for (the step API's default seat)."""
        pend = self.state.get("pending") or {}
        if self.phase == "debt":
            return pend["debtor"]
        if self.phase == "auction":
            if pend.get("turn") is not None:
                return pend["turn"]
            rest = [q for q in pend["bidders"] if q != pend.get("leader")]
            return (rest or pend["bidders"])[0]
        return pend.get("player", self.current)

    # ---- moving --------------------------------------------------------------------------------------------
    def dice_for(self, distance: int) -> list[int] | None:
        """Two different dice that make ``distance`` (no doubles: no second roll), or None."""
        if self.config.movement.dice_count != 2 or self.config.speed_die.enabled:
            return None
        for d1 in range(1, 7):
            d2 = distance - d1
            if 1 <= d2 <= 6 and d1 != d2:
                return [d1, d2]
        return None

    def quiet(self, square: int, seat: int) -> int:
        """How quiet landing on ``square`` is for ``seat``: 2 nothing happens, 1 an unowned deed to decline,
        0 something happens (rent, a card, a tax, jail)."""
        kinds = self.config.board.squares
        kind = kinds[square]
        if kind in _QUIET:
            return 0 if kind == "free_parking" and self.state.get("pot") else 2
        if kind in ("street", "station", "utility"):
            prop = self._prop(square)
            if prop["owner"] is None:
                return 1
            if prop["owner"] == seat:
                return 2
            if prop["mortgaged"] and not self.config.rent.mortgaged_collects:
                return 2
            return 0
        return 0

    def roll_to(self, seat: int, square: int) -> None:
        """``seat`` moves to ``square`` (a turn of its own, harmless turns of the others in between)."""
        for _ in range(PATIENCE):
            self.turn_of(seat)
            dist = (square - self.position(seat)) % 40
            dice = self.dice_for(dist)
            if dice is not None:
                self.do({"type": "roll", "seat": seat, "dice": dice})
                return
            self.wander(seat, towards=square)
        raise Stuck(f"player {seat} could not be brought to square {square}")

    def wander(self, seat: int, towards: int | None = None) -> None:
        """A harmless turn of ``seat``: a roll to the quietest square in reach (the nearest to ``towards``
        from where a roll reaches it), then the turn ends."""
        pos = self.position(seat)
        best = None
        for dist in range(3, 12):
            dice = self.dice_for(dist)
            if dice is None:
                continue
            sq = (pos + dist) % 40
            q = self.quiet(sq, seat)
            if q == 0:
                continue
            left = (towards - sq) % 40 if towards is not None else 0
            score = (q, 3 <= left <= 11, -left if towards is not None else dist)
            if best is None or score > best[0]:
                best = (score, dice)
        if best is None:
            raise Stuck(f"player {seat} has no quiet square within reach of square {pos}")
        self.do({"type": "roll", "seat": seat, "dice": best[1]})
        self.settle(seat)
        self.end_turn()

    def turn_of(self, seat: int) -> None:
        """Play the others' turns harmlessly until ``seat`` is about to roll."""
        for _ in range(PATIENCE):
            self.settle(None)
            if self.current == seat and self.phase == "pre_roll":
                return
            if self.phase == "post_roll":
                self.end_turn()
                continue
            if self.phase == "pre_roll":
                self.leave_jail(self.current)
                self.wander(self.current)
                continue
            raise Stuck(f"the game waits in phase {self.phase} for player {self.awaited()}")
        raise Stuck(f"the turn never came to player {seat}")

    def leave_jail(self, seat: int) -> None:
        if self.state["players"][seat]["in_jail"]:
            if self.try_do({"type": "pay_fine", "seat": seat}) and self.try_do({"type": "use_card", "seat": seat}):
                raise Stuck(f"player {seat} is in jail and cannot leave it")

    def end_turn(self) -> None:
        if self.phase == "post_roll":
            self.do({"type": "end_turn", "seat": self.current})

    def settle(self, planned: int | None) -> None:
        """Resolve what a landing opened that is not the plan's: a deed declined (and its auction passed),
        an income tax paid by its first option, the casino walked past."""
        for _ in range(4 * PATIENCE):
            phase = self.phase
            if phase == "buy":
                if planned is not None and self.awaited() == planned:
                    return          # the plan decides what to do with the deed
                self.do({"type": "decline", "seat": self.awaited()})
            elif phase == "auction":
                self.do({"type": "pass", "seat": self.awaited()})
            elif phase == "income_tax":
                self.do({"type": "pay_tax", "seat": self.awaited(), "option": "fixed"})
            elif phase == "casino":
                if self.try_do({"type": "casino_decline", "seat": self.awaited()}):
                    raise Stuck("the casino cannot be walked past")
            elif phase == "jail_choice":
                self.do({"type": "stay", "seat": self.awaited()})
            else:
                return
        raise Stuck(f"phase {self.phase} never settled")

    def claim(self, payer: int, square: int) -> None:
        """Where rent is owed only once the owner asks for it, the owner asks for what ``payer`` owes for
        ``square`` (nothing to do where the landing charged it already)."""
        for c in (self.state.get("queue") or {}).get("claims", []):
            if c[0] == payer and c[2] == square:
                self.do({"type": "claim_rent", "seat": c[1], "square": square})
                return

    def auction(self, winner: int | None, amount: int) -> None:
        """The running auction: ``winner`` bids ``amount`` (or the least bid the rules take), the others
        pass; nobody bids when ``winner`` is None."""
        for _ in range(4 * PATIENCE):
            if self.phase != "auction":
                return
            seat = self.awaited()
            pend = self.state["pending"]
            if winner is not None and seat == winner and pend.get("leader") != winner:
                if self.try_do({"type": "bid", "seat": seat, "amount": amount}) is None:
                    continue
                least = [a for a in legal_actions(self.config, self.state)
                         if a["type"] == "bid" and a.get("seat", seat) == seat]
                if least and self.try_do(dict(least[0], seat=seat)) is None:
                    continue
            self.do({"type": "pass", "seat": seat})
        raise Stuck("the auction never ended")

    def manage(self, action: dict) -> None:
        """A management action (build, sell, mortgage, trade...): now if the rules allow it, else at the
        acting player's next turn (before or after its roll)."""
        why = self.try_do(action)
        if why is None:
            return
        seat = action["seat"]
        for _ in range(2):
            self.turn_of(seat)
            if self.try_do(action) is None:
                return
            self.wander_keep(seat)
            if self.try_do(action) is None:
                return
            self.end_turn()
        raise Stuck(f"{action['type']} by player {seat} refused: {why}")

    def wander_keep(self, seat: int) -> None:
        """A harmless roll of ``seat`` that leaves its turn open (after the roll)."""
        pos = self.position(seat)
        for dist in sorted(range(3, 12), key=lambda d: -self.quiet((pos + d) % 40, seat)):
            dice = self.dice_for(dist)
            if dice is not None and self.quiet((pos + dist) % 40, seat):
                self.do({"type": "roll", "seat": seat, "dice": dice})
                self.settle(None)
                return
        raise Stuck(f"player {seat} has no quiet square within reach of square {pos}")
