"""GET /v1/rules: each rule set's fans (id, names, value) and options (name, type, default), as the scorer has them.

Rule-set packages are read defensively: what one does not expose (yet) is named in ``missing``, never a 500.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
from functools import lru_cache
from typing import Any

from fastapi import APIRouter

from api import schemas
from scorer.request import FIELDS, RULE_SETS

log = logging.getLogger(__name__)

router = APIRouter(prefix="/rules", tags=["rules"])

_PATTERN_LISTS = ("PATTERNS", "SPECIALS")  # tuples of patterns a rule set may expose
_EXTRA = ("han", "han_open", "yakuman", "kind", "number")  # scalar fields shown beside id/name/value when present


@router.get("", response_model=schemas.RulesPublic, summary="The rule sets, their fans and options")
def rules() -> dict[str, Any]:
    """Every rule set: each fan with its id, English and Chinese names and value; each option with its default."""
    return rules_table()


@lru_cache(maxsize=1)
def rules_table() -> dict[str, Any]:
    return {"request_fields": sorted(FIELDS), "rule_sets": [rule_set(name) for name in RULE_SETS]}


def rule_set(name: str) -> dict[str, Any]:
    """What ``scorer.<name>`` exposes; ``missing`` lists what it does not."""
    out: dict[str, Any] = {"rules": name, "available": False, "fans": [], "options": [], "missing": []}
    try:
        module = importlib.import_module(f"scorer.{name}")
    except Exception as exc:  # a rule set being written may not import yet
        log.warning("scorer.%s does not import: %s", name, exc)
        out["missing"].append(f"scorer.{name} (does not import: {type(exc).__name__})")
        return out
    out["available"] = callable(getattr(module, "score_request", None))
    if not out["available"]:
        out["missing"].append("score_request")
    found = False
    for attr in _PATTERN_LISTS:
        patterns = getattr(module, attr, None)
        if patterns is None:
            continue
        found = True
        for p in patterns:
            fan = _fan(p)
            if fan is not None:
                out["fans"].append(fan)
    if not found:
        out["missing"].append("PATTERNS")
    config = getattr(module, "DEFAULT", None)
    if config is None or not dataclasses.is_dataclass(config):
        out["missing"].append("DEFAULT")
    else:
        out["options"] = _options(config)
    return out


def _fan(p: Any) -> dict[str, Any] | None:
    try:
        fan: dict[str, Any] = {"id": str(p.id), "name": str(getattr(p, "name", p.id)),
                               "name_zh": str(getattr(p, "name_zh", ""))}
    except AttributeError:
        return None
    value = getattr(p, "value", None)
    if isinstance(value, bool) or not isinstance(value, int):  # Riichi: value() is a method; han are the value
        value = getattr(p, "han", None)
    fan["value"] = value if isinstance(value, int) and not isinstance(value, bool) else None
    for key in _EXTRA:
        extra = getattr(p, key, None)
        if isinstance(extra, str | int) and not isinstance(extra, bool) and key not in fan:
            fan[key] = str(extra) if isinstance(extra, str) else extra
    return fan


def _options(config: Any) -> list[dict[str, Any]]:
    docs = schemas.field_docs(type(config).__doc__ or "")
    out = []
    for f in dataclasses.fields(config):
        if f.name.startswith("_"):
            continue
        default = getattr(config, f.name)
        if not isinstance(default, str | int | float | bool | type(None)):
            default = str(default)
        type_name = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        out.append({"name": f.name, "type": type_name, "default": default, "description": docs.get(f.name, "")})
    return out
