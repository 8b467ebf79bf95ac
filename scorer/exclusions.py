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
    # the same as plain tables: each id's place, and by place each pattern's id and the ids it excludes (None:
    # none); the ids that absorb another
    _places: dict[str, int] = field(init=False, repr=False, compare=False)
    _ids: list[str] = field(init=False, repr=False, compare=False)
    _drops: list[frozenset[str] | None] = field(init=False, repr=False, compare=False)
    _absorbers: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        size = max(self.order.values(), default=-1) + 1
        ids = [""] * size
        drops: list[frozenset[str] | None] = [None] * size
        for pattern_id, place in self.order.items():
            ids[place] = pattern_id
            drops[place] = self.excludes.get(pattern_id)
        object.__setattr__(self, "_places", dict(self.order))
        object.__setattr__(self, "_ids", ids)
        object.__setattr__(self, "_drops", drops)
        object.__setattr__(self, "_absorbers", frozenset(self.absorbs))

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
        places = self._places
        absorbers = self._absorbers
        held: list[int] = []
        for pattern_id in found:
            held.append(places[pattern_id])
            if pattern_id in absorbers and not self.absorbs[pattern_id].isdisjoint(found):
                return self._walk(found)  # the counts matter (an absorbed pattern taken down to none excludes nothing)
        held.sort()
        ids = self._ids
        drops = self._drops
        dropped: set[str] = set()
        for place in held:  # from the first in table order on; a pattern dropped drops nothing
            excluded = drops[place]
            if excluded is not None and ids[place] not in dropped:
                dropped.update(excluded)
        out: dict[str, int] = {}
        for pattern_id, n in found.items():
            if pattern_id not in dropped:
                out[pattern_id] = n
        return out

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
