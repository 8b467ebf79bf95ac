"""Fuzhou settings: where the seed contradicts itself or players differ, each a field with the chosen default."""

from __future__ import annotations

from dataclasses import dataclass

from ..bounds import bounded, check_bounds


@dataclass(frozen=True, slots=True)
class FuzhouConfig:
    """Fuzhou (福州麻将) settings.

    ``base``: 底番, the stake of one point (the seed's room sets 1); payments are points times ``base``.
    ``golden_kan``: 金坎's special. The seed says 60 twice (the list "金坎=(花+金+连庄数+5)×2+60" and
    "金坎只能自摸,与金将一样大", as big as 金雀 = 60) and 120 once (section G); 60 is the default.
    ``specials_add_on_special_win``: the seed's "特殊牌型和牌时 (三金倒、抢金、天和) ... 番数将累加": when the
    win itself is 三金倒, 抢金 or 天和, the other specials add (三金倒 never with 抢金, 金雀, 金龙). Off: only
    the highest special counts on every win, as on an ordinary discard or self-draw.
    ``all_pay_on_discard``: on a discard win all three pay the discard formula (off: only the discarder,
    the seed's "放胡"; the dealer still pays the winner his streak points when toppled).
    ``free_gold_discard``: a hand with a free gold (闲金, waiting on any tile) may win on a discard. The seed
    says no ("闲金时不能点炮和"), except when the win is 金雀 or 金龙, which holds either way.
    """

    base: int = bounded(1, 1, 1000)
    golden_kan: int = bounded(60, 0, 1000)
    specials_add_on_special_win: bool = True
    all_pay_on_discard: bool = False
    free_gold_discard: bool = False

    def __post_init__(self) -> None:
        check_bounds(self, "options")


DEFAULT = FuzhouConfig()
