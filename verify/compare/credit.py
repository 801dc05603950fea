"""The one rule for crediting a finding about a file's own words: to the ruleset whose file states them.

A rulebook's internal disagreement, a redundancy between its clauses or an
ambiguity of its words is the rulebook's, whichever rulesets were named and in
whatever order: a user's table (or a stack) that merely inherits the words is
never credited with them, and two rulesets stating the same words are chosen
between by their place in the chain, never by the command line's order.
"""

from __future__ import annotations

from ..errors import VerifyError
from ..spec.ruleset import Entry, Ruleset


def stated_by(ctx, r: Ruleset, entries: list[Entry], rs: list[Ruleset] = ()) -> Ruleset:
    """The ruleset a finding about ``entries`` (as ``r`` resolves them) is credited to: the one whose own
    file states them — the latest file of ``r``'s chain among those that set them — never a table or a
    stack that merely inherits them. Taken from ``rs`` when there, else resolved; ``r`` itself when the
    file is ``r``'s own or an overlay (an overlay alone is no game). The same whatever the order of ``rs``."""
    files = {e.ruleset for e in entries}
    if not files <= set(r.chain):
        return r
    last = max(files, key=r.chain.index)
    if last == r.chain[-1]:
        return r
    for x in rs:
        if x.id == last:
            return x
    f = ctx.reg.files.get(last)
    if f is None or f.kind == "overlay":
        return r
    try:
        return ctx.reg.resolve(last)
    except VerifyError:
        return r


def by_chain(rs: list[Ruleset]) -> list[Ruleset]:
    """Rulesets closest to a base first, then by id: which of two rulesets stating the same words is
    credited does not depend on the order they were named in."""
    return sorted(rs, key=lambda r: (len(r.chain), r.id))


__all__ = ["by_chain", "stated_by"]
