"""Ruleset files and their resolution into one immutable, cited Ruleset.

A ruleset file names a source, optionally ``extends`` other rulesets, and
gives each parameter as exactly one of:

* cited:   ``value`` + ``quote`` (verbatim, one string or a list) + ``gloss``
* assumed: ``value`` + ``assumed`` (why the value is used though unstated)
* silent:  ``silent`` (what the source leaves open)
* open:    ``open`` (who sets it, e.g. the host) + ``quote`` + ``gloss``;
           no value until a user overlay (or ``--set``) supplies one. A table of
           one's own (a file without a rulebook ``source``, or ``source: table``)
           leaves a value open in its own words: ``open`` alone

A cited or assumed entry may add ``readings``: other values the same words
allow, each with a name and a gloss (``verify.spec.readings``).
It may add ``claims``: the statements its value rests on, each with its own
evidence (``verify.spec.claims``), so that a comparison judges the statement
where two rulebooks differ rather than the label of the whole value.

Resolution precedence (documented in the README): parents in ``extends``
order, later parents overriding earlier ones; then the file itself; then
overlays stacked with ``+`` (``official+house-no-auction``), each later one
overriding. Every resolved entry keeps the file, line and ruleset it came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import ErrorList, Location, SpecError, VerifyError
from ..paths import display
from .catalogue import Catalogue, load_catalogue
from .claims import Claim, parse_claims
from .quotes import MIN_WORDS, missing_numbers, short_quotes
from .readings import Reading, parse_readings
from .sources import load_source
from .yamlsafe import load_yaml, read_text

KINDS = ("cited", "assumed", "silent", "open")
#: The ``source`` of a table of one's own: its words are its own, there is no rulebook to quote.
OWN_WORDS = "table"
#: Characters a ruleset id cannot hold: each means something else in a ruleset name on the command line.
ID_RESERVED = "+@/\\"
_TOP = {"id", "title", "source", "language", "kind", "extends", "description", "promises", "rules", "extra_rules"}
_ENTRY = {"value", "quote", "gloss", "assumed", "silent", "open", "source", "note", "readings", "claims"}


@dataclass(frozen=True)
class Entry:
    """One parameter's ruling in one file, with where it came from."""

    param: str
    kind: str                      # cited | assumed | silent | open
    value: Any = None
    quotes: tuple[str, ...] = ()
    gloss: str | None = None
    reason: str | None = None      # the assumed/silent/open text
    source: str | None = None      # the rulebook the quote is from
    note: str | None = None
    ruleset: str = ""              # id of the ruleset file that set it
    where: Location | None = None
    readings: tuple[Reading, ...] = ()   # other values the quote allows
    reading: str | None = None     # the reading in force, when one was chosen (RULESET@READING)
    claims: tuple[Claim, ...] = ()       # the statements the value rests on, each with its evidence

    @property
    def has_value(self) -> bool:
        return self.kind in ("cited", "assumed")

    def to_json(self) -> dict:
        out: dict[str, Any] = {"kind": self.kind, "ruleset": self.ruleset,
                               "where": str(self.where) if self.where else None}
        if self.has_value:
            out["value"] = self.value
        if self.quotes:
            out.update(source=self.source, quote=list(self.quotes), gloss=self.gloss)
        if self.reason:
            out[self.kind if self.kind != "cited" else "reason"] = self.reason
        if self.note:
            out["note"] = self.note
        if self.readings:
            out["readings"] = [rd.to_json() for rd in self.readings]
        if self.reading:
            out["reading"] = self.reading
        if self.claims:
            out["claims"] = [c.to_json() for c in self.claims]
        return out


@dataclass(frozen=True)
class RulesetFile:
    id: str
    title: str
    path: Path
    source: str | None
    language: str | None
    kind: str                       # ruleset | overlay
    extends: tuple[str, ...]
    description: str | None
    promises: dict[str, bool]
    entries: dict[str, Entry]
    lines: dict = field(default_factory=dict, compare=False, repr=False)
    #: rules the catalogue cannot express, in the table's own words: shown, never played or checked
    extra_rules: tuple[str, ...] = ()

    def loc(self, *path) -> Location:
        return Location(display(self.path), self.lines.get(path) or self.lines.get(path[:1]))


def parse_ruleset_file(path: Path, catalogue: Catalogue | None = None,
                       check_quotes: bool = True) -> RulesetFile:
    """Load and check one file. Raises ErrorList with every problem found in it."""
    cat = catalogue or load_catalogue()
    name = display(path)
    try:
        text = read_text(path, name)
    except OSError as exc:
        raise SpecError("E001", f"cannot read file: {exc}", Location(name)) from None
    data, lines = load_yaml(text, name)
    loc = lambda *p: Location(name, lines.get(p) or (lines.get(p[:-1]) if len(p) > 1 else None) or 1)  # noqa: E731
    if not isinstance(data, dict):
        raise SpecError("E009", "a ruleset file must be a mapping with id, title and rules", loc())
    errors: list[VerifyError] = []
    unknown_top = sorted(set(map(str, data)) - _TOP)
    for key in unknown_top:
        errors.append(SpecError("E009", f"unknown top-level key {key!r}; allowed: {sorted(_TOP)}",
                                loc(key)))
    rid = data.get("id")
    if not isinstance(rid, str) or not rid.strip():
        raise SpecError("E009", "'id' must be a non-empty string", loc("id"))
    if set(rid) & set(ID_RESERVED) or rid != rid.strip():
        shown = " ".join(repr(c) for c in ID_RESERVED if c in rid) or "spaces around it"
        raise SpecError("E009", f"'id' {rid!r} holds {shown}: on the command line '+' stacks rulesets, "
                        "'@' chooses a reading and '/' or '\\' make a file path, so an id cannot hold them "
                        "(use letters, digits and '-')", loc("id"))
    kind = data.get("kind", "ruleset")
    if kind not in ("ruleset", "overlay"):
        errors.append(SpecError("E009", "'kind' must be ruleset or overlay", loc("kind")))
    extends = data.get("extends") or []
    if isinstance(extends, str):
        extends = [extends]
    if not isinstance(extends, list) or not all(isinstance(e, str) for e in extends):
        errors.append(SpecError("E009", "'extends' must be a ruleset id or a list of ids", loc("extends")))
        extends = []
    source = data.get("source")
    if source == OWN_WORDS:
        source = None
    if source is not None:
        try:
            load_source(source)
        except SpecError as exc:
            errors.append(SpecError("E010", exc.message, loc("source")))
            source = None
    promises = data.get("promises") or {}
    if not isinstance(promises, dict) or not all(isinstance(v, bool) for v in promises.values()):
        errors.append(SpecError("E009", "'promises' maps invariant ids to true/false", loc("promises")))
        promises = {}
    extra = data.get("extra_rules") or []
    if not isinstance(extra, list) or not all(isinstance(x, str) and x.strip() for x in extra):
        errors.append(SpecError("E009", "'extra_rules' is a list of rules in your own words (each a non-empty "
                                "string): shown by every command, never played or checked", loc("extra_rules")))
        extra = []
    rules = data.get("rules") or {}
    if not isinstance(rules, dict):
        raise ErrorList(errors + [SpecError("E009", "'rules' must be a mapping", loc("rules"))])
    entries: dict[str, Entry] = {}
    for pid, spec in rules.items():
        try:
            entries[pid] = _parse_entry(str(pid), spec, rid, source, cat, loc, check_quotes)
        except ErrorList as exc:
            errors.extend(exc.errors)
        except VerifyError as exc:
            errors.append(exc)
    if errors:
        raise ErrorList(errors)
    return RulesetFile(
        id=rid, title=str(data.get("title") or rid), path=Path(path), source=source,
        language=data.get("language"), kind=kind, extends=tuple(extends),
        description=data.get("description"), promises=dict(promises), entries=entries, lines=lines,
        extra_rules=tuple(" ".join(x.split()) for x in extra),
    )


def _parse_entry(pid, spec, rid, default_source, cat, loc, check_quotes) -> Entry:
    where = loc("rules", pid)
    if pid not in cat:
        raise SpecError("E002", f"unknown parameter {pid!r}{cat.suggest(pid)}", where)
    if not isinstance(spec, dict):
        raise SpecError("E028", f"{pid}: an entry is a mapping with value+quote+gloss, "
                        "value+assumed, silent, or open+quote+gloss", where)
    extra = sorted(set(spec) - _ENTRY)
    if extra:
        raise SpecError("E028", f"{pid}: unknown field(s) {extra}; allowed: {sorted(_ENTRY)}",
                        loc("rules", pid, extra[0]))
    has = {k for k in ("quote", "assumed", "silent", "open") if k in spec}
    if has == {"quote"}:
        kind = "cited"
    elif has == {"assumed"}:
        kind = "assumed"
    elif has == {"silent"}:
        kind = "silent"
    elif has == {"open", "quote"}:
        kind = "open"
    elif has == {"open"} and spec.get("source", default_source) in (None, OWN_WORDS):
        kind = "open"                        # a table's own undecided value, in its own words
    elif has == {"open"}:
        raise SpecError("E028", f"{pid}: an open entry of a rulebook quotes the words that leave the value "
                        "open (open + quote + gloss); a table of your own (no 'source', or 'source: table') "
                        "says it in its own words: open alone", where)
    else:
        raise SpecError("E028", f"{pid}: give exactly one of quote (cited), assumed, silent, "
                        f"or open (+ quote when a rulebook says it); found {sorted(has) or 'none'}", where)
    if kind in ("cited", "assumed") and "value" not in spec:
        raise SpecError("E028", f"{pid}: a {kind} entry needs a value", where)
    if kind in ("silent", "open") and "value" in spec:
        raise SpecError("E028", f"{pid}: a {kind} entry has no value", loc("rules", pid, "value"))
    errors: list[VerifyError] = []
    value = spec.get("value")
    if kind in ("cited", "assumed"):
        why = cat[pid].check(value)
        if why:
            errors.append(SpecError("E003", f"{pid}: {why}", loc("rules", pid, "value")))
    quotes: tuple[str, ...] = ()
    checked = False                          # the quotes were found in their source (E007, E023 checked)
    source = spec.get("source", default_source)
    if source == OWN_WORDS:
        source = None
    if kind == "cited" or (kind == "open" and "quote" in spec):
        q = spec["quote"]
        quotes = (q,) if isinstance(q, str) else tuple(q) if isinstance(q, list) else ()
        if not quotes or not all(isinstance(x, str) and x.strip() for x in quotes):
            errors.append(SpecError("E028", f"{pid}: quote must be a string or a list of strings",
                                    loc("rules", pid, "quote")))
            quotes = ()
        if not isinstance(spec.get("gloss"), str) or not spec["gloss"].strip():
            errors.append(SpecError("E028", f"{pid}: a quote needs an English gloss", where))
        if source is None:
            errors.append(SpecError("E010", f"{pid}: a quote needs a source (set 'source' in the "
                                    "file or the entry)", where))
        elif check_quotes:
            try:
                src = load_source(source)
            except SpecError as exc:
                errors.append(SpecError("E010", f"{pid}: {exc.message}", loc("rules", pid, "source")))
            else:
                for i, q in enumerate(quotes):
                    if not src.contains(q):
                        qloc = loc("rules", pid, "quote", i) if len(quotes) > 1 or isinstance(
                            spec["quote"], list) else loc("rules", pid, "quote")
                        errors.append(SpecError("E007", f"{pid}: quote does not occur in {source} "
                                                f"(after NFC and whitespace folding): {q[:90]!r}", qloc))
                errors.extend(_quote_problems(pid, kind, value, quotes, spec, loc))
                checked = True
    readings: list[Reading] = []
    if "readings" in spec:
        readings, problems = parse_readings(pid, spec["readings"], kind, value, cat[pid], loc)
        errors.extend(problems)
        for rd in readings if checked and kind == "cited" else ():   # the same words must give its number too
            missing = missing_numbers(rd.value, quotes, rd.gloss)
            if missing:
                errors.append(_unquoted(pid, f"reading {rd.name}: its value's", missing, "the reading's gloss",
                                        rd.where))
    claims: list[Claim] = []
    if "claims" in spec:
        claims, problems = parse_claims(pid, spec["claims"], kind, value, source, loc,
                                        _in_source if check_quotes else None)
        errors.extend(problems)
    reason = spec.get(kind) if kind in ("assumed", "silent", "open") else None
    if kind in ("assumed", "open") and (not isinstance(reason, str) or not reason.strip()):
        errors.append(SpecError("E028", f"{pid}: '{kind}' needs a reason text", where))
    if kind == "silent":
        reason = reason if isinstance(reason, str) else None
    reason = reason.strip() if isinstance(reason, str) else reason   # a folded YAML block ends in a newline
    if errors:
        raise ErrorList(errors)
    return Entry(param=pid, kind=kind, value=value, quotes=quotes, gloss=spec.get("gloss"),
                 reason=reason, source=source if quotes else None, note=spec.get("note"),
                 ruleset=rid, where=where, readings=tuple(readings), claims=tuple(claims))


def _in_source(source: str, quote: str) -> bool:
    try:
        return load_source(source).contains(quote)
    except SpecError:
        return False


def _quote_problems(pid, kind, value, quotes, spec, loc) -> list[VerifyError]:
    """E023: each quote long enough to be a citation, and a cited number given by its quotes."""
    listed = isinstance(spec["quote"], list)
    out: list[VerifyError] = [
        SpecError("E023", f"{pid}: the quote {q!r} is {len(q.split())} word(s); a citation is at least "
                  f"{MIN_WORDS} words of the source (quote the clause that states the rule)",
                  loc("rules", pid, "quote", i) if listed else loc("rules", pid, "quote"))
        for i, q in short_quotes(quotes)]
    missing = missing_numbers(value, quotes, spec.get("gloss")) if kind == "cited" else []
    if missing:
        out.append(_unquoted(pid, "the value's", missing, "the gloss", loc("rules", pid, "value")))
    return out


def _unquoted(pid, whose, missing, gloss, where) -> SpecError:
    """E023 for the numbers of a value (the entry's, or a reading's) that no quote of the entry gives."""
    shown = ", ".join(f"{v:g}" for v in missing)
    number = "number" if len(missing) == 1 else "numbers"
    appears = "appears" if len(missing) == 1 else "appear"
    return SpecError("E023", f"{pid}: {whose} {number} {shown} {appears} in none of its quotes "
                     "(as digits in the source's scale and formats, or as a number word); quote the "
                     f"passage that gives it, or say in {gloss} why it is worked out rather than "
                     "stated: [derived: WHY]", where)


@dataclass(frozen=True)
class Ruleset:
    """A resolved ruleset: one entry per catalogued parameter, each with provenance."""

    id: str
    title: str
    chain: tuple[str, ...]          # the files applied, base first
    sources: tuple[str, ...]        # every rulebook quoted, in chain order
    entries: dict[str, Entry]       # decided parameters only
    promises: dict[str, bool]
    catalogue: Catalogue = field(repr=False, compare=False)
    is_overlay: bool = False
    readings_applied: tuple[str, ...] = ()   # RULESET@READING: the readings chosen, in order
    supplied: tuple[tuple[str, Any], ...] = ()   # values given with --set (verify.spec.open_values)
    promised_by: dict[str, str] = field(default_factory=dict, compare=False)   # invariant -> the file that says so
    extra_rules: tuple[tuple[str, str], ...] = ()   # (file id, rule in its own words): shown, never played

    @property
    def money_scale(self) -> int:
        e = self.entries.get("money.scale")
        return e.value if e is not None and e.has_value else 1

    def entry(self, pid: str) -> Entry | None:
        if pid not in self.catalogue:
            raise SpecError("E002", f"unknown parameter {pid!r}{self.catalogue.suggest(pid)}")
        return self.entries.get(pid)

    def decided(self, pid: str) -> bool:
        e = self.entry(pid)
        return e is not None and e.has_value

    def value(self, pid: str) -> Any:
        """The value the ruleset gives, or the catalogue's fallback (in this money scale)."""
        e = self.entry(pid)
        if e is not None and e.has_value:
            return e.value
        return self.catalogue[pid].scaled_fallback(self.money_scale)

    def values(self) -> dict[str, Any]:
        return {pid: self.value(pid) for pid in self.catalogue.parameters}

    def undecided(self) -> list[str]:
        return [p for p in self.catalogue.parameters if p not in self.entries]

    def promised(self) -> list[str]:
        return sorted(k for k, v in self.promises.items() if v)

    def promise_note(self, invariant: str, file_name: str | None = None) -> str | None:
        """Where a promise of ``invariant`` comes from and how to drop it, when a file other than this
        ruleset's own last one made it (a table inherits its base's promises)."""
        origin = self.promised_by.get(invariant)
        if origin is None or not self.promises.get(invariant) or origin == self.chain[-1]:
            return None
        where = f" in {file_name}" if file_name else ""
        return (f"{invariant} is promised by {origin}, which {self.chain[-1]} builds on; if {self.chain[-1]} "
                f"does not keep that promise, write `promises: {{{invariant}: false}}`{where}")


def apply(base: Ruleset | None, f: RulesetFile, cat: Catalogue, new_id: str | None = None,
          own_scale: int | None = None) -> Ruleset:
    """``f``'s entries over ``base``. Stacked (an overlay, or a full ruleset whose own resolved money
    scale is ``own_scale``), its amounts are converted to the money of ``base``."""
    entries = dict(base.entries) if base else {}
    stacked = base is not None and (f.kind == "overlay" or own_scale is not None)
    entries.update(_in_base_scale(f, base, cat, own_scale) if stacked else f.entries)
    promises = dict(base.promises) if base else {}
    promises.update(f.promises)
    promised_by = dict(base.promised_by) if base else {}
    promised_by.update({inv: f.id for inv in f.promises})
    sources = list(base.sources) if base else []
    for s in [f.source] + [e.source for e in f.entries.values()]:
        if s and s not in sources:
            sources.append(s)
    return Ruleset(
        id=new_id or f.id, title=f.title if base is None or new_id is None else base.title + " + " + f.title,
        chain=(base.chain if base else ()) + (f.id,), sources=tuple(sources), entries=entries,
        promises=promises, promised_by=promised_by, catalogue=cat, is_overlay=f.kind == "overlay" and base is None,
        readings_applied=base.readings_applied if base else (), supplied=base.supplied if base else (),
        extra_rules=(base.extra_rules if base else ()) + tuple((f.id, x) for x in f.extra_rules),
    )


def _in_base_scale(f: RulesetFile, base: Ruleset, cat: Catalogue, own_scale: int | None = None) -> dict[str, Entry]:
    """An overlay's amounts are in its own money scale (classic unless it says otherwise; a full
    ruleset's, ``own_scale``, is the one it resolves to); stacked on a base of another scale they are
    converted, so a house rule of "one extra salary of 200" means 2000 on a board whose amounts are
    ten times larger."""
    own = f.entries.get("money.scale")
    written = own.value if own is not None and own.has_value else own_scale or 1
    factor_num, factor_den = base.money_scale, written
    if factor_num == factor_den:
        return f.entries
    out = {}
    for pid, e in f.entries.items():
        p = cat[pid]
        if pid == "money.scale" or not (p.is_money and e.has_value):
            out[pid] = e
            continue
        note = (f"written as {e.value!r} in {f.id}'s money; scaled to the money of the ruleset it is stacked on "
                f"(x{factor_num}/{factor_den})")
        out[pid] = replace(e, value=_scaled(e.value, factor_num, factor_den),
                           note=(e.note + " " if e.note else "") + note,
                           readings=tuple(replace(rd, value=_scaled(rd.value, factor_num, factor_den))
                                          for rd in e.readings))
    if "money.scale" in out:  # the base keeps its own scale
        del out["money.scale"]
    return out


def _scaled(value: Any, num: int, den: int) -> Any:
    if isinstance(value, list):
        return [_scaled(v, num, den) for v in value]
    return value * num // den if isinstance(value, int) and not isinstance(value, bool) else value


def rename(r: Ruleset, new_id: str, title: str) -> Ruleset:
    return replace(r, id=new_id, title=title)
