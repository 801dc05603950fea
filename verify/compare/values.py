"""Values in proportion: money read in classic amounts, compared by meaning.

Sources state money in their own scale (the platform's amounts are ten times
the classic board's). Before two rulings are compared every money value is
divided by its ruleset's ``money.scale``, so a fine of 500 at scale 10 agrees
with a fine of 50 at scale 1.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..spec.catalogue import Parameter


def number(x: Any) -> Any:
    """A Fraction or float as the plainest Python number (int when whole)."""
    if isinstance(x, bool):
        return x
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else round(float(x), 4)
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def normalize(param: Parameter, value: Any, scale: int) -> Any:
    """``value`` in classic amounts when ``param`` is money; unchanged otherwise."""
    if not param.is_money or scale == 1 or value is None:
        return value
    if isinstance(value, list):
        return [number(Fraction(v) / scale) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(Fraction(value) / scale)
    return value          # a symbol such as 'any' or 'printed_price'


def same(a: Any, b: Any) -> bool:
    """Equal in meaning after normalisation (1 == 1.0, lists elementwise)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return Fraction(a) == Fraction(b)
    return a == b


def show(value: Any) -> str:
    """A value as a reader sees it."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "—"
    if isinstance(value, list):
        return ", ".join(show(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value).replace("_", " ")


def key(value: Any) -> str:
    """A hashable, order-stable key for grouping equal values."""
    if isinstance(value, list):
        return "[" + ",".join(key(v) for v in value) + "]"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(number(Fraction(value)))
    return repr(value)
