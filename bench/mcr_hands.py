"""Seeded random legal MCR hands, for the differential test and the benchmark."""

from __future__ import annotations

import random

from scorer.hand import WINDS, Hand, Meld, MeldKind, WinContext
from scorer.tiles import Tile, tile_from_index

_KNITTED = ((0, 3, 6), (1, 4, 7), (2, 5, 8))


def random_hand(rng: random.Random) -> tuple[Hand, WinContext]:
    """A random winning hand within the four-copies limit, with random (consistent) win flags."""
    while True:
        made = _try(rng)
        if made is not None:
            return made


def _try(rng: random.Random) -> tuple[Hand, WinContext] | None:
    counts = [0] * 34
    shape = rng.random()
    melds: list[Meld] = []
    concealed: list[int] = []

    def take(index: int, n: int) -> bool:
        if counts[index] + n > 4:
            return False
        counts[index] += n
        return True

    if shape < 0.06:  # seven pairs
        suit = rng.randrange(3)
        kinds = rng.sample(range(34) if rng.random() < 0.5 else range(9 * suit, 9 * suit + 9), 7)
        for k in kinds:
            take(k, 2)
            concealed += [k, k]
    elif shape < 0.08:  # thirteen orphans
        orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        concealed = orphans + [rng.choice(orphans)]
    elif shape < 0.12:  # honours and knitted, or a knitted straight
        suits = rng.sample(range(3), 3)
        knitted = [9 * s + r for s, ranks in zip(suits, _KNITTED, strict=True) for r in ranks]
        if rng.random() < 0.5:
            numbered = rng.sample(knitted, rng.randint(7, 9))
            concealed = numbered + rng.sample(range(27, 34), 14 - len(numbered))
        else:
            concealed = list(knitted)
            for k in concealed:
                take(k, 1)
            if not _sets(rng, 1, counts, concealed, melds, allow_melds=rng.random() < 0.3):
                return None
            pair = rng.randrange(34)
            if not take(pair, 2):
                return None
            concealed += [pair, pair]
    else:
        if not _sets(rng, 4, counts, concealed, melds, allow_melds=True):
            return None
        pair = rng.randrange(34)
        if not take(pair, 2):
            return None
        concealed += [pair, pair]
    if len(concealed) == 0:
        return None
    rng.shuffle(concealed)
    win = concealed.pop()
    tiles = tuple(tile_from_index(i) for i in concealed)
    flowers = tuple(Tile.parse(f"{i}f") for i in rng.sample(range(1, 9), rng.choice((0, 0, 0, 1, 2))))
    hand = Hand(tiles, tuple(melds), tile_from_index(win), flowers)
    self_draw = rng.random() < 0.4
    seat = rng.choice(WINDS)
    kong = hand.kong_count > 0 and rng.random() < 0.15
    held = sum(1 for t in hand.all_tiles if t.index == win)
    ctx = WinContext(
        self_draw=self_draw,
        seat_wind=seat,
        round_wind=rng.choice(WINDS),
        discarder=None if self_draw else seat.after(rng.randint(1, 3)),
        last_tile=rng.random() < 0.05,
        kong_replacement=self_draw and kong,
        robbing_kong=not self_draw and held == 1 and rng.random() < 0.05,
        last_of_kind=held == 1 and rng.random() < 0.1,
    )
    return hand, ctx


def _sets(rng: random.Random, n: int, counts: list[int], concealed: list[int], melds: list[Meld],
          allow_melds: bool) -> bool:
    for _ in range(n):
        r = rng.random()
        if r < 0.5:
            suit, start = rng.randrange(3), rng.randrange(7)
            idx = [9 * suit + start + k for k in range(3)]
            if any(counts[i] >= 4 for i in idx):
                return False
            for i in idx:
                counts[i] += 1
            kind = MeldKind.CHOW
        else:
            tile = rng.randrange(34)
            size = 4 if r > 0.9 else 3
            if counts[tile] + size > 4:
                return False
            counts[tile] += size
            idx = [tile] * size
            kind = MeldKind.KONG if size == 4 else MeldKind.PUNG
        tiles = tuple(tile_from_index(i) for i in idx)
        if kind is MeldKind.KONG:
            melds.append(Meld(kind, tiles, concealed=rng.random() < 0.4))
        elif allow_melds and rng.random() < 0.3:
            melds.append(Meld(kind, tiles))
        else:
            concealed.extend(idx)
    return True
