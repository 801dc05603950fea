"""The rulebooks as shipped: text normalisation, quote lookup and sentences.

Quotes are compared after Unicode NFC and whitespace folding, so a quote may
wrap differently from the source but may not change a single character.
Sentences are the unit of coverage: every normative sentence of a source is
cited by some ruleset or waived with a reason.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import Location, SpecError
from ..paths import display, sources_dir
from .yamlsafe import load_yaml

_WS = re.compile(r"\s+")
# A sentence ends at . ! ? (or ;) followed by whitespace; a line break always ends one.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")

LANGUAGES = {"tr": "Turkish", "pl": "Polish", "vi": "Vietnamese", "sr": "Serbian"}


def fold(text: str) -> str:
    """NFC-normalise and fold every run of whitespace to one space."""
    return _WS.sub(" ", unicodedata.normalize("NFC", text)).strip()


@dataclass(frozen=True)
class Sentence:
    text: str      # as in the source (folded)
    line: int      # 1-based line in the source file


@dataclass(frozen=True)
class Source:
    name: str          # file name, e.g. 000_91979e7e1d6b8ee6.txt
    path: Path
    text: str
    folded: str

    def contains(self, quote: str) -> bool:
        q = fold(quote)
        return bool(q) and q in self.folded

    def line_of(self, quote: str) -> int | None:
        q = fold(quote)
        for i, line in enumerate(self.text.splitlines(), 1):
            if q and q in fold(line):
                return i
        return None

    def sentences(self) -> list[Sentence]:
        return _sentences(self.text)


def _is_heading(line: str) -> bool:
    # Headings carry no rule: short lines without closing punctuation.
    s = line.strip()
    return not s.endswith((".", "!", "?", ":", ")")) and len(s.split()) <= 8


@lru_cache(maxsize=16)
def _sentences_cached(text: str) -> tuple[Sentence, ...]:
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = fold(raw)
        if not line or _is_heading(line):
            continue
        line = re.sub(r"^[-•]\s*", "", line)
        for part in _SENTENCE_END.split(line):
            part = part.strip()
            if part:
                out.append(Sentence(part, number))
    return tuple(out)


def _sentences(text: str) -> list[Sentence]:
    return list(_sentences_cached(text))


def load_source(name: str, folder: Path | None = None) -> Source:
    if not isinstance(name, str) or not name:
        raise SpecError("E010", f"a source is a file name in rulesets/sources/, not {name!r}")
    return _load_source(name, str(folder or sources_dir()))


@lru_cache(maxsize=32)
def _load_source(name: str, folder: str) -> Source:
    path = Path(folder) / name
    if "/" in name or "\\" in name or not path.is_file():
        known = ", ".join(sorted(p.name for p in Path(folder).glob("*.txt")))
        raise SpecError("E010", f"unknown source {name!r}; known: {known}")
    text = path.read_text(encoding="utf-8")
    return Source(name, path, text, fold(text))


def all_sources(folder: Path | None = None) -> list[Source]:
    base = Path(folder or sources_dir())
    return [load_source(p.name, base) for p in sorted(base.glob("*.txt"))]


@dataclass(frozen=True)
class Waiver:
    source: str
    text: str
    reason: str
    where: Location


def load_waivers(folder: Path | None = None) -> list[Waiver]:
    """Waivers live beside the sources: ``<source stem>.waivers.yaml``."""
    base = Path(folder or sources_dir())
    out: list[Waiver] = []
    for path in sorted(base.glob("*.waivers.yaml")):
        name = display(path)
        source_name = path.name.replace(".waivers.yaml", ".txt")
        source = load_source(source_name, base)
        data, lines = load_yaml(path.read_text(encoding="utf-8"), name)
        items = (data or {}).get("waived") if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise SpecError("E030", "a waiver file needs a list 'waived' of {text, reason}",
                            Location(name, 1))
        for i, item in enumerate(items):
            where = Location(name, lines.get(("waived", i)))
            if not isinstance(item, dict) or not isinstance(item.get("text"), str) \
                    or not isinstance(item.get("reason"), str) or not item["reason"].strip():
                raise SpecError("E030", "each waiver needs 'text' and a non-empty 'reason'", where)
            if not source.contains(item["text"]):
                raise SpecError("E007", f"waived text does not occur in {source_name}: "
                                f"{item['text'][:80]!r}", where)
            out.append(Waiver(source_name, fold(item["text"]), item["reason"].strip(), where))
    return out
