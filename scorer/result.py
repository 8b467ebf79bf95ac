"""What scoring returns: the fans found and the result of one hand, both frozen."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final


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


_NOBODY_PAYS: Final = {"E": 0, "S": 0, "W": 0, "N": 0}


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(self, rules: str, total: int, fans: tuple[Fan, ...], meets_minimum: bool,
                 payments: tuple[tuple[str, int], ...], decomposition: tuple[str, ...],
                 details: tuple[tuple[str, Any], ...] = ()) -> None:
        # written out rather than generated, as mypyc compiles it (see setup.py): one per hand scored
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "fans", fans)
        object.__setattr__(self, "meets_minimum", meets_minimum)
        object.__setattr__(self, "payments", payments)
        object.__setattr__(self, "decomposition", decomposition)
        object.__setattr__(self, "details", details)

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

    def to_json(self) -> str:
        """The contract's JSON object as text, as ``json.dumps(self.to_dict(), ensure_ascii=False)`` writes it;
        each fan's text is written once and kept, as batches write the same fans again and again.

        >>> r = ScoreResult("mcr", 2, (Fan("a", "A", "甲", 2),), True, (("E", 1), ("S", -1)), ("11m",))
        >>> r.to_json() == json.dumps(r.to_dict(), ensure_ascii=False)
        True
        """
        fans = ", ".join([_fan_text(fan) for fan in self.fans])
        paid = {**_NOBODY_PAYS, **dict(self.payments)}
        payments = ", ".join([f'"{seat}": {json_value(amount)}' for seat, amount in paid.items()])
        decomposition = ", ".join([json_value(group) for group in self.decomposition])
        text = (f'{{"ok": true, "rules": {json_value(self.rules)}, "total": {json_value(self.total)}, '
                f'"fans": [{fans}], "meets_minimum": {json_value(self.meets_minimum)}, "payments": {{{payments}}}, '
                f'"decomposition": [{decomposition}]')
        if self.details:
            details = ", ".join([f"{json_value(name)}: {json_value(value)}" for name, value in self.details])
            text += f", {json_value(self.rules)}: {{{details}}}"
        return text + "}"


def json_value(value: object) -> str:
    """One JSON value as ``json.dumps(value, ensure_ascii=False)`` writes it; plain ones without its machinery,
    strings (names, groups of tiles) written once and kept."""
    if type(value) is str:
        text = _STRINGS.get(value)
        if text is None:
            text = json_string(value)
            if len(_STRINGS) < 4096:
                _STRINGS[value] = text
        return text
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if type(value) is int:
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def json_string(value: str) -> str:
    """A string as ``json.dumps(value, ensure_ascii=False)`` writes it."""
    if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return f'"{value}"'
    return json.dumps(value, ensure_ascii=False)


_STRINGS: Final[dict[str, str]] = {}  # a string -> its JSON text: names and groups of tiles, a few hundred


def _fan_text(fan: Fan) -> str:
    kept = _FAN_TEXTS.get(id(fan))
    if kept is None or kept[0] is not fan:
        if len(_FAN_TEXTS) >= 4096:
            _FAN_TEXTS.clear()
        kept = _FAN_TEXTS[id(fan)] = (fan, json.dumps(fan.to_dict(), ensure_ascii=False))  # the fan stays alive,
    return kept[1]  # so its id stays its own


_FAN_TEXTS: Final[dict[int, tuple[Fan, str]]] = {}
