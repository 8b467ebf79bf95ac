"""点数计算: base points, limits, rounding, honba, riichi sticks and payments (seed 002).

Base points ``a = fu × 2^(han+2)`` for 1-4 han, capped at 2000 (满贯). From 5 han the fu no longer
count: 5 mangan 2000, 6-7 haneman 3000, 8-10 baiman 4000, 11-12 sanbaiman 6000, 13+ yakuman
8000 × (han ÷ 13, rounded down). Payments, each rounded up to 100:

- dealer (East) wins on a discard: the discarder pays 6a; self-draw: each pays 2a;
- non-dealer on a discard: the discarder pays 4a; self-draw: the dealer 2a, the two others a each.

Honba (本场): 300 each on a discard, from the discarder; 100 each from every payer on a self-draw.
Riichi sticks (千点棒) on the table go to the winner: they were paid when riichi was declared, so
they are reported apart (``deposits``) and ``payments`` still sum to zero.

>>> base_points(2, 70, False)
(1120, None)
>>> payments(1120, winner="S", self_draw=True, discarder=None)
(('E', -2300), ('S', 4700), ('W', -1200), ('N', -1200))
"""

from __future__ import annotations

from typing import Final

from .config import DEFAULT, KAZOE_NO_LIMIT, KAZOE_SANBAIMAN, RiichiConfig

MANGAN: Final = 2000
SEATS: Final[tuple[str, ...]] = ("E", "S", "W", "N")
_MULTIPLES: Final = {1: "yakuman", 2: "double_yakuman", 3: "triple_yakuman", 4: "quadruple_yakuman",
              5: "quintuple_yakuman", 6: "sextuple_yakuman"}


def limit_name(multiple: int) -> str:
    return _MULTIPLES.get(multiple, f"yakuman_x{multiple}")


def base_points(han: int, fu: int, yakuman: bool, config: RiichiConfig = DEFAULT) -> tuple[int, str | None]:
    """``(a, limit)``: the base points of a hand and the name of its limit (None below mangan).

    ``yakuman`` says the han come from yakuman (13 each). 13 han or more of normal yaku are a counted
    yakuman (累计役满), or as ``config.kazoe_limit`` says.

    >>> base_points(4, 30, False), base_points(4, 30, False, RiichiConfig(kiriage=True))
    ((1920, None), (2000, 'mangan'))
    >>> base_points(15, 40, False), base_points(26, 50, True)
    ((8000, 'kazoe_yakuman'), (16000, 'double_yakuman'))
    """
    if config.aotenjou:
        return fu * 2 ** (han + 2), None
    if config.limit_to_sextuple_yakuman and han > 78:
        han = 78
    if yakuman:
        multiple = han // 13
        return 8000 * multiple, limit_name(multiple)
    if han >= 13:
        if config.kazoe_limit == KAZOE_SANBAIMAN:
            return 6000, "sanbaiman"
        if config.kazoe_limit == KAZOE_NO_LIMIT and han >= 26:
            multiple = han // 13
            return 8000 * multiple, "kazoe_" + limit_name(multiple)
        return 8000, "kazoe_yakuman"
    if han >= 11:
        return 6000, "sanbaiman"
    if han >= 8:
        return 4000, "baiman"
    if han >= 6:
        return 3000, "haneman"
    if han >= 5:
        return MANGAN, "mangan"
    if config.kiriage and (han, fu) in ((4, 30), (3, 60)):
        return MANGAN, "mangan"  # 切上满贯
    a = fu * 2 ** (han + 2)
    if a > MANGAN:
        return MANGAN, "mangan"
    return a, None


def round_up(points: int) -> int:
    """Up to the next hundred (进位到百位).

    >>> round_up(1120), round_up(2240), round_up(3900)
    (1200, 2300, 3900)
    """
    return (points + 99) // 100 * 100


def hand_value(a: int, dealer: bool, self_draw: bool) -> int:
    """What the winner collects, honba and sticks left out (the figures of the document's tables).

    >>> hand_value(2000, True, True), hand_value(1120, False, True), hand_value(4000, False, False)
    (12000, 4700, 16000)
    """
    if self_draw:
        if dealer:
            return 3 * round_up(2 * a)
        return round_up(2 * a) + 2 * round_up(a)
    return round_up(6 * a if dealer else 4 * a)


def payments(
    a: int, winner: str, self_draw: bool, discarder: str | None, honba: int = 0
) -> tuple[tuple[str, int], ...]:
    """Net change per seat (E S W N), summing to 0; the dealer sits East. Empty when a discard win has
    no known discarder."""
    pays: dict[str, int] = {}
    if self_draw:
        for seat in SEATS:
            if seat != winner:
                share = 2 * a if winner == "E" or seat == "E" else a
                pays[seat] = -(round_up(share) + 100 * honba)
    elif discarder is not None:
        pays[discarder] = -(round_up((6 if winner == "E" else 4) * a) + 300 * honba)
    else:
        return ()
    pays[winner] = -sum(pays.values())
    return tuple((seat, pays.get(seat, 0)) for seat in SEATS)


def pao_payments(
    value: int, winner: str, self_draw: bool, discarder: str | None, pao: str, honba: int = 0
) -> tuple[tuple[str, int], ...]:
    """役满包牌: the liable seat pays the whole hand, valued as a win on its discard (``value``), when the
    winner self-draws or it deals in itself; when another deals in, the two pay half each. Honba go
    with whoever is treated as the discarder (the liable seat, or the real discarder when halves).

    >>> pao_payments(32000, "S", True, None, "W", honba=1)
    (('E', 0), ('S', 32300), ('W', -32300), ('N', 0))
    >>> pao_payments(32000, "S", False, "N", "W")
    (('E', 0), ('S', 32000), ('W', -16000), ('N', -16000))
    """
    pays = {seat: 0 for seat in SEATS}
    if self_draw or discarder == pao:
        pays[pao] = -(value + 300 * honba)
    elif discarder is not None:
        pays[pao] = -(value // 2)
        pays[discarder] = -(value - value // 2 + 300 * honba)
    else:
        return ()
    pays[winner] = -sum(pays.values())
    return tuple((seat, pays[seat]) for seat in SEATS)
