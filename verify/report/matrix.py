"""The verification matrix, read once for both writers (the HTML page and ``verify check``).

``verify check`` gives three different things in one list, and a reader must
never confuse them:

* **promised** checks — an invariant the ruleset promises, a constraint, a
  bounded run: they must hold, and a VIOLATED one is a failure;
* **dead rules** — an action that can never fire in the ruleset (the
  ``(enabled)`` check found no state enabling it): flagged, never ticked;
  when the ruleset promises the action (it has the mechanism, e.g. hotels,
  yet no state allows it), a dead rule is a promised check that failed;
* **informational** checks — invariants the ruleset does not promise: a
  VIOLATED one says what the ruleset allows, not that it is broken.

A promised check VIOLATED is a **root** (the change and the action that break a
promise in a game that kept every promise until then) or a **consequence**
(its run breaks another promise first: ``counterexample.cause`` names it);
consequences are listed with their roots but never counted as failures, so the
counts, the exit status and the grid follow the roots. An action the invariants
allow that no game and no run showed live is **unreached** (``(enabled)``
UNKNOWN, not promised): neither live nor dead.

Counterexamples are shown as the CLI's board lines (``verify.smt.scenario``),
never as raw JSON.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any, Iterable

LIVE = "(enabled)"
#: Matrix columns grouping several checks each; the invariants get a column of their own.
GROUPED = ("parameter constraints", "rules can fire", "bounded runs")


def column_of(invariant: str) -> str:
    if invariant.startswith("constraint:"):
        return "parameter constraints"
    if invariant.startswith("bounded:"):
        return "bounded runs"
    if invariant == LIVE:
        return "rules can fire"
    return invariant


def role(r: dict) -> str:
    """promised | consequence | dead | unreached | informational. A dead rule the ruleset promises is a
    promised failure; a consequence (a promise broken only after another one broke) is not."""
    if r.get("invariant") == LIVE and not r.get("promised"):
        if r.get("verdict") == "VIOLATED":
            return "dead"
        if r.get("verdict") == "UNKNOWN":
            return "unreached"
    if r.get("promised") and r.get("verdict") == "VIOLATED" and (r.get("counterexample") or {}).get("cause"):
        return "consequence"
    return "promised" if r.get("promised") else "informational"


@dataclass(frozen=True)
class Cell:
    """One ruleset × column: its state and the counts behind it."""

    state: str          # PROVED | VIOLATED | UNKNOWN | CONSEQUENCE | DEAD | UNREACHED | HOLDS | FAILS | NONE
    proved: int = 0
    violated: int = 0
    unknown: int = 0
    consequence: int = 0
    dead: int = 0
    unreached: int = 0
    info_holds: int = 0
    info_fails: int = 0

    @property
    def text(self) -> str:
        parts = [f"{n} {what}" for n, what in ((self.proved, "proved"), (self.violated, "VIOLATED"),
                                               (self.unknown, "UNKNOWN"),
                                               (self.consequence, "VIOLATED only as a consequence"),
                                               (self.dead, "dead rule(s)"),
                                               (self.unreached, "not shown live nor dead"),
                                               (self.info_holds, "hold (not promised)"),
                                               (self.info_fails, "do not hold (not promised)")) if n]
        return ", ".join(parts) or "no check"

    @property
    def short(self) -> str:
        """At most 3 characters: the worst news first."""
        return {"VIOLATED": f"✗{self.violated}", "UNKNOWN": f"?{self.unknown}", "DEAD": f"†{self.dead}",
                "CONSEQUENCE": f"↳{self.consequence}", "UNREACHED": f"○{self.unreached}",
                "PROVED": "✓", "HOLDS": "·", "FAILS": f"~{self.info_fails}", "NONE": "—"}[self.state]


def cell(rows: Iterable[dict]) -> Cell:
    c = Counter()
    for r in rows:
        kind, v = role(r), r.get("verdict")
        if kind in ("dead", "consequence", "unreached"):
            c[kind] += 1
        elif kind == "promised":
            c[{"PROVED": "proved", "VIOLATED": "violated"}.get(v, "unknown")] += 1
        elif v == "VIOLATED":
            c["info_fails"] += 1
        elif v == "PROVED":
            c["info_holds"] += 1
        else:
            c["unknown"] += 1
    state = ("VIOLATED" if c["violated"] else "UNKNOWN" if c["unknown"] else "CONSEQUENCE" if c["consequence"]
             else "DEAD" if c["dead"] else "UNREACHED" if c["unreached"] else "PROVED" if c["proved"] else
             "FAILS" if c["info_fails"] else "HOLDS" if c["info_holds"] else "NONE")
    return Cell(state, **c)


def scenario_lines(r: dict) -> list[str]:
    """A counterexample as the CLI prints it (board lines); a few words when none was recorded."""
    cex = r.get("counterexample")
    if isinstance(cex, dict) and isinstance(cex.get("scenario"), list):
        return [str(line) for line in cex["scenario"]]
    if cex:
        return ["(a counterexample without a readable scenario; see `verify check --json`)"]
    return []


@dataclass(frozen=True)
class Matrix:
    rulesets: tuple[str, ...]
    columns: tuple[str, ...]
    cells: dict                      # (ruleset, column) -> Cell
    results: tuple[dict, ...]

    def rows(self, ruleset: str) -> list[Cell]:
        return [self.cells.get((ruleset, c), Cell("NONE")) for c in self.columns]

    def of(self, kind: str) -> list[dict]:
        return [r for r in self.results if role(r) == kind]

    def totals(self) -> dict[str, Counter]:
        out: dict[str, Counter] = defaultdict(Counter)
        for r in self.results:
            out[role(r)][str(r.get("verdict"))] += 1
        return out

    def promised_failures(self) -> list[dict]:
        """The promised checks not proved: the roots, and any consequence whose root is not among them (its
        cause broke by a step no check of these results names, or was left out by ``--invariant``)."""
        return self._roots() + [r for r in self.of("consequence") if not self._rooted(r)]

    def _roots(self) -> list[dict]:
        return [r for r in self.of("promised") if r.get("verdict") != "PROVED"]

    def _rooted(self, r: dict) -> bool:
        """Is the promise that ``r`` (a consequence) follows from among these results' failures?"""
        cause = r["counterexample"]["cause"].get("invariant")
        return any(x.get("ruleset") == r.get("ruleset") and x.get("invariant") == cause for x in self._roots())

    def dead_rules(self) -> dict[str, list[dict]]:
        return self._by_ruleset("dead")

    def unreached_rules(self) -> dict[str, list[dict]]:
        """Actions the invariants allow that no game and no run showed live (and no lemma showed dead)."""
        return self._by_ruleset("unreached")

    def consequences(self) -> list[dict]:
        """Promised checks VIOLATED only after another promise broke (each names that root: ``cause``)."""
        return [r for r in self.of("consequence") if self._rooted(r)]

    def _by_ruleset(self, kind: str) -> dict[str, list[dict]]:
        out: dict[str, list[dict]] = {}
        for r in self.of(kind):
            out.setdefault(str(r.get("ruleset")), []).append(r)
        return out


def build_matrix(results: Iterable[dict], order: list[str] | None = None) -> Matrix:
    fields = {"ruleset": "?", "invariant": "?", "action": "?", "promised": False, "verdict": "UNKNOWN",
              "reason": None, "counterexample": None}
    results = tuple({**fields, **r} for r in results if isinstance(r, dict))
    seen = list(dict.fromkeys(str(r.get("ruleset")) for r in results))
    first = [i for i in (order or []) if i in seen]
    rulesets = tuple(first + [i for i in seen if i not in first])
    cols = list(dict.fromkeys(column_of(str(r.get("invariant"))) for r in results))
    invariants = [c for c in cols if c not in GROUPED]
    columns = tuple([c for c in GROUPED[:2] if c in cols] + invariants + [c for c in GROUPED[2:] if c in cols])
    grouped: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in results:
        grouped[(str(r.get("ruleset")), column_of(str(r.get("invariant"))))].append(r)
    return Matrix(rulesets, columns, {k: cell(v) for k, v in grouped.items()}, results)


def view(results: Iterable[dict], order: list[str], limit: int = 300) -> dict[str, Any]:
    """What the HTML page shows: the promised grid, the dead rules, the informational checks."""
    m = build_matrix(results, order)
    totals = m.totals()
    info = sorted(m.of("informational"), key=lambda r: (r.get("verdict") == "PROVED", str(r.get("ruleset")),
                                                        str(r.get("invariant"))))
    info_fails = [r for r in info if r.get("verdict") != "PROVED"]
    return {
        "rulesets": m.rulesets, "columns": m.columns,
        "rows": [{"ruleset": rid, "cells": m.rows(rid)} for rid in m.rulesets],
        "totals": {k: dict(totals.get(k, {})) for k in ("promised", "consequence", "dead", "unreached",
                                                          "informational")},
        "promised_count": sum(totals["promised"].values()),
        "failures": [dict(r, lines=scenario_lines(r)) for r in m.promised_failures()],
        "consequences": [dict(r, lines=scenario_lines(r)) for r in m.consequences()],
        "dead": m.dead_rules(),
        "unreached": m.unreached_rules(),
        "informational": [dict(r, lines=scenario_lines(r)) for r in info_fails[:limit]],
        "informational_more": max(0, len(info_fails) - limit),
        "informational_holds": totals["informational"].get("PROVED", 0),
        "count": len(m.results),
        "open_values": _open_values(m.results),
    }


def _open_values(results: list[dict]) -> dict[str, list[str]]:
    """ruleset -> how each of its open values (none supplied) was checked (verify.smt.open_values)."""
    out: dict[str, dict[str, None]] = {}
    for r in results:
        for text in r.get("open_values") or ():
            out.setdefault(str(r.get("ruleset")), {})[str(text)] = None
    return {rid: list(texts) for rid, texts in out.items()}
