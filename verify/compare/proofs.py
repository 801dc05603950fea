"""Redundancy proofs: a source clause implied by other rulings, proved with z3.

Each proof builds, from a ruleset's normalised values, a premise (the rulings
the ruleset cites) and a conclusion (the clause claimed redundant) over a few
symbolic quantities; where it restates the rules' arithmetic (a mortgage's
interest, the casino's payout) it calls the very function the config's tables
are derived with (``verify.config.tables``). The clause is redundant when ``premise and not
conclusion`` is unsatisfiable. Every proof attempt ends three-valued
(``Proof``): PROVED, REFUTED with the model z3 found (the clause is not
implied), or UNKNOWN with the reason (a timeout, a value the proof cannot
read); only PROVED makes a finding, and an UNKNOWN is reported, never
dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import z3

from ..config.tables import casino_payout, mortgage_interest
from ..interrupt import raise_if_interrupted

Get = Callable[[str], Any]

#: z3 budget of one proof.
TIMEOUT_MS = 3000


def _r(x) -> z3.ArithRef:
    """A Python number as an exact z3 real."""
    f = Fraction(x).limit_denominator(10_000)
    return z3.RealVal(f"{f.numerator}/{f.denominator}")


@dataclass(frozen=True)
class Proof:
    """The verdict of one proof: PROVED, REFUTED (``model``: a state where the premise holds and the
    conclusion does not), UNKNOWN (``detail``: why), or NOT_APPLICABLE (the ruleset's values are not
    of the form the proof reads, e.g. no trade balance at all)."""

    verdict: str
    detail: str = ""
    model: dict | None = None


def _num(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def gap_implies_ratio(get: Get, args: dict):
    g, r = get("trade.max_value_gap"), get("trade.max_value_ratio")
    if not (_num(g) and _num(r)):
        return None
    a, b = z3.Reals("side_a side_b")
    big, small = z3.If(a >= b, a, b), z3.If(a >= b, b, a)
    premise = z3.And(a > 0, b > 0, big - small <= _r(g) * big)
    conclusion = big <= _r(r) * small
    s = z3.Solver()
    s.set(timeout=TIMEOUT_MS)
    s.add(a > 0, b > 0, big <= _r(r) * small, z3.Not(big - small <= _r(g) * big))
    res = s.check()
    if res == z3.unsat:
        converse = "the converse holds too: the two checks accept exactly the same trades"
    elif res == z3.sat:
        converse = "the converse does not hold: the ratio check alone accepts some trades the gap check refuses"
    else:
        converse = f"whether the converse holds is UNKNOWN (z3: {s.reason_unknown() or 'unknown'})"
    return premise, conclusion, (f"for all positive side values: difference ≤ {Fraction(g)} × larger "
                                 f"⇒ larger ≤ {r} × smaller" + (f"; {converse}" if converse else ""))


def unmortgage_share(get: Get, args: dict):
    """Lifting a mortgage costs its value plus the interest the tables charge (``mortgage_interest``, read over
    every price p, unrounded)."""
    share = args.get("share")
    v, rate, base = get("mortgage.value"), get("mortgage.interest_rate"), get("mortgage.interest_base")
    if not (_num(v) and _num(rate) and _num(share)):
        return None
    p = z3.Real("price")
    mv = _r(v) * p
    cost = mv + mortgage_interest(p, mv, _r(rate), "mortgage_value" if base == "mortgage_value" else "price",
                                  rounding=lambda x: x)
    return (p > 0), (cost == _r(share) * p), (
        f"for every price p > 0: {v}·p + {rate}·{'(mortgage value)' if base == 'mortgage_value' else 'p'}"
        f" = {share}·p")


def casino_table(get: Get, args: dict):
    """The payout the tables give a bet on K numbers (``casino_payout``: the stake times the numerator over K,
    rounded down), for every stake, is the table's multiple of the stake."""
    n, most = get("casino.payout_numerator"), get("casino.max_numbers")
    table = args.get("table") or []
    if not (_num(n) and _num(most)) or len(table) != most or int(n) != n:
        return None
    stake = z3.Int("stake")
    pays = [z3.ToReal(casino_payout(stake, int(n), k, div=lambda a, b: a / b)) == _r(x) * z3.ToReal(stake)
            for k, x in enumerate(table, 1)]
    return stake > 0, z3.And(pays), f"payout = stake × {n} ÷ K (rounded down) for K in 1..{most} gives " \
                                    f"stake × {table}"


def even_build_example(get: Get, args: dict):
    if not get("building.even_build"):
        return None
    lo, hi = args.get("houses", [1, 3])
    h1, h2 = z3.Ints("houses_here houses_there")
    cap = get("building.max_houses")
    premise = z3.And(h1 >= 0, h2 >= 0, h1 <= cap, h2 <= cap, h2 - h1 <= 1, h1 - h2 <= 1)
    return premise, z3.Not(z3.And(h1 == lo, h2 == hi)), (
        f"even building keeps any two streets of a group within one house, so {lo} and {hi} cannot coexist")


def jail_turn_bound(get: Get, args: dict):
    tries, after = get("jail.max_tries"), get("jail.after_last_try")
    if not _num(tries) or after not in ("pay_fine_and_move", "released_and_move"):
        return None
    t = z3.Int("turns_in_jail")
    # a player starts jail turn t only while every earlier try failed and tries remain
    premise = z3.And(t >= 1, t - 1 < tries)
    return premise, t <= args.get("bound", 3), (
        f"the last of {tries} tries ends the stay ({after.replace('_', ' ')}), so no stay exceeds "
        f"{args.get('bound', 3)} turns")


def same_ruling(get: Get, args: dict):
    value = get(args["premise_param"])
    if value != args.get("expect"):
        return None
    x = z3.String("ruling")
    return x == z3.StringVal(str(value)), x == z3.StringVal(str(args["expect"])), (
        f"the clause restates the ruling {value!r}")


PROOFS = {f.__name__: f for f in (gap_implies_ratio, unmortgage_share, casino_table, even_build_example,
                                  jail_turn_bound, same_ruling)}


def prove(name: str, get: Get, args: dict) -> Proof:
    """Whether the premise implies the conclusion, three-valued."""
    fn = PROOFS.get(name)
    if fn is None:
        return Proof("UNKNOWN", f"no proof named {name!r}")
    try:
        built = fn(get, args)
    except (TypeError, ValueError, KeyError, z3.Z3Exception) as exc:
        raise_if_interrupted()
        return Proof("UNKNOWN", f"the proof could not be built: {type(exc).__name__}: {exc}")
    if built is None:
        return Proof("NOT_APPLICABLE", "the ruleset's values are not of the form this proof reads")
    premise, conclusion, detail = built
    s = z3.Solver()
    s.set(timeout=TIMEOUT_MS)
    s.add(premise, z3.Not(conclusion))
    try:
        res = s.check()
    except z3.Z3Exception as exc:
        raise_if_interrupted()
        return Proof("UNKNOWN", f"z3 failed: {exc}")
    if res == z3.unsat:
        return Proof("PROVED", detail)
    if res == z3.sat:
        m = s.model()
        return Proof("REFUTED", detail, {str(d): str(m[d]) for d in m.decls()})
    return Proof("UNKNOWN", f"z3 gave up ({s.reason_unknown() or 'unknown'}) within {TIMEOUT_MS / 1000:g} s")
