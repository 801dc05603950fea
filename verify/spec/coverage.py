"""Coverage: is every normative sentence of every source cited or waived?

A sentence counts as cited when some ruleset quote from that source overlaps
it: the quote lies inside the sentence, or the sentence inside the quote.
Waivers (``rulesets/sources/<stem>.waivers.yaml``) give a reason for each
sentence that carries no rule (descriptions, product notes, image residue).
"""

from __future__ import annotations

from dataclasses import dataclass

from .registry import Registry
from .sources import Sentence, all_sources, fold, load_waivers


@dataclass(frozen=True)
class SourceCoverage:
    source: str
    sentences: int
    cited: int
    waived: int
    uncovered: tuple[Sentence, ...]

    def to_json(self) -> dict:
        return {"source": self.source, "sentences": self.sentences, "cited": self.cited,
                "waived": self.waived, "uncovered": [s.text for s in self.uncovered]}


def quotes_by_source(reg: Registry) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in reg.files.values():
        for e in f.entries.values():
            if e.source:
                out.setdefault(e.source, []).extend(fold(q) for q in e.quotes)
            for c in e.claims:                  # a claim's quote cites its sentence too
                if c.source:
                    out.setdefault(c.source, []).extend(fold(q) for q in c.quotes)
    return out


def coverage(reg: Registry) -> list[SourceCoverage]:
    quotes = quotes_by_source(reg)
    waivers = load_waivers()
    result = []
    for src in all_sources():
        qs = quotes.get(src.name, [])
        ws = [w.text for w in waivers if w.source == src.name]
        cited = waived = 0
        uncovered = []
        for s in src.sentences():
            if any(q in s.text or s.text in q for q in qs):
                cited += 1
            elif any(w in s.text or s.text in w for w in ws):
                waived += 1
            else:
                uncovered.append(s)
        result.append(SourceCoverage(src.name, len(src.sentences()), cited, waived, tuple(uncovered)))
    return result
