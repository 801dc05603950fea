"""Where chunks run: this process, local worker processes, or a Dask cluster, behind one interface.

Every backend is a ``concurrent.futures`` executor underneath (a
``ProcessPoolExecutor`` for ``--jobs N``, the ``distributed.Client``'s
executor for ``--scheduler``), so the runner has one code path: submit a
chunk, wait for the first finished future, repeat. What differs is said here
once: how many chunks to keep in flight, which exception means "the worker
running this chunk died" (its chunk is then run again), and how to stop
without leaving a worker behind. A campaign of short chunks that may run in
this process (games) is played differently on local processes: this process
and ``jobs - 1`` forked peers pull chunks from a shared counter (``peers``),
since a pool's hand-offs would cost a large part of a short run.

Local workers ignore SIGINT: Ctrl-C reaches the main process, which then
terminates them (a terminal sends SIGINT to the whole process group, and a
worker dying mid-chunk on its own would look like a lost worker). They also
exit by themselves when the main process disappears (SIGKILL, a crash), so no
worker outlives its campaign; Dask's own worker processes do the same.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
from contextlib import contextmanager
import signal
from abc import ABC, abstractmethod
from typing import Any, Callable, Iterator


class BackendUnavailable(Exception):
    """The chosen backend cannot start (Dask not installed, scheduler unreachable)."""


class Backend(ABC):
    """Runs chunk functions; ``slots`` is how many chunks the runner keeps in flight."""

    name = "backend"
    slots = 1
    #: how many units of work (a campaign's weights: games, rulesets) one task may hold: several short
    #: chunks go in one task where a task costs more than a short chunk (Dask: about 10 ms of scheduling,
    #: messages and hand-offs); 0: one chunk per task
    task_units = 0

    @property
    def running(self) -> bool:
        """Started by the caller (``with backend:``): the runner then leaves it open for the next campaign."""
        return False

    def start(self) -> None:  # noqa: B027 - a backend with nothing to start keeps this default
        """Start workers (default: nothing to start)."""

    def peers(self) -> int:
        """For a campaign whose chunks may run in this process (``Campaign.here``): how many processes to
        fork beside this one, all pulling chunks (``verify.execute.peers``); 0: submit chunks instead."""
        return 0

    @abstractmethod
    def submit(self, fn: Callable[[Any], Any], arg: Any) -> cf.Future:
        ...

    def is_lost(self, exc: BaseException) -> bool:
        """Did this exception come from the worker dying (rather than from the chunk's own code)?"""
        return False

    def recover(self) -> bool:
        """After a lost worker: get ready for new submissions. True when every future still in
        flight is lost too (so the runner submits them all again)."""
        return False

    def drain(self) -> None:  # noqa: B027 - default: nothing to do
        """No further chunk will be submitted (unless ``recover`` restarts): workers may wind down."""

    def close(self, interrupted: bool = False) -> None:  # noqa: B027 - default: nothing to stop
        """Stop workers (default: nothing to stop)."""

    def __enter__(self) -> "Backend":
        self.start()
        return self

    def __exit__(self, typ, exc, tb) -> None:
        self.close(interrupted=exc is not None)


class InProcess(Backend):
    """``--jobs 1``: each chunk runs in this process when it is submitted."""

    name = "1 process"

    def submit(self, fn, arg) -> cf.Future:
        f: cf.Future = cf.Future()
        try:
            f.set_result(fn(arg))
        except Exception as exc:     # KeyboardInterrupt and SystemExit go straight up
            f.set_exception(exc)
        return f


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while child processes are started (an ignored signal stays ignored across exec, and
    Python then installs no KeyboardInterrupt handler), so a terminal's Ctrl-C reaches only the main."""
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:                       # not the main thread: nothing to arrange
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


class LocalProcesses(Backend):
    """``--jobs N``: N processes on this machine (forked: they share the imported code and the compiled
    rules). For a campaign of short chunks that are safe to play in the command's own process (games),
    this process is one of the N and forks N - 1 peers (``peers``); other campaigns (z3 tasks) go to a pool
    of N workers while this process waits."""

    def __init__(self, jobs: int):
        self.jobs = max(1, int(jobs))
        self.name = f"{self.jobs} local processes"
        self.slots = 2 * self.jobs
        self._pool: cf.ProcessPoolExecutor | None = None
        self._drained: list | None = None   # the workers of a drained pool, to join
        self._manager = None

    @property
    def running(self) -> bool:
        return self._pool is not None

    def start(self) -> None:
        import multiprocessing as mp          # (here: a run in one process never needs it)
        from .peers import worker_setup
        methods = mp.get_all_start_methods()
        ctx = mp.get_context("fork" if "fork" in methods else methods[0])
        self._pool = cf.ProcessPoolExecutor(self.jobs, mp_context=ctx, initializer=worker_setup)

    def peers(self) -> int:
        from .peers import available
        return self.jobs - 1 if available() else 0

    def submit(self, fn, arg) -> cf.Future:
        assert self._pool is not None, "start() first"
        return self._pool.submit(fn, arg)

    def is_lost(self, exc: BaseException) -> bool:
        from concurrent.futures.process import BrokenProcessPool
        return isinstance(exc, BrokenProcessPool)

    def recover(self) -> bool:
        self._stop(kill=True)
        self.start()
        return True

    def worker_pids(self) -> list[int]:
        return [p.pid for p in self._processes() if p.pid is not None]

    def _processes(self) -> list:
        if self._drained is not None:
            return self._drained
        return list((getattr(self._pool, "_processes", None) or {}).values())

    def drain(self) -> None:
        """The pool's workers exit as soon as their chunks are done (the pool forgets them: keep them
        to join), so their exit overlaps the last chunks played elsewhere instead of following them."""
        if self._pool is not None and self._drained is None:
            self._drained = self._processes()
            self._manager = getattr(self._pool, "_executor_manager_thread", None)
            self._pool.shutdown(wait=False)

    def _stop(self, kill: bool) -> None:
        if self._pool is None:
            return
        pool, procs, manager = self._pool, self._processes(), self._manager
        self._pool, self._drained, self._manager = None, None, None
        if kill:
            for p in procs:
                if p.is_alive():
                    p.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        if manager is not None:
            manager.join(timeout=5)
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join(timeout=5)

    def close(self, interrupted: bool = False) -> None:
        self._stop(kill=interrupted)


#: Dask settings for the processes this backend starts (a LocalCluster's workers and scheduler, the client):
#: no statistical profiler sampling the task's stack for a dashboard nobody opens, and background ticks
#: and monitors at a second instead of 20-500 ms. Each wake-up takes the GIL from the task (a chunk is
#: pure Python); at the defaults they cost about a tenth of a worker's CPU on a busy machine.
QUIET = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
         "distributed.worker.memory.monitor-interval": "1s", "distributed.admin.system-monitor.interval": "2s"}


class DaskBackend(Backend):
    """``--scheduler ADDRESS``: a Dask distributed cluster; ``--scheduler local`` starts a LocalCluster
    (``workers`` processes with one thread each, on loopback) for the run and stops it afterwards."""

    def __init__(self, address: str, workers: int | None = None, timeout: float = 10.0):
        self.address = address
        self.timeout = timeout
        self.workers = workers
        self.name = f"Dask scheduler {address}"
        self.cluster = None
        self.client = None
        self._executor = None

    @property
    def running(self) -> bool:
        return self._executor is not None

    def start(self) -> None:
        try:
            import logging

            from distributed import Client, LocalCluster
        except ImportError as exc:
            raise BackendUnavailable("--scheduler needs Dask distributed: pip install 'monopoly-verify[dask]' "
                                     f"({exc})") from None
        import dask
        try:
            with dask.config.set(QUIET):
                if self.address == "local":
                    n = self.workers or os.cpu_count() or 1
                    with _sigint_ignored():      # the worker processes inherit it: Ctrl-C is the main's
                        self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                    host="127.0.0.1", dashboard_address=":0",
                                                    silence_logs=logging.ERROR)
                    self.client = Client(self.cluster)
                    self.name = f"a local Dask cluster ({n} worker processes)"
                else:
                    self.client = Client(self.address, timeout=self.timeout)
        except (OSError, TimeoutError, RuntimeError) as exc:
            self.close()
            if self.address == "local":
                raise BackendUnavailable(f"could not start a local Dask cluster: {exc}") from None
            raise BackendUnavailable(f"cannot reach the Dask scheduler at {self.address}: {exc}") from None
        threads = sum(self.client.nthreads().values()) or 1
        self.slots = 2 * threads
        self.task_units = 200
        self._executor = self.client.get_executor(pure=False)

    def submit(self, fn, arg) -> cf.Future:
        return self._executor.submit(fn, arg)

    def is_lost(self, exc: BaseException) -> bool:
        from distributed import KilledWorker
        return isinstance(exc, KilledWorker)

    def worker_pids(self) -> list[int]:
        return list(self.client.run(os.getpid).values()) if self.client is not None else []

    def close(self, interrupted: bool = False) -> None:
        executor, self._executor = self._executor, None
        client, self.client = self.client, None
        cluster, self.cluster = self.cluster, None
        if executor is not None:
            executor.shutdown(wait=False)          # cancels what is still queued or running
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def make_backend(jobs: int | None = None, scheduler: str | None = None) -> Backend:
    """The backend for ``--jobs`` / ``--scheduler`` (a scheduler wins; ``--jobs`` then sizes a local cluster)."""
    if scheduler:
        return DaskBackend(scheduler, workers=jobs)
    if not jobs or jobs <= 1:
        return InProcess()
    return LocalProcesses(jobs)


__all__ = ["Backend", "InProcess", "LocalProcesses", "DaskBackend", "BackendUnavailable", "make_backend"]
