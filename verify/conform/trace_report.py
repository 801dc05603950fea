"""The result of a trace validation (``verify.conform.trace_check``), told to people and as JSON.

Each transition of a game log that no sequence of legal actions explains is an ``Unexplained``
(where, the logged throws and draws, the closest explanation, what still differs, its cause);
``TraceCheck.deviations`` groups them by cause, most frequent first; ``text`` prints each
distinct deviation once, then a summary line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .render import _model_of, describe


@dataclass(frozen=True)
class Budget:
    """How far one transition's search goes."""

    states: int = 600        # states expanded
    actions: int = 40        # the longest explanation
    keep: int = 4            # explanations kept (they differ only in values the log does not carry)
    weight: float = 0.5      # of an explanation's length against its differences in the search's order


DEFAULT_BUDGET = Budget()


@dataclass
class Unexplained:
    """A logged transition no sequence of legal actions explains, with the closest one found."""

    game: int                       # 1-based, in the log
    line: int                       # the line of the state after
    label: str | None
    dice: list
    cards: list
    actions: list[dict]             # the closest explanation
    diff: list[str]                 # closest vs logged, on the logged values
    remaining: int                  # values still different (throws and draws unused count one each)
    searched: int                   # states expanded
    complete: bool                  # every sequence within the bounds was tried
    signature: str                  # the cause (``cause.py``): what the deviations are grouped by
    reason: str = ""                # a logged draw the ruleset cannot make, when there is one
    chain: str = ""                 # the closest explanation's links up to the cause's, in words

    def to_json(self) -> dict:
        return {"game": self.game, "line": self.line, "label": self.label, "dice": self.dice, "cards": self.cards,
                "closest": self.actions, "diff": self.diff, "remaining": self.remaining, "searched": self.searched,
                "complete": self.complete, "signature": self.signature, "reason": self.reason, "chain": self.chain}


@dataclass
class GameCheck:
    index: int
    line: int
    engine: str
    transitions: int = 0
    unexplained: list[Unexplained] = field(default_factory=list)


@dataclass
class TraceCheck:
    """The result of checking one log against one ruleset."""

    file: str
    ruleset: str
    settings: dict
    budget: Budget
    games: list[GameCheck] = field(default_factory=list)

    @property
    def transitions(self) -> int:
        return sum(g.transitions for g in self.games)

    @property
    def unexplained(self) -> list[Unexplained]:
        return [u for g in self.games for u in g.unexplained]

    @property
    def ok(self) -> bool:
        return not self.unexplained

    def deviations(self) -> list[tuple[str, int, Unexplained]]:
        """Distinct deviations: (signature, transitions showing it, the first), most frequent first."""
        groups: dict[str, list[Unexplained]] = {}
        for u in self.unexplained:
            groups.setdefault(u.signature, []).append(u)
        return sorted(((s, len(us), us[0]) for s, us in groups.items()), key=lambda t: (-t[1], t[2].line))

    def to_json(self) -> dict:
        return {"log": self.file, "ruleset": self.ruleset, "set": self.settings,
                "engines": sorted({g.engine for g in self.games}), "games": len(self.games),
                "transitions": self.transitions, "unexplained": len(self.unexplained),
                "budget": {"states": self.budget.states, "actions": self.budget.actions},
                "deviations": [{"signature": s, "count": n, "first": u.to_json()} for s, n, u in self.deviations()]}


def text(result: TraceCheck) -> str:
    """The check told to people: each distinct deviation once (how often, where first, the closest
    explanation and what still differs), then one summary line."""
    m = _model_of(result.ruleset, json.dumps(result.settings, sort_keys=True))
    lines: list[str] = []
    devs = result.deviations()
    for k, (sig, count, u) in enumerate(devs, start=1):
        where = f"{result.file}:{u.line}" + (f" ({u.label})" if u.label else "")
        lines.append(f"Deviation {k} of {len(devs)}, {count} transition(s): {sig}")
        lines.append(f"  first at {where}, game {u.game}")
        if u.reason:
            lines.append(f"  {u.reason}")
        if " › " in u.chain:
            lines.append(f"  chain: {u.chain} (the cause is its last link)")
        draws = [f"dice {'+'.join(map(str, d))}" for d in u.dice] + [f"card {c}" for c in u.cards]
        if draws:
            lines.append(f"  logged since the state before: {', '.join(draws)}")
        bound = "every sequence within the bounds tried" if u.complete else \
            f"search stopped at {u.searched} states"
        if u.searched or u.actions:
            lines.append(f"  closest explanation ({len(u.actions)} action(s); {bound}):")
            lines += [f"    {i}. {describe(m, a)}" for i, a in enumerate(u.actions, start=1)]
        lines.append("  differs from the logged state:" if u.searched or u.actions else
                     "  the first state differs from the ruleset's new game:")
        lines += [f"    {d}" for d in u.diff]
        lines.append("")
    engines = ", ".join(sorted({g.engine for g in result.games}))
    verdict = ("every transition explained" if result.ok else
               f"{len(result.unexplained)} not explained ({len(devs)} cause(s))")
    lines.append(f"{engines} on {result.ruleset}: {len(result.games)} game(s), {result.transitions} "
                 f"transition(s) in {result.file}: {verdict}")
    return "\n".join(lines)


__all__ = ["Budget", "DEFAULT_BUDGET", "Unexplained", "GameCheck", "TraceCheck", "text"]
