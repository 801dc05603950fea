"""The game invariants (``specs/invariants.yaml``): loaded, checked, and evaluated on real states.

Invariants are declared once in the safe expression language and compiled
twice: here to Python predicates over the canonical game state (used by the
engine's ``--check-invariants`` and by ``verify replay``), and in
``verify.smt`` to z3 formulas over the symbolic state (``verify check``).

Both backends range over the same *view* of a state: ``players``,
``properties``, ``streets``, ``groups`` (each with ``.streets``), ``bank``,
``pot``, ``jackpot``, the rule parameters by id, and for step invariants the
``action`` and each player's/property's ``before``. The field lists below are
that contract; the loader rejects an expression that names anything else
(E014, with file and line) and a ruleset that promises an unknown id (E013).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from .errors import ExprError, GameError, Location, SpecError
from .expr import Aggregate, BinOp, BoolOp, Call, Compare, Const, IfExp, Name, Neg, Not, TupleLit
from .expr import evaluate, names, parse
from .paths import display, specs_dir

NOBODY = -1  #: owner of a deed the bank holds; creditor of a debt to the bank

#: The fields of each kind of object in the view (the contract with verify.smt).
PLAYER_FIELDS = ("seat", "cash", "in_jail", "bankrupt", "team", "chance_cards", "chest_cards", "jail_cards")
PROPERTY_FIELDS = ("square", "kind", "group", "owner", "mortgaged", "houses", "hotel", "hotels", "price",
                   "house_cost")
GROUP_FIELDS = ("name", "streets")
BANK_FIELDS = ("houses", "hotels", "cash")
ACTION_FIELDS = ("kind", "player", "creditor", "team", "bankruptcy")
ROOTS = {"players": "player*", "properties": "property*", "streets": "property*", "groups": "group*",
         "bank": "bank", "pot": "int", "jackpot": "int"}
KINDS = ("state", "step")


@dataclass(frozen=True)
class Invariant:
    id: str
    title: str
    kind: str                      # state | step
    text: str
    expr: Any
    reads: tuple[str, ...]         # rule parameters the expression reads
    where: Location


@dataclass(frozen=True)
class Violation:
    """One invariant that does not hold, with where (event) it was found."""

    invariant: str
    title: str
    kind: str
    message: str

    def __str__(self) -> str:
        return f"invariant {self.invariant} broken: {self.title}" + (f" ({self.message})" if self.message else "")


# ---- loading and validation -----------------------------------------------------

def load_invariants(path: Path | None = None) -> list[Invariant]:
    """Every invariant of ``specs/invariants.yaml`` (or ``path``), validated."""
    return list(_load(str(path or specs_dir() / "invariants.yaml")))


def invariant_ids() -> list[str]:
    return [i.id for i in load_invariants()]


def by_id(ids: Iterable[str] | None = None) -> list[Invariant]:
    """The invariants named by ``ids`` (all when None), in file order; unknown ids raise E013."""
    invs = load_invariants()
    if ids is None:
        return invs
    wanted = list(ids)
    known = {i.id for i in invs}
    for w in wanted:
        if w not in known:
            import difflib
            close = difflib.get_close_matches(w, sorted(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise SpecError("E013", f"unknown invariant {w!r}{hint}; known: {', '.join(sorted(known))}")
    return [i for i in invs if i.id in wanted]


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[Invariant, ...]:
    from .spec import load_catalogue
    from .spec.yamlsafe import load_yaml

    cat = load_catalogue()
    name = display(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError("E001", f"cannot read invariants: {exc}", Location(name)) from None
    data, lines = load_yaml(text, name)
    items = (data or {}).get("invariants") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise SpecError("E009", "the invariants file needs a list 'invariants'", Location(name, 1))
    out: list[Invariant] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        where = Location(name, lines.get(("invariants", i)))
        if not isinstance(item, dict) or not {"id", "title", "kind", "expr"} <= set(item):
            raise SpecError("E009", "an invariant needs id, title, kind and expr", where)
        extra = sorted(set(item) - {"id", "title", "kind", "expr", "reads"})
        if extra:
            raise SpecError("E009", f"invariant {item['id']}: unknown field(s) {extra}", where)
        iid = item["id"]
        if iid in seen:
            raise SpecError("E008", f"invariant {iid!r} is declared twice", where)
        seen.add(iid)
        kind = item["kind"]
        if kind not in KINDS:
            raise SpecError("E009", f"invariant {iid}: kind must be state or step, not {kind!r}",
                            Location(name, lines.get(("invariants", i, "kind"))))
        ewhere = Location(name, lines.get(("invariants", i, "expr")) or where.line)
        if not isinstance(item["expr"], str):
            raise ExprError(f"invariant {iid}: expr must be a string", ewhere)
        # YAML folded blocks keep the newlines of indented lines; an expression is one line
        expr = parse(" ".join(item["expr"].split()), ewhere)
        params = _validate(expr, kind, cat, iid, ewhere)
        declared = item.get("reads")
        if declared is not None:
            if not isinstance(declared, list) or not all(isinstance(x, str) for x in declared):
                raise SpecError("E009", f"invariant {iid}: reads is a list of parameter ids", where)
            for p in declared:
                if p not in cat:
                    raise ExprError(f"invariant {iid} reads unknown parameter {p!r}{cat.suggest(p)}",
                                    Location(name, lines.get(("invariants", i, "reads"))))
            if set(declared) != set(params):
                raise SpecError("E009", f"invariant {iid}: reads {sorted(declared)} but the expression "
                                f"reads {sorted(params)}", Location(name, lines.get(("invariants", i, "reads"))))
        out.append(Invariant(iid, str(item["title"]), kind, item["expr"], expr, tuple(sorted(params)), where))
    return tuple(out)


def _validate(expr: Any, kind: str, cat, iid: str, where: Location) -> set[str]:
    """Check every name against the view (or the catalogue); return the parameter ids read."""
    params: set[str] = set()
    step = kind == "step"

    def field_type(typ: str, path: tuple[str, ...], full: str) -> str:
        for attr in path:
            if typ == "player":
                if attr == "before" and step:
                    continue
                if attr not in PLAYER_FIELDS:
                    raise ExprError(f"invariant {iid}: a player has no field {attr!r} in {full!r}; "
                                    f"fields: {', '.join(PLAYER_FIELDS)}", where)
                typ = "int"
            elif typ == "property":
                if attr == "before" and step:
                    continue
                if attr not in PROPERTY_FIELDS:
                    raise ExprError(f"invariant {iid}: a property has no field {attr!r} in {full!r}; "
                                    f"fields: {', '.join(PROPERTY_FIELDS)}", where)
                typ = "int"
            elif typ == "group":
                if attr not in GROUP_FIELDS:
                    raise ExprError(f"invariant {iid}: a group has no field {attr!r} in {full!r}; "
                                    f"fields: {', '.join(GROUP_FIELDS)}", where)
                typ = "property*" if attr == "streets" else "int"
            elif typ == "bank":
                if attr not in BANK_FIELDS:
                    raise ExprError(f"invariant {iid}: the bank has no field {attr!r}; "
                                    f"fields: {', '.join(BANK_FIELDS)}", where)
                typ = "int"
            elif typ == "action":
                if attr not in ACTION_FIELDS:
                    raise ExprError(f"invariant {iid}: an action has no field {attr!r}; "
                                    f"fields: {', '.join(ACTION_FIELDS)}", where)
                typ = "int"
            else:
                raise ExprError(f"invariant {iid}: {full!r} has no fields", where)
        return typ

    def name_type(path: tuple[str, ...], scope: dict[str, str]) -> str:
        full = ".".join(path)
        if path[0] in scope:
            return field_type(scope[path[0]], path[1:], full)
        if full in cat:
            params.add(full)
            return "param"
        if path[0] in ROOTS:
            return field_type(ROOTS[path[0]], path[1:], full)
        if path[0] == "action":
            if not step:
                raise ExprError(f"invariant {iid}: 'action' is only available in step invariants", where)
            return field_type("action", path[1:], full)
        raise ExprError(f"invariant {iid}: unknown name {full!r}{cat.suggest(full)}; a state has "
                        f"{', '.join(sorted(ROOTS))}" + (", action" if step else "")
                        + " and the rule parameters by id", where)

    def walk(e: Any, scope: dict[str, str]) -> None:
        if isinstance(e, Name):
            name_type(e.path, scope)
        elif isinstance(e, Aggregate):
            inner = dict(scope)
            for var, it in e.loops:
                walk(it, inner)
                t = name_type(it.path, inner) if isinstance(it, Name) else "?"
                if not t.endswith("*"):
                    raise ExprError(f"invariant {iid}: {var} must range over players, properties, "
                                    "streets, groups or a group's streets", where)
                inner[var] = t[:-1]
            walk(e.elt, inner)
            for c in e.conds:
                walk(c, inner)
        elif isinstance(e, Call):
            if e.func == "old" and not step:
                raise ExprError(f"invariant {iid}: old(...) is only allowed in step invariants", where)
            for a in e.args:
                walk(a, scope)
        elif isinstance(e, (Compare, BoolOp)):
            for x in e.operands:
                walk(x, scope)
        elif isinstance(e, TupleLit):
            for x in e.items:
                walk(x, scope)
        elif isinstance(e, (Not, Neg)):
            walk(e.operand, scope)
        elif isinstance(e, BinOp):
            walk(e.left, scope), walk(e.right, scope)
        elif isinstance(e, IfExp):
            walk(e.test, scope), walk(e.then, scope), walk(e.orelse, scope)
        elif not isinstance(e, Const):
            raise ExprError(f"invariant {iid}: unsupported expression {e!r}", where)

    walk(expr, {})
    assert names(expr) is not None
    return params


# ---- rule parameters read from an EngineConfig ----------------------------------

#: Catalogue ids whose EngineConfig field is not simply ``<area>.<name>``.
_CONFIG_FIELD = {
    "bankruptcy.threshold": ("debt", "threshold"),
    "bankruptcy.mortgage_interest_base": ("debt", "transfer_interest_base"),
    "mortgage.value": ("mortgage", "value_ratio"),
    "rent.mortgaged": ("rent", "mortgaged_collects"),
}
_AREA = {"bankruptcy": "debt", "free_parking": "taxes", "tax": "taxes", "dice": "movement", "go": "movement",
         "auction": "purchase", "timer": "clock"}


def param_value(config: Any, pid: str) -> Any:
    """The value of rule parameter ``pid`` (catalogue id) in ``config``.

    ``config`` is an EngineConfig (symbols such as ``unlimited`` come back from
    its ``None``), a resolved Ruleset, or a plain ``{id: value}`` mapping.
    """
    from .spec import load_catalogue

    if isinstance(config, dict):
        return config[pid]
    if hasattr(config, "catalogue") and hasattr(config, "value"):
        return config.value(pid)
    area, _, name = pid.partition(".")
    section, attr = _CONFIG_FIELD.get(pid, (_AREA.get(area, area), name))
    sec = getattr(config, section, None)
    if sec is None or not hasattr(sec, attr):
        extra = getattr(config, "extra", None)
        if isinstance(extra, dict) and pid in extra:
            return extra[pid]
        return load_catalogue()[pid].fallback
    value = getattr(sec, attr)
    if value is None:
        p = load_catalogue()[pid]
        if p.symbols:
            return p.symbols[0]
    return value


# ---- the view of a canonical state ----------------------------------------------

class _Obj(SimpleNamespace):
    """A plain record of the view; attribute access only (what the expression language reads)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "(" + ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items() if k != "before") + ")"


@dataclass(frozen=True)
class BoardFacts:
    """The static facts the view needs about the 28 deeds, from an EngineConfig."""

    squares: tuple[int, ...]
    kinds: tuple[str, ...]
    groups: tuple[str, ...]          # group name per deed
    prices: tuple[int, ...]
    house_costs: tuple[int, ...]
    group_members: tuple[tuple[str, tuple[int, ...]], ...]   # (name, deed indexes) for street groups


def board_facts(config: Any) -> BoardFacts:
    board = getattr(config, "board", None)
    if board is None:
        from .config import EngineConfig
        board = EngineConfig.from_ruleset(config).board
    return _facts(board)


@lru_cache(maxsize=16)
def _facts(board) -> BoardFacts:
    deeds = board.deeds
    gname = [board.groups[d.group].name if isinstance(d.group, int) else str(d.group) for d in deeds]
    members = []
    for g in dict.fromkeys(gname[i] for i, d in enumerate(deeds) if d.kind == "street"):
        members.append((g, tuple(i for i, d in enumerate(deeds) if gname[i] == g)))
    return BoardFacts(tuple(d.square for d in deeds), tuple(d.kind for d in deeds), tuple(gname),
                      tuple(d.price for d in deeds), tuple(d.house_cost for d in deeds), tuple(members))


def state_slices(state: dict) -> dict[str, tuple]:
    """The parts of a canonical state the view is built from, as hashable tuples.

    The view (``_view``) is a function of these slices alone, and an
    invariant is a pure function of the view and the rule parameters; so an
    invariant that held on some slices holds again on equal slices. That is what
    lets ``Monitor`` skip re-evaluating an invariant after a step that did not
    touch anything it reads (most steps move a token or some money and leave
    every deed and building alone). The players' cash is a slice of its own
    because it changes far more often than anything else.
    """
    try:
        players = tuple(
            (int(p.get("seat", i)), bool(p.get("in_jail")), bool(p.get("bankrupt")),
             p.get("team") if p.get("team") is not None else int(p.get("seat", i)),
             tuple(str(c) for c in (p.get("jail_cards") or ())))
            for i, p in enumerate(state["players"]))
        cash = tuple(p.get("cash", 0) for p in state["players"])
        properties = tuple(
            (int(p["square"]), NOBODY if p.get("owner") is None else int(p["owner"]), bool(p.get("mortgaged")),
             int(p.get("houses") or 0), bool(p.get("hotel")))
            for p in state["properties"])
        bank = state.get("bank") or {}
        return {"players": players, "cash": cash, "properties": properties,
                "bank": (bank.get("houses"), bank.get("hotels"), bank.get("cash")),
                "pot": state.get("pot", 0) or 0, "jackpot": state.get("jackpot", 0) or 0}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise GameError(f"not a canonical game state: {exc!r}") from None


#: The slices each root name of the view is built from (a player's cash only when a
#: name ending in ``cash`` is read: a conservative, purely syntactic test).
_SLICES_OF_ROOT = {"players": ("players",), "properties": ("properties",), "streets": ("properties",),
                   "groups": ("properties",), "bank": ("bank",), "pot": ("pot",), "jackpot": ("jackpot",)}


def slices_read(inv: Invariant) -> tuple[str, ...]:
    """The state slices an invariant's expression reads (parameters are fixed per config)."""
    paths = names(inv.expr, with_loop_variables=True)
    out = {sl for path in paths if path[0] in _SLICES_OF_ROOT for sl in _SLICES_OF_ROOT[path[0]]}
    if "players" in out and any(path[-1] == "cash" for path in paths):
        out.add("cash")
    return tuple(sorted(out))


def _params(config: Any, invariants: Iterable[Invariant]) -> dict[str, Any]:
    return {pid: param_value(config, pid) for inv in invariants for pid in inv.reads}


def _view(config: Any, sl: dict[str, tuple], invariants: Iterable[Invariant] = (),
          params: dict[str, Any] | None = None, properties_too: bool = True) -> dict:
    """The view of some slices; ``properties_too=False`` leaves out the deeds (for invariants that read none)."""
    players = [_Obj(seat=seat, cash=cash, in_jail=in_jail, bankrupt=bankrupt, team=team,
                    chance_cards=sum(1 for c in cards if c.startswith("chance")),
                    chest_cards=sum(1 for c in cards if c.startswith("chest")), jail_cards=len(cards))
               for (seat, in_jail, bankrupt, team, cards), cash in zip(sl["players"], sl["cash"])]
    properties: list = []
    groups: list = []
    if properties_too:
        facts = board_facts(config)
        by_square = {row[0]: row for row in sl["properties"]}
        for i, sq in enumerate(facts.squares):
            row = by_square.get(sq)
            if row is None:
                raise GameError(f"the state lists no property on square {sq}")
            _, owner, mortgaged, houses, hotel = row
            properties.append(_Obj(square=sq, kind=facts.kinds[i], group=facts.groups[i], owner=owner,
                                   mortgaged=mortgaged, houses=houses, hotel=hotel, hotels=1 if hotel else 0,
                                   price=facts.prices[i], house_cost=facts.house_costs[i]))
        groups = [_Obj(name=name, streets=[properties[i] for i in idx]) for name, idx in facts.group_members]
    houses, hotels, bank_cash = sl["bank"]
    env: dict[str, Any] = {
        "players": players, "properties": properties,
        "streets": [p for p in properties if p.kind == "street"], "groups": groups,
        "bank": _Obj(houses=houses, hotels=hotels, cash=0 if bank_cash is None else bank_cash),
        "pot": sl["pot"], "jackpot": sl["jackpot"],
    }
    env.update(_params(config, invariants) if params is None else params)
    return env


# ---- the Python predicates --------------------------------------------------------

def _promised(promised_ids: Iterable[str] | None, kind: str) -> list[Invariant]:
    return [i for i in by_id(None if promised_ids is None else list(promised_ids)) if i.kind == kind]


def check_state(config: Any, state: dict, promised_ids: Iterable[str] | None) -> list[Violation]:
    """The promised state invariants that ``state`` breaks (all state invariants when None)."""
    invs = _promised(promised_ids, "state")
    return _check_state(config, state_slices(state), invs) if invs else []


def _check_state(config: Any, sl: dict[str, tuple], invs: list[Invariant],
                 params: dict[str, Any] | None = None, properties_too: bool = True) -> list[Violation]:
    env = _view(config, sl, invs, params, properties_too)
    return [Violation(inv.id, inv.title, "state", _explain(inv, env)) for inv in invs if not evaluate(inv.expr, env)]


#: Action kinds in which the bank takes no part (money conservation is then checked
#: on the players, the pot and the jackpot alone when the state does not record the bank's cash).
BANK_FREE_KINDS = frozenset({"pay_rent", "rent", "trade", "accept_trade", "propose_trade"})


def _action(action: dict | None, b_players: tuple, a_players: tuple) -> _Obj:
    """The ``action`` of a step: kind, acting player, creditor, team, and whether it was a bankruptcy.

    A bankruptcy is recognised from the states themselves (a player who was not
    bankrupt is bankrupt after), so engines need not agree on action names.
    """
    # rows of the players slice: (seat, in_jail, bankrupt, team, cards)
    action = action or {}
    kind = str(action.get("kind") or action.get("type") or action.get("action") or "")
    player = action.get("player", action.get("seat"))
    newly = [x[0] for x, y in zip(b_players, a_players) if not x[2] and y[2]]
    if newly:
        player = newly[0]
    creditor = action.get("creditor")
    if isinstance(creditor, str):
        creditor = None
    seat = NOBODY if player is None else int(player)
    team = next((row[3] for row in b_players if row[0] == seat), seat)
    return _Obj(kind=kind, player=seat, creditor=NOBODY if creditor is None else int(creditor),
                team=team, bankruptcy=bool(newly))


def check_step(config: Any, before: dict, after: dict, action: dict | None,
               promised_ids: Iterable[str] | None) -> list[Violation]:
    """The promised step invariants that the step ``before -> after`` by ``action`` breaks."""
    invs = _promised(promised_ids, "step")
    return _check_step(config, state_slices(before), state_slices(after), action, invs) if invs else []


def _check_step(config: Any, before: dict[str, tuple], after: dict[str, tuple], action: dict | None,
                invs: list[Invariant], params: dict[str, Any] | None = None) -> list[Violation]:
    old = _view(config, before, invs, params)
    new = _view(config, after, invs, params)
    act = _action(action, before["players"], after["players"])
    for p_new, p_old in zip(new["players"], old["players"]):
        p_new.before = p_old
    for q_new, q_old in zip(new["properties"], old["properties"]):
        q_new.before = q_old
    if before["bank"][2] is None or after["bank"][2] is None:
        # The state does not record the bank's money: the bank is the counterparty of
        # whatever the others gain, except in actions the bank takes no part in.
        total = lambda env: sum(p.cash for p in env["players"]) + env["pot"] + env["jackpot"]  # noqa: E731
        old["bank"].cash = 0
        new["bank"].cash = 0 if act.kind in BANK_FREE_KINDS else total(old) - total(new)
    new["action"] = act
    return [Violation(inv.id, inv.title, "step", _explain(inv, new)) for inv in invs
            if not evaluate(inv.expr, new, old)]


class Monitor:
    """The promised invariants checked along a run of states (a game, a trace, an adapter's run).

    ``monitor(before, after, action)`` gives exactly the violations of
    ``check_state(after) + check_step(before, after, action)``, but a state
    invariant is evaluated again only when a slice it reads (``slices_read``)
    differs from the slices on which it last held; a step that only moves a
    token skips every building and ownership invariant. Equality of slices is by
    value, so a caller may reuse or mutate its state dicts freely.
    """

    def __init__(self, config: Any, promised_ids: Iterable[str] | None):
        self.config = config
        self.state_invariants = _promised(promised_ids, "state")
        self.step_invariants = _promised(promised_ids, "step")
        self._reads = {inv.id: slices_read(inv) for inv in self.state_invariants}
        self._params = _params(config, self.state_invariants + self.step_invariants)
        self._held: dict[str, tuple] = {}      # invariant id -> the slices it last held on
        self.evaluated = self.skipped = 0      # state-invariant evaluations done and saved

    def __call__(self, before: dict | None, after: dict, action: dict | None) -> list[Violation]:
        after_sl = state_slices(after)
        due, keys = [], {}
        for inv in self.state_invariants:
            key = tuple(after_sl[k] for k in self._reads[inv.id])
            if self._held.get(inv.id) == key:
                self.skipped += 1
            else:
                due.append(inv)
                keys[inv.id] = key
        out = []
        if due:
            deeds = any("properties" in self._reads[inv.id] for inv in due)
            out = _check_state(self.config, after_sl, due, self._params, deeds)
        self.evaluated += len(due)
        broken = {v.invariant for v in out}
        for inv in due:
            if inv.id in broken:
                self._held.pop(inv.id, None)
            else:
                self._held[inv.id] = keys[inv.id]
        if before is not None and self.step_invariants:
            out += _check_step(self.config, state_slices(before), after_sl, action, self.step_invariants,
                               self._params)
        return out


def _explain(inv: Invariant, env: dict) -> str:
    """A short hint at what broke (the first failing conjunct of a top-level `all`/`and`)."""
    e = inv.expr
    parts = e.operands if isinstance(e, BoolOp) and e.op == "and" else (e,)
    for part in parts:
        if isinstance(part, Aggregate) and part.func == "all" and len(part.loops) == 1:
            var, it = part.loops[0]
            try:
                for item in evaluate(it, env):
                    local = dict(env)
                    local[var] = item
                    if all(evaluate(c, local) for c in part.conds) and not evaluate(part.elt, local):
                        return f"fails for {var} = {item!r}"
            except Exception:  # an explanation must never hide the violation itself
                return ""
    return ""


__all__ = ["Invariant", "Violation", "Monitor", "load_invariants", "invariant_ids", "by_id", "check_state",
           "check_step", "state_slices", "slices_read", "param_value", "board_facts",
           "NOBODY"]
