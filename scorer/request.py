"""The contract's scoring request and result as plain JSON objects, for the CLI batch and the API.

``score_request(obj)`` never raises on bad input: it answers the contract's error object
``{"ok": false, "error": {"code": ..., "message": ...}}`` and says which field is wrong.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Final

from .errors import ContextError, ScorerError
from .hand import WINDS, WinContext, Wind, not_text, parse_hand
from .result import ScoreResult

RULE_SETS: Final = ("mcr", "riichi", "guangdong", "fuzhou")
_FLAGS: Final = ("self_draw", "last_tile", "kong_replacement", "robbing_kong", "last_of_kind")
_SECTIONS: Final = ("riichi", "fuzhou", "guangdong")  # rule-set objects; "guangdong" holds liability facts
FIELDS: Final = frozenset(
    {"rules", "hand", "seat_wind", "round_wind", "discarder", "flowers", "options", *_FLAGS, *_SECTIONS})


def score_request(obj: Any) -> dict[str, Any]:
    """One request object to one result object (or the contract's error object)."""
    try:
        return score_parsed(obj).to_dict()
    except ScorerError as exc:
        return error_object(exc.code, str(exc))


def error_object(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message}}


def score_parsed(obj: Any) -> ScoreResult:
    """Check a request object and score it; raises a ``ScorerError`` on bad input."""
    if not isinstance(obj, Mapping):
        msg = f"a request must be a JSON object, not {type(obj).__name__}"
        raise ContextError(msg)
    unknown = [] if FIELDS.issuperset(obj) else sorted(set(obj) - FIELDS)
    if unknown:
        msg = f"unknown field {unknown[0]!r}; known fields: {', '.join(sorted(FIELDS))}"
        raise ContextError(msg)
    rules = obj.get("rules")
    if rules not in RULE_SETS:
        msg = f"'rules' must be one of {', '.join(RULE_SETS)}, not {rules!r}"
        raise ContextError(msg)
    if "hand" not in obj:
        msg = "'hand' is required: the hand in notation, e.g. \"[555z]123p789s5s+5s\""
        raise ContextError(msg)
    text = obj["hand"]
    if not isinstance(text, str):
        raise not_text(text)
    flowers = obj.get("flowers", "")
    if flowers and isinstance(flowers, str):
        hand = parse_hand(text, flowers)  # the hand is read first, then the flowers, then checked once
    else:
        hand = parse_hand(text)
        if not isinstance(flowers, str):
            msg = "'flowers' must be a string of flower tiles, e.g. \"1f6f\""
            raise ContextError(msg)
    ctx = context_from(obj)
    options = obj.get("options") or {}
    if not isinstance(options, Mapping):
        msg = "'options' must be an object"
        raise ContextError(msg)
    for section in _SECTIONS:
        if section in obj and obj[section] is not None and not isinstance(obj[section], Mapping):
            msg = f"{section!r} must be an object"
            raise ContextError(msg)
    module = _MODULES.get(rules) or _MODULES.setdefault(rules, importlib.import_module(f"scorer.{rules}"))
    result: ScoreResult = module.score_request(hand, ctx, options, obj)
    return result


_MODULES: Final[dict[str, Any]] = {}  # the rule sets' modules, imported when first asked for


def context_from(obj: Mapping[str, Any]) -> WinContext:
    """The shared win context of a request object."""
    self_draw, last_tile, kong_replacement, robbing_kong, last_of_kind = (_flag(obj, name) for name in _FLAGS)
    return WinContext(
        self_draw=self_draw,
        seat_wind=_wind(obj, "seat_wind", Wind.EAST) or Wind.EAST,
        round_wind=_wind(obj, "round_wind", Wind.EAST) or Wind.EAST,
        discarder=_wind(obj, "discarder", None),
        last_tile=last_tile,
        kong_replacement=kong_replacement,
        robbing_kong=robbing_kong,
        last_of_kind=last_of_kind,
    )


def _flag(obj: Mapping[str, Any], name: str) -> bool:
    value = obj.get(name, False)
    if not isinstance(value, bool):
        msg = f"{name!r} must be true or false, not {value!r}"
        raise ContextError(msg)
    return value


def _wind(obj: Mapping[str, Any], name: str, default: Wind | None) -> Wind | None:
    value = obj.get(name, default)
    if value is None or isinstance(value, Wind):
        return value
    wind = _WINDS.get(value) if isinstance(value, str) else None
    if wind is None:
        msg = f"{name!r} must be one of E, S, W, N, not {value!r}"
        raise ContextError(msg)
    return wind


_WINDS: Final = {w.value: w for w in WINDS}
