"""符 (fu), as seed 002 counts them (符数计算, A-F).

A. base 20; a closed hand won on a discard 30 (门前清荣和).  B. self-draw 2 (not for pinfu).
C. wait: single (单骑), closed (嵌张), edge (边张) 2; two-sided (两面) and two pairs (双碰) 0.
D. pair: dragon, seat wind, round wind 2 each (a double wind 4); other pairs 0.
E. sets: chows 0; pungs 2 (simple, claimed), doubled when concealed, doubled for terminals and
   honours, times four for a kong (2/4/8/16, 4/8/16/32). A pung completed by a discard is claimed.
F. special cases, not rounded: special shapes (seven pairs ...) 25; pinfu self-draw 20; an open
   hand of pinfu shape won on a discard 30 (option ``fu_for_open_pinfu``; 20 without).
The sum is rounded up to the next 10.
"""

from __future__ import annotations

from typing import Final

from .reading import KANCHAN, ORPHANS, PENCHAN, REGULAR, TANKI, Reading

CHIITOITSU_FU: Final = 25
_WAIT_FU: Final = frozenset({TANKI, KANCHAN, PENCHAN})  # 单骑, 嵌张, 边张: 2 fu


def fu(r: Reading) -> tuple[int, int, bool]:
    """``(fu, unrounded fu, pinfu)`` of a reading; ``pinfu`` says the reading is 平和.

    The unrounded sum breaks ties between readings of equal value (the higher one is shown).
    """
    if r.shape != REGULAR:
        return CHIITOITSU_FU, CHIITOITSU_FU, False
    f = r.f
    extra = 0
    if r.wait in _WAIT_FU:
        extra += 2
    pair = r.pair
    for v in f.valued:
        if v == pair:
            extra += 2
    for is_chow, first, claimed, kong in r.sets:
        if is_chow:
            continue
        value = 2
        if first in ORPHANS:
            value *= 2
        if not claimed:
            value *= 2
        if kong:
            value *= 4
        extra += value
    config = f.config
    pinfu = False
    if f.self_draw:
        if extra or not f.closed or config.fu_for_pinfu_tsumo:
            extra += 2  # 自摸 2 符
        else:
            pinfu = True  # 平和自摸: 20 fu, the self-draw fu given up for the pinfu han
    elif not extra:
        if f.closed:
            pinfu = True
        elif config.fu_for_open_pinfu:
            extra += 2  # open pinfu shape on a discard: 22, rounded to 30
    raw = 20 + extra + (10 if f.closed and not f.self_draw else 0)
    return (raw + 9) // 10 * 10, raw, pinfu


def breakdown(r: Reading) -> list[tuple[str, int]]:
    """The fu of a reading item by item, for explanations and tests.

    The items add up to the unrounded fu of ``fu(r)``.
    """
    if r.shape != REGULAR:
        return [("special shape (七对子 ...)", CHIITOITSU_FU)]
    f = r.f
    items = [("base (底符)", 20)]
    if f.closed and not f.self_draw:
        items.append(("closed hand won on a discard (门前清荣和)", 10))
    if r.wait in _WAIT_FU:
        items.append((f"{r.wait} wait", 2))
    for v in f.valued:
        if v == r.pair:
            items.append(("valued pair (役牌作将)", 2))
    for is_chow, first, claimed, kong in r.sets:
        if not is_chow:
            value = 2 * (2 if first in ORPHANS else 1) * (1 if claimed else 2) * (4 if kong else 1)
            kind = "kong" if kong else "pung"
            items.append((f"{'claimed' if claimed else 'concealed'} {kind} of {first}", value))
    total, raw, _ = fu(r)
    rest = raw - sum(v for _, v in items)
    if rest:
        items.append(("self-draw (自摸)" if f.self_draw else "open pinfu shape", rest))
    return items
