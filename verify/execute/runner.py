"""The campaign loop: keep chunks in flight, save each result as it arrives, merge in chunk order.

One code path for every backend (``backends``): submit up to ``slots``
chunks, wait for the first to finish, save its result (``store``), advance
the progress, submit the next. When this process is one of the backend's
workers (``Backend.here``: local processes, for a campaign whose chunks
allow it, ``Campaign.here``), the backend's slots are filled first, then this
process plays the next chunk itself and collects what finished meanwhile:
``--jobs 2`` forks one worker and this process plays beside it. Results are normalised through JSON before
they are saved or merged, so a fresh result and one loaded by ``--resume``
are the same value and the merged result cannot depend on where a chunk ran.

* A chunk whose worker died is run again (up to ``max_attempts`` times):
  a broken local pool is rebuilt and every chunk it held is resubmitted; on
  Dask the scheduler re-runs a lost worker's tasks itself and only a task that
  killed too many workers comes back here. A chunk that was running when a
  worker died runs alone afterwards, so a chunk that kills its worker every
  time is the one named when the campaign gives up.
* A campaign may stop early (``Campaign.stops``: a checked run stops at the
  first invariant violation): chunks after the stopping one are cancelled,
  chunks before it still run, and the merge sees chunks 0..k, so the result
  is the lowest-index stop whatever the scheduling.
* Ctrl-C (KeyboardInterrupt) terminates the workers, keeps every finished
  chunk (in the campaign directory, or in a new temporary one that the message
  names) and propagates: the command exits 130, nothing is swallowed.
* Any other error from a chunk stops the campaign the same way and is re-raised.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .backends import Backend, InProcess
from .progress import Progress
from ..interrupt import Interrupted
from .store import CampaignStore


class WorkerLost(Exception):
    """A chunk's worker died ``max_attempts`` times in a row (the chunk itself may be the cause)."""


@dataclass(frozen=True)
class Campaign:
    """A campaign: what it is (``kind``, ``identity``: the manifest of its directory), its chunks
    (picklable), the top-level function that runs one and returns a JSON-able result, and the exact
    merge of the results listed in chunk order."""

    kind: str
    identity: dict
    chunks: Sequence[Any]
    run_chunk: Callable[[Any], Any]
    merge: Callable[[list], Any]
    #: units of work per chunk for the progress (games, rulesets); default 1 each
    weights: Sequence[int] | None = None
    unit: str = "chunks"
    #: a chunk result after which later chunks are not needed (e.g. an invariant violation)
    stops: Callable[[Any], bool] | None = None
    #: chunks short enough, and safe (signals land between steps), to play in the command's own process
    #: beside local workers; not z3 tasks (seconds each, and Ctrl-C inside a query is the solver's)
    here: bool = False

    def weight(self, i: int) -> int:
        return 1 if self.weights is None else self.weights[i]


@dataclass
class Outcome:
    result: Any
    chunks: int                   # chunks the merged result is made of
    ran: int = 0                  # chunks run by this call
    resumed: int = 0              # chunks loaded from the campaign directory
    rerun: int = 0                # chunk runs repeated because their worker was lost
    elapsed_s: float = 0.0        # running the chunks, from the moment the backend was ready
    startup_s: float = 0.0        # starting the backend (workers, a local Dask cluster)
    backend: str = ""
    extra: dict = field(default_factory=dict)


def _normal(result: Any) -> Any:
    return json.loads(json.dumps(result))


def run(campaign: Campaign, backend: Backend | None = None, store: CampaignStore | None = None,
        progress: Progress | None = None, max_attempts: int = 4) -> Outcome:
    """Run every chunk not already saved in ``store`` on ``backend`` and merge (see the module docstring)."""
    backend = backend or InProcess()
    n = len(campaign.chunks)
    results: dict[int, Any] = store.open(campaign.kind, campaign.identity, n) if store is not None else {}
    stops = campaign.stops or (lambda r: False)
    need = n                                       # chunks 0..need-1 make the result
    for i in sorted(results):
        if stops(results[i]):
            need = min(need, i + 1)
    resumed = len([i for i in results if i < need])
    progress = progress or Progress(sum(campaign.weight(i) for i in range(n)), campaign.unit, campaign.kind,
                                    mode="off")
    queue = deque(i for i in range(need) if i not in results)
    inflight: dict[cf.Future, int] = {}
    attempts: dict[int, int] = {}
    outcome = Outcome(None, 0, resumed=resumed, backend=backend.name)
    t0 = time.perf_counter()
    started = False
    try:
        if queue and not backend.running:      # a backend the caller started stays open for it
            backend.start(here=campaign.here)
            started = True
            outcome.startup_s = time.perf_counter() - t0
            t0 = time.perf_counter()
        here = InProcess() if backend.here and campaign.here else None      # this process plays too
        progress.start(sum(campaign.weight(i) for i in results if i < need))
        while queue or inflight:
            lost: list[int] = []
            broken = False
            while queue and len(inflight) < max(1, backend.slots):
                i = queue[0]
                if i >= need:
                    queue.popleft()
                    continue
                if attempts.get(i) and inflight:
                    break                        # a chunk that was running when a worker died runs alone
                queue.popleft()
                try:
                    inflight[backend.submit(campaign.run_chunk, campaign.chunks[i])] = i
                except Exception as exc:         # a local pool found broken on submission
                    if not backend.is_lost(exc):
                        raise
                    queue.appendleft(i)
                    broken = True
                    break
                if attempts.get(i):
                    break
            while here is not None and queue and not broken and queue[0] >= need:
                queue.popleft()
            if here is not None and queue and not broken and not attempts.get(queue[0]):
                i = queue.popleft()              # played now, in this process (never a chunk that lost a worker)
                if started and not queue:
                    backend.drain()              # the workers' exit overlaps this last chunk
                inflight[here.submit(campaign.run_chunk, campaign.chunks[i])] = i
            elif started and not queue and not broken:
                backend.drain()
            if inflight and not broken:
                done, _ = cf.wait(list(inflight), return_when=cf.FIRST_COMPLETED)
                for i, f in sorted((inflight.pop(f), f) for f in done):
                    if f.cancelled() or i >= need:
                        continue
                    exc = f.exception()
                    if exc is not None:
                        if not backend.is_lost(exc):
                            raise exc
                        lost.append(i)
                        continue
                    r = _normal(f.result())
                    results[i] = r
                    outcome.ran += 1
                    if store is not None:
                        store.save(i, r)
                    progress.advance(campaign.weight(i))
                    if stops(r) and i + 1 < need:
                        need = i + 1
                        for g, j in list(inflight.items()):
                            if j >= need:
                                g.cancel()
                                del inflight[g]
            if lost or broken:
                if backend.recover():            # the whole pool went down with the worker
                    lost += [j for j in inflight.values() if j < need]
                    inflight.clear()
                lost = sorted(set(lost))
                for i in lost:
                    attempts[i] = attempts.get(i, 0) + 1
                worst = [i for i in lost if attempts[i] >= max_attempts]
                if worst:
                    raise WorkerLost(f"chunk {worst[0]} of the {campaign.kind} campaign lost its worker "
                                     f"{attempts[worst[0]]} times; giving up (is the chunk itself killing it?)")
                queue.extendleft(reversed(lost))
                outcome.rerun += len(lost)
                if lost:
                    progress.note(f"a worker was lost; re-running {len(lost)} chunk(s)")
    except BaseException as exc:
        if started:
            backend.close(interrupted=True)
            started = False
        progress.close()
        if isinstance(exc, (KeyboardInterrupt, Interrupted)):
            note = _keep(campaign, store, results, n)
            if isinstance(exc, Interrupted):
                exc.detail = note          # the command line prints it as its one line
            elif note:
                print(note, file=sys.stderr)
        raise
    finally:
        if started:
            backend.close()
    progress.close()
    outcome.chunks = need
    outcome.result = campaign.merge([results[i] for i in range(need)])
    outcome.elapsed_s = time.perf_counter() - t0
    if store is not None and _jsonable(outcome.result):
        store.finish(outcome.result)
    return outcome


def _jsonable(x: Any) -> bool:
    try:
        json.dumps(x)
        return True
    except (TypeError, ValueError):
        return False


def _keep(campaign: Campaign, store: CampaignStore | None, results: dict[int, Any], n: int) -> str | None:
    """After Ctrl-C: keep every finished chunk (in a new directory when there was none) and say where,
    or None when no chunk had finished (nothing to resume)."""
    if not results:
        return None
    if store is None:
        store = CampaignStore(tempfile.mkdtemp(prefix=f"verify-{campaign.kind}-"))
        store.open(campaign.kind, campaign.identity, n)
    for i, r in results.items():
        store.save(i, r)                   # a chunk finished just before the signal may not be saved yet
    return (f"interrupted: {len(results)} of {n} chunks finished and kept in {store.path}; "
            f"run the same command with --resume {store.path} to continue")


__all__ = ["Campaign", "Outcome", "WorkerLost", "run"]
