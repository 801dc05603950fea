"""Geometry for the report's inline SVG pictures (numbers only; templates draw and escape).

Every picture is a plain list of items — ``text`` (x, y, s, anchor) and
``rect`` (x, y, w, h, fill) — inside a width × height box, drawn by one
template macro. The layout measures text with a deliberately generous
estimate of its width and wraps or moves it so that nothing is cut: the
tests check every text item against the box with the same estimate. Colours
carry a meaning, and every picture that uses more than one says which in a
legend.
"""

from __future__ import annotations

import textwrap
from typing import Any

from ..compare.model import Witness

CORNERS = {0: "GO", 10: "Jail", 20: "Free Parking / Casino", 30: "Go To Jail"}
#: Estimated width of one character of the report's 12 px sans-serif (wider than the average glyph).
CHAR_W = 7.2
INK, ACCENT, RED, GREEN, MUTED, CARD = "#1d2330", "#1c71d8", "#c01c28", "#26a269", "#5b6475", "#fff8e1"


def text_width(s: str) -> float:
    return len(s) * CHAR_W


def wrap(s: str, width: float) -> list[str]:
    return textwrap.wrap(s, max(8, int(width // CHAR_W)), break_long_words=True) or [""]


def _text(x, y, s, anchor="start", bold=False, fill=None) -> dict:
    return {"t": "text", "x": round(x, 1), "y": round(y, 1), "s": s, "anchor": anchor, "bold": bold,
            "fill": fill}


def _rect(x, y, w, h, fill, stroke=None, rx=0, title=None) -> dict:
    return {"t": "rect", "x": round(x, 1), "y": round(y, 1), "w": round(max(w, 0), 1), "h": round(h, 1),
            "fill": fill, "stroke": stroke, "rx": rx, "title": title}


def overflow(picture: dict) -> list[str]:
    """Text items that would not fit in the picture (empty when the layout is right)."""
    out = []
    for it in picture["items"]:
        if it["t"] != "text":
            continue
        w = text_width(it["s"])
        left = it["x"] - (w if it["anchor"] == "end" else w / 2 if it["anchor"] == "middle" else 0)
        if left < -0.5 or left + w > picture["width"] + 0.5 or it["y"] > picture["height"]:
            out.append(it["s"])
    return out


def witness_picture(w: Witness | None, width: int = 560) -> dict[str, Any] | None:
    """The situation (a card, only when there is one) and each side's outcome: a bar for an amount
    (one colour: length is the message), a yes/no tile (green yes, red no) otherwise."""
    if w is None or not w.plays or not w.outcomes:
        return None
    items: list[dict] = []
    y = 2.0
    lines = [piece for line in _situation_lines(w) for piece in wrap(line, width - 20)]
    if lines:
        h = 22 + 16 * len(lines)
        items.append(_rect(1, y, width - 2, h, CARD, stroke="#b5835a", rx=6))
        items.append(_text(10, y + 16, "Situation", bold=True))
        for i, line in enumerate(lines):
            items.append(_text(10, y + 32 + 16 * i, line))
        y += h + 10
    texts = [o.text + (f" (= {o.classic:g} classic)" if _numeric(o.classic) and o.outcome != o.classic else "")
             for o in w.outcomes]
    nums = [abs(o.classic) for o in w.outcomes if _numeric(o.classic)]
    top = max(nums + [1])
    max_bar = width - 12 - max(text_width(t) for t in texts) - 8
    for o, text in zip(w.outcomes, texts):
        for line in wrap(o.ruleset, width - 12):
            items.append(_text(6, y + 12, line, bold=True))
            y += 16
        if isinstance(o.classic, bool):
            items.append(_rect(6, y, 48, 18, GREEN if o.classic else RED, rx=4))
            items.append(_text(30, y + 13, "yes" if o.classic else "no", anchor="middle", fill="#fff"))
            if text not in ("yes", "no"):
                items.append(_text(62, y + 13, text))
        elif _numeric(o.classic):
            bar = max(2.0, max_bar * abs(o.classic) / top)
            items.append(_rect(6, y + 1, bar, 16, ACCENT))
            items.append(_text(6 + bar + 6, y + 13, text))
        else:
            items.append(_text(6, y + 13, text))
        y += 26
    return {"width": width, "height": round(y + 2), "items": items, "title": w.question}


def _numeric(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _situation_lines(w: Witness) -> list[str]:
    """The situation as short lines, or nothing when the question does not depend on one."""
    text = w.situation_text or ""
    if not w.situation or text == "whenever the question arises":
        return []
    return [p.strip() for p in text.split(";") if p.strip()]


def game_lengths(runs: list[dict]) -> dict[str, Any] | None:
    """Horizontal bars: mean player-turns per game, ticks at the median and the 90th percentile,
    with a legend saying which mark is which."""
    rows = [r for r in runs if isinstance(r.get("turns"), dict)]
    if not rows:
        return None
    top = max(max(float(r["turns"].get("p90") or 0), float(r["turns"].get("mean") or 0)) for r in rows) or 1
    x0 = 10 + max(text_width(r["ruleset"]) for r in rows)
    span = 380
    width = x0 + span + 90
    items: list[dict] = []
    sx = lambda v: x0 + span * float(v or 0) / top  # noqa: E731
    y = 4.0
    for r in rows:
        t = r["turns"]
        items.append(_text(x0 - 6, y + 14, r["ruleset"], anchor="end"))
        items.append(_rect(x0, y + 2, max(1.0, sx(t.get("mean")) - x0), 16, ACCENT,
                           title=f"{r['ruleset']}: mean {float(t.get('mean') or 0):.1f}, "
                                 f"median {t.get('median')}, p90 {t.get('p90')}"))
        items.append(_rect(sx(t.get("median")), y, 2, 20, INK))
        items.append(_rect(sx(t.get("p90")), y, 2, 20, RED))
        items.append(_text(max(sx(t.get("mean")), sx(t.get("p90"))) + 6, y + 14,
                           f"mean {float(t.get('mean') or 0):.0f}"))
        y += 24
    items.append(_rect(x0, y + 2, span, 1, MUTED))
    items.append(_text(x0, y + 16, "0", anchor="middle"))
    items.append(_text(x0 + span, y + 16, f"{round(top)} turns", anchor="middle"))
    y += 30
    lx = 6.0
    for label, kind, colour in (("mean player-turns per game", "bar", ACCENT), ("median", "tick", INK),
                                ("90th percentile", "tick", RED)):
        items.append(_rect(lx, y + 2, 14 if kind == "bar" else 2, 14 if kind == "bar" else 18, colour))
        items.append(_text(lx + 20, y + 14, label))
        lx += 20 + text_width(label) + 18
    width = max(width, lx)
    return {"width": round(width), "height": round(y + 24), "items": items,
            "title": "Mean player-turns per game (bar), median (dark tick) and 90th percentile (red tick)"}


def landings(counts: list[int], name: str = "") -> dict[str, Any] | None:
    """A vertical bar per square: the share of moves ending on each; corners in red (legend below)."""
    if not isinstance(counts, list) or not counts:
        return None
    n = len(counts)
    total = sum(counts) or 1
    shares = [100.0 * c / total for c in counts]
    top = max(shares) or 1
    width, x0, base = 640, 44, 140
    bw = (width - x0 - 10) / n
    items: list[dict] = [_text(x0 - 4, 16, f"{top:.1f} %", anchor="end"), _text(x0 - 4, base, "0 %", anchor="end")]
    for i, s in enumerate(shares):
        h = (base - 10) * s / top
        items.append(_rect(x0 + i * bw, base - h, bw - 2, h, RED if i in CORNERS else ACCENT,
                           title=f"{CORNERS.get(i, f'square {i}')}: {s:.2f} %"))
    items.append(_rect(x0, base, width - x0 - 10, 1, MUTED))
    for i in range(0, n, 5):
        items.append(_text(x0 + i * bw + bw / 2, base + 16, str(i), anchor="middle"))
    y = base + 30
    items.append(_rect(x0, y, 12, 12, ACCENT))
    items.append(_text(x0 + 18, y + 11, "a square"))
    lx = x0 + 18 + text_width("a square") + 16
    items.append(_rect(lx, y, 12, 12, RED))
    items.append(_text(lx + 18, y + 11, "a corner: GO, Jail, Free Parking / Casino, Go To Jail"))
    peak = max(range(n), key=lambda i: shares[i])
    return {"width": width, "height": y + 20, "items": items, "peak": peak, "peak_share": f"{shares[peak]:.2f}",
            "title": f"Landing share per square{', ' + name if name else ''} (square 0 = GO)"}
