"""Forked peers: ``--jobs N`` for a campaign of short chunks, this process and N - 1 copies of it pulling chunks.

A campaign of games is made of chunks of a few milliseconds to a few tens of
milliseconds, and a 500-game campaign lasts a fraction of a second: a worker
pool's start-up and hand-offs are then a large part of the run. Worse, a pool
is fed by threads of this process (the executor's manager and its queue
feeder), and those wait for the interpreter lock while this process plays a
chunk in compiled code, so a worker could idle for tens of milliseconds before
its first chunk. Here nothing waits on this process: it forks N - 1 peers once
the campaign is ready (they share its compiled rules, and the campaign itself,
nothing is pickled on the way in), and every process, this one included, takes
the next chunk from a counter in shared memory, in chunk order. Each peer sends
its results back on its own pipe; this process collects them between its own
chunks and at the end. Which process plays a chunk changes nothing: a result
depends on the chunk alone and the merge is in chunk order.

A peer that dies (killed, a crash in a chunk) loses the chunks it had taken:
they are known from the counter's owner table, and each runs again alone in a
new peer (never in this process: a chunk that kills its process would end the
campaign), up to the runner's attempt limit; the pulling goes on in a new
peer. Peers ignore Ctrl-C and die with this process; on any error here they
are terminated, and what they had finished and sent is kept.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import pickle
import threading
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Sequence

from ..interrupt import worker_init

#: how long this process waits for the chunk counter's lock before it checks that no peer died holding it
LOCK_PATIENCE_S = 1.0


class PeerLost(Exception):
    """A chunk lost its peer ``attempts`` times (raised by ``play``; the runner words it for the user)."""

    def __init__(self, position: int, attempts: int):
        self.position, self.attempts = position, attempts
        super().__init__(position, attempts)


def worker_setup() -> None:
    """In each local worker: the CLI's worker set-up (``verify.interrupt.worker_init``: SIGINT left to
    the main process, SIGTERM ends it quietly, it dies with its parent on Linux), and, on any system,
    exit when the main process is gone (killed with SIGKILL it cannot stop its workers)."""
    worker_init()
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="verify-parent-watch", daemon=True).start()


def available() -> bool:
    """Peers are forked: only where the fork start method exists (Linux, macOS)."""
    return "fork" in mp.get_all_start_methods()


@dataclass
class _Peer:
    slot: int
    process: Any
    conn: Connection
    #: a positions list when this peer re-runs lost chunks alone, None when it pulls from the counter
    alone: list[int] | None = None
    done: bool = False


@dataclass
class Shared:
    """What the processes share: the next position to take, the first position no longer needed (an early
    stop lowers it), and which process took each position (slot 0 is this process)."""

    positions: int
    ctx: Any = field(default_factory=lambda: mp.get_context("fork"))

    def __post_init__(self) -> None:
        self.lock = self.ctx.Lock()
        self.holder = self.ctx.RawValue("i", -1)       # the slot holding the lock, -1 when free
        self.next = self.ctx.RawValue("q", 0)
        self.need = self.ctx.RawValue("q", self.positions)
        self.owner = self.ctx.RawArray("i", max(1, self.positions))

    def take(self, slot: int, timeout: float | None = None) -> int | None:
        """The next position for ``slot``, or None when none is left (or, with ``timeout``, -1 when the
        lock could not be had in that time)."""
        if not (self.lock.acquire() if timeout is None else self.lock.acquire(timeout=timeout)):
            return -1
        self.holder.value = slot
        try:
            p = self.next.value
            if p >= self.need.value:
                return None
            self.next.value = p + 1
            self.owner[p] = slot
            return p
        finally:
            self.holder.value = -1
            self.lock.release()

    def unstick(self, alive: set[int]) -> None:
        """After this process waited ``LOCK_PATIENCE_S`` for the lock: a holder that is no longer alive
        (killed while it held it, a window of a few instructions) never releases it; release it for it."""
        if self.holder.value not in alive:
            try:
                self.lock.release()
            except ValueError:                  # released meanwhile after all
                pass

    def stop_after(self, position: int) -> None:
        """Positions after this one are not needed (only ever lowered; a torn read only delays a peer)."""
        if position + 1 < self.need.value:
            self.need.value = position + 1


def _peer_main(shared: Shared, slot: int, conn: Connection, chunks: Sequence[Any], run_chunk: Callable,
               stops: Callable[[Any], bool], alone: list[int] | None) -> None:
    """A peer's life: take positions (or run the given ones), send each result as JSON text, then "done"."""
    code = 0
    try:
        worker_setup()
        todo = iter(alone) if alone is not None else iter(lambda: shared.take(slot), None)
        for p in todo:
            try:
                result = run_chunk(chunks[p])
            except Exception as exc:        # the chunk's own error: this process re-raises it
                conn.send(("error", p, _portable(exc)))
                return
            text = json.dumps(result)
            if stops(result):
                shared.stop_after(p)
            conn.send(("result", p, text))
        conn.send(("done", -1, None))
    except BaseException:                   # a broken pipe (this process is gone), SystemExit: just end
        code = 1
    finally:
        os._exit(code)


def _portable(exc: Exception) -> Exception:
    """The exception itself when it survives pickling, else a RuntimeError carrying its traceback."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError("".join(traceback.format_exception(exc)))


def play(chunks: Sequence[Any], run_chunk: Callable[[Any], Any], stops: Callable[[Any], bool], peers: int,
         accept: Callable[[int, str], bool], max_attempts: int) -> int:
    """Play ``chunks`` (positions 0..n-1, in order of preference) here and in ``peers`` forked peers.

    ``accept(position, json_text)`` is called in this process for every result, in arrival order, and says
    whether the campaign stops after that position. Returns how many chunk runs were repeated because a peer
    was lost; raises ``PeerLost`` when a chunk lost its peer ``max_attempts`` times, and any error a chunk
    raised (after terminating the peers)."""
    shared = Shared(len(chunks))
    live: dict[int, _Peer] = {}
    attempts: dict[int, int] = {}
    retry: list[int] = []
    reruns = 0
    finished: set[int] = set()
    slots = iter(range(1, 1 << 30))             # every peer its own slot: the owner table names it alone

    def start(alone: list[int] | None = None) -> None:
        slot = next(slots)
        recv, send = shared.ctx.Pipe(duplex=False)
        proc = shared.ctx.Process(target=_peer_main, name=f"verify-peer-{slot}", daemon=True,
                                  args=(shared, slot, send, chunks, run_chunk, stops, alone))
        proc.start()
        send.close()
        live[slot] = _Peer(slot, proc, recv, alone)

    def deliver(p: int, text: str) -> None:
        finished.add(p)
        if accept(p, text):
            shared.stop_after(p)

    def collect(timeout: float | None) -> None:
        """Read what the peers sent (waiting up to ``timeout``), and deal with the peers that ended."""
        ready = wait([x.conn for x in live.values()] + [x.process.sentinel for x in live.values()], timeout)
        for peer in list(live.values()):
            if peer.conn in ready or peer.process.sentinel in ready:
                drain(peer)

    def drain(peer: _Peer) -> None:
        while peer.conn.poll():
            try:
                kind, p, payload = peer.conn.recv()
            except (EOFError, OSError):
                break
            if kind == "result":
                deliver(p, payload)
            elif kind == "error":
                raise payload
            else:
                peer.done = True
        if peer.done or not peer.process.is_alive():
            peer.process.join()
            peer.conn.close()
            del live[peer.slot]
            if not peer.done or peer.process.exitcode:
                lost(peer)

    def lost(peer: _Peer) -> None:
        nonlocal reruns
        mine = peer.alone if peer.alone is not None else [
            p for p in range(min(shared.next.value, len(chunks))) if shared.owner[p] == peer.slot]
        gone = [p for p in mine if p not in finished and p < shared.need.value]
        for p in gone:
            attempts[p] = attempts.get(p, 0) + 1
            if attempts[p] >= max_attempts:
                raise PeerLost(p, attempts[p])
        reruns += len(gone)
        retry.extend(gone)
        if peer.alone is None and shared.next.value < shared.need.value:
            start()                             # someone has to keep pulling beside this process

    def staff() -> None:
        """While fewer than ``peers`` run, a lost chunk runs again alone in a new peer."""
        while retry and len(live) < peers:
            start([retry.pop(0)])

    try:
        for _ in range(peers):
            start()
        while True:
            p = shared.take(0, timeout=LOCK_PATIENCE_S)
            if p == -1:                         # a peer may have died holding the lock
                collect(0)
                shared.unstick({0} | set(live))
                staff()
                continue
            if p is None:
                break
            deliver(p, json.dumps(run_chunk(chunks[p])))
            if live:
                collect(0)
            staff()
        while live or retry:
            staff()
            collect(None)
    except BaseException:
        for peer in live.values():
            if peer.process.is_alive():
                peer.process.terminate()
        for peer in list(live.values()):
            peer.process.join(timeout=5)
            if peer.process.is_alive():
                peer.process.kill()
                peer.process.join(timeout=5)
            try:                                # what a peer finished and sent before it stopped is kept
                while peer.conn.poll():
                    kind, p, payload = peer.conn.recv()
                    if kind == "result":
                        deliver(p, payload)
            except Exception:
                pass
        raise
    return reruns


__all__ = ["play", "available", "worker_setup", "PeerLost"]
