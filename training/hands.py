"""A random winning hand, as groups of tiles laid out on the table, and its notation."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.names import FACE_NAMES, FLOWER_NAMES, SUITS


@dataclass
class Group:
    kind: str  # concealed | chow | pung | kong | concealed_kong | win | flowers | distractor | set
    tiles: list[str]
    backs: list[bool] = field(default_factory=list)  # per tile: shown face down
    sideways: int = -1  # index of the sideways tile in an exposed meld
    red: list[bool] = field(default_factory=list)


def _fmt(tiles: list[str]) -> str:
    """Canonical mpsz: suits in m,p,s,z,f order, digits sorted, runs compressed (``123m55z``)."""
    out = []
    for s in "mpszf":
        digits = sorted(t[0] for t in tiles if t[1] == s)
        if digits:
            out.append("".join(digits) + s)
    return "".join(out)


FLOWERS = (0.5, 3)  # share of hands that set flowers aside, and the most they set aside (at least one)


SIXTEEN = 0.25  # the share of Fuzhou-style hands of 16 + 1 tiles


def random_hand(rng: np.random.Generator, with_flowers: bool,
                flowers: tuple[float, int] = FLOWERS, sixteen: float = SIXTEEN) -> tuple[list[Group], str]:
    """A winning hand: sets and a pair, some sets exposed or concealed kongs; returns groups and its notation.
    ``flowers``: (share of hands with flowers set aside, the most set aside); ``sixteen``: the share of hands of
    16 + 1 tiles (five sets and a pair)."""
    big = rng.random() < sixteen  # Fuzhou-style 16+1 tiles
    nsets = 5 if big else 4
    counts: dict[str, int] = {}

    def take(tiles: list[str]) -> bool:
        if any(counts.get(t, 0) + tiles.count(t) > 4 for t in set(tiles)):
            return False
        for t in tiles:
            counts[t] = counts.get(t, 0) + 1
        return True

    sets: list[tuple[str, list[str]]] = []
    while len(sets) < nsets:
        r = rng.random()
        if r < 0.5:
            s = SUITS[rng.integers(3)]
            n = int(rng.integers(1, 8))
            kind, tiles = "chow", [f"{n}{s}", f"{n + 1}{s}", f"{n + 2}{s}"]
        else:
            t = FACE_NAMES[rng.integers(34)]
            kind, tiles = ("kong", [t] * 4) if r > 0.85 else ("pung", [t] * 3)
        if take(tiles):
            sets.append((kind, tiles))
    while True:
        t = FACE_NAMES[rng.integers(34)]
        if take([t, t]):
            pair = [t, t]
            break
    groups: list[Group] = []
    concealed: list[str] = list(pair)
    nexposed = int(rng.integers(0, nsets + 1)) if rng.random() < 0.8 else 0
    for i, (kind, tiles) in enumerate(sets):
        if kind == "kong" and (i >= nexposed or rng.random() < 0.4):
            four = rng.random() < 0.3
            backs = [True] * 4 if four else [True, False, False, True]
            groups.append(Group("concealed_kong", tiles, backs))
        elif i < nexposed:
            side = int(rng.integers(len(tiles))) if rng.random() < 0.85 else -1
            order = list(tiles)
            groups.append(Group(kind, order, [False] * len(order), side))
        else:
            concealed += tiles
    win = concealed.pop(int(rng.integers(len(concealed))))
    concealed.sort(key=lambda t: (("mpsz".index(t[1])), t[0]))
    groups.insert(0, Group("concealed", concealed, [False] * len(concealed)))
    groups.append(Group("win", [win], [False]))
    if with_flowers and rng.random() < flowers[0]:
        fl = sorted(rng.choice(FLOWER_NAMES, size=int(rng.integers(1, flowers[1] + 1)), replace=False).tolist())
        groups.append(Group("flowers", fl, [False] * len(fl)))
    # red fives, shown as fives (label 5x) but written 0x in the notation
    for g in groups:
        g.red = [t[0] == "5" and t[1] in SUITS and rng.random() < 0.15 for t in g.tiles]
    return groups, notation(groups)


def notation(groups: list[Group]) -> str:
    def show(g: Group) -> list[str]:
        return [("0" + t[1]) if r else t for t, r in zip(g.tiles, g.red, strict=True)]

    parts = []
    for g in groups:
        if g.kind in ("chow", "pung", "kong"):
            parts.append(f"[{_fmt(show(g))}]")
        elif g.kind == "concealed_kong":
            parts.append(f"({_fmt(show(g))})")
    loose = [g for g in groups if g.kind == "concealed"]
    if loose:
        parts.append(_fmt(show(loose[0])))
    parts += [f"+{show(g)[0]}" for g in groups if g.kind == "win"]
    parts += [_fmt(g.tiles) for g in groups if g.kind == "flowers"]
    return " ".join(p for p in parts if p)
