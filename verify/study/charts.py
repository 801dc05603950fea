"""Geometry of the study page's SVG charts (numbers and labels only; the template draws and escapes).

Three shapes serve every figure: a line chart (several rulesets over a
common x axis: length distribution, time series, the first-group curve), a
dot-and-whisker chart (win share by seat with its 95 % interval against the
fair share) and stacked bars (how games ended). Axes get "nice" ticks and
compact labels; label columns are sized to the longest label (long names are
shortened, the full name stays in a tooltip); legends are HTML lists under the
chart, so they wrap instead of overflowing.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from ..execute.tally import Histogram

#: colour-blind-safe (Okabe-Ito) first, then dashes when there are more rulesets than colours
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
DASHES = ("", "6 3", "2 3", "8 3 2 3")
WIDTH = 720
CHAR_W = 7.0          # 12px system-ui, average glyph width (for sizing label columns)


def style(i: int) -> dict:
    return {"colour": PALETTE[i % len(PALETTE)], "dash": DASHES[(i // len(PALETTE)) % len(DASHES)]}


def nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks, t = [], start
    while t <= hi + step * 1e-9:
        ticks.append(round(t, 10))
        t += step
    if ticks[-1] < hi:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def compact(v: float) -> str:
    a = abs(v)
    if a >= 1_000_000:
        return f"{v / 1_000_000:g}M"
    if a >= 10_000:
        return f"{v / 1000:g}k"
    if a >= 1000:
        return f"{v / 1000:.1f}k".replace(".0k", "k")
    return f"{v:g}"


def percent(v: float) -> str:
    return f"{100 * v:.0f}%" if abs(100 * v - round(100 * v)) < 1e-9 else f"{100 * v:.1f}%"


def fit(label: str, chars: int) -> str:
    return label if len(label) <= chars else label[: chars - 1] + "…"


def line_chart(series: Sequence[dict], x_label: str, y_label: str, y_fmt: Callable[[float], str] = compact,
               y_min: float | None = 0.0, height: int = 300) -> dict[str, Any] | None:
    """``series``: [{"label", "points": [(x, y), ...]}]; None when there is nothing to draw."""
    pts = [(x, y) for s in series for x, y in s["points"] if y is not None]
    if not pts:
        return None
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    xt = nice_ticks(min(xs), max(xs))
    lo = min(ys) if y_min is None else min(y_min, min(ys))
    yt = nice_ticks(lo, max(ys) if max(ys) > lo else lo + 1)
    ylabels = [y_fmt(t) for t in yt]
    left = 16 + CHAR_W * max(len(s) for s in ylabels) + 8
    right, top, bottom = 16, 12, 46
    pw, ph = WIDTH - left - right, height - top - bottom
    sx = lambda x: left + pw * (x - xt[0]) / (xt[-1] - xt[0])  # noqa: E731
    sy = lambda y: top + ph * (1 - (y - yt[0]) / (yt[-1] - yt[0]))  # noqa: E731
    lines = []
    for i, s in enumerate(series):
        p = [(round(sx(x), 1), round(sy(y), 1)) for x, y in s["points"] if y is not None]
        if p:
            lines.append(dict(style(i), label=s["label"], points=" ".join(f"{x},{y}" for x, y in p),
                              single=p[0] if len(p) == 1 else None))
    return {"width": WIDTH, "height": height, "left": left, "top": top, "right": WIDTH - right,
            "bottom": top + ph, "x_label": x_label, "y_label": y_label,
            "x_ticks": [{"x": round(sx(t), 1), "label": compact(t)} for t in xt],
            "y_ticks": [{"y": round(sy(t), 1), "label": lab} for t, lab in zip(yt, ylabels)],
            "lines": lines, "legend": [dict(style(i), label=s["label"]) for i, s in enumerate(series)]}


def _hist(doc: dict) -> Histogram:
    return Histogram.from_json(doc)


def length_distribution(rows: Sequence[dict]) -> dict[str, Any] | None:
    """Share of games per length bin, one line per ruleset (bins shared by every ruleset)."""
    hs = [_hist(r["length"]["histogram"]) for r in rows]
    top = max((h.quantile(0.99) for h in hs if h.n), default=0)
    if not top:
        return None
    width = max(1, nice_ticks(0, top, 30)[1])
    series = []
    for r, h in zip(rows, hs):
        bins = h.binned(int(width), upto=int(top))
        n = h.n or 1
        series.append({"label": r["ruleset"], "points": [(i * width + width / 2, b / n) for i, b in enumerate(bins)]})
    chart = line_chart(series, "game length (player-turns)", "share of games", percent)
    if chart:
        chart["bin"] = int(width)
    return chart


def first_group_curve(rows: Sequence[dict]) -> dict[str, Any] | None:
    """Share of games in which some player owns a whole colour group by player-turn t."""
    hs = [(r, _hist(r["first_group"]["histogram"])) for r in rows]
    top = max((h.quantile(0.95) for _, h in hs if h.n), default=0)
    if not top:
        return None
    xs = list(range(0, int(top) + 1, max(1, int(top) // 60)))
    series = []
    for r, h in hs:
        games = r["games"] or 1
        scale = h.n / games
        series.append({"label": r["ruleset"], "points": [(x, s * scale) for x, s in zip(xs, h.share_at_most(xs))]})
    return line_chart(series, "player-turn", "games with a complete group", percent)


def time_series(rows: Sequence[dict], key: str, y_label: str,
                y_fmt: Callable[[float], str] = compact) -> dict[str, Any] | None:
    series = []
    for r in rows:
        s = r["series"]
        ys = s.get(key)
        if ys is None:
            continue
        series.append({"label": r["ruleset"], "points": list(zip(s["turn"], ys))})
    return line_chart(series, "player-turn", y_label, y_fmt) if series else None


def seat_chart(rows: Sequence[dict]) -> dict[str, Any] | None:
    """Win share of each seat with its 95 % interval; a dashed line marks the fair share (1 / players)."""
    if not rows:
        return None
    labels = [r["ruleset"] for r in rows]
    chars = min(34, max(len(x) for x in labels))
    label_w = 12 + CHAR_W * max(chars, 7)
    seat_w = CHAR_W * 7
    x0 = label_w + seat_w
    right = WIDTH - 60
    hi = max([s["hi"] for r in rows for s in r["seats"]] + [r["fair_share"] for r in rows])
    xt = nice_ticks(0, min(1.0, hi * 1.05) or 0.1, 5)
    sx = lambda v: x0 + (right - x0) * v / xt[-1]  # noqa: E731
    groups, y = [], 8
    for i, r in enumerate(rows):
        seats = []
        y0 = y
        for s in r["seats"]:
            cy = y + 9
            seats.append({"seat": s["seat"], "cy": cy, "ty": cy + 4, "x": round(sx(s["share"] or 0), 1),
                          "lo": round(sx(s["lo"]), 1), "hi": round(sx(s["hi"]), 1),
                          "text": "—" if s["share"] is None else f"{100 * s['share']:.1f}% "
                                  f"[{100 * s['lo']:.1f}–{100 * s['hi']:.1f}] of {s['of']}"})
            y += 18
        groups.append(dict(style(i), label=fit(r["ruleset"], chars), full=r["ruleset"], y0=y0, y1=y,
                           ty=y0 + 13, fair=round(sx(r["fair_share"]), 1), seats=seats))
        y += 10
    return {"width": WIDTH, "height": y + 30, "label_w": label_w, "x0": x0, "right": right, "axis_y": y,
            "x_ticks": [{"x": round(sx(t), 1), "label": percent(t)} for t in xt], "groups": groups}


def outcome_bars(rows: Sequence[dict]) -> dict[str, Any] | None:
    """How games ended, one stacked bar per ruleset."""
    if not rows:
        return None
    parts = (("last_standing", "one player (or team) left", "#009E73"),
             ("rule_limit", "a rule ended it (time, rounds, first bankruptcy)", "#0072B2"),
             ("stalled", "stalled at the turn cap", "#D55E00"))
    chars = min(34, max(len(r["ruleset"]) for r in rows))
    x0 = 12 + CHAR_W * max(chars, 7)
    span = WIDTH - x0 - 20
    bars = []
    for i, r in enumerate(rows):
        y = 8 + i * 26
        x, segs = x0, []
        for key, text, colour in parts:
            share = r["outcomes"][key]["share"] or 0
            w = span * share
            segs.append({"x": round(x, 1), "w": round(w, 1), "colour": colour,
                         "title": f"{text}: {100 * share:.1f}% of {r['games']} games",
                         "label": f"{100 * share:.0f}%" if w >= 34 else ""})
            x += w
        bars.append({"y": y, "ty": y + 15, "label": fit(r["ruleset"], chars), "full": r["ruleset"], "segs": segs})
    return {"width": WIDTH, "height": 16 + len(rows) * 26, "x0": x0, "bars": bars,
            "legend": [{"colour": c, "label": t} for _, t, c in parts]}


__all__ = ["line_chart", "length_distribution", "first_group_curve", "time_series", "seat_chart", "outcome_bars",
           "nice_ticks", "compact", "percent"]
