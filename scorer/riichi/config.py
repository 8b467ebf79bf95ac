"""Riichi settings: the house rules players really differ on, each a field with its default.

The names are those of the ``mahjong`` library's ``OptionalRules`` where they mean the same
(CONTRACT.md), so that users of that library find them. Defaults are that library's, unless the
rule document (seed 002, 日本麻将) says otherwise; each field says which and why.
The yaku the document lists under 需要商定的牌型 ("to be agreed per table") are all off by default.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bounds import bounded, check_bounds

KAZOE_LIMITED = 0  # 13 han or more without a yakuman: one yakuman (累计役满)
KAZOE_SANBAIMAN = 1  # ... capped at sanbaiman (no kazoe yakuman)
KAZOE_NO_LIMIT = 2  # ... 26 han make a double yakuman, and so on


@dataclass(frozen=True, slots=True)
class RiichiConfig:
    """Riichi settings (``options`` of a request).

    Same names and defaults as ``mahjong.OptionalRules`` 2.1.0:

    ``has_double_yakuman`` (True): 四暗刻单骑, 国士无双十三面, 纯正九莲宝灯 and 大四喜 score double
    yakuman, as the document says; off, each is one yakuman.
    ``kazoe_limit`` (0): 13+ han without a yakuman are one yakuman, "多数规则"; 1 caps them at sanbaiman
    ("部分规则不承认累计役满"); 2 lets 26 han make a double yakuman ("也有允许...多倍役满").
    ``kiriage`` (False): 4 han 30 fu and 3 han 60 fu round up to mangan (切上满贯, "部分规则").
    ``fu_for_open_pinfu`` (True): an open hand of pinfu shape won on a discard scores 30 fu, not 20.
    ``fu_for_pinfu_tsumo`` (False): on, pinfu tsumo keeps its 2 fu (30 fu) and loses the pinfu han
    ("少数规则"); off, pinfu tsumo is 20 fu.
    ``renhou_as_yakuman``: see below. ``has_daisharin`` (False): 大车轮, pairs of 2-8 pin, one yakuman.
    ``has_daisharin_other_suits`` (False): the same in man (大数邻) or sou (大竹林); implies has_daisharin.
    ``has_sashikomi_yakuman`` (False): an open riichi won on a discard is one yakuman. The document
    counts it only when the discarder was not in riichi; set it for such a hand only.
    ``limit_to_sextuple_yakuman`` (True): more than 78 han count as 78 (six yakuman).
    ``paarenchan_needs_yaku`` (True): 八连庄 needs some other yaku to be counted.
    ``has_daichisei`` (False): 大七星, seven pairs of the seven honours: one yakuman, which beside
    字一色 (always there) makes the document's double yakuman.

    Where the document differs from the library:

    ``has_open_tanyao`` (True; library False): the document gives 断幺九 to open hands and names
    the closed-only version a minority rule ("部分规则中...必须是门前清").
    ``has_aka_dora`` (True; library False): a hand written with ``0m 0p 0s`` declares red fives, and
    CONTRACT.md says Riichi gives them a dora; turn it off for tables without red fives.
    ``renhou_as_yakuman`` (True; library False): the document values 人和 at one yakuman ("部分规则
    只算满贯"); off, renhou is a 5-han yaku, as the library scores it. Renhou itself needs
    ``has_renhou``: the document lists it among the yaku to be agreed.

    Agreed yaku (需要商定的牌型), not in the library, all off:
    ``has_renhou`` 人和, ``has_open_riichi`` 开立直 (2 han; 开双立直 3 han),
    ``has_sanshoku_tsuukan`` 三色通贯 (2 closed / 1 open), ``has_sanrenkou`` 三连刻 (2),
    ``has_isshoku_sanjun`` 一色三顺 (2), ``has_shiisanpuutaa`` 十三不搭 (yakuman, only with tenhou or
    chiihou), ``has_suurenkou`` 四连刻, ``has_isshoku_yonjun`` 一色四顺, ``has_hyakumangoku`` 百万石,
    ``has_benikujaku`` 红孔雀, ``has_touhoku_shinkansen`` 东北新干线 (yakuman each),
    ``has_paarenchan`` 八连庄 (the request's ``paarenchan`` count of yakuman), ``has_ishino_uenimo``
    石上三年 (double riichi and haitei: double yakuman).
    ``aotenjou`` (False): no limits at all, yakuman count as 13 han beside the other yaku and dora
    (the library's ``Aotenjou`` scorer); the document has no such rule.
    """

    has_open_tanyao: bool = True
    has_aka_dora: bool = True
    has_double_yakuman: bool = True
    kazoe_limit: int = bounded(KAZOE_LIMITED, KAZOE_LIMITED, KAZOE_NO_LIMIT)
    kiriage: bool = False
    fu_for_open_pinfu: bool = True
    fu_for_pinfu_tsumo: bool = False
    renhou_as_yakuman: bool = True
    has_daisharin: bool = False
    has_daisharin_other_suits: bool = False
    has_sashikomi_yakuman: bool = False
    limit_to_sextuple_yakuman: bool = True
    paarenchan_needs_yaku: bool = True
    has_daichisei: bool = False
    has_renhou: bool = False
    has_open_riichi: bool = False
    has_sanshoku_tsuukan: bool = False
    has_sanrenkou: bool = False
    has_isshoku_sanjun: bool = False
    has_shiisanpuutaa: bool = False
    has_suurenkou: bool = False
    has_isshoku_yonjun: bool = False
    has_hyakumangoku: bool = False
    has_benikujaku: bool = False
    has_touhoku_shinkansen: bool = False
    has_paarenchan: bool = False
    has_ishino_uenimo: bool = False
    aotenjou: bool = False

    def __post_init__(self) -> None:
        check_bounds(self, "options")

    def enabled(self, option: str) -> bool:
        """Whether an agreed yaku's switch is on (``has_daisharin_other_suits`` implies daisharin)."""
        if option == "has_daisharin":
            return self.has_daisharin or self.has_daisharin_other_suits
        return bool(getattr(self, option))


DEFAULT = RiichiConfig()

# The library's defaults, for comparing with it (tests, bench): our fields at OptionalRules' values.
LIBRARY = RiichiConfig(has_open_tanyao=False, has_aka_dora=False, renhou_as_yakuman=False)
