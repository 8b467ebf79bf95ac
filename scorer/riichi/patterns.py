"""Every yaku and yakuman of seed 002 (日本麻将, 番数计算 A-C), and the dora, as data.

Each ``Pattern`` carries its han for a closed and for an open hand (0: closed hands only), its
yakuman multiple (0 for a normal yaku), its detector (0 = absent), what it excludes (不计) and, for
the yaku the document lists as agreed per table (需要商定的牌型), the option that turns it on.
Exclusions are applied in one place, ``apply_exclusions``; the rules that are not pairwise
(a yakuman drops every normal yaku; 八连庄 needs another yaku) are named functions below it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..exclusions import ExclusionTable
from .config import RiichiConfig
from .reading import (
    DRAGONS,
    EAST,
    GREEN_BITS,
    HONORS,
    KOKUSHI,
    NORTH,
    RED_BITS,
    REGULAR,
    SEVEN_PAIRS,
    SHIISANPUUTAA,
    TANKI,
    TERMINAL_BITS,
    TERMINALS,
    WINDS,
    Reading,
)

YAKU: Final = "yaku"
DORA: Final = "dora"
# facts of the whole hand that patterns may need (``Pattern.needs``); ``Facts.gates`` holds them in this order
GATES: Final[tuple[str, ...]] = ("riichi", "self_draw", "honors", "one_suit", "orphans", "green", "kongs", "tanyao",
                                 "event", "pungs3", "pairs7")


@dataclass(frozen=True, slots=True)
class Pattern:
    id: str
    name: str  # romanised, as the ``mahjong`` library names it where it has it
    name_zh: str  # as in the document
    han: int  # closed hand; a yakuman's han are 13 times its multiple
    han_open: int  # open hand; 0 = closed hands only
    detect: Callable[[Reading], int]
    yakuman: int = 0  # 1 single, 2 double yakuman; 0 a normal yaku
    excludes: frozenset[str] = frozenset()
    option: str | None = None  # the RiichiConfig switch of an agreed yaku
    open_option: str | None = None  # the switch that allows it in an open hand (open tanyao)
    double_option: bool = False  # a double yakuman only with ``has_double_yakuman``
    kind: str = YAKU
    needs: str | None = None  # a fact of the whole hand without which it cannot be there (``GATES``)

    def value(self, closed: bool, config: RiichiConfig, multiple: int = 1) -> int:
        """Han of one occurrence in a closed or open hand under ``config`` (0: not counted).

        ``multiple`` scales a yakuman whose multiple comes from the request (八连庄).
        """
        if self.yakuman:
            times = 1 if self.double_option and not config.has_double_yakuman else self.yakuman
            return 13 * times * multiple
        if closed:
            return self.han
        if self.open_option is not None and not getattr(config, self.open_option):
            return 0
        return self.han_open


# --- detectors: one fact each -----------------------------------------------------------------------


def _riichi(r: Reading) -> int:
    return int(r.f.riichi)


def _double_riichi(r: Reading) -> int:
    return int(r.f.rc.double_riichi)


def _open_riichi(r: Reading) -> int:
    return int(r.f.rc.open_riichi)


def _double_open_riichi(r: Reading) -> int:
    return int(r.f.rc.open_riichi and r.f.rc.double_riichi)


def _ippatsu(r: Reading) -> int:
    return int(r.f.rc.ippatsu)


def _menzen_tsumo(r: Reading) -> int:
    return int(r.f.closed and r.f.self_draw)


def _pinfu(r: Reading) -> int:
    return int(r.pinfu)


def _tanyao(r: Reading) -> int:
    return int(r.f.tanyao)


def _pung_of(tile: int) -> Callable[[Reading], int]:
    def detect(r: Reading) -> int:
        return int(tile in r.pungs)

    return detect


def _seat_wind(r: Reading) -> int:
    return int(r.f.seat in r.pungs)


def _round_wind(r: Reading) -> int:
    return int(r.f.round in r.pungs)


def _same_chow_pairs(r: Reading) -> int:
    chows = r.chows
    return sum(1 for i in range(len(chows) - 1) if chows[i] == chows[i + 1] and (i == 0 or chows[i - 1] != chows[i]))


def _iipeikou(r: Reading) -> int:
    chows = r.chows
    return int(len(set(chows)) < len(chows))


def _ryanpeikou(r: Reading) -> int:
    """二杯口: two pairs of equal chows; four equal chows count too (most tables)."""
    if not r.f.closed or len(r.chows) != 4:
        return 0
    a, b, c, d = r.chows
    return int(a == b and c == d)


def _chiitoitsu(r: Reading) -> int:
    return int(r.shape == SEVEN_PAIRS)


def _toitoi(r: Reading) -> int:
    return int(len(r.pungs) == 4)


def _in_three_suits(sets: tuple[int, ...]) -> int:
    """1 when the same number stands in m, p and s among ``sets`` (chow starts or pung tiles)."""
    return int(len(sets) >= 3 and any(x < 9 and x + 9 in sets and x + 18 in sets for x in sets))


def _sanshoku_doujun(r: Reading) -> int:
    return _in_three_suits(r.chows)


def _sanshoku_doukou(r: Reading) -> int:
    return _in_three_suits(r.pungs)


def _sanankou(r: Reading) -> int:
    return int(r.shape == REGULAR and r.concealed_pungs == 3)


def _sankantsu(r: Reading) -> int:
    return int(r.f.kongs == 3)


def _outside(r: Reading, allowed: frozenset[int]) -> bool:
    """Every set and the pair hold a tile of ``allowed``, with at least one chow."""
    if r.shape != REGULAR or not r.chows or r.pair not in allowed:
        return False
    for is_chow, first, _, _ in r.sets:
        if is_chow:
            if first not in allowed and first + 2 not in allowed:
                return False
        elif first not in allowed:
            return False
    return True


_ORPHANS: Final = TERMINALS | HONORS


def _chanta(r: Reading) -> int:
    return int(r.f.honors and _outside(r, _ORPHANS))


def _junchan(r: Reading) -> int:
    return int(not r.f.honors and _outside(r, TERMINALS))


def _honroutou(r: Reading) -> int:
    return int(r.f.orphans_only and r.f.honors and r.f.kinds & TERMINAL_BITS != 0)


def _honitsu(r: Reading) -> int:
    return int(len(r.f.suits) == 1 and r.f.honors)


def _chinitsu(r: Reading) -> int:
    return int(len(r.f.suits) == 1 and not r.f.honors)


def _shousangen(r: Reading) -> int:
    return int(r.pair in DRAGONS and sum(1 for p in r.pungs if p in DRAGONS) == 2)


def _ittsu(r: Reading) -> int:
    chows = r.chows
    if len(chows) < 3:
        return 0
    for s in (0, 9, 18):
        if s in chows and s + 3 in chows and s + 6 in chows:
            return 1
    return 0


def _rinshan(r: Reading) -> int:
    return int(r.f.ctx.kong_replacement)


def _haitei(r: Reading) -> int:
    return int(r.f.ctx.last_tile and r.f.self_draw)


def _houtei(r: Reading) -> int:
    return int(r.f.ctx.last_tile and not r.f.self_draw)


def _chankan(r: Reading) -> int:
    return int(r.f.ctx.robbing_kong)


def _tenhou(r: Reading) -> int:
    return int(r.f.rc.tenhou)


def _chiihou(r: Reading) -> int:
    return int(r.f.rc.chiihou)


def _daisangen(r: Reading) -> int:
    return int(sum(1 for p in r.pungs if p in DRAGONS) == 3)


def _shousuushii(r: Reading) -> int:
    return int(r.pair in WINDS and sum(1 for p in r.pungs if p in WINDS) == 3)


def _daisuushii(r: Reading) -> int:
    return int(sum(1 for p in r.pungs if p in WINDS) == 4)


def _suuankou(r: Reading) -> int:
    return int(r.shape == REGULAR and r.concealed_pungs == 4 and r.wait != TANKI)


def _suuankou_tanki(r: Reading) -> int:
    return int(r.shape == REGULAR and r.concealed_pungs == 4 and r.wait == TANKI)


def _kokushi(r: Reading) -> int:
    return int(r.shape == KOKUSHI and r.f.concealed[r.f.win] == 1)


def _kokushi_13(r: Reading) -> int:
    """国士无双十三面: the hand waited on all thirteen (the winning tile made the pair)."""
    return int(r.shape == KOKUSHI and r.f.concealed[r.f.win] == 2)


def _nine_gates(r: Reading) -> tuple[bool, bool]:
    """(九莲宝灯, 纯正: the hand waited on nine tiles, 1112345678999 before the win)."""
    f = r.f
    if r.shape != REGULAR or f.hand.melds or f.honors or len(f.suits) != 1:
        return False, False
    base = 9 * next(iter(f.suits))
    counts = f.concealed[base : base + 9]
    need = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    if any(c < n for c, n in zip(counts, need, strict=True)):
        return False, False
    before = list(counts)
    before[f.win - base] -= 1
    return True, tuple(before) == need


def _chuuren(r: Reading) -> int:
    found, pure = _nine_gates(r)
    return int(found and not pure)


def _junsei_chuuren(r: Reading) -> int:
    found, pure = _nine_gates(r)
    return int(found and pure)


def _tsuuiisou(r: Reading) -> int:
    return int(not r.f.suits)


def _chinroutou(r: Reading) -> int:
    return int(not r.f.kinds & ~TERMINAL_BITS)


def _ryuuiisou(r: Reading) -> int:
    return int(not r.f.kinds & ~GREEN_BITS)


def _suukantsu(r: Reading) -> int:
    return int(r.f.kongs == 4)


def _sashikomi(r: Reading) -> int:
    return int(r.f.rc.open_riichi and not r.f.self_draw)


def _sanshoku_tsuukan(r: Reading) -> int:
    """三色通贯: 123, 456 and 789, each in a different suit."""
    chows = r.chows
    for a in (0, 9, 18):
        for b in (0, 9, 18):
            for c in (0, 9, 18):
                if a != b and b != c and a != c and a in chows and b + 3 in chows and c + 6 in chows:
                    return 1
    return 0


def _run_of_pungs(r: Reading) -> int:
    """The longest run of numbered pungs of one suit with consecutive ranks."""
    best = run = 0
    last = -9
    for p in r.pungs:
        run = run + 1 if p < 27 and p == last + 1 and p // 9 == last // 9 else (1 if p < 27 else 0)
        last = p
        best = max(best, run)
    return best


def _sanrenkou(r: Reading) -> int:
    return int(_run_of_pungs(r) >= 3)


def _suurenkou(r: Reading) -> int:
    return int(_run_of_pungs(r) == 4)


def _most_equal_chows(r: Reading) -> int:
    chows = r.chows
    return max((chows.count(c) for c in chows), default=0)


def _isshoku_sanjun(r: Reading) -> int:
    return int(_most_equal_chows(r) == 3)


def _isshoku_yonjun(r: Reading) -> int:
    return int(_most_equal_chows(r) == 4)


def _renhou(r: Reading) -> int:
    return int(r.f.rc.renhou and not r.f.config.renhou_as_yakuman)


def _renhou_yakuman(r: Reading) -> int:
    return int(r.f.rc.renhou and r.f.config.renhou_as_yakuman)


def _wheel(suit: int) -> Callable[[Reading], int]:
    """大车轮 and its kin: two each of 2-8 of one suit (closed)."""

    def detect(r: Reading) -> int:
        f = r.f
        base = 9 * suit
        return int(f.closed and f.kinds == 0b1111111 << base + 1 and all(
            f.counts[i] == 2 for i in range(base + 1, base + 8)))

    return detect


def _shiisanpuutaa(r: Reading) -> int:
    return int(r.shape == SHIISANPUUTAA)


def _hyakumangoku(r: Reading) -> int:
    """百万石: all characters, the ranks adding up to 100 or more (一万 = 10,000)."""
    f = r.f
    if f.honors or f.suits != (0,):
        return 0
    return int(sum((i + 1) * f.counts[i] for i in range(9)) >= 100)


def _benikujaku(r: Reading) -> int:
    return int(len(r.pungs) == 4 and not r.f.kinds & ~RED_BITS)


def _touhoku_shinkansen(r: Reading) -> int:
    """东北新干线: 一气通贯 with a pung of East and a pair of North, or the other way round."""
    if not _ittsu(r):
        return 0
    return int((EAST in r.pungs and r.pair == NORTH) or (NORTH in r.pungs and r.pair == EAST))


def _daichisei(r: Reading) -> int:
    return int(r.shape == SEVEN_PAIRS and not r.f.suits)


def _paarenchan(r: Reading) -> int:
    return int(r.f.rc.paarenchan > 0)


def _ishino_uenimo(r: Reading) -> int:
    return int(r.f.rc.double_riichi and r.f.ctx.last_tile and r.f.self_draw)


def _dora(r: Reading) -> int:
    return r.f.dora


def _aka_dora(r: Reading) -> int:
    return r.f.aka if r.f.config.has_aka_dora else 0


def _ura_dora(r: Reading) -> int:
    return r.f.ura if r.f.riichi else 0


def _ids(*names: str) -> frozenset[str]:
    return frozenset(names)


P: Final = Pattern
PATTERNS: Final[tuple[Pattern, ...]] = (
    # A. 普通牌型
    P("riichi", "Riichi", "立直", 1, 0, _riichi, needs="riichi"),
    P("ippatsu", "Ippatsu", "一发", 1, 0, _ippatsu, needs="riichi"),
    P("double_riichi", "Double Riichi", "双立直", 2, 0, _double_riichi, excludes=_ids("riichi"), needs="riichi"),
    P("haku", "Yakuhai (haku)", "役牌 白", 1, 1, _pung_of(31), needs="honors"),
    P("hatsu", "Yakuhai (hatsu)", "役牌 发", 1, 1, _pung_of(32), needs="honors"),
    P("chun", "Yakuhai (chun)", "役牌 中", 1, 1, _pung_of(33), needs="honors"),
    P("seat_wind", "Yakuhai (seat wind)", "役牌 自风", 1, 1, _seat_wind, needs="honors"),
    P("round_wind", "Yakuhai (round wind)", "役牌 场风", 1, 1, _round_wind, needs="honors"),
    P("pinfu", "Pinfu", "平和", 1, 0, _pinfu),
    P("tanyao", "Tanyao", "断幺九", 1, 1, _tanyao, open_option="has_open_tanyao", needs="tanyao"),
    P("menzen_tsumo", "Menzen Tsumo", "门前清自摸", 1, 0, _menzen_tsumo, needs="self_draw"),
    P("iipeikou", "Iipeiko", "一杯口", 1, 0, _iipeikou),
    P("ryanpeikou", "Ryanpeikou", "二杯口", 3, 0, _ryanpeikou, excludes=_ids("iipeikou", "chiitoitsu")),
    P("chiitoitsu", "Chiitoitsu", "七对子", 2, 0, _chiitoitsu, needs="pairs7"),
    P("toitoi", "Toitoi", "对对和", 2, 2, _toitoi, needs="pungs3"),
    P("sanshoku_doujun", "Sanshoku Doujun", "三色同顺", 2, 1, _sanshoku_doujun),
    P("sanshoku_doukou", "Sanshoku Doukou", "三色同刻", 2, 2, _sanshoku_doukou, needs="pungs3"),
    P("sanankou", "San Ankou", "三暗刻", 2, 2, _sanankou, needs="pungs3"),
    P("sankantsu", "San Kantsu", "三杠子", 2, 2, _sankantsu, needs="kongs"),
    P("chanta", "Chantai", "混全带幺", 2, 1, _chanta, needs="honors"),
    P("junchan", "Junchan", "纯全带幺", 3, 2, _junchan, excludes=_ids("chanta")),
    P("honroutou", "Honroutou", "混老头", 2, 2, _honroutou, excludes=_ids("chanta"), needs="orphans"),
    P("honitsu", "Honitsu", "混一色", 3, 2, _honitsu, needs="one_suit"),
    P("chinitsu", "Chinitsu", "清一色", 6, 5, _chinitsu, excludes=_ids("honitsu"), needs="one_suit"),
    P("shousangen", "Shou Sangen", "小三元", 2, 2, _shousangen, needs="honors"),
    P("ittsu", "Ittsu", "一气通贯", 2, 1, _ittsu),
    P("rinshan", "Rinshan Kaihou", "岭上开花", 1, 1, _rinshan, needs="event"),
    P("haitei", "Haitei Raoyue", "海底捞月", 1, 1, _haitei, needs="event"),
    P("houtei", "Houtei Raoyui", "河底捞鱼", 1, 1, _houtei, needs="event"),
    P("chankan", "Chankan", "抢杠", 1, 1, _chankan, needs="event"),
    # B. 役满牌型
    P("tenhou", "Tenhou", "天和", 13, 0, _tenhou, yakuman=1, needs="event"),
    P("chiihou", "Chiihou", "地和", 13, 0, _chiihou, yakuman=1, needs="event"),
    P("daisangen", "Daisangen", "大三元", 13, 13, _daisangen, yakuman=1, needs="honors"),
    P("shousuushii", "Shousuushii", "小四喜", 13, 13, _shousuushii, yakuman=1, needs="honors"),
    P("daisuushii", "Dai Suushii", "大四喜", 26, 26, _daisuushii, yakuman=2, double_option=True,
      excludes=_ids("shousuushii"), needs="honors"),
    P("suuankou", "Suu Ankou", "四暗刻", 13, 0, _suuankou, yakuman=1, needs="pungs3"),
    P("suuankou_tanki", "Suu Ankou Tanki", "四暗刻单骑", 26, 0, _suuankou_tanki, yakuman=2, double_option=True,
      excludes=_ids("suuankou"), needs="pungs3"),
    P("kokushi", "Kokushi Musou", "国士无双", 13, 0, _kokushi, yakuman=1, needs="orphans"),
    P("kokushi_13", "Kokushi Musou Juusanmen Matchi", "国士无双十三面", 26, 0, _kokushi_13, yakuman=2,
      double_option=True, excludes=_ids("kokushi"), needs="orphans"),
    P("chuuren", "Chuuren Poutou", "九莲宝灯", 13, 0, _chuuren, yakuman=1, needs="one_suit"),
    P("junsei_chuuren", "Daburu Chuuren Poutou", "纯正九莲宝灯", 26, 0, _junsei_chuuren, yakuman=2,
      double_option=True, excludes=_ids("chuuren"), needs="one_suit"),
    P("tsuuiisou", "Tsuu Iisou", "字一色", 13, 13, _tsuuiisou, yakuman=1, needs="orphans"),
    P("chinroutou", "Chinroutou", "清老头", 13, 13, _chinroutou, yakuman=1, needs="orphans"),
    P("ryuuiisou", "Ryuuiisou", "绿一色", 13, 13, _ryuuiisou, yakuman=1, needs="green"),
    P("suukantsu", "Suu Kantsu", "四杠子", 13, 13, _suukantsu, yakuman=1, needs="kongs"),
    # C. 需要商定的牌型 (agreed per table; off unless their option is on)
    P("open_riichi", "Open Riichi", "开立直", 2, 0, _open_riichi, excludes=_ids("riichi"), option="has_open_riichi",
      needs="riichi"),
    P("double_open_riichi", "Double Open Riichi", "开双立直", 3, 0, _double_open_riichi,
      excludes=_ids("riichi", "open_riichi", "double_riichi"), option="has_open_riichi", needs="riichi"),
    P("sanshoku_tsuukan", "Sanshoku Tsuukan", "三色通贯", 2, 1, _sanshoku_tsuukan, option="has_sanshoku_tsuukan"),
    P("sanrenkou", "Sanrenkou", "三连刻", 2, 2, _sanrenkou, option="has_sanrenkou", needs="pungs3"),
    P("isshoku_sanjun", "Isshoku Sanjun", "一色三顺", 2, 2, _isshoku_sanjun, excludes=_ids("iipeikou"),
      option="has_isshoku_sanjun"),
    P("renhou", "Renhou", "人和", 5, 0, _renhou, option="has_renhou", needs="event"),
    P("sashikomi", "Sashikomi", "开立直 (役满)", 13, 0, _sashikomi, yakuman=1, option="has_sashikomi_yakuman",
      needs="riichi"),
    P("renhou_yakuman", "Renhou (yakuman)", "人和 (役满)", 13, 0, _renhou_yakuman, yakuman=1, option="has_renhou",
      needs="event"),
    P("daisharin", "Daisharin", "大车轮", 13, 0, _wheel(1), yakuman=1, option="has_daisharin", needs="one_suit"),
    P("daisuurin", "Daisuurin", "大数邻", 13, 0, _wheel(0), yakuman=1, option="has_daisharin_other_suits",
      needs="one_suit"),
    P("daichikurin", "Daichikurin", "大竹林", 13, 0, _wheel(2), yakuman=1, option="has_daisharin_other_suits",
      needs="one_suit"),
    P("shiisanpuutaa", "Shiisan Puutaa", "十三不搭", 13, 0, _shiisanpuutaa, yakuman=1,
      excludes=_ids("tenhou", "chiihou"), option="has_shiisanpuutaa", needs="event"),
    P("suurenkou", "Suurenkou", "四连刻", 13, 13, _suurenkou, yakuman=1, option="has_suurenkou", needs="pungs3"),
    P("isshoku_yonjun", "Isshoku Yonjun", "一色四顺", 13, 13, _isshoku_yonjun, yakuman=1, option="has_isshoku_yonjun"),
    P("hyakumangoku", "Hyakumangoku", "百万石", 13, 13, _hyakumangoku, yakuman=1, option="has_hyakumangoku",
      needs="one_suit"),
    P("benikujaku", "Benikujaku", "红孔雀", 13, 13, _benikujaku, yakuman=1, option="has_benikujaku", needs="pungs3"),
    P("touhoku_shinkansen", "Touhoku Shinkansen", "东北新干线", 13, 13, _touhoku_shinkansen, yakuman=1,
      option="has_touhoku_shinkansen", needs="honors"),
    P("daichisei", "Daichisei", "大七星", 13, 0, _daichisei, yakuman=1, option="has_daichisei", needs="orphans"),
    P("paarenchan", "Paarenchan", "八连庄", 13, 13, _paarenchan, yakuman=1, option="has_paarenchan", needs="event"),
    P("ishino_uenimo", "Ishino Uenimo Sannen", "石上三年", 26, 0, _ishino_uenimo, yakuman=2,
      excludes=_ids("double_riichi", "haitei"), option="has_ishino_uenimo", needs="riichi"),
    # 宝牌: han, never a yaku
    P("dora", "Dora", "宝牌", 1, 1, _dora, kind=DORA),
    P("aka_dora", "Aka Dora", "红宝牌", 1, 1, _aka_dora, kind=DORA),
    P("ura_dora", "Ura Dora", "里宝牌", 1, 1, _ura_dora, kind=DORA),
)

BY_ID: Final = {p.id: p for p in PATTERNS}
YAKUMAN: Final = frozenset(p.id for p in PATTERNS if p.yakuman)
_RANKED: Final[list[Pattern]] = sorted(PATTERNS, key=lambda p: (-p.yakuman, -p.han))
_EXCLUSIONS: Final = ExclusionTable.of(_RANKED)

# 青天井 (aotenjou): a yakuman counts beside the yaku, so those it is made of are dropped,
# as the library's Aotenjou scorer drops them.
AOTENJOU_EXCLUDES: Final[dict[str, frozenset[str]]] = {
    "daisangen": _ids("haku", "hatsu", "chun", "shousangen"),
    "tsuuiisou": _ids("toitoi", "honroutou"),
    "daisuushii": _ids("toitoi"),
    "suuankou": _ids("toitoi"),
    "suuankou_tanki": _ids("toitoi"),
    "chinroutou": _ids("toitoi", "honroutou"),
    "suukantsu": _ids("toitoi"),
    "chuuren": _ids("chinitsu"),
    "junsei_chuuren": _ids("chinitsu"),
    "daisharin": _ids("chinitsu", "pinfu", "tanyao", "ryanpeikou", "chiitoitsu"),
    "daisuurin": _ids("chinitsu", "pinfu", "tanyao", "ryanpeikou", "chiitoitsu"),
    "daichikurin": _ids("chinitsu", "pinfu", "tanyao", "ryanpeikou", "chiitoitsu"),
    "ryuuiisou": _ids("honitsu"),
}


def enabled(config: RiichiConfig) -> tuple[tuple[Pattern, ...], tuple[Pattern, ...]]:
    """The yaku patterns and the dora patterns that ``config`` plays."""
    yaku = tuple(p for p in PATTERNS if p.kind == YAKU and (p.option is None or config.enabled(p.option)))
    dora = tuple(p for p in PATTERNS if p.kind == DORA)
    return yaku, dora


def apply_exclusions(found: dict[str, int]) -> dict[str, int]:
    """不计: from the highest pattern down, each pattern still counted drops those it excludes.

    A pattern that is itself excluded excludes nothing (so 开双立直 drops 双立直 and 立直, and
    双立直 has nothing left to drop).
    """
    return _EXCLUSIONS.apply(found)


def yakuman_only(found: dict[str, int]) -> dict[str, int]:
    """役满: once a yakuman is there, the normal yaku are not counted (document, 役满牌型).

    >>> yakuman_only({"daisangen": 1, "honitsu": 1})
    {'daisangen': 1}
    """
    if YAKUMAN.isdisjoint(found):
        return found
    return {p: n for p, n in found.items() if p in YAKUMAN}


def aotenjou_exclusions(found: dict[str, int]) -> dict[str, int]:
    """青天井: each yakuman present drops the yaku it is made of (``AOTENJOU_EXCLUDES``)."""
    dropped: set[str] = set()
    for pattern_id in found:
        dropped |= AOTENJOU_EXCLUDES.get(pattern_id, frozenset())
    return {p: n for p, n in found.items() if p not in dropped}


def paarenchan_needs_yaku(found: dict[str, int], needs_yaku: bool) -> dict[str, int]:
    """八连庄 counts only beside another yaku, unless ``paarenchan_needs_yaku`` is off."""
    if needs_yaku and "paarenchan" in found and len(found) == 1:
        return {}
    return found
