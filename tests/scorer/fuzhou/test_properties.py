"""Invariants over many seeded random Fuzhou hands: the fans add up to the total, payments sum to 0 and the
winner gets what the others pay; golds never make a hand worse than the same tiles without them being wild."""

from __future__ import annotations

import random

import pytest

from scorer import ScorerError
from scorer.fuzhou import FuzhouFacts, score
from scorer.hand import Hand, Meld, WinContext, Wind
from scorer.tiles import Suit, Tile

SUITS = (Suit.MAN, Suit.PIN, Suit.SOU)


def random_hand(rng: random.Random) -> Hand | None:
    """Five sets and a pair of numbered tiles, some claimed, plus random flowers and honours."""
    counts: dict[Tile, int] = {}
    groups: list[list[Tile]] = []
    for _ in range(5):
        suit = rng.choice(SUITS)
        if rng.random() < 0.5:
            start = rng.randint(1, 7)
            group = [Tile(suit, start + k) for k in range(3)]
        else:
            group = [Tile(suit, rng.randint(1, 9))] * 3
        groups.append(group)
    pair_tile = Tile(rng.choice(SUITS), rng.randint(1, 9))
    for t in [t for g in groups for t in g] + [pair_tile, pair_tile]:
        counts[t] = counts.get(t, 0) + 1
        if counts[t] > 4:
            return None
    melds = []
    concealed: list[Tile] = []
    for g in groups:
        if rng.random() < 0.3:
            melds.append(Meld.of(tuple(g)))
        else:
            concealed.extend(g)
    concealed.extend([pair_tile, pair_tile])
    rng.shuffle(concealed)
    win = concealed.pop()
    flowers = tuple(Tile(Suit.FLOWER, r) for r in rng.sample(range(1, 9), rng.randint(0, 4)))
    honours = tuple(Tile(Suit.HONOR, rng.randint(1, 7)) for _ in range(rng.randint(0, 2)))
    return Hand(tuple(concealed) + honours, tuple(melds), win, flowers)


@pytest.mark.parametrize("seed", range(300))
def test_invariants(seed: int) -> None:
    rng = random.Random(seed)
    hand = random_hand(rng)
    while hand is None:  # a draw with a fifth copy of a tile: draw again from the same generator
        hand = random_hand(rng)
    seat = rng.choice(list(Wind))
    self_draw = rng.random() < 0.5
    discarder = None if self_draw else rng.choice([w for w in Wind if w is not seat])
    ctx = WinContext(self_draw=self_draw, seat_wind=seat, discarder=discarder)
    streak = rng.randint(0, 3)
    plain = score(hand, ctx, facts=FuzhouFacts(None, streak))
    assert plain.total == sum(f.value * f.count for f in plain.fans)
    payments = dict(plain.payments)
    assert sum(payments.values()) == 0
    assert payments[seat.value] == -sum(v for s, v in payments.items() if s != seat.value)
    assert payments[seat.value] > 0
    # the same hand with a gold named among its concealed tiles (if it holds at most three, none melded)
    gold = rng.choice([t for t in hand.concealed if t.is_numbered] or [hand.win_tile])
    try:
        with_gold = score(hand, ctx, facts=FuzhouFacts(gold, streak))
    except ScorerError:
        return  # a gold in a meld, four golds, a discarded gold won on, or a free gold on a discard
    golds = dict(with_gold.details)["golds"]
    assert with_gold.total == sum(f.value * f.count for f in with_gold.fans)
    assert sum(dict(with_gold.payments).values()) == 0
    # golds only add: the same reading stays available with the golds standing for themselves, worth +1 each
    base_without_specials = plain.total - sum(f.value for f in plain.fans if f.id not in
                                              {"base", "flowers", "kongs", "golds", "dealer_streak", "self_drawn"})
    assert with_gold.total >= base_without_specials + golds
