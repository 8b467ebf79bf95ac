"""MCR settings: the house rules players really differ on, each a field with the competition default."""

from __future__ import annotations

from dataclasses import dataclass

from ..bounds import bounded, check_bounds


@dataclass(frozen=True, slots=True)
class MCRConfig:
    """Chinese Official settings.

    ``minimum``: fans a hand needs to win, flowers not counted (8 in the 1998 rules).
    ``base_points``: 底分, what every loser pays on top (8).
    ``melded_and_concealed_kong``: score one exposed plus one concealed kong as 明暗杠 (5 fans, the
    supplement in seed 000, as PyMahjongGB does); off, they score 明杠 1 + 暗杠 2 as in the 1998 table.
    """

    minimum: int = bounded(8, 0, 88)
    base_points: int = bounded(8, 0, 1000)
    melded_and_concealed_kong: bool = True

    def __post_init__(self) -> None:
        check_bounds(self, "options")


DEFAULT = MCRConfig()
