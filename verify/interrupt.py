"""Ctrl-C: stop promptly, keep every earlier output, leave no child process behind.

The command line (``verify.cli``) runs every command inside
``handling_signals()``. The first SIGINT (or SIGTERM) raises ``Interrupted``
wherever the main process is. It derives from ``BaseException``, so no
``except Exception`` on the way (click's test runner, a report stage that
shows a peer's crash as "failed") can mistake it for a failed step; every
``finally`` and context manager runs, so temporary files vanish and worker
pools are terminated. Since every output is written by renaming a finished
temporary file (``verify.output``), what was there before stays as it was.
Stopping is bounded in time: workers still alive a second after the signal
are terminated (a process pool's clean-up may wait for their running tasks,
or hang on a full task pipe), and a process still alive after a few seconds
ends at once. A second signal while stopping ends it at once too, after
killing the children, so a stuck clean-up can never hang the terminal.

Worker processes call ``worker_init`` and ignore SIGINT: a terminal sends
Ctrl-C to the whole process group, and the parent alone decides what stops
(no traceback per worker). A z3 query would otherwise catch the signal itself
and answer "unknown" as if the solver had given up: ``quiet_solver`` leaves
the signal to us, and a watcher thread interrupts the running query at once.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

#: Exit status per signal: 128 + the signal number, as a shell reports it.
EXIT_STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143}
_SIGNALS = tuple(EXIT_STATUS)


class Interrupted(BaseException):
    """The user stopped the run (Ctrl-C, or SIGTERM)."""

    def __init__(self, signum: int = signal.SIGINT):
        self.signum = signum
        #: what the stopped work wants said instead of the generic line (a campaign: where its
        #: finished chunks are kept and how to resume), set on the way up
        self.detail: str | None = None
        self.status = EXIT_STATUS.get(signum, 130)
        super().__init__(signal.Signals(signum).name)


def worker_init() -> None:
    """Initializer for worker processes: the parent handles Ctrl-C and terminates the workers.

    A forked worker inherits the parent's handlers and wakeup fd: SIGINT is ignored, SIGTERM
    (how the parent stops it) ends the worker at once and quietly (an exception raised at an
    arbitrary point, inside z3's finalizers say, would print tracebacks), and signals are no
    longer reported to the parent's watcher; and it dies with its parent. A worker that writes
    files writes them whole (``verify.output``), so being stopped leaves at most a temporary
    file, never a broken one.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        signal.set_wakeup_fd(-1)
    except ValueError:          # not the main thread of the worker
        pass
    _die_with_parent()


def _die_with_parent() -> None:
    """Linux: the kernel kills this process when the process (thread) that started it ends, so no
    worker outlives a parent that was stopped at once or killed."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)          # PR_SET_PDEATHSIG
        import multiprocessing
        parent = multiprocessing.parent_process()
        if parent is not None and parent.pid != os.getppid():   # the parent ended before the call
            os._exit(1)
    except (OSError, AttributeError):
        pass


def quiet_solver() -> None:
    """Stop z3 from catching SIGINT during a query (it would answer "unknown" and go on)."""
    import z3
    z3.set_param("ctrl_c", False)


def _interrupt_solver() -> None:
    z3 = sys.modules.get("z3")
    if z3 is not None:
        try:
            z3.main_ctx().interrupt()
        except Exception:  # noqa: BLE001 - best effort: the signal is still delivered
            pass


def _child_pids() -> list[int]:
    """Direct children of this process that are not multiprocessing's (Linux: /proc)."""
    pids: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{os.getpid()}/task")
    except OSError:
        return pids
    for tid in tasks:
        try:
            with open(f"/proc/{os.getpid()}/task/{tid}/children", encoding="ascii") as fh:
                pids += [int(p) for p in fh.read().split()]
        except OSError:
            continue
    return pids


_told = False


def announce(message: str) -> None:
    """Print the one line that says the run was stopped (once, however many signals arrive)."""
    global _told
    if _told:
        return
    _told = True
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    except (OSError, RuntimeError, ValueError):   # inside a signal handler, mid-write
        os.write(2, (message + "\n").encode("utf-8", "replace"))


#: The signal received while the command runs (None before): a C library's callback can swallow the
#: ``Interrupted`` its handler raised (z3 calls back into Python to report a cancelled query), and the
#: library's own error then surfaces instead; ``received()`` lets the command line tell it apart.
_RECEIVED: list[int] = []


def received() -> int | None:
    """The signal that started stopping the current command, if one came."""
    return _RECEIVED[0] if _RECEIVED else None


def raise_if_interrupted() -> None:
    """Raise ``Interrupted`` when a signal came: for code that turns a library's error into a result (a
    z3 error into UNKNOWN), since the error may be the signal's doing (a cancelled query)."""
    if _RECEIVED:
        raise Interrupted(_RECEIVED[0])


def _quiet_unraisable(hook):
    def quiet(unraisable) -> None:
        # our Interrupted, raised inside a C library's callback and dropped there: the command line
        # reports the interruption once the library's call returns (``received``), not as a traceback
        if isinstance(unraisable.exc_value, Interrupted):
            return
        hook(unraisable)
    return quiet


#: Children that existed before the command started (a test runner's own): never ours to stop.
_BEFORE: set[int] = set()


def stop_children(grace: float = 2.0) -> None:
    """Terminate the children the command started (worker pools, subprocesses); kill those that linger."""
    mp = sys.modules.get("multiprocessing")     # never imported: no worker pool to stop
    kids = [p for p in mp.active_children() if p.pid not in _BEFORE] if mp is not None else []
    for p in kids:
        p.terminate()
    others = [pid for pid in _child_pids() if pid not in _BEFORE | {p.pid for p in kids}]
    for pid in others:
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
    deadline = time.monotonic() + grace
    for p in kids:
        p.join(max(0.0, deadline - time.monotonic()))
        if p.is_alive():
            p.kill()
            p.join(1.0)
    for pid in others:
        while time.monotonic() < deadline:
            try:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    break
            except ChildProcessError:
                break
            time.sleep(0.02)
        else:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (OSError, ChildProcessError):
                pass


@contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT/SIGTERM back for a few statements that must not be cut in two (a folder swap)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _no_signal() -> None:
    """A safe point where nothing is held."""


@contextmanager
def at_safe_points() -> Iterator[Callable[[], None]]:
    """Hold SIGINT/SIGTERM back while compiled code runs: a signal that arrives inside the block reaches
    its handler at the next call of the function this yields (a safe point: between two games), or when
    the block is left. The engine compiled by mypyc cannot take an exception raised by a Python signal
    handler at an arbitrary point (the process aborts: "fatal: out of memory"). Only Python handlers are
    held (``handling_signals``', pytest's KeyboardInterrupt), only in the main thread; ignored and default
    signals act as before."""
    held = {} if threading.current_thread() is not threading.main_thread() else {
        s: h for s in _SIGNALS if callable(h := signal.getsignal(s))}
    if not held:
        yield _no_signal
        return
    pending: list[int] = []

    def hold(signum, frame) -> None:
        pending.append(signum)

    def restore() -> None:
        for s, h in held.items():
            signal.signal(s, h)

    def safe_point() -> None:
        if pending:
            restore()
            signal.raise_signal(pending[0])      # its handler runs here, before raise_signal returns
            for s in held:                       # a handler that did not raise: hold again
                signal.signal(s, hold)
            pending.clear()

    for s in held:
        signal.signal(s, hold)
    try:
        yield safe_point
        safe_point()
    finally:
        restore()


#: Seconds after the first signal: workers still running are terminated (a process pool's clean-up
#: may wait for their tasks); then the process ends whatever it is doing.
STOP_WORKERS_AFTER = 1.0
EXIT_AFTER = 6.0


def _watchdog(signum: int) -> None:
    time.sleep(STOP_WORKERS_AFTER)
    try:
        stop_children(grace=1.0)
    except Exception:  # noqa: BLE001 - the deadline below still holds
        pass
    time.sleep(max(0.0, EXIT_AFTER - STOP_WORKERS_AFTER - 1.0))
    announce("verify: interrupted; the clean-up did not finish in time, stopped at once")
    os._exit(EXIT_STATUS.get(signum, 130))


@contextmanager
def handling_signals() -> Iterator[None]:
    """Turn the first SIGINT/SIGTERM into ``Interrupted``; a second one ends the process at once."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    global _told
    stopping = _told = False

    def handler(signum, frame):
        nonlocal stopping
        if stopping:
            try:
                stop_children(grace=0.5)
                announce("verify: interrupted again; stopped at once")
            finally:
                os._exit(EXIT_STATUS.get(signum, 130))
        stopping = True
        _RECEIVED[:] = [signum]
        threading.Thread(target=_watchdog, args=(signum,), name="verify-stop-watchdog", daemon=True).start()
        raise Interrupted(signum)

    _BEFORE.clear()
    _BEFORE.update(_child_pids())
    _RECEIVED.clear()
    previous = {s: signal.signal(s, handler) for s in _SIGNALS}
    unraisable = sys.unraisablehook
    sys.unraisablehook = _quiet_unraisable(unraisable)
    # The Python-level handler runs only between bytecodes; a long z3 query is C code. The
    # wakeup fd is written by the C-level handler at once, and a watcher thread interrupts z3.
    r, w = os.pipe()
    os.set_blocking(w, False)
    old_fd = signal.set_wakeup_fd(w, warn_on_full_buffer=False)

    def watch() -> None:
        while True:
            try:
                data = os.read(r, 64)
            except OSError:
                return
            if not data:
                return
            if any(b in _SIGNALS for b in data):
                _interrupt_solver()

    watcher = threading.Thread(target=watch, name="verify-signal-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        sys.unraisablehook = unraisable
        signal.set_wakeup_fd(old_fd)
        if not stopping:        # once stopping, a further signal still ends the process at once
            for s, h in previous.items():
                signal.signal(s, h)
        os.close(w)
        watcher.join(1.0)
        os.close(r)
        _told = False           # the next command in this process (a test runner's) may say it again
        _RECEIVED.clear()       # nor is it stopped by this command's signal


__all__ = ["Interrupted", "EXIT_STATUS", "handling_signals", "received", "raise_if_interrupted", "deferred", "worker_init", "quiet_solver",
           "stop_children", "announce", "at_safe_points"]
