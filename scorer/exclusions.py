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
    # the same by place in ``order``: each id's place; by place, whether it absorbs another and the places of
    # the patterns it excludes
    _places: dict[str, int] = field(init=False, repr=False, compare=False)
    _absorbing: list[bool] = field(init=False, repr=False, compare=False)
    _drops: list[tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        places = dict(self.order)
        size = max(places.values(), default=-1) + 1
        drops: list[tuple[int, ...]] = [()] * size
        for pattern_id, excluded in self.excludes.items():
            drops[places[pattern_id]] = tuple(places[other] for other in excluded if other in places)
        absorbing = [False] * size
        for pattern_id in self.absorbs:
            absorbing[places[pattern_id]] = True
        object.__setattr__(self, "_places", places)
        object.__setattr__(self, "_absorbing", absorbing)
        object.__setattr__(self, "_drops", drops)

    @classmethod
    def of(cls, patterns: Iterable[Excluding]) -> ExclusionTable:
        """The table of ``patterns``, ordered as given (highest first)."""
        patterns = list(patterns)
        return cls(
            order={p.id: i for i, p in enumerate(patterns)},
            excludes={p.id: p.excludes for p in patterns if p.excludes},
            absorbs={p.id: getattr(p, "absorbs", frozenset()) for p in patterns if getattr(p, "absorbs", None)},
        )

    def apply(self, found: dict[str, int]) -> dict[str, int]:
        """``found`` (pattern id to occurrences) with 不计 applied."""
        places = self._places
        absorbing = self._absorbing
        held: list[int] = []  # the places of the patterns found, in the order found
        for pattern_id in found:
            place = places[pattern_id]
            if absorbing[place] and not self.absorbs[pattern_id].isdisjoint(found):
                return self._walk(found)  # the counts matter (an absorbed pattern taken down to none excludes nothing)
            held.append(place)
        drops = self._drops
        dropped = [False] * len(drops)
        for place in sorted(held):  # from the first in table order on; a pattern dropped drops nothing
            if not dropped[place]:
                for other in drops[place]:
                    dropped[other] = True
        out: dict[str, int] = {}
        i = 0
        for pattern_id, n in found.items():
            if not dropped[held[i]]:
                out[pattern_id] = n
            i += 1
        return out

    def _walk(self, found: dict[str, int]) -> dict[str, int]:
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
