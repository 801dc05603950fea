"""A user's table against what it builds on, and against the rulebooks.

A table (a ruleset file of one's own, or an overlay stack) is read as a set
of changes to its base: the file(s) it extends, the stack below its last
overlay, or a base the user names. ``diff_table`` finds those changes (with a
z3 witness where they change play) and puts every rulebook's own ruling
beside each; ``compare_table`` turns them into findings — ``variant`` for a
change against the base, ``contradiction`` where the table and the
rulebooks' base games answer a changed question differently — so ``verify
contradictions TABLE`` and the report show a table's choices, not the
rulebooks' quarrels among themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import SpecError
from ..spec.registry import DEFAULT_RULESET, Registry
from ..spec.ruleset import Ruleset
from .declared import load_declared
from .from_rulesets import DECIDED, _Ctx, compare_group, default_members, ordered, plan
from .merge import merge
from .model import Comparison, Finding, Side
from .values import show

#: A table's own rulings count whether cited or assumed (a table rarely has a rulebook to quote).
ANSWERS = DECIDED


@dataclass(frozen=True)
class Change:
    """One parameter a table rules differently from its base, with the rulebooks beside it."""

    param: str
    question: str
    area: str
    base: Side
    table: Side
    finding: Finding                   # the variant finding (witness, summary)
    rulebooks: tuple[Side, ...]        # each rulebook's base game on this parameter

    def to_json(self) -> dict:
        return {"param": self.param, "question": self.question, "area": self.area,
                "base": self.base.to_json(), "table": self.table.to_json(), "summary": self.finding.summary,
                "witness": self.finding.witness.to_json() if self.finding.witness else None,
                "rulebooks": [s.to_json() for s in self.rulebooks]}


@dataclass(frozen=True)
class Same:
    """A value the table states that rules as its base already does (listed, so every value it sets
    appears)."""

    param: str
    question: str
    area: str
    base: Side
    table: Side

    def to_json(self) -> dict:
        return {"param": self.param, "question": self.question, "area": self.area,
                "base": self.base.to_json(), "table": self.table.to_json()}


@dataclass(frozen=True)
class TableDiff:
    table: Ruleset
    base: Ruleset | None
    changes: tuple[Change, ...]
    rulebooks: tuple[str, ...]          # ids of the rulebooks' base games compared with
    same: tuple[Same, ...] = ()         # values the table states as its base rules them
    #: rules in the table's own words (``extra_rules`` of its files, not its base's): never played or checked
    extra_rules: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict:
        return {"table": self.table.id, "base": self.base.id if self.base else None,
                "rulebooks": list(self.rulebooks), "changes": [c.to_json() for c in self.changes],
                "same": [s.to_json() for s in self.same],
                "extra_rules": [{"file": fid, "text": text, "played": False, "checked": False}
                                for fid, text in self.extra_rules]}


def table_name(reg: Registry, name: str) -> str:
    """``name`` with file paths replaced by ids; a bare overlay is stacked on the default ruleset
    (an overlay alone is no game)."""
    name = reg.canonical(name)
    f = reg.files.get(name)
    if f is not None and f.kind == "overlay" and not f.extends and DEFAULT_RULESET in reg.files:
        return f"{DEFAULT_RULESET}+{name}"
    return name


def rulebook_games(reg: Registry) -> list[Ruleset]:
    """The base game of each bundled rulebook (what a table is set against)."""
    bundled = [n for n in default_members(reg) if "+" not in n and reg.is_bundled(n)]
    rs = ordered(reg, bundled)
    base_ids = plan(rs, load_declared()).base_games
    return [r for r in rs if r.id in base_ids]


def diff_table(reg: Registry, name: str, base: str | None = None) -> TableDiff:
    """What the table ``name`` changes against ``base`` (default: what it builds on)."""
    name = table_name(reg, name)
    table = reg.resolve(name)
    base_r = reg.resolve(table_name(reg, base)) if base else reg.base_of(name)
    ctx = _Ctx(reg, load_declared())
    books = [b for b in rulebook_games(reg) if b.id != table.id]
    if base_r is None:
        raise SpecError("E011", f"{table.id} extends nothing: name a base to compare it with "
                        f"(`verify diff BASE {name}`)")
    found = compare_group(ctx, [base_r, table], "variant", f"{table.id}:", [], answers=ANSWERS)
    changes, same = [], []
    for f in found:
        pid = f.params[0]
        p = ctx.cat[pid]
        changes.append(Change(pid, p.question, p.area, ctx.side(base_r, pid), ctx.side(table, pid), f,
                              tuple(ctx.side(b, pid) for b in books)))
    # every other value the table's own files set: where the base has no such mechanism (its value is not
    # applicable) it is a change all the same, played with the switch that turns the mechanism on; else
    # it rules as the base does (the comparison found no difference in play)
    listed = {c.param for c in changes}
    for pid, e in table.entries.items():
        if pid in listed or base_r.entries.get(pid) == e:
            continue
        p = ctx.cat[pid]
        b, t = ctx.side(base_r, pid), ctx.side(table, pid)
        if b.evidence == "not_applicable" and t.evidence != "not_applicable":
            f = Finding(f"variant:{table.id}:{pid}", p.area, "variant",
                        f"{p.question} Not applicable in {base_r.id} ({p.applies_when} does not hold there); "
                        f"{table.id} plays {show(t.value) if e.has_value else t.kind.replace('_', ' ')}.",
                        (b, t), None, (pid,))
            changes.append(Change(pid, p.question, p.area, b, t, f, tuple(ctx.side(r, pid) for r in books)))
        else:
            same.append(Same(pid, p.question, p.area, b, t))
    order = {pid: i for i, pid in enumerate(ctx.cat.parameters)}
    changes.sort(key=lambda c: order[c.param])
    own = [(fid, text) for fid, text in table.extra_rules if (fid, text) not in base_r.extra_rules]
    return TableDiff(table, base_r, tuple(changes), tuple(b.id for b in books), tuple(same), tuple(own))


def compare_table(reg: Registry, name: str) -> Comparison:
    """Findings of one table: its changes against its base (``variant``) and, for each question it
    changes (every question when it builds on nothing), where the rulebooks' base games answer
    otherwise (``contradiction``, with sides for the table and each rulebook)."""
    name = table_name(reg, name)
    table = reg.resolve(name)
    ctx = _Ctx(reg, load_declared())
    books = [b for b in rulebook_games(reg) if b.id != table.id]
    findings: list[Finding] = []
    equivalent: list[str] = []
    changed: set[str] | None = None
    base = reg.base_of(name)
    if base is not None:
        diff = diff_table(reg, name)
        findings += [c.finding for c in diff.changes]
        changed = {c.param for c in diff.changes}
    if books and changed != set():
        findings += compare_group(ctx, [table] + books, "contradiction", f"{table.id}:", equivalent,
                                  params=changed, answers=ANSWERS)
    # a value the table leaves silent is one finding, against its base and the rulebooks together
    # (both comparisons find it under one id): the one with more sides is kept
    merged: dict[str, Finding] = {}
    for f in findings:
        if f.id not in merged or len(f.sides) > len(merged[f.id].sides):
            merged[f.id] = f
    findings = list(merged.values())
    order = {a.id: i for i, a in enumerate(ctx.cat.areas)}
    findings.sort(key=lambda f: (order.get(f.topic, 99), f.kind != "variant", f.id))
    findings = merge(findings, ctx.cat, load_declared().statements)
    ids = (table.id,) + ((base.id,) if base else ()) + tuple(b.id for b in books)
    return Comparison(tuple(dict.fromkeys(ids)), tuple(findings), tuple(b.id for b in books),
                      tuple(equivalent))


__all__ = ["Change", "Same", "TableDiff", "compare_table", "diff_table", "rulebook_games", "table_name"]
