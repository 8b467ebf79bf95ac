"""Typed errors of the scorer, each with a stable ``code``.

The tree::

    ScorerError (ValueError)         code "scorer_error"   bad input or no legal win
    ├── NotationError                code "bad_notation"   the hand string cannot be read
    ├── InvalidHandError             code "invalid_hand"   tile count, a fifth copy, a meld that is no meld
    ├── ContextError                 code "bad_request"    win flags that contradict each other or the hand
    └── NotWinningError              code "not_winning"    no legal reading; Riichi: no yaku

Every message says what is wrong and where, so that it can be shown to a user as it is.
"""

from __future__ import annotations


class ScorerError(ValueError):
    """Base of every error the scorer raises on bad input."""

    code = "scorer_error"


class NotationError(ScorerError):
    """The hand string is not valid notation; ``position`` is the 0-based column."""

    code = "bad_notation"

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


class InvalidHandError(ScorerError):
    """The tiles cannot be a hand: wrong count, more than four copies, a bad meld."""

    code = "invalid_hand"


class ContextError(ScorerError):
    """The win context contradicts itself or the hand (e.g. robbing a kong on a self-draw)."""

    code = "bad_request"


class NotWinningError(ScorerError):
    """The hand has no legal winning reading under the chosen rules."""

    code = "not_winning"
