"""The first page of the report: what a table must decide, and how much each answer changes the game.

The questions to decide are those the findings dispute (stated rules of the
rulebooks disagree) or a bundled house rule changes (``questions.question_rows``:
``to_decide``). Each lists every answer the rulebooks, the house rules and the
user's tables give, with its measured effect on the base game
(``effects.measure``). The house-rule classics — the questions a bundled house
rule changes (Free Parking pot, no auction, double GO, no buying at first, no
rent in jail) — come first, then the others by the largest effect any of their
answers has (a share of the base game's mean; only an interval that excludes 0
counts, so "no measurable difference" never outranks a measured one).
"""

from __future__ import annotations

from typing import Any

from .effects import Difference, Effect, Effects


def _signed(x: float) -> str:
    return f"{x:+.0f}" if abs(x) >= 0.5 else "0"


def difference_text(d: Difference | None, what: str, unit: str, base: str) -> str:
    if d is None:
        return ""
    if d.identical:
        return f"{what}: the same as {base} in every game"
    interval = f"95 % interval {_signed(d.lo)} to {_signed(d.hi)}"
    if not d.measurable:
        return f"{what}: no measurable difference at {d.games} games ({interval})"
    return f"{what} {_signed(d.mean)}{' ' + unit if unit else ''} ({interval})"


def effect_texts(e: Effect | None, effects: Effects) -> list[str]:
    """One line per measure, as the page prints them."""
    if effects.status != "ran":
        return [f"not measured ({effects.reason})"] if effects.reason else []
    if e is None:
        return []
    if e.status == "as_base":
        return [f"plays as {effects.base}"]
    if e.status == "not_played":
        return [f"not played on {effects.base}: {e.why}"]
    if e.length is not None and e.money is not None and e.length.identical and e.money.identical:
        return [f"the same games as {effects.base} (the engine does not play the difference)"]
    return [difference_text(e.length, "game length", "player-turns", effects.base),
            difference_text(e.money, "money in play", "", effects.base)]


def decisions(rows: list[dict[str, Any]], effects: Effects) -> list[dict[str, Any]]:
    """The questions to decide, in the order the first page shows them (see the module docstring)."""
    out = []
    for n, row in enumerate(rows):
        if not row["to_decide"]:
            continue
        q = row["q"]
        answers = []
        for i, rd in enumerate(row["readings"]):
            if not rd["offered"]:
                continue
            e = effects.by_answer.get((q.id, i))
            base = effects.base in rd["rulesets"]
            texts = [f"{effects.base}'s own answer: what the others are measured against"] if base and \
                effects.status == "ran" else effect_texts(e, effects)
            answers.append({"rd": rd, "effect": e, "texts": texts,
                            "size": e.size(effects.base_means) if e is not None else 0.0, "base": base})
        size = max((a["size"] for a in answers), default=0.0)
        out.append({"q": q, "row": row, "answers": answers, "size": size, "classic": bool(row["house"]),
                    "headline": max(answers, key=lambda a: a["size"]) if size else None,
                    "rank": (not row["house"], -size, n)})
    out.sort(key=lambda d: d["rank"])
    return out


__all__ = ["decisions", "difference_text", "effect_texts"]
