"""The campaign loop: keep chunks in flight, save each result as it arrives, merge in chunk order.

Two ways to run chunks, one way to keep their results. Pushed: submit up to
the backend's ``slots`` tasks (``backends``), wait for the first to finish,
submit the next; a task is one chunk, or several consecutive short ones where
the backend says a task costs more than a short chunk (``task_units``: Dask),
as many as hold a share of the work left that still keeps every slot busy. Pulled, for a campaign of short chunks that may run in this
process (``Campaign.here``: games) on local processes: this process and
``jobs - 1`` forked peers take chunks from a shared counter (``peers``), so
``--jobs 2`` forks one peer and plays beside it without a pool's hand-offs.
Either way each result is saved as it arrives (``store``) and advances the
progress. Results are normalised through JSON before they are saved or
merged, so a fresh result and one loaded by ``--resume`` are the same value
and the merged result cannot depend on where a chunk ran.

* A chunk whose worker died is run again (up to ``max_attempts`` times):
  a broken local pool is rebuilt and every chunk it held is resubmitted; on
  Dask the scheduler re-runs a lost worker's tasks itself and only a task that
  killed too many workers comes back here; a lost peer's chunks run again in
  new peers. A chunk that was running when a worker died runs alone
  afterwards (never in this process), so a chunk that kills its worker every
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
from functools import partial
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


class _Results:
    """The results gathered so far: each saved as it arrives (``store``), counted in the progress, and an
    early stop lowering ``need`` (chunks 0..need-1 make the result)."""

    def __init__(self, campaign: Campaign, store: CampaignStore | None, progress: Progress, results: dict,
                 need: int, outcome: Outcome):
        self.campaign, self.store, self.progress, self.results = campaign, store, progress, results
        self.need, self.outcome = need, outcome
        self.stops = campaign.stops or (lambda r: False)

    def accept(self, i: int, r: Any) -> bool:
        """Keep chunk ``i``'s result (JSON-normal); True when the campaign stops after it."""
        self.results[i] = r
        self.outcome.ran += 1
        if self.store is not None:
            self.store.save(i, r)
        self.progress.advance(self.campaign.weight(i))
        if self.stops(r) and i + 1 < self.need:
            self.need = i + 1
            return True
        return False


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
    outcome = Outcome(None, 0, resumed=resumed, backend=backend.name)
    got = _Results(campaign, store, progress, results, need, outcome)
    todo = [i for i in range(need) if i not in results]
    peers = backend.peers() if campaign.here and todo else 0
    t0 = time.perf_counter()
    try:
        progress.start(sum(campaign.weight(i) for i in results if i < need))
        if peers:
            _pull(campaign, todo, peers, got, max_attempts)
        else:
            _push(campaign, todo, backend, got, max_attempts)
    except BaseException as exc:
        progress.close()
        if isinstance(exc, (KeyboardInterrupt, Interrupted)):
            note = _keep(campaign, store, results, n)
            if isinstance(exc, Interrupted):
                exc.detail = note          # the command line prints it as its one line
            elif note:
                print(note, file=sys.stderr)
        raise
    progress.close()
    outcome.chunks = got.need
    outcome.result = campaign.merge([results[i] for i in range(got.need)])
    outcome.elapsed_s = time.perf_counter() - t0 - outcome.startup_s
    if store is not None and _jsonable(outcome.result):
        store.finish(outcome.result)
    return outcome


def _pull(campaign: Campaign, todo: list[int], peers: int, got: _Results, max_attempts: int) -> None:
    """This process and ``peers`` forked peers take the chunks in ``todo`` from a shared counter."""
    from .peers import PeerLost, play      # (here: forked peers need multiprocessing, a run in one process not)
    got.outcome.backend = f"{peers + 1} local processes (this one and {peers} forked)"
    try:
        got.outcome.rerun = play([campaign.chunks[i] for i in todo], campaign.run_chunk, got.stops, peers,
                                 lambda p, text: got.accept(todo[p], json.loads(text)), max_attempts)
    except PeerLost as lost:
        raise WorkerLost(_gave_up(campaign, todo[lost.position], lost.attempts)) from None


def _gave_up(campaign: Campaign, i: int, attempts: int) -> str:
    return (f"chunk {i} of the {campaign.kind} campaign lost its worker {attempts} times; giving up "
            "(is the chunk itself killing it?)")


def run_chunks(run_chunk: Callable[[Any], Any], chunks: list) -> list:
    """One task of several chunks: their results in order."""
    return [run_chunk(c) for c in chunks]


def _task(campaign: Campaign, queue: deque, got: _Results, backend: Backend, attempts: dict,
          rest: dict[int, int]) -> list[int]:
    """The chunks of the next task, taken from the front of ``queue``: the first, and after it as many as
    fit in the backend's ``task_units`` and in a share of the work left that keeps every slot busy to the
    end (so the last tasks are single chunks); a chunk run again after a lost worker runs alone.
    ``rest[i]``: the units of chunk ``i`` and of every chunk after it in the campaign's order."""
    first = queue.popleft()
    out = [first]
    if not backend.task_units or attempts.get(first):
        return out
    cap = min(backend.task_units, -(-rest[first] // (2 * max(1, backend.slots))))
    units = campaign.weight(first)
    while queue and queue[0] < got.need and not attempts.get(queue[0]) \
            and units + campaign.weight(queue[0]) <= cap:
        units += campaign.weight(queue[0])
        out.append(queue.popleft())
    return out


def _push(campaign: Campaign, todo: list[int], backend: Backend, got: _Results, max_attempts: int) -> None:
    """Submit the chunks in ``todo`` to ``backend``, up to its slots of tasks at a time (starting it first,
    its start-up time kept in ``outcome.startup_s``, unless the caller started it)."""
    queue = deque(todo)
    inflight: dict[cf.Future, list[int]] = {}
    rest: dict[int, int] = {}                  # the work left from each chunk on, for sizing tasks
    units = 0
    for i in reversed(todo):
        units += campaign.weight(i)
        rest[i] = units
    attempts: dict[int, int] = {}
    outcome = got.outcome
    started = False
    try:
        if queue and not backend.running:      # a backend the caller started stays open for it
            t0 = time.perf_counter()
            backend.start()
            started = True
            outcome.startup_s = time.perf_counter() - t0
        while queue or inflight:
            lost: list[int] = []
            broken = False
            while queue and len(inflight) < max(1, backend.slots):
                i = queue[0]
                if i >= got.need:
                    queue.popleft()
                    continue
                if attempts.get(i) and inflight:
                    break                        # a chunk that was running when a worker died runs alone
                task = _task(campaign, queue, got, backend, attempts, rest)
                try:
                    if len(task) == 1:
                        future = backend.submit(campaign.run_chunk, campaign.chunks[i])
                    else:
                        future = backend.submit(partial(run_chunks, campaign.run_chunk),
                                                [campaign.chunks[j] for j in task])
                    inflight[future] = task
                except Exception as exc:         # a local pool found broken on submission
                    if not backend.is_lost(exc):
                        raise
                    queue.extendleft(reversed(task))
                    broken = True
                    break
                if attempts.get(i):
                    break
            if started and not queue and not broken:
                backend.drain()                  # the workers' exit overlaps the last chunks
            if inflight and not broken:
                done, _ = cf.wait(list(inflight), return_when=cf.FIRST_COMPLETED)
                for task, f in sorted(((inflight.pop(f), f) for f in done), key=lambda tf: tf[0][0]):
                    if f.cancelled() or task[0] >= got.need:
                        continue
                    exc = f.exception()
                    if exc is not None:
                        if not backend.is_lost(exc):
                            raise exc
                        lost += [j for j in task if j < got.need]
                        continue
                    results = [f.result()] if len(task) == 1 else f.result()
                    for j, r in zip(task, results):
                        if j < got.need and got.accept(j, _normal(r)):
                            for g, t in list(inflight.items()):
                                if t[0] >= got.need:
                                    g.cancel()
                                    del inflight[g]
            if lost or broken:
                if backend.recover():            # the whole pool went down with the worker
                    lost += [j for t in inflight.values() for j in t if j < got.need]
                    inflight.clear()
                lost = sorted(set(lost))
                for i in lost:
                    attempts[i] = attempts.get(i, 0) + 1
                worst = [i for i in lost if attempts[i] >= max_attempts]
                if worst:
                    raise WorkerLost(_gave_up(campaign, worst[0], attempts[worst[0]]))
                queue.extendleft(reversed(lost))
                outcome.rerun += len(lost)
                if lost:
                    got.progress.note(f"a worker was lost; re-running {len(lost)} chunk(s)")
    except BaseException:
        if started:
            backend.close(interrupted=True)
            started = False
        raise
    finally:
        if started:
            backend.close()


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
