"""Rule-set settings from a request's ``options`` object: known names only, checked types."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping
from typing import Any, Final, TypeVar

from .bounds import bounds_of, shown
from .errors import ContextError

C = TypeVar("C")


def apply_options(config: C, options: Mapping[str, Any] | None, rules: str) -> C:
    """``config`` with ``options`` applied; an unknown name or a wrong type is a ``ContextError``.

    The same options on the same config give the same (frozen) settings object, made once.

    >>> from scorer.mcr.config import MCRConfig
    >>> apply_options(MCRConfig(), {"minimum": 6}, "mcr").minimum
    6
    """
    if not options:
        return config
    if not isinstance(options, Mapping):
        msg = "'options' must be an object"
        raise ContextError(msg)
    key: Hashable = (id(config), rules, tuple(options.items()), tuple(map(type, options.values())))  # 1 is not True
    try:
        made = _MADE.get(key)
    except TypeError:  # a value that is no bool, int or str: refused below
        made = key = None
    if made is not None and made[0] is config:
        changed: C = made[1]
        return changed
    changed = _apply(config, options, rules)
    if key is not None:
        if len(_MADE) >= 256:
            _MADE.clear()
        _MADE[key] = (config, changed)
    return changed


_MADE: Final[dict[Hashable, tuple[Any, Any]]] = {}  # (config's identity, rules, options) -> (config, settings)


def _apply(config: C, options: Mapping[str, Any], rules: str) -> C:
    fields = {f.name: f for f in dataclasses.fields(config)}  # type: ignore[arg-type]
    limits = bounds_of(type(config))
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if name not in fields:
            known = ", ".join(sorted(fields))
            msg = f"unknown option {shown(name)} for {rules}; known: {known}"
            raise ContextError(msg)
        if name in limits:  # a whole number within its range
            changes[name] = limits[name].check(value, f"options.{name}")
            continue
        current = getattr(config, name)
        if isinstance(current, bool):
            ok = isinstance(value, bool)
        elif isinstance(current, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, type(current))
        if not ok:
            msg = f"option {name!r} for {rules} takes a {type(current).__name__}, not {shown(value)}"
            raise ContextError(msg)
        changes[name] = value
    return dataclasses.replace(config, **changes)  # type: ignore[type-var]
