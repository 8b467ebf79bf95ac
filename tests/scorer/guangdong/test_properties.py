"""Invariants over many seeded random Guangdong hands: the cap holds unless a special stands alone, points are
2**fans, payments sum to 0 and come from the right seats."""

from __future__ import annotations

import random

import pytest

from scorer.guangdong import GuangdongConfig, score
from scorer.guangdong.patterns import BY_ID, Kind
from scorer.hand import Hand, Meld, WinContext, Wind
from scorer.tiles import Suit, Tile


def random_hand(rng: random.Random) -> Hand | None:
    counts: dict[Tile, int] = {}
    groups: list[list[Tile]] = []
    for _ in range(4):
        suit = rng.choice((Suit.MAN, Suit.PIN, Suit.SOU, Suit.HONOR))
        if suit is not Suit.HONOR and rng.random() < 0.5:
            start = rng.randint(1, 7)
            groups.append([Tile(suit, start + k) for k in range(3)])
        else:
            groups.append([Tile(suit, rng.randint(1, 7 if suit is Suit.HONOR else 9))] * 3)
    pair_suit = rng.choice((Suit.MAN, Suit.PIN, Suit.SOU, Suit.HONOR))
    pair = Tile(pair_suit, rng.randint(1, 7 if pair_suit is Suit.HONOR else 9))
    for t in [t for g in groups for t in g] + [pair, pair]:
        counts[t] = counts.get(t, 0) + 1
        if counts[t] > 4:
            return None
    melds, concealed = [], []
    for g in groups:
        if rng.random() < 0.4:
            melds.append(Meld.of(tuple(g)))
        else:
            concealed.extend(g)
    concealed.extend([pair, pair])
    rng.shuffle(concealed)
    win = concealed.pop()
    return Hand(tuple(concealed), tuple(melds), win)


@pytest.mark.parametrize("seed", range(300))
def test_invariants(seed: int) -> None:
    rng = random.Random(seed)
    hand = random_hand(rng)
    while hand is None:  # a draw with a fifth copy of a tile: draw again from the same generator
        hand = random_hand(rng)
    seat = rng.choice(list(Wind))
    self_draw = rng.random() < 0.5
    discarder = None if self_draw else rng.choice([w for w in Wind if w is not seat])
    config = GuangdongConfig(cap=rng.choice((3, 5, 8)), base=rng.choice((1, 2)), minimum=rng.choice((0, 1, 3)),
                             discarder_pays_all=rng.random() < 0.5)
    result = score(hand, WinContext(self_draw=self_draw, seat_wind=seat, discarder=discarder,
                                    round_wind=rng.choice(list(Wind))), config)
    special = any(BY_ID[f.id].kind is Kind.SPECIAL for f in result.fans)
    if special:
        assert len(result.fans) == 1
    else:
        assert result.total <= config.cap
        assert result.total == min(config.cap, sum(f.value * f.count for f in result.fans))
    details = dict(result.details)
    assert details["points"] == config.base * 2**result.total
    assert result.meets_minimum == (result.total >= config.minimum)
    payments = dict(result.payments)
    if not result.meets_minimum:
        assert payments == {}
        return
    assert sum(payments.values()) == 0
    share = details["points"]
    if self_draw:
        assert payments[seat.value] == 3 * share
    else:
        assert discarder is not None
        assert payments[discarder.value] == -(3 * share if config.discarder_pays_all else share)
