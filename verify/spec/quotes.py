"""Quotes must carry their value (E023): a real span of the source, giving the number it cites.

Finding a quote in its source (E007) is not enough: "a" or "200" occurs in
any rulebook. So a citation is held to two more rules:

* **Length.** Every quote is at least ``MIN_WORDS`` words of the source: the
  clause that states the rule, not a word picked out of it.
* **The number.** A cited value that is a number (or a list of numbers) must
  be given by its quotes: each number appears in some quote, in the source's
  own scale (the ruleset's values are written in it) and in the source's own
  formats: ``1500``, ``1.500``, ``1,500``, ``$1,500``, ``15 000``, a share as
  its percentage (0.1 as ``10%`` or ``yüzde 10``), a small number as a word
  where the source spells it (``üç``, ``trzy``, ``ba``, ``три``, ``half``,
  ``yarısı``, ``dwukrotnie``...).
  When the value is worked out rather than stated (2500 = "1000 extra" on a
  start of 1500; 0 for "no extra money"), the gloss says so with the marker
  ``[derived: WHY]``, which readers and reports show as it is.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Iterable

from .sources import fold

#: Fewest words a quote may have.
MIN_WORDS = 3
#: The gloss marker of a value worked out from its quote rather than stated in it.
DERIVED = re.compile(r"\[derived:\s*([^\]]*?\S)\s*\]")

# A number as sources write it: digits with thousands groups (1.500, 1,500, 15 000) and decimals.
_NUMBER = re.compile(r"\d+(?:[.,\u00a0\u202f ]\d{3})*(?:[.,]\d+)?")
_WORD = re.compile(r"\w+")

#: Number words of the bundled sources' languages (tr, pl, vi, sr in both scripts) and English,
#: the forms the rulebooks use (ordinals count: "the third die" gives a third die).
_WORDS: dict[float, tuple[str, ...]] = {
    0: ("zero", "sıfır", "không", "нула", "nula"),
    0.5: ("half", "yarı", "yarısı", "yarısına", "yarısını", "yarım", "połowa", "połowę", "połowy",
          "nửa", "пола", "pola", "половина", "половину", "polovina", "polovinu"),
    0.25: ("quarter", "çeyrek", "ćwierć", "четвртина", "četvrtina"),
    1: ("one", "once", "single", "first", "bir", "birer", "birinci", "tek", "jeden", "jedna", "jedno",
        "jednej", "jednego", "jednym", "pierwszy", "một", "један", "једна", "једну", "jedan", "jednu",
        "први", "prvi"),
    2: ("two", "twice", "double", "doubles", "both", "second", "iki", "ikişer", "ikinci", "dwa", "dwie",
        "dwóch", "dwoma", "dwiema", "oba", "obie", "obu", "obiema", "podwaja", "podwójny", "podwójną",
        "dwukrotnie", "drugi", "hai", "đôi", "два", "две", "двоструко", "дупло", "дуплира", "dva", "dve",
        "dvostruko", "duplo", "duplira", "други", "drugi"),
    3: ("three", "thrice", "third", "üç", "üçer", "üçüncü", "trzy", "trzech", "trzema", "trzeci",
        "trzecia", "trzeciej", "trzecim", "trzykrotnie", "ba", "три", "трећа", "трећи", "tri", "treća",
        "treći"),
    4: ("four", "fourth", "dört", "dörder", "dördüncü", "cztery", "czterech", "czwarty", "bốn", "tư",
        "четири", "четврти", "četiri", "četvrti"),
    5: ("five", "fifth", "beş", "beşer", "beşinci", "pięć", "piąty", "năm", "пет", "pet", "пети", "peti"),
    6: ("six", "sixth", "altı", "sześć", "sáu", "шест", "šest"),
    7: ("seven", "yedi", "siedem", "bảy", "седам", "sedam"),
    8: ("eight", "sekiz", "osiem", "tám", "осам", "osam"),
    9: ("nine", "dokuz", "dziewięć", "chín", "девет", "devet"),
    10: ("ten", "dziesięć", "mười", "десет", "deset"),
    12: ("twelve", "dwanaście", "дванаест", "dvanaest"),
    20: ("twenty", "yirmi", "dwadzieścia", "hai mươi", "двадесет", "dvadeset"),
    100: ("hundred", "yüz", "sto", "trăm", "сто"),
}
_WORD_VALUE = {unicodedata.normalize("NFC", w): v for v, ws in _WORDS.items() for w in ws}


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def numbers_in(text: str) -> set[float]:
    """Every number ``text`` gives, in each way its digits may be read, and its number words."""
    out: set[float] = set()
    for m in _NUMBER.finditer(text):
        token = m.group(0)
        digits = re.sub(r"[^\d]", "", token)
        seps = re.findall(r"[.,\u00a0\u202f ]", token)
        if all(len(g) == 3 for g in re.split(r"[.,\u00a0\u202f ]", token)[1:]):
            out.add(float(digits))                       # 1.500 / 1,500 / 15 000 as thousands
        if len(seps) == 1 and seps[0] in ".,":
            out.add(float(token.replace(",", ".")))     # 1,5 / 2.5 as decimals
        elif not seps:
            out.add(float(token))
    words = [w.lower() for w in _WORD.findall(unicodedata.normalize("NFC", text))]
    out.update(_WORD_VALUE[w] for w in words if w in _WORD_VALUE)
    joined = " ".join(words)
    out.update(v for w, v in _WORD_VALUE.items() if " " in w and w in joined)
    return out


def _given(value: float, numbers: set[float]) -> bool:
    if any(abs(value - n) < 1e-9 for n in numbers):
        return True
    return 0 < value <= 1 and any(abs(value * 100 - n) < 1e-6 for n in numbers)   # a share as a percentage


def derived_reason(gloss: str | None) -> str | None:
    """The reason of a ``[derived: WHY]`` marker in the gloss, if it has one."""
    m = DERIVED.search(gloss or "")
    return m.group(1) if m else None


def short_quotes(quotes: Iterable[str]) -> list[tuple[int, str]]:
    """(index, quote) of every quote shorter than ``MIN_WORDS`` words."""
    return [(i, q) for i, q in enumerate(quotes) if len(fold(q).split()) < MIN_WORDS]


def missing_numbers(value: Any, quotes: Iterable[str], gloss: str | None) -> list[float]:
    """The numbers of a cited ``value`` that none of its quotes gives (none when the gloss says why)."""
    wanted = [value] if is_number(value) else [v for v in value if is_number(v)] \
        if isinstance(value, list) else []
    if not wanted or derived_reason(gloss):
        return []
    numbers: set[float] = set()
    for q in quotes:
        numbers |= numbers_in(q)
    return [v for v in dict.fromkeys(wanted) if not _given(float(v), numbers)]


__all__ = ["MIN_WORDS", "DERIVED", "numbers_in", "short_quotes", "missing_numbers", "derived_reason",
           "is_number"]
