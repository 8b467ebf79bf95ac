"""The contract's scoring request and result as plain JSON objects, for the CLI batch and the API.

``score_request(obj)`` never raises on bad input: it answers the contract's error object
``{"ok": false, "error": {"code": ..., "message": ...}}`` and says which field is wrong.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from .bounds import Bounds, bounds_of, shown
from .errors import ContextError, ScorerError
from .hand import WINDS, WinContext, Wind, not_text, parse_hand
from .result import ScoreResult, json_string, json_value

RULE_SETS: Final[tuple[str, ...]] = ("mcr", "riichi", "guangdong", "fuzhou")
_FLAGS: Final[tuple[str, ...]] = ("self_draw", "last_tile", "kong_replacement", "robbing_kong", "last_of_kind")
_SECTIONS: Final[tuple[str, ...]] = ("riichi", "fuzhou", "guangdong")  # each rule set's own object, named after it
FIELDS: Final = frozenset(
    {"rules", "hand", "seat_wind", "round_wind", "discarder", "flowers", "options", *_FLAGS, *_SECTIONS})
MAX_TEXT: Final = 512  # the longest string a request holds: a hand is some 60 characters (1 MB took the parser 2 s)


def score_request(obj: Any) -> dict[str, Any]:
    """One request object to one result object (or the contract's error object)."""
    try:
        return score_parsed(obj).to_dict()
    except ScorerError as exc:
        return error_object(exc.code, str(exc))


def error_object(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message}}


def error_json(code: str, message: str) -> str:
    """``error_object`` as ``json.dumps(..., ensure_ascii=False)`` writes it.

    >>> error_json("not_winning", 'no "yaku" 役') == json.dumps(error_object("not_winning", 'no "yaku" 役'),
    ...                                                      ensure_ascii=False)
    True
    """
    return f'{{"ok": false, "error": {{"code": {json_value(code)}, "message": {json_string(message)}}}}}'


def answer_line(line: str, number: int, default_rules: str | None = None) -> tuple[str, bool]:
    """One line of a JSON Lines batch (line ``number``) to its answer as JSON text, and whether it scored.

    A request without ``rules`` is scored under ``default_rules`` where given. Never raises on bad input.
    """
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        return error_json("bad_request", f"line {number}: not JSON: {exc.msg} at column {exc.colno}"), False
    except ValueError as exc:  # valid JSON Python refuses to read, e.g. an integer of over 4,300 digits
        return error_json("bad_request", f"line {number}: not readable JSON: {str(exc).split(';')[0]}"), False
    except RecursionError:
        return error_json("bad_request", f"line {number}: JSON nested too deeply"), False
    if default_rules and isinstance(obj, dict) and "rules" not in obj:
        obj = {**obj, "rules": default_rules}
    try:
        return score_parsed(obj).to_json(), True
    except ScorerError as exc:
        return error_json(exc.code, f"line {number}: {exc}"), False


def score_parsed(obj: Any) -> ScoreResult:
    """Check a request object and score it; raises a ``ScorerError`` on bad input."""
    ctx = check_request(obj)
    if "hand" not in obj:
        msg = "'hand' is required: the hand in notation, e.g. \"[555z]123p789s456m5s+5s\""
        raise ContextError(msg)
    text = obj["hand"]
    if not isinstance(text, str):
        raise not_text(text)
    flowers = obj.get("flowers", "")
    if not isinstance(flowers, str):
        msg = "'flowers' must be a string of flower tiles, e.g. \"1f6f\""
        raise ContextError(msg)
    hand = parse_hand(text, flowers) if flowers else parse_hand(text)  # the hand, then the flowers, checked once
    rules = obj["rules"]
    options = obj.get("options") or {}
    module = _MODULES.get(rules) or _MODULES.setdefault(rules, importlib.import_module(f"scorer.{rules}"))
    result: ScoreResult = module.score_request(hand, ctx, options, obj)
    return result


def check_request(obj: Any, extra: frozenset[str] = frozenset()) -> WinContext:
    """Check all of a request object but its hand, before any work; returns its win context.

    The fields are known (``FIELDS`` and ``extra``), ``rules`` names a rule set, a rule set's own object (``riichi``,
    ``fuzhou``, ``guangdong``) holds facts only under that rule set (elsewhere only its defaults,
    ``section_defaults()``), every string is at most ``MAX_TEXT`` characters, and every number is whole and within
    its range (``ranges()``). A ``ContextError`` names the wrong field.
    """
    if type(obj) is not dict and not isinstance(obj, Mapping):
        msg = f"a request must be a JSON object, not {type(obj).__name__}"
        raise ContextError(msg)
    if not FIELDS.issuperset(obj) and not (FIELDS | extra).issuperset(obj):
        unknown = sorted(set(obj) - FIELDS - extra)
        msg = f"unknown field {shown(unknown[0])}; known fields: {', '.join(sorted(FIELDS | extra))}"
        raise ContextError(msg)
    rules = obj.get("rules")
    if rules not in RULE_SETS:
        msg = f"'rules' must be one of {', '.join(RULE_SETS)}, not {shown(rules)}"
        raise ContextError(msg)
    _check_texts(obj, "")
    table = ranges()
    for section in _SECTIONS:
        value = obj.get(section)
        if value is None:
            continue
        if not _is_mapping(value):
            msg = f"{section!r} must be an object"
            raise ContextError(msg)
        if section == rules:
            _check_numbers(value, table.get(section, {}), section)
        else:
            _check_unread(value, section, rules)
    options = obj.get("options")
    if options is not None and not _is_mapping(options):
        msg = "'options' must be an object"
        raise ContextError(msg)
    if options:
        _check_numbers(options, table[_OPTIONS[rules]], "options")
    return context_from(obj)


_OPTIONS: Final = {rules: f"options.{rules}" for rules in RULE_SETS}  # where each rule set's settings stand
_SCALARS: Final[tuple[type, ...]] = (str, bool, int, float, list, type(None))  # JSON's values that are no object


def _is_mapping(value: object) -> bool:
    """``isinstance(value, Mapping)``, quickly for the plain values JSON reads."""
    return type(value) is dict or (not isinstance(value, _SCALARS) and isinstance(value, Mapping))


@cache
def section_defaults() -> dict[str, dict[str, Any]]:
    """Each rule set's own object (``riichi``, ``fuzhou``, ``guangdong``) with every field at its default, as JSON
    writes it: the only content such an object may have under another rule set (the contract's request shows
    them so), since that rule set does not read it."""
    from .fuzhou import FuzhouFacts
    from .guangdong import GuangdongFacts
    from .riichi.context import RiichiContext

    out = {}
    for section, facts in (("riichi", RiichiContext), ("fuzhou", FuzhouFacts), ("guangdong", GuangdongFacts)):
        out[section] = {f.name: "" if f.default == () else f.default for f in dataclasses.fields(facts)}
    return out


def _check_unread(obj: Mapping[str, Any], section: str, rules: str) -> None:
    """Another rule set's object may only hold defaults: a fact there would be ignored, silently."""
    defaults = section_defaults()[section]
    for name, value in obj.items():
        if name not in defaults:
            msg = f"unknown field {shown(section + '.' + name)}; known: {', '.join(defaults)}"
            raise ContextError(msg)
        if not _is_default(value, defaults[name]):
            msg = (f"'{section}.{name}' is a fact of the {section} rules, which {rules} does not read: leave it out "
                   f"(or at its default, {json.dumps(defaults[name])}), or score under {section}")
            raise ContextError(msg)


def _is_default(value: Any, default: Any) -> bool:
    """``value`` is ``default`` as JSON has it: ``0.0`` is ``0``, but ``false`` is not ``0``, nor ``""`` null."""
    if default is None or value is None:
        return value is default
    same_type = type(value) is type(default) or (type(default) is int and type(value) is float)
    return same_type and bool(value == default)


@cache
def ranges() -> dict[str, dict[str, Bounds]]:
    """The range of every number a request can carry, by where it stands: ``riichi``, ``fuzhou`` (the rule sets'
    own objects) and ``options.<rules>`` (each rule set's settings). Read from the fields' own declarations."""
    from .fuzhou import FuzhouFacts
    from .riichi.context import RiichiContext

    out = {"riichi": bounds_of(RiichiContext), "fuzhou": bounds_of(FuzhouFacts)}
    for rules in RULE_SETS:
        out[f"options.{rules}"] = bounds_of(type(importlib.import_module(f"scorer.{rules}").DEFAULT))
    return out


def _check_numbers(obj: Mapping[str, Any], bounds: Mapping[str, Bounds], where: str) -> None:
    for name, limit in bounds.items():
        if name in obj:
            value = obj[name]
            if type(value) is not int or not limit.low <= value <= limit.high:  # (a plain number in range passes)
                limit.check(value, f"{where}.{name}")


def _check_texts(obj: Mapping[str, Any], where: str) -> None:
    """No string longer than ``MAX_TEXT``, at the top and one object down (the scorer's time grows with them)."""
    for name, value in obj.items():
        if isinstance(value, str):
            if len(value) > MAX_TEXT:
                msg = f"'{where}{name}' is {len(value)} characters long; at most {MAX_TEXT}"
                raise ContextError(msg)
        elif not where and _is_mapping(value):
            _check_texts(value, f"{name}.")


_MODULES: Final[dict[str, Any]] = {}  # the rule sets' modules, imported when first asked for


def context_from(obj: Mapping[str, Any]) -> WinContext:
    """The shared win context of a request object."""
    self_draw = _flag(obj, "self_draw")  # the flags in ``_FLAGS`` order, then the winds: the first wrong one named
    last_tile = _flag(obj, "last_tile")
    kong_replacement = _flag(obj, "kong_replacement")
    robbing_kong = _flag(obj, "robbing_kong")
    last_of_kind = _flag(obj, "last_of_kind")
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
    if value is not False and value is not True:
        msg = f"{name!r} must be true or false, not {shown(value)}"
        raise ContextError(msg)
    return value


def _wind(obj: Mapping[str, Any], name: str, default: Wind | None) -> Wind | None:
    value = obj.get(name, default)
    if value is None or isinstance(value, Wind):
        return value
    wind = _WINDS.get(value) if isinstance(value, str) else None
    if wind is None:
        msg = f"{name!r} must be one of E, S, W, N, not {shown(value)}"
        raise ContextError(msg)
    return wind


_WINDS: Final = {w.value: w for w in WINDS}
