"""不计 applied in one place for every rule set: a table built from a rule set's patterns.

From the first pattern of the table's order down, each pattern still counted drops the patterns it
excludes; a pattern that is itself dropped drops nothing. ``absorbs`` takes one occurrence instead of
all (MCR's 九莲宝灯 absorbs one 幺九刻).

>>> from dataclasses import dataclass
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
from dataclasses import dataclass
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
        kept = dict(found)
        if self.excludes.keys().isdisjoint(found) and self.absorbs.keys().isdisjoint(found):
            return kept
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
