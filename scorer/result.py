"""What scoring returns: the fans found and the result of one hand, both frozen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Fan:
    """One scoring element found in a hand (an MCR fan, a Riichi yaku, a Guangdong fan ...)."""

    id: str
    name: str
    name_zh: str
    value: int
    count: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "name_zh": self.name_zh, "value": self.value, "count": self.count}


_NOBODY_PAYS = {"E": 0, "S": 0, "W": 0, "N": 0}


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """The contract's result object, frozen. ``payments`` are (seat, net change) pairs, E S W N; a seat that
    neither pays nor is paid may be left out (``to_dict`` shows all four, with 0)."""

    rules: str
    total: int
    fans: tuple[Fan, ...]
    meets_minimum: bool
    payments: tuple[tuple[str, int], ...]
    decomposition: tuple[str, ...]
    details: tuple[tuple[str, Any], ...] = ()  # rule-set extras, e.g. Riichi's han, fu, limit, points

    def to_dict(self) -> dict[str, Any]:
        """The contract's JSON object."""
        out: dict[str, Any] = {
            "ok": True,
            "rules": self.rules,
            "total": self.total,
            "fans": [fan.to_dict() for fan in self.fans],
            "meets_minimum": self.meets_minimum,
            "payments": {**_NOBODY_PAYS, **dict(self.payments)},
            "decomposition": list(self.decomposition),
        }
        if self.details:
            out[self.rules] = dict(self.details)
        return out
