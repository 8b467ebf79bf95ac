"""mjscore's scorer: tiles, hands, readings and the rule sets. Standard library only.

>>> score("[555z]123p789s456m5s+5s", rules="mcr").total
11
"""

from __future__ import annotations

from typing import Any

from .complete import complete_with_gold, is_complete_tiles
from .errors import ContextError, InvalidHandError, NotationError, NotWinningError, ScorerError
from .hand import Hand, Meld, MeldKind, WinContext, Wind, format_hand, parse_hand
from .request import score_parsed, score_request
from .result import Fan, ScoreResult
from .tiles import Tile, format_tiles, parse_tiles

__all__ = [
    "ContextError",
    "Fan",
    "Hand",
    "InvalidHandError",
    "Meld",
    "MeldKind",
    "NotWinningError",
    "NotationError",
    "ScoreResult",
    "ScorerError",
    "Tile",
    "WinContext",
    "Wind",
    "complete_with_gold",
    "format_hand",
    "format_tiles",
    "is_complete_tiles",
    "parse_hand",
    "parse_tile",
    "parse_tiles",
    "score",
    "score_request",
]


def parse_tile(text: str) -> Tile:
    """One tile from its name, e.g. ``"5m"`` (the detector's class names parse with this)."""
    return Tile.parse(text)


def score(hand: str | Hand, rules: str = "mcr", **request: Any) -> ScoreResult:
    """Score one hand: ``request`` takes the contract's request fields (``self_draw=True`` ...).

    Raises a ``ScorerError`` subclass on bad input.
    """
    text = hand if isinstance(hand, str) else format_hand(hand)
    return score_parsed({"rules": rules, "hand": text, **request})
