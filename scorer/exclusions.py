"""不计 applied in one place for every rule set: a table built from a rule set's patterns.

From the first pattern of the table's order down, each pattern still counted drops the patterns it
excludes; a pattern that is itself dropped drops nothing. ``absorbs`` takes one occurrence instead of
all (MCR's 九莲宝灯 absorbs one 幺九刻).

>>> from dataclasses import dataclass, field
>>> @dataclass(frozen=True)
... class P:
...     id: str
...     excludes: frozenset = frozenset()
>>> table = ExclusionTable.of([P("a", frozenset({"b"})), P("b", frozenset({"c"})), P("c")])
>>> table.apply({"a": 1, "b": 1, "c": 1})
{'a': 1, 'c': 1}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol


class Excluding(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def excludes(self) -> frozenset[str]: ...


@dataclass(frozen=True, slots=True)
class ExclusionTable:
    order: Mapping[str, int]
    excludes: Mapping[str, frozenset[str]]
    absorbs: Mapping[str, frozenset[str]]
    _drops: tuple[int, ...] = ()  # by place in the order: the bitmask (of places) of what each excludes
    _absorbing: int = 0  # the bitmask of the patterns that absorb
    _kept: dict[int, int] = field(default_factory=dict, repr=False, compare=False)  # found -> kept, as bitmasks

    @classmethod
    def of(cls, patterns: Iterable[Excluding]) -> ExclusionTable:
        """The table of ``patterns``, ordered as given (highest first)."""
        patterns = list(patterns)
        order = {p.id: i for i, p in enumerate(patterns)}
        absorbs: dict[str, frozenset[str]] = {
            p.id: getattr(p, "absorbs", frozenset()) for p in patterns if getattr(p, "absorbs", None)}
        return cls(
            order=order,
            excludes={p.id: p.excludes for p in patterns if p.excludes},
            absorbs=absorbs,
            _drops=tuple(sum(1 << order[other] for other in p.excludes) for p in patterns),
            _absorbing=sum(1 << order[i] for i in absorbs),
        )

    def apply(self, found: Mapping[str, int]) -> dict[str, int]:
        """``found`` (pattern id to occurrences) with 不计 applied."""
        order = self.order
        mask = 0
        for pattern_id in found:
            mask |= 1 << order[pattern_id]
        if mask & self._absorbing:  # counts matter: an absorbed pattern taken down to none excludes nothing
            return self._walk(found)
        kept = self._kept.get(mask)
        if kept is None:
            if len(self._kept) >= _LIMIT:
                self._kept.clear()
            kept = self._kept[mask] = self._keep(mask)
        if kept == mask:
            return dict(found)
        return {k: n for k, n in found.items() if kept >> order[k] & 1}

    def _keep(self, mask: int) -> int:
        """The patterns kept of those found (bitmasks), from the first in the order down."""
        kept = mask
        while mask:
            low = mask & -mask
            if kept & low:
                kept &= ~self._drops[low.bit_length() - 1]
            mask ^= low
        return kept

    def _walk(self, found: Mapping[str, int]) -> dict[str, int]:
        kept = dict(found)
        for pattern_id in sorted(found, key=self.order.__getitem__):
            if pattern_id not in kept:
                continue
            for other in self.excludes.get(pattern_id, ()):
                kept.pop(other, None)
            for other in self.absorbs.get(pattern_id, ()):
                if other in kept:
                    kept[other] -= 1
                    if kept[other] <= 0:
                        del kept[other]
        return kept


_LIMIT = 1 << 16
