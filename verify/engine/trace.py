"""Traces (JSON Lines), runtime invariant checks, and replay.

A trace file holds one or more games. Each game starts with a header line

    {"trace": "verify.trace/1", "state_schema": "verify.state/1", "ruleset": "<id>",
     "config_hash": "...", "seed": 123, "game": 0, "players": 4, "policy": "heuristic", "jail": "leave"}

followed by one line per step: ``{"step": k, "action": {...} | null, "events": [...],
"state": {...}}`` (step 0 is the initial state, with no action), and, since
``verify.trace/2``, an end line ``{"end": {"steps": k, "over": true, "result": ...,
"stopped": null}}`` (``stopped`` says why a game ended early, e.g. a broken
invariant). A game of a /2 trace without its end line was cut short: the
reader marks it truncated (so does a last line cut in the middle, or a gzip
stream that ends early) instead of taking the missing part for a rule
violation. ``replay`` re-applies every action to the previous state through
the step API and compares the result with the recorded state, and evaluates
the invariants the ruleset promises on every state and step.

A trace whose file name ends in ``.gz`` is written gzip-compressed (about 30
times smaller); ``open_trace`` reads either kind, by the file's first bytes.

The invariant predicates come from ``verify.invariants`` (compiled from
``specs/invariants.yaml``); ``InvariantChecker`` is the hook the simulator
calls after every action with ``--check-invariants``.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator

from ..errors import Location, VerifyError
from ..config import EngineConfig
from ..expr import UNDECIDED
from ..invariant_code import tables
from ..invariants import Monitor
from ..state_view import board_facts
from .. import incremental
from .. import invariants as inv
from . import native, screen as screen_module, slices
from .engines import Engine, engine_path
from .rules import IllegalAction
from .simulate import Recorder
from .state import GameState
from .actions import awaited
from .loop import FIELDS
from .step import apply_state

TRACE_SCHEMA = "verify.trace/2"
#: Formats the reader takes: /1 had no end line (a cut is then seen only in a broken last line).
TRACE_SCHEMAS = ("verify.trace/1", TRACE_SCHEMA)

#: (config, before, after, action, promised ids) -> list of violations (objects with str())
Check = Callable[[EngineConfig, dict, dict, dict | None], list]


class InvariantBroken(Exception):
    """An invariant the ruleset promises failed after a step."""

    def __init__(self, step: int, action: dict | None, events: list, state: dict, violations: list):
        self.step, self.action, self.events, self.state, self.violations = step, action, events, state, violations
        super().__init__("; ".join(str(v) for v in violations))

    def report(self) -> dict:
        return {"step": self.step, "action": self.action, "events": self.events,
                "violations": [str(v) for v in self.violations], "state": self.state}


def incremental_code() -> Any:
    """``verify.incremental`` as the engine's build compiled it when the engine plays compiled, else the
    readable module."""
    if engine_path() == "compiled":
        return native.modules().get("incremental", incremental)
    return incremental


class InvariantChecker:
    """Evaluates the promised state and step invariants (verify.invariants) on each step.

    By default through ``verify.invariants.Monitor``, which re-evaluates a state
    invariant only when a part of the state it reads changed; tests may pass
    their own ``check_state``/``check_step`` functions instead. ``check_game``
    is the engine's hook: it reads the game's own state (no JSON round trip with
    the Monitor).
    """

    def __init__(self, config: EngineConfig, promised: Iterable[str],
                 check_state: Callable | None = None, check_step: Callable | None = None):
        self.config = config
        self.promised = sorted(promised)
        self._monitor = None
        if check_state is None and check_step is None:
            self._monitor = Monitor(config, self.promised, incremental_code())
        else:
            self._state = check_state or inv.check_state
            self._step = check_step or inv.check_step
        self._game: Any = None       # the current game's slicer and checks (verify.engine.slices.CheckedGame)
        self._last = None            # what check_game saw last (the custom checks': the canonical state)
        self._screen: Any = None     # what a game's screen is made of (``_screen_setup``)

    def __call__(self, before: dict | None, after: dict, action: dict | None) -> list:
        if not self.promised:
            return []
        if self._monitor is not None:
            return self._monitor(before, after, action)
        out = list(self._state(self.config, after, self.promised))
        if before is not None:
            out += list(self._step(self.config, before, after, action, self.promised))
        return out

    def check_game(self, rules: Engine, g: GameState, action: dict | None) -> list:
        """The violations after ``action`` was applied to ``g`` (None: ``g`` is a game's first state)."""
        if not self.promised:
            return []
        if self._monitor is None:
            after = g.to_json(rules.t.ownable)
            out = self(None if action is None else self._last, after, action)
            self._last = after
            return out
        game = self._game
        if action is not None and game is not None and game.game is g:
            return game.after(g, action)
        last = None if game is None else game.last
        game = self.start_game(rules, g)
        if action is None:
            return game.first(g)
        game.last = last
        return game.after(g, action)

    def screen(self, rules: Engine, g: GameState) -> Any:
        """The screen of a new game ``g`` (``verify.engine.screen``, of the build that made ``g``), or None
        when the game is to be checked by the recorder: custom checks, an invariant the screen has no
        function for, or a rule parameter an invariant reads left undecided."""
        monitor = self._monitor
        if monitor is None:
            return None
        if self._screen is None:
            self._screen = _screen_setup(self.config, monitor._params)
        setup = self._screen
        if not setup:
            return None
        code = screen_module if isinstance(g, GameState) else native.modules().get("engine.screen", screen_module)
        checks = setup.get(code)
        if checks is None:
            checks = setup[code] = code.screen_checks(self.promised) or ()
        if not checks:
            return None
        teams = tuple([i if team is None else team for i, team in enumerate(g.team)])
        board = setup.get((code, teams))
        if board is None:
            board = code.Board()
            try:
                for name, value in {**setup["tables"], **setup["params"]}.items():
                    setattr(board, name, value)
            except TypeError:       # a value not of its parameter's type (a custom config): the recorder checks
                return None
            board.seats = tuple(range(g.n))
            board.teams = teams
            setup[(code, teams)] = board
        return code.Screen(board, checks[0], checks[1], g)

    def start_game(self, rules: Engine, g: GameState, play: bool = False) -> Any:
        """The checks of a new game ``g`` (``verify.engine.slices.CheckedGame``; ``play``: one that applies the
        actions too), or None when the checks are custom ones."""
        if self._monitor is None:
            return None
        # the build that made ``g`` (a compiled one reads only its own build's states)
        code = slices if isinstance(g, GameState) else native.modules().get("engine.slices", slices)
        effects = {name: pair[1] for name, pair in rules.dispatch.items()} if play else None
        self._game = code.CheckedGame(self._monitor._run, g, rules.t.ownable, effects)
        return self._game


_action_for_check = slices.action_for_check     # (the name other modules import)


def _screen_setup(config: EngineConfig, params: dict[str, Any]) -> dict:
    """The board's tables and the rule parameters a game's screen reads, by their Board field; {} when an
    invariant reads a parameter left undecided (the recorder then checks every game)."""
    if any(value is UNDECIDED for value in params.values()) or not set(params) <= set(screen_module.PARAMETERS):
        return {}
    return {"tables": {screen_module.TABLES[name]: value for name, value in tables(board_facts(config)).items()},
            "params": {screen_module.PARAMETERS[pid]: value for pid, value in params.items()}}


class TraceRecorder(Recorder):
    """Writes a trace and/or checks invariants after every action of one game."""

    def __init__(self, out: IO[str] | None = None, header: dict | None = None,
                 checker: InvariantChecker | None = None):
        self.out, self.header, self.checker = out, header, checker
        self.steps = 0
        self._effects: dict[str, Callable] | None = None
        self._game: Any = None       # without a trace: the game's checks, which apply the actions too
        self._screen: Any = None     # the game's screen, while the game loop checks it on its fast path
        self._precise = False        # the screen was not sure: the game is played again, checked here

    def screen_for(self, rules: Engine, g: GameState) -> Any:
        """The screen the game loop checks ``g`` with on its fast path (``verify.engine.screen``), or None: the
        recorder sees every action (a trace is written, the checks are custom, or the screen was not sure)."""
        if self.out is not None or self.checker is None or self._precise:
            return None
        self._screen = self.checker.screen(rules, g)
        return self._screen

    def unscreened(self) -> None:
        """The screen was not sure: this recorder checks the game when it is played again."""
        self._precise = True
        self._screen = None

    def start(self, rules: Engine, g: GameState) -> None:
        first = g.to_json(rules.t.ownable) if self.out is not None else None
        if self.out is not None:
            self.out.write(json.dumps(self.header or {}, separators=(",", ":")) + "\n")
            self._write(0, None, [], first)
        # Without a trace, an action is applied as the game loop applies it when nothing is recorded: its
        # effect called at once (the bot chose it among the legal ones), so a checked game is the very
        # game an unchecked run plays. A trace goes through the step API, which replay re-runs.
        self._effects = {name: pair[1] for name, pair in rules.dispatch.items()} if self.out is None else None
        self._game = None
        self.__dict__.pop("step", None)
        if self.checker:
            if self.out is None and self.checker.promised:
                self._game = self.checker.start_game(rules, g, play=True)
            bad = self._game.first(g) if self._game is not None else self.checker.check_game(rules, g, None)
            if self._game is not None and not bad:
                # the game loop calls the game's checks itself: applied and checked in one call (compiled
                # with the engine), this recorder called back only when an invariant breaks
                self._game.broken = lambda steps, g, action, bad: self._broken(rules, steps, g, action, bad)
                self.step = self._game.step   # type: ignore[method-assign]
            if bad:
                self._end(g, stopped="invariant violated")
                raise InvariantBroken(0, None, [], first or g.to_json(rules.t.ownable), bad)

    def _broken(self, rules: Engine, steps: int, g: GameState, action: dict, bad: list) -> None:
        self.steps = steps
        self._end(g, stopped="invariant violated")
        raise InvariantBroken(steps, action, g.events, g.to_json(rules.t.ownable), bad)

    def step(self, rules: Engine, g: GameState, action: dict) -> None:
        g.events = []
        effects = self._effects
        if effects is None:
            apply_state(rules, g, action)
        else:
            kind = action["type"]
            seat = action.get("seat")
            effects[kind](g, awaited(g) if seat is None else seat, *[action.get(f, v) for f, v in FIELDS[kind]])
        after = g.to_json(rules.t.ownable) if self.out is not None else None   # only a trace needs the JSON
        events = g.events
        self.steps += 1
        if self.out is not None:
            self._write(self.steps, action, events, after)
        if self.checker:
            bad = self.checker.check_game(rules, g, _action_for_check(action, events))
            if bad:
                self._end(g, stopped="invariant violated")
                raise InvariantBroken(self.steps, action, events, after or g.to_json(rules.t.ownable), bad)

    def finish(self, rules: Engine, g: GameState) -> None:
        if self._screen is not None:
            self.steps = self._screen.steps
        elif self._game is not None:
            self.steps = self._game.steps
        self._end(g)
        if self.out is not None:
            self.out.flush()

    def _end(self, g: GameState, stopped: str | None = None) -> None:
        if self.out is not None:
            self.out.write(json.dumps({"end": {"steps": self.steps, "over": g.phase == "over",
                                               "result": g.result, "stopped": stopped}},
                                      separators=(",", ":")) + "\n")

    def _write(self, k: int, action, events, state) -> None:
        self.out.write(json.dumps({"step": k, "action": action, "events": events, "state": state},
                                  separators=(",", ":")) + "\n")


# ------------------------------------------------------------------------ replay
@dataclass
class ReplayResult:
    games: int
    steps: int
    problems: list[str]


class TraceError(VerifyError):
    def __init__(self, message: str, where: Location | None = None):
        super().__init__("E016", message, where)


def open_trace(path: str | Path) -> IO[str]:
    """A trace file for reading, plain or gzip-compressed (told by its first bytes, not its name)."""
    raw = Path(path).open("rb")
    if raw.read(2) == b"\x1f\x8b":
        raw.seek(0)
        return io.TextIOWrapper(gzip.GzipFile(fileobj=raw, mode="rb"), encoding="utf-8")
    raw.seek(0)
    return io.TextIOWrapper(raw, encoding="utf-8")


@dataclass
class Game:
    """One game of a trace: its header, its step records, and how it ended."""

    header: dict
    steps: list[tuple[int, dict]] = field(default_factory=list)
    end: dict | None = None
    truncated: str | None = None      # why the game is known to be cut short, else None


def _numbered(lines: Iterable[str], name: str, cut: list[str]) -> Iterator[tuple[int, str]]:
    no = 0
    try:
        for no, line in enumerate(lines, start=1):
            yield no, line
    except EOFError:
        cut.append(f"the compressed stream ends early, after line {no}")
    except (zlib.error, gzip.BadGzipFile) as exc:
        raise TraceError(f"corrupt compressed data after line {no}: {exc}", Location(name, no + 1)) from None
    except UnicodeDecodeError as exc:
        raise TraceError(f"not UTF-8 text: {exc.reason}", Location(name, no + 1)) from None


def read_games(lines: Iterable[str], name: str) -> Iterator[Game]:
    """Every game of a trace, each marked ``truncated`` when the file was cut short inside it."""
    game: Game | None = None
    cut: list[str] = []
    for no, line in _numbered(lines, name, cut):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            if not line.endswith("\n"):      # the last line, cut in the middle of writing
                cut.append(f"line {no} is cut short")
                break
            raise TraceError(f"not JSON: {exc.msg}", Location(name, no)) from None
        if not isinstance(rec, dict):
            raise TraceError("each line is a JSON object", Location(name, no))
        if "trace" in rec:
            if rec["trace"] not in TRACE_SCHEMAS:
                raise TraceError(f"unknown trace format {rec['trace']!r}; expected {TRACE_SCHEMA}",
                                 Location(name, no))
            if game is not None:
                yield _closed(game, name, None)
            game = Game(rec)
            continue
        if game is None:
            raise TraceError("the first line must be a trace header", Location(name, no))
        if "end" in rec:
            if game.end is not None:
                raise TraceError("a second end line for one game", Location(name, no))
            game.end = rec["end"] if isinstance(rec["end"], dict) else {}
            continue
        if game.end is not None:
            raise TraceError("a step after the game's end line", Location(name, no))
        if "state" not in rec:
            raise TraceError("a step line needs a state", Location(name, no))
        game.steps.append((no, rec))
    if game is not None:
        yield _closed(game, name, cut[0] if cut else None)
    elif cut:
        raise TraceError(f"truncated before the first game: {cut[0]}", Location(name))


def _closed(game: Game, name: str, cut: str | None) -> Game:
    if cut is None and game.end is None and game.header.get("trace") != "verify.trace/1":
        cut = "the game has no end line"
    game.truncated = cut
    return game


def read_trace(lines: Iterable[str], name: str) -> Iterator[tuple[dict, list[tuple[int, dict]]]]:
    """Games of a trace: (header, [(line number, step record), ...])."""
    for game in read_games(lines, name):
        yield game.header, game.steps


def replay_game(config: EngineConfig, rules: Engine, header: dict, steps: list, name: str,
                checker: InvariantChecker | None, stop_at_first: bool = True) -> tuple[int, list[str]]:
    """Re-apply each action; compare states; evaluate invariants. Returns (steps checked, problems)."""
    problems: list[str] = []
    if header.get("config_hash") and header["config_hash"] != config.hash():
        problems.append(f"{name}: the trace was recorded with config {header['config_hash']}, "
                        f"but the ruleset compiles to {config.hash()}")
        return 0, problems
    prev = None
    checked = 0
    for no, rec in steps:
        where = f"{name}:{no}"
        state, action = rec["state"], rec.get("action")
        if prev is not None and "refused" in rec:
            # a step the rules refused (a witness records one): refused again, and nothing changed
            why = _refusal(rules, prev, action)
            if why is None:
                problems.append(f"{where}: step {rec.get('step')}: the trace records {action.get('type')!r} as "
                                f"refused ({rec['refused']}), but the rules accept it")
            elif state != prev:
                problems.append(f"{where}: step {rec.get('step')}: a refused action changed the recorded state")
        elif prev is not None:
            if action is None:
                problems.append(f"{where}: step {rec.get('step')} has no action")
            else:
                try:
                    g = rules.from_json(prev)
                    g.events = []
                    apply_state(rules, g, action)
                    mine = g.to_json(rules.t.ownable)
                except VerifyError as exc:
                    problems.append(f"{where}: step {rec.get('step')}: {exc.message}")
                    mine, g = None, None
                if mine is not None and mine != state:
                    problems.append(f"{where}: step {rec.get('step')}: the recorded state differs from the rules' "
                                    f"result ({_first_difference(mine, state)})")
        if checker is not None and "refused" not in rec:
            events = rec.get("events") or []
            bad = checker(prev, state, _action_for_check(action, events))
            for v in bad:
                problems.append(f"{where}: step {rec.get('step')}: {v}")
        checked += 1
        prev = state
        if problems and stop_at_first:
            break
    return checked, problems


def _refusal(rules: Engine, state: dict, action: Any) -> str | None:
    """Why the rules refuse ``action`` in ``state`` (None when they accept it)."""
    try:
        g = rules.from_json(state)
        g.events = []
        apply_state(rules, g, action)
    except IllegalAction as exc:
        return exc.message
    return None


def _first_difference(a, b, path: str = "state") -> str:
    if type(a) is not type(b):
        return f"{path}: {a!r} vs recorded {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k} present on one side only"
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{path}.{k}")
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items vs recorded {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {a!r} vs recorded {b!r}"


__all__ = ["TRACE_SCHEMA", "TRACE_SCHEMAS", "TraceRecorder", "InvariantChecker", "InvariantBroken",
           "Game", "open_trace", "read_games", "read_trace", "replay_game", "ReplayResult", "TraceError"]
