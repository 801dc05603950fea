"""An engine's own game log (``verify.game-log/1``): writing one, and reading one back checked.

Most hobby engines play a whole turn in one call and cannot be driven action by
action through protocol 1. Such an engine adds logging instead of an adapter:
it writes the states it passes through, with the dice it threw and the cards it
drew in between, and ``verify conform --validate-trace FILE`` checks that every
logged transition is explained by legal actions of the ruleset
(``verify.conform.trace_check``).

The format is JSON Lines, one line per JSON object, described line by line by
``verify/schemas/game-log.schema.json``: a header starts each game
(``{"log": "verify.game-log/1", "engine": NAME}``), then one record per logged
state (``{"state": STATE, "dice": [[3, 4], ...], "cards": [{"deck", "card"}],
"label": TEXT}``). A logged state is part of a ``verify.state/1`` state: every
seat with its cash and position is required, anything else is compared only
when logged. Writing a log::

    from verify.conform.tracelog import GameLog

    with GameLog("game.jsonl") as log:
        log.game("my-engine", version="1.2", new_game=True)
        log.state({"players": [{"cash": 1500, "position": 0}] * 2})
        log.dice(3, 4)                           # whenever the engine throws
        log.card("chance", "chance-back-3")      # whenever it draws a card
        log.state({...}, label="turn 1")          # the throws and draws since the last state go with it

Reading one (``read_log``) checks each line against the schema (read from the
schema file itself, so the two cannot drift apart) and raises E026 naming the
file and line of the first bad one.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import IO, Any, Iterator

from ..errors import Location
from . import ConformInputError

LOG_FORMAT = "verify.game-log/1"
SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schemas"
SCHEMA_FILE = SCHEMA_DIR / "game-log.schema.json"
#: the longest log line read (a state of 8 players with every key is under 20 kB)
MAX_LINE = 1 << 20


class GameLog:
    """Writes a game log line by line (flushed, so a crash leaves every line written before it)."""

    def __init__(self, out: str | Path | IO[str] | None = None):
        if out is None:
            out = sys.stdout
        self._own = not hasattr(out, "write")
        self._out: IO[str] = open(out, "w", encoding="utf-8") if self._own else out   # noqa: SIM115
        self._dice: list[list[int]] = []
        self._cards: list[dict] = []

    def game(self, engine: str, version: str | None = None, seed: int | None = None,
             new_game: bool = False) -> None:
        """Start a game: the next ``state`` is where it starts (a new game when ``new_game``)."""
        header: dict[str, Any] = {"log": LOG_FORMAT, "engine": engine}
        if version is not None:
            header["version"] = str(version)
        if seed is not None:
            header["seed"] = seed
        if new_game:
            header["new_game"] = True
        self._dice, self._cards = [], []
        self._write(header)

    def dice(self, *faces: int) -> None:
        """One throw of the dice (every die's face), in the order thrown."""
        self._dice.append([int(f) for f in faces])

    def card(self, deck: str, card: str) -> None:
        """One card drawn: ``deck`` is ``chance`` or ``chest``, ``card`` its id in the ruleset's deck."""
        self._cards.append({"deck": deck, "card": card})

    def state(self, state: dict, label: str | None = None) -> None:
        """A state the engine reached, with the throws and draws made since the state before."""
        record: dict[str, Any] = {"state": state}
        if self._dice:
            record["dice"] = self._dice
        if self._cards:
            record["cards"] = self._cards
        if label is not None:
            record["label"] = label
        self._dice, self._cards = [], []
        self._write(record)

    def _write(self, obj: dict) -> None:
        self._out.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n")
        self._out.flush()

    def close(self) -> None:
        if self._own:
            self._out.close()

    def __enter__(self) -> "GameLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ---- reading ---------------------------------------------------------------------------------------

@dataclass
class Record:
    """One logged state, with the throws and draws that led to it (from the state before)."""

    line: int
    state: dict
    dice: list[list[int]] = field(default_factory=list)
    cards: list[dict] = field(default_factory=list)
    label: str | None = None


@dataclass
class LoggedGame:
    """A game of the log: its header and its records (the first is where the game starts)."""

    line: int
    header: dict
    records: list[Record] = field(default_factory=list)


def read_log(path: str | Path) -> Iterator[LoggedGame]:
    """Every game of the log at ``path``, each line checked (E026 naming the file and line)."""
    name = str(path)
    try:
        f = open(path, encoding="utf-8")    # noqa: SIM115
    except OSError as exc:
        raise ConformInputError(f"cannot read the game log: {exc.strerror or exc}", Location(name)) from None
    game: LoggedGame | None = None
    with f:
        no = 0
        try:
            for no, line in enumerate(iter(lambda: f.readline(MAX_LINE + 1), ""), start=1):
                where = Location(name, no)
                if len(line) > MAX_LINE:
                    raise ConformInputError(f"a line longer than {MAX_LINE} characters", where)
                if not line.strip():
                    continue
                obj = _parse(line, where)
                if "log" in obj:
                    _check(obj, _schema("header"), "header", where)
                    if game is not None:
                        yield _finished(game, name)
                    game = LoggedGame(no, obj)
                    continue
                if game is None:
                    raise ConformInputError(f"the first line must be a header {{\"log\": \"{LOG_FORMAT}\", "
                                            "\"engine\": NAME}", where)
                _check(obj, _schema("record"), "line", where)
                rec = Record(no, obj["state"], obj.get("dice", []), obj.get("cards", []), obj.get("label"))
                if game.records and len(rec.state["players"]) != len(game.records[0].state["players"]):
                    raise ConformInputError(f"the state lists {len(rec.state['players'])} players, the game's "
                                            f"first state {len(game.records[0].state['players'])}", where)
                if not game.records and (rec.dice or rec.cards):
                    raise ConformInputError("the first state of a game has no throws or draws before it", where)
                game.records.append(rec)
        except UnicodeDecodeError as exc:
            raise ConformInputError(f"not UTF-8 text: {exc.reason}", Location(name, no + 1)) from None
    if game is None:
        raise ConformInputError(f"no game in the log: it must start with a header {{\"log\": \"{LOG_FORMAT}\", "
                                "...}", Location(name, 1))
    yield _finished(game, name)


def _finished(game: LoggedGame, name: str) -> LoggedGame:
    if not game.records:
        raise ConformInputError("a game with no state after its header", Location(name, game.line))
    return game


def _parse(line: str, where: Location) -> dict:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ConformInputError(f"not JSON: {exc.msg} (column {exc.colno})", where) from None
    if not isinstance(obj, dict):
        raise ConformInputError("each line is a JSON object", where)
    return obj


# ---- the schema, applied -----------------------------------------------------------------------------
# A small reader of the JSON Schema keywords the two schemas use, so that the schema file is the one
# definition of the format (jsonschema is only a test dependency; the tests check both agree).

@lru_cache(maxsize=None)
def _doc(file: str) -> dict:
    return json.loads((SCHEMA_DIR / file).read_text(encoding="utf-8"))


def _schema(name: str) -> dict:
    return _doc(SCHEMA_FILE.name)["$defs"][name]


def _resolve(ref: str, base: str) -> tuple[dict, str]:
    file, _, pointer = ref.partition("#")
    file = file or base
    node: Any = _doc(file)
    for part in pointer.strip("/").split("/") if pointer.strip("/") else []:
        node = node[part]
    return node, file


def _check(value: Any, schema: dict, path: str, where: Location, base: str = SCHEMA_FILE.name) -> None:
    problem = _problem(value, schema, path, base)
    if problem:
        raise ConformInputError(problem, where)


_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool}


def _is(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool) or isinstance(value, float) and value.is_integer()
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "null":
        return value is None
    return isinstance(value, _TYPES[kind])


def _problem(value: Any, schema: dict, path: str, base: str) -> str | None:  # noqa: C901 (one keyword a branch)
    if "$ref" in schema:
        target, file = _resolve(schema["$ref"], base)
        return _problem(value, target, path, file)
    if "oneOf" in schema:
        fits = [s for s in schema["oneOf"] if _problem(value, s, path, base) is None]
        return None if len(fits) == 1 else f"{path}: {_show(value)} fits {len(fits)} of the forms allowed, not one"
    if "const" in schema and value != schema["const"]:
        return f"{path} must be {json.dumps(schema['const'])}, got {_show(value)}"
    if "enum" in schema and value not in schema["enum"]:
        return f"{path} must be one of {', '.join(json.dumps(e) for e in schema['enum'])}, got {_show(value)}"
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_is(value, k) for k in kinds):
            return f"{path} must be {' or '.join(kinds)}, got {_show(value)}"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            return f"{path} must be at least {schema['minimum']}, got {_show(value)}"
        if "maximum" in schema and value > schema["maximum"]:
            return f"{path} must be at most {schema['maximum']}, got {_show(value)}"
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        return f"{path} must not be empty"
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            return f"{path} needs at least {schema['minItems']} item(s)"
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            return f"{path} has {len(value)} items, at most {schema['maxItems']} allowed"
        if "items" in schema:
            for i, item in enumerate(value):
                p = _problem(item, schema["items"], f"{path}[{i}]", base)
                if p:
                    return p
    if isinstance(value, dict):
        missing = [k for k in schema.get("required", ()) if k not in value]
        if missing:
            return f"{path} lacks {', '.join(repr(k) for k in missing)}"
        props = schema.get("properties", {})
        for k, v in value.items():
            if k in props:
                p = _problem(v, props[k], f"{path}.{k}", base)
                if p:
                    return p
            elif schema.get("additionalProperties") is False:
                known = ", ".join(props) if len(props) <= 12 else ", ".join(list(props)[:12]) + ", ..."
                return f"{path} has an unknown key {k!r} (known: {known})"
    return None


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:60] + "…"


__all__ = ["LOG_FORMAT", "SCHEMA_FILE", "GameLog", "Record", "LoggedGame", "read_log"]
