"""Terminal writers shared by the commands: a side's ruling with its evidence, and its origin.

``verify contradictions`` and ``verify diff`` print the same thing for a
ruling (value, quote, gloss or the reason it was assumed, and which file set
it), so they print it here, once.
"""

from __future__ import annotations

import click

from ..compare.model import Side
from ..compare.values import show


def value_text(s: Side) -> str:
    if s.kind in ("cited", "assumed"):
        text = show(s.value)
        if s.scale != 1 and s.normalized is not None and s.normalized != s.value:
            text += f" (= {show(s.normalized)} classic)"
        return text
    return s.kind


def origin_text(s: Side) -> str:
    """Who rules it: the rulebook quoted, or the table (file) that set it."""
    set_by = s.origin if s.origin and s.origin != s.ruleset.split("+")[-1] else None
    bits = [f"set in {set_by}"] if set_by else []
    if s.source:
        bits.append(s.source)
    return f" ({', '.join(bits)})" if bits else ""


def echo_side(s: Side, indent: str = "    ", label: str | None = None) -> None:
    """One ruling: ``label: value`` then the quote and gloss, or the assumed/silent/open reason."""
    head = f"{indent}{label or s.ruleset}{origin_text(s)}: {value_text(s)}"
    if s.kind == "cited" and s.quotes:
        click.echo(head)
        for q in s.quotes:
            click.echo(f"{indent}    «{q}»")
        if s.gloss:
            click.echo(f"{indent}    {s.gloss}")
    elif s.gloss:
        click.echo(f"{head} — {s.kind}: {s.gloss}" if s.kind in ("cited", "assumed") else f"{head}: {s.gloss}")
    else:
        click.echo(head)


def echo_witness(w, indent: str = "  ") -> None:
    if w is None:
        return
    if w.method in ("z3", "direct"):
        click.echo(f"{indent}witness ({w.method}): {w.question}")
        click.echo(f"{indent}  situation: {w.situation_text}")
        for o in w.outcomes:
            click.echo(f"{indent}  {o.ruleset}: {o.text}")
    elif w.method == "proof":
        click.echo(f"{indent}{w.verdict}: {w.detail}")
