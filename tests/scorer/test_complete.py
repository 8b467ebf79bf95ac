"""``scorer.is_complete_tiles``: the check the photo reader's layout stage asks of each reading (api passes it in).

It replaced a copy of the rules that lived in ``vision/layout.py``; ``_old_vision_check`` below is that copy, kept
here as the oracle of a differential test only (random and edge-case inputs must get the same answers).
"""

from __future__ import annotations

import random

import pytest

from scorer import is_complete_tiles

FACES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
ORPHANS = ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]
KNITTED = ["1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s"]


@pytest.mark.parametrize(
    ("tiles", "complete"),
    [
        pytest.param("1m 2m 3m 5z 5z", True, id="a_set_and_a_pair"),
        pytest.param("1m 2m 4m 5z 5z", False, id="no_set"),
        pytest.param("5z 5z", True, id="a_pair_alone"),
        pytest.param("5z", False, id="a_single_tile"),
        pytest.param("", False, id="nothing"),
        pytest.param("1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 5m", True, id="nine_gates"),
        pytest.param("1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 1p", False, id="nine_gates_waiting"),
        pytest.param("1m 1m 9m 9m 1p 1p 9p 9p 1s 1s 9s 9s 1z 1z", True, id="seven_pairs"),
        pytest.param("1m 1m 1m 1m 2p 2p 4p 4p 6s 6s 8s 8s 1z 1z", False, id="four_of_a_kind_is_no_two_pairs"),
        pytest.param(" ".join([*ORPHANS, "7z"]), True, id="thirteen_orphans"),
        pytest.param(" ".join([*ORPHANS[:-1], "1z", "2m"]), False, id="thirteen_orphans_short_of_red_dragon"),
        pytest.param(" ".join([*KNITTED, "2z", "2z", "2z", "5z", "5z"]), True, id="knitted_straight_set_pair"),
        pytest.param(" ".join([*KNITTED[:8], "2z", "2z", "2z", "5z", "5z", "9p"]), False, id="knitted_short"),
        pytest.param("1m 4m 7m 2p 8p 3s 6s 1z 2z 3z 4z 5z 6z 7z", True, id="honors_and_knitted"),
        pytest.param("1m 4m 7m 2p 8p 3s 5s 1z 2z 3z 4z 5z 6z 7z", False, id="honors_and_unknitted"),
        pytest.param("0m 5m 5m 1z 1z", True, id="red_five_is_a_five"),
        pytest.param("0m 0p 0s 5z 5z", False, id="red_fives_of_three_suits"),
        pytest.param("1m 2m 3m 1f 1f", False, id="flowers_are_no_hand_tiles"),
        pytest.param("1m 2m 3m back back", False, id="a_back"),
        pytest.param("1m 2m 3m 5x 5x", False, id="an_unknown_name"),
        pytest.param("1m 2m 3m 0z 0z", False, id="no_red_honour"),
        pytest.param("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z 2z 2z 3z 3z", True, id="seventeen_tiles_fuzhou"),
        pytest.param("1m 1m 1m 1m 1m 2z 2z 2z", True, id="five_copies_still_count_as_sets"),
    ],
)
def test_shapes(tiles: str, complete: bool) -> None:
    assert is_complete_tiles(tiles.split()) is complete


def test_any_order_and_any_iterable() -> None:
    tiles = "2z 1m 5z 3m 2m 5z 2z 2z".split()
    assert is_complete_tiles(tiles) and is_complete_tiles(reversed(tiles)) and is_complete_tiles(tuple(tiles))


def _random_inputs(rng: random.Random, n: int) -> list[list[str]]:
    """Complete hands of every shape, the same with one tile changed, dropped or added, and random multisets."""
    names = [*FACES, "0m", "0p", "0s", "1f"]
    out: list[list[str]] = []
    while len(out) < n:
        kind = rng.randrange(6)
        if kind == 0:  # sets and a pair
            hand = [rng.choice(FACES)] * 2
            for _ in range(rng.choice((0, 1, 2, 3, 4, 4, 4, 5))):
                if rng.random() < 0.5:
                    s, r = rng.choice("mps"), rng.randint(1, 7)
                    hand += [f"{r + k}{s}" for k in range(3)]
                else:
                    hand += [rng.choice(FACES)] * 3
        elif kind == 1:  # seven pairs
            hand = [t for t in rng.sample(FACES, 7) for _ in range(2)]
        elif kind == 2:
            hand = [*ORPHANS, rng.choice(ORPHANS)]
        elif kind == 3:  # a knitted straight with a set and a pair, or honours and knitted tiles
            straight = rng.choice(_knitted_straights())
            if rng.random() < 0.5:
                hand = [*straight, rng.choice(FACES), *[rng.choice(FACES)] * 2]
                hand[9:9] = [hand[9]] * 2
            else:
                hand = rng.sample([*straight, *FACES[27:]], 14)
        elif kind == 4:
            hand = [rng.choice(names) for _ in range(rng.choice((2, 5, 8, 11, 14, 14, 14, 17)))]
        else:
            hand = [rng.choice(FACES[:9]) for _ in range(14)]  # one suit: many ways to read it
        change = rng.random()
        if change < 0.3 and hand:
            hand[rng.randrange(len(hand))] = rng.choice(names)
        elif change < 0.4 and hand:
            hand.pop(rng.randrange(len(hand)))
        elif change < 0.5:
            hand.insert(rng.randrange(len(hand) + 1), rng.choice(names))
        elif change < 0.6:
            hand = [("0" + t[1]) if t[0] == "5" and t[1] in "mps" and rng.random() < 0.5 else t for t in hand]
        rng.shuffle(hand)
        out.append(hand)
    return out


def _knitted_straights() -> list[list[str]]:
    from itertools import permutations

    return [[f"{d}{s}" for s, start in zip(order, (1, 2, 3), strict=True) for d in range(start, 10, 3)]
            for order in permutations("mps")]


def test_same_answers_as_the_layout_stage_had() -> None:
    rng = random.Random(28)
    inputs = _random_inputs(rng, 6000)
    answers = [is_complete_tiles(tiles) for tiles in inputs]
    assert answers == [_old_vision_check(tiles) for tiles in inputs]
    assert 0.25 < sum(answers) / len(answers) < 0.75  # both answers are well represented


# --- the oracle: vision/layout.py's own copy of the rules, as it was before it asked the scorer --------------------
_ORDER = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
_INDEX = {t: i for i, t in enumerate(_ORDER)}
_ORPHAN_INDICES = {_INDEX[t] for t in ORPHANS}
_KNITTED = tuple(tuple(9 * s + d for s, start in zip(range(3), perm, strict=True) for d in range(start, 9, 3))
                 for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)))


def _old_vision_check(tiles: list[str]) -> bool:
    counts = [0] * 34
    for t in tiles:
        i = _INDEX.get("5" + t[1] if t[0] == "0" else t)
        if i is None:
            return False
        counts[i] += 1
    n = len(tiles)
    if n % 3 != 2:
        return False
    if n == 14:
        nonzero = {i for i, c in enumerate(counts) if c}
        if all(c in (0, 2) for c in counts) or (nonzero == _ORPHAN_INDICES and max(counts) == 2):
            return True
        if _old_knitted(counts):
            return True
    for p in range(34):
        if counts[p] >= 2:
            counts[p] -= 2
            ok = _old_sets(counts)
            counts[p] += 2
            if ok:
                return True
    return False


def _old_knitted(counts: list[int]) -> bool:
    for straight in _KNITTED:
        if max(counts) == 1 and all(counts[i] == 0 for i in range(27) if i not in straight):
            return True
        if all(counts[i] for i in straight):
            rest = list(counts)
            for i in straight:
                rest[i] -= 1
            for p in range(34):
                if rest[p] >= 2:
                    rest[p] -= 2
                    if _old_sets(rest):
                        return True
                    rest[p] += 2
    return False


def _old_sets(counts: list[int]) -> bool:
    c = list(counts)
    for i in range(34):
        while c[i] > 0:
            if c[i] >= 3:
                c[i] -= 3
                continue
            if i < 27 and i % 9 <= 6 and c[i + 1] > 0 and c[i + 2] > 0:
                c[i] -= 1
                c[i + 1] -= 1
                c[i + 2] -= 1
                continue
            return False
    return True
