"""The two transports of engine protocol 1: a Python class in this process, or any program over a pipe.

Both give the harness one interface (``start`` -> Hello, ``load``, ``apply``,
``state``, ``close``) and turn everything an engine can do wrong into an
``EngineFault``, so the oracle never has to know which transport it talks to.

The subprocess transport is built so that a bad engine can never hang the
harness or outlive it: each engine runs in its own process group (killed as a
group, so its children go too, and on Linux it dies with the harness), every
read and write waits on a selector with a deadline (``step_timeout``), a
response is one line of at most ``MAX_LINE`` bytes, and stderr goes to a
temporary file (never a pipe that could fill up) whose tail is kept for the
report. After a fault the engine is killed; ``start`` launches a fresh one.
"""

from __future__ import annotations

import atexit
import ctypes
import importlib
import importlib.util
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import traceback
import weakref
from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

from ..errors import AdapterError
from . import ConformInputError as SpecError, Illegal, Unsupported
from .protocol import (BYE_REQUEST, STATE_REQUEST, EngineFault, Hello, apply_request, check_state_shape,
                       hello_request, load_request, new_game_request, read_apply, read_hello, read_load,
                       read_new_game, read_state)

#: Longest response line accepted (a state is a few kilobytes; this stops a runaway engine).
MAX_LINE = 8 * 1024 * 1024
#: How much of an engine's stderr is kept for the report.
LOG_TAIL = 4000
DEFAULT_STEP_TIMEOUT = 10.0


@dataclass(frozen=True)
class EngineSpec:
    """How to reach an engine; picklable, so a chunk of a run can be sent to another process.

    ``target`` is ``module:Class`` (in-process) or a class object; ``cmd`` a command line
    (subprocess). Exactly one is set.
    """

    target: Any = None
    cmd: str | None = None
    step_timeout: float = DEFAULT_STEP_TIMEOUT

    def __post_init__(self):
        if (self.target is None) == (self.cmd is None):
            raise SpecError("give an engine either as module:Class (--engine) or as a command (--engine-cmd)")
        if self.cmd is not None:
            try:
                argv = shlex.split(self.cmd)
            except ValueError as exc:
                raise SpecError(f"--engine-cmd {self.cmd!r}: {exc}") from None
            if not argv:
                raise SpecError("--engine-cmd is empty")
        elif isinstance(self.target, str) and (self.target.count(":") != 1 or not all(self.target.split(":"))):
            raise SpecError(f"--engine {self.target!r}: expected module:Class, e.g. "
                            "verify.conform.reference:ReferenceEngine")
        if not (isinstance(self.step_timeout, (int, float)) and self.step_timeout > 0):
            raise SpecError(f"the step timeout must be a positive number of seconds, got {self.step_timeout!r}")

    @property
    def label(self) -> str:
        if self.cmd is not None:
            return self.cmd
        t = self.target
        return t if isinstance(t, str) else importable_name(t)

    @property
    def cli_args(self) -> str:
        """The command-line options that name this engine (``--engine mod:Class`` or ``--engine-cmd 'CMD'``,
        with ``--step-timeout`` when it is not the default), as a shell would read them."""
        if self.cmd is not None:
            text = f"--engine-cmd {shlex.quote(self.cmd)}"
        else:
            text = f"--engine {shlex.quote(self.label)}"
        if self.step_timeout != DEFAULT_STEP_TIMEOUT:
            text += f" --step-timeout {self.step_timeout:g}"
        return text

    def open(self) -> "Engine":
        return Subprocess(self.cmd, self.step_timeout) if self.cmd is not None else InProcess(self.target)


class Engine(ABC):
    """An engine under test, behind one transport (each transport implements every method)."""

    label = "engine"

    @abstractmethod
    def start(self) -> Hello:
        ...

    @abstractmethod
    def load(self, config: dict, state: dict) -> str | None:
        """None when the engine holds ``state``; the reason when it cannot (``unsupported``)."""

    @abstractmethod
    def new_game(self, config: dict, players: int, seed: int, draws: dict) -> tuple[str, Any]:
        """``("state", STATE)`` or ``("unsupported", REASON)``."""

    @abstractmethod
    def apply(self, action: dict) -> tuple[str, Any]:
        ...

    @abstractmethod
    def state(self) -> dict:
        ...

    @abstractmethod
    def close(self) -> None:
        ...

    def log_tail(self) -> str:
        return ""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ---- in-process ---------------------------------------------------------------------------------

def _import(mod_name: str, target: str):
    """The module ``mod_name``: a dotted name (importable from the current directory too, as a test run's
    modules are) or a ``.py`` file's path."""
    if mod_name.endswith(".py"):
        path = os.path.abspath(mod_name)
        name = "_verify_engine_" + "".join(c if c.isalnum() else "_" for c in path)
        if name in sys.modules:
            return sys.modules[name]
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or not os.path.isfile(path):
            raise AdapterError(f"--engine {target}: no such file {mod_name!r}")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        try:
            spec.loader.exec_module(mod)
        except Exception as exc:  # noqa: BLE001 - the engine's module failing to load is the user's to see
            del sys.modules[name]
            raise AdapterError(f"--engine {target}: cannot load {mod_name!r}: {type(exc).__name__}: {exc}") from None
        return mod
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())          # a console script does not look in the current directory
    try:
        return importlib.import_module(mod_name)
    except ImportError as exc:
        raise AdapterError(f"--engine {target}: cannot import {mod_name!r}: {exc}") from None


def importable_name(cls: type) -> str:
    """What ``--engine`` takes to find ``cls`` in a new process started here: ``module:Class`` when the
    module is imported by that name from the current directory or an installed package, else
    ``path/to/file.py:Class`` (the path relative to the current directory)."""
    name = f"{cls.__module__}:{cls.__qualname__}"
    path = getattr(sys.modules.get(cls.__module__), "__file__", None)
    if path is None or cls.__module__.startswith("_verify_engine_") is False and _imports_here(cls.__module__, path):
        return name
    rel = os.path.relpath(path)
    return f"{path if rel.startswith('..') else rel}:{cls.__qualname__}"


def _imports_here(module: str, path: str) -> bool:
    """Whether ``module`` is found at ``path`` from the current directory or among the installed packages."""
    stem = os.path.splitext(os.path.abspath(path))[0]
    if stem.endswith(os.sep + "__init__"):
        stem = stem[: -len(os.sep + "__init__")]
    tail = os.sep + os.path.join(*module.split("."))
    if not stem.endswith(tail):
        return False
    root = stem[: -len(tail)]
    paths = sysconfig.get_paths()
    return root in (os.getcwd(), paths["purelib"], paths["platlib"])


def resolve_class(target: Any) -> type:
    """The class named by ``module:Class`` or ``path/file.py:Class`` (or the class itself)."""
    if not isinstance(target, str):
        return target
    mod_name, _, attr = target.rpartition(":")
    mod = _import(mod_name, target)
    obj = mod
    for part in attr.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise AdapterError(f"--engine {target}: module {mod_name!r} has no {attr!r}")
    if not callable(obj):
        raise AdapterError(f"--engine {target}: {attr!r} is not a class")
    return obj


def _json(value: Any, what: str) -> Any:
    """The value as the subprocess transport would carry it (so both transports see the same documents)."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as exc:
        raise EngineFault("protocol", f"{what}: the engine returned something that is not JSON ({exc})") from None


class InProcess(Engine):
    """A Python class with ``hello()``, ``load(config, state)``, ``apply(action) -> state`` (raising
    ``verify.conform.Illegal`` to refuse) and ``state()``. An exception other than ``Illegal`` is a crash."""

    def __init__(self, target: Any):
        self.cls = resolve_class(target)
        self.label = target if isinstance(target, str) else f"{self.cls.__module__}:{self.cls.__qualname__}"
        self.obj = None
        self._last_trace = ""
        self._config_src = self._config_doc = None

    def _call(self, what: str, fn, *args):
        try:
            return fn(*args)
        except (Illegal, Unsupported, EngineFault):
            raise
        except Exception as exc:  # noqa: BLE001 - any failure of the engine is its crash
            self._last_trace = "".join(traceback.format_exception(exc))[-LOG_TAIL:]
            self.obj = None
            raise EngineFault("crash", f"{what} raised {type(exc).__name__}: {exc}", self._last_trace) from None

    def start(self) -> Hello:
        self.obj = self._call("creating the engine", self.cls)
        h = self._call("hello", self.obj.hello)
        if not isinstance(h, dict):
            raise EngineFault("protocol", f"hello() must return a dict, got {type(h).__name__}")
        return read_hello({"ok": True, **h})

    def _config(self, config: dict) -> dict:
        if config is not self._config_src:        # the same config comes with every scenario of a run
            self._config_src, self._config_doc = config, _json(config, "load")
        return self._config_doc

    def load(self, config: dict, state: dict) -> str | None:
        try:
            self._call("load", self.obj.load, self._config(config), _json(state, "load"))
        except Unsupported as exc:
            return exc.reason
        return None

    def new_game(self, config: dict, players: int, seed: int, draws: dict) -> tuple[str, Any]:
        make = getattr(self.obj, "new_game", None)
        if make is None:
            raise EngineFault("protocol", "new_game: the engine declares setup but has no new_game method")
        try:
            s = _json(self._call("new_game", make, self._config(config), players, seed, _json(draws, "new_game")),
                      "new_game")
        except Unsupported as exc:
            return "unsupported", exc.reason
        check_state_shape(s, "new_game")
        return "state", s

    def apply(self, action: dict) -> tuple[str, Any]:
        try:
            new = self._call("apply", self.obj.apply, dict(action))
        except Illegal as exc:
            return "illegal", exc.reason
        new = _json(new, "apply")
        check_state_shape(new, "apply")
        return "state", new

    def state(self) -> dict:
        s = _json(self._call("state", self.obj.state), "state")
        check_state_shape(s, "state")
        return s

    def close(self) -> None:
        self.obj = None

    def log_tail(self) -> str:
        return self._last_trace


# ---- subprocess ---------------------------------------------------------------------------------

_LIVE: "weakref.WeakSet[Subprocess]" = weakref.WeakSet()


@atexit.register
def _kill_all() -> None:            # the last guard: no engine outlives the harness
    for eng in list(_LIVE):
        eng.kill()


@contextmanager
def engines_die_with_worker() -> Iterator[None]:
    """In a local worker process (``--jobs N``), SIGTERM is how the campaign stops it (Ctrl-C, a lost
    run): kill the engines' process groups first, so nothing an engine started outlives the run (the
    worker's default would end it at once, past every ``finally``). The command's own process and
    Dask's worker threads keep their handlers."""
    import multiprocessing
    if multiprocessing.parent_process() is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, _frame):
        _kill_all()
        os._exit(128 + signum)

    old = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def _die_with_parent() -> None:    # runs in the child between fork and exec (Linux only)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)          # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001 - not Linux: the process group and atexit still apply
        pass


class Subprocess(Engine):
    """Any program speaking protocol 1 as JSON Lines over stdin/stdout."""

    def __init__(self, cmd: str, step_timeout: float = DEFAULT_STEP_TIMEOUT):
        self.cmd = cmd
        self.argv = shlex.split(cmd)
        self.label = cmd
        self.step_timeout = float(step_timeout)
        self.proc: subprocess.Popen | None = None
        self._err = None
        self._buf = b""
        self._sel = None
        self._tail = ""

    # -- life cycle
    def _spawn(self) -> None:
        self.kill()
        self._err = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._err, bufsize=0, start_new_session=True,
                                         preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None)
        except OSError as exc:
            raise AdapterError(f"--engine-cmd {self.cmd!r}: cannot start it: {exc.strerror or exc}") from None
        for f in (self.proc.stdin, self.proc.stdout):
            os.set_blocking(f.fileno(), False)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.proc.stdout.fileno(), selectors.EVENT_READ)
        self._buf = b""
        _LIVE.add(self)

    def start(self) -> Hello:
        self._spawn()
        return read_hello(self._exchange(hello_request(), self.step_timeout, "hello"))

    def load(self, config: dict, state: dict) -> str | None:
        return read_load(self._exchange(load_request(config, state), self.step_timeout, "load"))

    def new_game(self, config: dict, players: int, seed: int, draws: dict) -> tuple[str, Any]:
        return read_new_game(self._exchange(new_game_request(config, players, seed, draws), self.step_timeout,
                                            "new_game"))

    def apply(self, action: dict) -> tuple[str, Any]:
        return read_apply(self._exchange(apply_request(action), self.step_timeout, "apply"))

    def state(self) -> dict:
        return read_state(self._exchange(STATE_REQUEST, self.step_timeout, "state"))

    def close(self) -> None:
        """Say bye, give the engine a moment to exit, then kill its whole process group."""
        p = self.proc
        if p is not None and p.poll() is None:
            try:
                os.set_blocking(p.stdin.fileno(), True)
                p.stdin.write((json.dumps(BYE_REQUEST) + "\n").encode())
                p.stdin.close()
                p.wait(timeout=min(1.0, self.step_timeout))
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def kill(self) -> None:
        p = self.proc
        if p is None:
            return
        try:
            os.killpg(p.pid, signal.SIGKILL)       # the engine and anything it started
        except (ProcessLookupError, PermissionError):
            pass
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not wait
            pass
        for f in (p.stdin, p.stdout):
            try:
                f.close()
            except OSError:
                pass
        if self._sel is not None:
            self._sel.close()
            self._sel = None
        self._tail = self._read_log()
        if self._err is not None:
            self._err.close()
            self._err = None
        self.proc = None
        _LIVE.discard(self)

    def _read_log(self) -> str:
        if self._err is None:
            return self._tail
        try:
            self._err.flush()
            size = self._err.seek(0, os.SEEK_END)
            self._err.seek(max(0, size - LOG_TAIL))
            return self._err.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""

    def log_tail(self) -> str:
        return self._read_log() if self.proc is not None else self._tail

    # -- one request, one response
    def _fault(self, kind: str, message: str) -> EngineFault:
        code = None
        if self.proc is not None and kind == "crash":
            try:                                # closed pipes come just before the exit: wait for it
                code = self.proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
        if code is not None and kind == "crash":
            message += f" (exit status {code})"
        self.kill()
        return EngineFault(kind, message, self._tail)

    def _exchange(self, msg: dict, timeout: float, what: str) -> Any:
        if self.proc is None:
            raise EngineFault("crash", f"{what}: the engine is not running")
        data = memoryview((json.dumps(msg, separators=(",", ":"), ensure_ascii=False) + "\n").encode())
        out_fd, in_fd = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        sel = self._sel
        writing = True
        sel.register(out_fd, selectors.EVENT_WRITE)
        try:
            while True:
                nl = self._buf.find(b"\n")
                if nl >= 0:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._fault("timeout", f"{what}: no answer within {timeout:g} s")
                for key, _ in sel.select(left):
                    if key.fd == out_fd:
                        try:
                            n = os.write(out_fd, data)
                        except BlockingIOError:
                            continue
                        except (BrokenPipeError, ConnectionResetError):
                            raise self._fault("crash", f"{what}: the engine closed its input") from None
                        data = data[n:]
                        if not data:
                            sel.unregister(out_fd)
                            writing = False
                    else:
                        try:
                            chunk = os.read(in_fd, 1 << 16)
                        except BlockingIOError:
                            continue
                        if not chunk:
                            raise self._fault("crash", f"{what}: the engine exited without answering")
                        self._buf += chunk
                        if len(self._buf) > MAX_LINE:
                            raise self._fault("garbage", f"{what}: an answer longer than {MAX_LINE} bytes")
        finally:
            if writing and self._sel is not None:
                try:
                    sel.unregister(out_fd)
                except (KeyError, ValueError):
                    pass
        line, self._buf = self._buf[:nl], self._buf[nl + 1:]
        if writing or self._buf.strip():
            raise self._fault("garbage", f"{what}: the engine printed more than one line for one request: "
                              + _show(self._buf or line))
        try:
            return json.loads(line)
        except (UnicodeDecodeError, ValueError):
            raise self._fault("garbage", f"{what}: the answer is not JSON: {_show(line)}") from None


def _show(raw: bytes, limit: int = 120) -> str:
    text = raw.decode("utf-8", "replace").strip()
    return repr(text if len(text) <= limit else text[:limit] + "…")


__all__ = ["EngineSpec", "Engine", "InProcess", "Subprocess", "resolve_class",
           "DEFAULT_STEP_TIMEOUT", "MAX_LINE"]
