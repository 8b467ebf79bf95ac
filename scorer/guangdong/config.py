"""Guangdong settings: what the seed leaves to the table (or the server), each a field with the seed's default."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ContextError


@dataclass(frozen=True, slots=True)
class GuangdongConfig:
    """Guangdong (广东麻将) settings.

    ``cap``: 爆和, the most fans a hand within the cap can score (5 in the seed).
    ``minimum``: fans a hand needs to win; the seed's servers run 0 (无番起和), 1 and 3 (3番起和).
    ``base``: the stake of a 0-fan hand; a hand of ``n`` fans is worth ``base * 2 ** n`` from each payer.
    ``discarder_pays_all``: 包三家, on a discard the discarder pays the shares of all three (off: one share).
    ``specials_over_cap``: the special hands are worth the cap +1 to +4 (the seed's "冲上爆和+1、+2、+3番";
    with the default cap 5 these are the table's 6 to 9); off, they keep the table's numbers whatever the cap.
    """

    cap: int = 5
    minimum: int = 0
    base: int = 1
    discarder_pays_all: bool = False
    specials_over_cap: bool = True

    def __post_init__(self) -> None:
        if self.cap < 1:
            msg = f"cap (爆和) must be at least 1 fan, not {self.cap}"
            raise ContextError(msg)
        if self.minimum < 0:
            msg = f"minimum must be 0 or more fans, not {self.minimum}"
            raise ContextError(msg)
        if self.base < 1:
            msg = f"base must be a positive stake, not {self.base}"
            raise ContextError(msg)


DEFAULT = GuangdongConfig()
