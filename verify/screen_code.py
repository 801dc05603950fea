"""The invariants as typed functions over the engine's own state, generated for the engine's screen.

A checked game decides every promised invariant after every action. ``verify.invariant_code`` translates
an invariant's tree into a function over the *slices* of a state (dicts and tuples, made per action), run
as interpreted Python; that costs several times the action itself. This module translates the same trees,
with the same translator, into typed functions over the engine's ``GameState`` (its columns read as they
are), the columns as they were before the action (``Before``), the board's tables and the rule
parameters of the game (``Board``: read at run time, so one module serves every ruleset) and, for a step
invariant that reads the action, its record (``Act``). It writes them as one module,
``verify/engine/screen_predicates.py``, which ``verify.engine.native`` compiles with the engine and
``verify.engine.screen`` runs after every action of a checked game.

The module is generated, never written by hand: ``python -m verify.screen_code --write`` writes it from
``specs/invariants.yaml``, ``--check`` fails when it differs from what the spec gives (a test runs it).
What this module does not translate (see ``verify.invariant_code``) is left out of the module, and a
ruleset that promises it is checked by the reference path alone. As there, nothing of a spec is pasted
as code: names are the translator's own, and a rule parameter is read from ``Board`` by a name made of
its id's letters.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from . import frames
from .expr import Aggregate, BoolOp, Name, names
from .invariant_code import LOCAL_ITEMS, Untranslated, _prelude, _staged, _T, _Translator
from .spec.catalogue import load_catalogue
from .spec.invariants import Invariant, load_invariants

TARGET = Path(__file__).resolve().parent / "engine" / "screen_predicates.py"
#: the slices a step may change, by their bit in the screen's record of changes (``verify.engine.screen``)
CHANGING = ("cash", "in_jail", "bankrupt", "owner", "mortgaged", "houses", "hotel", "cards", "bank_houses",
            "bank_hotels", "bank_cash", "pot", "jackpot")
#: a slice's name -> where the code reads it, in the state after (``g``) and before (``o``)
_AFTER = {"cards": "g.jail_cards", "seats": "k.seats", "teams": "k.teams",
          "bank_houses": "stock(g.bank_houses)", "bank_hotels": "stock(g.bank_hotels)"}
_BEFORE = {"cards": "o.jail_cards", "seats": "k.seats", "teams": "k.teams"}
#: the board's tables (``verify.invariant_code.tables``) by the Board field that holds each
_TABLES = {"K_KIND": "kind", "K_GROUP": "group", "K_PRICE": "price", "K_HOUSE_COST": "house_cost",
           "K_PROPS": "props", "K_STREETS": "streets", "K_AT_PROPS": "at_props", "K_AT_STREETS": "at_streets",
           "K_GROUPS": "groups", "K_GNAME": "gname", "K_GSTREETS": "gstreets"}
#: a rule parameter's type in the catalogue -> its field's type (an ``int_or`` symbol: any value)
_TYPES = {"int": "int", "bool": "bool", "enum": "str"}
_ACT_FIELDS = ("player", "creditor", "team", "bankruptcy")


def param_field(pid: str) -> str:
    """The Board field that holds rule parameter ``pid`` (``building.max_houses`` -> ``p_building_max_houses``)."""
    return "p_" + re.sub(r"[^a-z0-9]", "_", pid.lower())


class _Param:
    """A rule parameter, read at run time (its value is not known when the module is generated)."""

    def __init__(self, pid: str):
        self.pid = pid


class _Native(_Translator):
    """The translator writing over the engine's state (see the module docstring)."""

    def __init__(self, constants: dict[str, Any], step: bool):
        super().__init__(constants, step)
        self.params: set[str] = set()      # the rule parameters read

    def bind(self, state: str, name: str) -> str:
        where = (_AFTER if state == "s" else _BEFORE).get(name, f"{'g' if state == 's' else 'o'}.{name}")
        return f"    {state}_{name} = {where}"

    def constant(self, pid: str, value: Any) -> _T:
        if isinstance(value, _Param):
            self.params.add(pid)
            return _T(param_field(pid), "value")
        return super().constant(pid, value)

    def aggregate(self, e: Any, scope: dict[str, _T], state: str, first: str | None = None) -> _T:
        # a sum as a generator, which the compiler makes a loop (a sum of a list or of a tuple is a call)
        out = super().aggregate(e, scope, state, first)
        column = re.fullmatch(r"sum\(([so]_\w+)\)", out.code)
        if column:
            return _T(f"sum(x for x in {column[1]})", out.kind)
        return out

    def board_column(self, e: Any, fors: list[str], elt: str) -> str:
        return ""

    def name(self, path: tuple[str, ...], scope: dict[str, _T], state: str) -> _T:
        if path[0] == "action" and path[0] not in scope:
            if len(path) != 2 or path[1] not in _ACT_FIELDS:
                raise Untranslated(f"the action's {'.'.join(path[1:])} (the screen knows a bankruptcy's only)")
        return super().name(path, scope, state)


def translate(inv: Invariant) -> tuple[str, set[str], set[tuple[str, str]]]:
    """The source of ``inv``'s function (named after it), the rule parameters it reads and the (state,
    slice) pairs it reads. Raises ``Untranslated``."""
    t = _Native({pid: _Param(pid) for pid in inv.reads}, inv.kind == "step")
    fn = "inv_" + inv.id.replace("-", "_")
    head, body = _staged(inv, {}, False, t, f"def {fn}(g: GameState, o: Before, k: Board, a: Act) -> bool:").split(
        "\n", 1)
    read = set(t.read)
    for name, state in (("obc", "o"), ("bc", "s")):      # the bank's cash before and after (bound in that order)
        if re.search(rf"\b{name}\b", body):
            body = f"    {name} = {'g' if state == 's' else 'o'}.bank_cash\n" + body
            read.add((state, "bank_cash"))
    return head + "\n" + _tail(t, body), t.params, read


#: the lists of the deeds, streets and groups with a square that changed (``Changed``), by the board's list
_CHANGED = {"properties": "d.deeds", "streets": "d.streets", "groups": "d.groups"}


def _tail(t: _Native, body: str) -> str:
    """The lines binding the tables and parameters ``body`` reads, then ``body``."""
    binds = []
    for token, field in _TABLES.items():
        if re.search(rf"\b{token}\b", body):
            binds.append(f"    {token} = k.{field}")
    for pid in sorted(t.params):
        binds.append(f"    {param_field(pid)} = k.{param_field(pid)}")
    body = body.replace("_chance_cards(", "chance_cards(").replace("_chest_cards(", "chest_cards(")
    return "\n".join([*binds, body])


def parts(inv: Invariant) -> list[tuple[str, int, str | None, int]]:
    """The conjuncts of state invariant ``inv`` (its top-level ``and``, else itself) as functions
    ``(g, k, d)``: (the full one's source, the slices it reads as bits, the local one's source or None, the
    slices it reads other than at a changed item's squares as bits). The local one runs over the deeds,
    streets or groups with a square that changed (``d``), given that the conjunct held before and none of
    its shared slices changed (``verify.invariant_code.Part``). Raises ``Untranslated``."""
    e = inv.expr
    out = []
    base = "inv_" + inv.id.replace("-", "_")
    for n, conj in enumerate(e.operands if isinstance(e, BoolOp) and e.op == "and" else (e,)):
        texts, masks = [], []
        local = (isinstance(conj, Aggregate) and conj.func == "all" and isinstance(conj.loops[0][1], Name)
                 and len(conj.loops[0][1].path) == 1 and conj.loops[0][1].path[0] in LOCAL_ITEMS
                 and conj.loops[0][1].path[0] not in inv.reads)
        for first in ([None, _CHANGED[conj.loops[0][1].path[0]]] if local else [None]):
            t = _Native({pid: _Param(pid) for pid in inv.reads}, False)
            if isinstance(conj, Aggregate) and conj.func in ("all", "any"):
                body = t.statements(conj, conj.func == "any", first) + [f"    return {conj.func == 'all'}"]
            else:
                body = [f"    return {t.value(conj, {}, 's').code}"]
            name = f"{base}_{n}" + ("_local" if first else "")
            head = f"def {name}(g: GameState, k: Board, d: Changed) -> bool:"
            texts.append(head + "\n" + _tail(t, "\n".join(_prelude(t, set()) + body)))
            masks.append(mask({slice_ for _, slice_ in t.read}) if first is None else mask(t.shared))
        out.append((texts[0], masks[0], texts[1] if local else None, masks[1] if local else 0))
    return out


def mask(slices: Any) -> int:
    """The bits (``CHANGING``) of the slices named (-1: any step)."""
    if slices is None:
        return -1
    return sum(1 << k for k, name in enumerate(CHANGING) if name in slices)


_HEAD = '''"""GENERATED by ``python -m verify.screen_code --write`` from ``specs/invariants.yaml``: do not edit.

The promised invariants as typed functions over the engine's own state (``verify.screen_code`` says how
and why); ``verify.engine.screen`` runs them after every action of a checked game, and
``verify.engine.native`` compiles this module with the engine.
"""

from __future__ import annotations

from typing import Any, Final, Optional

from ..state_view import chance_cards, chest_cards
from .state import UNLIMITED, GameState


class Board:
    """The board's tables (``verify.invariant_code.tables``), the seats and teams of one game, and the rule
    parameters the invariants read (``p_`` and the parameter's id)."""

    kind: tuple[Optional[str], ...]
    group: tuple[Optional[str], ...]
    price: tuple[Optional[int], ...]
    house_cost: tuple[Optional[int], ...]
    props: tuple[int, ...]
    streets: tuple[int, ...]
    at_props: Any
    at_streets: Any
    groups: tuple[int, ...]
    gname: tuple[str, ...]
    gstreets: tuple[tuple[int, ...], ...]
    seats: tuple[int, ...]
    teams: tuple[int, ...]
{params}


class Before:
    """The columns of the state before the action (as the screen last saw them)."""

    def __init__(self) -> None:
        self.cash: list[int] = []
        self.in_jail: list[bool] = []
        self.bankrupt: list[bool] = []
        self.owner: list[int] = []
        self.mortgaged: list[bool] = []
        self.houses: list[int] = []
        self.hotel: list[bool] = []
        self.jail_cards: list[list[str]] = []
        self.bank_houses: Any = None
        self.bank_hotels: Any = None
        self.bank_cash = 0
        self.pot = 0
        self.jackpot = 0


class Act:
    """A bankruptcy's record as a step invariant reads ``action`` (``verify.invariants._action_record``)."""

    def __init__(self, player: int, creditor: int, team: int, bankruptcy: bool) -> None:
        self.player = player
        self.creditor = creditor
        self.team = team
        self.bankruptcy = bankruptcy


class Changed:
    """The deeds, streets and colour groups with a square whose deed columns changed in the step."""

    def __init__(self, deeds: list[int], streets: list[int], groups: list[int]) -> None:
        self.deeds = deeds
        self.streets = streets
        self.groups = groups


def stock(n: int) -> Any:
    """A building stock as the invariants read it: None when unlimited."""
    return None if n >= UNLIMITED // 2 else n
'''


def module_source(invariants: list[Invariant] | None = None) -> str:
    """The generated module's text for ``invariants`` (all of ``specs/invariants.yaml`` by default)."""
    invariants = load_invariants() if invariants is None else invariants
    catalogue = load_catalogue()
    functions, states, steps, params = [], [], [], set()
    part_names: list[str] = []
    step_names: list[str] = []
    for inv in invariants:
        try:
            text, read_params, read = translate(inv)
            conjuncts = parts(inv) if inv.kind == "state" else []
        except Untranslated:
            continue
        params |= read_params
        fn = "inv_" + inv.id.replace("-", "_")
        if inv.kind == "step":
            functions.append(text)
            acting = any(path[0] == "action" for path in names(inv.expr))
            step_names.append(fn)
            steps.append(f"    ({inv.id!r}, {mask(frames.frame(inv.expr, inv.reads))}, {acting}, {len(step_names) - 1}),")
            continue
        rows = []
        for n, (full, reads, local, shared) in enumerate(conjuncts):
            functions.append(full)
            part_names.append(f"{fn}_{n}")
            if local is not None:
                functions.append(local)
                part_names.append(f"{fn}_{n}_local")
            rows.append(f"({reads}, {len(part_names) - 1 - (local is not None)}, "
                        f"{len(part_names) - 1 if local else -1}, {shared})")
        states.append(f"    ({inv.id!r}, {mask({name for _, name in read})}, [{', '.join(rows)}]),")
    lines = [f"    {param_field(pid)}: {_TYPES.get(catalogue[pid].type, 'Any')}" for pid in sorted(params)]
    out = _HEAD.replace("{params}", "\n".join(lines)) + "\n\n" + "\n\n\n".join(functions) + "\n\n\n"
    out += _dispatch("part", "g: GameState, k: Board, d: Changed", "g, k, d", part_names)
    out += _dispatch("step", "g: GameState, o: Before, k: Board, a: Act", "g, o, k, a", step_names)
    out += ("#: each state invariant: its id, the slices it reads (bits of ``verify.screen_code.CHANGING``) and its\n"
            "#: conjuncts, each (the slices it reads, its function's number (``part``), its local function's or -1, the\n"
            "#: slices the local one reads other than at a changed item)\n")
    out += "STATES: Final[list[tuple[str, int, list[tuple[int, int, int, int]]]]] = [\n"
    out += "\n".join(states) + "\n]\n"
    out += ("#: each step invariant: its id, the slices a step must change for it to fail (its frame: "
            "``verify.frames``;\n#: -1: any), whether it reads the action, its function's number (``step``)\n")
    out += "STEPS: Final[list[tuple[str, int, bool, int]]] = [\n" + "\n".join(steps) + "\n]\n"
    out += ("#: the board's tables (``verify.invariant_code.tables``), by the Board field that holds each\n"
            f"TABLES: Final = {_TABLES!r}\n")
    out += ("#: the rule parameters the functions read, by the Board field that holds each\n"
            f"PARAMETERS: Final = {dict((pid, param_field(pid)) for pid in sorted(params))!r}\n")
    return out


def _dispatch(name: str, params: str, args: str, functions: list[str]) -> str:
    """A function calling function number ``i`` of ``functions`` (a native call each, where a list of
    functions would be called as Python objects)."""
    lines = [f"def {name}(i: int, {params}) -> bool:",
             f'    """Function number ``i`` of the {name}s, called with the rest."""']
    for n, fn in enumerate(functions):
        lines.append(f"    {'if' if n == 0 else 'elif'} i == {n}:\n        return {fn}({args})")
    lines.append("    raise IndexError(i)\n\n\n")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write or check verify/engine/screen_predicates.py")
    ap.add_argument("--write", action="store_true", help="write the module from specs/invariants.yaml")
    ap.add_argument("--check", action="store_true", help="fail when the module differs from the spec's")
    args = ap.parse_args(argv)
    text = module_source()
    if args.write:
        TARGET.write_text(text, encoding="utf-8")
        return 0
    if TARGET.exists() and TARGET.read_text(encoding="utf-8") == text:
        return 0
    print(f"{TARGET} is not what specs/invariants.yaml gives: run python -m verify.screen_code --write",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
