"""Geometry for the report's inline SVG pictures (numbers only; templates draw and escape).

Kept apart from the templates so the arithmetic is testable and the
templates stay declarative: every function returns plain dicts of
coordinates and labels, and jinja2 (autoescape on) writes the markup.
"""

from __future__ import annotations

from typing import Any

from ..compare.model import Witness

CORNERS = {0: "GO", 10: "Jail", 20: "Free Parking / Casino", 30: "Go To Jail"}


def witness_picture(w: Witness) -> dict[str, Any] | None:
    """Bars (numbers) or tiles (yes/no) for each side's outcome, with a situation card."""
    if w is None or w.method != "z3" or not w.outcomes:
        return None
    card = []
    if "phase" in w.situation:
        from ..compare.outcomes import PHASE
        card.append(PHASE.text(w.situation["phase"]))
    for k, v in [(k, v) for k, v in w.situation.items() if k != "phase"][:5]:
        if isinstance(v, bool):
            card.append(f"{k.replace('_', ' ')}: {'yes' if v else 'no'}")
        else:
            card.append(f"{k.replace('_', ' ')}: {v}")
    import textwrap
    card = [piece for line in card for piece in textwrap.wrap(line, 24)][:8]
    rows = []
    label_w, card_w, bar_x, width = 150, 170, 340, 600
    max_bar = width - bar_x - 70
    nums = [o.classic for o in w.outcomes
            if isinstance(o.classic, (int, float)) and not isinstance(o.classic, bool)]
    top = max([abs(n) for n in nums] + [1])
    for i, o in enumerate(w.outcomes):
        y = 10 + i * 30
        numeric = isinstance(o.classic, (int, float)) and not isinstance(o.classic, bool)
        note = f"{o.classic:g} classic" if numeric and o.outcome != o.classic else None
        row = {"y": y, "ty": y + 16, "label": o.ruleset, "text": o.text, "x": bar_x, "note": note}
        if isinstance(o.classic, bool):
            row.update(kind="tile", yes=o.classic, w=60)
        elif isinstance(o.classic, (int, float)):
            row.update(kind="bar", w=max(2, round(max_bar * abs(o.classic) / top)))
        else:
            row.update(kind="text", w=0)
        rows.append(row)
    height = max(20 + len(rows) * 30, 20 + len(card) * 16 + 40)
    return {"width": width, "height": height, "card": card, "card_w": card_w, "label_w": label_w,
            "rows": rows, "label_x": card_w + 15, "bar_x": bar_x}


def game_lengths(runs: list[dict]) -> dict[str, Any] | None:
    """Horizontal bars: mean player-turns per game, ticks at median and p90."""
    rows = [r for r in runs if isinstance(r.get("turns"), dict)]
    if not rows:
        return None
    top = max(max(float(r["turns"].get("p90") or 0), float(r["turns"].get("mean") or 0)) for r in rows) or 1
    x0, width = 250, 700
    span = width - x0 - 60
    out = []
    for i, r in enumerate(rows):
        t = r["turns"]
        y = 8 + i * 24
        sx = lambda v: x0 + span * float(v or 0) / top  # noqa: E731
        label = r["ruleset"] if len(r["ruleset"]) <= 38 else r["ruleset"][:37] + "…"
        out.append({"y": y, "ty": y + 14, "label": label, "w": max(1, round(sx(t.get("mean")) - x0, 1)),
                    "median_x": round(sx(t.get("median")), 1), "p90_x": round(sx(t.get("p90")), 1),
                    "text": f"{float(t.get('mean') or 0):.0f}", "tx": round(sx(t.get("mean")), 1) + 4})
    return {"width": width, "height": 16 + len(rows) * 24 + 20, "rows": out, "x0": x0,
            "axis_y": 12 + len(rows) * 24, "top": round(top)}


def landings(counts: list[int]) -> dict[str, Any] | None:
    """40 vertical bars: share of moves ending on each square."""
    if not isinstance(counts, list) or len(counts) != 40:
        return None
    total = sum(counts) or 1
    shares = [100.0 * c / total for c in counts]
    top = max(shares) or 1
    width, height, x0, base = 640, 170, 30, 140
    bw = (width - x0 - 10) / 40
    bars = []
    for i, s in enumerate(shares):
        h = round((base - 10) * s / top, 1)
        bars.append({"x": round(x0 + i * bw, 1), "y": round(base - h, 1), "w": round(bw - 2, 1), "h": h,
                     "square": i, "share": f"{s:.2f}", "corner": i in CORNERS,
                     "name": CORNERS.get(i, f"square {i}")})
    ticks = [{"x": round(x0 + i * bw + bw / 2, 1), "label": str(i)} for i in range(0, 40, 5)]
    peak = max(range(40), key=lambda i: shares[i])
    return {"width": width, "height": height, "bars": bars, "ticks": ticks, "base": base,
            "top": f"{top:.1f}", "peak": peak, "peak_share": f"{shares[peak]:.2f}", "x0": x0}
