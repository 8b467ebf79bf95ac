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
from typing import Final, Protocol


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
    _dropped: dict[frozenset[str], frozenset[str] | None] = field(
        default_factory=dict, repr=False, compare=False)  # found ids -> the ids dropped (None: counts matter)

    @classmethod
    def of(cls, patterns: Iterable[Excluding]) -> ExclusionTable:
        """The table of ``patterns``, ordered as given (highest first)."""
        patterns = list(patterns)
        return cls(
            order={p.id: i for i, p in enumerate(patterns)},
            excludes={p.id: p.excludes for p in patterns if p.excludes},
            absorbs={p.id: getattr(p, "absorbs", frozenset()) for p in patterns if getattr(p, "absorbs", None)},
        )

    def apply(self, found: Mapping[str, int]) -> dict[str, int]:
        """``found`` (pattern id to occurrences) with 不计 applied."""
        ids = frozenset(found)
        if ids in self._dropped:
            dropped = self._dropped[ids]
        else:
            if len(self._dropped) >= _LIMIT:
                self._dropped.clear()
            dropped = self._dropped[ids] = self._drops(ids)
        if dropped is None:
            return self._walk(found)
        return {k: n for k, n in found.items() if k not in dropped} if dropped else dict(found)

    def _drops(self, ids: frozenset[str]) -> frozenset[str] | None:
        """The ids that found ids drop; None where one of them absorbs another, as the counts matter then
        (an absorbed pattern taken down to none excludes nothing)."""
        if any(not self.absorbs[i].isdisjoint(ids) for i in ids.intersection(self.absorbs)):
            return None
        kept = set(ids)
        for pattern_id in sorted(ids, key=self.order.__getitem__):
            if pattern_id in kept and pattern_id in self.excludes:
                kept.difference_update(self.excludes[pattern_id])
        return ids.difference(kept)

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


_LIMIT: Final = 1 << 16
