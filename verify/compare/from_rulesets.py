"""Compare resolved rulesets parameter by parameter and by meaning; classify each finding.

Which pairs are compared, and how a difference is classified, follows from
how the rulesets relate:

* each source's **base game** (``specs/comparison.yaml`` names the preferred
  one; otherwise its root ruleset) is compared with the other sources' base
  games; a difference takes its kind from what each side rests on exactly where
  the values part (``verify.compare.evidence``: an entry's claims, else its
  label): both stated is a ``contradiction``; an inference, an absence, a
  general clause or a borrowed number is ``inferred``; an on-screen step is
  ``medium``; an assumed value is ``assumed`` (``medium`` for a feature of one
  medium);
* a ruleset that extends another, an overlay stacked on the default ruleset,
  and any further mode of the same source are compared with their nearest
  ancestor (or their source's base game): a difference is a ``variant``;
* a side that is ``silent`` where another cites an answer gives ``silent``;
* a quantity one source states twice, differently, gives ``internal``; a
  clause implied by other rulings (z3) gives ``redundancy``; an entry that
  records other readings of its quote gives ``ambiguous``
  (``verify.compare.ambiguities``).

A side where the catalogue's condition for the parameter does not hold is
not applicable: shown, never compared (``verify.spec.applicability``).
Values are compared in proportion to each ruleset's ``money.scale``; a
difference counts when the reference engine plays the values differently in
some situation, an UNKNOWN search is reported with its reason, and only values
z3 proves alike are listed as ``equivalent``. Each side of a witness is its own
game (``_Ctx.witness``). Findings one statement decides are merged into one
(``verify.compare.merge``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ..errors import ErrorList, SpecError, VerifyError
from ..expr import Undecided, evaluate, names
from ..spec.applicability import applies, played_env
from ..spec.registry import DEFAULT_RULESET, Registry
from ..spec.ruleset import Entry, Ruleset
from ..spec.sources import fold
from ..spec.open_values import supply
from . import witness as wit
from .ambiguities import ambiguous_findings
from .declared import Declared, load_declared
from .credit import by_chain as _by_chain, stated_by
from .evidence import ORDER, Point, point, weaker
from .merge import merge
from .model import KINDS, Comparison, Finding, Side, Witness, primary_source
from .probes import BY_PARAM
from .proofs import prove
from .search import ABSENT, NOT_SET_UP, Party, outcome_key
from .values import key, normalize, same, show

DECIDED = ("cited", "assumed")
#: Parameters that are bookkeeping, not rules: never a finding of their own.
NOT_RULES = {"money.scale"}
LANG_BY_SOURCE_PREFIX = {"000": "tr", "001": "pl", "002": "vi", "003": "sr"}


@dataclass(frozen=True)
class Plan:
    base_games: tuple[str, ...]
    variants: tuple[tuple[str, str], ...]    # (anchor, ruleset)


def load_registry() -> Registry:
    """The bundled rulesets; a broken file is left out (``lint`` reports it), not fatal."""
    return Registry.load(strict=False)


def default_members(reg: Registry) -> list[str]:
    """Every complete ruleset, and every overlay stacked on the default ruleset."""
    plain = [rid for rid in reg.ids() if reg.files[rid].kind != "overlay"]
    base = DEFAULT_RULESET if DEFAULT_RULESET in plain else (plain[0] if plain else None)
    overlays = [f"{base}+{rid}" for rid in reg.ids() if reg.files[rid].kind == "overlay" and base]
    return plain + overlays


def _stack_overlay(reg: Registry, name: str) -> str:
    """A bare overlay id is compared as stacked on the default ruleset (an overlay alone is no game)."""
    f = reg.files.get(name)
    if f is not None and f.kind == "overlay":
        base = DEFAULT_RULESET if DEFAULT_RULESET in reg.files else None
        if base:
            return f"{base}+{name}"
    return name


def resolve_all(reg: Registry, names: list[str], strict: bool) -> tuple[list[Ruleset], list[VerifyError]]:
    out, errors = [], []
    for n in names:
        try:
            out.append(reg.resolve(n))
        except VerifyError as exc:
            if strict:
                raise
            errors.append(exc)
    return out, errors


def ordered(reg: Registry, names: list[str] | None = None, strict: bool = False) -> list[Ruleset]:
    """Resolved rulesets in reading order: base games first, then each mode or overlay."""
    rs, _ = resolve_all(reg, list(names) if names else default_members(reg), strict)
    pl = plan(rs, load_declared())
    rank = {rid: i for i, rid in enumerate(pl.base_games)}
    anchor = {rid: a for a, rid in pl.variants}

    def root(rid):
        while rid in anchor:
            rid = anchor[rid]
        return rid
    return sorted(rs, key=lambda r: (rank.get(root(r.id), 99), r.id not in rank, r.is_overlay, "+" in r.id,
                                     r.id))


def plan(rulesets: list[Ruleset], declared: Declared) -> Plan:
    pref = {rid: i for i, rid in enumerate(declared.base_games)}
    order = sorted(rulesets, key=lambda r: (r.id not in pref, pref.get(r.id, 0), len(r.chain), len(r.id),
                                            r.id))
    placed: list[Ruleset] = []
    bases: dict[str | None, Ruleset] = {}
    variants = []
    for r in order:
        ancestors = [m for m in placed if m.id in r.chain[:-1] or (m.id in r.chain and m.id != r.id)]
        if ancestors:
            anchor = max(ancestors, key=lambda m: r.chain.index(m.id) if m.id in r.chain else -1)
            variants.append((anchor.id, r.id))
        elif primary_source(r) in bases:
            variants.append((bases[primary_source(r)].id, r.id))
        else:
            bases[primary_source(r)] = r
        placed.append(r)
    return Plan(tuple(b.id for b in bases.values()), tuple(variants))


class _Ctx:
    def __init__(self, reg: Registry, declared: Declared | None = None):
        self.reg = reg
        self.cat = reg.catalogue
        self.declared = declared
        self._envs: dict[str, dict] = {}
        self._parties: dict[tuple, Party] = {}      # one compiled side per ruleset and values set
        self._by_id: dict[str, Ruleset] = {}          # the sides a one-value play may stand for

    def applies(self, r: Ruleset, pid: str) -> bool:
        """Whether ``pid`` means anything in ``r`` (the catalogue's ``applies_when``)."""
        env = self._envs.get(r.id)
        if env is None:
            env = self._envs[r.id] = played_env(r)
        return applies(r, pid, env)

    def party(self, r: Ruleset, values: dict | None = None, label: str | None = None,
              scale: int | None = None, one_value: tuple[str, ...] = ()) -> Party:
        """``r`` as a side of a witness, with ``values`` set (in ``r``'s money); an open value nobody
        supplied is played at the catalogue's fallback (or, where that breaks a constraint, at the
        smallest value of its domain), and the witness says so. ``one_value``: the parameters set for a
        one-value play (``r`` is then another side's game, ``label`` the side it stands for)."""
        memo = (r.id, repr(sorted((values or {}).items())), label, scale, one_value)
        if memo in self._parties:
            return self._parties[memo]
        self._parties[memo] = party = self._party(r, values, label, scale, one_value)
        return party

    def language(self, entry: Entry | None, r: Ruleset) -> str | None:
        rid = entry.ruleset if entry else r.chain[-1]
        f = self.reg.files.get(rid)
        if f and f.language:
            return f.language
        src = (entry.source if entry else None) or (f.source if f else None)
        if entry is None:
            src = src or primary_source(r)
        return LANG_BY_SOURCE_PREFIX.get((src or "")[:3])

    def side(self, r: Ruleset, pid: str) -> Side:
        e = r.entries.get(pid)
        scale = r.money_scale
        if e is None:
            return Side(r.id, primary_source(r), None, "undecided: no ruleset file rules on this", None,
                        kind="undecided", scale=scale, param=pid, language=self.language(None, r),
                        evidence="silent")
        f = self.reg.files.get(e.ruleset)
        # the rulebook behind an entry is the one its own file names: a user's table that names
        # none rules by itself, and its assumed values are never credited to a rulebook
        source = e.source or (f.source if f else None)
        gloss = e.gloss if e.kind in ("cited", "open") else e.reason
        gloss = gloss.strip() if isinstance(gloss, str) else gloss
        if e.kind == "open" and e.reason:
            gloss = f"open ({e.reason}): {e.gloss}" if e.gloss else e.reason     # a table's own words
        value = e.value if e.has_value else None
        evidence = {"cited": "cited", "assumed": "assumed", "open": "open"}.get(e.kind, "silent")
        kind = e.kind
        if not self.applies(r, pid):
            evidence = kind = "not_applicable"
            cond = self.cat[pid].applies_when
            gloss = f"not applicable: the game has no such mechanism ({cond} does not hold)" + (
                f"; {gloss}" if gloss and e.kind != "cited" else "")
        return Side(r.id, source, e.quotes[0] if e.quotes else None, gloss, value, kind=kind,
                    quotes=tuple(e.quotes), normalized=normalize(self.cat[pid], value, scale) if e.has_value
                    else None, scale=scale, param=pid, language=self.language(e, r),
                    origin=e.ruleset, evidence=evidence)

    def witness(self, pid: str, reps: list[Ruleset], question: str,
                everyone: list[Ruleset] | None = None) -> tuple[Witness | None, bool | None]:
        """(witness, differs): differs is True (the rulings play differently), False (proved: no situation
        separates the values) or None (UNKNOWN: the witness says why).

        ``reps`` holds one ruleset per distinct value; ``everyone`` all rulesets that decide. Each side of
        the witness is its own game (its own compiled config, its open values supplied and named). Whether
        the values differ in meaning is asked of the values alone: each side's value (with the details
        that apply only with it) in one game, everything else as in that game. Where a side's own outcome
        is not its value's outcome in that game (its money, board or other rules change the situation), or
        its own game cannot hold the situation, the one-value play is shown too, labelled as such.
        """
        probe = BY_PARAM.get(pid)
        if probe is None:
            return wit.direct(question, [(r.id, r.value(pid)) for r in reps], pid), True
        own = [self.party(r) for r in reps]
        self._by_id.update({r.id: r for r in (everyone or reps)})
        tries = self._value_parties(pid, reps, everyone)
        own_found = wit.find(probe, own)
        if own_found.status == "differs":
            for base, params, parties in tries:
                same = own_found.replay(parties)
                if same is not None and same.status == "differs":
                    return wit.build(probe, own, own_found, _one(base, params, parties, same, own_found)), True
        found, differs, base, params, parties = self._value_alone(probe, tries)
        if differs is False:
            return None, False
        if differs is True:
            there = found.replay(own)
            if there is not None and there.status == "differs":
                return wit.build(probe, own, there, _one(base, params, parties, found, there)), True
            # the sides' own games play the situation where the values part alike (or cannot hold it):
            # shown with the one-value play, never replaced by it
            there = there if there is not None else _nowhere(found, own)
            return wit.build(probe, own, there, _one(base, params, parties, found, there, force=True)), True
        if own_found.status == "differs":
            same = own_found.replay(parties) if parties else None
            note = None if differs else (f"whether the values alone play differently is UNKNOWN: {found.reason}"
                                         if found is not None and found.reason else None)
            one = _one(base, params, parties, same, own_found, force=True) if same is not None else None
            return wit.build(probe, own, own_found, one, detail=note), True if differs else None
        reason = found.reason if found is not None else own_found.reason
        return wit.unknown(probe, own, found.method if found is not None else own_found.method, reason), None

    def _value_parties(self, pid: str, reps: list[Ruleset], everyone: list[Ruleset] | None):
        """The one-value plays to try: (base, params, parties), each side's value of ``pid`` in the game of
        one of the first two sides; then ``pid`` with the details that apply only with it, each side's own,
        in the first side's game."""
        out = []
        for base in reps[:2]:
            try:
                # played in base's game, so its amounts are shown in base's money
                parties = [self.party(base, {pid: _in_scale(self.cat[pid], r.value(pid), r.money_scale,
                                                            base.money_scale)}, r.id, base.money_scale, (pid,))
                           for r in reps]
                _compile(parties)         # here: a value that breaks this game's board is no play
            except VerifyError:
                continue                  # the value breaks a constraint of this ruleset
            out.append((base, (pid,), parties))
        deps = self.dependents(pid)
        if deps:
            first = reps[0]
            try:
                parties = [self.party(first, {q: _in_scale(self.cat[q], r.value(q), r.money_scale,
                                                           first.money_scale) for q in (pid, *deps)}, r.id,
                                      first.money_scale, (pid, *deps)) for r in (everyone or reps)]
                _compile(parties)
            except VerifyError:
                parties = None
            if parties:
                out.append((first, (pid, *deps), parties))
        return out

    def _value_alone(self, probe, tries):
        """(found, differs, base, params, parties): whether the values alone play differently, the best of
        ``tries`` (a situation that separates them first, then UNKNOWN, then proved alike)."""
        rank = {"differs": 2, "unknown": 1, "same": 0}
        best = (None, None, None, None, None)
        for base, params, parties in tries:
            got = wit.find(probe, parties)
            if best[0] is None or rank[got.status] > rank[best[0].status]:
                best = (got, {"differs": True, "unknown": None, "same": False}[got.status], base, params, parties)
            if got.status == "differs":
                break
        return best

    def _party(self, r: Ruleset, values: dict | None, label: str | None, scale: int | None,
               one_value: tuple[str, ...] = ()) -> Party:
        values = dict(values or {})
        opened = [pid for pid, e in r.entries.items() if e.kind == "open" and pid not in values]
        for pid in opened:
            p = self.cat[pid]
            tries = [p.scaled_fallback(r.money_scale)]
            if p.witness_value is not None:
                tries.append(p.witness_value * (r.money_scale if p.is_money else 1))
            if p.min is not None:
                tries.append(int(p.min) * (r.money_scale if p.is_money else 1))
            for value in tries:
                values[pid] = value
                try:
                    supply(r, values)
                    break
                except VerifyError:
                    continue
        played = supply(r, values) if values else r
        side = self._by_id.get(label) if one_value else None
        if side is not None:
            # a one-value play keeps only the promises the side it stands for makes too: its value may
            # reach states the game it is played in rules out (a deed traded out of a built group)
            played = replace(played, promises={k: v and bool(side.promises.get(k)) for k, v in played.promises.items()})
        return Party(label or r.id, played, runnable(self.reg, r.id), tuple(sorted(values.items())),
                     tuple(opened), scale, one_value)

    def dependents(self, pid: str) -> tuple[str, ...]:
        """The parameters whose catalogue condition names ``pid`` (they apply only with it)."""
        return tuple(q for q, p in self.cat.parameters.items() if p.applies_expr is not None
                     and pid in {".".join(n) for n in names(p.applies_expr)})


def _one(base: Ruleset, params: tuple[str, ...], parties, one_found, own_found, force: bool = False):
    """The one-value play to show beside the sides' own games (``witness.build``'s ``one``), or None when
    every side's own outcome is its value's outcome in ``base``'s game (nothing else changed it)."""
    if one_found is None:
        return None
    own = [repr(outcome_key(o)) for o in own_found.outcomes]
    alone = [repr(outcome_key(o)) for o in one_found.outcomes]
    absent = [p.label for p, pl in zip(parties, own_found.plays) if pl is None]
    if own == alone and not absent and not force:
        return None
    names = ", ".join(params)
    if absent:
        why = (f"The situation does not arise in {', '.join(absent)}'s own game; played in {base.id}'s game "
               f"with only {names} changed, it shows what the values alone do.")
    elif len(set(own)) < 2:
        why = (f"In their own games the sides play this situation alike: other rules of theirs offset the "
               f"difference. Played in {base.id}'s game with only {names} changed, the values differ.")
    elif len(set(alone)) < 2:
        why = (f"Played in {base.id}'s game with only {names} changed, the values alone play this situation "
               f"alike: the sides' own outcomes differ through other rules of their games.")
    else:
        why = (f"The sides' own games differ in more than {names} in what this situation reads (money, board "
               f"or other rules); played in {base.id}'s game with only {names} changed:")
    return base.id, params, why, parties, one_found


def _compile(parties) -> None:
    """Compile each party's config now (a SpecError where a value breaks its game)."""
    for p in parties:
        _ = p.cfg


def _nowhere(found, own):
    """The sides' own games when the value-alone situation cannot be set up in them at all (said so)."""
    return replace(found, plays=(None,) * len(own), outcomes=(ABSENT,) * len(own),
                   absent=(NOT_SET_UP,) * len(own), replay=None)


def _in_scale(p, value: Any, scale: int, target: int) -> Any:
    """``value`` (in money of ``scale``) in money of ``target``."""
    if not p.is_money or scale == target:
        return value
    conv = lambda x: int(Fraction(x) * target / scale) if isinstance(x, int) and not isinstance(x, bool) else x  # noqa: E731
    return [conv(x) for x in value] if isinstance(value, list) else conv(value)


def runnable(reg: Registry, rid: str) -> str:
    """A name ``verify replay`` resolves on its own: a user's file by its path, readings kept."""
    base, _, readings = rid.partition("@")
    parts = [p if reg.is_bundled(p) or p not in reg.files else str(reg.files[p].path) for p in base.split("+")]
    return "+".join(parts) + (f"@{readings}" if readings else "")


def _summary_values(sides: list[Side]) -> str:
    groups: dict[str, list[Side]] = {}
    for s in sides:
        groups.setdefault(key(s.normalized) if s.kind in DECIDED else "~" + s.kind, []).append(s)
    parts = []
    for g in groups.values():
        s = g[0]
        if s.kind in DECIDED:
            val = show(s.value)
            if s.scale != 1 and s.value != s.normalized:
                val += f" (= {show(s.normalized)} classic)"
        else:
            val = s.kind.replace("_", " ")
        names = ", ".join(x.ruleset + (" (assumed)" if x.evidence == "assumed" else "") for x in g)
        parts.append(f"{names}: {val}")
    return "; ".join(parts)


def _rep(rs: list[Ruleset], sides: list[Side]) -> list[Ruleset]:
    """One ruleset per distinct (normalised) value, in order."""
    seen, out = set(), []
    for r, s in zip(rs, sides):
        k = key(s.normalized)
        if k not in seen:
            seen.add(k)
            out.append(r)
    return out


def _pool(ctx: _Ctx, pid: str, rs: list[Ruleset], kind: str, modes: list[Ruleset] | None):
    """(the rulesets compared on ``pid``, the not-applicable sides shown beside them), or None to skip.

    Between base games, a parameter that only means something with some mechanism (a speed die, a rent
    tax...) is compared among the first ruleset of each source that has it, taken from ``modes`` (base
    games first): the official Speed Die game against the platform's Fast mode, not two base games that
    have no speed die at all; a source none of whose games has it is shown as not applicable. A variant
    that switches the mechanism on or off is reported on the switch, not on its details."""
    live = [r for r in rs if ctx.applies(r, pid)]
    if kind == "variant" or modes is None:
        if len(live) < len(rs):
            return None if kind == "variant" else (live, [ctx.side(r, pid) for r in rs if r not in live])
        return live, []
    if len(live) == len(rs):
        return rs, []
    chosen = _one_per_source([r for r in modes if ctx.applies(r, pid)])
    have = {primary_source(r) for r in chosen}
    na = [ctx.side(r, pid) for r in rs if primary_source(r) not in have]
    return chosen, na


def compare_group(ctx: _Ctx, rs: list[Ruleset], kind: str, id_prefix: str,
                  equivalent: list[str], modes: list[Ruleset] | None = None,
                  params: set[str] | None = None, answers: tuple[str, ...] = ("cited",)) -> list[Finding]:
    """Findings among rulesets that should agree (base games, or an anchor and its variant).

    Only a disagreement between stated rulings (``answers``: cited entries; a user's table's assumed
    values count as its rulings) is a ``contradiction`` between base games; a difference that rests on
    an assumed side is ``assumed``, or ``medium`` where the parameter is a feature of one medium (a
    turn timer online, a banker at a table). A side where the parameter is not applicable is shown as
    such and never compared (``_pool``). ``params`` limits the parameters compared.
    """
    out = []
    for pid, p in ctx.cat.parameters.items():
        if pid in NOT_RULES or (params is not None and pid not in params):
            continue
        pooled = _pool(ctx, pid, rs, kind, modes)
        if pooled is None:
            continue
        rs_p, na_sides = pooled
        if len(rs_p) < 2:
            continue
        sides = [ctx.side(r, pid) for r in rs_p]
        deciders = [(r, s) for r, s in zip(rs_p, sides) if s.kind in DECIDED]
        cited = [s for s in sides if s.kind in answers]
        silent = [s for s in sides if s.kind in ("silent", "undecided")]
        opened = [s for s in sides if s.kind == "open"]
        values = {key(s.normalized) for _, s in deciders}
        if len(values) > 1 and (cited or _states_a_difference(p, deciders, answers)):
            # the strongest kind whose sides the engine plays differently; a witness that is UNKNOWN
            # (differs None) is reported with its reason, never taken for agreement; only a proof that no
            # situation separates the values makes them equivalent
            found = _kind_and_witness(ctx, pid, p, kind, deciders, answers)
            if found is None:
                equivalent.append(f"{id_prefix}{pid}")
            else:
                k, w = found
                shown = _with_points(p, k, deciders, answers) if kind != "variant" else [s for _, s in deciders]
                reason = _reason(p, k, shown)
                out.append(Finding(f"{k}:{id_prefix}{pid}", p.area, k,
                                   f"{p.question} {_summary_values(shown)}"
                                   + (f"; not applicable in {', '.join(s.ruleset for s in na_sides)}"
                                      if na_sides else "") + (f". {reason}" if reason else ""),
                                   tuple(shown) + tuple(na_sides), w, (pid,), reason=reason))
        if kind == "variant" and sides[0].kind in ("silent", "undecided") and sides[1].kind in answers:
            out.append(Finding(f"variant:{id_prefix}{pid}", p.area, "variant",
                               f"{p.question} {rs_p[0].id} is silent; {rs_p[1].id} adds a ruling: "
                               f"{show(sides[1].value)}.", (sides[1], sides[0]), None, (pid,)))
            continue
        if silent and cited:
            out.append(Finding(f"silent:{id_prefix}{pid}", p.area, "silent",
                               f"{p.question} Left open by {', '.join(s.ruleset for s in silent)}; "
                               f"answered by {', '.join(s.ruleset for s in cited)}.",
                               tuple(cited + silent), None, (pid,)))
        if opened and kind == "variant" and (cited or deciders):
            out.append(Finding(f"variant:{id_prefix}{pid}", p.area, "variant",
                               f"{p.question} Set by the table's host in "
                               f"{', '.join(s.ruleset for s in opened)}; "
                               f"fixed elsewhere ({_summary_values([s for _, s in deciders])}).",
                               tuple([s for _, s in deciders] + opened), None, (pid,)))
    return out


def _pair_kinds(p, deciders: list[tuple[Ruleset, Side]], answers) -> dict[tuple[int, int], str]:
    """The kind of each pair of deciding sides whose values differ: the weaker of the two sides' evidence
    where they part (``verify.compare.evidence``)."""
    out = {}
    for i, (ra, sa) in enumerate(deciders):
        for j in range(i + 1, len(deciders)):
            rb, sb = deciders[j]
            if key(sa.normalized) == key(sb.normalized):
                continue
            out[(i, j)] = weaker(point(ra, p.id, rb, answers).kind(p.medium),
                                 point(rb, p.id, ra, answers).kind(p.medium))
    return out


def _states_a_difference(p, deciders, answers) -> bool:
    """Whether a side whose entry is not its own ruling (an assumed value) states, by a claim, the very
    point where it parts from another side (the official board states that Community Chest squares
    exist, though their positions are assumed)."""
    return any(point(ra, p.id, rb, answers).evidence == "stated"
               for ra, sa in deciders for rb, sb in deciders if key(sa.normalized) != key(sb.normalized))


def _kind_and_witness(ctx, pid: str, p, kind: str, deciders, answers):
    """(kind, witness) of a difference among ``deciders``, or None when z3 proves the values alike.

    Between base games the kinds are tried strongest first (``evidence.ORDER``), each among the sides
    of the pairs at least that strong: the first the engine plays differently wins; failing that, the
    first whose search is UNKNOWN. A variant is a variant whatever its sides rest on."""
    if kind == "variant":
        reps = _rep([r for r, _ in deciders], [s for _, s in deciders])
        w, differs = ctx.witness(pid, reps, p.question, [r for r, _ in deciders])
        return None if differs is False else (kind, w)
    pairs = _pair_kinds(p, deciders, answers)
    found, tried = None, set()
    for cls in ORDER:
        members = sorted({i for pair, k in pairs.items() if ORDER.index(k) <= ORDER.index(cls) for i in pair})
        chosen = [deciders[i] for i in members]
        reps = _rep([r for r, _ in chosen], [s for _, s in chosen])
        memo = tuple(r.id for r in reps)
        if len(reps) < 2 or memo in tried:
            continue
        tried.add(memo)
        w, differs = ctx.witness(pid, reps, p.question, [r for r, _ in chosen])
        if differs is True:
            return cls, w
        if differs is None and found is None:
            found = (cls, w)
    return found


def _with_points(p, k: str, deciders, answers) -> list[Side]:
    """Each deciding side with what it rests on where it parts from the others (``Side.point``): against
    a side of another value in a pair of the finding's kind where there is one, else its strongest."""
    out = []
    for i, (r, s) in enumerate(deciders):
        best = None
        for j, (o, so) in enumerate(deciders):
            if i == j or key(so.normalized) == key(s.normalized):
                continue
            mine, theirs = point(r, p.id, o, answers), point(o, p.id, r, answers)
            pair = weaker(mine.kind(p.medium), theirs.kind(p.medium))
            rank = (pair != k, ORDER.index(mine.kind(p.medium)))
            if best is None or rank < best[0]:
                best = (rank, mine)
        out.append(replace(s, point=best[1].to_json()) if best else s)
    return out


def _reason(p, k: str, sides: list[Side]) -> str | None:
    """Why a difference between base games is of kind ``k`` when it is not a contradiction: what the
    weaker sides rest on at the point where they differ (a claim of theirs, or an assumption)."""
    if k == "contradiction" or k not in ORDER:
        return None
    weak = [s for s in sides if s.point and s.point["evidence"] != "stated"
            and Point(s.point["evidence"]).kind(p.medium) == k]
    if not weak:
        return None
    parts = []
    for s in weak:
        what = s.point.get("says") or "its value"
        why = f" ({s.point['why']})" if s.point.get("why") else ""
        parts.append(f"{s.ruleset}: {what} — {s.point['meaning']}{why}")
    return "Rests on " + "; ".join(parts)


def _one_per_source(rs: list[Ruleset]) -> list[Ruleset]:
    seen, out = set(), []
    for r in rs:
        src = primary_source(r)
        if src not in seen:
            seen.add(src)
            out.append(r)
    return sorted(out, key=lambda r: primary_source(r) or "")


def _holds(expr, r: Ruleset) -> bool:
    try:
        return bool(evaluate(expr, played_env(r)))
    except (Undecided, TypeError, ValueError):
        return False


def internal_findings(ctx: _Ctx, rs: list[Ruleset], declared: Declared) -> list[Finding]:
    """A quantity one rulebook states twice, differently: two cited entries of one source, of different
    parameters, whose statements of the quantity differ (``quantities`` of specs/comparison.yaml) under
    every reading the rulesets record of them."""
    out: list[Finding] = []
    for q in declared.quantities:
        target = ctx.cat[q.param]
        by_source: dict[str, dict[tuple[str, str], tuple]] = {}
        for named in _by_chain(rs):
            for st in q.statements:
                e = named.entries.get(st.param)
                if e is None or e.kind != "cited":
                    continue
                r = stated_by(ctx, named, [e], rs)      # the file that states it, never a table inheriting it
                if st.when_expr is not None and not _holds(st.when_expr, r):
                    continue
                states, meaning = st.meaning(e.value)
                if not states:
                    continue
                # what the same words give under the entry's recorded readings: a reading under which the
                # two statements agree makes the difference an ambiguity (reported as one), not a stated one
                read = [normalize(target, m, r.money_scale) for ok, m in (st.meaning(rd.value) for rd in e.readings)
                        if ok]
                key_ = (e.ruleset, st.param)
                by_source.setdefault(e.source or "", {}).setdefault(
                    key_, (r, st.param, normalize(target, meaning, r.money_scale), meaning, read))
        for source, stated in sorted(by_source.items()):
            items = list(stated.values())
            pair = next(((a, b) for i, a in enumerate(items) for b in items[i + 1:]
                         if a[1] != b[1] and not same(a[2], b[2])
                         and not any(same(x, b[2]) for x in a[4]) and not any(same(x, a[2]) for x in b[4])),
                        None)
            if pair is None:
                continue
            (ra, pa, na, ma, _), (rb, pb, nb, mb, _) = pair
            host = next((r for r in (ra, rb) if all(st.when_expr is None or _holds(st.when_expr, r)
                                                   for st in q.statements)), ra)
            scale = host.money_scale
            # one rulebook's game, played once with each of its two statements of the quantity: a
            # one-value play by nature, and labelled so
            parties = [ctx.party(host, {q.param: _in_scale(target, na, 1, scale) if target.is_money else ma},
                                 f"{host.id} (as {ra.id}'s {pa})", None, (q.param,)),
                       ctx.party(host, {q.param: _in_scale(target, nb, 1, scale) if target.is_money else mb},
                                 f"{host.id} (as {rb.id}'s {pb})", None, (q.param,))]
            probe = BY_PARAM.get(q.param)
            w = (wit.witness(probe, parties)[0] if probe is not None else
                 wit.direct(q.question, [(p.label, v) for p, v in zip(parties, (ma, mb))], q.param))
            fid = f"internal:{source[:3]}:{q.id}"
            out.append(Finding(fid, q.topic, "internal",
                               f"{q.question} {source} states both: {pa} = {show(ra.value(pa))} ({ra.id}) "
                               f"and {pb} = {show(rb.value(pb))} ({rb.id}).",
                               (ctx.side(ra, pa), ctx.side(rb, pb)), w, (pa, pb)))
    return out


def values_of(r: Ruleset):
    """``r``'s values with money in classic amounts (what the redundancy proofs read)."""
    cat = r.catalogue

    def get(pid: str) -> Any:
        return normalize(cat[pid], r.value(pid), r.money_scale)
    return get


def redundancy_findings(ctx: _Ctx, rs: list[Ruleset], declared: Declared) -> list[Finding]:
    out: dict[str, Finding] = {}
    for red in declared.redundancies:
        for named in _by_chain(rs):
            entries = [named.entries.get(p) for p in red.premise]
            if not all(e is not None and e.kind == "cited" for e in entries):
                continue
            stating = entries + [e for e in [named.entries.get(red.conclusion_param)] if e is not None] \
                if red.conclusion_param else entries
            r = stated_by(ctx, named, stating, rs)
            src = red.source or entries[0].source
            if red.source and any(e.source != red.source for e in entries):
                continue
            args = dict(red.args, premise_param=red.premise[0])
            if red.conclusion_param:
                ce = r.entries.get(red.conclusion_param)
                if ce is None or ce.kind != "cited" or ce.source != entries[0].source:
                    continue
            fid = f"redundancy:{(src or '')[:3]}:{red.id}"
            if fid in out:
                continue
            proof = prove(red.proof, values_of(r), args)
            if proof.verdict in ("REFUTED", "NOT_APPLICABLE"):
                continue              # not implied here: no redundancy to report
            sides = [ctx.side(r, p) for p in red.premise]
            if red.quote:
                q = fold(red.quote)
                sides = [s if q not in [fold(x) for x in s.quotes] else
                         Side(**{**s.__dict__, "quotes": tuple(x for x in s.quotes if fold(x) != q),
                                 "quote": next((x for x in s.quotes if fold(x) != q), None)})
                         for s in sides]
                if all(s.quote is None for s in sides):
                    continue          # the premise is cited only by the implied clause itself
                lang = sides[0].language
                sides.append(Side(r.id, red.source, red.quote, red.gloss, None, kind="clause",
                                  quotes=(red.quote,), language=lang))
            else:
                sides.append(ctx.side(r, red.conclusion_param))
            if proof.verdict == "PROVED":
                w = Witness(family=red.proof, method="proof", question=red.summary, verdict="PROVED",
                            detail=f"z3: premise ∧ ¬conclusion is unsatisfiable — {proof.detail}")
                summary = red.summary
            else:
                w = Witness(family=red.proof, method="proof", question=red.summary, verdict="UNKNOWN",
                            detail=proof.detail)
                summary = f"UNKNOWN whether this clause is implied ({proof.detail}): {red.summary}"
            out[fid] = Finding(fid, red.topic, "redundancy", summary, tuple(sides), w,
                               tuple(red.premise) + ((red.conclusion_param,) if red.conclusion_param else ()))
    return list(out.values())


def compare(names: list[str] | None = None, reg: Registry | None = None,
            declared: Declared | None = None) -> Comparison:
    """Compare the named rulesets (default: every bundled ruleset and overlay)."""
    reg = reg or load_registry()
    declared = declared or load_declared()
    strict = bool(names)
    names = [_stack_overlay(reg, n) for n in names] if names else default_members(reg)
    rs, _errors = resolve_all(reg, names, strict)
    if strict and not rs:
        raise SpecError("E011", "no ruleset to compare")
    ctx = _Ctx(reg, declared)
    pl = plan(rs, declared)
    by_id = {r.id: r for r in rs}
    findings: list[Finding] = []
    equivalent: list[str] = []
    if len(pl.base_games) > 1:
        modes = [by_id[b] for b in pl.base_games] + [by_id[rid] for _, rid in pl.variants if "+" not in rid]
        findings += compare_group(ctx, [by_id[b] for b in pl.base_games], "contradiction", "", equivalent,
                                  modes)
    for anchor, rid in pl.variants:
        findings += compare_group(ctx, [by_id[anchor], by_id[rid]], "variant", f"{rid}:", equivalent)
    findings += internal_findings(ctx, rs, declared)
    findings += ambiguous_findings(ctx, ordered(reg, [r.id for r in rs]) if rs else [])
    findings += redundancy_findings(ctx, rs, declared)
    order = {a.id: i for i, a in enumerate(ctx.cat.areas)}
    kinds = {k: i for i, k in enumerate(KINDS)}
    findings.sort(key=lambda f: (order.get(f.topic, 99), kinds[f.kind], f.id))
    findings = merge(findings, ctx.cat, declared.statements)
    return Comparison(tuple(r.id for r in rs), tuple(findings), pl.base_games, tuple(equivalent))


__all__ = ["compare", "plan", "Plan", "load_registry", "default_members", "ErrorList"]
