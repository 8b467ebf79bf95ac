"""Guangdong settings: what the seed leaves to the table (or the server), each a field with the seed's default."""

from __future__ import annotations

from dataclasses import dataclass

from ..bounds import bounded, check_bounds


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

    cap: int = bounded(5, 1, 20)
    minimum: int = bounded(0, 0, 20)
    base: int = bounded(1, 1, 1000)
    discarder_pays_all: bool = False
    specials_over_cap: bool = True

    def __post_init__(self) -> None:
        check_bounds(self, "options")


DEFAULT = GuangdongConfig()
