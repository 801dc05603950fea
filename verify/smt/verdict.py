"""The three-state verdict of every check, and the result record ``verify check`` prints.

A solver timeout or an unsupported feature is UNKNOWN with its reason; only
PROVED counts as success (CrossHair's lesson: never report "could not decide"
as "fine").
"""

from __future__ import annotations

import enum
import warnings
from dataclasses import dataclass
from typing import Any


class Verdict(str, enum.Enum):
    PROVED = "PROVED"
    VIOLATED = "VIOLATED"
    UNKNOWN = "UNKNOWN"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class CheckResult:
    """One cell of the check matrix: a ruleset, an invariant (or a check), an action."""

    ruleset: str
    invariant: str
    action: str
    promised: bool
    verdict: Verdict
    counterexample: dict | None = None
    reason: str | None = None
    seconds: float = 0.0
    cached: bool = False
    #: how open values (set by a host or the players, none supplied) were treated, one text per
    #: parameter: every value / each value of a finite domain / the fallback assumed (verify.smt.open_values)
    open_values: tuple[str, ...] = ()
    #: the hash of what was checked (``verify.smt.run.config_hash``: the compiled config and the
    #: promises), so a saved result is never shown for a ruleset since changed
    config: str = ""

    @property
    def ok(self) -> bool:
        return self.verdict is Verdict.PROVED or not self.promised

    def to_json(self) -> dict[str, Any]:
        out = {"ruleset": self.ruleset, "invariant": self.invariant, "action": self.action,
               "promised": self.promised, "verdict": self.verdict.value,
               "counterexample": self.counterexample, "reason": self.reason}
        if self.open_values:
            out["open_values"] = list(self.open_values)
        if self.config:
            out["config"] = self.config
        return out

    def to_record(self) -> dict[str, Any]:
        """Everything, as JSON (what a check chunk returns to the execution layer); ``from_record`` inverts it."""
        return dict(self.to_json(), seconds=self.seconds, cached=self.cached)

    @classmethod
    def from_record(cls, d: dict[str, Any]) -> "CheckResult":
        return cls(d["ruleset"], d["invariant"], d["action"], d["promised"], Verdict(d["verdict"]),
                   d.get("counterexample"), d.get("reason"), d.get("seconds", 0.0), d.get("cached", False),
                   tuple(d.get("open_values") or ()), d.get("config", ""))

#: Fields of one result of ``verify check --json`` and the types they must have.
_FIELDS = {"ruleset": str, "invariant": str, "action": str, "promised": bool, "verdict": str}


class StaleCheck(ValueError):
    """A saved check computed for another version of a ruleset than the one in force now."""


def results_from_json(doc: Any, rulesets: list[str] | None = None,
                      configs: dict[str, str] | None = None) -> tuple[dict[str, Any], ...]:
    """The results of a saved ``verify check --json`` document, after checking its shape.

    Raises ``ValueError`` naming the first thing wrong: not the document ``verify check --json``
    writes, no result at all, a verdict that is not PROVED/VIOLATED/UNKNOWN, a ruleset that is
    not one of ``rulesets`` (a check saved for other rulesets), or a summary whose count
    disagrees; and ``StaleCheck`` when a result's config hash is not ``configs[ruleset]`` (the
    ruleset changed since the check was saved, or the file predates the hashes). A saved check
    is shown as real results, so it must be one, of the rulesets as they are now. A result saved under an
    action's former name (``build-house``) is read under its name now (``build_house``), with a
    ``FutureWarning`` saying so."""
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
        raise ValueError('not a `verify check --json` document (no "results" list)')
    results = doc["results"]
    if not results:
        raise ValueError("it holds no result; run `verify check --json` again")
    verdicts = {v.value for v in Verdict}
    for i, r in enumerate(results, 1):
        if not isinstance(r, dict):
            raise ValueError(f"result {i} is not an object")
        for name, kind in _FIELDS.items():
            if not isinstance(r.get(name), kind) or (kind is str and not r[name]):
                raise ValueError(f"result {i} has no valid {name!r}")
        if r["verdict"] not in verdicts:
            raise ValueError(f"result {i}: verdict {r['verdict']!r} is not one of {', '.join(sorted(verdicts))}")
        if not isinstance(r.get("counterexample"), (dict, type(None))) or \
                not isinstance(r.get("reason"), (str, type(None))):
            raise ValueError(f"result {i}: counterexample must be an object or null, reason a text or null")
        if rulesets is not None and r["ruleset"] not in rulesets:
            raise ValueError(f"result {i} is for ruleset {r['ruleset']!r}, which this report does not include "
                             "(the check was saved for other rulesets)")
    results = _current_names(results)
    summary = doc.get("summary")
    if isinstance(summary, dict) and summary.get("checks") not in (None, len(results)):
        raise ValueError(f"its summary counts {summary['checks']} checks but it holds {len(results)}")
    for r in results if configs is not None else ():
        now = configs.get(r["ruleset"])
        if now is not None and r.get("config") != now:
            raise StaleCheck(f"the check of ruleset {r['ruleset']!r} was saved for "
                             + (f"config {r['config']}" if isinstance(r.get("config"), str) and r["config"]
                                else "an unrecorded config (a file written before checks carried their "
                                     "config hash)")
                             + f", but {r['ruleset']!r} compiles to {now} now: the ruleset changed since; "
                             "run `verify check --json -o FILE` again")
    return tuple(results)


def _current_names(results: list) -> list:
    """The results with every former transition name (also in a counterexample, and each part of a bounded
    check's ``a|b``) replaced by the name now; one FutureWarning per former name met."""
    from .transitions import ALIASES, DeprecatedName
    met: dict[str, str] = {}

    def now(name: Any) -> Any:
        if not isinstance(name, str):
            return name
        parts = name.split("|")
        for part in parts:
            if part in ALIASES:
                met[part] = ALIASES[part]
        return "|".join(ALIASES.get(part, part) for part in parts)

    out = []
    for r in results:
        r = dict(r, action=now(r["action"]))
        if isinstance(r.get("counterexample"), dict) and "action" in r["counterexample"]:
            r["counterexample"] = dict(r["counterexample"], action=now(r["counterexample"]["action"]))
        out.append(r)
    for old, new in met.items():
        warnings.warn(DeprecatedName(old, new), stacklevel=3)
    return out
