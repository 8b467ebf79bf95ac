"""JSON in and out of the service: orjson on the hot path, the standard library where orjson cannot go.

orjson parses a request some 5 times and writes a result some 10 times faster than ``json``. It reads an integer
beyond 64 bits as a float (which every range then refuses, naming its field) and refuses one beyond 10^308;
those bodies, and any orjson will not read, are read again by ``json`` with long integers kept as floats, so that
the answer is still the field's range error rather than "not JSON". ``NaN`` and ``Infinity`` are not JSON and
are refused by both. Results beyond 64 bits (Riichi's ``aotenjou`` points) are written by ``json``.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from starlette.responses import JSONResponse

_LONGEST_INT = 4000  # digits an integer may have before it is read as a float (Python refuses more than 4300)


class NotJSON(ValueError):
    """The bytes are not JSON; the message says where."""


def loads(data: bytes | str) -> Any:
    """The JSON value of ``data``; ``NotJSON`` when it is not JSON.

    >>> loads(b'{"honba": 2}'), loads(b'{"honba": ' + b'9' * 5000 + b'}')
    ({'honba': 2}, {'honba': inf})
    """
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(data, parse_int=_whole, parse_constant=_not_json)
    except (ValueError, RecursionError, TypeError) as exc:
        what = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        msg = f"the body is not JSON: {what}"
        raise NotJSON(msg) from None


def dumps(obj: Any) -> bytes:
    """``obj`` as compact UTF-8 JSON (as Starlette's ``JSONResponse`` writes it)."""
    try:
        return orjson.dumps(obj)
    except TypeError:  # an integer beyond 64 bits
        return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


class FastJSONResponse(JSONResponse):
    """``JSONResponse`` written by ``dumps``."""

    def render(self, content: Any) -> bytes:
        return dumps(content)


def _whole(text: str) -> int | float:
    return int(text) if len(text.lstrip("-")) <= _LONGEST_INT else float(text)


def _not_json(text: str) -> None:
    msg = f"{text} is not a JSON number"
    raise ValueError(msg)
