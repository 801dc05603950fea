"""The adapter's side of GNOME's agent interface: a puppet agent, and a runner that pauses GNOME mid-call.

GNOME asks its agents for decisions from inside its rule code: ``Bank.auction``
loops, asking one bidder after another (``agent.make_bid``) until one is left.
Protocol 1 brings one action at a time, so the adapter runs such a call in a
worker thread (``Runner``) that stops at each question and waits for the
next action's answer; the main thread and the worker never run at once.

The ``Puppet`` is every player's agent. It answers from the action being
applied: a bid (or 0, a pass) when the runner has one, ``False`` to "buy?"
(asked only when the adapter drives a decline), and "nothing more" when GNOME
asks a bankrupt-to-be player to raise cash at the end of the turn (the
protocol gives no further action then). The in-progress auction is read from
``Bank.auction``'s own variables (the caller's frame), not re-derived.
"""

from __future__ import annotations

import queue
import sys
import threading
from dataclasses import dataclass
from typing import Any, Callable

#: how long the main thread waits for GNOME's worker to reach its next question
WAIT_SECONDS = 60.0


class _Abort(BaseException):
    """Unwinds an abandoned GNOME call (a new state was loaded mid-auction)."""


@dataclass(frozen=True)
class BidQuestion:
    """GNOME's auction asks ``seat`` for a bid; the auction's state at that moment."""

    seat: int
    square: int
    high: float
    leader: int            # -1: nobody has bid yet
    out: tuple[int, ...]   # seats out of the auction (passed, or out of the game)


class Runner:
    """One GNOME call in a worker thread, paused at each question it asks through the puppet."""

    def __init__(self, fn: Callable[[], Any]):
        self._fn = fn
        self._to_worker: queue.Queue = queue.Queue()
        self._to_main: queue.Queue = queue.Queue()
        self.question: BidQuestion | None = None
        self.done = False
        self.result: Any = None
        self._thread = threading.Thread(target=self._main, name="gnome-adapter", daemon=True)

    def start(self) -> None:
        self._thread.start()
        self._wait()

    def _main(self) -> None:
        try:
            r = self._fn()
        except _Abort:
            self._to_main.put(("aborted", None))
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread, raised there
            self._to_main.put(("error", exc))
        else:
            self._to_main.put(("done", r))

    def ask(self, question: BidQuestion) -> Any:
        """Called in the worker: publish the question, wait for the answer."""
        self._to_main.put(("ask", question))
        kind, value = self._to_worker.get()
        if kind == "abort":
            raise _Abort()
        return value

    def _wait(self) -> None:
        try:
            kind, value = self._to_main.get(timeout=WAIT_SECONDS)
        except queue.Empty:
            raise RuntimeError(f"GNOME did not reach its next question within {WAIT_SECONDS:.0f} s") from None
        if kind == "ask":
            self.question = value
            return
        self.question = None
        self.done = True
        if kind == "error":
            raise value
        self.result = value

    def answer(self, value: Any) -> None:
        if self.done:
            raise RuntimeError("the GNOME call has finished; nothing to answer")
        self.question = None
        self._to_worker.put(("answer", value))
        self._wait()

    def abort(self) -> None:
        if not self.done and self._thread.is_alive():
            self._to_worker.put(("abort", None))
            self._thread.join(WAIT_SECONDS)
        self.done = True
        self.question = None


class Channel:
    """Where the puppets find the runner of the call in progress (shared by the players of one board)."""

    def __init__(self) -> None:
        self.runner: Runner | None = None


class Puppet:
    """Every player's GNOME agent: answers GNOME's questions from the action being applied."""

    type = "verify-conform-puppet"

    def __init__(self, channel: Channel, success_code: int):
        self._channel = channel
        self._success = success_code
        self._agent_memory: dict = {}
        self.is_running = True

    def make_bid(self, player, current_gameboard, asset, current_bid):
        frame = sys._getframe(1).f_locals          # Bank.auction's own variables
        players = current_gameboard["players"]
        seat = players.index(player)
        leader = frame.get("winning_player")
        out = tuple(sorted(players.index(p) for p in frame.get("players_out_of_auction", ())))
        q = BidQuestion(seat, current_gameboard["location_sequence"].index(asset), current_bid,
                        -1 if leader is None else players.index(leader), out)
        runner = self._channel.runner
        if runner is None:   # pragma: no cover - GNOME auctions only inside calls the adapter runs
            raise RuntimeError("GNOME asked for a bid outside a call the adapter runs")
        return runner.ask(q)

    def make_buy_property_decision(self, player, current_gameboard, asset):
        return False               # asked only when the adapter drives a decline

    def handle_negative_cash_balance(self, player, current_gameboard):
        return None, self._success  # the protocol brings no further action within end_turn

    def _not_driven(self, *args, **kwargs):
        raise RuntimeError("GNOME asked the adapter's agent for a move; the adapter calls GNOME's actions itself")

    make_pre_roll_move = make_out_of_turn_move = make_post_roll_move = _not_driven


__all__ = ["Runner", "Channel", "Puppet", "BidQuestion", "WAIT_SECONDS"]
