"""Fuzhou's one ``max``: ``rank_key`` and its tie-break, on built candidates and on a hand."""

from __future__ import annotations

from scorer.fuzhou import Candidate, rank_key, score
from scorer.fuzhou.patterns import Reading
from scorer.hand import WinContext, parse_hand


def reading(shaped: bool = True, live: int = 0, name: str = "r") -> Reading:
    return Reading(groups=(name,), shaped=shaped, suits=frozenset(), golds=0, live_golds=live, gold_pair=False,
                   gold_pung=False, kan=False, flower_points=2, self_draw=True, robbing_gold=False, heavenly=False)


def test_more_points_win() -> None:
    low = Candidate(70, ("golden_pair",), True, reading())
    high = Candidate(71, (), True, reading())
    assert max([low, high], key=rank_key) is high


def test_then_the_higher_special() -> None:
    one = Candidate(80, ("golden_pair",), True, reading())  # 60
    two = Candidate(80, ("robbing_gold", "no_flowers"), True, reading())  # 30 + 30
    assert max([two, one], key=rank_key) is one


def test_then_a_shape_over_the_shapeless_three_golds() -> None:
    shapeless = Candidate(86, ("three_golds",), True, reading(shaped=False))
    shaped = Candidate(86, ("three_golds",), True, reading())
    assert max([shapeless, shaped], key=rank_key) is shaped


def test_then_fewer_live_golds() -> None:
    live = Candidate(20, (), True, reading(live=1))
    dead = Candidate(20, (), True, reading(live=0))
    assert max([live, dead], key=rank_key) is dead


def test_a_full_tie_keeps_the_first() -> None:
    first = Candidate(20, (), True, reading(name="first"))
    second = Candidate(20, (), True, reading(name="second"))
    assert max([first, second], key=rank_key) is first


def test_on_a_hand_the_shaped_reading_is_shown() -> None:
    # three golds (2s), no flower: 三金倒 40 + 平和 30 on the shaped reading and on the shapeless one, both
    # (0 + 3 + 0 + 5) × 2 + 70 = 86: the reading with sets is shown
    result = score(parse_hand("123m456m789m123p45p2s2s+2s"), WinContext(self_draw=True), gold="2s")
    assert result.total == 86
    assert result.decomposition == ("123m", "456m", "789m", "123p", "456p", "2s2s")
