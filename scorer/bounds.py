"""The range of every number a request can carry, kept beside the field that holds it.

A settings or request dataclass declares a bounded whole number with ``bounded(default, low, high)``; the range
rides in the field's metadata, where ``bounds_of`` finds it. ``scorer.request`` checks a request's numbers against
these ranges before any work, and the HTTP service builds its schema's ``minimum`` and ``maximum`` from them, so the
two cannot disagree. Each range is as wide as a real table needs and narrow enough that no value can make a
hand's scoring, or the size of its result, grow without bound.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Table:
...     honba: int = bounded(0, 0, 99)
>>> bounds_of(Table)["honba"].check(100, "riichi.honba")
Traceback (most recent call last):
...
scorer.errors.ContextError: 'riichi.honba' must be a whole number from 0 to 99, not 100
"""

from __future__ import annotations

import dataclasses
import reprlib
from dataclasses import dataclass, field
from typing import Any

from .errors import ContextError

_KEY = "bounds"
_SHOWN = 36  # characters of a wrong string shown in a message


@dataclass(frozen=True, slots=True)
class Bounds:
    """A whole number from ``low`` to ``high``, both included."""

    low: int
    high: int

    def check(self, value: Any, where: str) -> int:
        """``value`` when it is a whole number in range (``2.0`` is 2, as in JSON); a ``ContextError`` that names
        ``where`` otherwise."""
        if isinstance(value, float) and value.is_integer() and self.low <= value <= self.high:
            return int(value)
        if isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high:
            return value
        msg = f"{where!r} must be a whole number from {self.low} to {self.high}, not {shown(value)}"
        raise ContextError(msg)


def bounded(default: int, low: int, high: int) -> Any:
    """A dataclass field holding a whole number from ``low`` to ``high`` (the range is in its metadata)."""
    return field(default=default, metadata={_KEY: Bounds(low, high)})


def bounds_of(cls: type) -> dict[str, Bounds]:
    """The ranges of a dataclass's bounded fields, by field name, in field order."""
    found = _BY_CLASS.get(cls)
    if found is None:  # (two threads may both build it: the same, whole value)
        found = _BY_CLASS[cls] = {f.name: f.metadata[_KEY] for f in dataclasses.fields(cls) if _KEY in f.metadata}
    return found


_BY_CLASS: dict[type, dict[str, Bounds]] = {}


def check_bounds(obj: Any, where: str) -> None:
    """Check every bounded field of the dataclass instance ``obj``; a message names ``where.<field>``."""
    for name, bounds in bounds_of(type(obj)).items():
        bounds.check(getattr(obj, name), f"{where}.{name}")


def shown(value: Any) -> str:
    """A wrong value as a message shows it: short, and never a number too long to print.

    >>> shown(10 ** 5000), shown(-3), shown("x" * 100)
    ('a number of about 5001 digits', '-3', "'xxxxxxxxxxxxxx...xxxxxxxxxxxxxxx'")
    >>> shown([list(range(10))] * 9)
    '[[0, 1, 2, 3, 4, 5, ...], [0, 1, 2, 3, 4, 5, ...], ...]'
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**18:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    return _REPR.repr(value)


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _SHOWN
