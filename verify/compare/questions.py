"""Clarification questions (``specs/questions.yaml``): each ruleset's answer, and finding them by words.

A question names the catalogue parameters that settle it; its answer for a
ruleset is that ruleset's entries for those parameters — quote and gloss,
or assumed / silent / open shown as such, never an invented answer.
``search`` ranks questions for free text in any of the sources' languages
(a simple keyword and fuzzy match over question text and tags).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import Location, SpecError
from ..paths import display, specs_dir
from ..spec.catalogue import load_catalogue
from ..spec.ruleset import Ruleset
from ..spec.yamlsafe import load_yaml
from .model import Side

_STOP = {"a", "an", "the", "is", "are", "do", "does", "you", "your", "i", "my", "me", "can", "may", "of",
         "to", "in", "on", "for", "and", "or", "what", "when", "how", "who", "if", "it", "be", "with",
         "still", "at", "by", "there", "any", "much", "many", "get", "i'm", "will", "should", "would"}
_WORD = re.compile(r"[\w$%]+", re.UNICODE)


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    params: tuple[str, ...]
    tags: tuple[str, ...]
    where: Location | None = None


@dataclass(frozen=True)
class Answer:
    """One ruleset's answer to one question: a Side per parameter."""

    ruleset: str
    sides: tuple[Side, ...]

    @property
    def status(self) -> str:
        kinds = {s.kind for s in self.sides}
        if kinds <= {"cited"}:
            return "cited"
        if "cited" in kinds:
            return "partly cited"
        for k in ("open", "assumed", "silent"):
            if k in kinds:
                return k
        return "undecided"


def load_questions(path: Path | None = None) -> tuple[Question, ...]:
    return _load(str(path or specs_dir() / "questions.yaml"))


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[Question, ...]:
    name = display(path)
    data, lines = load_yaml(Path(path).read_text(encoding="utf-8"), name)
    items = data.get("questions") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise SpecError("E030", "questions.yaml needs a list 'questions'", Location(name, 1))
    cat = load_catalogue()
    out, seen = [], set()
    for i, item in enumerate(items):
        where = Location(name, lines.get(("questions", i)))
        if not isinstance(item, dict) or not all(k in item for k in ("id", "text", "params")):
            raise SpecError("E030", "each question needs id, text and params", where)
        if item["id"] in seen:
            raise SpecError("E008", f"question {item['id']!r} is given twice", where)
        seen.add(item["id"])
        for pid in item["params"]:
            if pid not in cat:
                raise SpecError("E002", f"question {item['id']}: unknown parameter {pid!r}{cat.suggest(pid)}",
                                where)
        out.append(Question(str(item["id"]), " ".join(str(item["text"]).split()), tuple(item["params"]),
                            tuple(str(t) for t in item.get("tags") or ()), where))
    return tuple(out)


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in text if not unicodedata.combining(c)).replace("ı", "i").replace("đ", "d")


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(_fold(text)) if w not in _STOP]


def score(q: Question, query: str) -> float:
    """How well ``query`` matches ``q``: tag phrases, exact words, prefixes and near misses."""
    fq = _fold(query)
    words = _words(query)
    if not words and not fq.strip():
        return 0.0
    tag_words = {w for t in q.tags for w in _words(t)}
    text_words = set(_words(q.text)) | set(w for p in q.params for w in _words(p.replace(".", " ")))
    s = 0.0
    for t in q.tags:
        ft = _fold(t)
        if " " in ft and ft in fq:
            s += 4
    for w in words:
        if w in tag_words:
            s += 3
        elif w in text_words:
            s += 2
        else:
            pool = tag_words | text_words
            if len(w) >= 4 and any(p.startswith(w) or w.startswith(p) for p in pool if len(p) >= 4):
                s += 1.5
            elif difflib.get_close_matches(w, pool, n=1, cutoff=0.8):
                s += 1
    return s / (1 + 0.1 * len(words))


def search(query: str, questions: tuple[Question, ...] | None = None,
           limit: int = 5) -> list[tuple[Question, float]]:
    qs = questions if questions is not None else load_questions()
    ranked = sorted(((q, score(q, query)) for q in qs), key=lambda x: (-x[1], x[0].id))
    return [(q, s) for q, s in ranked if s > 0][:limit]


def answer(q: Question, r: Ruleset, ctx) -> Answer:
    return Answer(r.id, tuple(ctx.side(r, pid) for pid in q.params))
