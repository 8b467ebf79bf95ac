"""MCR settings: the house rules players really differ on, each a field with the competition default."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MCRConfig:
    """Chinese Official settings.

    ``minimum``: fans a hand needs to win, flowers not counted (8 in the 1998 rules).
    ``base_points``: 底分, what every loser pays on top (8).
    ``melded_and_concealed_kong``: score one exposed plus one concealed kong as 明暗杠 (5 fans, the
    supplement in seed 000, as PyMahjongGB does); off, they score 明杠 1 + 暗杠 2 as in the 1998 table.
    """

    minimum: int = 8
    base_points: int = 8
    melded_and_concealed_kong: bool = True


DEFAULT = MCRConfig()
