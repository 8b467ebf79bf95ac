"""Translation between the ``mahjong`` library's calls (the conformance vectors) and mjscore requests.

Tests only. ``to_request(line)`` gives the contract's request object for a vector line, or raises
``Untranslatable`` where the contract's request cannot say what the library was asked (e.g. haitei
on a discard: mjscore has one ``last_tile`` flag, haitei on a self-draw and houtei on a discard).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).resolve().parents[4] / "shared" / "vectors" / "riichi_mahjong_testsuite_calls.jsonl"

WINDS = {27: "E", 28: "S", 29: "W", 30: "N"}
RED_IDS = (16, 52, 88)

# the library's yaku names -> mjscore pattern ids
YAKU_IDS = {
    "Riichi": "riichi", "Ippatsu": "ippatsu", "Double Riichi": "double_riichi",
    "Yakuhai (haku)": "haku", "Yakuhai (hatsu)": "hatsu", "Yakuhai (chun)": "chun",
    "Pinfu": "pinfu", "Tanyao": "tanyao", "Menzen Tsumo": "menzen_tsumo", "Iipeiko": "iipeikou",
    "Ryanpeikou": "ryanpeikou", "Chiitoitsu": "chiitoitsu", "Toitoi": "toitoi",
    "Sanshoku Doujun": "sanshoku_doujun", "Sanshoku Doukou": "sanshoku_doukou", "San Ankou": "sanankou",
    "San Kantsu": "sankantsu", "Chantai": "chanta", "Junchan": "junchan", "Honroutou": "honroutou",
    "Honitsu": "honitsu", "Chinitsu": "chinitsu", "Shou Sangen": "shousangen", "Ittsu": "ittsu",
    "Rinshan Kaihou": "rinshan", "Haitei Raoyue": "haitei", "Houtei Raoyui": "houtei", "Chankan": "chankan",
    "Nagashi Mangan": "nagashi_mangan", "Tenhou": "tenhou", "Chiihou": "chiihou", "Daisangen": "daisangen",
    "Shousuushii": "shousuushii", "Dai Suushii": "daisuushii", "Suu Ankou": "suuankou",
    "Suu Ankou Tanki": "suuankou_tanki", "Kokushi Musou": "kokushi",
    "Kokushi Musou Juusanmen Matchi": "kokushi_13", "Chuuren Poutou": "chuuren",
    "Daburu Chuuren Poutou": "junsei_chuuren", "Tsuu Iisou": "tsuuiisou", "Chinroutou": "chinroutou",
    "Ryuuiisou": "ryuuiisou", "Suu Kantsu": "suukantsu", "Open Riichi": "open_riichi",
    "Double Open Riichi": "double_open_riichi", "Renhou": "renhou", "Renhou (yakuman)": "renhou_yakuman",
    "Sashikomi": "sashikomi", "Daisharin": "daisharin", "Daisuurin": "daisuurin", "Daichikurin": "daichikurin",
    "Daichisei": "daichisei", "Paarenchan": "paarenchan", "Dora": "dora", "Aka Dora": "aka_dora",
    "Ura Dora": "ura_dora",
}
for _w in ("east", "south", "west", "north"):
    YAKU_IDS[f"Yakuhai (seat wind {_w})"] = "seat_wind"
    YAKU_IDS[f"Yakuhai (round wind {_w})"] = "round_wind"

# the library's refusals -> mjscore error codes
ERROR_CODES = {
    "no_yaku": {"not_winning"},
    "hand_not_winning": {"not_winning", "invalid_hand"},
    "winning_tile_not_in_hand": {"invalid_hand", "bad_notation"},
}
OPTIONS = (
    "has_open_tanyao", "has_aka_dora", "has_double_yakuman", "kazoe_limit", "kiriage", "fu_for_open_pinfu",
    "fu_for_pinfu_tsumo", "renhou_as_yakuman", "has_daisharin", "has_daisharin_other_suits",
    "has_sashikomi_yakuman", "limit_to_sextuple_yakuman", "paarenchan_needs_yaku", "has_daichisei",
)
LIBRARY_DEFAULTS: dict[str, Any] = {
    "has_open_tanyao": False, "has_aka_dora": False, "has_double_yakuman": True, "kazoe_limit": 0,
    "kiriage": False, "fu_for_open_pinfu": True, "fu_for_pinfu_tsumo": False, "renhou_as_yakuman": False,
    "has_daisharin": False, "has_daisharin_other_suits": False, "has_sashikomi_yakuman": False,
    "limit_to_sextuple_yakuman": True, "paarenchan_needs_yaku": True, "has_daichisei": False,
    "is_three_player": False,
}
DEFAULT_CONFIG: dict[str, Any] = {
    "is_tsumo": False, "is_riichi": False, "is_ippatsu": False, "is_rinshan": False, "is_chankan": False,
    "is_haitei": False, "is_houtei": False, "is_daburu_riichi": False, "is_nagashi_mangan": False,
    "is_tenhou": False, "is_renhou": False, "is_chiihou": False, "is_open_riichi": False, "player_wind": None,
    "round_wind": None, "kyoutaku_number": 0, "tsumi_number": 0, "paarenchan": 0, "num_nuki_dora": 0,
    "options": LIBRARY_DEFAULTS,
}


class Untranslatable(Exception):
    """The contract's request cannot say what the library was asked."""


def load() -> list[dict[str, Any]]:
    return [json.loads(line) for line in VECTORS.read_text().splitlines() if line.strip()]


def tile_name(tile136: int, aka: bool) -> str:
    kind = tile136 // 4
    suit = "mpsz"[kind // 9]
    rank = kind % 9 + 1
    if aka and tile136 in RED_IDS:
        return f"0{suit}"
    return f"{rank}{suit}"


def tiles_text(ids: list[int], aka: bool) -> str:
    return "".join(tile_name(t, aka) for t in sorted(ids))


def config_of(line: dict[str, Any]) -> dict[str, Any]:
    config = dict(DEFAULT_CONFIG)
    config.update(line["config"] or {})
    options = dict(LIBRARY_DEFAULTS)
    options.update(config.get("options") or {})
    config["options"] = options
    return config


def to_request(line: dict[str, Any]) -> dict[str, Any]:
    """The contract's request object for one vector line."""
    config = config_of(line)
    options = config["options"]
    aka = options["has_aka_dora"]
    if options["is_three_player"]:
        raise Untranslatable("three-player games")
    pool = Counter(line["tiles136"])
    parts = []
    for meld in line["melds"]:
        ids = meld["tiles136"]
        if meld["type"] in ("kan", "shouminkan") and not meld["opened"]:
            parts.append(f"({tiles_text(_take(pool, ids), aka)})")
        elif meld["opened"]:
            parts.append(f"[{tiles_text(_take(pool, ids), aka)}]")
    win = line["win_tile136"]
    if win is None and config["is_nagashi_mangan"]:
        win = max(pool)  # nagashi mangan scores no hand; the notation still marks a winning tile
    if win is None:
        raise Untranslatable("no winning tile")
    (win,) = _take(pool, [win], where="the concealed part")
    concealed = [t for t, n in pool.items() for _ in range(n)]
    hand = " ".join([*parts, tiles_text(concealed, aka), "+" + tile_name(win, aka)])
    counts = Counter(t // 4 for t in line["tiles136"])
    tsumo = config["is_tsumo"]
    if config["is_haitei"] and not tsumo:
        raise Untranslatable("haitei on a discard: mjscore's last_tile on a discard is houtei")
    if config["is_houtei"] and tsumo:
        raise Untranslatable("houtei on a self-draw: mjscore's last_tile on a self-draw is haitei")
    if config["player_wind"] is None and config["is_tenhou"]:
        seat = "E"  # tenhou is the dealer's; the library, told no seat, pays it as a non-dealer's
    else:
        seat = _wind(config["player_wind"], counts, avoid_east=True)
    round_wind = _wind(config["round_wind"], counts, avoid_east=False)
    request: dict[str, Any] = {
        "rules": "riichi",
        "hand": hand,
        "self_draw": tsumo,
        "seat_wind": seat,
        "round_wind": round_wind,
        "discarder": None if tsumo or config["is_nagashi_mangan"] else _other(seat),
        "last_tile": config["is_haitei"] or config["is_houtei"],
        "kong_replacement": config["is_rinshan"],
        "robbing_kong": config["is_chankan"],
    }
    request["riichi"] = {
        "riichi": config["is_riichi"],
        "double_riichi": config["is_daburu_riichi"],
        "ippatsu": config["is_ippatsu"],
        "open_riichi": config["is_open_riichi"],
        "dora_indicators": tiles_text(line["dora_indicators136"] or [], False),
        "ura_indicators": tiles_text(line["ura_dora_indicators136"] or [], False),
        "honba": config["tsumi_number"],
        "riichi_sticks": config["kyoutaku_number"],
        "tenhou": config["is_tenhou"],
        "chiihou": config["is_chiihou"],
        "renhou": config["is_renhou"],
        "nagashi_mangan": config["is_nagashi_mangan"],
        "paarenchan": config["paarenchan"],
        "nuki_dora": max(config["num_nuki_dora"], 0),
    }
    opts = {name: options[name] for name in OPTIONS}
    opts["has_renhou"] = config["is_renhou"]
    opts["has_open_riichi"] = config["is_open_riichi"]
    opts["has_paarenchan"] = config["paarenchan"] > 0
    opts["aotenjou"] = line["scorer"] == "Aotenjou"
    request["options"] = opts
    return request


def _take(pool: Counter[int], ids: list[int], where: str = "the hand") -> list[int]:
    """Take tiles from the pool, by id where it holds that id, else another copy of the same kind."""
    taken = []
    for t in ids:
        if pool[t] <= 0:
            same = [u for u in pool if pool[u] > 0 and u // 4 == t // 4]
            if not same:
                raise Untranslatable(f"a tile of the melds or the winning tile is not in {where}")
            t = same[0]
        pool[t] -= 1
        taken.append(t)
    return taken


def _wind(value: int | None, counts: Counter[int], *, avoid_east: bool) -> str:
    """The seat or round wind; where the library was given none, a wind that scores nothing in the hand:
    one it does not hold, else one it holds as a pung (which changes only yakuhai, dropped by a yakuman),
    else a pair (which changes no fu in seven pairs or thirteen orphans). The seat is not East, since the
    library then pays as a non-dealer."""
    if value is not None:
        return WINDS[value]
    order = [k for k in (28, 29, 30, 27) if not (avoid_east and k == 27)]
    for fits in (lambda n: n == 0, lambda n: n >= 3, lambda n: True):
        for kind in order:
            if fits(counts[kind]):
                return WINDS[kind]
    raise AssertionError("unreachable")


def _other(seat: str) -> str:
    return "ESWN"[("ESWN".index(seat) + 1) % 4]


def expected(line: dict[str, Any]) -> dict[str, Any]:
    """The library's answer in mjscore's terms: error, or han, fu, points and the yaku ids."""
    result = line["result"]
    if result["error"]:
        return {"error": result["error"]}
    cost = result["cost"]
    return {
        "han": result["han"],
        "fu": result["fu"],
        "points": cost["main"] + 2 * cost["additional"],
        "yaku": sorted(YAKU_IDS[name] for name in result["yaku"]),
    }
