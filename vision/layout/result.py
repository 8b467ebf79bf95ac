"""What the layout stage answers: ``Layout`` (rows, melds, the concealed part, the winning tile, flowers, loose
tiles, notes and the ``Problem`` when the tiles make no legal hand), with ``Meld`` and ``Row``, each with the
contract's ``to_dict``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from vision.layout.notation import tiles_notation


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld on the table: ``kind`` is chow, pung, kong or concealed_kong; ``tiles`` empty when unknown."""

    kind: str
    tiles: tuple[str, ...]
    detections: tuple[int, ...]

    @property
    def exposed(self) -> bool:
        return self.kind != "concealed_kong"

    @property
    def known(self) -> bool:
        return bool(self.tiles)

    def notation(self, tile: str | None = None) -> str:
        tiles = self.tiles or ((tile,) * 4 if tile else ("?",) * 4)
        body = tiles_notation(tiles) if tiles[0] != "?" else "????"
        return f"[{body}]" if self.exposed else f"({body})"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "tiles": list(self.tiles), "exposed": self.exposed,
                "notation": self.notation(), "detections": list(self.detections)}


@dataclass(frozen=True, slots=True)
class Row:
    """One row of tiles in reading order, split into groups; ``role``: concealed, melds, flowers or loose."""

    role: str
    groups: tuple[tuple[int, ...], ...]

    @property
    def detections(self) -> tuple[int, ...]:
        return tuple(i for g in self.groups for i in g)

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "detections": list(self.detections), "groups": [list(g) for g in self.groups]}


FLOWER_COPY = "flower_copy"  # a flower read twice (``relabel.distinct_flowers`` names them apart where it can;
# else the hand is read as if it were not, its flowers as read)


@dataclass(frozen=True, slots=True)
class Problem:
    """Why the tiles make no legal hand: ``code`` (tile_count, fifth_copy, flower_copy, bad_group, no_tiles) and a
    message; ``detections``: the tiles it is about, where some are (the group that is no meld, the face-down tiles
    among the concealed ones, every tile read as the fifth copy's name or as the flower read twice)."""

    code: str
    message: str
    count: int | None = None
    expected: tuple[int, ...] = ()
    detections: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.count is not None:
            out["count"] = self.count
            out["expected"] = list(self.expected)
        if self.detections:
            out["detections"] = list(self.detections)
        return out


def assumed_note(candidates: Sequence[str], win: str, why: str = "") -> str:
    """The note of a hand with no tile set apart as the winning tile: the candidates, and the one taken and why.

    >>> assumed_note(["1m", "5p"], "5p", "it scores best").split(": ")[1]
    'each concealed tile is a candidate (1m, 5p); 5p assumed, it scores best'
    """
    return (f"no tile is set apart as the winning tile: each concealed tile is a candidate ({', '.join(candidates)}); "
            f"{win} assumed" + (f", {why}" if why else ""))


@dataclass(frozen=True)
class Layout:
    """The hand read from the detections. Indices refer to the detection list given to ``group_melds``."""

    rows: tuple[Row, ...] = ()
    melds: tuple[Meld, ...] = ()
    concealed: tuple[str, ...] = ()  # the concealed part without the winning tile, in reading order
    concealed_detections: tuple[int, ...] = ()
    win_tile: str | None = None
    win_detection: int | None = None
    win_tile_assumed: bool = False
    win_candidates: tuple[str, ...] = ()  # when no tile is set apart: each tile the hand may have won on
    flowers: tuple[str, ...] = ()
    flower_detections: tuple[int, ...] = ()
    loose: tuple[int, ...] = ()  # tiles that are not part of the hand
    merged: tuple[int, ...] = ()  # duplicate boxes dropped
    notes: tuple[str, ...] = ()
    problem: Problem | None = None
    angle: float = 0.0  # row direction in the image, degrees
    tile_size: float = 0.0  # u, pixels
    renamed: tuple[int, ...] = ()  # detections read by a second name to make a complete hand (vision.relabel)
    left_out: tuple[int, ...] = ()  # boxes the finder was unsure of, left out to make a complete hand (loose too)

    @property
    def unknown_kongs(self) -> int:
        return sum(not m.known for m in self.melds)

    @property
    def hand(self) -> str | None:
        """The contract's notation, or None (no legal hand, or a concealed kong of four backs)."""
        if self.problem is not None or self.unknown_kongs:
            return None
        return self.hand_with()

    def with_win(self, win: str, why: str) -> Layout:
        """The same layout with ``win`` as its winning tile (one of the concealed tiles, or the one read), ``why``
        saying why: its concealed tiles, winning tile, detections and notes all name ``win``. When the photo sets
        no tile apart, the last copy of ``win`` in reading order is taken as the winning tile's detection.
        ``ValueError`` when ``win`` is not among the tiles read."""
        if self.win_tile is None or self.win_detection is None:
            msg = f"no winning tile can be chosen: {self.reading()}"
            raise ValueError(msg)
        tiles = [*zip(self.concealed, self.concealed_detections, strict=True), (self.win_tile, self.win_detection)]
        at = [k for k, (t, _) in enumerate(tiles) if t == win]
        if not at:
            msg = f"{win} is not among the concealed tiles read: {self.reading()}"
            raise ValueError(msg)
        win_det = tiles.pop(at[-1])[1]
        notes = list(self.notes)
        if self.win_tile_assumed:
            old = assumed_note(self.win_candidates, self.win_tile)
            new = assumed_note(self.win_candidates, win, why)
            notes = [new if n == old else n for n in notes]
        else:
            notes.append(f"{win} taken as the winning tile, {why} (the photo sets {self.win_tile} apart)")
        return replace(self, concealed=tuple(t for t, _ in tiles), concealed_detections=tuple(d for _, d in tiles),
                       win_tile=win, win_detection=win_det, notes=tuple(notes))

    def of_part(self, part: Sequence[int], total: int, note: str = "") -> Layout:
        """This layout of the detections ``part`` (read alone) as a layout of all ``total`` detections: each index k
        is ``part[k]``, the detections outside the part are loose, and ``note`` (where given) says so."""
        at = list(part)

        def many(ix: Sequence[int]) -> tuple[int, ...]:
            return tuple(at[i] for i in ix)

        outside = sorted(frozenset(range(total)) - frozenset(at))
        return replace(self, rows=tuple(Row(r.role, tuple(many(g) for g in r.groups)) for r in self.rows),
                       melds=tuple(Meld(m.kind, m.tiles, many(m.detections)) for m in self.melds),
                       concealed_detections=many(self.concealed_detections),
                       win_detection=None if self.win_detection is None else at[self.win_detection],
                       flower_detections=many(self.flower_detections), loose=tuple(sorted([*many(self.loose),
                                                                                        *outside])),
                       merged=many(self.merged), renamed=many(self.renamed), left_out=many(self.left_out),
                       problem=self.problem and replace(self.problem, detections=many(self.problem.detections)),
                       notes=(*self.notes, note) if note else self.notes)

    def hand_with(self, win: str | None = None, kong_tiles: Sequence[str] = ()) -> str | None:
        """The notation with ``win`` as the winning tile (default: the one read or assumed) and the tiles of the
        four-back concealed kongs in reading order; None when a tile is still unknown or the hand is illegal."""
        if self.problem is not None:
            return None
        kongs = list(kong_tiles)
        if len(kongs) < self.unknown_kongs:
            return None
        concealed = list(self.concealed)
        win_tile = self.win_tile
        if win is not None and win != win_tile:
            if win_tile is not None:
                concealed.append(win_tile)
            if win not in concealed:
                return None
            concealed.remove(win)
            win_tile = win
        if win_tile is None:
            return None
        parts = []
        for m in self.melds:
            parts.append(m.notation(None if m.known else kongs.pop(0)))
        parts.append(tiles_notation(concealed))
        parts.append("+" + win_tile)
        if self.flowers:
            parts.append(tiles_notation(self.flowers))
        return " ".join(p for p in parts if p)

    def reading(self) -> str:
        """Best-effort notation even when illegal (unknown tiles as ``?``), for messages."""
        parts = [m.notation() for m in self.melds] + [tiles_notation(self.concealed)]
        if self.win_tile:
            parts.append("+" + self.win_tile)
        if self.flowers:
            parts.append(tiles_notation(self.flowers))
        return " ".join(p for p in parts if p)

    def to_dict(self) -> dict[str, Any]:
        """The contract's ``layout`` object (rows, melds, win_tile_assumed, notes) and the rest of the reading."""
        return {
            "rows": [r.to_dict() for r in self.rows],
            "melds": [m.to_dict() for m in self.melds],
            "concealed": list(self.concealed),
            "concealed_detections": list(self.concealed_detections),
            "win_tile": self.win_tile,
            "win_detection": self.win_detection,
            "win_tile_assumed": self.win_tile_assumed,
            "win_candidates": list(self.win_candidates),
            "flowers": list(self.flowers),
            "flower_detections": list(self.flower_detections),
            "loose": list(self.loose),
            "merged": list(self.merged),
            "unknown_kongs": self.unknown_kongs,
            "reading": self.reading(),
            "problem": self.problem.to_dict() if self.problem else None,
            "notes": list(self.notes),
            "renamed": list(self.renamed),
            "left_out": list(self.left_out),
            "angle": round(self.angle, 1),
            "tile_size": round(self.tile_size, 1),
        }
