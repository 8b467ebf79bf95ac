"""One hand per yaku and yakuman of seed 002 (番数计算 A-C), asserting the exact yaku multiset and the han.

Expected values come from the document; the seat is South and the round East unless a case says
otherwise (so East is the round wind, South the seat wind, West and North score nothing).
"""

from __future__ import annotations

from typing import Any

import pytest

from scorer.errors import NotWinningError
from scorer.request import score_parsed
from scorer.riichi.patterns import PATTERNS

SOUTH = {"seat_wind": "S", "round_wind": "E"}


def run(hand: str, request: dict[str, Any] | None = None, riichi: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None) -> Any:
    req: dict[str, Any] = {"rules": "riichi", "hand": hand, **SOUTH, **(request or {})}
    if riichi:
        req["riichi"] = riichi
    if options:
        req["options"] = options
    return score_parsed(req)


TSUMO = {"self_draw": True}
RIICHI = {"riichi": True}

# (id, hand, request fields, riichi fields, options, expected {yaku: count}, han)
CASES: list[tuple[str, str, dict[str, Any], dict[str, Any], dict[str, Any], dict[str, int], int]] = [
    # A. 普通牌型
    ("riichi", "234m456p34567s99s+8s", {}, RIICHI, {}, {"riichi": 1, "pinfu": 1}, 2),
    ("ippatsu", "234m456p34567s99s+8s", {}, {"riichi": True, "ippatsu": True}, {},
     {"riichi": 1, "ippatsu": 1, "pinfu": 1}, 3),
    ("double_riichi", "234m456p34567s99s+8s", {}, {"double_riichi": True}, {}, {"double_riichi": 1, "pinfu": 1}, 3),
    ("haku", "[555z]234m456p789s1s+1s", {}, {}, {}, {"haku": 1}, 1),
    ("hatsu", "[666z]234m456p789s1s+1s", {}, {}, {}, {"hatsu": 1}, 1),
    ("chun", "[777z]234m456p789s1s+1s", {}, {}, {}, {"chun": 1}, 1),
    ("seat_wind", "[222z]234m456p789s1s+1s", {}, {}, {}, {"seat_wind": 1}, 1),
    ("round_wind", "[111z]234m456p789s1s+1s", {}, {}, {}, {"round_wind": 1}, 1),
    ("double_wind", "[111z]234m456p789s1s+1s", {"seat_wind": "E"}, {}, {}, {"seat_wind": 1, "round_wind": 1}, 2),
    ("guest_wind", "[333z]234m456p789s1s+1s", {}, {}, {}, {}, 0),
    ("pinfu", "234m456p34567s99s+8s", {}, {}, {}, {"pinfu": 1}, 1),
    ("pinfu_tsumo", "234m456p34567s99s+8s", TSUMO, {}, {}, {"pinfu": 1, "menzen_tsumo": 1}, 2),
    ("tanyao", "234m456p34567s88s+8s", {}, {}, {}, {"tanyao": 1, "pinfu": 1}, 2),
    ("open_tanyao", "[234m]456p34567s88s+8s", {}, {}, {}, {"tanyao": 1}, 1),
    ("menzen_tsumo", "123m456p789s79m55p+8m", TSUMO, {}, {}, {"menzen_tsumo": 1}, 1),
    ("iipeikou", "112233m456p789s5p+5p", {}, {}, {}, {"iipeikou": 1}, 1),
    ("ryanpeikou", "112233m445566p7s+7s", {}, {}, {}, {"ryanpeikou": 1}, 3),
    ("chiitoitsu", "1133m2277p4466s5z+5z", {}, {}, {}, {"chiitoitsu": 1}, 2),
    ("toitoi", "[222m][444p]666s888s9s+9s", {}, {}, {}, {"toitoi": 1}, 2),
    ("sanshoku_doujun", "123m123p123s456m9p+9p", {}, {}, {}, {"sanshoku_doujun": 1}, 2),
    ("sanshoku_doujun_open", "[123m]123p123s456m9p+9p", {}, {}, {}, {"sanshoku_doujun": 1}, 1),
    ("sanshoku_doukou", "[222m]222p222s456m9p+9p", {}, {}, {}, {"sanshoku_doukou": 1}, 2),
    ("sanankou", "111m333p555s789m9p+9p", {}, {}, {}, {"sanankou": 1}, 2),
    ("sankantsu", "(1111m)(3333p)[5555s]789m9p+9p", {}, {}, {}, {"sankantsu": 1}, 2),
    ("chanta", "123m789p789s444z9s+9s", {}, {}, {}, {"chanta": 1}, 2),
    ("chanta_open", "[123m]789p789s444z9s+9s", {}, {}, {}, {"chanta": 1}, 1),
    ("junchan", "123m789p789s111s9s+9s", {}, {}, {}, {"junchan": 1}, 3),
    ("junchan_open", "[123m]789p789s111s9s+9s", {}, {}, {}, {"junchan": 1}, 2),
    ("honroutou", "[111m][999p]111s999s3z+3z", {}, {}, {}, {"honroutou": 1, "toitoi": 1}, 4),
    ("honroutou_seven_pairs", "1199m1199p11s33z4z+4z", {}, {}, {}, {"honroutou": 1, "chiitoitsu": 1}, 4),
    ("honitsu", "123m345m777m999m3z+3z", {}, {}, {}, {"honitsu": 1}, 3),
    ("honitsu_open", "[123m]345m777m999m3z+3z", {}, {}, {}, {"honitsu": 1}, 2),
    ("chinitsu", "[123m]345m777m999m5m+5m", {}, {}, {}, {"chinitsu": 1}, 5),
    ("shousangen", "[555z][666z]123m456p7z+7z", {}, {}, {}, {"shousangen": 1, "haku": 1, "hatsu": 1}, 4),
    ("ittsu", "123456789m234s1p+1p", {}, {}, {}, {"ittsu": 1}, 2),
    ("ittsu_open", "[123m]456789m234s1p+1p", {}, {}, {}, {"ittsu": 1}, 1),
    ("rinshan", "(1111m)234m456p789s5p+5p", {"self_draw": True, "kong_replacement": True}, {}, {},
     {"rinshan": 1, "menzen_tsumo": 1}, 2),
    ("haitei", "123m456p789s79m55p+8m", {"self_draw": True, "last_tile": True}, {}, {},
     {"haitei": 1, "menzen_tsumo": 1}, 2),
    ("houtei", "[123m]456p789s79m55p+8m", {"last_tile": True}, {}, {}, {"houtei": 1}, 1),
    ("chankan", "[123m]456p789s79m55p+8m", {"robbing_kong": True}, {}, {}, {"chankan": 1}, 1),
    # B. 役满牌型
    ("tenhou", "123m456p789s79m55p+8m", {"self_draw": True, "seat_wind": "E"}, {"tenhou": True}, {},
     {"tenhou": 1}, 13),
    ("chiihou", "123m456p789s79m55p+8m", TSUMO, {"chiihou": True}, {}, {"chiihou": 1}, 13),
    ("daisangen", "[555z][666z]777z123m5p+5p", {}, {}, {}, {"daisangen": 1}, 13),
    ("shousuushii", "[111z][222z]333z123m4z+4z", {}, {}, {}, {"shousuushii": 1}, 13),
    ("daisuushii", "[111z][222z]333z444z5m+5m", {}, {}, {}, {"daisuushii": 1}, 26),
    ("suuankou", "111m333p555s77m99p+7m", TSUMO, {}, {}, {"suuankou": 1}, 13),
    ("suuankou_tanki", "111m333p555s777m9p+9p", {}, {}, {}, {"suuankou_tanki": 1}, 26),
    ("kokushi", "19m19p19s1234566z+7z", {}, {}, {}, {"kokushi": 1}, 13),
    ("kokushi_13", "19m19p19s1234567z+1m", {}, {}, {}, {"kokushi_13": 1}, 26),
    ("chuuren", "1112334568999m+7m", {}, {}, {}, {"chuuren": 1}, 13),
    ("junsei_chuuren", "1112345678999m+5m", {}, {}, {}, {"junsei_chuuren": 1}, 26),
    ("tsuuiisou", "[111z]222z333z555z6z+6z", {}, {}, {}, {"tsuuiisou": 1}, 13),
    ("tsuuiisou_seven_pairs", "1122334455667z+7z", {}, {}, {}, {"tsuuiisou": 1}, 13),
    ("chinroutou", "[111m]999m111p999p1s+1s", {}, {}, {}, {"chinroutou": 1}, 13),
    ("ryuuiisou", "[234s]666s888s666z2s+2s", {}, {}, {}, {"ryuuiisou": 1}, 13),
    ("ryuuiisou_without_green", "[234s]234s666s888s4s+4s", {}, {}, {}, {"ryuuiisou": 1}, 13),
    ("suukantsu", "(1111m)(2222p)[3333s][4444s]5z+5z", {}, {}, {}, {"suukantsu": 1}, 13),
    # C. 需要商定的牌型 (options)
    ("open_riichi", "234m456p34567s99s+8s", {"self_draw": True}, {"riichi": True, "open_riichi": True},
     {"has_open_riichi": True}, {"open_riichi": 1, "pinfu": 1, "menzen_tsumo": 1}, 4),
    ("double_open_riichi", "234m456p34567s99s+8s", {"self_draw": True},
     {"double_riichi": True, "open_riichi": True}, {"has_open_riichi": True},
     {"double_open_riichi": 1, "pinfu": 1, "menzen_tsumo": 1}, 5),
    ("sashikomi", "234m456p34567s99s+8s", {}, {"riichi": True, "open_riichi": True},
     {"has_open_riichi": True, "has_sashikomi_yakuman": True}, {"sashikomi": 1}, 13),
    ("sanshoku_tsuukan", "123m456p789s234m9p+9p", {}, {}, {"has_sanshoku_tsuukan": True},
     {"sanshoku_tsuukan": 1}, 2),
    ("sanrenkou", "[222m]333m444m789p9s+9s", {}, {}, {"has_sanrenkou": True}, {"sanrenkou": 1}, 2),
    ("isshoku_sanjun", "[234m]234m234m789p9s+9s", {}, {}, {"has_isshoku_sanjun": True}, {"isshoku_sanjun": 1}, 2),
    ("renhou", "123m456p789s79m55p+8m", {}, {"renhou": True}, {"has_renhou": True}, {"renhou_yakuman": 1}, 13),
    ("renhou_mangan", "123m456p789s79m55p+8m", {}, {"renhou": True},
     {"has_renhou": True, "renhou_as_yakuman": False}, {"renhou": 1}, 5),
    ("daisharin", "2233445566778p+8p", {}, {}, {"has_daisharin": True}, {"daisharin": 1}, 13),
    ("daisuurin", "2233445566778m+8m", {}, {}, {"has_daisharin_other_suits": True}, {"daisuurin": 1}, 13),
    ("daichikurin", "2233445566778s+8s", {}, {}, {"has_daisharin_other_suits": True}, {"daichikurin": 1}, 13),
    ("shiisanpuutaa", "147m258p369s1234z+1z", {"self_draw": True, "seat_wind": "E"}, {"tenhou": True},
     {"has_shiisanpuutaa": True}, {"shiisanpuutaa": 1}, 13),
    ("suurenkou", "[222m]333m444m555m9s+9s", {}, {}, {"has_suurenkou": True}, {"suurenkou": 1}, 13),
    ("isshoku_yonjun", "[123m]123m123m123m9s+9s", {}, {}, {"has_isshoku_yonjun": True}, {"isshoku_yonjun": 1}, 13),
    ("hyakumangoku", "[999m][888m]777m666m5m+5m", {}, {}, {"has_hyakumangoku": True}, {"hyakumangoku": 1}, 13),
    ("benikujaku", "[111s][555s]777s999s7z+7z", {}, {}, {"has_benikujaku": True}, {"benikujaku": 1}, 13),
    ("touhoku_shinkansen", "123s456s789s111z4z+4z", {}, {}, {"has_touhoku_shinkansen": True},
     {"touhoku_shinkansen": 1}, 13),
    ("daichisei", "1122334455667z+7z", {}, {}, {"has_daichisei": True}, {"daichisei": 1, "tsuuiisou": 1}, 26),
    ("paarenchan", "234m456p34567s99s+8s", {"seat_wind": "E"}, {"riichi": True, "paarenchan": 1},
     {"has_paarenchan": True}, {"paarenchan": 1}, 13),
    ("ishino_uenimo", "234m456p34567s99s+8s", {"self_draw": True, "last_tile": True}, {"double_riichi": True},
     {"has_ishino_uenimo": True}, {"ishino_uenimo": 1}, 26),
    # 宝牌
    ("dora", "234m456p34567s99s+8s", {}, {"riichi": True, "dora_indicators": "3m"}, {},
     {"riichi": 1, "pinfu": 1, "dora": 1}, 3),
    ("dora_repeated_indicator", "234m456p34567s99s+8s", {}, {"riichi": True, "dora_indicators": "8s8s"}, {},
     {"riichi": 1, "pinfu": 1, "dora": 4}, 6),
    ("dora_wraps_9_to_1", "[123m]456p789s79m55p+8m", {"last_tile": True}, {"dora_indicators": "9m"}, {},
     {"houtei": 1, "dora": 1}, 2),
    ("dora_wind_and_dragon_order", "[111z]234m456p789s7z+7z", {}, {"dora_indicators": "4z6z"}, {},
     {"round_wind": 1, "dora": 5}, 6),
    ("aka_dora", "234m406p34567s99s+8s", {}, RIICHI, {}, {"riichi": 1, "pinfu": 1, "aka_dora": 1}, 3),
    ("aka_dora_off", "234m406p34567s99s+8s", {}, RIICHI, {"has_aka_dora": False}, {"riichi": 1, "pinfu": 1}, 2),
    ("ura_dora", "234m456p34567s99s+8s", {}, {"riichi": True, "dora_indicators": "1z", "ura_indicators": "1m"},
     {}, {"riichi": 1, "pinfu": 1, "ura_dora": 1}, 3),
    ("ura_dora_needs_riichi", "[123m]456p789s79m55p+8m", {"last_tile": True},
     {"dora_indicators": "1z", "ura_indicators": "1m"}, {}, {"houtei": 1}, 1),
    ("kan_dora", "(1111m)234m456p789s5p+5p", {"self_draw": True, "kong_replacement": True},
     {"dora_indicators": "9p4p"}, {}, {"rinshan": 1, "menzen_tsumo": 1, "dora": 3}, 5),
    # 不计 (exclusions)
    ("yakuman_drops_yaku", "[555z][666z]777z12m55m+3m", {}, {}, {}, {"daisangen": 1}, 13),
    ("yakuman_drops_dora", "[555z][666z]777z123m5p+5p", {}, {"dora_indicators": "4p"}, {}, {"daisangen": 1}, 13),
    ("double_yakuman_stack", "[111z][222z]333z444z5z+5z", {}, {}, {}, {"daisuushii": 1, "tsuuiisou": 1}, 39),
    ("double_yakuman_off", "[111z][222z]333z444z5m+5m", {}, {}, {"has_double_yakuman": False}, {"daisuushii": 1}, 13),
    ("isshoku_sanjun_drops_iipeikou", "123123123m789p9s+9s", {"self_draw": True}, {},
     {"has_isshoku_sanjun": True}, {"menzen_tsumo": 1, "isshoku_sanjun": 1, "junchan": 1}, 6),
]


@pytest.mark.parametrize(("hand", "request_", "riichi", "options", "expected", "han"),
                         [pytest.param(*c[1:], id=c[0]) for c in CASES])
def test_yaku(hand: str, request_: dict[str, Any], riichi: dict[str, Any], options: dict[str, Any],
              expected: dict[str, int], han: int) -> None:
    if not expected:
        with pytest.raises(NotWinningError, match="no yaku"):
            run(hand, request_, riichi, options)
        return
    result = run(hand, request_, riichi, options)
    assert {f.id: f.count for f in result.fans} == expected
    assert result.total == han == dict(result.details)["han"]


def test_every_yaku_has_a_case() -> None:
    covered = {y for c in CASES for y in c[5]}
    missing = {p.id for p in PATTERNS} - covered
    assert missing == set()


def test_open_tanyao_off_is_no_yaku() -> None:
    with pytest.raises(NotWinningError, match="no yaku"):
        run("[234m]456p34567s88s+8s", options={"has_open_tanyao": False})


def test_closed_only_yaku_vanish_when_open() -> None:
    """一杯口 needs a closed hand: open, the same tiles make no yaku."""
    with pytest.raises(NotWinningError):
        run("[789p]112233m456p5p+5p")


def test_dora_never_make_a_hand_win() -> None:
    with pytest.raises(NotWinningError, match="dora alone"):
        run("[123m]456p789s79m55p+8m", riichi={"dora_indicators": "1m4p"})


def test_not_winning_shape() -> None:
    with pytest.raises(NotWinningError, match="not a winning hand"):
        run("123m456p789s13m55p+9m")


def test_seven_pairs_needs_seven_different_pairs() -> None:
    """七对子: seven different pairs; four of a kind is not two pairs (document, 七对子)."""
    with pytest.raises(NotWinningError, match="not a winning hand"):
        run("1111m2277p4466s5z+5z")


def test_ryanpeikou_beats_seven_pairs() -> None:
    """二杯口 3 han (40 fu) is worth more than 七对子 2 han (25 fu); the better reading is shown."""
    result = run("112233m445566p7s+7s")
    assert result.decomposition == ("123m", "123m", "456p", "456p", "7s7s")


def test_rank_key_order() -> None:
    """Points first; then a real yakuman over a counted one; then han, fu, unrounded fu."""
    from scorer.hand import WinContext, parse_hand
    from scorer.riichi import DEFAULT, NO_RIICHI, rank_key
    from scorer.riichi.reading import Facts, readings

    (reading,) = readings(Facts(parse_hand("234m456p34567s99s+8s"), WinContext(), NO_RIICHI, DEFAULT))

    def key(points: int, yakuman: bool, han: int, fu: int, raw: int) -> tuple[int, bool, int, int, int]:
        return rank_key((points, yakuman, han, fu, raw, reading, {}, 0, None))

    assert key(8000, False, 13, 40, 40) < key(8100, False, 5, 30, 30)
    assert key(32000, False, 13, 40, 40) < key(32000, True, 13, 30, 30)
    assert key(12000, False, 6, 30, 30) < key(12000, False, 7, 30, 30)
    assert key(8000, False, 5, 30, 30) < key(8000, False, 5, 40, 40)
    assert key(8000, False, 5, 40, 32) < key(8000, False, 5, 40, 34)


def test_real_yakuman_beats_counted_yakuman_at_equal_points() -> None:
    """111222333m 555m 6m+6m: four concealed pungs (单骑, one yakuman with double yakuman off) or three
    equal chows with 13 han of yaku and dora (counted yakuman): the same points; the real yakuman is shown."""
    result = run("111222333m555m6m+6m", {"self_draw": True},
                 {"riichi": True, "ippatsu": True, "dora_indicators": "4m"}, {"has_double_yakuman": False})
    assert [f.id for f in result.fans] == ["suuankou_tanki"]
    assert dict(result.details)["limit"] == "yakuman"
